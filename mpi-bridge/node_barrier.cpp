// mpi-bridge/node_barrier.cpp -- a split-phase barrier in node-shared memory.
#include "node_barrier.hpp"

#include <algorithm>
#include <cstring>

#include "check.hpp"

namespace gasket::mpi {

NodeBarrier::NodeBarrier(MPI_Comm node) {
    check(MPI_Comm_rank(node, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(node, &size_), "MPI_Comm_size");
    const std::size_t bytes = 256 + std::size_t(2) * size_ * kValues * sizeof(long long);
    memory_ = std::make_unique<NodeMemory>(rank_ == 0 ? bytes : 0, node);
    shared_ = reinterpret_cast<Shared*>(memory_->peer(0));
    if (rank_ == 0) {
        std::memset(static_cast<void*>(shared_), 0, bytes);
        std::atomic_thread_fence(std::memory_order_release);
    }
    check(MPI_Barrier(node), "MPI_Barrier");
}

void NodeBarrier::start(const long long (&values)[kValues]) {
    const int parity = int(phase_ & 1);
    long long* mine = shared_->slots() + (std::size_t(parity) * size_ + rank_) * kValues;
    for (int i = 0; i < kValues; ++i) mine[i] = values[i];
    arrive();
}

void NodeBarrier::arrive() {
    // What this thread did before the barrier happens before what any
    // thread of this process does after it: TSan cannot see the order that
    // goes through the other processes (happens_before.hpp).
    release_before_send();
    const int parity = int(phase_ & 1);
    ++phase_;
    // The last to arrive resets the counter for phase + 2 and publishes the
    // phase; the release orders every rank's slot before it.
    if (shared_->arrived[parity].fetch_add(1, std::memory_order_acq_rel) == std::uint64_t(size_ - 1)) {
        shared_->arrived[parity].store(0, std::memory_order_relaxed);
        shared_->completed.store(phase_, std::memory_order_release);
    }
}

bool NodeBarrier::test(long long (&max)[kValues]) {
    if (!test()) return false;
    const int parity = int((phase_ - 1) & 1);
    const long long* all = shared_->slots() + std::size_t(parity) * size_ * kValues;
    for (int i = 0; i < kValues; ++i) max[i] = all[i];
    for (int r = 1; r < size_; ++r)
        for (int i = 0; i < kValues; ++i) max[i] = std::max(max[i], all[std::size_t(r) * kValues + i]);
    return true;
}

}  // namespace gasket::mpi
