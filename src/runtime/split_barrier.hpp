// src/runtime/split_barrier.hpp -- the split-phase barrier that also
// combines three values by maximum (GASNet's notify/wait/try, §3.5 of
// gasnet-1.8-spec.md): over node-shared memory when every PE of the job is
// on this node and the node fast path is on (mpi::NodeBarrier, no MPI
// call), else a dissemination barrier of eager MPI messages
// (mpi::SplitBarrier).
#pragma once

#include <memory>

#include "job.hpp"
#include "mpi-bridge/node_barrier.hpp"
#include "mpi-bridge/split_barrier.hpp"

namespace gasket::rt {

class SplitPhaseBarrier {
public:
    static constexpr int kValues = 3;

    // Collective over every PE of `j`: chooses the node or network barrier.
    explicit SplitPhaseBarrier(Job& j);
    ~SplitPhaseBarrier();
    SplitPhaseBarrier(const SplitPhaseBarrier&) = delete;
    SplitPhaseBarrier& operator=(const SplitPhaseBarrier&) = delete;

    // Enters the barrier with this PE's `values` (one phase at a time).
    void start(const long long (&values)[kValues]) {
        if (node_)
            node_->start(values);
        else
            network_->start(values);
    }
    // True once every PE has entered; `max` then holds the element-wise
    // maximum of every PE's values.  Never blocks.
    bool test(long long (&max)[kValues]) { return node_ ? node_->test(max) : network_->test(max); }

private:
    std::unique_ptr<mpi::NodeBarrier> node_;
    std::unique_ptr<mpi::SplitBarrier> network_;
};

}  // namespace gasket::rt
