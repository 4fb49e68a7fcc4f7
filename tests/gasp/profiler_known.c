/* tests/gasp/profiler_known.c -- a program whose operations are known, for
 * the bundled profiler's statistics (tests/gasp/profiler_check.py "known"):
 * on every PE, in this order:
 *   user event "outer" around everything below, with three "nap" spans of
 *   2, 5 and 10 ms (nanosleep) inside it;
 *   5 shmem_putmem of 100 bytes to PE (me+1) % npes, then a barrier_all;
 *   7 shmem_long_atomic_add to PE 0 (non-fetching: instants, 8 bytes);
 *   measurement off (shmem_pcontrol(0)): 4 puts and a barrier_all, not counted;
 *   shmem_pcontrol(2): measurement on, and this PE's data so far flushed to
 *   PREFIX.pe<N>.summary.json;
 *   3 shmem_getmem of 64 bytes from PE (me+npes-1) % npes.
 * The program checks its own data (the AMO total on PE 0) and prints "ok". */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static void nap_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0) {}
}

int main(void) {
    static char buf[128], src[128];
    static long counter;
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const unsigned outer = shmemx_create_event("outer", NULL);
    const unsigned nap = shmemx_create_event("nap", "%ld");
    memset(src, me, sizeof src);

    shmemx_event_start(outer);
    const long naps[3] = {2, 5, 10};
    for (int i = 0; i < 3; ++i) {
        shmemx_event_start(nap, naps[i]);
        nap_ms(naps[i]);
        shmemx_event_end(nap, naps[i]);
    }
    for (int i = 0; i < 5; ++i) shmem_putmem(buf, src, 100, (me + 1) % n);
    shmem_barrier_all();
    for (int i = 0; i < 7; ++i) shmem_long_atomic_add(&counter, 1, 0);
    shmem_pcontrol(0);
    for (int i = 0; i < 4; ++i) shmem_putmem(buf, src, 100, (me + 1) % n);
    shmem_barrier_all();
    shmem_pcontrol(2);
    for (int i = 0; i < 3; ++i) shmem_getmem(src, buf, 64, (me + n - 1) % n);
    shmemx_event_end(outer);

    shmem_barrier_all();
    if (me == 0 && counter != 7L * n) {
        printf("FAIL: counter %ld, expected %ld\n", counter, 7L * n);
        shmem_global_exit(1);
    }
    printf("PE %d: ok\n", me);
    shmem_finalize();
    return 0;
}
