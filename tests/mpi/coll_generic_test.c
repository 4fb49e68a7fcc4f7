/* tests/mpi/coll_generic_test.c -- the C11 generic names of the §9.10
 * collectives (gasket/shmem_coll_generic.h) select the right typed routine:
 * each call's result is checked against the value only that type's routine
 * gives.  Also both forms of shmem_sync: shmem_sync(team) and the
 * deprecated shmem_sync(PE_start, logPE_stride, PE_size, pSync).  Exit
 * status 1 (and a line naming the call) on any mismatch, on any PE. */
#include <shmem.h>

#include <stdint.h>
#include <stdio.h>

static long psync[SHMEM_SYNC_SIZE];
static long ld[64], ls[64];
static double _Complex cd[2], cs[2];
static int8_t i8d[2], i8s[2];
static char cdst[2], csrc[2];
static float fd[64], fs[64];
static unsigned short usd[2], uss[2];
static int failures;

#define CHECK(cond, what)                                             \
    do {                                                              \
        if (!(cond)) {                                                \
            printf("PE %d: %s: wrong result\n", shmem_my_pe(), what); \
            ++failures;                                               \
        }                                                             \
    } while (0)

int main(void) {
    shmem_init();
    for (int i = 0; i < SHMEM_SYNC_SIZE; i++) psync[i] = SHMEM_SYNC_VALUE;
    const int n = shmem_n_pes(), me = shmem_my_pe();

    CHECK(shmem_sync(SHMEM_TEAM_WORLD) == 0, "shmem_sync(team)");
    shmem_sync(0, 0, n, psync);

    ls[0] = me + 1;
    shmem_sum_reduce(SHMEM_TEAM_WORLD, ld, ls, 1);
    CHECK(ld[0] == (long)n * (n + 1) / 2, "shmem_sum_reduce(long)");

    cs[0] = __builtin_complex((double)(me + 1), 1.0);
    shmem_sum_reduce(SHMEM_TEAM_WORLD, cd, cs, 1);
    CHECK(__real__ cd[0] == n * (n + 1) / 2.0 && __imag__ cd[0] == n, "shmem_sum_reduce(double _Complex)");

    i8s[0] = (int8_t)(1 << me);
    shmem_xor_reduce(SHMEM_TEAM_WORLD, i8d, i8s, 1);
    CHECK(i8d[0] == (int8_t)((1 << n) - 1), "shmem_xor_reduce(int8_t)");

    csrc[0] = (char)(me - 1);
    shmem_min_reduce(SHMEM_TEAM_WORLD, cdst, csrc, 1);
    char cmin = (char)-1;
    for (int p = 1; p < n; p++)
        if ((char)(p - 1) < cmin) cmin = (char)(p - 1);
    CHECK(cdst[0] == cmin, "shmem_min_reduce(char)");

    uss[0] = (unsigned short)(me + 2);
    shmem_prod_reduce(SHMEM_TEAM_WORLD, usd, uss, 1);
    unsigned short prod = 1;
    for (int p = 0; p < n; p++) prod = (unsigned short)(prod * (p + 2));
    CHECK(usd[0] == prod, "shmem_prod_reduce(unsigned short)");

    fs[0] = 0.5f;
    shmem_sum_inscan(SHMEM_TEAM_WORLD, fd, fs, 1);
    CHECK(fd[0] == 0.5f * (me + 1), "shmem_sum_inscan(float)");
    shmem_sum_exscan(SHMEM_TEAM_WORLD, fd, fs, 1);
    CHECK(fd[0] == 0.5f * me, "shmem_sum_exscan(float)");

    for (int j = 0; j < n; j++) ls[j] = me * 100 + j;
    shmem_alltoall(SHMEM_TEAM_WORLD, ld, ls, 1);
    for (int j = 0; j < n; j++) CHECK(ld[j] == j * 100 + me, "shmem_alltoall(long)");
    shmem_alltoalls(SHMEM_TEAM_WORLD, ld, ls, 1, 1, 1);
    for (int j = 0; j < n; j++) CHECK(ld[j] == j * 100 + me, "shmem_alltoalls(long)");
    shmem_fcollect(SHMEM_TEAM_WORLD, ld, ls, 1);
    for (int j = 0; j < n; j++) CHECK(ld[j] == j * 100, "shmem_fcollect(long)");
    shmem_collect(SHMEM_TEAM_WORLD, ld, ls, 1);
    for (int j = 0; j < n; j++) CHECK(ld[j] == j * 100, "shmem_collect(long)");
    fs[0] = (float)me + 0.25f;
    shmem_broadcast(SHMEM_TEAM_WORLD, fd, fs, 1, n - 1);
    CHECK(fd[0] == (float)(n - 1) + 0.25f, "shmem_broadcast(float)");

    static int all;
    static int mine;
    mine = failures;
    shmem_sum_reduce(SHMEM_TEAM_WORLD, &all, &mine, 1);
    shmem_finalize();
    return all ? 1 : 0;
}
