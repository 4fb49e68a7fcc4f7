/*
 * gasket/shmem_coll_cxx.h -- C++ overloads with the C11 generic names of
 * the §9.10 collectives (included by shmem.h when compiled as C++, outside
 * its extern "C" block; do not include directly): shmem_alltoall(team,
 * dest, source, nelems), shmem_broadcast(team, dest, source, nelems,
 * PE_root), shmem_sum_reduce(team, dest, source, nreduce), ... as listed in
 * gasket/shmem_coll_generic.h, each an inline call of the typed routine of
 * gasket/shmem_coll.h chosen by the type of dest (a type outside the
 * routine's table finds no overload).  shmem_sync(team) calls
 * shmem_team_sync; shmem_sync(PE_start, logPE_stride, PE_size, pSync) is
 * the deprecated C routine itself.
 */
#ifndef GASKET_SHMEM_COLL_CXX_H
#define GASKET_SHMEM_COLL_CXX_H

inline int shmem_sync(shmem_team_t team) { return shmem_team_sync(team); }

/* GASKET_CXX_FORWARD comes from gasket/shmem_cxx.h, included just before. */
#define GASKET_CXX_COLL_COUNT(TYPE, NAME, OP)                                                                \
    GASKET_CXX_FORWARD(int, OP, NAME##_##OP, (shmem_team_t team, TYPE * dest, const TYPE* source, size_t n), \
                       (team, dest, source, n))
#define GASKET_CXX_COLL_RMA(TYPE, NAME)                                                                    \
    GASKET_CXX_COLL_COUNT(TYPE, NAME, alltoall)                                                            \
    GASKET_CXX_FORWARD(                                                                                    \
        int, alltoalls, NAME##_alltoalls,                                                                  \
        (shmem_team_t team, TYPE * dest, const TYPE* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems), \
        (team, dest, source, dst, sst, nelems))                                                            \
    GASKET_CXX_FORWARD(int, broadcast, NAME##_broadcast,                                                   \
                       (shmem_team_t team, TYPE * dest, const TYPE* source, size_t nelems, int PE_root),   \
                       (team, dest, source, nelems, PE_root))                                              \
    GASKET_CXX_COLL_COUNT(TYPE, NAME, collect)                                                             \
    GASKET_CXX_COLL_COUNT(TYPE, NAME, fcollect)
GASKET_STD_RMA_DISTINCT_TYPES(GASKET_CXX_COLL_RMA)
#undef GASKET_CXX_COLL_RMA

#define GASKET_CXX_REDUCE_OP(TYPE, NAME, OP, ENUM) GASKET_CXX_COLL_COUNT(TYPE, NAME, OP##_reduce)
#define GASKET_CXX_REDUCE_BITWISE(TYPE, NAME) GASKET_REDUCE_BITWISE_OPS(GASKET_CXX_REDUCE_OP, TYPE, NAME)
#define GASKET_CXX_REDUCE_MINMAX(TYPE, NAME) GASKET_REDUCE_MINMAX_OPS(GASKET_CXX_REDUCE_OP, TYPE, NAME)
#define GASKET_CXX_REDUCE_ARITH(TYPE, NAME)                   \
    GASKET_REDUCE_ARITH_OPS(GASKET_CXX_REDUCE_OP, TYPE, NAME) \
    GASKET_CXX_COLL_COUNT(TYPE, NAME, sum_inscan)             \
    GASKET_CXX_COLL_COUNT(TYPE, NAME, sum_exscan)
GASKET_TEAM_REDUCE_BITWISE_DISTINCT_TYPES(GASKET_CXX_REDUCE_BITWISE)
GASKET_TEAM_REDUCE_MINMAX_DISTINCT_TYPES(GASKET_CXX_REDUCE_MINMAX)
GASKET_TEAM_REDUCE_ARITH_DISTINCT_TYPES(GASKET_CXX_REDUCE_ARITH)
#undef GASKET_CXX_REDUCE_BITWISE
#undef GASKET_CXX_REDUCE_MINMAX
#undef GASKET_CXX_REDUCE_ARITH
#undef GASKET_CXX_REDUCE_OP
#undef GASKET_CXX_COLL_COUNT

#endif /* GASKET_SHMEM_COLL_CXX_H */
