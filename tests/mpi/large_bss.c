/* tests/mpi/large_bss.c -- a program with 128 MiB of mostly untouched
 * static data.  Moving globals onto shared memory (node fast path on) must
 * keep their values, touched before shmem_init in .data and .bss, and must
 * not turn the untouched zero pages into shared memory: after init, at most
 * a few pages of the array may be resident (mincore on this process's own
 * mapping, so other jobs on the machine do not count).  Every PE checks and
 * exits nonzero on failure. */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static double grid[4096][4096];      /* .bss: 128 MiB, a few pages touched */
static long table[1000] = {1, 2, 3}; /* .data */

/* KiB of grid resident in memory (mincore: pages of the mapping present). */
static long resident_kib(void) {
    const long page = sysconf(_SC_PAGESIZE);
    const uintptr_t begin = (uintptr_t)grid & ~(uintptr_t)(page - 1);
    const size_t bytes = ((uintptr_t)grid + sizeof grid - begin + page - 1) / page * page;
    static unsigned char vec[sizeof grid / 4096 + 2];
    if (bytes / page > sizeof vec || mincore((void*)begin, bytes, vec) != 0) return -1;
    long pages = 0;
    for (size_t i = 0; i < bytes / page; ++i) pages += vec[i] & 1;
    return pages * page / 1024;
}

int main(void) {
    grid[100][7] = 42.0; /* touched before init: must survive the move */
    shmem_init();
    shmem_barrier_all(); /* every PE has finished its init */
    const long resident = resident_kib();
    const int me = shmem_my_pe(), n = shmem_n_pes(), left = (me + n - 1) % n;
    shmem_double_p(&grid[4000][1], 1.5 + me, (me + 1) % n);
    shmem_long_p(&table[999], 10 + me, (me + 1) % n);
    shmem_barrier_all();
    const int values_ok =
        grid[100][7] == 42.0 && grid[4000][1] == 1.5 + left && table[2] == 3 && table[999] == 10 + left;
    /* One page was touched before init; allow a few more. */
    const int memory_ok = resident >= 0 && resident < 256;
    printf("PE %d: values %s; %ld KiB of the 128 MiB array resident after init (%s)\n", me, values_ok ? "ok" : "WRONG",
           resident, memory_ok ? "ok" : "TOO MUCH: untouched .bss was copied");
    shmem_finalize();
    return values_ok && memory_ok ? 0 : 1;
}
