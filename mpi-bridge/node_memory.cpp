// mpi-bridge/node_memory.cpp -- MPI_Win_allocate_shared + MPI_Win_shared_query.
#include "node_memory.hpp"

#include <cstdint>

#include "check.hpp"
#include "environment.hpp"

namespace gasket::mpi {

namespace {
// Bytes from `p` up to the next kAlignment boundary.
std::size_t padding(const char* p) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    return ((a + NodeMemory::kAlignment - 1) & ~(NodeMemory::kAlignment - 1)) - a;
}
}  // namespace

NodeMemory::NodeMemory(std::size_t bytes, MPI_Comm node_comm) : bytes_(bytes) {
    MPI_Info info;
    check(MPI_Info_create(&info), "MPI_Info_create");
    check(MPI_Info_set(info, "alloc_shared_noncontig", "true"), "MPI_Info_set");
    // Padding for the alignment: address space only, never touched.
    check(MPI_Win_allocate_shared(MPI_Aint(bytes + kAlignment), 1, info, node_comm, &base_, &win_),
          "MPI_Win_allocate_shared");
    // Each process aligns its own block; peers' mappings of it are only
    // page-aligned alike, so the owner's padding is shared and applied.
    unsigned long my_padding = padding(base_);
    base_ += my_padding;
    MPI_Info_free(&info);
    int n = 0;
    check(MPI_Comm_size(node_comm, &n), "MPI_Comm_size");
    peers_.resize(n);
    std::vector<unsigned long> paddings(n);
    check(MPI_Allgather(&my_padding, 1, MPI_UNSIGNED_LONG, paddings.data(), 1, MPI_UNSIGNED_LONG, node_comm),
          "MPI_Allgather");
    for (int r = 0; r < n; ++r) {
        MPI_Aint size = 0;
        int disp_unit = 0;
        check(MPI_Win_shared_query(win_, r, &size, &disp_unit, &peers_[r]), "MPI_Win_shared_query");
        peers_[r] += paddings[r];
    }
}

NodeMemory::~NodeMemory() {
    if (win_ != MPI_WIN_NULL && mpi_usable()) MPI_Win_free(&win_);
}

}  // namespace gasket::mpi
