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

class Window {
public:
    // `concurrent`: several threads may use the window at once (then op
    // tracking uses atomic read-modify-writes and small puts skip the
    // bounce ring).  Needs MPI_THREAD_MULTIPLE.
    //
    // Collective over `comm`: exposes [base, base+bytes) of every process.
    Window(void* base, std::size_t bytes, MPI_Comm comm, bool concurrent);
    // Collective over `comm`: MPI_Win_allocate of `bytes` per process whose
    // usable block starts on an `alignment` boundary; *base receives it.
    // MPI serves such windows best (Open MPI: load/store between node
    // peers, where a created window costs a system call per operation).
    // Displacements passed to the transfers below count from the aligned
    // block.
    Window(std::size_t bytes, std::size_t alignment, MPI_Comm comm, char** base, bool concurrent);
    ~Window();  // unlock_all + free (skipped if MPI was finalized already)
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    // Contiguous put; returns once `src` may be reused.  Small puts are
    // copied into the bounce ring and sent from there (no MPI_Win_flush_local
    // per put); larger ones wait for MPI_Win_flush_local.
    void put(const void* src, std::size_t bytes, int target, std::size_t disp) {
        if (bytes <= kBounceMax && !ring_.empty()) {
            if (ring_used_ + bytes > ring_.size()) [[unlikely]]
                recycle_ring();
            char* slot = ring_.data() + ring_used_;
            ring_used_ += (bytes + 7) & ~std::size_t(7);
            std::memcpy(slot, src, bytes);
            return put_nbi(slot, bytes, target, disp);
        }
        put_nbi(src, bytes, target, disp);
        check(MPI_Win_flush_local(target, win_), "MPI_Win_flush_local");
    }
    // Contiguous put; `src` must not change until flush()/flush_all().
    void put_nbi(const void* src, std::size_t bytes, int target, std::size_t disp) {
        if (bytes > kMaxChunk) [[unlikely]]
            return transfer_large(Direction::put, src, bytes, target, disp);
        check(MPI_Put(src, int(bytes), MPI_BYTE, target, at(target, disp), int(bytes), MPI_BYTE, win_), "MPI_Put");
        note_pending(target);
    }
    // The displacement of byte `disp` of target's usable block, for callers
    // that keep it per target and then use put_nbi_at/get_nbi_at.
    MPI_Aint displacement(int target, std::size_t disp = 0) const { return at(target, disp); }
    // put_nbi/get_nbi of at most kMaxAtBytes bytes (one MPI call) to the
    // window displacement `target_disp` (from displacement()): the lean
    // form for small transfers whose caller already has the displacement.
    static constexpr std::size_t kMaxAtBytes = std::size_t(1) << 30;
    void put_nbi_at(const void* src, std::size_t bytes, int target, MPI_Aint target_disp) {
        check(MPI_Put(src, int(bytes), MPI_BYTE, target, target_disp, int(bytes), MPI_BYTE, win_), "MPI_Put");
        note_pending(target);  // after: a flush_all racing with us then cannot miss this put
    }
    void get_nbi_at(void* dst, std::size_t bytes, int target, MPI_Aint target_disp) {
        check(MPI_Get(dst, int(bytes), MPI_BYTE, target, target_disp, int(bytes), MPI_BYTE, win_), "MPI_Get");
        note_pending(target);
    }
    // The same, recording the operation before the MPI call, so that
    // nothing lives across it: for a caller that no flush_all() can race,
    // because every thread that completes operations on this window (takes
    // the record) is serialized with it.  Other threads may still issue.
    void put_nbi_at_recorded_first(const void* src, std::size_t bytes, int target, MPI_Aint target_disp) {
        note_pending(target);
        check(MPI_Put(src, int(bytes), MPI_BYTE, target, target_disp, int(bytes), MPI_BYTE, win_), "MPI_Put");
    }
    void get_nbi_at_recorded_first(void* dst, std::size_t bytes, int target, MPI_Aint target_disp) {
        note_pending(target);
        check(MPI_Get(dst, int(bytes), MPI_BYTE, target, target_disp, int(bytes), MPI_BYTE, win_), "MPI_Get");
    }
    // Contiguous get; returns with the data in `dst`.  Complete on return,
    // so nothing is left pending for quiet.
    void get(void* dst, std::size_t bytes, int target, std::size_t disp) {
        if (bytes > kMaxChunk) [[unlikely]]
            transfer_large(Direction::get, dst, bytes, target, disp);
        else
            check(MPI_Get(dst, int(bytes), MPI_BYTE, target, at(target, disp), int(bytes), MPI_BYTE, win_), "MPI_Get");
        check(MPI_Win_flush_local(target, win_), "MPI_Win_flush_local");
    }
    // Contiguous get; `dst` is valid after flush()/flush_all().
    void get_nbi(void* dst, std::size_t bytes, int target, std::size_t disp) {
        if (bytes > kMaxChunk) [[unlikely]]
            return transfer_large(Direction::get, dst, bytes, target, disp);
        check(MPI_Get(dst, int(bytes), MPI_BYTE, target, at(target, disp), int(bytes), MPI_BYTE, win_), "MPI_Get");
        note_pending(target);
    }

    // Strided block transfers (§9.6.1.3/4/7/8): nblocks blocks of `bsize`
    // elements of `elem` bytes; block b starts at element b*local_stride
    // locally and b*remote_stride at the target.  Blocking as put()/get().
    void put_strided(const void* src, std::size_t elem, std::ptrdiff_t remote_stride, std::ptrdiff_t local_stride,
                     std::size_t bsize, std::size_t nblocks, int target, std::size_t disp) {
        transfer_strided(Direction::put, src, elem, remote_stride, local_stride, bsize, nblocks, target, disp);
    }
    void get_strided(void* dst, std::size_t elem, std::ptrdiff_t remote_stride, std::ptrdiff_t local_stride,
                     std::size_t bsize, std::size_t nblocks, int target, std::size_t disp) {
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
    void flush_all() {
        if (threaded_) return flush_all_concurrent();
        const int pending = take_pending();
        if (pending == kNone) return;
        flush_pending(pending);
        ring_used_ = 0;  // every put sent from the ring is complete
    }
    // Local completion of everything issued on this window (origin buffers
    // reusable).
    void flush_local_all() { check(MPI_Win_flush_local_all(win_), "MPI_Win_flush_local_all"); }
    // Remote completion of everything issued to `target`.
    void flush(int target) {
        if (pending_.load(std::memory_order_acquire) != kNone)
            check(MPI_Win_flush(target, win_), "MPI_Win_flush");
        else if (threaded_)
            wait_for_flush();  // another thread may be completing ours
    }
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
    // Target displacement of `disp` bytes into target's usable block.
    MPI_Aint at(int target, std::size_t disp) const {
        return MPI_Aint(disp) + (block_start_.empty() ? 0 : block_start_[target]);
    }
    void lock();
    void flush_pending(int pending) {
        if (pending >= 0)
            check(MPI_Win_flush(pending, win_), "MPI_Win_flush");
        else
            check(MPI_Win_flush_all(win_), "MPI_Win_flush_all");
    }
    void flush_all_concurrent();  // out of line: takes flush_mutex_
    void wait_for_flush();        // returns once no flush_all is under way
    void recycle_ring();  // MPI_Win_flush_local_all, then reuse the ring
    // Records an operation to `target` not yet remotely complete.  Steady
    // state (same target again, or several already) is a load, no store;
    // the compare-exchange keeps concurrent threads from losing a target.
    void note_pending(int target) {
        int seen = pending_.load(std::memory_order_relaxed);
        if (seen == target || seen == kMany) return;
        if (!threaded_) return pending_.store(seen == kNone ? target : kMany, std::memory_order_relaxed);
        if (seen == kNone && pending_.compare_exchange_strong(seen, target, std::memory_order_relaxed)) return;
        if (seen != target) pending_.store(kMany, std::memory_order_relaxed);
    }
    // Reads and clears the pending state (one locked instruction only when
    // threads may race).
    int take_pending() {
        if (threaded_) return pending_.exchange(kNone, std::memory_order_relaxed);
        const int seen = pending_.load(std::memory_order_relaxed);
        if (seen != kNone) pending_.store(kNone, std::memory_order_relaxed);
        return seen;
    }

    static constexpr int kNone = -2;  // pending_: nothing outstanding
    static constexpr int kMany = -1;  // pending_: several targets (else: the one target)
    static constexpr std::size_t kBounceMax = 256;        // bytes: puts sent from the ring
    static constexpr std::size_t kRingBytes = 64 * 1024;  // bounce ring size
    static constexpr std::size_t kMaxChunk = kMaxAtBytes;  // keeps MPI counts in int
    enum class Direction { put, get };
    // One MPI_Put or MPI_Get (local buffer `local`), recorded as pending.
    void issue(Direction d, const void* local, int count, MPI_Datatype local_type, int target, MPI_Aint disp,
               int target_count, MPI_Datatype target_type);
    void transfer_large(Direction d, const void* local, std::size_t bytes, int target, std::size_t disp);
    void transfer_strided(Direction d, const void* local, std::size_t elem, std::ptrdiff_t remote_stride,
                          std::ptrdiff_t local_stride, std::size_t bsize, std::size_t nblocks, int target,
                          std::size_t disp);

    MPI_Win win_ = MPI_WIN_NULL;
    std::atomic<int> pending_{kNone};
    std::mutex flush_mutex_;  // concurrent windows: held while taking and flushing
    std::vector<MPI_Aint> block_start_;  // per target, allocated windows only
    // Threads may use the window concurrently.
    bool threaded_ = false;
    // Bounce ring for small blocking puts; empty (unused) when threaded_,
    // where threads would share it.
    std::vector<char> ring_;
    std::size_t ring_used_ = 0;
};

}  // namespace gasket::mpi
