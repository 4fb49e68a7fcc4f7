/*
 * shmem.h -- Gasket's OpenSHMEM 1.6 interface (openshmem-1.6-spec.md).
 *
 * Conventions for every routine below:
 *  - `pe` is a PE number in the world team, 0 <= pe < shmem_n_pes(); in
 *    the shmem_ctx_* forms it counts in the context's team (§9.5), 0 <= pe
 *    < shmem_team_n_pes(team).
 *  - `nelems` counts elements of the routine's type (bytes for the *mem
 *    forms, SIZE/8 bytes for the sized forms); strides (dst, sst) count
 *    elements too.
 *  - "symmetric address": an address inside the symmetric heap or the
 *    executable's global/static data, the same object on every PE.
 *  - Errors: a PE out of range, a non-symmetric remote address, a transfer
 *    running past the end of its symmetric object's segment, or a call before
 *    shmem_init end the job with a message naming the routine and the bad
 *    value (the spec gives these routines no error return).  Allocation
 *    routines return NULL on exhaustion (with a message when SHMEM_DEBUG is
 *    set).
 *  - Every routine is declared GASKET_NOEXCEPT (gasket/noexcept.h):
 *    noexcept in C++, nothing in C.  No exception leaves Gasket.
 *
 * The typed families (shmem_TYPENAME_*, shmem_*SIZE*) are declared one
 * prototype a line in gasket/shmem_typed.h, generated from the tables of
 * gasket/shmem_type_tables.h; the C11 generic names and C++ overloads are
 * expanded from the same tables.
 */
#ifndef GASKET_SHMEM_H
#define GASKET_SHMEM_H

#include <stddef.h>
#include <stdint.h>

#include <gasket/noexcept.h>
#include <gasket/shmem_type_tables.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- §6 library constants ------------------------------------------- */
#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 6
#define SHMEM_MAX_NAME_LEN 64
#define SHMEM_VENDOR_STRING "Gasket 0.1 (OpenSHMEM 1.6 over MPI-3)"

#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5

#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)

/* §9.9: session options (shmem_ctx_session_start's `options`) and
 * configuration mask bits (its `config_mask`). */
#define SHMEM_CTX_SESSION_BATCH (1L << 0)
#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0)

/* Deprecated _SHMEM_ aliases (Annex F.2.8). */
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE

/* ---- §7 handles ------------------------------------------------------ */
/* A communication context (§9.5): SHMEM_CTX_DEFAULT, or one made by
 * shmem_ctx_create / shmem_team_create_ctx.  Passing SHMEM_CTX_INVALID, a
 * destroyed context or a value that is no context handle to an RMA, AMO or
 * signal routine ends the job with a message naming the routine; the
 * ordering routines (§9.12) and sessions (§9.9) do nothing for
 * SHMEM_CTX_INVALID, as the spec says. */
typedef struct gasket_shmem_ctx* shmem_ctx_t;
extern shmem_ctx_t const gasket_shmem_ctx_default;
#define SHMEM_CTX_DEFAULT gasket_shmem_ctx_default
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)

/* A team (§9.4): an ordered set of PEs with its own MPI communicator.
 * SHMEM_TEAM_WORLD holds every PE; SHMEM_TEAM_SHARED the PEs whose
 * symmetric memory this PE can load/store (shmem_ptr non-NULL): this
 * node's PEs with the node fast path, this PE alone without it. */
typedef struct gasket_shmem_team* shmem_team_t;
extern shmem_team_t const gasket_shmem_team_world;
extern shmem_team_t const gasket_shmem_team_shared;
#define SHMEM_TEAM_WORLD gasket_shmem_team_world
#define SHMEM_TEAM_SHARED gasket_shmem_team_shared
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

/* §9.4.3: team configuration; num_contexts (>= 0) is read when the
 * config_mask has SHMEM_TEAM_NUM_CONTEXTS. */
typedef struct {
    int num_contexts;
} shmem_team_config_t;

/* ---- §9.1 library setup, exit and query ------------------------------ */

/* §9.1.1: collective over all PEs; initializes MPI with MPI_THREAD_SINGLE
 * unless the application already did.  Fatal (message, job ends) if the
 * runtime cannot start, e.g. an invalid SHMEM_SYMMETRIC_SIZE. */
void shmem_init(void) GASKET_NOEXCEPT;
/* §9.2.1: as shmem_init; *provided (may be NULL) receives the thread level
 * granted (<= requested, never above what MPI provides).  Returns 0 on
 * success, nonzero (after a message) on failure such as a bad
 * SHMEM_SYMMETRIC_SIZE. */
int shmem_init_thread(int requested, int* provided) GASKET_NOEXCEPT;
/* §9.2.2: *provided receives the thread level granted at init. */
void shmem_query_thread(int* provided) GASKET_NOEXCEPT;
/* §9.1.4: collective; completes all communication (barrier) and releases
 * the symmetric heap, teams, contexts and MPI resources.  MPI stays
 * initialized: shmem_init may be called again (§9.1.1); if shmem_init
 * initialized MPI it is finalized when the process exits.  Later calls
 * are barriers.  A PE that exits or returns from main without it: with
 * status 0 the library is finalized then, collectively (Annex F.2.3; it
 * waits for every PE to finalize or exit); a PE still waiting for it in a
 * barrier GASKET_EXIT_TIMEOUT seconds later ends the job with exit code 1.
 * With a nonzero status the job ends at once with that status. */
void shmem_finalize(void) GASKET_NOEXCEPT;
/* §9.1.5: *initialized = nonzero between init and finalize, else 0. */
void shmem_query_initialized(int* initialized) GASKET_NOEXCEPT;
/* §9.1.6: ends every PE of the job with exit code `status` (MPI_Abort);
 * never returns (_Noreturn in C11, [[noreturn]] in C++11). */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define GASKET_NORETURN [[noreturn]]
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define GASKET_NORETURN _Noreturn
#elif defined(__GNUC__)
#define GASKET_NORETURN __attribute__((__noreturn__))
#else
#define GASKET_NORETURN
#endif
GASKET_NORETURN void shmem_global_exit(int status) GASKET_NOEXCEPT;
/* §9.1.2: this PE's number in the world team, 0..n_pes-1. */
int shmem_my_pe(void) GASKET_NOEXCEPT;
/* §9.1.3: number of PEs in the world team. */
int shmem_n_pes(void) GASKET_NOEXCEPT;
/* §9.1.7: 1 if `pe` is a valid PE of the job, else 0 (never fatal). */
int shmem_pe_accessible(int pe) GASKET_NOEXCEPT;
/* §9.1.8: 1 if `addr` is a symmetric address reachable on `pe`, else 0. */
int shmem_addr_accessible(const void* addr, int pe) GASKET_NOEXCEPT;
/* §9.1.9: a local pointer to the symmetric object `dest` on `pe` when `pe`
 * shares this node's memory (and the node fast path is on), for load/store;
 * NULL otherwise.  Never fatal. */
void* shmem_ptr(const void* dest, int pe) GASKET_NOEXCEPT;
/* §9.1.11: the OpenSHMEM version implemented (1, 6). */
void shmem_info_get_version(int* major, int* minor) GASKET_NOEXCEPT;
/* §9.1.12: copies SHMEM_VENDOR_STRING (at most SHMEM_MAX_NAME_LEN bytes
 * with its NUL) into `name`. */
void shmem_info_get_name(char* name) GASKET_NOEXCEPT;

/* §9.1.10: as shmem_ptr for `pe` counted in `team`: a local pointer to
 * `dest` on that PE when its memory is mapped here (the PEs of
 * SHMEM_TEAM_SHARED), else NULL; NULL for SHMEM_TEAM_INVALID or a `pe`
 * outside 0..n_pes-1.  Never fatal for those. */
void* shmem_team_ptr(shmem_team_t team, const void* dest, int pe) GASKET_NOEXCEPT;

/* ---- §9.4 teams ----------------------------------------------------
 * Each team is an MPI communicator.  A team handle other than
 * SHMEM_TEAM_INVALID that is not a live team (destroyed, or never made)
 * ends the job with a message naming the routine, in every routine that
 * takes a team (handles are checked against Gasket's table of teams, never
 * dereferenced; a destroyed handle is detected until its slot is reused,
 * at the earliest after 1022 more splits).  At most 1024 teams live at once
 * (the predefined two included): a split past it returns nonzero.
 * shmem_finalize releases every team still alive. */
/* §9.4.1: this PE's number in `team` (0..n-1); -1 for SHMEM_TEAM_INVALID. */
int shmem_team_my_pe(shmem_team_t team) GASKET_NOEXCEPT;
/* §9.4.2: number of PEs in `team`; -1 for SHMEM_TEAM_INVALID. */
int shmem_team_n_pes(shmem_team_t team) GASKET_NOEXCEPT;
/* §9.4.4: stores in *config the fields config_mask names
 * (SHMEM_TEAM_NUM_CONTEXTS: the num_contexts the team was made with; for
 * SHMEM_TEAM_WORLD/SHARED the number of context window pairs the job
 * opened, GASKET_CTX_WINDOWS).  Returns 0, or nonzero for
 * SHMEM_TEAM_INVALID.  Unknown mask bits, or config NULL with a nonzero
 * mask, are fatal. */
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t* config) GASKET_NOEXCEPT;
/* §9.4.5: the number in dest_team of the PE numbered src_pe in src_team;
 * -1 when it is not in both, when src_pe is outside src_team, or when a
 * team is SHMEM_TEAM_INVALID. */
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team) GASKET_NOEXCEPT;
/* §9.4.6: collective over parent_team.  The new team holds the parent's
 * PEs start + stride*i for i = 0..size-1, numbered i (stride may be
 * negative; stride 0 needs size 1).  *new_team is the new team on its
 * members and SHMEM_TEAM_INVALID elsewhere; returns 0 on every parent PE.
 * Returns nonzero on every PE, with *new_team = SHMEM_TEAM_INVALID, when
 * parent_team is SHMEM_TEAM_INVALID, the triplet leaves 0..n-1 or wraps,
 * size < 1, or a PE's config is bad (config_mask bits other than
 * SHMEM_TEAM_NUM_CONTEXTS, config NULL with the bit set, num_contexts <
 * 0).  config may be NULL when config_mask is 0.  new_team NULL is fatal. */
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t* config, long config_mask,
                             shmem_team_t* new_team) GASKET_NOEXCEPT;
/* §9.4.7: collective over parent_team.  Parent PE p sits at (x, y) =
 * (p % xrange, p / xrange) (xrange larger than the team counts as its
 * size); *xaxis_team gets the PEs of this PE's row (same y, numbered by
 * x), *yaxis_team those of its column (same x, numbered by y).  Returns 0;
 * nonzero on every PE with both handles SHMEM_TEAM_INVALID when
 * parent_team is SHMEM_TEAM_INVALID, xrange < 1, or a config is bad on any
 * PE (as for split_strided). */
int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t* xaxis_config, long xaxis_mask,
                        shmem_team_t* xaxis_team, const shmem_team_config_t* yaxis_config, long yaxis_mask,
                        shmem_team_t* yaxis_team) GASKET_NOEXCEPT;
/* §9.4.8: collective over `team`; destroys it and the shareable contexts
 * made from it (each quieted first).  No-op for SHMEM_TEAM_INVALID.  Fatal
 * for SHMEM_TEAM_WORLD/SHARED, or while a SHMEM_CTX_PRIVATE context made
 * from the team is alive. */
void shmem_team_destroy(shmem_team_t team) GASKET_NOEXCEPT;

/* ---- §9.5 communication contexts --------------------------------------
 * A context is an ordering and completion domain over a team: its quiet
 * and fence complete and order its own operations only, and its PE
 * numbers count in its team.  Creation is local (not collective).  Gasket
 * opens GASKET_CTX_WINDOWS (default 4) pairs of MPI windows at shmem_init;
 * a context takes a free pair, so its MPI flushes and locks are its own,
 * and shares the default context's windows when none is free (correct,
 * less isolated: its quiet also completes default-context MPI transfers).
 * AMOs in flight and node-local stores are tracked per context either way.
 * At most 1024 contexts are alive per PE.  Options: SHMEM_CTX_SERIALIZED,
 * SHMEM_CTX_PRIVATE (no atomics on the context's bookkeeping: one thread
 * uses it), SHMEM_CTX_NOSTORE (quiet/fence skip the memory fence for the
 * program's own stores). */
/* §9.5.1: a context over the world team.  Returns 0 and sets *ctx; or
 * returns nonzero and sets *ctx = SHMEM_CTX_INVALID when options has
 * unknown bits (with a message) or 1024 contexts are alive.  ctx NULL is
 * fatal. */
int shmem_ctx_create(long options, shmem_ctx_t* ctx) GASKET_NOEXCEPT;
/* §9.5.2: as shmem_ctx_create, over `team`; nonzero and *ctx =
 * SHMEM_CTX_INVALID for SHMEM_TEAM_INVALID.  num_contexts in the team's
 * configuration is a hint: any team may make contexts up to the limits
 * above. */
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t* ctx) GASKET_NOEXCEPT;
/* §9.5.3: quiets `ctx`, then frees it.  No-op for SHMEM_CTX_INVALID.
 * Fatal for SHMEM_CTX_DEFAULT, a context not alive, or a SHMEM_CTX_PRIVATE
 * context destroyed by a thread other than its creator. */
void shmem_ctx_destroy(shmem_ctx_t ctx) GASKET_NOEXCEPT;
/* §9.5.4: *team = the context's team (SHMEM_TEAM_WORLD for the default
 * context and shmem_ctx_create's); returns 0.  For SHMEM_CTX_INVALID:
 * *team = SHMEM_TEAM_INVALID, returns nonzero.  team NULL is fatal. */
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t* team) GASKET_NOEXCEPT;

/* ---- §9.9 sessions ------------------------------------------------------ */
/* §9.9.1: session configuration; total_ops (the expected number of RMA
 * calls in the session) is read when config_mask has
 * SHMEM_CTX_SESSION_TOTAL_OPS, else SIZE_MAX. */
typedef struct {
    size_t total_ops;
} shmem_ctx_session_config_t;
/* §9.9.2: starts (or, if started, extends: options ORed in, masked config
 * fields replaced) a session on `ctx`.  A hint only: completion and
 * ordering are unchanged, and Gasket records the hints without batching
 * (see docs/design-notes.md).  No-op for SHMEM_CTX_INVALID.  Fatal for
 * option bits other than SHMEM_CTX_SESSION_BATCH, mask bits other than
 * SHMEM_CTX_SESSION_TOTAL_OPS, config NULL with a nonzero mask, or a
 * context not alive. */
void shmem_ctx_session_start(shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t* config,
                             long config_mask) GASKET_NOEXCEPT;
/* §9.9.3: ends the session on `ctx` (no effect if none); does not quiet.
 * No-op for SHMEM_CTX_INVALID. */
void shmem_ctx_session_stop(shmem_ctx_t ctx) GASKET_NOEXCEPT;

/* ---- §9.3 memory management (collective over the world team) ---------
 * Sizes are bytes.  Return NULL for size 0 (no barrier) or when the heap
 * (SHMEM_SYMMETRIC_SIZE bytes per PE) is exhausted; otherwise end with a
 * barrier so the block is usable on every PE at return.  Under SHMEM_DEBUG
 * a size (or alignment) that differs between PEs ends the job with a
 * message naming the routine and every PE's value. */
/* §9.3.1: block of >= size bytes, aligned for any object type. */
void* shmem_malloc(size_t size) GASKET_NOEXCEPT;
/* §9.3.2: barrier on entry, then frees `ptr` (NULL: no action).  A pointer
 * that is not a live heap block is a fatal error naming the address. */
void shmem_free(void* ptr) GASKET_NOEXCEPT;
/* §9.3.3: resizes `ptr` (NULL: as shmem_malloc; size 0: as shmem_free),
 * keeping min(old, new) bytes; barriers on entry and exit.  NULL, with the
 * block unchanged, when the heap cannot hold `size` bytes (any size, up to
 * SIZE_MAX). */
void* shmem_realloc(void* ptr, size_t size) GASKET_NOEXCEPT;
/* §9.3.4: block whose address is a multiple of `alignment` bytes on every
 * PE.  `alignment` must be a power of two (fatal otherwise, naming the
 * value); below sizeof(void*) is accepted too.  Every PE's heap starts on a
 * boundary of SHMEM_SYMMETRIC_SIZE rounded down to a power of two (at least
 * 2 MiB, at most 1 GiB), so any alignment up to that is honoured; above it,
 * NULL after a message. */
void* shmem_align(size_t alignment, size_t size) GASKET_NOEXCEPT;
/* §9.3.5: as shmem_malloc.  Hints SHMEM_MALLOC_ATOMICS_REMOTE and
 * SHMEM_MALLOC_SIGNAL_REMOTE are accepted; they do not change placement
 * yet.  Unknown hint bits are ignored (hints only guide optimisation; a
 * note under SHMEM_DEBUG). */
void* shmem_malloc_with_hints(size_t size, long hints) GASKET_NOEXCEPT;
/* §9.3.6: count*size bytes, zeroed (overflow of count*size returns NULL). */
void* shmem_calloc(size_t count, size_t size) GASKET_NOEXCEPT;

/* ---- §9.6-9.11 the typed families --------------------------------------
 * Every routine with TYPENAME or SIZE in its name -- RMA (§9.6), AMOs and
 * their deprecated names (§9.7, Annex F.2.6), put-with-signal (§9.8), the
 * typed collectives, reductions and scans (§9.10.5-10) and point-to-point
 * synchronization (§9.11, Annex F.2.10) -- is one prototype a line in
 * gasket/shmem_typed.h, grouped by spec section with what the routines do.
 * That header is generated from gasket/shmem_type_tables.h by
 * cmake/shmem_typed_header.py.  Below: the untyped routines of each
 * section. */
#include <gasket/shmem_typed.h>

/* ---- §9.6 remote memory access ----------------------------------------
 * Byte forms: as shmem_TYPENAME_put, _get, _put_nbi, _get_nbi
 * (gasket/shmem_typed.h, §9.6), with nelems a count of bytes (nelems 0:
 * only the PE is checked; any address, NULL included). */
void shmem_putmem(void* dest, const void* source, size_t nelems, int pe) GASKET_NOEXCEPT;
void shmem_ctx_putmem(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe) GASKET_NOEXCEPT;
void shmem_getmem(void* dest, const void* source, size_t nelems, int pe) GASKET_NOEXCEPT;
void shmem_ctx_getmem(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe) GASKET_NOEXCEPT;
void shmem_putmem_nbi(void* dest, const void* source, size_t nelems, int pe) GASKET_NOEXCEPT;
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe) GASKET_NOEXCEPT;
void shmem_getmem_nbi(void* dest, const void* source, size_t nelems, int pe) GASKET_NOEXCEPT;
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe) GASKET_NOEXCEPT;

/* ---- §9.7 atomic memory operations: all typed, gasket/shmem_typed.h ---- */

/* ---- §9.8 signaling ------------------------------------------------------
 * putmem_signal (§9.8.3, §9.8.4): as shmem_TYPENAME_put_signal
 * (gasket/shmem_typed.h, §9.8), with nelems a count of bytes.
 * signal_add/set update a signal atomically; signal_fetch reads this PE's
 * signal atomically. */
void shmem_putmem_signal(void* dest, const void* source, size_t nelems, uint64_t* sig_addr, uint64_t signal, int sig_op,
                         int pe) GASKET_NOEXCEPT;
void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, uint64_t* sig_addr,
                             uint64_t signal, int sig_op, int pe) GASKET_NOEXCEPT;
void shmem_putmem_signal_nbi(void* dest, const void* source, size_t nelems, uint64_t* sig_addr, uint64_t signal,
                             int sig_op, int pe) GASKET_NOEXCEPT;
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, uint64_t* sig_addr,
                                 uint64_t signal, int sig_op, int pe) GASKET_NOEXCEPT;
void shmem_signal_add(uint64_t* sig_addr, uint64_t signal, int pe) GASKET_NOEXCEPT;
void shmem_signal_set(uint64_t* sig_addr, uint64_t signal, int pe) GASKET_NOEXCEPT;
void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t* sig_addr, uint64_t signal, int pe) GASKET_NOEXCEPT;
void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t* sig_addr, uint64_t signal, int pe) GASKET_NOEXCEPT;
uint64_t shmem_signal_fetch(const uint64_t* sig_addr) GASKET_NOEXCEPT;
/* §9.11.15: waits until *sig_addr cmp cmp_value on this PE; returns the
 * signal's value that satisfied it. */
uint64_t shmem_signal_wait_until(uint64_t* sig_addr, int cmp, uint64_t cmp_value) GASKET_NOEXCEPT;

/* ---- §9.10 collectives: gasket/shmem_coll.h, included below ---------- */

/* ---- §9.11 point-to-point synchronization -----------------------------
 * The typed forms (shmem_TYPENAME_wait_until, _test, their all/any/some
 * and _vector forms, the deprecated shmem_TYPENAME_wait), with what each
 * does: gasket/shmem_typed.h, §9.11. */
/* Deprecated (Annex F.2.10): wait until *ivar != cmp_value. */
void shmem_wait(long* ivar, long cmp_value) GASKET_NOEXCEPT;
/* Deprecated (Annex F.2.11): shmem_long_wait_until under its old untyped
 * name.  In C11 the generic macro shmem_wait_until takes the name over (and
 * selects shmem_long_wait_until for a long ivar); in C++ this function is
 * the long member of the shmem_wait_until overload set. */
void shmem_wait_until(long* ivar, int cmp, long cmp_value) GASKET_NOEXCEPT;

/* ---- §9.12 memory ordering -------------------------------------------- */
/* §9.12.1: puts issued before the fence to one PE are delivered before puts
 * issued after it to that PE. */
void shmem_fence(void) GASKET_NOEXCEPT;
void shmem_ctx_fence(shmem_ctx_t ctx) GASKET_NOEXCEPT;
/* §9.12.2: completes every put, get and nbi operation this PE issued. */
void shmem_quiet(void) GASKET_NOEXCEPT;
void shmem_ctx_quiet(shmem_ctx_t ctx) GASKET_NOEXCEPT;
/* §9.12.3: completes operations to the `npes` PEs listed in target_pes
 * (each must be a valid PE; target_pes may be NULL when npes is 0). */
void shmem_pe_quiet(const int* target_pes, size_t npes) GASKET_NOEXCEPT;
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int* target_pes, size_t npes) GASKET_NOEXCEPT;

/* ---- §9.13 distributed locking -------------------------------------------
 * `lock` is a symmetric long, zero before first use, the same object on
 * every PE (it lives on PE 0: its value there encodes a ticket lock, so
 * waiters are served in arrival order).  set_lock blocks until this PE
 * holds the lock; test_lock takes it if free and returns 0, else returns
 * 1 without waiting; clear_lock completes this PE's outstanding puts and
 * AMOs (shmem_quiet), then releases it.  Stores made while holding the
 * lock are visible to the next holder.  Clearing a lock this PE does not
 * hold is fatal. */
void shmem_set_lock(long* lock) GASKET_NOEXCEPT;
int shmem_test_lock(long* lock) GASKET_NOEXCEPT;
void shmem_clear_lock(long* lock) GASKET_NOEXCEPT;

/* ---- §10 profiling interface ------------------------------------------
 * Every routine in this header also has a name-shifted entry point, "p" +
 * its name (pshmem_long_put, pstart_pes), declared in <pshmem.h>: a tool
 * defines the shmem_ routines it observes and calls the pshmem_ ones to
 * reach Gasket.  The C11 generic names and C++ overloads below are layered
 * over the typed C routines, so intercepting shmem_long_put also sees
 * shmem_put on a long (they have no pshmem_ form themselves, §10.3.3). */
/* §10.1.1: sets the profiling level for a tool that defines this routine
 * (<= 0 off, 1 default, 2 flush, > 2 tool-defined, with tool-defined extra
 * arguments).  Gasket itself profiles nothing: it returns at once, logging
 * the level under SHMEM_DEBUG.  Never fails. */
void shmem_pcontrol(int level, ...) GASKET_NOEXCEPT;

/* ---- Annex F deprecated routines --------------------------------------- */
/* Annex F.2.7 SHMEM_CACHE (prototypes of OpenSHMEM 1.4 and earlier): cache
 * management for machines whose caches were not coherent with remote
 * writes.  All memory Gasket writes is cache coherent, so these have no
 * effect; `dest` (any address, may be NULL) is not accessed. */
void shmem_clear_cache_inv(void) GASKET_NOEXCEPT;
void shmem_set_cache_inv(void) GASKET_NOEXCEPT;
void shmem_clear_cache_line_inv(void* dest) GASKET_NOEXCEPT;
void shmem_set_cache_line_inv(void* dest) GASKET_NOEXCEPT;
void shmem_udcflush(void) GASKET_NOEXCEPT;
void shmem_udcflush_line(void* dest) GASKET_NOEXCEPT;
/* §9.1.13: shmem_init; npes is ignored (the job's size comes from mpirun). */
void start_pes(int npes) GASKET_NOEXCEPT;
int _my_pe(void) GASKET_NOEXCEPT;                                /* = shmem_my_pe */
int _num_pes(void) GASKET_NOEXCEPT;                              /* = shmem_n_pes */
void* shmalloc(size_t size) GASKET_NOEXCEPT;                     /* = shmem_malloc */
void shfree(void* ptr) GASKET_NOEXCEPT;                          /* = shmem_free */
void* shrealloc(void* ptr, size_t size) GASKET_NOEXCEPT;         /* = shmem_realloc */
void* shmemalign(size_t alignment, size_t size) GASKET_NOEXCEPT; /* = shmem_align */

/* §9.10 team-based and deprecated active-set collectives. */
#include <gasket/shmem_coll.h>

#ifdef __cplusplus
}
#endif

#ifdef __cplusplus
/* C++: overloaded functions with the C11 generic names. */
#include <gasket/shmem_cxx.h>
#include <gasket/shmem_coll_cxx.h>
#endif

#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#include <gasket/shmem_generic.h>
#include <gasket/shmem_coll_generic.h>
#endif

#endif /* GASKET_SHMEM_H */
