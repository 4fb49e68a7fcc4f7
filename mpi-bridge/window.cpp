// mpi-bridge/window.cpp -- window life cycle and the cold transfer paths.
#include "window.hpp"

#include <algorithm>

#include "environment.hpp"

namespace gasket::mpi {

namespace {
// Gasket never relies on the ordering of accumulate operations.
MPI_Info window_info() {
    MPI_Info info;
    check(MPI_Info_create(&info), "MPI_Info_create");
    check(MPI_Info_set(info, "accumulate_ordering", "none"), "MPI_Info_set");
    return info;
}

}  // namespace

Window::Window(void* base, std::size_t bytes, MPI_Comm comm, bool concurrent)
    : threaded_(concurrent), exposed_base_(base), exposed_bytes_(bytes) {
    MPI_Info info = window_info();
    check(MPI_Win_create(base, MPI_Aint(bytes), 1, info, comm, &win_), "MPI_Win_create");
    MPI_Info_free(&info);
    lock();
}

Window::Window(std::size_t bytes, std::size_t alignment, MPI_Comm comm, char** base, bool concurrent)
    : threaded_(concurrent) {
    MPI_Info info = window_info();
    char* raw = nullptr;
    check(MPI_Win_allocate(MPI_Aint(bytes + alignment), 1, info, comm, &raw, &win_), "MPI_Win_allocate");
    MPI_Info_free(&info);
    const auto a = reinterpret_cast<std::uintptr_t>(raw);
    MPI_Aint start = MPI_Aint(((a + alignment - 1) & ~(alignment - 1)) - a);
    *base = raw + start;
    exposed_base_ = raw;
    exposed_bytes_ = bytes + alignment;
    int n = 0;
    check(MPI_Comm_size(comm, &n), "MPI_Comm_size");
    block_start_.resize(n);
    check(MPI_Allgather(&start, 1, MPI_AINT, block_start_.data(), 1, MPI_AINT, comm), "MPI_Allgather");
    lock();
}

Window::Window(const Window& other, MPI_Comm comm, bool concurrent)
    : Window(other.exposed_base_, other.exposed_bytes_, comm, concurrent) {
    block_start_ = other.block_start_;
}

Window::Window(Dynamic, MPI_Comm comm, bool concurrent) : threaded_(concurrent) {
    MPI_Info info = window_info();
    check(MPI_Win_create_dynamic(info, comm, &win_), "MPI_Win_create_dynamic");
    MPI_Info_free(&info);
    lock();
}

void Window::attach(void* base, std::size_t bytes) {
    check(MPI_Win_attach(win_, base, MPI_Aint(bytes)), "MPI_Win_attach");
}

void Window::detach(void* base) { check(MPI_Win_detach(win_, base), "MPI_Win_detach"); }

Displacement Window::address_of(const void* p) {
    MPI_Aint a = 0;
    check(MPI_Get_address(p, &a), "MPI_Get_address");
    return a;
}

void Window::lock() {
    flush_per_target_ = mpich_family();
    MPI_Group group;
    check(MPI_Win_get_group(win_, &group), "MPI_Win_get_group");
    check(MPI_Group_size(group, &size_), "MPI_Group_size");
    MPI_Group_free(&group);
    check(MPI_Win_set_errhandler(win_, MPI_ERRORS_RETURN), "MPI_Win_set_errhandler");
    check(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_), "MPI_Win_lock_all");
}

void Window::flush_all_concurrent() {
    std::lock_guard<std::mutex> hold(flush_mutex_);
    const int pending = pending_.exchange(kNone, std::memory_order_acq_rel);
    if (pending != kNone) flush_pending(pending);
}

void Window::flush_each() {
    for (int r = 0; r < size_; ++r) check(MPI_Win_flush(r, win_), "MPI_Win_flush");
}

void Window::flush_local_each() {
    for (int r = 0; r < size_; ++r) check(MPI_Win_flush_local(r, win_), "MPI_Win_flush_local");
}

void Window::wait_for_flush() { std::lock_guard<std::mutex> hold(flush_mutex_); }

void Window::set_concurrent(bool concurrent) { threaded_ = concurrent; }

Window::~Window() {
    if (win_ == MPI_WIN_NULL || !mpi_usable()) return;
    MPI_Win_unlock_all(win_);
    MPI_Win_free(&win_);
}

void Window::issue(Direction d, const void* local, int count, MPI_Datatype local_type, int target, Displacement disp,
                   int target_count, MPI_Datatype target_type) {
    void* buffer = const_cast<void*>(local);  // MPI_Get writes it; MPI_Put only reads it
    if (d == Direction::put)
        check(MPI_Put(buffer, count, local_type, target, disp, target_count, target_type, win_), "MPI_Put");
    else
        check(MPI_Get(buffer, count, local_type, target, disp, target_count, target_type, win_), "MPI_Get");
    note_pending(target);
}

void Window::put_nbi_scattered(const void* src, int count, const int* lengths, Displacement* disps, int target) {
    const Displacement low = *std::min_element(disps, disps + count);
    long total = 0;
    for (int i = 0; i < count; ++i) {
        disps[i] -= low;
        total += lengths[i];
    }
    MPI_Datatype blocks;
    check(MPI_Type_create_hindexed(count, lengths, disps, MPI_BYTE, &blocks), "MPI_Type_create_hindexed");
    check(MPI_Type_commit(&blocks), "MPI_Type_commit");
    issue(Direction::put, src, int(total), MPI_BYTE, target, low, 1, blocks);
    MPI_Type_free(&blocks);
}

void Window::transfer_large(Direction d, const void* local, std::size_t bytes, int target, Displacement disp) {
    auto* p = static_cast<const char*>(local);
    for (std::size_t done = 0; done < bytes; done += kMaxOneCall) {
        const int n = int(std::min(kMaxOneCall, bytes - done));
        issue(d, p + done, n, MPI_BYTE, target, disp + Displacement(done), n, MPI_BYTE);
    }
}

namespace {

// An MPI vector type of nblocks blocks of bsize elem-byte elements, block
// starts `stride` elements apart.  Returns false when the shape does not fit
// MPI's int counts or the stride is not positive (caller loops instead).
bool make_vector(std::size_t elem, std::ptrdiff_t stride, std::size_t bsize, std::size_t nblocks, MPI_Datatype* out) {
    if (stride <= 0 || nblocks > INT_MAX || bsize * elem > INT_MAX || std::size_t(stride) * elem > INT_MAX)
        return false;
    MPI_Datatype block;
    check(MPI_Type_contiguous(int(bsize * elem), MPI_BYTE, &block), "MPI_Type_contiguous");
    check(MPI_Type_create_hvector(int(nblocks), 1, MPI_Aint(std::size_t(stride) * elem), block, out),
          "MPI_Type_create_hvector");
    MPI_Type_free(&block);
    check(MPI_Type_commit(out), "MPI_Type_commit");
    return true;
}

}  // namespace

void Window::transfer_strided(Direction d, const void* local, std::size_t elem, std::ptrdiff_t remote_stride,
                              std::ptrdiff_t local_stride, std::size_t bsize, std::size_t nblocks, int target,
                              Displacement disp) {
    if (nblocks == 0 || bsize == 0) return;
    MPI_Datatype local_type, remote_type;
    bool one_call = make_vector(elem, local_stride, bsize, nblocks, &local_type);
    if (one_call && !make_vector(elem, remote_stride, bsize, nblocks, &remote_type)) {
        MPI_Type_free(&local_type);
        one_call = false;
    }
    if (one_call) {
        issue(d, local, 1, local_type, target, disp, 1, remote_type);
        MPI_Type_free(&remote_type);
        MPI_Type_free(&local_type);
    } else {
        // Negative or huge strides or blocks: one transfer per block (a block
        // past MPI's int count in pieces).
        auto* p = static_cast<const char*>(local);
        const auto es = std::ptrdiff_t(elem);
        const std::size_t block = bsize * elem;
        for (std::size_t b = 0; b < nblocks; ++b) {
            const auto i = std::ptrdiff_t(b);
            transfer_large(d, p + i * local_stride * es, block, target, disp + i * remote_stride * es);
        }
    }
    check(MPI_Win_flush_local(target, win_), "MPI_Win_flush_local");
}

}  // namespace gasket::mpi
