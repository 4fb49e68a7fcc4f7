/* tests/mpi/shared_data_names.c -- a name left in /dev/shm by someone else
 * must not turn shared globals off.  Gasket used to create
 * /dev/shm/gasket.<pid of node rank 0>.<node rank> with O_EXCL and, when a
 * name was taken, silently kept every PE's globals private.  Every PE first
 * creates the names its own pid would give (node ranks 0..63), then calls
 * shmem_init; on the fast path a node peer's global must still be reachable
 * with shmem_ptr, and a store through it must arrive.  The names are
 * removed right after shmem_init (and at exit, should init not return).
 * Exits nonzero on failure. */
#include <fcntl.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { kNames = 64 };
static long target = -1;

static void name_of(int r, char* out, size_t size) { snprintf(out, size, "/gasket.%ld.%d", (long)getpid(), r); }

static void remove_names(void) {
    char name[64];
    for (int r = 0; r < kNames; ++r) {
        name_of(r, name, sizeof name);
        shm_unlink(name);
    }
}

int main(void) {
    char name[64];
    int taken = 0;
    atexit(remove_names);
    for (int r = 0; r < kNames; ++r) {
        name_of(r, name, sizeof name);
        int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        if (fd >= 0) {
            close(fd);
            ++taken;
        }
    }
    shmem_init();
    remove_names();
    const int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
    const char* fastpath = getenv("GASKET_NODE_FASTPATH");
    const int fast = !(fastpath && strcmp(fastpath, "off") == 0);
    long* peer = shmem_ptr(&target, right);
    int ok = taken == kNames;
    if (!ok) printf("PE %d: FAIL: could only create %d of %d names before shmem_init\n", me, taken, kNames);
    if (fast && !peer) {
        printf("PE %d: FAIL: names taken in /dev/shm turned shared globals off (shmem_ptr NULL)\n", me);
        ok = 0;
    }
    shmem_barrier_all();
    if (peer)
        *peer = 7 + me;
    else
        shmem_long_p(&target, 7 + me, right);
    shmem_barrier_all();
    if (target != 7 + left) {
        printf("PE %d: FAIL: global is %ld, want %d\n", me, target, 7 + left);
        ok = 0;
    }
    printf("PE %d: %s (fast path %s, globals %s)\n", me, ok ? "ok" : "FAILED", fast ? "on" : "off",
           peer ? "shared" : "private");
    shmem_finalize();
    return ok ? 0 : 1;
}
