// shmem/amo.cpp -- §9.7 atomic memory operations, and their deprecated
// names (Annex F): every routine of Tables 6, 7 and 8, generated from
// gasket/shmem_type_tables.h.  Each is one call of rt::amo (see
// src/runtime/amo.hpp): a CPU atomic on the target's memory, here or in an
// Active Message handler on the target.
#include <shmem.h>

#include <cstring>

#include "context.hpp"
#include "events.hpp"
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

// GASP (include/gasp_shmem.h): GASP_SHMEM_AMO, S/E around a fetching AMO
// (blocking or _nbi), one ATOMIC for a non-fetching one.
constexpr int event_op(AmoOp op) {
    switch (op) {
        case AmoOp::fetch: return GASP_SHMEM_AMO_FETCH;
        case AmoOp::set: return GASP_SHMEM_AMO_SET;
        case AmoOp::swap: return GASP_SHMEM_AMO_SWAP;
        case AmoOp::compare_swap: return GASP_SHMEM_AMO_COMPARE_SWAP;
        case AmoOp::fetch_add: return GASP_SHMEM_AMO_ADD;
        case AmoOp::fetch_and: return GASP_SHMEM_AMO_AND;
        case AmoOp::fetch_or: return GASP_SHMEM_AMO_OR;
        case AmoOp::fetch_xor: return GASP_SHMEM_AMO_XOR;
    }
    return 0;
}
template <class T>
[[gnu::cold]] void amo_event(gasp_evttype_t type, shmem_ctx_t h, AmoOp op, const T* dest, int pe, int fetching,
                             int nbi) {
    gasp::notify(GASP_SHMEM_AMO, type, shmem::event_handle(h), event_op(op), shmem::typecode<T>(),
                 static_cast<void*>(const_cast<T*>(dest)), pe, fetching, nbi);
}

// Each form comes in two parts: the inline one, given `c`, the answer of
// shmem::untraced_context for the handle `h` (null: before shmem_init, a
// bad handle, or a tool attached), and the out-of-line one that takes the
// null case: it resolves `h` (context_of: fatal, naming the routine) and
// runs the operation, with its events when a tool is attached.

// A fetching AMO: returns the old value.
template <class T, bool Plain>
[[gnu::noinline, gnu::cold]] T fetching_traced(shmem_ctx_t h, const char* routine, const T* dest, AmoOp op, T value,
                                               T cond, int pe) {
    rt::Context& c = shmem::context_of_form<Plain>(routine, h);
    const bool ev = gasp::on();
    if (ev) amo_event<T>(GASP_START, h, op, dest, pe, 1, 0);
    const T old = from_bits<T>(rt::amo(c, routine, const_cast<T*>(dest), sizeof(T), op, bits(value), bits(cond), pe,
                                       AmoResult::wait, nullptr));
    if (ev) amo_event<T>(GASP_END, h, op, dest, pe, 1, 0);
    return old;
}
template <class T, bool Plain = false>
[[gnu::always_inline]] inline T fetching(rt::Context* c, shmem_ctx_t h, const char* routine, const T* dest, AmoOp op,
                                         T value, T cond, int pe) {
    if (!c) [[unlikely]]
        return fetching_traced<T, Plain>(h, routine, dest, op, value, cond, pe);
    return from_bits<T>(rt::amo(*c, routine, const_cast<T*>(dest), sizeof(T), op, bits(value), bits(cond), pe,
                                AmoResult::wait, nullptr));
}

// A non-fetching AMO: complete at the target by the next quiet.
template <class T, bool Plain>
[[gnu::noinline, gnu::cold]] void posted_traced(shmem_ctx_t h, const char* routine, T* dest, AmoOp op, T value,
                                                int pe) {
    rt::Context& c = shmem::context_of_form<Plain>(routine, h);
    if (gasp::on()) amo_event<T>(GASP_ATOMIC, h, op, dest, pe, 0, 0);
    rt::amo(c, routine, dest, sizeof(T), op, bits(value), 0, pe, AmoResult::none, nullptr);
}
template <class T, bool Plain = false>
[[gnu::always_inline]] inline void posted(rt::Context* c, shmem_ctx_t h, const char* routine, T* dest, AmoOp op,
                                          T value, int pe) {
    if (!c) [[unlikely]]
        return posted_traced<T, Plain>(h, routine, dest, op, value, pe);
    rt::amo(*c, routine, dest, sizeof(T), op, bits(value), 0, pe, AmoResult::none, nullptr);
}

// A fetching _nbi AMO: *fetch holds the old value by the next quiet.
template <class T, bool Plain>
[[gnu::noinline, gnu::cold]] void deferred_traced(shmem_ctx_t h, const char* routine, T* fetch, const T* dest, AmoOp op,
                                                  T value, T cond, int pe) {
    rt::Context& c = shmem::context_of_form<Plain>(routine, h);
    const bool ev = gasp::on();
    if (ev) amo_event<T>(GASP_START, h, op, dest, pe, 1, 1);
    rt::amo(c, routine, const_cast<T*>(dest), sizeof(T), op, bits(value), bits(cond), pe, AmoResult::deferred, fetch);
    if (ev) amo_event<T>(GASP_END, h, op, dest, pe, 1, 1);
}
template <class T, bool Plain = false>
[[gnu::always_inline]] inline void deferred(rt::Context* c, shmem_ctx_t h, const char* routine, T* fetch, const T* dest,
                                            AmoOp op, T value, T cond, int pe) {
    if (!c) [[unlikely]]
        return deferred_traced<T, Plain>(h, routine, fetch, dest, op, value, cond, pe);
    rt::amo(*c, routine, const_cast<T*>(dest), sizeof(T), op, bits(value), bits(cond), pe, AmoResult::deferred, fetch);
}

}  // namespace

extern "C" {

// Each operation in its plain and ctx forms: RET shmem_[ctx_]NAME_OP(PARAMS).
#define GASKET_AMO_PAIR(RET, NAME, OP, PARAMS, CALL)                               \
    RET shmem_##NAME##_##OP PARAMS noexcept {                                      \
        const char* routine = "shmem_" #NAME "_" #OP;                              \
        rt::Context* const c = shmem::untraced_default();                          \
        const shmem_ctx_t h = nullptr;                                             \
        constexpr bool kPlain = true;                                              \
        return CALL;                                                               \
    }                                                                              \
    RET shmem_ctx_##NAME##_##OP(shmem_ctx_t ctx, GASKET_UNPAREN PARAMS) noexcept { \
        const char* routine = "shmem_ctx_" #NAME "_" #OP;                          \
        rt::Context* const c = shmem::untraced_context(ctx);                       \
        const shmem_ctx_t h = ctx;                                                 \
        constexpr bool kPlain = false;                                             \
        return CALL;                                                               \
    }
#define GASKET_UNPAREN(...) __VA_ARGS__

// Table 7: fetch, set, swap and their _nbi forms.
#define GASKET_AMO_EXT(T, N)                                                                                     \
    GASKET_AMO_PAIR(T, N, atomic_fetch, (const T* source, int pe),                                               \
                    (fetching<T, kPlain>)(c, h, routine, source, AmoOp::fetch, zero<T>(), zero<T>(), pe))        \
    GASKET_AMO_PAIR(void, N, atomic_set, (T * dest, T value, int pe),                                            \
                    (posted<T, kPlain>)(c, h, routine, dest, AmoOp::set, value, pe))                             \
    GASKET_AMO_PAIR(T, N, atomic_swap, (T * dest, T value, int pe),                                              \
                    (fetching<T, kPlain>)(c, h, routine, dest, AmoOp::swap, value, zero<T>(), pe))               \
    GASKET_AMO_PAIR(void, N, atomic_fetch_nbi, (T * fetch, const T* source, int pe),                             \
                    (deferred<T, kPlain>)(c, h, routine, fetch, source, AmoOp::fetch, zero<T>(), zero<T>(), pe)) \
    GASKET_AMO_PAIR(void, N, atomic_swap_nbi, (T * fetch, T * dest, T value, int pe),                            \
                    (deferred<T, kPlain>)(c, h, routine, fetch, dest, AmoOp::swap, value, zero<T>(), pe))
GASKET_EXT_AMO_TYPES(GASKET_AMO_EXT)
#undef GASKET_AMO_EXT

// Table 6: compare_swap, fetch_inc, inc, fetch_add, add and the _nbi forms.
#define GASKET_AMO_STD(T, N)                                                                                      \
    GASKET_AMO_PAIR(T, N, atomic_compare_swap, (T * dest, T cond, T value, int pe),                               \
                    (fetching<T, kPlain>)(c, h, routine, dest, AmoOp::compare_swap, value, cond, pe))             \
    GASKET_AMO_PAIR(T, N, atomic_fetch_inc, (T * dest, int pe),                                                   \
                    (fetching<T, kPlain>)(c, h, routine, dest, AmoOp::fetch_add, one<T>(), zero<T>(), pe))        \
    GASKET_AMO_PAIR(void, N, atomic_inc, (T * dest, int pe),                                                      \
                    (posted<T, kPlain>)(c, h, routine, dest, AmoOp::fetch_add, one<T>(), pe))                     \
    GASKET_AMO_PAIR(T, N, atomic_fetch_add, (T * dest, T value, int pe),                                          \
                    (fetching<T, kPlain>)(c, h, routine, dest, AmoOp::fetch_add, value, zero<T>(), pe))           \
    GASKET_AMO_PAIR(void, N, atomic_add, (T * dest, T value, int pe),                                             \
                    (posted<T, kPlain>)(c, h, routine, dest, AmoOp::fetch_add, value, pe))                        \
    GASKET_AMO_PAIR(void, N, atomic_compare_swap_nbi, (T * fetch, T * dest, T cond, T value, int pe),             \
                    (deferred<T, kPlain>)(c, h, routine, fetch, dest, AmoOp::compare_swap, value, cond, pe))      \
    GASKET_AMO_PAIR(void, N, atomic_fetch_inc_nbi, (T * fetch, T * dest, int pe),                                 \
                    (deferred<T, kPlain>)(c, h, routine, fetch, dest, AmoOp::fetch_add, one<T>(), zero<T>(), pe)) \
    GASKET_AMO_PAIR(void, N, atomic_fetch_add_nbi, (T * fetch, T * dest, T value, int pe),                        \
                    (deferred<T, kPlain>)(c, h, routine, fetch, dest, AmoOp::fetch_add, value, zero<T>(), pe))
GASKET_STD_AMO_TYPES(GASKET_AMO_STD)
#undef GASKET_AMO_STD

// Table 8: and, or, xor, fetching and not, and the fetching _nbi forms.
#define GASKET_AMO_BITWISE_OP(T, N, OP, ATOMIC)                                                      \
    GASKET_AMO_PAIR(T, N, atomic_fetch_##OP, (T * dest, T value, int pe),                            \
                    (fetching<T, kPlain>)(c, h, routine, dest, AmoOp::ATOMIC, value, zero<T>(), pe)) \
    GASKET_AMO_PAIR(void, N, atomic_##OP, (T * dest, T value, int pe),                               \
                    (posted<T, kPlain>)(c, h, routine, dest, AmoOp::ATOMIC, value, pe))              \
    GASKET_AMO_PAIR(void, N, atomic_fetch_##OP##_nbi, (T * fetch, T * dest, T value, int pe),        \
                    (deferred<T, kPlain>)(c, h, routine, fetch, dest, AmoOp::ATOMIC, value, zero<T>(), pe))
#define GASKET_AMO_BIT(T, N) GASKET_AMO_BITWISE_OPS(GASKET_AMO_BITWISE_OP, T, N)
GASKET_BITWISE_AMO_TYPES(GASKET_AMO_BIT)
#undef GASKET_AMO_BIT
#undef GASKET_AMO_BITWISE_OP

// Deprecated names (Annex F.2.6): no ctx forms.
#define GASKET_AMO_OLD_EXT(T, N)                                                                                    \
    T shmem_##N##_fetch(const T* source, int pe) noexcept {                                                         \
        return fetching<T, true>(shmem::untraced_default(), nullptr, "shmem_" #N "_fetch", source, AmoOp::fetch,    \
                                 zero<T>(), zero<T>(), pe);                                                         \
    }                                                                                                               \
    void shmem_##N##_set(T* dest, T value, int pe) noexcept {                                                       \
        posted<T, true>(shmem::untraced_default(), nullptr, "shmem_" #N "_set", dest, AmoOp::set, value, pe);       \
    }                                                                                                               \
    T shmem_##N##_swap(T* dest, T value, int pe) noexcept {                                                         \
        return fetching<T, true>(shmem::untraced_default(), nullptr, "shmem_" #N "_swap", dest, AmoOp::swap, value, \
                                 zero<T>(), pe);                                                                    \
    }
GASKET_DEPRECATED_EXT_AMO_TYPES(GASKET_AMO_OLD_EXT)
#undef GASKET_AMO_OLD_EXT
#define GASKET_AMO_OLD_STD(T, N)                                                                                       \
    T shmem_##N##_cswap(T* dest, T cond, T value, int pe) noexcept {                                                   \
        return fetching<T, true>(shmem::untraced_default(), nullptr, "shmem_" #N "_cswap", dest, AmoOp::compare_swap,  \
                                 value, cond, pe);                                                                     \
    }                                                                                                                  \
    T shmem_##N##_finc(T* dest, int pe) noexcept {                                                                     \
        return fetching<T, true>(shmem::untraced_default(), nullptr, "shmem_" #N "_finc", dest, AmoOp::fetch_add,      \
                                 one<T>(), zero<T>(), pe);                                                             \
    }                                                                                                                  \
    void shmem_##N##_inc(T* dest, int pe) noexcept {                                                                   \
        posted<T, true>(shmem::untraced_default(), nullptr, "shmem_" #N "_inc", dest, AmoOp::fetch_add, one<T>(), pe); \
    }                                                                                                                  \
    T shmem_##N##_fadd(T* dest, T value, int pe) noexcept {                                                            \
        return fetching<T, true>(shmem::untraced_default(), nullptr, "shmem_" #N "_fadd", dest, AmoOp::fetch_add,      \
                                 value, zero<T>(), pe);                                                                \
    }                                                                                                                  \
    void shmem_##N##_add(T* dest, T value, int pe) noexcept {                                                          \
        posted<T, true>(shmem::untraced_default(), nullptr, "shmem_" #N "_add", dest, AmoOp::fetch_add, value, pe);    \
    }
GASKET_DEPRECATED_STD_AMO_TYPES(GASKET_AMO_OLD_STD)
#undef GASKET_AMO_OLD_STD

}  // extern "C"
