// mpi-bridge/node_memory.hpp -- memory that every process on the node can
// load/store: an MPI_Win_allocate_shared window on the node communicator.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace gasket::mpi {

class NodeMemory {
public:
    // Every block starts on this boundary (MPI gives no alignment guarantee:
    // Open MPI 4.1 returns a base 264 bytes into a page).
    static constexpr std::size_t kAlignment = std::size_t(2) << 20;

    // Collective over `node_comm`: each process gets `bytes` (the same on
    // every process) starting on a kAlignment boundary, and learns where every
    // node peer's block is mapped.
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
    std::size_t bytes_ = 0;  // usable bytes from base_
    std::vector<char*> peers_;
};

}  // namespace gasket::mpi
