// src/runtime/split_barrier.cpp -- choosing the split-phase barrier (cold).
#include "split_barrier.hpp"

namespace gasket::rt {

SplitPhaseBarrier::SplitPhaseBarrier(Job& j) {
    if (j.config.node_fastpath && j.env->node_size() == j.n_pes)
        node_ = std::make_unique<mpi::NodeBarrier>(j.env->node());
    else
        network_ = std::make_unique<mpi::SplitBarrier>(j.env->world());
}

SplitPhaseBarrier::~SplitPhaseBarrier() = default;

}  // namespace gasket::rt
