// mpi-bridge/node_memory.cpp -- MPI_Win_allocate_shared + MPI_Win_shared_query.
#include "node_memory.hpp"

#include "check.hpp"
#include "environment.hpp"

namespace gasket::mpi {

NodeMemory::NodeMemory(std::size_t bytes, MPI_Comm node_comm) : bytes_(bytes) {
    MPI_Info info;
    check(MPI_Info_create(&info), "MPI_Info_create");
    // Each block on its own pages, so a process's heap is page-aligned.
    check(MPI_Info_set(info, "alloc_shared_noncontig", "true"), "MPI_Info_set");
    check(MPI_Win_allocate_shared(MPI_Aint(bytes), 1, info, node_comm, &base_, &win_), "MPI_Win_allocate_shared");
    MPI_Info_free(&info);
    int n = 0;
    check(MPI_Comm_size(node_comm, &n), "MPI_Comm_size");
    peers_.resize(n);
    for (int r = 0; r < n; ++r) {
        MPI_Aint size = 0;
        int disp_unit = 0;
        check(MPI_Win_shared_query(win_, r, &size, &disp_unit, &peers_[r]), "MPI_Win_shared_query");
    }
}

NodeMemory::~NodeMemory() {
    if (win_ != MPI_WIN_NULL && mpi_usable()) MPI_Win_free(&win_);
}

}  // namespace gasket::mpi
