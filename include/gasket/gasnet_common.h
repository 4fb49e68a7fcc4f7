/* gasket/gasnet_common.h -- what gasnet.h (GASNet 1.8) and gasnetex.h
 * (GASNet-EX) share: the thread-mode macro, the compile-time constants,
 * error codes, scalar types, error names, segment limits, gasnet_exit and
 * polling (gasnet-ex-api.txt: GASNet-EX clients keep using these gasnet_
 * names).  Included by gasnetex.h; not for direct inclusion.  The
 * conventions of every routine (units, errors, GASKET_NOEXCEPT) are those
 * of gasnet.h's opening comment. */
#ifndef GASKET_GASNET_COMMON_H
#define GASKET_GASNET_COMMON_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <gasket/gasnet_config.h>
#include <gasket/gasnet_version.h>
#include <gasket/noexcept.h>

#if defined(GASNET_SEQ) + defined(GASNET_PARSYNC) + defined(GASNET_PAR) > 1
#error "gasnet.h: define only one of GASNET_SEQ, GASNET_PARSYNC, GASNET_PAR"
#endif
#if !defined(GASNET_SEQ) && !defined(GASNET_PARSYNC) && !defined(GASNET_PAR)
#define GASNET_SEQ 1
#endif
#if defined(GASNET_PAR)
#define GASKET_GASNET_THREAD_MODE 2
#elif defined(GASNET_PARSYNC)
#define GASKET_GASNET_THREAD_MODE 1
#else
#define GASKET_GASNET_THREAD_MODE 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- §1.8 compile-time constants ----------------------------------- */
#define GASNET_SPEC_VERSION_MAJOR 1
#define GASNET_SPEC_VERSION_MINOR 8
/* GASNET_RELEASE_VERSION_MAJOR/MINOR/PATCH: the GASNet-EX release tuple
 * YYYY.MM.PP (gasket/gasnet_version.h). */
#define GASNET_VERSION GASNET_SPEC_VERSION_MAJOR /* deprecated */
#define GASNET_MAXNODES 2147483647               /* MPI ranks are ints */
#define GASNET_ALIGNED_SEGMENTS 0                /* each node maps its segment where the OS puts it */
#define GASNET_PAGESIZE 4096
#define GASNET_CONFIG_STRING                                                                                    \
    "RELEASE=" GASKET_GASNET_RELEASE_STRING ",SPEC=1.8,CONDUIT=GASKET-MPI,THREADMODEL=" GASKET_GASNET_MODE_NAME \
    ",SEGMENT=" GASKET_GASNET_SEGMENT_NAME
/* The conduit and core: Gasket presents itself as GASNet's MPI conduit (it
 * runs over MPI, and MPI may be used beside it), which is what clients
 * that test GASNET_CONDUIT_MPI (e.g. to allow MPI calls in the program) or
 * print GASNET_CONDUIT_NAME_STR expect (docs/gasnet-ex.md, "Names").
 * GASNET_CORE_VERSION: the GASNet-1 core API version implemented. */
#define GASNET_CORE_NAME MPI
#define GASNET_CORE_NAME_STR "MPI"
#define GASNET_CORE_VERSION 1.8
#define GASNET_CONDUIT_NAME MPI
#define GASNET_CONDUIT_NAME_STR "MPI"
#define GASNET_CONDUIT_MPI 1
#if GASKET_GASNET_THREAD_MODE == 2
#define GASKET_GASNET_MODE_NAME "PAR"
#elif GASKET_GASNET_THREAD_MODE == 1
#define GASKET_GASNET_MODE_NAME "PARSYNC"
#else
#define GASKET_GASNET_MODE_NAME "SEQ"
#endif

/* Active Message limits (§2.3.2; gasnet_AMMax*(), gex_AM_Max*()): arguments,
 * and the largest Medium and Long payloads in bytes. */
#define GASKET_AM_MAX_ARGS 16
#define GASKET_AM_MAX_MEDIUM 65536
#define GASKET_AM_MAX_LONG ((size_t)1 << 30)

/* ---- §1.6 errors ----------------------------------------------------- */
#define GASNET_OK 0
#define GASNET_ERR_NOT_INIT 10001
#define GASNET_ERR_RESOURCE 10002
#define GASNET_ERR_BAD_ARG 10003
#define GASNET_ERR_NOT_READY 10004
#define GASNET_ERR_BARRIER_MISMATCH 10005

/* ---- §1.7 types ------------------------------------------------------ */
typedef uint32_t gasnet_node_t;
typedef uint8_t gasnet_handler_t;
typedef int32_t gasnet_handlerarg_t;
typedef struct gasket_am_token* gasnet_token_t;
typedef struct gasket_gasnet_op* gasnet_handle_t; /* extended API */
typedef uint64_t gasnet_register_value_t;
#define SIZEOF_GASNET_REGISTER_VALUE_T 8

typedef struct {
    gasnet_handler_t index; /* 0 = don't care; set by gasnet_attach */
    void (*fnptr)();
} gasnet_handlerentry_t;

typedef struct {
    void* addr;
    uintptr_t size;
} gasnet_seginfo_t;

/* gasnet_ErrorName / gasnet_ErrorDesc (§1.6.0.1): the name ("GASNET_ERR_BAD_ARG")
 * or a one-line description of `errval`; "GASNET_ERR_UNKNOWN" for other
 * values.  The strings are static: do not modify or free them. */
char* gasnet_ErrorName(int errval) GASKET_NOEXCEPT;
char* gasnet_ErrorDesc(int errval) GASKET_NOEXCEPT;

/* Largest segsize gasnet_attach may be given on this node, in bytes
 * (§2.1.0.3): free node-shared memory (FAST) or physical memory plus swap
 * (LARGE) divided among the node's ranks, capped by GASNET_MAX_SEGSIZE;
 * a multiple of GASNET_PAGESIZE.  Between gasnet_init and gasnet_attach. */
uintptr_t gasnet_getMaxLocalSegmentSize(void) GASKET_NOEXCEPT;
/* The smallest gasnet_getMaxLocalSegmentSize() of all nodes (§2.1.0.4).
 * Collective between gasnet_init and gasnet_attach. */
uintptr_t gasnet_getMaxGlobalSegmentSize(void) GASKET_NOEXCEPT;

/* gasnet_exit (§2.1.0.5): ends the whole job with `exitcode`; never
 * returns.  The other nodes are told; a node that is polling
 * (gasnet_AMPoll, GASNET_BLOCKUNTIL) or waiting in gasnet_barrier_wait/try
 * gets SIGQUIT at once (raised in that call's thread): a client SIGQUIT
 * handler runs, and its gasnet_exit(code) makes `code` the job's exit code
 * (when several nodes choose, the lowest node's choice wins); without a
 * handler, or when it returns, the node exits with `exitcode`.  When every
 * node exits (the usual end of main, after a barrier) MPI is finalized
 * (even if the program initialized it: gasnet_exit does not return) and
 * every process exits with the job's code.  When some node has not exited
 * within GASKET_EXIT_TIMEOUT seconds (it computes without polling), the
 * job is ended with MPI_Abort(exitcode), so the launcher returns
 * `exitcode` and no process is left behind.  Stdio is flushed first.
 * Returning from main (or exit(status)) without gasnet_exit does the same
 * with the exit status.  SIGTERM and SIGINT (unless the client handles
 * them) run a client SIGQUIT handler, whose gasnet_exit(code) then ends
 * this process with `code` at once (the launcher ends the others); without
 * one, or when it returns, the signal ends the process as usual. */
void gasnet_exit(int exitcode) GASKET_NOEXCEPT;

/* gasnet_AMPoll (§2.3.5.1): runs the handlers of messages that have
 * arrived.  Returns GASNET_OK, or GASNET_ERR_NOT_INIT before attach.  Not
 * callable from a handler or a No-Interrupt Section (fatal). */
int gasnet_AMPoll(void) GASKET_NOEXCEPT;

/* GASNET_BLOCKUNTIL (§2.3.5.2): polls until `cond` is true; `cond` is
 * re-evaluated after every poll.  Spins, then yields the CPU between polls
 * while waiting long. */
#define GASNET_BLOCKUNTIL(cond)                                               \
    do {                                                                      \
        unsigned gasket_blockuntil_misses_ = 0;                               \
        while (!(cond)) gasket_gasnet_block_poll(&gasket_blockuntil_misses_); \
    } while (0)
void gasket_gasnet_block_poll(unsigned* misses) GASKET_NOEXCEPT; /* one poll of GASNET_BLOCKUNTIL */

/* Handler-safe locks (§2.4.4): a mutex plus the §2.4.5 checks (recursive
 * locking, unlocking out of order or a lock not held, a handler returning
 * or replying with a lock held, destroying a held lock) which end the job
 * with a message naming the call. */
typedef struct {
    pthread_mutex_t mutex;
    void* owner; /* the holding thread's Gasket id, or NULL */
} gasnet_hsl_t;
#define GASNET_HSL_INITIALIZER \
    { PTHREAD_MUTEX_INITIALIZER, NULL }

void gasnet_hsl_init(gasnet_hsl_t* hsl) GASKET_NOEXCEPT;    /* fatal if the mutex cannot be made */
void gasnet_hsl_destroy(gasnet_hsl_t* hsl) GASKET_NOEXCEPT; /* fatal if held */
void gasnet_hsl_lock(gasnet_hsl_t* hsl) GASKET_NOEXCEPT;    /* blocks; fatal if held by this thread */
/* GASNET_OK if acquired, GASNET_ERR_NOT_READY if another thread holds it. */
int gasnet_hsl_trylock(gasnet_hsl_t* hsl) GASKET_NOEXCEPT;
void gasnet_hsl_unlock(gasnet_hsl_t* hsl) GASKET_NOEXCEPT; /* fatal unless the last lock this thread took */

#ifdef __cplusplus
}
#endif

#endif /* GASKET_GASNET_COMMON_H */
