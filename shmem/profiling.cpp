// shmem/profiling.cpp -- §10 the profiling interface's control routine, and
// Gasket's user events for GASP tools (shmemx.h).
//
// The name-shifted pshmem_ entry points are not written here: the link of
// libgasket.so gives every routine of shmem/ its "p" + name twin
// (cmake/pshmem.cmake), and pshmem.h is generated from shmem.h.
#include <shmem.h>
#include <shmemx.h>

#include "src/gasp/gasp.hpp"
#include "src/gasp/profiler_hook.hpp"
#include "src/runtime/error.hpp"
#include "src/runtime/job.hpp"

using namespace gasket;

extern "C" {

// §10.1.1, mapped onto GASP's measurement control (§3.3) on this thread:
// level <= 0 gasp_control(ctx, 0), 1 and 2 gasp_control(ctx, 1), 2 then also
// flushes the bundled profiler (docs/profiler.md); levels above 2 are reserved
// and change nothing.  Without a tool nothing happens.  Logged under
// SHMEM_DEBUG.
void shmem_pcontrol(int level, ...) noexcept {
    if (rt::debug_enabled())
        rt::debug("shmem_pcontrol", "level %d (%s)", level,
                  !gasp::on() ? "no GASP tool is attached"
                  : level > 2 ? "reserved: no effect"
                              : "to the GASP tool");
    if (level > 2) return;
    gasp::control(level > 0 ? 1 : 0);
    if (level == 2) gasp::flush_profiler();
}

// User events (shmemx.h), as GASP §5.3's pupc_* routines.
unsigned int shmemx_create_event(const char* name, const char* desc) noexcept {
    const char* routine = "shmemx_create_event";
    rt::job(routine);
    if (!name) rt::fatal(routine, "name is NULL");
    return gasp::create_event(routine, name, desc);
}

#define GASKET_USER_EVENT(NAME, TYPE)                             \
    void shmemx_event_##NAME(unsigned int evttag, ...) noexcept { \
        rt::job("shmemx_event_" #NAME);                           \
        if (!gasp::on()) return;                                  \
        va_list args;                                             \
        va_start(args, evttag);                                   \
        gasp::notify_user(evttag, TYPE, args);                    \
        va_end(args);                                             \
    }
GASKET_USER_EVENT(start, GASP_START)
GASKET_USER_EVENT(end, GASP_END)
GASKET_USER_EVENT(atomic, GASP_ATOMIC)
#undef GASKET_USER_EVENT

}  // extern "C"
