// mpi-bridge/window.hpp -- one MPI RMA window, locked (MPI_Win_lock_all)
// for its whole life: passive-target epoch for the run.  Hot operations are
// inline; sizes are bytes, displacements are byte offsets from the target's
// window base.
#pragma once

#include <mpi.h>

#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <vector>

#include "check.hpp"

namespace gasket::mpi {

// A target displacement in a window: bytes from the start of what the
// target process exposes (Window::displacement gives the start of its
// usable block; add the byte offset in the block).
using Displacement = MPI_Aint;

class Window {
public:
    // `concurrent`: several threads may use the window at once (then op
    // tracking uses atomic read-modify-writes).  Needs MPI_THREAD_MULTIPLE.
    //
    // Collective over `comm`: exposes [base, base+bytes) of every process.
    Window(void* base, std::size_t bytes, MPI_Comm comm, bool concurrent);
    // Collective over `comm`: MPI_Win_allocate of `bytes` per process whose
    // usable block starts on an `alignment` boundary; *base receives it.
    // MPI serves such windows best (Open MPI: load/store between node
    // peers, where a created window costs a system call per operation).
    Window(std::size_t bytes, std::size_t alignment, MPI_Comm comm, char** base, bool concurrent);
    // Collective over `comm`: a created window over exactly what `other`
    // exposes on every process, so that every displacement means the same
    // byte in both (context windows over the job's memory).
    Window(const Window& other, MPI_Comm comm, bool concurrent);
    // Collective over `comm`: a dynamic window (MPI_Win_create_dynamic) that
    // exposes nothing until attach(); the displacement of an attached byte
    // is its address (address_of), the same on every origin.
    struct Dynamic {};
    Window(Dynamic, MPI_Comm comm, bool concurrent);
    ~Window();  // unlock_all + free (skipped if MPI was finalized already)
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    // The displacement of the first byte of target's usable block (0 for
    // created windows): a caller keeps it per target and adds byte offsets.
    Displacement displacement(int target) const { return block_start_.empty() ? 0 : block_start_[target]; }

    // Dynamic windows only, local: exposes [base, +bytes) of this process
    // (MPI_Win_attach; Open MPI's osc/rdma takes at most osc_rdma_max_attach
    // regions, 32 by default) / withdraws the region attached at `base`
    // (MPI_Win_detach).  MPI errors are fatal, naming the MPI call.
    void attach(void* base, std::size_t bytes);
    void detach(void* base);
    // The displacement of `p` in a dynamic window (MPI_Get_address).
    static Displacement address_of(const void* p);

    // At most this many bytes go in one MPI call (MPI counts are int);
    // larger transfers are split, out of line.
    static constexpr std::size_t kMaxOneCall = std::size_t(1) << 30;

    // Contiguous put of `bytes` from `src` to displacement `disp` of
    // `target`; `src` must not change until flush()/flush_all().  Recorded
    // after the MPI call, so a concurrent flush_all cannot miss it.
    [[gnu::always_inline]] void put_nbi(const void* src, std::size_t bytes, int target, Displacement disp) {
        if (bytes > kMaxOneCall) [[unlikely]]
            return transfer_large(Direction::put, src, bytes, target, disp);
        check(MPI_Put(src, int(bytes), MPI_BYTE, target, disp, int(bytes), MPI_BYTE, win_), "MPI_Put");
        note_pending(target);
    }
    // Contiguous get; `dst` is valid after flush()/flush_all().
    [[gnu::always_inline]] void get_nbi(void* dst, std::size_t bytes, int target, Displacement disp) {
        if (bytes > kMaxOneCall) [[unlikely]]
            return transfer_large(Direction::get, dst, bytes, target, disp);
        check(MPI_Get(dst, int(bytes), MPI_BYTE, target, disp, int(bytes), MPI_BYTE, win_), "MPI_Get");
        note_pending(target);
    }
    // put_nbi/get_nbi of at most kMaxOneCall bytes that record the
    // operation before the MPI call, so nothing lives across it: for a
    // caller that no flush_all() can race, because every thread that
    // completes operations on this window (takes the record) is serialized
    // with it.  Other threads may still issue.
    [[gnu::always_inline]] void put_nbi_recorded_first(const void* src, std::size_t bytes, int target,
                                                       Displacement disp) {
        note_pending(target);
        check(MPI_Put(src, int(bytes), MPI_BYTE, target, disp, int(bytes), MPI_BYTE, win_), "MPI_Put");
    }
    [[gnu::always_inline]] void get_nbi_recorded_first(void* dst, std::size_t bytes, int target, Displacement disp) {
        note_pending(target);
        check(MPI_Get(dst, int(bytes), MPI_BYTE, target, disp, int(bytes), MPI_BYTE, win_), "MPI_Get");
    }
    // One MPI_Put of `count` blocks (count >= 1) to `target`: block i is
    // lengths[i] bytes at displacement disps[i], its bytes taken one block
    // after the other from `src` (sum of lengths bytes, at most INT_MAX).
    // The blocks must not overlap at the target (MPI forbids overlapping
    // entries in a put's target datatype).  The target side is an indexed
    // datatype made, committed and freed per call; `disps` is rewritten
    // relative to its lowest entry.  `src` must not change until
    // flush()/flush_all(); recorded as put_nbi.  MPI errors are fatal,
    // naming the MPI call.  Out of line: it builds a datatype.
    void put_nbi_scattered(const void* src, int count, const int* lengths, Displacement* disps, int target);
    // Contiguous put; returns once `src` may be reused (MPI_Win_flush_local);
    // remote completion by flush()/flush_all().
    void put(const void* src, std::size_t bytes, int target, Displacement disp) {
        put_nbi(src, bytes, target, disp);
        flush_local(target);
    }
    // Contiguous get; returns with the data in `dst`.  Complete on return,
    // so nothing is left pending for quiet.
    void get(void* dst, std::size_t bytes, int target, Displacement disp) {
        if (bytes > kMaxOneCall) [[unlikely]]
            transfer_large(Direction::get, dst, bytes, target, disp);
        else
            check(MPI_Get(dst, int(bytes), MPI_BYTE, target, disp, int(bytes), MPI_BYTE, win_), "MPI_Get");
        flush_local(target);
    }

    // Strided block transfers (§9.6.1.3/4/7/8): nblocks blocks of `bsize`
    // elements of `elem` bytes; block b starts at element b*local_stride
    // locally and b*remote_stride at the target.  Blocking as put()/get().
    void put_strided(const void* src, std::size_t elem, std::ptrdiff_t remote_stride, std::ptrdiff_t local_stride,
                     std::size_t bsize, std::size_t nblocks, int target, Displacement disp) {
        transfer_strided(Direction::put, src, elem, remote_stride, local_stride, bsize, nblocks, target, disp);
    }
    void get_strided(void* dst, std::size_t elem, std::ptrdiff_t remote_stride, std::ptrdiff_t local_stride,
                     std::size_t bsize, std::size_t nblocks, int target, Displacement disp) {
        transfer_strided(Direction::get, dst, elem, remote_stride, local_stride, bsize, nblocks, target, disp);
    }

    // Remote completion of everything issued on this window.  Op tracking:
    // nothing is flushed when nothing is outstanding, and one target's
    // operations are completed with MPI_Win_flush rather than _flush_all.
    //
    // Concurrent windows: the thread that takes the pending state flushes
    // for everyone, so another thread finding nothing pending may only
    // return once that flush is over.  Taking and flushing therefore hold
    // flush_mutex_ (uncontended: one lock per flush), and a thread that
    // finds nothing waits for the lock.
    [[gnu::always_inline]] void flush_all() {
        if (threaded_) return flush_all_concurrent();
        const int pending = take_pending();
        if (pending == kNone) return;
        flush_pending(pending);
    }
    // Local completion of everything issued on this window, or to `target`
    // (origin buffers reusable).  MPICH family: one MPI_Win_flush_local per
    // process of the window (see flush_per_target_).
    void flush_local_all() {
        if (flush_per_target_) return flush_local_each();
        check(MPI_Win_flush_local_all(win_), "MPI_Win_flush_local_all");
    }
    void flush_local(int target) { check(MPI_Win_flush_local(target, win_), "MPI_Win_flush_local"); }
    // Remote completion of everything issued to `target`.
    [[gnu::always_inline]] void flush(int target) {
        if (pending_.load(std::memory_order_acquire) != kNone) {
            check(MPI_Win_flush(target, win_), "MPI_Win_flush");
            bump_epochs();
        } else if (threaded_)
            wait_for_flush();  // another thread may be completing ours
    }
    // Epochs of MPI RMA this process has issued or completed, on any
    // window: bumped when a window goes from nothing outstanding to
    // something, and at every flush that completes something.  Unchanged
    // between two reads: no MPI put of this process started or completed
    // in between (OpenSHMEM's barrier then skips MPI_Win_sync).
    static unsigned long rma_epochs() { return rma_epochs_.load(std::memory_order_relaxed); }

    // Synchronizes this process's public and private copies (before polling
    // local memory that others update with MPI).
    void sync() { check(MPI_Win_sync(win_), "MPI_Win_sync"); }

    // Whether several threads may use the window at once (see the
    // constructors).  set_concurrent changes it for a window handed to a new
    // user (a context from the pool); only while nothing is outstanding,
    // i.e. after flush_all().
    bool concurrent() const { return threaded_; }
    void set_concurrent(bool concurrent);
    // True when no operation issued on this window awaits a flush.
    bool idle() const { return pending_.load(std::memory_order_relaxed) == kNone; }

private:
    void lock();
    void flush_pending(int pending) {
        if (pending >= 0)
            check(MPI_Win_flush(pending, win_), "MPI_Win_flush");
        else if (flush_per_target_)
            flush_each();
        else
            check(MPI_Win_flush_all(win_), "MPI_Win_flush_all");
        bump_epochs();
    }
    // MPI_Win_flush / MPI_Win_flush_local to every process of the window in
    // turn: the MPICH family's replacement for the _all forms (out of line).
    void flush_each();
    void flush_local_each();
    static void bump_epochs() { rma_epochs_.fetch_add(1, std::memory_order_relaxed); }
    void flush_all_concurrent();  // out of line: takes flush_mutex_
    void wait_for_flush();        // returns once no flush_all is under way
    // Records an operation to `target` not yet remotely complete.  Steady
    // state (same target again, or several already) is a load, no store;
    // the compare-exchange keeps concurrent threads from losing a target.
    [[gnu::always_inline]] void note_pending(int target) {
        int seen = pending_.load(std::memory_order_relaxed);
        if (seen == target || seen == kMany) return;
        if (seen == kNone) bump_epochs();
        if (!threaded_) return pending_.store(seen == kNone ? target : kMany, std::memory_order_relaxed);
        if (seen == kNone && pending_.compare_exchange_strong(seen, target, std::memory_order_relaxed)) return;
        if (seen != target) pending_.store(kMany, std::memory_order_relaxed);
    }
    // Reads and clears the pending state (one locked instruction only when
    // threads may race).
    [[gnu::always_inline]] int take_pending() {
        if (threaded_) return pending_.exchange(kNone, std::memory_order_relaxed);
        const int seen = pending_.load(std::memory_order_relaxed);
        if (seen != kNone) pending_.store(kNone, std::memory_order_relaxed);
        return seen;
    }

    static constexpr int kNone = -2;  // pending_: nothing outstanding
    static constexpr int kMany = -1;  // pending_: several targets (else: the one target)
    enum class Direction { put, get };
    // One MPI_Put or MPI_Get (local buffer `local`), recorded as pending.
    void issue(Direction d, const void* local, int count, MPI_Datatype local_type, int target, Displacement disp,
               int target_count, MPI_Datatype target_type);
    void transfer_large(Direction d, const void* local, std::size_t bytes, int target, Displacement disp);
    void transfer_strided(Direction d, const void* local, std::size_t elem, std::ptrdiff_t remote_stride,
                          std::ptrdiff_t local_stride, std::size_t bsize, std::size_t nblocks, int target,
                          Displacement disp);

    MPI_Win win_ = MPI_WIN_NULL;
    std::atomic<int> pending_{kNone};
    static inline std::atomic<unsigned long> rma_epochs_{0};  // see rma_epochs()
    std::mutex flush_mutex_;                                  // concurrent windows: held while taking and flushing
    std::vector<Displacement> block_start_;                   // per target, allocated windows only
    // Threads may use the window concurrently.
    bool threaded_ = false;
    // MPICH 4.0.2 (ch4:ucx) returns from MPI_Win_flush_all and
    // MPI_Win_flush_local_all before every operation is complete: with
    // thousands of small puts and gets outstanding, gets later find their
    // buffers unwritten and puts send origin bytes rewritten after the
    // flush (docs/cluster-path.md, "The last known failures", has the raw-MPI reproducer);
    // MPI_Win_flush and MPI_Win_flush_local to one process are right.  So
    // on the MPICH family (not Open MPI, from MPI_Get_library_version, as
    // Environment::rma_needs_target) the _all forms become one per-process
    // flush for each of the window's `size_` processes.
    bool flush_per_target_ = false;
    int size_ = 0;
    // What this process exposes.
    void* exposed_base_ = nullptr;
    std::size_t exposed_bytes_ = 0;
};

}  // namespace gasket::mpi
