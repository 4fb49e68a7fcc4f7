#!/usr/bin/env python3
"""cffi_shmem.py -- a Python extension built with cffi against Gasket's
shmem.h, the way shmem4py (the OpenSHMEM bindings for Python) builds
itself, and run under oshrun (README.md, "Python: cffi and shmem4py").

shmem4py recognises an implementation by macros of its own headers; for
any other it assumes OpenSHMEM before 1.5 and defines stand-ins for the
1.5 API (shmem_team_t, SHMEM_CTX_INVALID, put-with-signal, ...), which
collide with a 1.5 shmem.h.  Its PySHMEM_HAVE_* switches turn the
stand-ins off.  The extension below reproduces a few of those stand-ins
(written here, not taken from shmem4py), then calls 1.5 routines.

  cffi_shmem.py check --python PY --oshcc OSHCC --oshrun OSHRUN --workdir DIR [--np N]
      1. builds the extension without the switches: the build must fail
         (the collision shmem4py users meet);
      2. builds it with CC/LDSHARED = oshcc and CFLAGS = the switches
         (SWITCHES below, the list README.md gives);
      3. runs `oshrun -np N PY cffi_shmem.py run DIR` and requires success.
      Exits 77 (the test is skipped) with a message when cffi is missing.
  cffi_shmem.py run DIR
      (on every PE) imports the extension from DIR and checks teams,
      malloc_with_hints, put_signal/signal_wait_until, wait_until_any,
      alltoalls, sum_reduce, contexts and a non-blocking AMO.
"""
import os
import shutil
import subprocess
import sys

MODULE = "gasket_cffi_check"
SKIP = 77

# shmem4py's switches for an OpenSHMEM 1.5 (or later) implementation.
SWITCHES = [
    "shmem_malloc_with_hints", "shmem_team_t", "SHMEM_CTX_INVALID", "shmem_amo_nbi", "shmem_put_signal",
    "shmem_signal_fetch", "shmem_signal_wait_until", "shmem_broadcast", "shmem_collect", "shmem_fcollect",
    "shmem_alltoall", "shmem_alltoalls", "shmem_broadcastmem", "shmem_collectmem", "shmem_fcollectmem",
    "shmem_alltoallmem", "shmem_alltoallsmem", "shmem_reduce", "shmem_wait_test_many", "shmem_pcontrol",
]

# Stand-ins in the manner of a binding that takes the library for pre-1.5.
SOURCE = r"""
#include <shmem.h>
#include <stdint.h>

#if !defined(PySHMEM_HAVE_shmem_team_t)
typedef void *shmem_team_t;
#define SHMEM_TEAM_WORLD ((shmem_team_t)1)
static int shmem_team_my_pe(shmem_team_t team) { (void)team; return shmem_my_pe(); }
#endif
#if !defined(PySHMEM_HAVE_SHMEM_CTX_INVALID)
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)
#endif
#if !defined(PySHMEM_HAVE_shmem_signal_fetch)
static uint64_t shmem_signal_fetch(const uint64_t *sig_addr) { return shmem_uint64_atomic_fetch(sig_addr, shmem_my_pe()); }
#endif
#if !defined(PySHMEM_HAVE_shmem_malloc_with_hints)
#define SHMEM_MALLOC_ATOMICS_REMOTE 0
static void *shmem_malloc_with_hints(size_t size, long hints) { (void)hints; return shmem_malloc(size); }
#endif

static shmem_team_t team_world(void) { return SHMEM_TEAM_WORLD; }
static shmem_ctx_t ctx_invalid(void) { return SHMEM_CTX_INVALID; }
"""

CDEF = r"""
typedef ...* shmem_team_t;
typedef ...* shmem_ctx_t;
#define SHMEM_CMP_EQ ...
#define SHMEM_SIGNAL_SET ...
#define SHMEM_MALLOC_ATOMICS_REMOTE ...
shmem_team_t team_world(void);
shmem_ctx_t ctx_invalid(void);
void shmem_init(void);
void shmem_finalize(void);
int shmem_my_pe(void);
int shmem_n_pes(void);
void shmem_barrier_all(void);
void shmem_quiet(void);
void shmem_free(void *ptr);
void *shmem_malloc_with_hints(size_t size, long hints);
int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
void shmem_long_put_signal(long *dest, const long *source, size_t nelems, uint64_t *sig_addr, uint64_t signal,
                           int sig_op, int pe);
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
void shmem_int_atomic_set(int *dest, int value, int pe);
size_t shmem_int_wait_until_any(int *ivars, size_t nelems, const int *status, int cmp, int cmp_value);
int shmem_long_alltoalls(shmem_team_t team, long *dest, const long *source, ptrdiff_t dst, ptrdiff_t sst,
                         size_t nelems);
int shmem_long_sum_reduce(shmem_team_t team, long *dest, const long *source, size_t nreduce);
int shmem_ctx_create(long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
void shmem_ctx_long_atomic_add(shmem_ctx_t ctx, long *dest, long value, int pe);
void shmem_ctx_quiet(shmem_ctx_t ctx);
void shmem_long_atomic_fetch_inc_nbi(long *fetch, long *dest, int pe);
"""


def build(workdir, oshcc, switches):
    import cffi
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    ffi.set_source(MODULE, SOURCE)
    env = dict(os.environ)
    os.environ["CC"] = oshcc
    os.environ["LDSHARED"] = oshcc + " -shared"
    os.environ["CFLAGS"] = " ".join("-DPySHMEM_HAVE_%s=1" % s for s in switches)
    try:
        ffi.compile(tmpdir=workdir, verbose=False)
    finally:
        os.environ.clear()
        os.environ.update(env)


def check(args):
    try:
        import cffi  # noqa: F401
    except ImportError:
        print("SKIP: %s has no cffi module: install Debian's python3-cffi (scripts/install-deps does)" % args.python)
        return SKIP
    args.oshcc, args.oshrun, args.workdir = (os.path.abspath(p) for p in (args.oshcc, args.oshrun, args.workdir))
    if os.path.isdir(args.workdir):
        shutil.rmtree(args.workdir)
    os.makedirs(args.workdir)
    # 1. Without the switches: the stand-ins collide with Gasket's 1.5 shmem.h.
    probe = subprocess.run([args.python, __file__, "build", args.workdir + "/without", args.oshcc],
                           capture_output=True, text=True)
    if probe.returncode == 0:
        print("FAIL: the extension built without the PySHMEM_HAVE_* switches: the test no longer shows why "
              "they are needed")
        return 1
    print("without the switches the build fails, as expected (%d lines of diagnostics)" %
          len(probe.stdout.splitlines() + probe.stderr.splitlines()))
    # 2. With them.
    built = subprocess.run([args.python, __file__, "build", args.workdir, args.oshcc] + SWITCHES)
    if built.returncode != 0:
        print("FAIL: the extension did not build with the PySHMEM_HAVE_* switches")
        return 1
    # 3. Run it.
    run = subprocess.run([args.oshrun, "-np", str(args.np), args.python, __file__, "run", args.workdir])
    if run.returncode != 0:
        print("FAIL: oshrun -np %d exited with %d" % (args.np, run.returncode))
        return 1
    print("cffi check passed")
    return 0


def fail(me, what):
    print("PE %d: FAIL: %s" % (me, what), flush=True)
    sys.exit(1)


def run(workdir):
    sys.path.insert(0, workdir)
    from gasket_cffi_check import ffi, lib
    lib.shmem_init()
    me, n = lib.shmem_my_pe(), lib.shmem_n_pes()
    world = lib.team_world()
    right, left = (me + 1) % n, (me + n - 1) % n
    if lib.shmem_team_my_pe(world) != me or lib.shmem_team_n_pes(world) != n:
        fail(me, "team_my_pe/team_n_pes of SHMEM_TEAM_WORLD")
    block = ffi.cast("char *", lib.shmem_malloc_with_hints(4096, lib.SHMEM_MALLOC_ATOMICS_REMOTE))
    if block == ffi.NULL:
        fail(me, "shmem_malloc_with_hints returned NULL")
    longs = ffi.cast("long *", block)
    sig = ffi.cast("uint64_t *", block + 1024)
    flags = ffi.cast("int *", block + 2048)
    for i in range(128):
        longs[i] = 0
    sig[0] = 0
    for i in range(n):
        flags[i] = 0
    lib.shmem_barrier_all()

    # put-with-signal to the right neighbour
    src = ffi.new("long[1]", [1000 + me])
    lib.shmem_long_put_signal(longs, src, 1, sig, 1, lib.SHMEM_SIGNAL_SET, right)
    if lib.shmem_signal_wait_until(sig, lib.SHMEM_CMP_EQ, 1) != 1 or lib.shmem_signal_fetch(sig) != 1:
        fail(me, "shmem_signal_wait_until/fetch")
    if longs[0] != 1000 + left:
        fail(me, "put_signal payload %d, want %d" % (longs[0], 1000 + left))

    # wait_until_any: the left neighbour sets our flag[left]
    lib.shmem_int_atomic_set(flags + me, 1, right)
    got = lib.shmem_int_wait_until_any(flags, n, ffi.NULL, lib.SHMEM_CMP_EQ, 1)
    if got != left:
        fail(me, "shmem_int_wait_until_any returned %d, want %d" % (got, left))
    lib.shmem_barrier_all()

    # alltoalls (dst 2, sst 3), sum_reduce
    a2a_src, a2a_dst = longs + 8, longs + 8 + 3 * n
    for j in range(n):
        a2a_src[3 * j] = 100 * me + j
    if lib.shmem_long_alltoalls(world, a2a_dst, a2a_src, 2, 3, 1) != 0:
        fail(me, "shmem_long_alltoalls returned nonzero")
    for j in range(n):
        if a2a_dst[2 * j] != 100 * j + me:
            fail(me, "alltoalls element from PE %d is %d" % (j, a2a_dst[2 * j]))
    red_src, red_dst = longs + 100, longs + 101
    red_src[0] = me + 1
    if lib.shmem_long_sum_reduce(world, red_dst, red_src, 1) != 0 or red_dst[0] != n * (n + 1) // 2:
        fail(me, "shmem_long_sum_reduce gave %d" % red_dst[0])

    # a context, and a non-blocking fetching AMO
    ctx = ffi.new("shmem_ctx_t *")
    if lib.shmem_ctx_create(0, ctx) != 0:
        fail(me, "shmem_ctx_create failed")
    counter, fetched = longs + 110, ffi.new("long[1]")
    lib.shmem_barrier_all()
    lib.shmem_ctx_long_atomic_add(ctx[0], counter, 1, 0)
    lib.shmem_ctx_quiet(ctx[0])
    lib.shmem_ctx_destroy(ctx[0])
    lib.shmem_barrier_all()
    lib.shmem_long_atomic_fetch_inc_nbi(fetched, counter, 0)
    lib.shmem_quiet()
    if not n <= fetched[0] < 2 * n:
        fail(me, "fetch_inc_nbi fetched %d, want %d..%d" % (fetched[0], n, 2 * n - 1))
    lib.shmem_barrier_all()
    if me == 0 and counter[0] != 2 * n:
        fail(me, "counter is %d, want %d" % (counter[0], 2 * n))
    lib.shmem_free(block)
    print("PE %d of %d: cffi extension ok" % (me, n), flush=True)
    lib.shmem_finalize()
    return 0


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "build":
        build(sys.argv[2], sys.argv[3], sys.argv[4:])
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "run":
        return run(sys.argv[2])
    import argparse
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["check"])
    p.add_argument("--python", default=sys.executable)
    p.add_argument("--oshcc", required=True)
    p.add_argument("--oshrun", required=True)
    p.add_argument("--workdir", required=True)
    p.add_argument("--np", type=int, default=2)
    return check(p.parse_args())


if __name__ == "__main__":
    sys.exit(main())
