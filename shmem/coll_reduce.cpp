// shmem/coll_reduce.cpp -- §9.10.9 reductions and §9.10.10 scans for every
// type of Table 10, and the deprecated active-set _to_all reductions of
// Table 11, generated from the type tables (gasket/shmem_type_tables.h).
// Each entry point names itself; the runtime maps the C type to an MPI
// datatype (rt::elem_of) and the operator to an MPI op.
#include "coll.hpp"
#include "events.hpp"

#include <algorithm>

using namespace gasket;
using rt::ReduceOp;

namespace {

// GASP (include/gasp_shmem.h): GASP_SHMEM_REDUCE S/E around a reduction
// (team or active set: team NULL), GASP_SHMEM_SCAN S/E around a scan, with
// `type` the gasp_shmem_reduction_t of the routine's TYPENAME.
constexpr int event_op(ReduceOp op) {
    switch (op) {
        case ReduceOp::band: return GASP_SHMEM_REDUCE_AND;
        case ReduceOp::bor: return GASP_SHMEM_REDUCE_OR;
        case ReduceOp::bxor: return GASP_SHMEM_REDUCE_XOR;
        case ReduceOp::min: return GASP_SHMEM_REDUCE_MIN;
        case ReduceOp::max: return GASP_SHMEM_REDUCE_MAX;
        case ReduceOp::sum: return GASP_SHMEM_REDUCE_SUM;
        case ReduceOp::prod: return GASP_SHMEM_REDUCE_PROD;
    }
    return 0;
}

template <class T>
int reduce_team(const char* routine, int type, shmem_team_t team, T* dest, const T* source, std::size_t nreduce,
                ReduceOp op) {
    return shmem::with_event(
        GASP_SHMEM_REDUCE,
        [&] {
            return shmem::on_team(routine, team, [&](rt::Team& t) {
                rt::reduce(routine, t, dest, source, nreduce, rt::elem_of<T>(), op);
                return 0;
            });
        },
        shmem::event_handle(team), static_cast<void*>(dest), static_cast<const void*>(source), nreduce, event_op(op),
        type);
}

template <class T>
int scan_team(const char* routine, int type, shmem_team_t team, T* dest, const T* source, std::size_t nelems,
              bool inclusive) {
    return shmem::with_event(
        GASP_SHMEM_SCAN,
        [&] {
            return shmem::on_team(routine, team, [&](rt::Team& t) {
                rt::scan(routine, t, dest, source, nelems, rt::elem_of<T>(), inclusive);
                return 0;
            });
        },
        shmem::event_handle(team), static_cast<void*>(dest), static_cast<const void*>(source), nelems,
        int(GASP_SHMEM_REDUCE_SUM), type, inclusive ? 0 : 1);
}

template <class T>
void reduce_to_all(const char* routine, int type, T* dest, const T* source, int nreduce, int start, int log_stride,
                   int size, T* pWrk, long* pSync, ReduceOp op) {
    if (nreduce < 0) [[unlikely]]
        rt::fatal(routine, "nreduce %d is negative", nreduce);
    const std::size_t wrk = std::max<std::size_t>(std::size_t(nreduce) / 2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE);
    rt::check_symmetric(routine, "pWrk", pWrk, wrk * sizeof(T));
    shmem::check_psync(routine, pSync, SHMEM_REDUCE_SYNC_SIZE);
    shmem::with_event(
        GASP_SHMEM_REDUCE,
        [&] {
            rt::reduce(routine, rt::active_set(routine, start, log_stride, size), dest, source, std::size_t(nreduce),
                       rt::elem_of<T>(), op);
        },
        shmem::event_handle(SHMEM_TEAM_INVALID), static_cast<void*>(dest), static_cast<const void*>(source),
        std::size_t(nreduce), event_op(op), type);
}

}  // namespace

#define GASKET_REDUCE_OP(TYPE, NAME, OP, ENUM)                                                                       \
    int shmem_##NAME##_##OP##_reduce(shmem_team_t team, TYPE* dest, const TYPE* source, size_t nreduce) noexcept {   \
        return reduce_team<TYPE>("shmem_" #NAME "_" #OP "_reduce", shmem::reduction_type(#NAME), team, dest, source, \
                                 nreduce, ReduceOp::ENUM);                                                           \
    }
#define GASKET_REDUCE_BITWISE(TYPE, NAME) GASKET_REDUCE_BITWISE_OPS(GASKET_REDUCE_OP, TYPE, NAME)
#define GASKET_REDUCE_MINMAX(TYPE, NAME) GASKET_REDUCE_MINMAX_OPS(GASKET_REDUCE_OP, TYPE, NAME)
#define GASKET_REDUCE_ARITH(TYPE, NAME)                                                                                \
    GASKET_REDUCE_ARITH_OPS(GASKET_REDUCE_OP, TYPE, NAME)                                                              \
    int shmem_##NAME##_sum_inscan(shmem_team_t team, TYPE* dest, const TYPE* source, size_t nelems) noexcept {         \
        return scan_team<TYPE>("shmem_" #NAME "_sum_inscan", shmem::reduction_type(#NAME), team, dest, source, nelems, \
                               true);                                                                                  \
    }                                                                                                                  \
    int shmem_##NAME##_sum_exscan(shmem_team_t team, TYPE* dest, const TYPE* source, size_t nelems) noexcept {         \
        return scan_team<TYPE>("shmem_" #NAME "_sum_exscan", shmem::reduction_type(#NAME), team, dest, source, nelems, \
                               false);                                                                                 \
    }

#define GASKET_TO_ALL_OP(TYPE, NAME, OP, ENUM)                                                                     \
    void shmem_##NAME##_##OP##_to_all(TYPE* dest, const TYPE* source, int nreduce, int PE_start, int logPE_stride, \
                                      int PE_size, TYPE* pWrk, long* pSync) noexcept {                             \
        reduce_to_all<TYPE>("shmem_" #NAME "_" #OP "_to_all", shmem::reduction_type(#NAME), dest, source, nreduce, \
                            PE_start, logPE_stride, PE_size, pWrk, pSync, ReduceOp::ENUM);                         \
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
