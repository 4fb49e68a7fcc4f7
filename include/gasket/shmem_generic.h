/*
 * gasket/shmem_generic.h -- the C11 generic interface (§9.6, §9.11):
 * shmem_put(dest, source, nelems, pe), shmem_put(ctx, dest, ...), ...
 * Included by shmem.h when compiling C11 or later (not C++).
 *
 * Each generic name selects the typed routine from the type of the
 * symmetric object (*dest, or *source for get/g), and the ctx form from the
 * number of arguments.  A type outside the spec's table is a compile error
 * ("no association matches").  Generated from gasket/shmem_type_tables.h.
 */
#ifndef GASKET_SHMEM_GENERIC_H
#define GASKET_SHMEM_GENERIC_H

#define GASKET_CAT_(a, b) a##b
#define GASKET_CAT(a, b) GASKET_CAT_(a, b)
#define GASKET_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, N, ...) N
#define GASKET_NARGS(...) GASKET_NARGS_(__VA_ARGS__, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
/* Picks <prefix><number of arguments>. */
#define GASKET_BY_NARGS(prefix, ...) GASKET_CAT(prefix, GASKET_NARGS(__VA_ARGS__))(__VA_ARGS__)

/* Association-list builders: TYPE: shmem_[ctx_]NAME_OP, */
#define GASKET_ASSOC_put(T, N) T: shmem_##N##_put,
#define GASKET_ASSOC_ctx_put(T, N) T: shmem_ctx_##N##_put,
#define GASKET_ASSOC_get(T, N) T: shmem_##N##_get,
#define GASKET_ASSOC_ctx_get(T, N) T: shmem_ctx_##N##_get,
#define GASKET_ASSOC_p(T, N) T: shmem_##N##_p,
#define GASKET_ASSOC_ctx_p(T, N) T: shmem_ctx_##N##_p,
#define GASKET_ASSOC_g(T, N) T: shmem_##N##_g,
#define GASKET_ASSOC_ctx_g(T, N) T: shmem_ctx_##N##_g,
#define GASKET_ASSOC_iput(T, N) T: shmem_##N##_iput,
#define GASKET_ASSOC_ctx_iput(T, N) T: shmem_ctx_##N##_iput,
#define GASKET_ASSOC_iget(T, N) T: shmem_##N##_iget,
#define GASKET_ASSOC_ctx_iget(T, N) T: shmem_ctx_##N##_iget,
#define GASKET_ASSOC_ibput(T, N) T: shmem_##N##_ibput,
#define GASKET_ASSOC_ctx_ibput(T, N) T: shmem_ctx_##N##_ibput,
#define GASKET_ASSOC_ibget(T, N) T: shmem_##N##_ibget,
#define GASKET_ASSOC_ctx_ibget(T, N) T: shmem_ctx_##N##_ibget,
#define GASKET_ASSOC_put_nbi(T, N) T: shmem_##N##_put_nbi,
#define GASKET_ASSOC_ctx_put_nbi(T, N) T: shmem_ctx_##N##_put_nbi,
#define GASKET_ASSOC_get_nbi(T, N) T: shmem_##N##_get_nbi,
#define GASKET_ASSOC_ctx_get_nbi(T, N) T: shmem_ctx_##N##_get_nbi,
#define GASKET_ASSOC_wait_until(T, N) T: shmem_##N##_wait_until,
#define GASKET_ASSOC_test(T, N) T: shmem_##N##_test,

/* Selects over the distinct RMA types by the object `obj` points to. */
#define GASKET_RMA_SELECT(op, obj) _Generic(*(obj), GASKET_STD_RMA_DISTINCT_TYPES(GASKET_ASSOC_##op) \
                                            struct gasket_no_such_type *: 0)
#define GASKET_P2P_SELECT(op, obj)                                                         \
    _Generic(*(obj), GASKET_STD_AMO_DISTINCT_TYPES(GASKET_ASSOC_##op)                      \
             GASKET_P2P_SYNC_DEPRECATED_TYPES(GASKET_ASSOC_##op) struct gasket_no_such_type *: 0)

/* §9.6.1.1 */
#define shmem_put(...) GASKET_BY_NARGS(GASKET_PUT_, __VA_ARGS__)
#define GASKET_PUT_4(d, s, n, pe) GASKET_RMA_SELECT(put, d)(d, s, n, pe)
#define GASKET_PUT_5(c, d, s, n, pe) GASKET_RMA_SELECT(ctx_put, d)(c, d, s, n, pe)
/* §9.6.1.2 */
#define shmem_p(...) GASKET_BY_NARGS(GASKET_P_, __VA_ARGS__)
#define GASKET_P_3(d, v, pe) GASKET_RMA_SELECT(p, d)(d, v, pe)
#define GASKET_P_4(c, d, v, pe) GASKET_RMA_SELECT(ctx_p, d)(c, d, v, pe)
/* §9.6.1.3 */
#define shmem_iput(...) GASKET_BY_NARGS(GASKET_IPUT_, __VA_ARGS__)
#define GASKET_IPUT_6(d, s, dst, sst, n, pe) GASKET_RMA_SELECT(iput, d)(d, s, dst, sst, n, pe)
#define GASKET_IPUT_7(c, d, s, dst, sst, n, pe) GASKET_RMA_SELECT(ctx_iput, d)(c, d, s, dst, sst, n, pe)
/* §9.6.1.4 */
#define shmem_ibput(...) GASKET_BY_NARGS(GASKET_IBPUT_, __VA_ARGS__)
#define GASKET_IBPUT_7(d, s, dst, sst, b, n, pe) GASKET_RMA_SELECT(ibput, d)(d, s, dst, sst, b, n, pe)
#define GASKET_IBPUT_8(c, d, s, dst, sst, b, n, pe) GASKET_RMA_SELECT(ctx_ibput, d)(c, d, s, dst, sst, b, n, pe)
/* §9.6.1.5 */
#define shmem_get(...) GASKET_BY_NARGS(GASKET_GET_, __VA_ARGS__)
#define GASKET_GET_4(d, s, n, pe) GASKET_RMA_SELECT(get, d)(d, s, n, pe)
#define GASKET_GET_5(c, d, s, n, pe) GASKET_RMA_SELECT(ctx_get, d)(c, d, s, n, pe)
/* §9.6.1.6 */
#define shmem_g(...) GASKET_BY_NARGS(GASKET_G_, __VA_ARGS__)
#define GASKET_G_2(s, pe) GASKET_RMA_SELECT(g, s)(s, pe)
#define GASKET_G_3(c, s, pe) GASKET_RMA_SELECT(ctx_g, s)(c, s, pe)
/* §9.6.1.7 */
#define shmem_iget(...) GASKET_BY_NARGS(GASKET_IGET_, __VA_ARGS__)
#define GASKET_IGET_6(d, s, dst, sst, n, pe) GASKET_RMA_SELECT(iget, d)(d, s, dst, sst, n, pe)
#define GASKET_IGET_7(c, d, s, dst, sst, n, pe) GASKET_RMA_SELECT(ctx_iget, d)(c, d, s, dst, sst, n, pe)
/* §9.6.1.8 */
#define shmem_ibget(...) GASKET_BY_NARGS(GASKET_IBGET_, __VA_ARGS__)
#define GASKET_IBGET_7(d, s, dst, sst, b, n, pe) GASKET_RMA_SELECT(ibget, d)(d, s, dst, sst, b, n, pe)
#define GASKET_IBGET_8(c, d, s, dst, sst, b, n, pe) GASKET_RMA_SELECT(ctx_ibget, d)(c, d, s, dst, sst, b, n, pe)
/* §9.6.2.1, §9.6.2.2 */
#define shmem_put_nbi(...) GASKET_BY_NARGS(GASKET_PUT_NBI_, __VA_ARGS__)
#define GASKET_PUT_NBI_4(d, s, n, pe) GASKET_RMA_SELECT(put_nbi, d)(d, s, n, pe)
#define GASKET_PUT_NBI_5(c, d, s, n, pe) GASKET_RMA_SELECT(ctx_put_nbi, d)(c, d, s, n, pe)
#define shmem_get_nbi(...) GASKET_BY_NARGS(GASKET_GET_NBI_, __VA_ARGS__)
#define GASKET_GET_NBI_4(d, s, n, pe) GASKET_RMA_SELECT(get_nbi, d)(d, s, n, pe)
#define GASKET_GET_NBI_5(c, d, s, n, pe) GASKET_RMA_SELECT(ctx_get_nbi, d)(c, d, s, n, pe)
/* §9.11.1, §9.11.8 (single variable) */
#define shmem_wait_until(ivar, cmp, value) GASKET_P2P_SELECT(wait_until, ivar)(ivar, cmp, value)
#define shmem_test(ivar, cmp, value) GASKET_P2P_SELECT(test, ivar)(ivar, cmp, value)

#endif /* GASKET_SHMEM_GENERIC_H */
