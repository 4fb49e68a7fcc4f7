// mpi-bridge/check.cpp -- fatal MPI errors and job abort.
#include "check.hpp"

#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "environment.hpp"

namespace gasket::mpi {

void fail(const char* call, int rc) {
    char text[MPI_MAX_ERROR_STRING] = {};
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) std::snprintf(text, sizeof text, "error %d", rc);
    std::fprintf(stderr, "gasket: %s failed: %s\n", call, text);
    std::fflush(stderr);
    abort_job(EXIT_FAILURE);
}

void abort_job(int status) {
    const bool usable = mpi_usable();
    // From here on, teardown in this process never calls MPI (MPICH's
    // MPI_Abort leaves through exit(), running destructors).
    mark_aborting();
    std::fflush(stdout);
    std::fflush(stderr);
    if (usable) {
        // The launcher forwards output through its own pipes and stops
        // forwarding once the abort kills the job: give the message just
        // printed time to get through (MPICH's Hydra lost it otherwise).
        const timespec pause{0, 100 * 1000 * 1000};
        nanosleep(&pause, nullptr);
        MPI_Abort(MPI_COMM_WORLD, status);
    }
    std::_Exit(status);
}

}  // namespace gasket::mpi
