/* tests/gasp/profiler_threads.c -- the bundled profiler under
 * SHMEM_THREAD_MULTIPLE (tests/gasp/profiler_check.py "threads"): on every
 * PE, 4 threads each make 50 iterations of a user span "work" around one
 * 16-byte shmem_putmem to PE (me+1) % npes and one non-fetching AMO to PE 0,
 * concurrently; then the main thread quiets and checks PE 0's counter. */
#include <pthread.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>

enum { kThreads = 4, kIters = 50 };
static char buf[kThreads][16];
static long counter;
static unsigned work;

static void* body(void* arg) {
    const int t = (int)(long)arg, me = shmem_my_pe(), n = shmem_n_pes();
    char src[16] = {0};
    for (int i = 0; i < kIters; ++i) {
        shmemx_event_start(work);
        shmem_putmem(buf[t], src, sizeof src, (me + 1) % n);
        shmem_long_atomic_add(&counter, 1, 0);
        shmemx_event_end(work);
    }
    return NULL;
}

int main(void) {
    int provided = -1;
    if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0 || provided != SHMEM_THREAD_MULTIPLE) {
        printf("FAIL: SHMEM_THREAD_MULTIPLE not provided (%d)\n", provided);
        return 1;
    }
    work = shmemx_create_event("work", NULL);
    pthread_t th[kThreads];
    for (long t = 0; t < kThreads; ++t) pthread_create(&th[t], NULL, body, (void*)t);
    for (int t = 0; t < kThreads; ++t) pthread_join(th[t], NULL);
    shmem_quiet();
    shmem_barrier_all();
    const int me = shmem_my_pe();
    if (me == 0 && counter != (long)kThreads * kIters * shmem_n_pes()) {
        printf("FAIL: counter %ld\n", counter);
        shmem_global_exit(1);
    }
    printf("PE %d: ok\n", me);
    shmem_finalize();
    return 0;
}
