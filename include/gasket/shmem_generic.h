/*
 * gasket/shmem_generic.h -- the C11 generic interface of RMA (§9.6), AMOs
 * (§9.7, and the deprecated generic AMO names of Annex F.2.12), signals
 * (§9.8) and point-to-point synchronization (§9.11):
 * shmem_put(dest, source, nelems, pe), shmem_put(ctx, dest, ...), ...
 * Included by shmem.h when compiling C11 or later (not C++, which gets the
 * same names as overloads: gasket/shmem_cxx.h).  The collectives' generic
 * names are in gasket/shmem_coll_generic.h.
 *
 * Each generic name selects the typed routine from the type of the
 * symmetric object (*dest, or *source for get/g), and the ctx form from the
 * number of arguments.  A type outside the spec's table is a compile error
 * ("no association matches").  The generic names are macros over the typed
 * C routines: a profiling tool intercepting shmem_long_put sees
 * shmem_put(long *, ...) too, and there is no pshmem_put (§10.3.3).
 * Generated from gasket/shmem_type_tables.h; tests/surface/check_generic.py
 * compiles every C11 synopsis of the spec for every TYPE of its table.
 *
 * One limit of macros: a generic call written inside an expansion of one of
 * the gasket/shmem_type_tables.h table macros (X-macro code of your own that
 * calls shmem_put for each row) does not expand, because the selection
 * expands that same table macro.  Let the table expand first, then the rows
 * (tests/surface/generic_calls.h, FOR_ROWS).
 */
#ifndef GASKET_SHMEM_GENERIC_H
#define GASKET_SHMEM_GENERIC_H
/* The _Generic association lists (TYPE: routine,) are laid out by hand, one
 * a line: clang-format cannot parse them inside macros. */
/* clang-format off */

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

/* §9.7, §9.8, §9.11.2-14 and the deprecated AMO names (Annex F): the same
 * scheme, one block per routine: the association builders, then the
 * generic name selecting by the type of the object argument (dest, source,
 * or ivars) from the routine's type table, and by argument count for ctx. */
#define GASKET_SELECT_IN(table, op, obj) _Generic(*(obj), table(GASKET_ASSOC_##op) struct gasket_no_such_type *: 0)
#define GASKET_ASSOC_atomic_fetch(T, N) T: shmem_##N##_atomic_fetch,
#define GASKET_ASSOC_ctx_atomic_fetch(T, N) T: shmem_ctx_##N##_atomic_fetch,
#define shmem_atomic_fetch(...) GASKET_BY_NARGS(GASKET_ATOMIC_FETCH_, __VA_ARGS__)
#define GASKET_ATOMIC_FETCH_2(a0, a1) GASKET_SELECT_IN(GASKET_EXT_AMO_DISTINCT_TYPES, atomic_fetch, a0)(a0, a1)
#define GASKET_ATOMIC_FETCH_3(c, a0, a1) GASKET_SELECT_IN(GASKET_EXT_AMO_DISTINCT_TYPES, ctx_atomic_fetch, a0)(c, a0, a1)
#define GASKET_ASSOC_atomic_set(T, N) T: shmem_##N##_atomic_set,
#define GASKET_ASSOC_ctx_atomic_set(T, N) T: shmem_ctx_##N##_atomic_set,
#define shmem_atomic_set(...) GASKET_BY_NARGS(GASKET_ATOMIC_SET_, __VA_ARGS__)
#define GASKET_ATOMIC_SET_3(a0, a1, a2) GASKET_SELECT_IN(GASKET_EXT_AMO_DISTINCT_TYPES, atomic_set, a0)(a0, a1, a2)
#define GASKET_ATOMIC_SET_4(c, a0, a1, a2) GASKET_SELECT_IN(GASKET_EXT_AMO_DISTINCT_TYPES, ctx_atomic_set, a0)(c, a0, a1, a2)
#define GASKET_ASSOC_atomic_swap(T, N) T: shmem_##N##_atomic_swap,
#define GASKET_ASSOC_ctx_atomic_swap(T, N) T: shmem_ctx_##N##_atomic_swap,
#define shmem_atomic_swap(...) GASKET_BY_NARGS(GASKET_ATOMIC_SWAP_, __VA_ARGS__)
#define GASKET_ATOMIC_SWAP_3(a0, a1, a2) GASKET_SELECT_IN(GASKET_EXT_AMO_DISTINCT_TYPES, atomic_swap, a0)(a0, a1, a2)
#define GASKET_ATOMIC_SWAP_4(c, a0, a1, a2) GASKET_SELECT_IN(GASKET_EXT_AMO_DISTINCT_TYPES, ctx_atomic_swap, a0)(c, a0, a1, a2)
#define GASKET_ASSOC_atomic_fetch_nbi(T, N) T: shmem_##N##_atomic_fetch_nbi,
#define GASKET_ASSOC_ctx_atomic_fetch_nbi(T, N) T: shmem_ctx_##N##_atomic_fetch_nbi,
#define shmem_atomic_fetch_nbi(...) GASKET_BY_NARGS(GASKET_ATOMIC_FETCH_NBI_, __VA_ARGS__)
#define GASKET_ATOMIC_FETCH_NBI_3(a0, a1, a2) GASKET_SELECT_IN(GASKET_EXT_AMO_DISTINCT_TYPES, atomic_fetch_nbi, a1)(a0, a1, a2)
#define GASKET_ATOMIC_FETCH_NBI_4(c, a0, a1, a2) GASKET_SELECT_IN(GASKET_EXT_AMO_DISTINCT_TYPES, ctx_atomic_fetch_nbi, a1)(c, a0, a1, a2)
#define GASKET_ASSOC_atomic_swap_nbi(T, N) T: shmem_##N##_atomic_swap_nbi,
#define GASKET_ASSOC_ctx_atomic_swap_nbi(T, N) T: shmem_ctx_##N##_atomic_swap_nbi,
#define shmem_atomic_swap_nbi(...) GASKET_BY_NARGS(GASKET_ATOMIC_SWAP_NBI_, __VA_ARGS__)
#define GASKET_ATOMIC_SWAP_NBI_4(a0, a1, a2, a3) GASKET_SELECT_IN(GASKET_EXT_AMO_DISTINCT_TYPES, atomic_swap_nbi, a1)(a0, a1, a2, a3)
#define GASKET_ATOMIC_SWAP_NBI_5(c, a0, a1, a2, a3) GASKET_SELECT_IN(GASKET_EXT_AMO_DISTINCT_TYPES, ctx_atomic_swap_nbi, a1)(c, a0, a1, a2, a3)
#define GASKET_ASSOC_atomic_compare_swap(T, N) T: shmem_##N##_atomic_compare_swap,
#define GASKET_ASSOC_ctx_atomic_compare_swap(T, N) T: shmem_ctx_##N##_atomic_compare_swap,
#define shmem_atomic_compare_swap(...) GASKET_BY_NARGS(GASKET_ATOMIC_COMPARE_SWAP_, __VA_ARGS__)
#define GASKET_ATOMIC_COMPARE_SWAP_4(a0, a1, a2, a3) GASKET_SELECT_IN(GASKET_STD_AMO_DISTINCT_TYPES, atomic_compare_swap, a0)(a0, a1, a2, a3)
#define GASKET_ATOMIC_COMPARE_SWAP_5(c, a0, a1, a2, a3) GASKET_SELECT_IN(GASKET_STD_AMO_DISTINCT_TYPES, ctx_atomic_compare_swap, a0)(c, a0, a1, a2, a3)
#define GASKET_ASSOC_atomic_fetch_inc(T, N) T: shmem_##N##_atomic_fetch_inc,
#define GASKET_ASSOC_ctx_atomic_fetch_inc(T, N) T: shmem_ctx_##N##_atomic_fetch_inc,
#define shmem_atomic_fetch_inc(...) GASKET_BY_NARGS(GASKET_ATOMIC_FETCH_INC_, __VA_ARGS__)
#define GASKET_ATOMIC_FETCH_INC_2(a0, a1) GASKET_SELECT_IN(GASKET_STD_AMO_DISTINCT_TYPES, atomic_fetch_inc, a0)(a0, a1)
#define GASKET_ATOMIC_FETCH_INC_3(c, a0, a1) GASKET_SELECT_IN(GASKET_STD_AMO_DISTINCT_TYPES, ctx_atomic_fetch_inc, a0)(c, a0, a1)
#define GASKET_ASSOC_atomic_inc(T, N) T: shmem_##N##_atomic_inc,
#define GASKET_ASSOC_ctx_atomic_inc(T, N) T: shmem_ctx_##N##_atomic_inc,
#define shmem_atomic_inc(...) GASKET_BY_NARGS(GASKET_ATOMIC_INC_, __VA_ARGS__)
#define GASKET_ATOMIC_INC_2(a0, a1) GASKET_SELECT_IN(GASKET_STD_AMO_DISTINCT_TYPES, atomic_inc, a0)(a0, a1)
#define GASKET_ATOMIC_INC_3(c, a0, a1) GASKET_SELECT_IN(GASKET_STD_AMO_DISTINCT_TYPES, ctx_atomic_inc, a0)(c, a0, a1)
#define GASKET_ASSOC_atomic_fetch_add(T, N) T: shmem_##N##_atomic_fetch_add,
#define GASKET_ASSOC_ctx_atomic_fetch_add(T, N) T: shmem_ctx_##N##_atomic_fetch_add,
#define shmem_atomic_fetch_add(...) GASKET_BY_NARGS(GASKET_ATOMIC_FETCH_ADD_, __VA_ARGS__)
#define GASKET_ATOMIC_FETCH_ADD_3(a0, a1, a2) GASKET_SELECT_IN(GASKET_STD_AMO_DISTINCT_TYPES, atomic_fetch_add, a0)(a0, a1, a2)
#define GASKET_ATOMIC_FETCH_ADD_4(c, a0, a1, a2) GASKET_SELECT_IN(GASKET_STD_AMO_DISTINCT_TYPES, ctx_atomic_fetch_add, a0)(c, a0, a1, a2)
#define GASKET_ASSOC_atomic_add(T, N) T: shmem_##N##_atomic_add,
#define GASKET_ASSOC_ctx_atomic_add(T, N) T: shmem_ctx_##N##_atomic_add,
#define shmem_atomic_add(...) GASKET_BY_NARGS(GASKET_ATOMIC_ADD_, __VA_ARGS__)
#define GASKET_ATOMIC_ADD_3(a0, a1, a2) GASKET_SELECT_IN(GASKET_STD_AMO_DISTINCT_TYPES, atomic_add, a0)(a0, a1, a2)
#define GASKET_ATOMIC_ADD_4(c, a0, a1, a2) GASKET_SELECT_IN(GASKET_STD_AMO_DISTINCT_TYPES, ctx_atomic_add, a0)(c, a0, a1, a2)
#define GASKET_ASSOC_atomic_compare_swap_nbi(T, N) T: shmem_##N##_atomic_compare_swap_nbi,
#define GASKET_ASSOC_ctx_atomic_compare_swap_nbi(T, N) T: shmem_ctx_##N##_atomic_compare_swap_nbi,
#define shmem_atomic_compare_swap_nbi(...) GASKET_BY_NARGS(GASKET_ATOMIC_COMPARE_SWAP_NBI_, __VA_ARGS__)
#define GASKET_ATOMIC_COMPARE_SWAP_NBI_5(a0, a1, a2, a3, a4) GASKET_SELECT_IN(GASKET_STD_AMO_DISTINCT_TYPES, atomic_compare_swap_nbi, a1)(a0, a1, a2, a3, a4)
#define GASKET_ATOMIC_COMPARE_SWAP_NBI_6(c, a0, a1, a2, a3, a4) GASKET_SELECT_IN(GASKET_STD_AMO_DISTINCT_TYPES, ctx_atomic_compare_swap_nbi, a1)(c, a0, a1, a2, a3, a4)
#define GASKET_ASSOC_atomic_fetch_inc_nbi(T, N) T: shmem_##N##_atomic_fetch_inc_nbi,
#define GASKET_ASSOC_ctx_atomic_fetch_inc_nbi(T, N) T: shmem_ctx_##N##_atomic_fetch_inc_nbi,
#define shmem_atomic_fetch_inc_nbi(...) GASKET_BY_NARGS(GASKET_ATOMIC_FETCH_INC_NBI_, __VA_ARGS__)
#define GASKET_ATOMIC_FETCH_INC_NBI_3(a0, a1, a2) GASKET_SELECT_IN(GASKET_STD_AMO_DISTINCT_TYPES, atomic_fetch_inc_nbi, a1)(a0, a1, a2)
#define GASKET_ATOMIC_FETCH_INC_NBI_4(c, a0, a1, a2) GASKET_SELECT_IN(GASKET_STD_AMO_DISTINCT_TYPES, ctx_atomic_fetch_inc_nbi, a1)(c, a0, a1, a2)
#define GASKET_ASSOC_atomic_fetch_add_nbi(T, N) T: shmem_##N##_atomic_fetch_add_nbi,
#define GASKET_ASSOC_ctx_atomic_fetch_add_nbi(T, N) T: shmem_ctx_##N##_atomic_fetch_add_nbi,
#define shmem_atomic_fetch_add_nbi(...) GASKET_BY_NARGS(GASKET_ATOMIC_FETCH_ADD_NBI_, __VA_ARGS__)
#define GASKET_ATOMIC_FETCH_ADD_NBI_4(a0, a1, a2, a3) GASKET_SELECT_IN(GASKET_STD_AMO_DISTINCT_TYPES, atomic_fetch_add_nbi, a1)(a0, a1, a2, a3)
#define GASKET_ATOMIC_FETCH_ADD_NBI_5(c, a0, a1, a2, a3) GASKET_SELECT_IN(GASKET_STD_AMO_DISTINCT_TYPES, ctx_atomic_fetch_add_nbi, a1)(c, a0, a1, a2, a3)
#define GASKET_ASSOC_atomic_fetch_and(T, N) T: shmem_##N##_atomic_fetch_and,
#define GASKET_ASSOC_ctx_atomic_fetch_and(T, N) T: shmem_ctx_##N##_atomic_fetch_and,
#define shmem_atomic_fetch_and(...) GASKET_BY_NARGS(GASKET_ATOMIC_FETCH_AND_, __VA_ARGS__)
#define GASKET_ATOMIC_FETCH_AND_3(a0, a1, a2) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, atomic_fetch_and, a0)(a0, a1, a2)
#define GASKET_ATOMIC_FETCH_AND_4(c, a0, a1, a2) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, ctx_atomic_fetch_and, a0)(c, a0, a1, a2)
#define GASKET_ASSOC_atomic_and(T, N) T: shmem_##N##_atomic_and,
#define GASKET_ASSOC_ctx_atomic_and(T, N) T: shmem_ctx_##N##_atomic_and,
#define shmem_atomic_and(...) GASKET_BY_NARGS(GASKET_ATOMIC_AND_, __VA_ARGS__)
#define GASKET_ATOMIC_AND_3(a0, a1, a2) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, atomic_and, a0)(a0, a1, a2)
#define GASKET_ATOMIC_AND_4(c, a0, a1, a2) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, ctx_atomic_and, a0)(c, a0, a1, a2)
#define GASKET_ASSOC_atomic_fetch_and_nbi(T, N) T: shmem_##N##_atomic_fetch_and_nbi,
#define GASKET_ASSOC_ctx_atomic_fetch_and_nbi(T, N) T: shmem_ctx_##N##_atomic_fetch_and_nbi,
#define shmem_atomic_fetch_and_nbi(...) GASKET_BY_NARGS(GASKET_ATOMIC_FETCH_AND_NBI_, __VA_ARGS__)
#define GASKET_ATOMIC_FETCH_AND_NBI_4(a0, a1, a2, a3) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, atomic_fetch_and_nbi, a1)(a0, a1, a2, a3)
#define GASKET_ATOMIC_FETCH_AND_NBI_5(c, a0, a1, a2, a3) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, ctx_atomic_fetch_and_nbi, a1)(c, a0, a1, a2, a3)
#define GASKET_ASSOC_atomic_fetch_or(T, N) T: shmem_##N##_atomic_fetch_or,
#define GASKET_ASSOC_ctx_atomic_fetch_or(T, N) T: shmem_ctx_##N##_atomic_fetch_or,
#define shmem_atomic_fetch_or(...) GASKET_BY_NARGS(GASKET_ATOMIC_FETCH_OR_, __VA_ARGS__)
#define GASKET_ATOMIC_FETCH_OR_3(a0, a1, a2) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, atomic_fetch_or, a0)(a0, a1, a2)
#define GASKET_ATOMIC_FETCH_OR_4(c, a0, a1, a2) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, ctx_atomic_fetch_or, a0)(c, a0, a1, a2)
#define GASKET_ASSOC_atomic_or(T, N) T: shmem_##N##_atomic_or,
#define GASKET_ASSOC_ctx_atomic_or(T, N) T: shmem_ctx_##N##_atomic_or,
#define shmem_atomic_or(...) GASKET_BY_NARGS(GASKET_ATOMIC_OR_, __VA_ARGS__)
#define GASKET_ATOMIC_OR_3(a0, a1, a2) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, atomic_or, a0)(a0, a1, a2)
#define GASKET_ATOMIC_OR_4(c, a0, a1, a2) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, ctx_atomic_or, a0)(c, a0, a1, a2)
#define GASKET_ASSOC_atomic_fetch_or_nbi(T, N) T: shmem_##N##_atomic_fetch_or_nbi,
#define GASKET_ASSOC_ctx_atomic_fetch_or_nbi(T, N) T: shmem_ctx_##N##_atomic_fetch_or_nbi,
#define shmem_atomic_fetch_or_nbi(...) GASKET_BY_NARGS(GASKET_ATOMIC_FETCH_OR_NBI_, __VA_ARGS__)
#define GASKET_ATOMIC_FETCH_OR_NBI_4(a0, a1, a2, a3) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, atomic_fetch_or_nbi, a1)(a0, a1, a2, a3)
#define GASKET_ATOMIC_FETCH_OR_NBI_5(c, a0, a1, a2, a3) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, ctx_atomic_fetch_or_nbi, a1)(c, a0, a1, a2, a3)
#define GASKET_ASSOC_atomic_fetch_xor(T, N) T: shmem_##N##_atomic_fetch_xor,
#define GASKET_ASSOC_ctx_atomic_fetch_xor(T, N) T: shmem_ctx_##N##_atomic_fetch_xor,
#define shmem_atomic_fetch_xor(...) GASKET_BY_NARGS(GASKET_ATOMIC_FETCH_XOR_, __VA_ARGS__)
#define GASKET_ATOMIC_FETCH_XOR_3(a0, a1, a2) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, atomic_fetch_xor, a0)(a0, a1, a2)
#define GASKET_ATOMIC_FETCH_XOR_4(c, a0, a1, a2) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, ctx_atomic_fetch_xor, a0)(c, a0, a1, a2)
#define GASKET_ASSOC_atomic_xor(T, N) T: shmem_##N##_atomic_xor,
#define GASKET_ASSOC_ctx_atomic_xor(T, N) T: shmem_ctx_##N##_atomic_xor,
#define shmem_atomic_xor(...) GASKET_BY_NARGS(GASKET_ATOMIC_XOR_, __VA_ARGS__)
#define GASKET_ATOMIC_XOR_3(a0, a1, a2) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, atomic_xor, a0)(a0, a1, a2)
#define GASKET_ATOMIC_XOR_4(c, a0, a1, a2) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, ctx_atomic_xor, a0)(c, a0, a1, a2)
#define GASKET_ASSOC_atomic_fetch_xor_nbi(T, N) T: shmem_##N##_atomic_fetch_xor_nbi,
#define GASKET_ASSOC_ctx_atomic_fetch_xor_nbi(T, N) T: shmem_ctx_##N##_atomic_fetch_xor_nbi,
#define shmem_atomic_fetch_xor_nbi(...) GASKET_BY_NARGS(GASKET_ATOMIC_FETCH_XOR_NBI_, __VA_ARGS__)
#define GASKET_ATOMIC_FETCH_XOR_NBI_4(a0, a1, a2, a3) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, atomic_fetch_xor_nbi, a1)(a0, a1, a2, a3)
#define GASKET_ATOMIC_FETCH_XOR_NBI_5(c, a0, a1, a2, a3) GASKET_SELECT_IN(GASKET_BITWISE_AMO_DISTINCT_TYPES, ctx_atomic_fetch_xor_nbi, a1)(c, a0, a1, a2, a3)
#define GASKET_ASSOC_put_signal(T, N) T: shmem_##N##_put_signal,
#define GASKET_ASSOC_ctx_put_signal(T, N) T: shmem_ctx_##N##_put_signal,
#define shmem_put_signal(...) GASKET_BY_NARGS(GASKET_PUT_SIGNAL_, __VA_ARGS__)
#define GASKET_PUT_SIGNAL_7(a0, a1, a2, a3, a4, a5, a6) GASKET_SELECT_IN(GASKET_STD_RMA_DISTINCT_TYPES, put_signal, a0)(a0, a1, a2, a3, a4, a5, a6)
#define GASKET_PUT_SIGNAL_8(c, a0, a1, a2, a3, a4, a5, a6) GASKET_SELECT_IN(GASKET_STD_RMA_DISTINCT_TYPES, ctx_put_signal, a0)(c, a0, a1, a2, a3, a4, a5, a6)
#define GASKET_ASSOC_put_signal_nbi(T, N) T: shmem_##N##_put_signal_nbi,
#define GASKET_ASSOC_ctx_put_signal_nbi(T, N) T: shmem_ctx_##N##_put_signal_nbi,
#define shmem_put_signal_nbi(...) GASKET_BY_NARGS(GASKET_PUT_SIGNAL_NBI_, __VA_ARGS__)
#define GASKET_PUT_SIGNAL_NBI_7(a0, a1, a2, a3, a4, a5, a6) GASKET_SELECT_IN(GASKET_STD_RMA_DISTINCT_TYPES, put_signal_nbi, a0)(a0, a1, a2, a3, a4, a5, a6)
#define GASKET_PUT_SIGNAL_NBI_8(c, a0, a1, a2, a3, a4, a5, a6) GASKET_SELECT_IN(GASKET_STD_RMA_DISTINCT_TYPES, ctx_put_signal_nbi, a0)(c, a0, a1, a2, a3, a4, a5, a6)
#define GASKET_ASSOC_fetch(T, N) T: shmem_##N##_fetch,
#define shmem_fetch(a0, a1) GASKET_SELECT_IN(GASKET_DEPRECATED_EXT_AMO_DISTINCT_TYPES, fetch, a0)(a0, a1)
#define GASKET_ASSOC_set(T, N) T: shmem_##N##_set,
#define shmem_set(a0, a1, a2) GASKET_SELECT_IN(GASKET_DEPRECATED_EXT_AMO_DISTINCT_TYPES, set, a0)(a0, a1, a2)
#define GASKET_ASSOC_swap(T, N) T: shmem_##N##_swap,
#define shmem_swap(a0, a1, a2) GASKET_SELECT_IN(GASKET_DEPRECATED_EXT_AMO_DISTINCT_TYPES, swap, a0)(a0, a1, a2)
#define GASKET_ASSOC_cswap(T, N) T: shmem_##N##_cswap,
#define shmem_cswap(a0, a1, a2, a3) GASKET_SELECT_IN(GASKET_DEPRECATED_STD_AMO_DISTINCT_TYPES, cswap, a0)(a0, a1, a2, a3)
#define GASKET_ASSOC_finc(T, N) T: shmem_##N##_finc,
#define shmem_finc(a0, a1) GASKET_SELECT_IN(GASKET_DEPRECATED_STD_AMO_DISTINCT_TYPES, finc, a0)(a0, a1)
#define GASKET_ASSOC_inc(T, N) T: shmem_##N##_inc,
#define shmem_inc(a0, a1) GASKET_SELECT_IN(GASKET_DEPRECATED_STD_AMO_DISTINCT_TYPES, inc, a0)(a0, a1)
#define GASKET_ASSOC_fadd(T, N) T: shmem_##N##_fadd,
#define shmem_fadd(a0, a1, a2) GASKET_SELECT_IN(GASKET_DEPRECATED_STD_AMO_DISTINCT_TYPES, fadd, a0)(a0, a1, a2)
#define GASKET_ASSOC_add(T, N) T: shmem_##N##_add,
#define shmem_add(a0, a1, a2) GASKET_SELECT_IN(GASKET_DEPRECATED_STD_AMO_DISTINCT_TYPES, add, a0)(a0, a1, a2)
#define GASKET_ASSOC_wait_until_all(T, N) T: shmem_##N##_wait_until_all,
#define shmem_wait_until_all(a0, a1, a2, a3, a4) GASKET_SELECT_IN(GASKET_P2P_SET_DISTINCT_TYPES, wait_until_all, a0)(a0, a1, a2, a3, a4)
#define GASKET_ASSOC_wait_until_any(T, N) T: shmem_##N##_wait_until_any,
#define shmem_wait_until_any(a0, a1, a2, a3, a4) GASKET_SELECT_IN(GASKET_P2P_SET_DISTINCT_TYPES, wait_until_any, a0)(a0, a1, a2, a3, a4)
#define GASKET_ASSOC_wait_until_some(T, N) T: shmem_##N##_wait_until_some,
#define shmem_wait_until_some(a0, a1, a2, a3, a4, a5) GASKET_SELECT_IN(GASKET_P2P_SET_DISTINCT_TYPES, wait_until_some, a0)(a0, a1, a2, a3, a4, a5)
#define GASKET_ASSOC_wait_until_all_vector(T, N) T: shmem_##N##_wait_until_all_vector,
#define shmem_wait_until_all_vector(a0, a1, a2, a3, a4) GASKET_SELECT_IN(GASKET_P2P_SET_DISTINCT_TYPES, wait_until_all_vector, a0)(a0, a1, a2, a3, a4)
#define GASKET_ASSOC_wait_until_any_vector(T, N) T: shmem_##N##_wait_until_any_vector,
#define shmem_wait_until_any_vector(a0, a1, a2, a3, a4) GASKET_SELECT_IN(GASKET_P2P_SET_DISTINCT_TYPES, wait_until_any_vector, a0)(a0, a1, a2, a3, a4)
#define GASKET_ASSOC_wait_until_some_vector(T, N) T: shmem_##N##_wait_until_some_vector,
#define shmem_wait_until_some_vector(a0, a1, a2, a3, a4, a5) GASKET_SELECT_IN(GASKET_P2P_SET_DISTINCT_TYPES, wait_until_some_vector, a0)(a0, a1, a2, a3, a4, a5)
#define GASKET_ASSOC_test_all(T, N) T: shmem_##N##_test_all,
#define shmem_test_all(a0, a1, a2, a3, a4) GASKET_SELECT_IN(GASKET_P2P_SET_DISTINCT_TYPES, test_all, a0)(a0, a1, a2, a3, a4)
#define GASKET_ASSOC_test_any(T, N) T: shmem_##N##_test_any,
#define shmem_test_any(a0, a1, a2, a3, a4) GASKET_SELECT_IN(GASKET_P2P_SET_DISTINCT_TYPES, test_any, a0)(a0, a1, a2, a3, a4)
#define GASKET_ASSOC_test_some(T, N) T: shmem_##N##_test_some,
#define shmem_test_some(a0, a1, a2, a3, a4, a5) GASKET_SELECT_IN(GASKET_P2P_SET_DISTINCT_TYPES, test_some, a0)(a0, a1, a2, a3, a4, a5)
#define GASKET_ASSOC_test_all_vector(T, N) T: shmem_##N##_test_all_vector,
#define shmem_test_all_vector(a0, a1, a2, a3, a4) GASKET_SELECT_IN(GASKET_P2P_SET_DISTINCT_TYPES, test_all_vector, a0)(a0, a1, a2, a3, a4)
#define GASKET_ASSOC_test_any_vector(T, N) T: shmem_##N##_test_any_vector,
#define shmem_test_any_vector(a0, a1, a2, a3, a4) GASKET_SELECT_IN(GASKET_P2P_SET_DISTINCT_TYPES, test_any_vector, a0)(a0, a1, a2, a3, a4)
#define GASKET_ASSOC_test_some_vector(T, N) T: shmem_##N##_test_some_vector,
#define shmem_test_some_vector(a0, a1, a2, a3, a4, a5) GASKET_SELECT_IN(GASKET_P2P_SET_DISTINCT_TYPES, test_some_vector, a0)(a0, a1, a2, a3, a4, a5)
#define shmem_signal_add(...) GASKET_BY_NARGS(GASKET_SIGNAL_ADD_, __VA_ARGS__)
#define GASKET_SIGNAL_ADD_3(s, v, pe) (shmem_signal_add)(s, v, pe)
#define GASKET_SIGNAL_ADD_4(c, s, v, pe) shmem_ctx_signal_add(c, s, v, pe)
#define shmem_signal_set(...) GASKET_BY_NARGS(GASKET_SIGNAL_SET_, __VA_ARGS__)
#define GASKET_SIGNAL_SET_3(s, v, pe) (shmem_signal_set)(s, v, pe)
#define GASKET_SIGNAL_SET_4(c, s, v, pe) shmem_ctx_signal_set(c, s, v, pe)

#endif /* GASKET_SHMEM_GENERIC_H */
