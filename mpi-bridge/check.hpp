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

// Ends every process of the job with `status`: MPI_Abort on
// MPI_COMM_WORLD, never on a duplicate (MPICH ends the other members of
// any other communicator by a message whose handler calls exit() inside
// their MPI calls, where their exit handlers then call MPI; on
// MPI_COMM_WORLD the launcher ends them).  Before MPI_Abort: marks the
// process as aborting (mpi_usable() is false from then on: MPICH's
// MPI_Abort leaves through exit(), and no destructor or exit handler may
// call MPI then), flushes stdio and gives the launcher a moment to
// forward the last message.
[[noreturn]] void abort_job(int status);

}  // namespace gasket::mpi
