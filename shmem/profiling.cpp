// shmem/profiling.cpp -- §10 the profiling interface's control routine.
//
// The name-shifted pshmem_ entry points are not written here: the link of
// libgasket.so gives every routine of shmem/ its "p" + name twin
// (cmake/pshmem.cmake), and pshmem.h is generated from shmem.h.
#include <shmem.h>

#include "src/runtime/error.hpp"

using namespace gasket;

extern "C" {

// §10.1.1: the library itself makes no use of the level (a profiling tool
// that defines shmem_pcontrol does); under SHMEM_DEBUG the call is logged.
void shmem_pcontrol(int level, ...) noexcept {
    if (rt::debug_enabled()) rt::debug("shmem_pcontrol", "level %d (no profiler is attached)", level);
}

}  // extern "C"
