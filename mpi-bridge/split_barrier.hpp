// mpi-bridge/split_barrier.hpp -- a split-phase barrier that also combines
// a few values: MPI_Iallreduce (MPI_MAX) of 3 long longs on a private
// communicator.  start() is the notify, test() the wait's poll.
#pragma once

#include <mpi.h>

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
    bool active() const { return request_ != MPI_REQUEST_NULL; }

private:
    MPI_Comm comm_ = MPI_COMM_NULL;
    MPI_Request request_ = MPI_REQUEST_NULL;
    long long in_[kValues]{}, out_[kValues]{};
};

}  // namespace gasket::mpi
