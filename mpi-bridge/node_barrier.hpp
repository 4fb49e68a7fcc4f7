// mpi-bridge/node_barrier.hpp -- the node barrier: the split-phase barrier
// of SplitBarrier (start, then test until every rank has started; with
// values, the element-wise maximum of every rank's values) over
// node-shared memory, for communicators whose ranks all share this node:
// a counter and a slot per rank, no MPI call after construction.  Both
// APIs' barriers use it when every PE is on the node: OpenSHMEM's team
// barriers without values, GASNet's with them.
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

#include "happens_before.hpp"
#include "node_memory.hpp"

namespace gasket::mpi {

class NodeBarrier {
public:
    static constexpr int kValues = 3;

    // Collective over `node`, whose ranks must all be on this node (the
    // caller knows): MPI_Win_allocate_shared of the counters and slots.
    explicit NodeBarrier(MPI_Comm node);
    NodeBarrier(const NodeBarrier&) = delete;
    NodeBarrier& operator=(const NodeBarrier&) = delete;

    // Enters the next phase with this rank's values; one phase at a time.
    void start(const long long (&values)[kValues]);
    // True once every rank has entered the phase; `max` then holds the
    // element-wise maximum of the values every rank entered with.
    bool test(long long (&max)[kValues]);
    // The same without values (for a barrier whose ranks never pass any:
    // a phase's slots are then never read).
    void start() { arrive(); }
    bool test() const {
        if (shared_->completed.load(std::memory_order_acquire) < phase_) return false;
        acquire_before_delivery();  // ThreadSanitizer builds only, as arrive() (happens_before.hpp)
        return true;
    }

private:
    struct Shared {
        alignas(64) std::atomic<std::uint64_t> completed;   // phases every rank has started
        alignas(64) std::atomic<std::uint64_t> arrived[2];  // ranks that started the phase, per parity
        // slots[parity * size + rank][value], after the header
        long long* slots() { return reinterpret_cast<long long*>(reinterpret_cast<char*>(this) + 256); }
    };
    void arrive();

    std::unique_ptr<NodeMemory> memory_;
    Shared* shared_ = nullptr;
    int rank_ = 0, size_ = 1;
    std::uint64_t phase_ = 0;  // phases this rank has started
};

}  // namespace gasket::mpi
