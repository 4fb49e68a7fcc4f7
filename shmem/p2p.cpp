// shmem/p2p.cpp -- §9.11 point-to-point synchronization on a local
// symmetric variable: wait_until and test for every point-to-point type,
// and the deprecated wait.  Generated from gasket/shmem_type_tables.h.
#include <shmem.h>

#include <atomic>

#include "src/runtime/sync.hpp"

using namespace gasket;

namespace {

[[noreturn, gnu::cold]] void bad_cmp(const char* routine, int cmp) {
    rt::fatal(routine, "comparison %d is not one of SHMEM_CMP_EQ/NE/GT/GE/LT/LE", cmp);
}

template <class T>
inline bool satisfied(const char* routine, T value, int cmp, T target) {
    switch (cmp) {
        case SHMEM_CMP_EQ: return value == target;
        case SHMEM_CMP_NE: return value != target;
        case SHMEM_CMP_GT: return value > target;
        case SHMEM_CMP_GE: return value >= target;
        case SHMEM_CMP_LT: return value < target;
        case SHMEM_CMP_LE: return value <= target;
        default: bad_cmp(routine, cmp);
    }
}

// Other PEs update *ivar; read it as an atomic with acquire ordering so the
// data they put before it is visible once the condition holds.
template <class T>
inline T load(T* ivar) {
    return std::atomic_ref<T>(*ivar).load(std::memory_order_acquire);
}

template <class T>
rt::Job& checked(const char* routine, T* ivar) {
    rt::Job& j = rt::job(routine);
    if (!j.segment_of(ivar)) j.not_symmetric(routine, ivar, j.my_pe);
    return j;
}

template <class T>
void wait_until(const char* routine, T* ivar, int cmp, T target) {
    rt::Job& j = checked(routine, ivar);
    rt::Poller poller(j);
    while (!satisfied(routine, load(ivar), cmp, target)) poller.pause();
}

template <class T>
int test(const char* routine, T* ivar, int cmp, T target) {
    rt::Job& j = checked(routine, ivar);
    if (satisfied(routine, load(ivar), cmp, target)) return 1;
    // Programs call test in a loop: every so often, let MPI deliver.
    thread_local unsigned misses = 0;
    if (++misses % 64 == 0) rt::Poller::progress(j);
    return 0;
}

}  // namespace

extern "C" {

#define GASKET_P2P(TYPE, NAME)                                                 \
    void shmem_##NAME##_wait_until(TYPE* ivar, int cmp, TYPE cmp_value) {      \
        wait_until<TYPE>("shmem_" #NAME "_wait_until", ivar, cmp, cmp_value);  \
    }                                                                          \
    int shmem_##NAME##_test(TYPE* ivar, int cmp, TYPE cmp_value) {             \
        return test<TYPE>("shmem_" #NAME "_test", ivar, cmp, cmp_value);       \
    }
GASKET_P2P_SYNC_TYPES(GASKET_P2P)
#undef GASKET_P2P

#define GASKET_WAIT(TYPE, NAME)                                                   \
    void shmem_##NAME##_wait(TYPE* ivar, TYPE cmp_value) {                        \
        wait_until<TYPE>("shmem_" #NAME "_wait", ivar, SHMEM_CMP_NE, cmp_value);  \
    }
GASKET_DEPRECATED_WAIT_TYPES(GASKET_WAIT)
#undef GASKET_WAIT

void shmem_wait(long* ivar, long cmp_value) { wait_until<long>("shmem_wait", ivar, SHMEM_CMP_NE, cmp_value); }

}  // extern "C"
