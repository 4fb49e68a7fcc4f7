/*
 * gasket/shmem_cxx.h -- the C11 generic names as C++ overloads (included by
 * shmem.h when compiled as C++, after its extern "C" block; do not include
 * directly).
 *
 * shmem_put(dest, source, nelems, pe), shmem_put(ctx, dest, ...),
 * shmem_atomic_fetch_add(dest, value, pe), shmem_wait_until(ivar, cmp,
 * value) ... select the typed C routine (shmem_TYPENAME_put, ...) by the
 * pointee type of the symmetric object argument, as the C11 _Generic
 * interface does (gasket/shmem_generic.h), and the ctx form by the argument
 * count.  Each overload is an inline function that only calls the typed C
 * routine: shapes, units, errors and semantics are those of the C routine
 * in shmem.h, and a profiling tool that intercepts the C routine sees these
 * calls too (§10.3.3).  A pointer to a type outside the routine's table is a
 * compile error (no matching overload).  Value arguments convert to the
 * selected TYPE as in C.
 *
 * One overload per distinct C type of the spec's table: the exact-width and
 * size rows (int32_t, size_t, ...) are typedefs of those, so int32_t
 * selects shmem_int_put for RMA, like _Generic.  Generated from
 * gasket/shmem_type_tables.h.  Collectives (§9.10) have their overloads in
 * gasket/shmem_coll.h.
 */
#ifndef GASKET_SHMEM_CXX_H
#define GASKET_SHMEM_CXX_H

/* One overload forwarding to its typed C routine: shmem_NAME PARAMS calls
 * shmem_FN ARGS (PARAMS, ARGS: parenthesized lists).  The _CTX form adds
 * shmem_NAME(ctx, PARAMS...) calling shmem_ctx_FN(ctx, ARGS...).  Also used
 * by gasket/shmem_coll_cxx.h. */
#define GASKET_CXX_LIST(...) __VA_ARGS__
#define GASKET_CXX_FORWARD(RET, NAME, FN, PARAMS, ARGS) \
    inline RET shmem_##NAME PARAMS { return shmem_##FN ARGS; }
#define GASKET_CXX_FORWARD_CTX(RET, NAME, FN, PARAMS, ARGS)            \
    GASKET_CXX_FORWARD(RET, NAME, FN, PARAMS, ARGS)                    \
    inline RET shmem_##NAME(shmem_ctx_t ctx, GASKET_CXX_LIST PARAMS) { \
        return shmem_ctx_##FN(ctx, GASKET_CXX_LIST ARGS);              \
    }

/* ---- §9.6 RMA, §9.8.3-4 put-with-signal: Table 5 ---------------------- */
#define GASKET_CXX_CONTIGUOUS(T, N, OP)                                                            \
    GASKET_CXX_FORWARD_CTX(void, OP, N##_##OP, (T * dest, const T* source, size_t nelems, int pe), \
                           (dest, source, nelems, pe))
#define GASKET_CXX_STRIDED(T, N, OP)                                                                         \
    GASKET_CXX_FORWARD_CTX(void, OP, N##_##OP,                                                               \
                           (T * dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
                           (dest, source, dst, sst, nelems, pe))
#define GASKET_CXX_BLOCKED(T, N, OP)                                                                     \
    GASKET_CXX_FORWARD_CTX(                                                                              \
        void, OP, N##_##OP,                                                                              \
        (T * dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe), \
        (dest, source, dst, sst, bsize, nblocks, pe))
#define GASKET_CXX_PUT_SIGNAL(T, N, OP)                                                                      \
    GASKET_CXX_FORWARD_CTX(                                                                                  \
        void, OP, N##_##OP,                                                                                  \
        (T * dest, const T* source, size_t nelems, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe), \
        (dest, source, nelems, sig_addr, signal, sig_op, pe))
#define GASKET_CXX_RMA(T, N)                                                               \
    GASKET_CXX_CONTIGUOUS(T, N, put)                                                       \
    GASKET_CXX_CONTIGUOUS(T, N, get)                                                       \
    GASKET_CXX_CONTIGUOUS(T, N, put_nbi)                                                   \
    GASKET_CXX_CONTIGUOUS(T, N, get_nbi)                                                   \
    GASKET_CXX_FORWARD_CTX(void, p, N##_p, (T * dest, T value, int pe), (dest, value, pe)) \
    GASKET_CXX_FORWARD_CTX(T, g, N##_g, (const T* source, int pe), (source, pe))           \
    GASKET_CXX_STRIDED(T, N, iput)                                                         \
    GASKET_CXX_STRIDED(T, N, iget)                                                         \
    GASKET_CXX_BLOCKED(T, N, ibput)                                                        \
    GASKET_CXX_BLOCKED(T, N, ibget)                                                        \
    GASKET_CXX_PUT_SIGNAL(T, N, put_signal)                                                \
    GASKET_CXX_PUT_SIGNAL(T, N, put_signal_nbi)
GASKET_STD_RMA_DISTINCT_TYPES(GASKET_CXX_RMA)
#undef GASKET_CXX_RMA
#undef GASKET_CXX_PUT_SIGNAL
#undef GASKET_CXX_BLOCKED
#undef GASKET_CXX_STRIDED
#undef GASKET_CXX_CONTIGUOUS

/* ---- §9.7 AMOs --------------------------------------------------------- */
/* The shapes: (dest, value) -> T, and the fetching nbi (fetch, dest, value). */
#define GASKET_CXX_AMO_VALUE(T, N, RET, OP) \
    GASKET_CXX_FORWARD_CTX(RET, OP, N##_##OP, (T * dest, T value, int pe), (dest, value, pe))
#define GASKET_CXX_AMO_VALUE_NBI(T, N, OP) \
    GASKET_CXX_FORWARD_CTX(void, OP, N##_##OP, (T * fetch, T * dest, T value, int pe), (fetch, dest, value, pe))

/* Table 7: fetch, set, swap and their nbi forms. */
#define GASKET_CXX_AMO_EXT(T, N)                                                                               \
    GASKET_CXX_FORWARD_CTX(T, atomic_fetch, N##_atomic_fetch, (const T* source, int pe), (source, pe))         \
    GASKET_CXX_AMO_VALUE(T, N, void, atomic_set)                                                               \
    GASKET_CXX_AMO_VALUE(T, N, T, atomic_swap)                                                                 \
    GASKET_CXX_FORWARD_CTX(void, atomic_fetch_nbi, N##_atomic_fetch_nbi, (T * fetch, const T* source, int pe), \
                           (fetch, source, pe))                                                                \
    GASKET_CXX_AMO_VALUE_NBI(T, N, atomic_swap_nbi)
GASKET_EXT_AMO_DISTINCT_TYPES(GASKET_CXX_AMO_EXT)
#undef GASKET_CXX_AMO_EXT

/* Table 6: compare_swap, fetch_inc, inc, fetch_add, add and their nbi forms. */
#define GASKET_CXX_AMO_STD(T, N)                                                                                 \
    GASKET_CXX_FORWARD_CTX(T, atomic_compare_swap, N##_atomic_compare_swap, (T * dest, T cond, T value, int pe), \
                           (dest, cond, value, pe))                                                              \
    GASKET_CXX_FORWARD_CTX(T, atomic_fetch_inc, N##_atomic_fetch_inc, (T * dest, int pe), (dest, pe))            \
    GASKET_CXX_FORWARD_CTX(void, atomic_inc, N##_atomic_inc, (T * dest, int pe), (dest, pe))                     \
    GASKET_CXX_AMO_VALUE(T, N, T, atomic_fetch_add)                                                              \
    GASKET_CXX_AMO_VALUE(T, N, void, atomic_add)                                                                 \
    GASKET_CXX_FORWARD_CTX(void, atomic_compare_swap_nbi, N##_atomic_compare_swap_nbi,                           \
                           (T * fetch, T * dest, T cond, T value, int pe), (fetch, dest, cond, value, pe))       \
    GASKET_CXX_FORWARD_CTX(void, atomic_fetch_inc_nbi, N##_atomic_fetch_inc_nbi, (T * fetch, T * dest, int pe),  \
                           (fetch, dest, pe))                                                                    \
    GASKET_CXX_AMO_VALUE_NBI(T, N, atomic_fetch_add_nbi)
GASKET_STD_AMO_DISTINCT_TYPES(GASKET_CXX_AMO_STD)
#undef GASKET_CXX_AMO_STD

/* Table 8: and, or, xor -- fetching, non-fetching, fetching nbi. */
#define GASKET_CXX_AMO_BITWISE_OP(T, N, OP, ATOMIC)  \
    GASKET_CXX_AMO_VALUE(T, N, T, atomic_fetch_##OP) \
    GASKET_CXX_AMO_VALUE(T, N, void, atomic_##OP)    \
    GASKET_CXX_AMO_VALUE_NBI(T, N, atomic_fetch_##OP##_nbi)
#define GASKET_CXX_AMO_BITWISE(T, N) GASKET_AMO_BITWISE_OPS(GASKET_CXX_AMO_BITWISE_OP, T, N)
GASKET_BITWISE_AMO_DISTINCT_TYPES(GASKET_CXX_AMO_BITWISE)
#undef GASKET_CXX_AMO_BITWISE
#undef GASKET_CXX_AMO_BITWISE_OP
#undef GASKET_CXX_AMO_VALUE_NBI
#undef GASKET_CXX_AMO_VALUE

/* Deprecated generic AMO names (Annex F.2.12): fetch, set, swap over
 * {float, double, int, long, long long}; cswap, finc, inc, fadd, add over
 * {int, long, long long}. */
#define GASKET_CXX_AMO_OLD_EXT(T, N)                                                        \
    inline T shmem_fetch(const T* source, int pe) { return shmem_##N##_fetch(source, pe); } \
    inline void shmem_set(T* dest, T value, int pe) { shmem_##N##_set(dest, value, pe); }   \
    inline T shmem_swap(T* dest, T value, int pe) { return shmem_##N##_swap(dest, value, pe); }
GASKET_DEPRECATED_EXT_AMO_DISTINCT_TYPES(GASKET_CXX_AMO_OLD_EXT)
#undef GASKET_CXX_AMO_OLD_EXT
#define GASKET_CXX_AMO_OLD_STD(T, N)                                                                            \
    inline T shmem_cswap(T* dest, T cond, T value, int pe) { return shmem_##N##_cswap(dest, cond, value, pe); } \
    inline T shmem_finc(T* dest, int pe) { return shmem_##N##_finc(dest, pe); }                                 \
    inline void shmem_inc(T* dest, int pe) { shmem_##N##_inc(dest, pe); }                                       \
    inline T shmem_fadd(T* dest, T value, int pe) { return shmem_##N##_fadd(dest, value, pe); }                 \
    inline void shmem_add(T* dest, T value, int pe) { shmem_##N##_add(dest, value, pe); }
GASKET_DEPRECATED_STD_AMO_DISTINCT_TYPES(GASKET_CXX_AMO_OLD_STD)
#undef GASKET_CXX_AMO_OLD_STD

/* ---- §9.8.5, §9.8.7 signal_add/set with a context (the C11 form; the
 * three-argument form is the C routine itself) ----------------------------- */
GASKET_CXX_FORWARD(void, signal_add, ctx_signal_add, (shmem_ctx_t ctx, uint64_t* sig_addr, uint64_t signal, int pe),
                   (ctx, sig_addr, signal, pe))
GASKET_CXX_FORWARD(void, signal_set, ctx_signal_set, (shmem_ctx_t ctx, uint64_t* sig_addr, uint64_t signal, int pe),
                   (ctx, sig_addr, signal, pe))

/* ---- §9.11 point-to-point synchronization: Table 6 (+ short and unsigned
 * short for wait_until and test, deprecated) ------------------------------- */
#define GASKET_CXX_P2P_TEST(T, N) \
    inline int shmem_test(T* ivar, int cmp, T cmp_value) { return shmem_##N##_test(ivar, cmp, cmp_value); }
GASKET_STD_AMO_DISTINCT_TYPES(GASKET_CXX_P2P_TEST)
GASKET_P2P_SYNC_DEPRECATED_TYPES(GASKET_CXX_P2P_TEST)
#undef GASKET_CXX_P2P_TEST

/* shmem_wait_until: shmem.h declares the deprecated C routine
 * shmem_wait_until(long *, int, long) (Annex F.2.11), which C++ cannot
 * overload with an inline function of the same parameters.  So the other
 * types go through a template over gasket_cxx_wait_until (overloaded for
 * every row); for a long ivar overload resolution prefers the C routine, a
 * non-template exact match, which does the same as shmem_long_wait_until.
 * The value parameter is not deduced, so shmem_wait_until(&i, cmp, 0L) on
 * an int converts 0L to int as in C. */
#define GASKET_CXX_P2P_WAIT(T, N) \
    inline void gasket_cxx_wait_until(T* ivar, int cmp, T cmp_value) { shmem_##N##_wait_until(ivar, cmp, cmp_value); }
GASKET_STD_AMO_DISTINCT_TYPES(GASKET_CXX_P2P_WAIT)
GASKET_P2P_SYNC_DEPRECATED_TYPES(GASKET_CXX_P2P_WAIT)
#undef GASKET_CXX_P2P_WAIT
template <class T>
struct gasket_cxx_same {
    typedef T type;
};
template <class T>
inline void shmem_wait_until(T* ivar, int cmp, typename gasket_cxx_same<T>::type cmp_value) {
    gasket_cxx_wait_until(ivar, cmp, cmp_value);
}

/* The shapes: wait_until/test over a set (scalar or vector cmp value),
 * with or without an indices output. */
#define GASKET_CXX_P2P_SET_FORMS(T, N, RET, OP, VALUE)                                                   \
    GASKET_CXX_FORWARD(RET, OP, N##_##OP, (T * ivars, size_t nelems, const int* status, int cmp, VALUE), \
                       (ivars, nelems, status, cmp, cmp_value))
#define GASKET_CXX_P2P_SET_SOME(T, N, OP, VALUE)                                                        \
    GASKET_CXX_FORWARD(size_t, OP, N##_##OP,                                                            \
                       (T * ivars, size_t nelems, size_t * indices, const int* status, int cmp, VALUE), \
                       (ivars, nelems, indices, status, cmp, cmp_value))
#define GASKET_CXX_P2P_SET(T, N)                                                      \
    GASKET_CXX_P2P_SET_FORMS(T, N, void, wait_until_all, T cmp_value)                 \
    GASKET_CXX_P2P_SET_FORMS(T, N, size_t, wait_until_any, T cmp_value)               \
    GASKET_CXX_P2P_SET_SOME(T, N, wait_until_some, T cmp_value)                       \
    GASKET_CXX_P2P_SET_FORMS(T, N, void, wait_until_all_vector, const T* cmp_value)   \
    GASKET_CXX_P2P_SET_FORMS(T, N, size_t, wait_until_any_vector, const T* cmp_value) \
    GASKET_CXX_P2P_SET_SOME(T, N, wait_until_some_vector, const T* cmp_value)         \
    GASKET_CXX_P2P_SET_FORMS(T, N, int, test_all, T cmp_value)                        \
    GASKET_CXX_P2P_SET_FORMS(T, N, size_t, test_any, T cmp_value)                     \
    GASKET_CXX_P2P_SET_SOME(T, N, test_some, T cmp_value)                             \
    GASKET_CXX_P2P_SET_FORMS(T, N, int, test_all_vector, const T* cmp_value)          \
    GASKET_CXX_P2P_SET_FORMS(T, N, size_t, test_any_vector, const T* cmp_value)       \
    GASKET_CXX_P2P_SET_SOME(T, N, test_some_vector, const T* cmp_value)
GASKET_P2P_SET_DISTINCT_TYPES(GASKET_CXX_P2P_SET)
#undef GASKET_CXX_P2P_SET
#undef GASKET_CXX_P2P_SET_SOME
#undef GASKET_CXX_P2P_SET_FORMS

#endif /* GASKET_SHMEM_CXX_H */
