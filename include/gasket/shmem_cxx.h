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

/* ---- §9.6 RMA, §9.8.3-4 put-with-signal: Table 5 ---------------------- */
#define GASKET_CXX_RMA(T, N)                                                                                       \
    inline void shmem_put(T *dest, const T *source, size_t nelems, int pe) {                                       \
        shmem_##N##_put(dest, source, nelems, pe);                                                                 \
    }                                                                                                              \
    inline void shmem_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) {                      \
        shmem_ctx_##N##_put(ctx, dest, source, nelems, pe);                                                        \
    }                                                                                                              \
    inline void shmem_get(T *dest, const T *source, size_t nelems, int pe) {                                       \
        shmem_##N##_get(dest, source, nelems, pe);                                                                 \
    }                                                                                                              \
    inline void shmem_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) {                      \
        shmem_ctx_##N##_get(ctx, dest, source, nelems, pe);                                                        \
    }                                                                                                              \
    inline void shmem_p(T *dest, T value, int pe) { shmem_##N##_p(dest, value, pe); }                              \
    inline void shmem_p(shmem_ctx_t ctx, T *dest, T value, int pe) { shmem_ctx_##N##_p(ctx, dest, value, pe); }    \
    inline T shmem_g(const T *source, int pe) { return shmem_##N##_g(source, pe); }                                \
    inline T shmem_g(shmem_ctx_t ctx, const T *source, int pe) { return shmem_ctx_##N##_g(ctx, source, pe); }      \
    inline void shmem_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) {        \
        shmem_##N##_iput(dest, source, dst, sst, nelems, pe);                                                      \
    }                                                                                                              \
    inline void shmem_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,               \
                           size_t nelems, int pe) {                                                                \
        shmem_ctx_##N##_iput(ctx, dest, source, dst, sst, nelems, pe);                                             \
    }                                                                                                              \
    inline void shmem_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) {        \
        shmem_##N##_iget(dest, source, dst, sst, nelems, pe);                                                      \
    }                                                                                                              \
    inline void shmem_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,               \
                           size_t nelems, int pe) {                                                                \
        shmem_ctx_##N##_iget(ctx, dest, source, dst, sst, nelems, pe);                                             \
    }                                                                                                              \
    inline void shmem_ibput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
                            int pe) {                                                                              \
        shmem_##N##_ibput(dest, source, dst, sst, bsize, nblocks, pe);                                             \
    }                                                                                                              \
    inline void shmem_ibput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,              \
                            size_t bsize, size_t nblocks, int pe) {                                                \
        shmem_ctx_##N##_ibput(ctx, dest, source, dst, sst, bsize, nblocks, pe);                                    \
    }                                                                                                              \
    inline void shmem_ibget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
                            int pe) {                                                                              \
        shmem_##N##_ibget(dest, source, dst, sst, bsize, nblocks, pe);                                             \
    }                                                                                                              \
    inline void shmem_ibget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,              \
                            size_t bsize, size_t nblocks, int pe) {                                                \
        shmem_ctx_##N##_ibget(ctx, dest, source, dst, sst, bsize, nblocks, pe);                                    \
    }                                                                                                              \
    inline void shmem_put_nbi(T *dest, const T *source, size_t nelems, int pe) {                                   \
        shmem_##N##_put_nbi(dest, source, nelems, pe);                                                             \
    }                                                                                                              \
    inline void shmem_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) {                  \
        shmem_ctx_##N##_put_nbi(ctx, dest, source, nelems, pe);                                                    \
    }                                                                                                              \
    inline void shmem_get_nbi(T *dest, const T *source, size_t nelems, int pe) {                                   \
        shmem_##N##_get_nbi(dest, source, nelems, pe);                                                             \
    }                                                                                                              \
    inline void shmem_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) {                  \
        shmem_ctx_##N##_get_nbi(ctx, dest, source, nelems, pe);                                                    \
    }                                                                                                              \
    inline void shmem_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal,     \
                                 int sig_op, int pe) {                                                             \
        shmem_##N##_put_signal(dest, source, nelems, sig_addr, signal, sig_op, pe);                                \
    }                                                                                                              \
    inline void shmem_put_signal(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, uint64_t *sig_addr,    \
                                 uint64_t signal, int sig_op, int pe) {                                            \
        shmem_ctx_##N##_put_signal(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe);                       \
    }                                                                                                              \
    inline void shmem_put_signal_nbi(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, \
                                     int sig_op, int pe) {                                                         \
        shmem_##N##_put_signal_nbi(dest, source, nelems, sig_addr, signal, sig_op, pe);                            \
    }                                                                                                              \
    inline void shmem_put_signal_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,                    \
                                     uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {                    \
        shmem_ctx_##N##_put_signal_nbi(ctx, dest, source, nelems, sig_addr, signal, sig_op, pe);                   \
    }
GASKET_STD_RMA_DISTINCT_TYPES(GASKET_CXX_RMA)
#undef GASKET_CXX_RMA

/* ---- §9.7 AMOs --------------------------------------------------------- */
/* Table 7: fetch, set, swap and their nbi forms. */
#define GASKET_CXX_AMO_EXT(T, N)                                                                                  \
    inline T shmem_atomic_fetch(const T *source, int pe) { return shmem_##N##_atomic_fetch(source, pe); }         \
    inline T shmem_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe) {                                       \
        return shmem_ctx_##N##_atomic_fetch(ctx, source, pe);                                                     \
    }                                                                                                             \
    inline void shmem_atomic_set(T *dest, T value, int pe) { shmem_##N##_atomic_set(dest, value, pe); }           \
    inline void shmem_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe) {                                     \
        shmem_ctx_##N##_atomic_set(ctx, dest, value, pe);                                                         \
    }                                                                                                             \
    inline T shmem_atomic_swap(T *dest, T value, int pe) { return shmem_##N##_atomic_swap(dest, value, pe); }     \
    inline T shmem_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe) {                                       \
        return shmem_ctx_##N##_atomic_swap(ctx, dest, value, pe);                                                 \
    }                                                                                                             \
    inline void shmem_atomic_fetch_nbi(T *fetch, const T *source, int pe) {                                       \
        shmem_##N##_atomic_fetch_nbi(fetch, source, pe);                                                          \
    }                                                                                                             \
    inline void shmem_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source, int pe) {                      \
        shmem_ctx_##N##_atomic_fetch_nbi(ctx, fetch, source, pe);                                                 \
    }                                                                                                             \
    inline void shmem_atomic_swap_nbi(T *fetch, T *dest, T value, int pe) {                                       \
        shmem_##N##_atomic_swap_nbi(fetch, dest, value, pe);                                                      \
    }                                                                                                             \
    inline void shmem_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe) {                      \
        shmem_ctx_##N##_atomic_swap_nbi(ctx, fetch, dest, value, pe);                                             \
    }
GASKET_EXT_AMO_DISTINCT_TYPES(GASKET_CXX_AMO_EXT)
#undef GASKET_CXX_AMO_EXT

/* Table 6: compare_swap, fetch_inc, inc, fetch_add, add and their nbi forms. */
#define GASKET_CXX_AMO_STD(T, N)                                                                                  \
    inline T shmem_atomic_compare_swap(T *dest, T cond, T value, int pe) {                                        \
        return shmem_##N##_atomic_compare_swap(dest, cond, value, pe);                                            \
    }                                                                                                             \
    inline T shmem_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value, int pe) {                       \
        return shmem_ctx_##N##_atomic_compare_swap(ctx, dest, cond, value, pe);                                   \
    }                                                                                                             \
    inline T shmem_atomic_fetch_inc(T *dest, int pe) { return shmem_##N##_atomic_fetch_inc(dest, pe); }           \
    inline T shmem_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe) {                                           \
        return shmem_ctx_##N##_atomic_fetch_inc(ctx, dest, pe);                                                   \
    }                                                                                                             \
    inline void shmem_atomic_inc(T *dest, int pe) { shmem_##N##_atomic_inc(dest, pe); }                           \
    inline void shmem_atomic_inc(shmem_ctx_t ctx, T *dest, int pe) { shmem_ctx_##N##_atomic_inc(ctx, dest, pe); } \
    inline T shmem_atomic_fetch_add(T *dest, T value, int pe) {                                                   \
        return shmem_##N##_atomic_fetch_add(dest, value, pe);                                                     \
    }                                                                                                             \
    inline T shmem_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe) {                                  \
        return shmem_ctx_##N##_atomic_fetch_add(ctx, dest, value, pe);                                            \
    }                                                                                                             \
    inline void shmem_atomic_add(T *dest, T value, int pe) { shmem_##N##_atomic_add(dest, value, pe); }           \
    inline void shmem_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe) {                                     \
        shmem_ctx_##N##_atomic_add(ctx, dest, value, pe);                                                         \
    }                                                                                                             \
    inline void shmem_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe) {                       \
        shmem_##N##_atomic_compare_swap_nbi(fetch, dest, cond, value, pe);                                        \
    }                                                                                                             \
    inline void shmem_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T cond, T value, int pe) {      \
        shmem_ctx_##N##_atomic_compare_swap_nbi(ctx, fetch, dest, cond, value, pe);                               \
    }                                                                                                             \
    inline void shmem_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe) {                                           \
        shmem_##N##_atomic_fetch_inc_nbi(fetch, dest, pe);                                                        \
    }                                                                                                             \
    inline void shmem_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe) {                          \
        shmem_ctx_##N##_atomic_fetch_inc_nbi(ctx, fetch, dest, pe);                                               \
    }                                                                                                             \
    inline void shmem_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe) {                                  \
        shmem_##N##_atomic_fetch_add_nbi(fetch, dest, value, pe);                                                 \
    }                                                                                                             \
    inline void shmem_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe) {                 \
        shmem_ctx_##N##_atomic_fetch_add_nbi(ctx, fetch, dest, value, pe);                                        \
    }
GASKET_STD_AMO_DISTINCT_TYPES(GASKET_CXX_AMO_STD)
#undef GASKET_CXX_AMO_STD

/* Table 8: and, or, xor -- fetching, non-fetching, fetching nbi. */
#define GASKET_CXX_AMO_BITWISE_OP(T, N, OP)                                                                      \
    inline T shmem_atomic_fetch_##OP(T *dest, T value, int pe) {                                                 \
        return shmem_##N##_atomic_fetch_##OP(dest, value, pe);                                                   \
    }                                                                                                            \
    inline T shmem_atomic_fetch_##OP(shmem_ctx_t ctx, T *dest, T value, int pe) {                                \
        return shmem_ctx_##N##_atomic_fetch_##OP(ctx, dest, value, pe);                                          \
    }                                                                                                            \
    inline void shmem_atomic_##OP(T *dest, T value, int pe) { shmem_##N##_atomic_##OP(dest, value, pe); }        \
    inline void shmem_atomic_##OP(shmem_ctx_t ctx, T *dest, T value, int pe) {                                   \
        shmem_ctx_##N##_atomic_##OP(ctx, dest, value, pe);                                                       \
    }                                                                                                            \
    inline void shmem_atomic_fetch_##OP##_nbi(T *fetch, T *dest, T value, int pe) {                              \
        shmem_##N##_atomic_fetch_##OP##_nbi(fetch, dest, value, pe);                                             \
    }                                                                                                            \
    inline void shmem_atomic_fetch_##OP##_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe) {             \
        shmem_ctx_##N##_atomic_fetch_##OP##_nbi(ctx, fetch, dest, value, pe);                                    \
    }
#define GASKET_CXX_AMO_BITWISE(T, N)          \
    GASKET_CXX_AMO_BITWISE_OP(T, N, and)      \
    GASKET_CXX_AMO_BITWISE_OP(T, N, or)       \
    GASKET_CXX_AMO_BITWISE_OP(T, N, xor)
GASKET_BITWISE_AMO_DISTINCT_TYPES(GASKET_CXX_AMO_BITWISE)
#undef GASKET_CXX_AMO_BITWISE
#undef GASKET_CXX_AMO_BITWISE_OP

/* Deprecated generic AMO names (Annex F.2.12): fetch, set, swap over
 * {float, double, int, long, long long}; cswap, finc, inc, fadd, add over
 * {int, long, long long}. */
#define GASKET_CXX_AMO_OLD_EXT(T, N)                                                            \
    inline T shmem_fetch(const T *source, int pe) { return shmem_##N##_fetch(source, pe); }     \
    inline void shmem_set(T *dest, T value, int pe) { shmem_##N##_set(dest, value, pe); }       \
    inline T shmem_swap(T *dest, T value, int pe) { return shmem_##N##_swap(dest, value, pe); }
GASKET_DEPRECATED_EXT_AMO_TYPES(GASKET_CXX_AMO_OLD_EXT)
#undef GASKET_CXX_AMO_OLD_EXT
#define GASKET_CXX_AMO_OLD_STD(T, N)                                                                             \
    inline T shmem_cswap(T *dest, T cond, T value, int pe) { return shmem_##N##_cswap(dest, cond, value, pe); } \
    inline T shmem_finc(T *dest, int pe) { return shmem_##N##_finc(dest, pe); }                                  \
    inline void shmem_inc(T *dest, int pe) { shmem_##N##_inc(dest, pe); }                                        \
    inline T shmem_fadd(T *dest, T value, int pe) { return shmem_##N##_fadd(dest, value, pe); }                  \
    inline void shmem_add(T *dest, T value, int pe) { shmem_##N##_add(dest, value, pe); }
GASKET_DEPRECATED_STD_AMO_TYPES(GASKET_CXX_AMO_OLD_STD)
#undef GASKET_CXX_AMO_OLD_STD

/* ---- §9.8.5, §9.8.7 signal_add/set with a context (the C11 form; the
 * three-argument form is the C routine itself) ----------------------------- */
inline void shmem_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe) {
    shmem_ctx_signal_add(ctx, sig_addr, signal, pe);
}
inline void shmem_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe) {
    shmem_ctx_signal_set(ctx, sig_addr, signal, pe);
}

/* ---- §9.11 point-to-point synchronization: Table 6 (+ short and unsigned
 * short for wait_until and test, deprecated) ------------------------------- */
#define GASKET_CXX_P2P_TEST(T, N) \
    inline int shmem_test(T *ivar, int cmp, T cmp_value) { return shmem_##N##_test(ivar, cmp, cmp_value); }
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
#define GASKET_CXX_P2P_WAIT(T, N)                                          \
    inline void gasket_cxx_wait_until(T *ivar, int cmp, T cmp_value) {     \
        shmem_##N##_wait_until(ivar, cmp, cmp_value);                      \
    }
GASKET_STD_AMO_DISTINCT_TYPES(GASKET_CXX_P2P_WAIT)
GASKET_P2P_SYNC_DEPRECATED_TYPES(GASKET_CXX_P2P_WAIT)
#undef GASKET_CXX_P2P_WAIT
template <class T>
struct gasket_cxx_same {
    typedef T type;
};
template <class T>
inline void shmem_wait_until(T *ivar, int cmp, typename gasket_cxx_same<T>::type cmp_value) {
    gasket_cxx_wait_until(ivar, cmp, cmp_value);
}

#define GASKET_CXX_P2P_SET(T, N)                                                                                  \
    inline void shmem_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value) {          \
        shmem_##N##_wait_until_all(ivars, nelems, status, cmp, cmp_value);                                        \
    }                                                                                                             \
    inline size_t shmem_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value) {        \
        return shmem_##N##_wait_until_any(ivars, nelems, status, cmp, cmp_value);                                 \
    }                                                                                                             \
    inline size_t shmem_wait_until_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,     \
                                        T cmp_value) {                                                            \
        return shmem_##N##_wait_until_some(ivars, nelems, indices, status, cmp, cmp_value);                       \
    }                                                                                                             \
    inline void shmem_wait_until_all_vector(T *ivars, size_t nelems, const int *status, int cmp,                  \
                                            const T *cmp_values) {                                                \
        shmem_##N##_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values);                                \
    }                                                                                                             \
    inline size_t shmem_wait_until_any_vector(T *ivars, size_t nelems, const int *status, int cmp,                \
                                              const T *cmp_values) {                                              \
        return shmem_##N##_wait_until_any_vector(ivars, nelems, status, cmp, cmp_values);                         \
    }                                                                                                             \
    inline size_t shmem_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status,       \
                                               int cmp, const T *cmp_values) {                                    \
        return shmem_##N##_wait_until_some_vector(ivars, nelems, indices, status, cmp, cmp_values);               \
    }                                                                                                             \
    inline int shmem_test_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value) {                 \
        return shmem_##N##_test_all(ivars, nelems, status, cmp, cmp_value);                                       \
    }                                                                                                             \
    inline size_t shmem_test_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value) {              \
        return shmem_##N##_test_any(ivars, nelems, status, cmp, cmp_value);                                       \
    }                                                                                                             \
    inline size_t shmem_test_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,           \
                                  T cmp_value) {                                                                  \
        return shmem_##N##_test_some(ivars, nelems, indices, status, cmp, cmp_value);                             \
    }                                                                                                             \
    inline int shmem_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp, const T *cmp_values) {  \
        return shmem_##N##_test_all_vector(ivars, nelems, status, cmp, cmp_values);                               \
    }                                                                                                             \
    inline size_t shmem_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp,                      \
                                        const T *cmp_values) {                                                    \
        return shmem_##N##_test_any_vector(ivars, nelems, status, cmp, cmp_values);                               \
    }                                                                                                             \
    inline size_t shmem_test_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,    \
                                         const T *cmp_values) {                                                   \
        return shmem_##N##_test_some_vector(ivars, nelems, indices, status, cmp, cmp_values);                     \
    }
GASKET_STD_AMO_DISTINCT_TYPES(GASKET_CXX_P2P_SET)
#undef GASKET_CXX_P2P_SET

#endif /* GASKET_SHMEM_CXX_H */
