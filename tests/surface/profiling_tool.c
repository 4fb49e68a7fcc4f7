/* tests/surface/profiling_tool.c -- a profiling tool, as §10.2.1 shows one:
 * it defines shmem_long_put, shmem_barrier_all and shmem_pcontrol, counts
 * the calls, and reaches Gasket through the name-shifted pshmem_ routines
 * (pshmem.h).  Linked into the program itself (surface_profiling_inline) or
 * as a library ahead of libgasket (surface_profiling_lib), like the spec's
 * "cc ... -lmyprof -lsma".  If pshmem_long_put did not reach Gasket's own
 * routine -- if it resolved to this file's shmem_long_put -- the calls would
 * recurse until the stack overflows. */
#include <pshmem.h>

#include "profiling_tool.h"

static long g_puts, g_barriers, g_pcontrols;
static int g_level = 1; /* §10.1: enabled at the default level after init */

void shmem_long_put(long* dest, const long* source, size_t nelems, int pe) {
    ++g_puts;
    pshmem_long_put(dest, source, nelems, pe);
}

void shmem_barrier_all(void) {
    ++g_barriers;
    pshmem_barrier_all();
}

void shmem_pcontrol(int level, ...) {
    ++g_pcontrols;
    g_level = level;
    pshmem_pcontrol(level);
}

struct prof_counts prof_counts(void) {
    struct prof_counts c;
    c.puts = g_puts;
    c.barriers = g_barriers;
    c.pcontrols = g_pcontrols;
    c.level = g_level;
    return c;
}
