// mpi-bridge/check.hpp -- turn a failed MPI (or system) call into a fatal,
// named error.  Every MPI return code in Gasket goes through check().
#pragma once

#include <mpi.h>

namespace gasket::mpi {

// Prints "gasket: <call> failed: <MPI error string>" and aborts the job.
[[noreturn]] void fail(const char* call, int rc);

// Checks an MPI return code; cold path out of line.
inline void check(int rc, const char* call) {
    if (rc != MPI_SUCCESS) [[unlikely]]
        fail(call, rc);
}

// Ends every process of the job with `status` (MPI_Abort on the job's
// private world communicator, or MPI_COMM_WORLD before it exists).
[[noreturn]] void abort_job(int status);

}  // namespace gasket::mpi
