/*
 * gasnet_tools.h -- Gasket's GASNet tools (GASNet tools specification 1.20,
 * ../shared/specs/gasnet-tools.txt, "README file for GASNet tools"): timers,
 * sleep, memory barriers, atomics, mutexes, condition variables,
 * reader/writer locks, thread-specific data, environment utilities,
 * backtraces, system properties and miscellaneous tools, all named
 * gasnett_* / GASNETT_*.  docs/gasnet-tools.md says what is provided, the
 * units, the thread-safety and what is left out.
 *
 * Who includes it: tools-only clients include it directly (before any other
 * header, as the spec's "General Usage" asks); GASNet-EX clients get it from
 * gasnetex.h.  It is C (C99, C11) and C++ (C++98 to C++20).
 *
 * Threading ("Tools-Only Distribution", Step 4): a tools-only client defines
 * GASNETT_THREAD_SAFE (threads use the tools) or GASNETT_THREAD_SINGLE (one
 * thread) before including this header; with neither, GASNETT_THREAD_SAFE is
 * assumed (the safe choice: one library serves both).  After gasnet.h or
 * gasnetex.h (any of GASNET_SEQ, GASNET_PARSYNC, GASNET_PAR defined) it is
 * always GASNETT_THREAD_SAFE: Gasket runs Active Message handlers on its
 * progress thread in every GASNet mode, so data a client shares with its
 * handlers needs real atomics even in GASNET_SEQ; GASNETT_THREAD_SINGLE
 * there is an #error, as is defining both.  Only the inline atomics
 * (gasnett_atomic_*, not the strong ones), the gasnett_weak_* barriers and
 * the mutex/condition variable wrappers differ between the two modes; the
 * library itself is always thread-safe.
 *
 * Conventions:
 *  - Every function the library defines is declared GASKET_NOEXCEPT
 *    (gasket/noexcept.h): noexcept in C++, nothing in C.  The spec lets any
 *    'function' be a macro or inline function: do not take the address of a
 *    gasnett_ name or #undef it.
 *  - Errors the spec calls fatal, and bad input (an environment value that
 *    does not parse, a failing pthread call, a recursive or foreign mutex
 *    unlock), print one line on stderr, "gasnett: <call>: <what> (<value>)",
 *    and end the process with abort() (exit status 134), after a backtrace
 *    when GASNET_BACKTRACE=1 and a debugger freeze when
 *    GASNET_FREEZE_ON_ERROR=1.
 *  - Times: gasnett_tick_t is nanoseconds of CLOCK_MONOTONIC.
 */
#ifndef GASKET_GASNET_TOOLS_H
#define GASKET_GASNET_TOOLS_H

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <gasket/gasnet_version.h>
#include <gasket/noexcept.h>

/* ---- threading mode ("Tools-Only Distribution", Step 4) ------------- */
#if defined(GASNETT_THREAD_SAFE) && defined(GASNETT_THREAD_SINGLE)
#error "gasnet_tools.h: define only one of GASNETT_THREAD_SAFE and GASNETT_THREAD_SINGLE"
#endif
#if defined(GASNET_PAR) || defined(GASNET_PARSYNC) || defined(GASNET_SEQ)
#if defined(GASNETT_THREAD_SINGLE)
#error \
    "gasnet_tools.h: GASNETT_THREAD_SINGLE with a GASNet header: Gasket runs AM handlers on its progress thread in every GASNet mode, so the tools must be GASNETT_THREAD_SAFE"
#endif
#if !defined(GASNETT_THREAD_SAFE)
#define GASNETT_THREAD_SAFE 1
#endif
#elif !defined(GASNETT_THREAD_SAFE) && !defined(GASNETT_THREAD_SINGLE)
#define GASNETT_THREAD_SAFE 1
#endif
#if defined(GASNETT_THREAD_SAFE)
#define GASKETI_TOOLS_THREADS 1
#else
#define GASKETI_TOOLS_THREADS 0
#endif
/* "Feature control for mutexes": real locking even in GASNETT_THREAD_SINGLE. */
#if GASKETI_TOOLS_THREADS || (defined(GASNETT_USE_TRUE_MUTEXES) && GASNETT_USE_TRUE_MUTEXES)
#define GASKETI_TOOLS_MUTEXES 1
#else
#define GASKETI_TOOLS_MUTEXES 0
#endif

/* ---- "Miscellaneous tools": versions -------------------------------- */
#define GASNETT_SPEC_VERSION_MAJOR 1
#define GASNETT_SPEC_VERSION_MINOR 20
#define GASNETT_RELEASE_VERSION_MAJOR GASNET_RELEASE_VERSION_MAJOR
#define GASNETT_RELEASE_VERSION_MINOR GASNET_RELEASE_VERSION_MINOR
#define GASNETT_RELEASE_VERSION_PATCH GASNET_RELEASE_VERSION_PATCH

/* ---- "Compiler annotations" (GCC and Clang spellings; empty elsewhere) - */
#if defined(__GNUC__)
#define GASKETI_TOOLS_ATTR(x) __attribute__(x)
#else
#define GASKETI_TOOLS_ATTR(x)
#endif
/* GASNETT_INLINE(fnname) definition: a static function inlined wherever the
 * compiler can (always_inline). */
#define GASNETT_INLINE(fnname) GASKETI_TOOLS_ATTR((__always_inline__)) static inline
/* GASNETT_NEVER_INLINE(fnname, definition): `definition`, never inlined. */
#define GASNETT_NEVER_INLINE(fnname, definition) GASKETI_TOOLS_ATTR((__noinline__)) definition
/* GASNETT_RESTRICT: the C99 restrict qualifier (also in C++). */
#if defined(__GNUC__)
#define GASNETT_RESTRICT __restrict__
#else
#define GASNETT_RESTRICT
#endif
/* GASNETT_FORMAT_PRINTF(fnname, fmtarg, firstvararg, declarator):
 * `declarator`, checked as printf(format at 1-based argument fmtarg, its
 * arguments from firstvararg on); _FUNCPTR for a function pointer. */
#define GASNETT_FORMAT_PRINTF(fnname, fmtarg, firstvararg, declarator) \
    GASKETI_TOOLS_ATTR((__format__(__printf__, fmtarg, firstvararg))) declarator
#define GASNETT_FORMAT_PRINTF_FUNCPTR(fnname, fmtarg, firstvararg, declarator) \
    GASKETI_TOOLS_ATTR((__format__(__printf__, fmtarg, firstvararg))) declarator
/* `declaration GASNETT_NORETURN;`.  The ...P(fnname) forms (pragma style)
 * are empty: the attribute forms cover GCC and Clang. */
#define GASNETT_NORETURN GASKETI_TOOLS_ATTR((__noreturn__))
#define GASNETT_NORETURNP(fnname)
/* Written before a declarator: */
#define GASNETT_MALLOC GASKETI_TOOLS_ATTR((__malloc__))
#define GASNETT_MALLOCP(fnname)
#define GASNETT_PURE GASKETI_TOOLS_ATTR((__pure__))
#define GASNETT_PUREP(fnname)
#define GASNETT_CONST GASKETI_TOOLS_ATTR((__const__))
#define GASNETT_CONSTP(fnname)
#define GASNETT_HOT GASKETI_TOOLS_ATTR((__hot__))
#define GASNETT_COLD GASKETI_TOOLS_ATTR((__cold__))
#define GASNETT_DEPRECATED GASKETI_TOOLS_ATTR((__deprecated__))
#define GASNETT_WARN_UNUSED_RESULT GASKETI_TOOLS_ATTR((__warn_unused_result__))
#define GASNETT_USED GASKETI_TOOLS_ATTR((__used__))
/* GASNETT_PREDICT_TRUE/FALSE(expr): 1 iff expr is nonzero (else 0), with a
 * branch hint; if_pt/if_pf: `if` with that hint. */
#if defined(__GNUC__)
#define GASNETT_PREDICT_TRUE(expr) __builtin_expect(!!(expr), 1)
#define GASNETT_PREDICT_FALSE(expr) __builtin_expect(!!(expr), 0)
#define gasnett_constant_p(expr) __builtin_constant_p(expr)
#define gasnett_unreachable() __builtin_unreachable()
#else
#define GASNETT_PREDICT_TRUE(expr) (!!(expr))
#define GASNETT_PREDICT_FALSE(expr) (!!(expr))
#define gasnett_constant_p(expr) 0
#define gasnett_unreachable() ((void)0)
#endif
#define if_pt(cond) if (GASNETT_PREDICT_TRUE(cond))
#define if_pf(cond) if (GASNETT_PREDICT_FALSE(cond))
/* gasnett_assume(cond): with GASNET_DEBUG defined, a check that ends the
 * process naming the condition, file and line when cond is false;
 * otherwise an optimization hint (cond must then always hold). */
#if defined(GASNET_DEBUG)
#define gasnett_assume(cond) \
    ((cond) ? (void)0 : gasket_gasnett_fatal_at(__FILE__, __LINE__, "gasnett_assume", "'%s' is false", #cond))
#else
#define gasnett_assume(cond) ((cond) ? (void)0 : gasnett_unreachable())
#endif
/* GASNETT_FALLTHROUGH: after the last statement of a case that falls
 * through, with no semicolon after it. */
#if defined(__cplusplus) && __cplusplus >= 201703L
#define GASNETT_FALLTHROUGH [[fallthrough]];
#elif defined(__GNUC__) && (__GNUC__ >= 7 || defined(__clang__))
#define GASNETT_FALLTHROUGH __attribute__((__fallthrough__));
#else
#define GASNETT_FALLTHROUGH
#endif
/* GASNETT_CURRENT_FUNCTION: the enclosing function's name (const char *). */
#if (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L) || (defined(__cplusplus) && __cplusplus >= 201103L)
#define GASNETT_CURRENT_FUNCTION __func__
#elif defined(__GNUC__)
#define GASNETT_CURRENT_FUNCTION __FUNCTION__
#else
#define GASNETT_CURRENT_FUNCTION ""
#endif
/* "Macro argument evaluation": each argument evaluated once, for its side
 * effects, without "unused value" warnings; an expression of type void. */
#define GASNETT_UNUSED_ARGS1(a1) ((void)(a1))
#define GASNETT_UNUSED_ARGS2(a1, a2) ((void)(a1), (void)(a2))
#define GASNETT_UNUSED_ARGS3(a1, a2, a3) ((void)(a1), (void)(a2), (void)(a3))
#define GASNETT_UNUSED_ARGS4(a1, a2, a3, a4) ((void)(a1), (void)(a2), (void)(a3), (void)(a4))
#define GASNETT_UNUSED_ARGS5(a1, a2, a3, a4, a5) ((void)(a1), (void)(a2), (void)(a3), (void)(a4), (void)(a5))
#define GASNETT_UNUSED_ARGS6(a1, a2, a3, a4, a5, a6) \
    ((void)(a1), (void)(a2), (void)(a3), (void)(a4), (void)(a5), (void)(a6))
#define GASNETT_UNUSED_ARGS7(a1, a2, a3, a4, a5, a6, a7) \
    ((void)(a1), (void)(a2), (void)(a3), (void)(a4), (void)(a5), (void)(a6), (void)(a7))
#define GASNETT_UNUSED_ARGS8(a1, a2, a3, a4, a5, a6, a7, a8) \
    ((void)(a1), (void)(a2), (void)(a3), (void)(a4), (void)(a5), (void)(a6), (void)(a7), (void)(a8))
/* GASNETT_IDENT(identName, identText);  at global scope: embeds the string
 * identText in the executable (kept by the `used` attribute; `ident` finds
 * it when it matches "$Keyword: text $"). */
#define GASNETT_IDENT(identName, identText) GASNETT_USED static const char identName[] = identText

/* ---- "System properties" (compile-time) ------------------------------ */
#if defined(__x86_64__)
#define GASKETI_TOOLS_ARCH "x86_64"
#define GASNETT_CACHE_LINE_BYTES 64
#elif defined(__aarch64__)
#define GASKETI_TOOLS_ARCH "aarch64"
#define GASNETT_CACHE_LINE_BYTES 128 /* some arm64 parts share 128-byte lines */
#elif defined(__powerpc64__)
#define GASKETI_TOOLS_ARCH "powerpc64"
#define GASNETT_CACHE_LINE_BYTES 128
#elif defined(__i386__)
#define GASKETI_TOOLS_ARCH "i686"
#define GASNETT_CACHE_LINE_BYTES 64
#else
#define GASKETI_TOOLS_ARCH "unknown"
#define GASNETT_CACHE_LINE_BYTES 128
#endif
/* GASNETT_SYSTEM_TUPLE: "<arch>-pc-linux-gnu" style, for display only. */
#if defined(__linux__)
#define GASNETT_SYSTEM_TUPLE GASKETI_TOOLS_ARCH "-unknown-linux-gnu"
#else
#define GASNETT_SYSTEM_TUPLE GASKETI_TOOLS_ARCH "-unknown-unknown"
#endif
/* Bytes of a virtual memory page, and its log2 (Linux base pages). */
#define GASNETT_PAGESIZE 4096
#define GASNETT_PAGESHIFT 12

#ifdef __cplusplus
extern "C" {
#endif

/* ---- types ------------------------------------------------------------ */
/* "Timers": a tick is one nanosecond of CLOCK_MONOTONIC; integer arithmetic
 * (+, -, <, >, ==) on ticks is meaningful within one process. */
typedef uint64_t gasnett_tick_t;
#define GASNETT_TICK_MIN ((gasnett_tick_t)0)
#define GASNETT_TICK_MAX ((gasnett_tick_t)UINT64_MAX)

/* "Atomic operations".  gasnett_atomic_t holds 32 bits; the fixed-width
 * types hold exactly their width, with the alignment of uint32_t/uint64_t.
 * The strong types have the same layout. */
typedef uint32_t gasnett_atomic_val_t;
typedef int32_t gasnett_atomic_sval_t;
typedef struct {
    gasnett_atomic_val_t gasketi_value;
} gasnett_atomic_t;
typedef struct {
    uint32_t gasketi_value;
} gasnett_atomic32_t;
typedef struct {
    uint64_t gasketi_value;
} gasnett_atomic64_t;
typedef gasnett_atomic_val_t gasnett_strongatomic_val_t;
typedef gasnett_atomic_sval_t gasnett_strongatomic_sval_t;
typedef struct {
    gasnett_strongatomic_val_t gasketi_value;
} gasnett_strongatomic_t;
typedef struct {
    uint32_t gasketi_value;
} gasnett_strongatomic32_t;
typedef struct {
    uint64_t gasketi_value;
} gasnett_strongatomic64_t;

/* "Error-checking System Mutexes": a pthread mutex and the thread that holds
 * it (for the recursive-lock, foreign-unlock and assert checks). */
typedef struct {
    pthread_mutex_t gasketi_mutex;
    pthread_t gasketi_owner; /* valid while gasketi_held */
    int gasketi_held;
} gasnett_mutex_t;
typedef struct {
    pthread_cond_t gasketi_cond;
} gasnett_cond_t;
/* "Reader/Writer locks": storage for a pthread_rwlock_t (the library checks
 * the size; C99 without POSIX feature macros does not see the type). */
typedef struct {
    union {
        unsigned char gasketi_bytes[64];
        uint64_t gasketi_align;
        void* gasketi_ptr;
    } gasketi_storage;
} gasnett_rwlock_t;

/* "Miscellaneous tools": a signal handler. */
typedef void (*gasnett_sighandlerfn_t)(int);
/* "Backtracing": a function writing the calling thread's backtrace to a
 * file descriptor, 0 on success; and a client-defined backtrace mechanism
 * (gasnett_backtrace_user, see docs/gasnet-tools.md: not consulted). */
typedef int (*gasnett_backtrace_fn_t)(int fd);
typedef struct {
    const char* name;
    gasnett_backtrace_fn_t fnp;
    int threadsupport;
} gasnett_backtrace_type_t;

/* ---- library functions (libgasket.so) ------------------------------- */

/* "Timers".  gasnett_ticks_now: the calling thread's current tick count
 * (nanoseconds of CLOCK_MONOTONIC; not comparable across nodes). */
gasnett_tick_t gasnett_ticks_now(void) GASKET_NOEXCEPT;
/* gasnett_tick_granularityus: the smallest nonzero difference between two
 * gasnett_ticks_now() calls, in microseconds (measured once, then cached).
 * gasnett_tick_overheadus: the cost of one gasnett_ticks_now() call, in
 * microseconds (measured once).  Extensions: not in spec 1.20's text. */
double gasnett_tick_granularityus(void) GASKET_NOEXCEPT;
double gasnett_tick_overheadus(void) GASKET_NOEXCEPT;

/* "Sleep".  gasnett_nsleep: sleeps at least ns_delay nanoseconds; 0 returns
 * at once.  Returns 0, or -1 with errno = EINTR when a signal cut it short. */
int gasnett_nsleep(uint64_t ns_delay) GASKET_NOEXCEPT;

/* "System properties". */
/* gethostname()'s answer (a static string, lower case), "" if it fails. */
const char* gasnett_gethostname(void) GASKET_NOEXCEPT;
/* The running executable's absolute path (static string), "" if unknown. */
const char* gasnett_exe_name(void) GASKET_NOEXCEPT;
/* The processors online on this node (sysconf(_SC_NPROCESSORS_ONLN):
 * hardware threads), 0 if unknown. */
int gasnett_cpu_count(void) GASKET_NOEXCEPT;
/* Bytes of physical memory on this node (sysconf: _SC_PHYS_PAGES x page
 * size).  Unknown: a fatal error when failureIsFatal, else 0. */
uint64_t gasnett_getPhysMemSz(int failureIsFatal) GASKET_NOEXCEPT;
/* 1 on a little-endian machine, 0 otherwise. */
int gasnett_isLittleEndian(void) GASKET_NOEXCEPT;
/* "" (no configuration choice of Gasket's costs performance). */
const char* gasnett_performance_warning_str(void) GASKET_NOEXCEPT;
/* "2026.11.0": GASNETT_RELEASE_VERSION_MAJOR.MINOR.PATCH. */
const char* gasnett_release_version_str(void) GASKET_NOEXCEPT;
/* MAJOR*10000 + MINOR*100 + PATCH (20261100): grows with every release. */
uint64_t gasnett_release_version(void) GASKET_NOEXCEPT;

/* "Environment utilities".  Values are read with getenv(); the query
 * functions print "ENV parameter: KEY = value" (with "(default)" when unset)
 * on stderr, once per key, when GASNET_VERBOSEENV is set to a true value
 * (only on rank 0 when a launcher's rank variable is present).  A value that
 * does not parse is a fatal error naming the key and the value. */
/* Writes val into buf (at most bufsz bytes with the NUL) and returns buf:
 * decimal, or with is_mem_size the largest unit of B/KB/MB/GB/TB (powers of
 * 1024) that divides it exactly ("1536KB"); gasnett_parse_int reads it back. */
char* gasnett_format_number(int64_t val, char* buf, size_t bufsz, int is_mem_size) GASKET_NOEXCEPT;
/* Parses str.  mem_size_multiplier 0: a decimal or "0x" hex integer, with a
 * sign.  Otherwise a memory size: a number (fraction allowed, "1.5") and an
 * optional unit B, K/KB, M/MB, G/GB, T/TB (case-insensitive, powers of 1024);
 * with no unit the number is multiplied by mem_size_multiplier (1024: KB).
 * Anything else, or overflow of int64_t, is a fatal error naming str. */
int64_t gasnett_parse_int(const char* str, uint64_t mem_size_multiplier) GASKET_NOEXCEPT;
/* Set / remove an environment variable of this process only. */
void gasnett_setenv(const char* key, const char* value) GASKET_NOEXCEPT;
void gasnett_unsetenv(const char* key) GASKET_NOEXCEPT;
/* getenv(keyname), not reported; NULL when unset. */
char* gasnett_getenv(const char* keyname) GASKET_NOEXCEPT;
/* The value of keyname, or defaultval when unset; reported. */
char* gasnett_getenv_withdefault(const char* keyname, const char* defaultval) GASKET_NOEXCEPT;
/* 1 for Y/YES/1, 0 for N/NO/0 (case-insensitive), defaultval when unset;
 * anything else is fatal.  Reported. */
int gasnett_getenv_yesno_withdefault(const char* keyname, int defaultval) GASKET_NOEXCEPT;
/* gasnett_parse_int(value, mem_size_multiplier), defaultval when unset.
 * Reported. */
int64_t gasnett_getenv_int_withdefault(const char* keyname, int64_t defaultval,
                                       uint64_t mem_size_multiplier) GASKET_NOEXCEPT;
/* A floating-point value ("1.5", "-1e4") or a fraction ("3/8"), defaultval
 * when unset; anything else is fatal.  Reported. */
double gasnett_getenv_dbl_withdefault(const char* keyname, double defaultval) GASKET_NOEXCEPT;
/* 1 iff GASNET_VERBOSEENV reporting is on in this process. */
int gasnett_verboseenv(void) GASKET_NOEXCEPT;
/* Print one setting as the queries do, iff gasnett_verboseenv(). */
void gasnett_envint_display(const char* key, int64_t val, int is_dflt, int is_mem_size) GASKET_NOEXCEPT;
void gasnett_envstr_display(const char* key, const char* val, int is_dflt) GASKET_NOEXCEPT;
void gasnett_envdbl_display(const char* key, double val, int is_dflt) GASKET_NOEXCEPT;

/* "Backtracing and debugger attach". */
/* Prints "process PID waiting for a debugger: set FLAGSYMNAME = 0" on
 * stderr and waits (sleeping 10 ms between looks) while *flag is nonzero. */
void gasnett_freezeForDebuggerNow(volatile int* flag, const char* flagsymname) GASKET_NOEXCEPT;
/* gasnett_freezeForDebuggerNow iff GASNET_FREEZE_ON_ERROR is true. */
void gasnett_freezeForDebuggerErr(void) GASKET_NOEXCEPT;
/* Records exename (argv[0]) for backtraces; optional (glibc finds the
 * executable itself). */
void gasnett_backtrace_init(const char* exename) GASKET_NOEXCEPT;
/* Writes the calling thread's backtrace (glibc backtrace(), one frame a
 * line) to fd.  Returns 0, or nonzero when none could be taken. */
int gasnett_print_backtrace(int fd) GASKET_NOEXCEPT;
/* Called on every fatal error: gasnett_print_backtrace iff GASNET_BACKTRACE
 * is true (returns 0 otherwise).  A client may point it elsewhere. */
extern gasnett_backtrace_fn_t gasnett_print_backtrace_ifenabled;

/* "Miscellaneous tools". */
/* Cause the calling thread to yield (sched_yield). */
void gasnett_sched_yield(void) GASKET_NOEXCEPT;
/* fflush(stdout), fflush(stderr) / fclose of stdin, stdout, stderr; errors
 * ignored. */
void gasnett_flush_streams(void) GASKET_NOEXCEPT;
void gasnett_close_streams(void) GASKET_NOEXCEPT;
/* Prints "gasnett: FATAL ERROR: <message>" (printf-style msg) on stderr,
 * then the backtrace / freeze of the conventions above, then abort().
 * gasnett_fatalerror (a macro over gasket_gasnett_fatal_at) adds the
 * function, file and line of the call. */
void gasnett_fatalerror_nopos(const char* msg, ...) GASKET_NOEXCEPT
    GASKETI_TOOLS_ATTR((__noreturn__, __format__(__printf__, 1, 2)));
void gasket_gasnett_fatal_at(const char* file, int line, const char* func, const char* msg, ...) GASKET_NOEXCEPT
    GASKETI_TOOLS_ATTR((__noreturn__, __format__(__printf__, 4, 5)));
/* Ends the process at once with exitcode (_exit: no atexit handlers, other
 * threads end with it). */
void gasnett_killmyprocess(int exitcode) GASKET_NOEXCEPT GASKETI_TOOLS_ATTR((__noreturn__));
/* Installs fp (or SIG_DFL / SIG_IGN) for sigtocatch with sigaction and
 * returns the previous handler; SIG_ERR for a bad signal number. */
gasnett_sighandlerfn_t gasnett_reghandler(int sigtocatch, gasnett_sighandlerfn_t fp) GASKET_NOEXCEPT;
/* A simple, insecure 64-bit checksum of the numbytes bytes at p (0 for
 * numbytes <= 0). */
uint64_t gasnett_checksum(const void* p, int numbytes) GASKET_NOEXCEPT;
/* Count the zero bytes in [p, p + numbytes); the _copy form also copies
 * them to dst (non-overlapping). */
size_t gasnett_count0s(const void* p, size_t numbytes) GASKET_NOEXCEPT;
size_t gasnett_count0s_copy(void* GASNETT_RESTRICT dst, const void* GASNETT_RESTRICT src,
                            size_t numbytes) GASKET_NOEXCEPT;
/* Raise a resource limit (RLIMIT_*) to its hard maximum, unless
 * GASNET_MAXIMIZE_<lim_desc> is false.  Nonzero on success.  The plural form
 * does RLIMIT_CPU, _DATA, _RSS, _STACK, _AS, _NPROC, _MEMLOCK. */
int gasnett_maximize_rlimit(int res, const char* lim_desc) GASKET_NOEXCEPT;
int gasnett_maximize_rlimits(void) GASKET_NOEXCEPT;
/* Deprecated (spec: use hwloc).  GASNETT_SET_AFFINITY_SUPPORT is not
 * defined: always returns nonzero, binding nothing. */
int gasnett_set_affinity(int rank) GASKET_NOEXCEPT;
/* gasnett_current_loc's helper: malloc'd "func at file:line". */
char* gasket_gasnett_loc(const char* file, int line, const char* func) GASKET_NOEXCEPT;

/* "Reader/Writer locks" (pthread_rwlock_t).  POSIX reader limits block
 * instead of failing; any other pthread error is fatal, naming the call
 * (e.g. a write lock the thread already holds: EDEADLK).  The try forms
 * return 0, or EBUSY / EAGAIN. */
void gasnett_rwlock_init(gasnett_rwlock_t* l) GASKET_NOEXCEPT;
void gasnett_rwlock_destroy(gasnett_rwlock_t* l) GASKET_NOEXCEPT;
void gasnett_rwlock_rdlock(gasnett_rwlock_t* l) GASKET_NOEXCEPT;
void gasnett_rwlock_wrlock(gasnett_rwlock_t* l) GASKET_NOEXCEPT;
void gasnett_rwlock_unlock(gasnett_rwlock_t* l) GASKET_NOEXCEPT;
int gasnett_rwlock_tryrdlock(gasnett_rwlock_t* l) GASKET_NOEXCEPT;
int gasnett_rwlock_trywrlock(gasnett_rwlock_t* l) GASKET_NOEXCEPT;
/* The mutex/cond wrappers' error path: fatal "gasnett: <call>: <strerror>". */
void gasket_gasnett_pthread_fatal(const char* call, int err) GASKET_NOEXCEPT GASKETI_TOOLS_ATTR((__noreturn__));

/* ---- macros over the library functions ------------------------------ */
/* gasnett_fatalerror(msg, ...): gasnett_fatalerror_nopos with the call
 * site ("in FUNC at FILE:LINE"). */
#define gasnett_fatalerror(...) gasket_gasnett_fatal_at(__FILE__, __LINE__, GASNETT_CURRENT_FUNCTION, __VA_ARGS__)
/* gasnett_current_loc: a malloc'd char * "FUNC at FILE:LINE" (free it). */
#define gasnett_current_loc gasket_gasnett_loc(__FILE__, __LINE__, GASNETT_CURRENT_FUNCTION)
/* Conversions of tick intervals (uint64_t results). */
#define gasnett_ticks_to_ns(ticks) ((uint64_t)(ticks))
#define gasnett_ticks_to_us(ticks) (((uint64_t)(ticks)) / 1000u)
/* "Reader/Writer locks": a statically initialized lock (all-zero storage is
 * PTHREAD_RWLOCK_INITIALIZER on glibc; the library checks it). */
#define GASNETT_RWLOCK_INITIALIZER \
    {                              \
        {                          \
            { 0 }                  \
        }                          \
    }
/* No debug build: the rwlock assertions check nothing (spec: "no effect in
 * non-debug builds"). */
#define gasnett_rwlock_assertrdlocked(l) ((void)(l))
#define gasnett_rwlock_assertwrlocked(l) ((void)(l))
#define gasnett_rwlock_assertlocked(l) ((void)(l))
#define gasnett_rwlock_assertunlocked(l) ((void)(l))

/* "Trace/Stats support": Gasket has no GASNet trace or stats streams, so, as
 * the spec allows, these compile to nothing and report no support. */
#define GASNETT_TRACE_GETMASK() ""
#define GASNETT_STATS_GETMASK() ""
#define GASNETT_TRACE_SETMASK(newmask) ((void)(newmask))
#define GASNETT_STATS_SETMASK(newmask) ((void)(newmask))
#define GASNETT_TRACE_ENABLED 0
#define GASNETT_TRACE_PRINTF(...) ((void)0)
#define GASNETT_TRACE_PRINTF_FORCE(...) ((void)0)
#define GASNETT_STATS_PRINTF(...) ((void)0)
#define GASNETT_STATS_PRINTF_FORCE(...) ((void)0)
#define GASNETT_STATS_DUMP(reset) ((void)(reset))

/* ---- "Thread-specific data": a thread-local void * per key ----------- */
#define GASNETT_THREADKEY_DEFINE(key) __thread void* key = 0
#define GASNETT_THREADKEY_DECLARE(key) extern __thread void* key
#define gasnett_threadkey_init(key) ((void)0)
#define gasnett_threadkey_get(key) (key)
#define gasnett_threadkey_set(key, val) ((void)((key) = (val)))
#define gasnett_threadkey_get_noinit(key) (key)
#define gasnett_threadkey_set_noinit(key, val) ((void)((key) = (val)))

/* ---- "Memory barriers" (inline) --------------------------------------
 * gasnett_local_wmb: earlier loads and stores of this thread are ordered
 * before its later stores (a release fence); gasnett_local_rmb: earlier
 * loads before later loads and stores (an acquire fence); gasnett_local_mb:
 * both, and earlier stores before later loads (a sequentially consistent
 * fence).  Each also stops the compiler from moving memory accesses across
 * it.  The gasnett_weak_* forms are the same with GASNETT_THREAD_SAFE and
 * nothing with GASNETT_THREAD_SINGLE. */
#define gasnett_compiler_fence() __asm__ __volatile__("" : : : "memory")
#define gasnett_local_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define gasnett_local_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define gasnett_local_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#if GASKETI_TOOLS_THREADS
#define gasnett_weak_wmb() gasnett_local_wmb()
#define gasnett_weak_rmb() gasnett_local_rmb()
#define gasnett_weak_mb() gasnett_local_mb()
#else
#define gasnett_weak_wmb() ((void)0)
#define gasnett_weak_rmb() ((void)0)
#define gasnett_weak_mb() ((void)0)
#endif
/* gasnett_spinloop_hint(): the CPU's spin-wait hint (x86 pause, arm64
 * yield) and a compiler fence. */
#if defined(__x86_64__) || defined(__i386__)
#define gasnett_spinloop_hint() __asm__ __volatile__("pause" : : : "memory")
#elif defined(__aarch64__)
#define gasnett_spinloop_hint() __asm__ __volatile__("yield" : : : "memory")
#else
#define gasnett_spinloop_hint() gasnett_compiler_fence()
#endif

/* ---- "Atomic operations" (inline) -------------------------------------
 * Fence flags, OR'd into the `flags` argument of every operation but
 * _init.  _PRE fences come before the operation, _POST after it,
 * _POST_IF_TRUE / _IF_FALSE after a compare_and_swap or decrement_and_test
 * that returned nonzero / zero.  RMB is an acquire fence, WMB a release
 * fence, MB (= RMB|WMB) a sequentially consistent one (never weaker than
 * asked).  The operation itself is a GCC __atomic builtin (lock-free on
 * x86-64 and arm64), or, for gasnett_atomic_* with GASNETT_THREAD_SINGLE, a
 * plain load/store (the spec's non-atomic single-thread form). */
#define GASNETT_ATOMIC_NONE 0x00
#define GASNETT_ATOMIC_RMB_PRE 0x01
#define GASNETT_ATOMIC_WMB_PRE 0x02
#define GASNETT_ATOMIC_MB_PRE (GASNETT_ATOMIC_RMB_PRE | GASNETT_ATOMIC_WMB_PRE)
#define GASNETT_ATOMIC_RMB_POST 0x04
#define GASNETT_ATOMIC_WMB_POST 0x08
#define GASNETT_ATOMIC_MB_POST (GASNETT_ATOMIC_RMB_POST | GASNETT_ATOMIC_WMB_POST)
#define GASNETT_ATOMIC_RMB_POST_IF_TRUE 0x10
#define GASNETT_ATOMIC_RMB_POST_IF_FALSE 0x20
#define GASNETT_ATOMIC_REL GASNETT_ATOMIC_WMB_PRE
#define GASNETT_ATOMIC_ACQ GASNETT_ATOMIC_RMB_POST
#define GASNETT_ATOMIC_ACQ_IF_TRUE GASNETT_ATOMIC_RMB_POST_IF_TRUE
#define GASNETT_ATOMIC_ACQ_IF_FALSE GASNETT_ATOMIC_RMB_POST_IF_FALSE

/* Every operation is always available (add/subtract and CAS/swap included),
 * and all are lock-free, hence signal-safe for the strong forms. */
#define GASNETT_HAVE_ATOMIC_ADD_SUB 1
#define GASNETT_HAVE_ATOMIC_CAS 1
#define GASNETT_HAVE_STRONGATOMIC_ADD_SUB 1
#define GASNETT_HAVE_STRONGATOMIC_CAS 1
/* Range of gasnett_atomic_t (wraps as two's complement). */
#define GASNETT_ATOMIC_MAX ((gasnett_atomic_val_t)0xFFFFFFFFu)
#define GASNETT_ATOMIC_SIGNED_MIN ((gasnett_atomic_sval_t)(-2147483647 - 1))
#define GASNETT_ATOMIC_SIGNED_MAX ((gasnett_atomic_sval_t)2147483647)
#define GASNETT_STRONGATOMIC_MAX GASNETT_ATOMIC_MAX
#define GASNETT_STRONGATOMIC_SIGNED_MIN GASNETT_ATOMIC_SIGNED_MIN
#define GASNETT_STRONGATOMIC_SIGNED_MAX GASNETT_ATOMIC_SIGNED_MAX
/* Static initializers, and the sign conversion of a value read. */
#define gasnett_atomic_init(v) \
    { (gasnett_atomic_val_t)(v) }
#define gasnett_atomic32_init(v) \
    { (uint32_t)(v) }
#define gasnett_atomic64_init(v) \
    { (uint64_t)(v) }
#define gasnett_strongatomic_init(v) \
    { (gasnett_strongatomic_val_t)(v) }
#define gasnett_strongatomic32_init(v) \
    { (uint32_t)(v) }
#define gasnett_strongatomic64_init(v) \
    { (uint64_t)(v) }
#define gasnett_atomic_signed(v) ((gasnett_atomic_sval_t)(gasnett_atomic_val_t)(v))
#define gasnett_strongatomic_signed(v) ((gasnett_strongatomic_sval_t)(gasnett_strongatomic_val_t)(v))

static inline void gasketi_atomic_fence_pre(int flags) {
    if ((flags & GASNETT_ATOMIC_MB_PRE) == GASNETT_ATOMIC_MB_PRE)
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    else if (flags & GASNETT_ATOMIC_RMB_PRE)
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
    else if (flags & GASNETT_ATOMIC_WMB_PRE)
        __atomic_thread_fence(__ATOMIC_RELEASE);
}
static inline void gasketi_atomic_fence_post(int flags) {
    if ((flags & GASNETT_ATOMIC_MB_POST) == GASNETT_ATOMIC_MB_POST)
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    else if (flags & GASNETT_ATOMIC_RMB_POST)
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
    else if (flags & GASNETT_ATOMIC_WMB_POST)
        __atomic_thread_fence(__ATOMIC_RELEASE);
}
static inline int gasketi_atomic_fence_bool(int flags, int result) {
    gasketi_atomic_fence_post(flags);
    if ((result && (flags & GASNETT_ATOMIC_RMB_POST_IF_TRUE)) ||
        (!result && (flags & GASNETT_ATOMIC_RMB_POST_IF_FALSE)))
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return result;
}

/* GASKETI_TOOLS_ATOMIC_FAMILY(prefix, T, V, atomic): the eleven operations
 * of one atomic family, gasnett_<prefix>_set ... _decrement_and_test, on
 * type T with value type V; `atomic` is 1 for real atomics, 0 for the plain
 * single-thread form.  Expanded once per family below. */
#define GASKETI_TOOLS_ATOMIC_FAMILY(prefix, T, V, atomic)                                                           \
    static inline void gasnett_##prefix##_set(T* p, V v, int flags) {                                               \
        gasketi_atomic_fence_pre(flags);                                                                            \
        if (atomic)                                                                                                 \
            __atomic_store_n(&p->gasketi_value, v, __ATOMIC_RELAXED);                                               \
        else                                                                                                        \
            p->gasketi_value = v;                                                                                   \
        gasketi_atomic_fence_post(flags);                                                                           \
    }                                                                                                               \
    static inline V gasnett_##prefix##_read(T* p, int flags) {                                                      \
        V v;                                                                                                        \
        gasketi_atomic_fence_pre(flags);                                                                            \
        v = atomic ? __atomic_load_n(&p->gasketi_value, __ATOMIC_RELAXED) : p->gasketi_value;                       \
        gasketi_atomic_fence_post(flags);                                                                           \
        return v;                                                                                                   \
    }                                                                                                               \
    static inline V gasnett_##prefix##_add(T* p, V op, int flags) {                                                 \
        V v;                                                                                                        \
        gasketi_atomic_fence_pre(flags);                                                                            \
        v = atomic ? __atomic_add_fetch(&p->gasketi_value, op, __ATOMIC_RELAXED)                                    \
                   : (p->gasketi_value = (V)(p->gasketi_value + op));                                               \
        gasketi_atomic_fence_post(flags);                                                                           \
        return v;                                                                                                   \
    }                                                                                                               \
    static inline V gasnett_##prefix##_subtract(T* p, V op, int flags) {                                            \
        V v;                                                                                                        \
        gasketi_atomic_fence_pre(flags);                                                                            \
        v = atomic ? __atomic_sub_fetch(&p->gasketi_value, op, __ATOMIC_RELAXED)                                    \
                   : (p->gasketi_value = (V)(p->gasketi_value - op));                                               \
        gasketi_atomic_fence_post(flags);                                                                           \
        return v;                                                                                                   \
    }                                                                                                               \
    static inline void gasnett_##prefix##_increment(T* p, int flags) { (void)gasnett_##prefix##_add(p, 1, flags); } \
    static inline void gasnett_##prefix##_decrement(T* p, int flags) {                                              \
        (void)gasnett_##prefix##_subtract(p, 1, flags);                                                             \
    }                                                                                                               \
    static inline int gasnett_##prefix##_decrement_and_test(T* p, int flags) {                                      \
        V v;                                                                                                        \
        gasketi_atomic_fence_pre(flags);                                                                            \
        v = atomic ? __atomic_sub_fetch(&p->gasketi_value, 1, __ATOMIC_RELAXED)                                     \
                   : (p->gasketi_value = (V)(p->gasketi_value - 1));                                                \
        return gasketi_atomic_fence_bool(flags, v == 0);                                                            \
    }                                                                                                               \
    static inline int gasnett_##prefix##_compare_and_swap(T* p, V oldval, V newval, int flags) {                    \
        int ok;                                                                                                     \
        gasketi_atomic_fence_pre(flags);                                                                            \
        if (atomic) {                                                                                               \
            ok = __atomic_compare_exchange_n(&p->gasketi_value, &oldval, newval, 0, __ATOMIC_RELAXED,               \
                                             __ATOMIC_RELAXED);                                                     \
        } else {                                                                                                    \
            ok = p->gasketi_value == oldval;                                                                        \
            if (ok) p->gasketi_value = newval;                                                                      \
        }                                                                                                           \
        return gasketi_atomic_fence_bool(flags, ok);                                                                \
    }                                                                                                               \
    static inline V gasnett_##prefix##_swap(T* p, V newval, int flags) {                                            \
        V v;                                                                                                        \
        gasketi_atomic_fence_pre(flags);                                                                            \
        if (atomic) {                                                                                               \
            v = __atomic_exchange_n(&p->gasketi_value, newval, __ATOMIC_RELAXED);                                   \
        } else {                                                                                                    \
            v = p->gasketi_value;                                                                                   \
            p->gasketi_value = newval;                                                                              \
        }                                                                                                           \
        gasketi_atomic_fence_post(flags);                                                                           \
        return v;                                                                                                   \
    }

GASKETI_TOOLS_ATOMIC_FAMILY(atomic, gasnett_atomic_t, gasnett_atomic_val_t, GASKETI_TOOLS_THREADS)
GASKETI_TOOLS_ATOMIC_FAMILY(atomic32, gasnett_atomic32_t, uint32_t, GASKETI_TOOLS_THREADS)
GASKETI_TOOLS_ATOMIC_FAMILY(atomic64, gasnett_atomic64_t, uint64_t, GASKETI_TOOLS_THREADS)
GASKETI_TOOLS_ATOMIC_FAMILY(strongatomic, gasnett_strongatomic_t, gasnett_strongatomic_val_t, 1)
GASKETI_TOOLS_ATOMIC_FAMILY(strongatomic32, gasnett_strongatomic32_t, uint32_t, 1)
GASKETI_TOOLS_ATOMIC_FAMILY(strongatomic64, gasnett_strongatomic64_t, uint64_t, 1)

/* ---- "Miscellaneous tools" (inline): zero bytes in one value -------- */
static inline int gasnett_count0s_uint64_t(uint64_t x) {
    int n = 0;
    int i;
    for (i = 0; i < 8; i++) n += ((x >> (8 * i)) & 0xFF) == 0;
    return n;
}
static inline int gasnett_count0s_uint32_t(uint32_t x) {
    return gasnett_count0s_uint64_t(x) - 4; /* the 4 high bytes of the widened value are 0 */
}
static inline int gasnett_count0s_uintptr_t(uintptr_t x) {
    return gasnett_count0s_uint64_t((uint64_t)x) - (int)(8 - sizeof(uintptr_t));
}

/* ---- "Error-checking System Mutexes and Condition Variables" (inline) --
 * pthread mutexes that are never taken recursively: a thread that locks a
 * mutex it holds, or unlocks one it does not hold, gets a fatal error
 * ("gasnett: gasnett_mutex_lock: recursive lock"), as does any pthread
 * error.  gasnett_mutex_trylock returns 0 or EBUSY.  assertlocked /
 * assertunlocked are fatal when the calling thread does not / does hold the
 * mutex.  Not for shared memory between processes.  With
 * GASNETT_THREAD_SINGLE (and no GASNETT_USE_TRUE_MUTEXES=1) every call is a
 * no-op: trylock returns 0, the asserts check nothing and cond_wait returns
 * at once (a spurious wakeup). */
#define GASNETT_MUTEX_INITIALIZER \
    { PTHREAD_MUTEX_INITIALIZER, (pthread_t)0, 0 }
#define GASNETT_COND_INITIALIZER \
    { PTHREAD_COND_INITIALIZER }

static inline int gasketi_mutex_mine(gasnett_mutex_t* m) {
    return __atomic_load_n(&m->gasketi_held, __ATOMIC_RELAXED) &&
           pthread_equal(__atomic_load_n(&m->gasketi_owner, __ATOMIC_RELAXED), pthread_self());
}
static inline void gasketi_mutex_take(gasnett_mutex_t* m) {
    __atomic_store_n(&m->gasketi_owner, pthread_self(), __ATOMIC_RELAXED);
    __atomic_store_n(&m->gasketi_held, 1, __ATOMIC_RELAXED);
}
static inline void gasketi_mutex_give(gasnett_mutex_t* m, const char* call) {
    if (!gasketi_mutex_mine(m)) gasket_gasnett_pthread_fatal(call, -1);
    __atomic_store_n(&m->gasketi_held, 0, __ATOMIC_RELAXED);
}
static inline void gasnett_mutex_init(gasnett_mutex_t* m) {
    int err;
    m->gasketi_held = 0;
    if (!GASKETI_TOOLS_MUTEXES) return;
    err = pthread_mutex_init(&m->gasketi_mutex, 0);
    if (err) gasket_gasnett_pthread_fatal("gasnett_mutex_init", err);
}
static inline int gasnett_mutex_destroy_ignoreerr(gasnett_mutex_t* m) {
    return GASKETI_TOOLS_MUTEXES ? pthread_mutex_destroy(&m->gasketi_mutex) : 0;
}
static inline void gasnett_mutex_destroy(gasnett_mutex_t* m) {
    int err = gasnett_mutex_destroy_ignoreerr(m);
    if (err) gasket_gasnett_pthread_fatal("gasnett_mutex_destroy", err);
}
static inline void gasnett_mutex_lock(gasnett_mutex_t* m) {
    int err;
    if (!GASKETI_TOOLS_MUTEXES) return;
    if (gasketi_mutex_mine(m)) gasket_gasnett_pthread_fatal("gasnett_mutex_lock", -2);
    err = pthread_mutex_lock(&m->gasketi_mutex);
    if (err) gasket_gasnett_pthread_fatal("gasnett_mutex_lock", err);
    gasketi_mutex_take(m);
}
static inline int gasnett_mutex_trylock(gasnett_mutex_t* m) {
    int err;
    if (!GASKETI_TOOLS_MUTEXES) return 0;
    if (gasketi_mutex_mine(m)) gasket_gasnett_pthread_fatal("gasnett_mutex_trylock", -2);
    err = pthread_mutex_trylock(&m->gasketi_mutex);
    if (err == 0)
        gasketi_mutex_take(m);
    else if (err != EBUSY)
        gasket_gasnett_pthread_fatal("gasnett_mutex_trylock", err);
    return err;
}
static inline void gasnett_mutex_unlock(gasnett_mutex_t* m) {
    int err;
    if (!GASKETI_TOOLS_MUTEXES) return;
    gasketi_mutex_give(m, "gasnett_mutex_unlock");
    err = pthread_mutex_unlock(&m->gasketi_mutex);
    if (err) gasket_gasnett_pthread_fatal("gasnett_mutex_unlock", err);
}
static inline void gasnett_mutex_assertlocked(gasnett_mutex_t* m) {
    if (GASKETI_TOOLS_MUTEXES && !gasketi_mutex_mine(m)) gasket_gasnett_pthread_fatal("gasnett_mutex_assertlocked", -1);
}
static inline void gasnett_mutex_assertunlocked(gasnett_mutex_t* m) {
    if (GASKETI_TOOLS_MUTEXES && gasketi_mutex_mine(m))
        gasket_gasnett_pthread_fatal("gasnett_mutex_assertunlocked", -3);
}
static inline void gasnett_cond_init(gasnett_cond_t* c) {
    int err = GASKETI_TOOLS_MUTEXES ? pthread_cond_init(&c->gasketi_cond, 0) : 0;
    if (err) gasket_gasnett_pthread_fatal("gasnett_cond_init", err);
}
static inline void gasnett_cond_destroy(gasnett_cond_t* c) {
    int err = GASKETI_TOOLS_MUTEXES ? pthread_cond_destroy(&c->gasketi_cond) : 0;
    if (err) gasket_gasnett_pthread_fatal("gasnett_cond_destroy", err);
}
static inline void gasnett_cond_signal(gasnett_cond_t* c) {
    int err = GASKETI_TOOLS_MUTEXES ? pthread_cond_signal(&c->gasketi_cond) : 0;
    if (err) gasket_gasnett_pthread_fatal("gasnett_cond_signal", err);
}
static inline void gasnett_cond_broadcast(gasnett_cond_t* c) {
    int err = GASKETI_TOOLS_MUTEXES ? pthread_cond_broadcast(&c->gasketi_cond) : 0;
    if (err) gasket_gasnett_pthread_fatal("gasnett_cond_broadcast", err);
}
static inline void gasnett_cond_wait(gasnett_cond_t* c, gasnett_mutex_t* m) {
    int err;
    if (!GASKETI_TOOLS_MUTEXES) return;
    gasketi_mutex_give(m, "gasnett_cond_wait");
    err = pthread_cond_wait(&c->gasketi_cond, &m->gasketi_mutex);
    if (err) gasket_gasnett_pthread_fatal("gasnett_cond_wait", err);
    gasketi_mutex_take(m);
}

#ifdef __cplusplus
}
#endif

#endif /* GASKET_GASNET_TOOLS_H */
