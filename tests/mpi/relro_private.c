/* tests/mpi/relro_private.c -- with shared globals on (the default), only
 * .data/.bss move onto shared memory: the executable's RELRO pages (.got,
 * .init_array, .fini_array, .dynamic), which the dynamic loader made
 * read-only, must stay private and read-only after shmem_init.  Every PE
 * checks, after init: (1) /proc/self/maps shows the RELRO page as a private
 * mapping without write permission; (2) a store to it faults (SIGSEGV,
 * caught); (3) globals are still shared: on the fast path shmem_ptr gives a
 * node peer's global and a store through it arrives; on either path a put
 * to a global arrives.  Exits nonzero on any failure. */
#define _GNU_SOURCE
#include <link.h>
#include <setjmp.h>
#include <shmem.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long inbox = -1;   /* .data: written by the left neighbour */
static long via_ptr = -1; /* written through shmem_ptr on the fast path */

static uintptr_t relro_page; /* first page the loader write-protected */

static int find_relro(struct dl_phdr_info* info, size_t size, void* data) {
    (void)size;
    (void)data;
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)* ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_GNU_RELRO) continue;
        const uintptr_t begin = (info->dlpi_addr + ph->p_vaddr) & ~(page - 1);
        const uintptr_t end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz) & ~(page - 1);
        if (end > begin) relro_page = begin;
    }
    return 1; /* the executable only */
}

/* The permissions field of the /proc/self/maps line holding addr ("r--p"). */
static int maps_perms(uintptr_t addr, char perms[5]) {
    FILE* f = fopen("/proc/self/maps", "r");
    char line[512];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && addr >= lo && addr < hi) found = 1;
    }
    if (f) fclose(f);
    return found;
}

static sigjmp_buf on_fault;
static void segv(int sig) {
    (void)sig;
    siglongjmp(on_fault, 1);
}

static int store_faults(uintptr_t addr) {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = segv;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old);
    int faulted = 0;
    if (sigsetjmp(on_fault, 1) == 0) {
        volatile char* p = (volatile char*)addr;
        *p = *p; /* same value: harmless if it wrongly succeeds */
    } else {
        faulted = 1;
    }
    sigaction(SIGSEGV, &old, NULL);
    return faulted;
}

int main(void) {
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    dl_iterate_phdr(find_relro, NULL);
    int ok = 1;
    char perms[5] = "";
    if (!relro_page) {
        printf("PE %d: FAIL: the executable has no PT_GNU_RELRO page (linked without -z relro?)\n", me);
        ok = 0;
    } else if (!maps_perms(relro_page, perms)) {
        printf("PE %d: FAIL: RELRO page %#lx not in /proc/self/maps\n", me, (unsigned long)relro_page);
        ok = 0;
    } else {
        const int private_ro = perms[1] == '-' && perms[3] == 'p';
        const int faults = store_faults(relro_page);
        printf("PE %d: RELRO page %#lx is %s (%s), a store %s\n", me, (unsigned long)relro_page, perms,
               private_ro ? "private, read-only: ok" : "WRONG: must be private and read-only",
               faults ? "faults: ok" : "did NOT fault: WRONG");
        ok = private_ro && faults;
    }

    /* Globals still shared. */
    const char* fastpath = getenv("GASKET_NODE_FASTPATH");
    const int fast = !(fastpath && strcmp(fastpath, "off") == 0);
    long* peer = shmem_ptr(&via_ptr, right);
    if (fast && n > 1 && !peer) {
        printf("PE %d: FAIL: shmem_ptr to PE %d's global is NULL with the fast path on\n", me, right);
        ok = 0;
    }
    shmem_barrier_all();
    if (peer) *peer = 100 + me;
    shmem_long_p(&inbox, 10 + me, right);
    shmem_barrier_all();
    if (inbox != 10 + left || (fast && n > 1 && via_ptr != 100 + left)) {
        printf("PE %d: FAIL: globals: inbox %ld (want %d), via_ptr %ld (want %d)\n", me, inbox, 10 + left, via_ptr,
               100 + left);
        ok = 0;
    }
    shmem_finalize();
    return ok ? 0 : 1;
}
