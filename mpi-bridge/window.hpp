// mpi-bridge/window.hpp -- one MPI RMA window, locked (MPI_Win_lock_all)
// for its whole life: passive-target epoch for the run.  Hot operations are
// inline; sizes are bytes, displacements are byte offsets from the target's
// window base.
#pragma once

#include <mpi.h>

#include <atomic>
#include <climits>
#include <cstddef>

#include "check.hpp"

namespace gasket::mpi {

class Window {
public:
    // Collective over `comm`: exposes [base, base+bytes) of every process.
    Window(void* base, std::size_t bytes, MPI_Comm comm);
    ~Window();  // unlock_all + free (skipped if MPI was finalized already)
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    // Contiguous put; returns once `src` may be reused (MPI_Win_flush_local).
    void put(const void* src, std::size_t bytes, int target, std::size_t disp) {
        put_nbi(src, bytes, target, disp);
        check(MPI_Win_flush_local(target, win_), "MPI_Win_flush_local");
    }
    // Contiguous put; `src` must not change until flush()/flush_all().
    void put_nbi(const void* src, std::size_t bytes, int target, std::size_t disp) {
        if (bytes > kMaxChunk) [[unlikely]]
            return put_large(src, bytes, target, disp);
        check(MPI_Put(src, int(bytes), MPI_BYTE, target, MPI_Aint(disp), int(bytes), MPI_BYTE, win_), "MPI_Put");
        pending_.store(true, std::memory_order_relaxed);
    }
    // Contiguous get; returns with the data in `dst`.
    void get(void* dst, std::size_t bytes, int target, std::size_t disp) {
        get_nbi(dst, bytes, target, disp);
        check(MPI_Win_flush_local(target, win_), "MPI_Win_flush_local");
    }
    // Contiguous get; `dst` is valid after flush()/flush_all().
    void get_nbi(void* dst, std::size_t bytes, int target, std::size_t disp) {
        if (bytes > kMaxChunk) [[unlikely]]
            return get_large(dst, bytes, target, disp);
        check(MPI_Get(dst, int(bytes), MPI_BYTE, target, MPI_Aint(disp), int(bytes), MPI_BYTE, win_), "MPI_Get");
        pending_.store(true, std::memory_order_relaxed);
    }

    // Strided block transfers (§9.6.1.3/4/7/8): nblocks blocks of `bsize`
    // elements of `elem` bytes; block b starts at element b*local_stride
    // locally and b*remote_stride at the target.  Blocking as put()/get().
    void put_strided(const void* src, std::size_t elem, std::ptrdiff_t remote_stride, std::ptrdiff_t local_stride,
                     std::size_t bsize, std::size_t nblocks, int target, std::size_t disp);
    void get_strided(void* dst, std::size_t elem, std::ptrdiff_t remote_stride, std::ptrdiff_t local_stride,
                     std::size_t bsize, std::size_t nblocks, int target, std::size_t disp);

    // Remote completion of everything issued on this window (op tracking:
    // nothing is flushed when nothing is outstanding).
    void flush_all() {
        if (!pending_.load(std::memory_order_relaxed)) return;
        pending_.store(false, std::memory_order_relaxed);
        check(MPI_Win_flush_all(win_), "MPI_Win_flush_all");
    }
    // Remote completion of everything issued to `target`.
    void flush(int target) {
        if (pending_.load(std::memory_order_relaxed)) check(MPI_Win_flush(target, win_), "MPI_Win_flush");
    }
    // Synchronizes this process's public and private copies (before polling
    // local memory that others update with MPI).
    void sync() { check(MPI_Win_sync(win_), "MPI_Win_sync"); }

private:
    static constexpr std::size_t kMaxChunk = std::size_t(1) << 30;  // keeps MPI counts in int
    void put_large(const void* src, std::size_t bytes, int target, std::size_t disp);
    void get_large(void* dst, std::size_t bytes, int target, std::size_t disp);

    MPI_Win win_ = MPI_WIN_NULL;
    std::atomic<bool> pending_{false};
};

}  // namespace gasket::mpi
