// src/runtime/split_barrier.hpp -- the runtime's one barrier: split-phase
// (start, then test until every member has started), optionally combining
// three values by maximum (GASNet's notify/wait/try, §3.5 of
// gasnet-1.8-spec.md).  Over node-shared memory when every member is on
// this node and reached by loads and stores (mpi::NodeBarrier, no MPI
// call), else a dissemination barrier of eager MPI messages
// (mpi::SplitBarrier).  OpenSHMEM's team barriers (rt::synchronize, one per
// team: Team::barrier) and GASNet's barrier (rt::job_barrier) are both
// this; the caller waits for test() with its rt::Poller.
#pragma once

#include <mpi.h>

#include <memory>

#include "mpi-bridge/node_barrier.hpp"
#include "mpi-bridge/split_barrier.hpp"
#include "mpi-bridge/window.hpp"

namespace gasket::rt {

class SplitPhaseBarrier {
public:
    static constexpr int kValues = 3;

    // Collective over `comm`: the node barrier when `on_node` (every rank
    // of comm on this node), else the network barrier.  Neither keeps comm
    // itself (a duplicate, or a shared-memory window made from it).
    SplitPhaseBarrier(MPI_Comm comm, bool on_node);
    ~SplitPhaseBarrier();
    SplitPhaseBarrier(const SplitPhaseBarrier&) = delete;
    SplitPhaseBarrier& operator=(const SplitPhaseBarrier&) = delete;

    // Enters the barrier with this member's `values` (one phase at a time).
    void start(const long long (&values)[kValues]) {
        if (node_)
            node_->start(values);
        else
            network_->start(values);
    }
    // True once every member has entered; `max` then holds the element-wise
    // maximum of every member's values.  Never blocks.
    bool test(long long (&max)[kValues]) { return node_ ? node_->test(max) : network_->test(max); }

    // The same without values (a barrier that never passes any).
    void start() {
        if (node_)
            node_->start();
        else
            network_->start();
    }
    bool test() { return node_ ? node_->test() : network_->test(); }

    // The first value a member enters OpenSHMEM's network barrier with: 1
    // when this process issued or completed MPI RMA on any window
    // (mpi::Window::rma_epochs) since its previous call on this barrier,
    // else 0 -- after the barrier, its maximum says whether any member did,
    // i.e. whether MPI_Win_sync is needed for their puts to be seen.
    long long note_rma() {
        const unsigned long now = mpi::Window::rma_epochs();
        const bool issued = now != rma_seen_;
        rma_seen_ = now;
        return issued;
    }

    // True for the node barrier: members' memory is reached by loads and
    // stores, so no MPI window needs synchronizing after it.
    bool on_node() const { return node_ != nullptr; }

private:
    std::unique_ptr<mpi::NodeBarrier> node_;
    std::unique_ptr<mpi::SplitBarrier> network_;
    unsigned long rma_seen_ = 0;  // mpi::Window::rma_epochs() at the previous note_rma()
};

}  // namespace gasket::rt
