// mpi-bridge/check.cpp -- fatal MPI errors and job abort.
#include "check.hpp"

#include <cstdio>
#include <cstdlib>

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
    std::fflush(stdout);
    std::fflush(stderr);
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, status);
    std::_Exit(status);
}

}  // namespace gasket::mpi
