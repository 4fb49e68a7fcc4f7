/* Every PE puts its number into the next PE's symmetric variable, using
 * the C11 generic interface; each checks what it received. */
#include <shmem.h>
#include <stdio.h>

static int received = -1;

int main(void) {
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_p(&received, me, (me + 1) % n);
    shmem_barrier_all();
    const int ok = received == (me + n - 1) % n;
    printf("PE %d of %d: received %d %s\n", me, n, received, ok ? "ok" : "WRONG");
    shmem_finalize();
    return ok ? 0 : 1;
}
