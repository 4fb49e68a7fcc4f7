// shmem/amo.cpp -- §9.7 atomic memory operations, and their deprecated
// names (Annex F): every routine of Tables 6, 7 and 8, generated from
// gasket/shmem_type_tables.h.  Each is one call of rt::amo (see
// src/runtime/amo.hpp): a CPU atomic on the target's memory, here or in an
// Active Message handler on the target.
#include <shmem.h>

#include <cstring>

#include "context.hpp"
#include "src/runtime/amo.hpp"

using namespace gasket;
using rt::AmoOp;
using rt::AmoResult;

namespace {

template <class T>
inline std::uint64_t bits(T v) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "AMO types are 4 or 8 bytes wide");
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
}

template <class T>
inline T from_bits(std::uint64_t b) {
    T v;
    std::memcpy(&v, &b, sizeof(T));
    return v;
}

// 0 and 1 of T (T may be a two-word name such as `long long`).
template <class T>
constexpr T zero() {
    return T();
}
template <class T>
constexpr T one() {
    return static_cast<T>(1);
}

// A fetching AMO: returns the old value.
template <class T>
inline T fetching(rt::Context& c, const char* routine, const T* dest, AmoOp op, T value, T cond, int pe) {
    return from_bits<T>(rt::amo(c, routine, const_cast<T*>(dest), sizeof(T), op, bits(value), bits(cond), pe,
                                AmoResult::wait, nullptr));
}

// A non-fetching AMO: complete at the target by the next quiet.
template <class T>
inline void posted(rt::Context& c, const char* routine, T* dest, AmoOp op, T value, int pe) {
    rt::amo(c, routine, dest, sizeof(T), op, bits(value), 0, pe, AmoResult::none, nullptr);
}

// A fetching _nbi AMO: *fetch holds the old value by the next quiet.
template <class T>
inline void deferred(rt::Context& c, const char* routine, T* fetch, const T* dest, AmoOp op, T value, T cond, int pe) {
    rt::amo(c, routine, const_cast<T*>(dest), sizeof(T), op, bits(value), bits(cond), pe, AmoResult::deferred, fetch);
}

}  // namespace

extern "C" {

// Each operation in its plain and ctx forms: RET shmem_[ctx_]NAME_OP(PARAMS).
#define GASKET_AMO_PAIR(RET, NAME, OP, PARAMS, CALL)                               \
    RET shmem_##NAME##_##OP PARAMS noexcept {                                      \
        const char* routine = "shmem_" #NAME "_" #OP;                              \
        rt::Context& c = shmem::default_context(routine);                          \
        return CALL;                                                               \
    }                                                                              \
    RET shmem_ctx_##NAME##_##OP(shmem_ctx_t ctx, GASKET_UNPAREN PARAMS) noexcept { \
        const char* routine = "shmem_ctx_" #NAME "_" #OP;                          \
        rt::Context& c = shmem::context_of(routine, ctx);                          \
        return CALL;                                                               \
    }
#define GASKET_UNPAREN(...) __VA_ARGS__

// Table 7: fetch, set, swap and their _nbi forms.
#define GASKET_AMO_EXT(T, N)                                                                        \
    GASKET_AMO_PAIR(T, N, atomic_fetch, (const T* source, int pe),                                  \
                    fetching<T>(c, routine, source, AmoOp::fetch, zero<T>(), zero<T>(), pe))        \
    GASKET_AMO_PAIR(void, N, atomic_set, (T * dest, T value, int pe),                               \
                    posted<T>(c, routine, dest, AmoOp::set, value, pe))                             \
    GASKET_AMO_PAIR(T, N, atomic_swap, (T * dest, T value, int pe),                                 \
                    fetching<T>(c, routine, dest, AmoOp::swap, value, zero<T>(), pe))               \
    GASKET_AMO_PAIR(void, N, atomic_fetch_nbi, (T * fetch, const T* source, int pe),                \
                    deferred<T>(c, routine, fetch, source, AmoOp::fetch, zero<T>(), zero<T>(), pe)) \
    GASKET_AMO_PAIR(void, N, atomic_swap_nbi, (T * fetch, T * dest, T value, int pe),               \
                    deferred<T>(c, routine, fetch, dest, AmoOp::swap, value, zero<T>(), pe))
GASKET_EXT_AMO_TYPES(GASKET_AMO_EXT)
#undef GASKET_AMO_EXT

// Table 6: compare_swap, fetch_inc, inc, fetch_add, add and the _nbi forms.
#define GASKET_AMO_STD(T, N)                                                                          \
    GASKET_AMO_PAIR(T, N, atomic_compare_swap, (T * dest, T cond, T value, int pe),                   \
                    fetching<T>(c, routine, dest, AmoOp::compare_swap, value, cond, pe))              \
    GASKET_AMO_PAIR(T, N, atomic_fetch_inc, (T * dest, int pe),                                       \
                    fetching<T>(c, routine, dest, AmoOp::fetch_add, one<T>(), zero<T>(), pe))         \
    GASKET_AMO_PAIR(void, N, atomic_inc, (T * dest, int pe),                                          \
                    posted<T>(c, routine, dest, AmoOp::fetch_add, one<T>(), pe))                      \
    GASKET_AMO_PAIR(T, N, atomic_fetch_add, (T * dest, T value, int pe),                              \
                    fetching<T>(c, routine, dest, AmoOp::fetch_add, value, zero<T>(), pe))            \
    GASKET_AMO_PAIR(void, N, atomic_add, (T * dest, T value, int pe),                                 \
                    posted<T>(c, routine, dest, AmoOp::fetch_add, value, pe))                         \
    GASKET_AMO_PAIR(void, N, atomic_compare_swap_nbi, (T * fetch, T * dest, T cond, T value, int pe), \
                    deferred<T>(c, routine, fetch, dest, AmoOp::compare_swap, value, cond, pe))       \
    GASKET_AMO_PAIR(void, N, atomic_fetch_inc_nbi, (T * fetch, T * dest, int pe),                     \
                    deferred<T>(c, routine, fetch, dest, AmoOp::fetch_add, one<T>(), zero<T>(), pe))  \
    GASKET_AMO_PAIR(void, N, atomic_fetch_add_nbi, (T * fetch, T * dest, T value, int pe),            \
                    deferred<T>(c, routine, fetch, dest, AmoOp::fetch_add, value, zero<T>(), pe))
GASKET_STD_AMO_TYPES(GASKET_AMO_STD)
#undef GASKET_AMO_STD

// Table 8: and, or, xor, fetching and not, and the fetching _nbi forms.
#define GASKET_AMO_BITWISE_OP(T, N, OP, ATOMIC)                                               \
    GASKET_AMO_PAIR(T, N, atomic_fetch_##OP, (T * dest, T value, int pe),                     \
                    fetching<T>(c, routine, dest, AmoOp::ATOMIC, value, zero<T>(), pe))       \
    GASKET_AMO_PAIR(void, N, atomic_##OP, (T * dest, T value, int pe),                        \
                    posted<T>(c, routine, dest, AmoOp::ATOMIC, value, pe))                    \
    GASKET_AMO_PAIR(void, N, atomic_fetch_##OP##_nbi, (T * fetch, T * dest, T value, int pe), \
                    deferred<T>(c, routine, fetch, dest, AmoOp::ATOMIC, value, zero<T>(), pe))
#define GASKET_AMO_BIT(T, N) GASKET_AMO_BITWISE_OPS(GASKET_AMO_BITWISE_OP, T, N)
GASKET_BITWISE_AMO_TYPES(GASKET_AMO_BIT)
#undef GASKET_AMO_BIT
#undef GASKET_AMO_BITWISE_OP

// Deprecated names (Annex F.2.6): no ctx forms.
#define GASKET_AMO_OLD_EXT(T, N)                                                                                       \
    T shmem_##N##_fetch(const T* source, int pe) noexcept {                                                            \
        return fetching<T>(shmem::default_context("shmem_" #N "_fetch"), "shmem_" #N "_fetch", source, AmoOp::fetch,   \
                           zero<T>(), zero<T>(), pe);                                                                  \
    }                                                                                                                  \
    void shmem_##N##_set(T* dest, T value, int pe) noexcept {                                                          \
        posted<T>(shmem::default_context("shmem_" #N "_set"), "shmem_" #N "_set", dest, AmoOp::set, value, pe);        \
    }                                                                                                                  \
    T shmem_##N##_swap(T* dest, T value, int pe) noexcept {                                                            \
        return fetching<T>(shmem::default_context("shmem_" #N "_swap"), "shmem_" #N "_swap", dest, AmoOp::swap, value, \
                           zero<T>(), pe);                                                                             \
    }
GASKET_DEPRECATED_EXT_AMO_TYPES(GASKET_AMO_OLD_EXT)
#undef GASKET_AMO_OLD_EXT
#define GASKET_AMO_OLD_STD(T, N)                                                                                      \
    T shmem_##N##_cswap(T* dest, T cond, T value, int pe) noexcept {                                                  \
        return fetching<T>(shmem::default_context("shmem_" #N "_cswap"), "shmem_" #N "_cswap", dest,                  \
                           AmoOp::compare_swap, value, cond, pe);                                                     \
    }                                                                                                                 \
    T shmem_##N##_finc(T* dest, int pe) noexcept {                                                                    \
        return fetching<T>(shmem::default_context("shmem_" #N "_finc"), "shmem_" #N "_finc", dest, AmoOp::fetch_add,  \
                           one<T>(), zero<T>(), pe);                                                                  \
    }                                                                                                                 \
    void shmem_##N##_inc(T* dest, int pe) noexcept {                                                                  \
        posted<T>(shmem::default_context("shmem_" #N "_inc"), "shmem_" #N "_inc", dest, AmoOp::fetch_add, one<T>(),   \
                  pe);                                                                                                \
    }                                                                                                                 \
    T shmem_##N##_fadd(T* dest, T value, int pe) noexcept {                                                           \
        return fetching<T>(shmem::default_context("shmem_" #N "_fadd"), "shmem_" #N "_fadd", dest, AmoOp::fetch_add,  \
                           value, zero<T>(), pe);                                                                     \
    }                                                                                                                 \
    void shmem_##N##_add(T* dest, T value, int pe) noexcept {                                                         \
        posted<T>(shmem::default_context("shmem_" #N "_add"), "shmem_" #N "_add", dest, AmoOp::fetch_add, value, pe); \
    }
GASKET_DEPRECATED_STD_AMO_TYPES(GASKET_AMO_OLD_STD)
#undef GASKET_AMO_OLD_STD

}  // extern "C"
