/* OpenSHMEM 1.6, Section 9.10.10 (SHMEM_SCAN), Example 37 (C11 shmem_sum_exscan).
 * The spec gives only the function collect_at; the main below it is
 * Gasket's, to run it: PE i contributes i + 1 bytes of the letter 'a' + i,
 * and PE 0 prints what collect_at gathered there. */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>

int collect_at(shmem_team_t team, void *dest, const void *source, size_t nbytes, int
   who) {
  static size_t sym_nbytes;
  sym_nbytes = nbytes;
  shmem_team_sync(team);
  int rc = shmem_sum_exscan(team, &sym_nbytes, &sym_nbytes, 1);
  shmem_putmem((void *)((uintptr_t)dest + sym_nbytes), source, nbytes, who);
  shmem_quiet();
  shmem_team_sync(team);
  return rc;
}

/* Added by Gasket (not in the spec). */
int main(void) {
  static char source[64], dest[64 * 65 / 2 + 1];
  shmem_init();
  int mype = shmem_my_pe();
  for (int i = 0; i <= mype; i++)
    source[i] = (char)('a' + mype % 26);
  int rc = collect_at(SHMEM_TEAM_WORLD, dest, source, (size_t)mype + 1, 0);
  if (mype == 0)
    printf("rc %d: %s\n", rc, dest);
  shmem_finalize();
  return 0;
}
