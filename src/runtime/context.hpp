// src/runtime/context.hpp -- a communication context (OpenSHMEM §9.5): its
// own ordering and completion domain, over a team.
//
// MPI cannot create windows outside a collective call, and shmem_ctx_create
// is not collective, so the windows are made ahead of time: a pool of
// GASKET_CTX_WINDOWS window pairs (heap + global data, over the same memory
// as the job's default windows), opened at shmem_init.  A context takes a
// free pair, so its MPI operations, its flushes and Open MPI's per-window
// locks are its own.  When every pair is taken the context shares the job's
// default windows: still correct (its quiet then also completes the default
// context's MPI operations), only less isolated.
//
// Whatever its windows, a context counts its own AMOs in flight as Active
// Messages and its own direct stores (node fast path), so its quiet waits
// for those only.  The job's default context (SHMEM_CTX_DEFAULT, and every
// GASNet transfer) is an ordinary Context over the world team and the
// job's own windows, made when the job starts: every RMA, AMO and
// completion entry point (rma.hpp, amo.hpp, sync.hpp) takes a Context, and
// completion state lives here only.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "bounce.hpp"
#include "job.hpp"

namespace gasket::rt {

// One pool entry: windows over the heap and the global data (null on a
// 1-PE job, which has no windows).
struct ContextWindows {
    std::unique_ptr<mpi::Window> heap, data;
    bool busy = false;
};

// The pool of context windows.  Made collectively at init; taking and
// giving back are local (a mutex: cold, at context create/destroy only).
class ContextPool {
public:
    // Collective over the world: `n` pairs of windows over the job's heap and
    // global data (both must be attached).
    ContextPool(Job& j, int n);
    ~ContextPool();
    ContextPool(const ContextPool&) = delete;
    ContextPool& operator=(const ContextPool&) = delete;

    // A free pair, set up for `concurrent` use, or nullptr when all are
    // taken.
    ContextWindows* take(bool concurrent);
    void give(ContextWindows* w);
    int size() const { return static_cast<int>(slots_.size()); }
    int free_count();

private:
    std::mutex mutex_;
    std::vector<std::unique_ptr<ContextWindows>> slots_;
};

class Context {
public:
    // A context over `team` (which must outlive it).  `concurrent`: threads
    // may use it at once (a shareable context under SHMEM_THREAD_MULTIPLE).
    // `nostore`: quiet/fence need not order the program's own stores
    // (SHMEM_CTX_NOSTORE).  Takes a pool pair if one is free, else shares the
    // job's windows.  Local.
    Context(Job& j, const Team& team, bool concurrent, bool nostore);
    // The job's default context: the world team, the job's own windows
    // (never a pool pair), concurrent when the job's RMA is.  Its quiet
    // fences only after direct stores (as SHMEM_CTX_NOSTORE): the program's
    // own stores are ordered by the synchronization that publishes them.
    static std::unique_ptr<Context, ContextDelete> make_default(Job& j);
    // Gives the windows back; the caller completes the context first.
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    const Team& team() const { return team_; }
    // Whether the context has a pool pair of its own (else it shares the
    // default windows).
    bool own_windows() const { return pooled_ != nullptr; }
    bool nostore() const { return nostore_; }
    mpi::Window* heap_window() const { return heap_window_; }
    mpi::Window* data_window() const { return data_window_; }

    // World PE of the team PE `pe`; fatal, naming `routine`, when it is not
    // a PE of the team.  (World contexts are checked by translate().)
    int world_pe(const char* routine, int pe) const { return world_ ? pe : team_.checked_world_pe(routine, pe); }
    Job& job() const { return job_; }
    // Translates symmetric `addr` for a transfer of `bytes` to world PE
    // `pe`, through this context's windows.  Fatal, naming `routine`, if pe
    // is out of range, addr is not symmetric, or the transfer runs past the
    // end of its segment -- except that an empty transfer (bytes == 0) to a
    // valid PE may name any address, null included (OpenSHMEM 1.6 Annex C):
    // then the target is empty (null direct and window: nothing to do).
    [[gnu::always_inline]] Translation locate(const char* routine, const void* addr, std::size_t bytes, int pe) {
        Job& j = job_;
        // One object returned on every path (named return value), and its
        // address never taken (the report gets its parts by value): with a
        // second, temporary one GCC built `t` on the stack and copied it out
        // with `rep movs` (a fast-path fetch_add 27 ns instead of 7); with its
        // address passed to the report, `t` lived on the stack and an MPI-path
        // put reloaded it (8-byte put + quiet 1.41x MPI instead of 1.24x).
        Translation t = translate(j.heap, j.data, j.n_pes, addr, bytes, pe);
        if (t.fault != Fault::none) [[unlikely]] {
            j.report_unless_empty(routine, t.fault, t.segment, addr, bytes, pe);
            t = Translation{{}, nullptr, 0, Fault::none};
            return t;
        }
        t.target.window = t.segment == &j.heap ? heap_window_ : data_window_;
        return t;
    }
    [[gnu::always_inline]] Target resolve(const char* routine, const void* addr, std::size_t bytes, int pe) {
        return locate(routine, addr, bytes, pe).target;
    }

    // Direct stores (puts by load/store) since this context's last quiet:
    // only then does quiet need a full memory fence.
    void note_direct_store() { direct_stores_.store(true, std::memory_order_relaxed); }
    // With threads (concurrent) the flag cannot tell whose stores it saw:
    // another thread's quiet may have cleared it after this thread's
    // stores, so every quiet fences.
    bool take_direct_stores() {
        if (concurrent_) return true;
        if (!direct_stores_.load(std::memory_order_relaxed)) return false;
        direct_stores_.store(false, std::memory_order_relaxed);
        return true;
    }
    // Remote completion of this context's MPI operations (all, or to world
    // PE `pe`), the run of its bounce ring included.
    void flush_all() {
        const bool ring_busy = ring_.busy();  // (never busy unless ring_user_)
        if (ring_busy) ring_.issue_run();
        if (heap_window_) heap_window_->flush_all();
        if (data_window_) data_window_->flush_all();
        if (dynamic_window_) dynamic_window_->flush_all();
        if (ring_busy) ring_.completed();
    }
    void flush(int pe) {
        if (ring_.busy()) ring_.issue_run();
        if (heap_window_) heap_window_->flush(pe);
        if (data_window_) data_window_->flush(pe);
        if (dynamic_window_) dynamic_window_->flush(pe);
    }

    // The context's bounce ring (bounce.hpp), attached, when one thread at
    // a time uses the context, else null.
    BounceRing* ring() {
        if (!ring_user_) return nullptr;
        if (!ring_.attached()) [[unlikely]]
            attach_ring();
        return &ring_;
    }

    // This context's AMOs in flight as Active Messages: quiet and fence
    // wait for zero.
    std::atomic<long> pending_am_ops{0};

private:
    struct DefaultTag {};
    Context(Job& j, DefaultTag);
    void attach_ring();  // cold: storage at the first use

    Job& job_;
    const Team& team_;
    bool world_;  // team PE == world PE: no translation
    bool nostore_;
    bool concurrent_;  // threads may use it at once
    bool ring_user_;   // !concurrent_ and there are windows: ring() serves
    BounceRing ring_{};
    std::unique_ptr<char[]> ring_storage_;
    std::unique_ptr<ScatterBatch> scatter_;  // the ring's scattered batches, when on
    ContextWindows* pooled_ = nullptr;
    mpi::Window* heap_window_ = nullptr;
    mpi::Window* data_window_ = nullptr;
    mpi::Window* dynamic_window_ = nullptr;  // the default context: the job's dynamic window (GASNet-EX segments)
    std::atomic<bool> direct_stores_{false};
};

// The default context of the running job (SHMEM_CTX_DEFAULT); fatal,
// naming `routine`, outside init..finalize.
inline Context& default_context(const char* routine) { return *job(routine).default_ctx; }

}  // namespace gasket::rt
