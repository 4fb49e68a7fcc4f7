// mpi-bridge/split_barrier.cpp -- MPI_Iallreduce as a split-phase barrier.
#include "split_barrier.hpp"

#include "check.hpp"
#include "environment.hpp"

namespace gasket::mpi {

SplitBarrier::SplitBarrier(MPI_Comm comm) { check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup"); }

SplitBarrier::~SplitBarrier() {
    if (!mpi_usable() || comm_ == MPI_COMM_NULL) return;
    if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
    MPI_Comm_free(&comm_);
}

void SplitBarrier::start(const long long (&values)[kValues]) {
    for (int i = 0; i < kValues; ++i) in_[i] = values[i];
    check(MPI_Iallreduce(in_, out_, kValues, MPI_LONG_LONG, MPI_MAX, comm_, &request_), "MPI_Iallreduce");
}

bool SplitBarrier::test(long long (&max)[kValues]) {
    int done = 0;
    check(MPI_Test(&request_, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (!done) return false;
    for (int i = 0; i < kValues; ++i) max[i] = out_[i];
    return true;
}

}  // namespace gasket::mpi
