// mpi-bridge/node_memory.hpp -- memory that every process on the node can
// load/store: an MPI_Win_allocate_shared window on the node communicator.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace gasket::mpi {

class NodeMemory {
public:
    // Collective over `node_comm`: each process allocates `bytes` (the same
    // on every process) and learns where every node peer's block is mapped.
    NodeMemory(std::size_t bytes, MPI_Comm node_comm);
    ~NodeMemory();
    NodeMemory(const NodeMemory&) = delete;
    NodeMemory& operator=(const NodeMemory&) = delete;

    char* base() const { return base_; }
    std::size_t size() const { return bytes_; }
    // Where node peer `node_rank`'s block is mapped in this process.
    char* peer(int node_rank) const { return peers_[node_rank]; }

private:
    MPI_Win win_ = MPI_WIN_NULL;
    char* base_ = nullptr;
    std::size_t bytes_ = 0;
    std::vector<char*> peers_;
};

}  // namespace gasket::mpi
