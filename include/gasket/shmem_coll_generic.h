/*
 * gasket/shmem_coll_generic.h -- the C11 generic names of the §9.10
 * collectives (included by shmem.h after gasket/shmem_generic.h when
 * compiling C11 or later, not C++; do not include directly):
 *   shmem_alltoall(team, dest, source, nelems)
 *   shmem_alltoalls(team, dest, source, dst, sst, nelems)
 *   shmem_broadcast(team, dest, source, nelems, PE_root)
 *   shmem_collect(team, dest, source, nelems), shmem_fcollect(...)
 *   shmem_{and,or,xor,max,min,sum,prod}_reduce(team, dest, source, nreduce)
 *   shmem_sum_inscan(team, dest, source, nelems), shmem_sum_exscan(...)
 *   shmem_sync(team) -> shmem_team_sync(team); with four arguments
 *     shmem_sync(PE_start, logPE_stride, PE_size, pSync) is the deprecated
 *     active-set routine.
 * Each selects the typed routine of gasket/shmem_coll.h by the type of
 * *dest from the routine's table (Table 5 for data movement, the Table 10
 * column for reductions and scans); a type outside it is a compile error
 * ("no association matches").
 */
#ifndef GASKET_SHMEM_COLL_GENERIC_H
#define GASKET_SHMEM_COLL_GENERIC_H
/* The _Generic association lists (TYPE: routine,) are laid out by hand, one
 * a line: clang-format cannot parse them inside macros. */
/* clang-format off */

#define GASKET_ASSOC_alltoall(T, N) T: shmem_##N##_alltoall,
#define GASKET_ASSOC_alltoalls(T, N) T: shmem_##N##_alltoalls,
#define GASKET_ASSOC_broadcast(T, N) T: shmem_##N##_broadcast,
#define GASKET_ASSOC_collect(T, N) T: shmem_##N##_collect,
#define GASKET_ASSOC_fcollect(T, N) T: shmem_##N##_fcollect,
#define GASKET_ASSOC_and_reduce(T, N) T: shmem_##N##_and_reduce,
#define GASKET_ASSOC_or_reduce(T, N) T: shmem_##N##_or_reduce,
#define GASKET_ASSOC_xor_reduce(T, N) T: shmem_##N##_xor_reduce,
#define GASKET_ASSOC_max_reduce(T, N) T: shmem_##N##_max_reduce,
#define GASKET_ASSOC_min_reduce(T, N) T: shmem_##N##_min_reduce,
#define GASKET_ASSOC_sum_reduce(T, N) T: shmem_##N##_sum_reduce,
#define GASKET_ASSOC_prod_reduce(T, N) T: shmem_##N##_prod_reduce,
#define GASKET_ASSOC_sum_inscan(T, N) T: shmem_##N##_sum_inscan,
#define GASKET_ASSOC_sum_exscan(T, N) T: shmem_##N##_sum_exscan,

/* §9.10.5-8 */
#define shmem_alltoall(t, d, s, n) GASKET_SELECT_IN(GASKET_STD_RMA_DISTINCT_TYPES, alltoall, d)(t, d, s, n)
#define shmem_alltoalls(t, d, s, dst, sst, n) \
    GASKET_SELECT_IN(GASKET_STD_RMA_DISTINCT_TYPES, alltoalls, d)(t, d, s, dst, sst, n)
#define shmem_broadcast(t, d, s, n, root) GASKET_SELECT_IN(GASKET_STD_RMA_DISTINCT_TYPES, broadcast, d)(t, d, s, n, root)
#define shmem_collect(t, d, s, n) GASKET_SELECT_IN(GASKET_STD_RMA_DISTINCT_TYPES, collect, d)(t, d, s, n)
#define shmem_fcollect(t, d, s, n) GASKET_SELECT_IN(GASKET_STD_RMA_DISTINCT_TYPES, fcollect, d)(t, d, s, n)
/* §9.10.9 */
#define shmem_and_reduce(t, d, s, n) GASKET_SELECT_IN(GASKET_TEAM_REDUCE_BITWISE_DISTINCT_TYPES, and_reduce, d)(t, d, s, n)
#define shmem_or_reduce(t, d, s, n) GASKET_SELECT_IN(GASKET_TEAM_REDUCE_BITWISE_DISTINCT_TYPES, or_reduce, d)(t, d, s, n)
#define shmem_xor_reduce(t, d, s, n) GASKET_SELECT_IN(GASKET_TEAM_REDUCE_BITWISE_DISTINCT_TYPES, xor_reduce, d)(t, d, s, n)
#define shmem_max_reduce(t, d, s, n) GASKET_SELECT_IN(GASKET_TEAM_REDUCE_MINMAX_DISTINCT_TYPES, max_reduce, d)(t, d, s, n)
#define shmem_min_reduce(t, d, s, n) GASKET_SELECT_IN(GASKET_TEAM_REDUCE_MINMAX_DISTINCT_TYPES, min_reduce, d)(t, d, s, n)
#define shmem_sum_reduce(t, d, s, n) GASKET_SELECT_IN(GASKET_TEAM_REDUCE_ARITH_DISTINCT_TYPES, sum_reduce, d)(t, d, s, n)
#define shmem_prod_reduce(t, d, s, n) GASKET_SELECT_IN(GASKET_TEAM_REDUCE_ARITH_DISTINCT_TYPES, prod_reduce, d)(t, d, s, n)
/* §9.10.10 */
#define shmem_sum_inscan(t, d, s, n) GASKET_SELECT_IN(GASKET_TEAM_REDUCE_ARITH_DISTINCT_TYPES, sum_inscan, d)(t, d, s, n)
#define shmem_sum_exscan(t, d, s, n) GASKET_SELECT_IN(GASKET_TEAM_REDUCE_ARITH_DISTINCT_TYPES, sum_exscan, d)(t, d, s, n)
/* §9.10.3: the team form by one argument, the deprecated active-set
 * routine by four. */
#define shmem_sync(...) GASKET_BY_NARGS(GASKET_SYNC_, __VA_ARGS__)
#define GASKET_SYNC_1(team) shmem_team_sync(team)
#define GASKET_SYNC_4(start, log_stride, size, psync) (shmem_sync)(start, log_stride, size, psync)

#endif /* GASKET_SHMEM_COLL_GENERIC_H */
