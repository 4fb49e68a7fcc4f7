// shmem/coll_reduce.cpp -- §9.10.9 reductions and §9.10.10 scans for every
// type of Table 10, and the deprecated active-set _to_all reductions of
// Table 11, generated from the type tables (gasket/shmem_type_tables.h).
// Each entry point names itself; the runtime maps the C type to an MPI
// datatype (rt::elem_of) and the operator to an MPI op.
#include "coll.hpp"

#include <algorithm>

using namespace gasket;
using rt::ReduceOp;

namespace {

template <class T>
int reduce_team(const char* routine, shmem_team_t team, T* dest, const T* source, std::size_t nreduce, ReduceOp op) {
    return shmem::on_team(routine, team, [&](rt::Team& t) {
        rt::reduce(routine, t, dest, source, nreduce, rt::elem_of<T>(), op);
        return 0;
    });
}

template <class T>
int scan_team(const char* routine, shmem_team_t team, T* dest, const T* source, std::size_t nelems, bool inclusive) {
    return shmem::on_team(routine, team, [&](rt::Team& t) {
        rt::scan(routine, t, dest, source, nelems, rt::elem_of<T>(), inclusive);
        return 0;
    });
}

template <class T>
void reduce_to_all(const char* routine, T* dest, const T* source, int nreduce, int start, int log_stride, int size,
                   T* pWrk, long* pSync, ReduceOp op) {
    if (nreduce < 0) [[unlikely]]
        rt::fatal(routine, "nreduce %d is negative", nreduce);
    const std::size_t wrk = std::max<std::size_t>(std::size_t(nreduce) / 2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE);
    rt::check_symmetric(routine, "pWrk", pWrk, wrk * sizeof(T));
    shmem::check_psync(routine, pSync, SHMEM_REDUCE_SYNC_SIZE);
    rt::reduce(routine, rt::active_set(routine, start, log_stride, size), dest, source, std::size_t(nreduce),
               rt::elem_of<T>(), op);
}

}  // namespace

#define GASKET_REDUCE_OP(TYPE, NAME, OP, ENUM)                                                                     \
    int shmem_##NAME##_##OP##_reduce(shmem_team_t team, TYPE* dest, const TYPE* source, size_t nreduce) noexcept { \
        return reduce_team<TYPE>("shmem_" #NAME "_" #OP "_reduce", team, dest, source, nreduce, ReduceOp::ENUM);   \
    }
#define GASKET_REDUCE_BITWISE(TYPE, NAME) GASKET_REDUCE_BITWISE_OPS(GASKET_REDUCE_OP, TYPE, NAME)
#define GASKET_REDUCE_MINMAX(TYPE, NAME) GASKET_REDUCE_MINMAX_OPS(GASKET_REDUCE_OP, TYPE, NAME)
#define GASKET_REDUCE_ARITH(TYPE, NAME)                                                                        \
    GASKET_REDUCE_ARITH_OPS(GASKET_REDUCE_OP, TYPE, NAME)                                                      \
    int shmem_##NAME##_sum_inscan(shmem_team_t team, TYPE* dest, const TYPE* source, size_t nelems) noexcept { \
        return scan_team<TYPE>("shmem_" #NAME "_sum_inscan", team, dest, source, nelems, true);                \
    }                                                                                                          \
    int shmem_##NAME##_sum_exscan(shmem_team_t team, TYPE* dest, const TYPE* source, size_t nelems) noexcept { \
        return scan_team<TYPE>("shmem_" #NAME "_sum_exscan", team, dest, source, nelems, false);               \
    }

#define GASKET_TO_ALL_OP(TYPE, NAME, OP, ENUM)                                                                        \
    void shmem_##NAME##_##OP##_to_all(TYPE* dest, const TYPE* source, int nreduce, int PE_start, int logPE_stride,    \
                                      int PE_size, TYPE* pWrk, long* pSync) noexcept {                                \
        reduce_to_all<TYPE>("shmem_" #NAME "_" #OP "_to_all", dest, source, nreduce, PE_start, logPE_stride, PE_size, \
                            pWrk, pSync, ReduceOp::ENUM);                                                             \
    }
#define GASKET_TO_ALL_BITWISE(TYPE, NAME) GASKET_REDUCE_BITWISE_OPS(GASKET_TO_ALL_OP, TYPE, NAME)
#define GASKET_TO_ALL_MINMAX(TYPE, NAME) GASKET_REDUCE_MINMAX_OPS(GASKET_TO_ALL_OP, TYPE, NAME)
#define GASKET_TO_ALL_ARITH(TYPE, NAME) GASKET_REDUCE_ARITH_OPS(GASKET_TO_ALL_OP, TYPE, NAME)

extern "C" {

GASKET_TEAM_REDUCE_BITWISE_TYPES(GASKET_REDUCE_BITWISE)
GASKET_TEAM_REDUCE_MINMAX_TYPES(GASKET_REDUCE_MINMAX)
GASKET_TEAM_REDUCE_ARITH_TYPES(GASKET_REDUCE_ARITH)

GASKET_TO_ALL_BITWISE_TYPES(GASKET_TO_ALL_BITWISE)
GASKET_TO_ALL_MINMAX_TYPES(GASKET_TO_ALL_MINMAX)
GASKET_TO_ALL_ARITH_TYPES(GASKET_TO_ALL_ARITH)

}  // extern "C"
