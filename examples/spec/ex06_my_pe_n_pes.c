/* OpenSHMEM 1.6, Section 9.1.3 (SHMEM_N_PES; also 9.1.2 SHMEM_MY_PE), Example 6. */
#include <shmem.h>
#include <stdio.h>
int main(void) {
   shmem_init();
   int mype = shmem_my_pe();
   int npes = shmem_n_pes();
   printf("I am #%d of %d PEs executing this program\n", mype, npes);
   shmem_finalize();
   return 0;
}
