// mpi-bridge/node_barrier.hpp -- the split-phase barrier of SplitBarrier
// (start, then test until every rank has started; the element-wise maximum
// of every rank's values), over node-shared memory, for jobs whose ranks
// all share one node: a counter and a slot per rank, no MPI call.
//
// Phases alternate between two sets of slots and counters: a rank can be at
// most one phase ahead of the slowest (it cannot pass phase p+1 before
// everyone started it, which each does only after finishing phase p), so
// the set it writes is never the one a slower rank still reads.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>

#include "node_memory.hpp"

namespace gasket::mpi {

class NodeBarrier {
public:
    static constexpr int kValues = 3;

    // Collective over `node` (which must hold every rank of the job).
    explicit NodeBarrier(MPI_Comm node);
    NodeBarrier(const NodeBarrier&) = delete;
    NodeBarrier& operator=(const NodeBarrier&) = delete;

    void start(const long long (&values)[kValues]);
    bool test(long long (&max)[kValues]);

private:
    struct Shared;
    std::unique_ptr<NodeMemory> memory_;
    Shared* shared_ = nullptr;
    int rank_ = 0, size_ = 1;
    std::uint64_t phase_ = 0;  // phases this rank has started
};

}  // namespace gasket::mpi
