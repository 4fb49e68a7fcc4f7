// src/runtime/split_barrier.cpp -- choosing the node or network barrier (cold).
#include "split_barrier.hpp"

namespace gasket::rt {

SplitPhaseBarrier::SplitPhaseBarrier(MPI_Comm comm, bool on_node) {
    if (on_node)
        node_ = std::make_unique<mpi::NodeBarrier>(comm);
    else
        network_ = std::make_unique<mpi::SplitBarrier>(comm);
}

SplitPhaseBarrier::~SplitPhaseBarrier() = default;

}  // namespace gasket::rt
