// mpi-bridge/split_barrier.hpp -- the network barrier: a split-phase
// barrier that also combines a few values by maximum, used by both APIs'
// barriers whenever some PE is off this node or the fast path is off: a dissemination barrier (ceil(log2 n) rounds;
// in round k each rank sends its running maximum to rank + 2^k and
// receives from rank - 2^k) on a private communicator, with persistent
// receives and eager blocking sends; values small enough (OpenSHMEM's
// flags, GASNet's anonymous barrier and its named one with a non-negative
// id that fits) travel in the message's tag (a 0-byte message), others as a
// 24-byte payload.  Maximum
// is idempotent, so values that reach a rank twice do
// no harm, and every rank ends with the maximum over all.  start() is the
// notify, test() the wait's poll.  One point-to-point message per round
// costs what MPI_Barrier costs; MPI_Iallreduce cost 2.7x as much (see
// docs/performance.md).
#pragma once

#include <mpi.h>

#include <vector>

namespace gasket::mpi {

class SplitBarrier {
public:
    static constexpr int kValues = 3;

    explicit SplitBarrier(MPI_Comm comm);  // collective: duplicates comm
    ~SplitBarrier();
    SplitBarrier(const SplitBarrier&) = delete;
    SplitBarrier& operator=(const SplitBarrier&) = delete;

    // Enters the barrier with this rank's values.  One at a time.
    void start(const long long (&values)[kValues]);
    // True once every rank has entered; `max` then holds the element-wise
    // maximum of all ranks' values.
    bool test(long long (&max)[kValues]);
    // The same without values.
    void start() { start(kNone); }
    bool test() {
        long long ignored[kValues];
        return test(ignored);
    }
    bool active() const { return active_; }
    // The largest b of values (a, b, -b) that travel in a message's tag
    // (GASNet's named barrier; a none or 0..14): 2^(tag bits - 5) - 1, from
    // MPI_TAG_UB (1023 at the least, 2^26 - 1 in Open MPI 4.1).
    int largest_pair_in_tag() const { return (1 << pair_bits_) - 1; }

private:
    static constexpr long long kNone[kValues] = {};
    struct Values {
        long long v[kValues];
    };
    void send_round();

    MPI_Comm comm_ = MPI_COMM_NULL;
    int rounds_ = 0, round_ = 0;
    int pair_flag_ = 0, pair_bits_ = 0;  // the tag bit that marks a pair (a, b, -b), and b's bits
    bool active_ = false;
    Values acc_{};                    // running maximum
    std::vector<Values> in_;          // per round
    std::vector<int> to_;             // per round: the rank sent to
    std::vector<MPI_Request> recvs_;  // persistent, per round
};

}  // namespace gasket::mpi
