/* tests/surface/profiling_app.c -- a program under the profiling tool of
 * profiling_tool.c (§10), and the Annex F.2.7 cache routines.
 *
 * On every PE: puts through shmem_long_put and through the C11 generic
 * shmem_put on a long (layered over shmem_long_put, so the tool sees it
 * too), a barrier, shmem_pcontrol; the tool's counts must grow by exactly
 * those calls, and the data must arrive (the tool forwards to pshmem_*).
 * A direct pshmem_long_put is not counted and delivers as well. */
#include <pshmem.h>
#include <shmem.h>

#include <stdio.h>

#include "profiling_tool.h"

static int g_me;
static long g_checks;
#define CHECK(cond)                                                                               \
    do {                                                                                          \
        ++g_checks;                                                                               \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "PE %d: %s:%d: check failed: %s\n", g_me, __FILE__, __LINE__, #cond); \
            fflush(stderr);                                                                       \
            shmem_global_exit(1);                                                                 \
        }                                                                                         \
    } while (0)

#define VAL(pe, i) ((long)(pe)*1000 + (i))

int main(void) {
    shmem_init();
    g_me = shmem_my_pe();
    const int n = shmem_n_pes(), right = (g_me + 1) % n, left = (g_me + n - 1) % n;
    long* dst = (long*)shmem_malloc(32 * sizeof(long));
    long src[32];
    for (int i = 0; i < 32; i++) {
        src[i] = VAL(g_me, i);
        dst[i] = -1;
    }
    CHECK(prof_counts().level == 1);
    pshmem_barrier_all(); /* not counted */
    const struct prof_counts before = prof_counts();

    shmem_long_put(dst, src, 8, right);            /* counted */
    shmem_long_put(dst + 8, src + 8, 8, right);    /* counted */
    shmem_put(dst + 16, src + 16, 8, right);       /* C11 generic -> shmem_long_put: counted */
    pshmem_long_put(dst + 24, src + 24, 8, right); /* straight to Gasket: not counted */
    shmem_barrier_all();                           /* counted */
    struct prof_counts after = prof_counts();
    CHECK(after.puts - before.puts == 3);
    CHECK(after.barriers - before.barriers == 1);
    for (int i = 0; i < 32; i++) CHECK(dst[i] == VAL(left, i));

    shmem_pcontrol(2);
    shmem_pcontrol(0, "tool-defined argument");
    after = prof_counts();
    CHECK(after.pcontrols - before.pcontrols == 2);
    CHECK(after.level == 0);
    pshmem_pcontrol(1); /* Gasket's own: no effect on the tool's state */
    CHECK(prof_counts().level == 0);

    /* Annex F.2.7: no effect, and the data stays as delivered */
    pshmem_barrier_all();
    shmem_set_cache_inv();
    shmem_set_cache_line_inv(dst);
    shmem_clear_cache_inv();
    shmem_clear_cache_line_inv(dst + 8);
    shmem_udcflush();
    shmem_udcflush_line(dst + 16);
    pshmem_udcflush(); /* every routine has its twin, deprecated ones too */
    for (int i = 0; i < 32; i++) CHECK(dst[i] == VAL(left, i));
    CHECK(pshmem_my_pe() == g_me && p_my_pe() == g_me && p_num_pes() == n);

    pshmem_barrier_all();
    shmem_free(dst);
    printf("PE %d: profiling: %ld checks passed\n", g_me, g_checks);
    shmem_finalize();
    return 0;
}
