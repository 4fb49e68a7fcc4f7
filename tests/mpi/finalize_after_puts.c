/* tests/mpi/finalize_after_puts.c -- a job that puts 64 KiB to its right
 * neighbour's heap, frees the buffer and finalizes must end, every time.
 * Run many times over by finalize_repeat.sh with UCX's CMA transport off
 * (UCX_TLS=^cma: UCX then moves RMA between node peers over TCP): there
 * MPICH 4.0.2 hung in MPI_Finalize in about one run in three, after UCX's
 * TCP put_zcopy, or when Gasket freed a team barrier's persistent receive
 * after its windows (docs/cluster-path.md, part 1, "A hang in MPI_Finalize
 * without CMA").  Every PE checks the bytes its left neighbour put and
 * prints "finalize_after_puts: PE n ok" before shmem_finalize; exits
 * nonzero on a wrong byte. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kBytes = 64 * 1024 };

int main(void) {
    shmem_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    unsigned char* sym = shmem_malloc(kBytes);
    unsigned char* mine = malloc(kBytes);
    if (!sym || !mine) {
        fprintf(stderr, "finalize_after_puts: PE %d: no memory for %d bytes\n", me, kBytes);
        return 1;
    }
    memset(sym, 0, kBytes);
    for (int i = 0; i < kBytes; ++i) mine[i] = (unsigned char)(me * 31 + i);
    shmem_barrier_all();
    shmem_putmem(sym, mine, kBytes, (me + 1) % npes);
    shmem_quiet();
    shmem_barrier_all();
    const int left = (me + npes - 1) % npes;
    for (int i = 0; i < kBytes; ++i)
        if (sym[i] != (unsigned char)(left * 31 + i)) {
            fprintf(stderr, "finalize_after_puts: PE %d: byte %d is %d, PE %d put %d\n", me, i, sym[i], left,
                    (unsigned char)(left * 31 + i));
            return 1;
        }
    shmem_free(sym);
    free(mine);
    printf("finalize_after_puts: PE %d ok\n", me);
    fflush(stdout);
    shmem_finalize();
    return 0;
}
