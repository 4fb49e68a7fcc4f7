// shmem/p2p.cpp -- §9.11 point-to-point synchronization on local symmetric
// variables: wait_until and test for every point-to-point type; the
// all/any/some forms and their _vector forms for every Table 6 type and
// short/unsigned short;
// signal_wait_until; the deprecated wait.  Generated from
// gasket/shmem_type_tables.h.
#include <shmem.h>

#include <atomic>
#include <cstdint>

#include "context.hpp"
#include "events.hpp"
#include "src/runtime/collective.hpp"
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

// GASP (include/gasp_shmem.h): GASP_SHMEM_WAIT_UNTIL S/E around a wait,
// GASP_SHMEM_SIGNAL_WAIT_UNTIL S/E around shmem_signal_wait_until,
// GASP_SHMEM_TEST (A, after the test, with its result) for a test.  Waits
// block (microseconds at least): one gasp::on() test around them.  Tests are
// cheap and called in loops: their inline path tests
// shmem::untraced_default() (null before shmem_init and whenever a tool is
// attached) where it tested the job, so no test is added; null takes the
// out-of-line path (test_traced, set_test_traced), which checks the job
// (fatal before init) and raises the event.
template <class T>
void wait_until(const char* routine, T* ivar, int cmp, T target) {
    const bool ev = gasp::on();
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_WAIT_UNTIL, GASP_START, static_cast<void*>(ivar), std::size_t(1), cmp,
                     shmem::typecode<T>(), int(GASP_SHMEM_WAIT_SINGLE));
    rt::Job& j = checked(routine, ivar);
    rt::Poller poller(j);
    while (!satisfied(routine, load(ivar), cmp, target)) poller.pause();
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_WAIT_UNTIL, GASP_END, static_cast<void*>(ivar), std::size_t(1), cmp,
                     shmem::typecode<T>(), int(GASP_SHMEM_WAIT_SINGLE));
}

// A wait of `variant` on `n` ivars: `body()` between the events.
template <class T, class F>
auto wait_event(int variant, T* ivars, std::size_t n, int cmp, F&& body) {
    const bool ev = gasp::on();
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_WAIT_UNTIL, GASP_START, static_cast<void*>(ivars), n, cmp, shmem::typecode<T>(),
                     variant);
    auto result = body();
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_WAIT_UNTIL, GASP_END, static_cast<void*>(ivars), n, cmp, shmem::typecode<T>(), variant);
    return result;
}

// A test's body, the job being up and ivar symmetric.
template <class T>
int test_on(rt::Job& j, const char* routine, T* ivar, int cmp, T target) {
    if (satisfied(routine, load(ivar), cmp, target)) return 1;
    // Programs call test in a loop: every so often, let MPI deliver.
    thread_local unsigned misses = 0;
    if (++misses % 64 == 0) rt::Poller::progress(j);
    return 0;
}
// Also the path of the errors (fatal: before init, ivar not symmetric).
template <class T>
[[gnu::noinline, gnu::cold]] int test_traced(const char* routine, T* ivar, int cmp, T target) {
    const int result = test_on(checked(routine, ivar), routine, ivar, cmp, target);
    if (gasp::on())
        gasp::notify(GASP_SHMEM_TEST, GASP_ATOMIC, static_cast<void*>(ivar), std::size_t(1), cmp, shmem::typecode<T>(),
                     int(GASP_SHMEM_WAIT_SINGLE), std::size_t(result));
    return result;
}
template <class T>
int test(const char* routine, T* ivar, int cmp, T target) {
    rt::Context* c = shmem::untraced_default();
    if (!c || !c->job().segment_of(ivar)) [[unlikely]]
        return test_traced(routine, ivar, cmp, target);
    return test_on(c->job(), routine, ivar, cmp, target);
}

void check_cmp(const char* routine, int cmp) {
    if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE) [[unlikely]]
        bad_cmp(routine, cmp);
}

// The comparison value of element i: one for all, or one per element.
template <class T>
struct One {
    T value;
    T operator[](std::size_t) const { return value; }
};
template <class T>
struct PerElement {
    const T* values;
    T operator[](std::size_t i) const { return values[i]; }
};

// A set of ivars (§9.11.2-7, 9-14): status[i] != 0 leaves ivars[i] out.
template <class T, class Values>
struct IvarSet {
    const char* routine;
    T* ivars;
    std::size_t n;
    const int* status;
    int cmp;
    Values values;

    bool included(std::size_t i) const { return !status || status[i] == 0; }
    bool any_included() const {
        for (std::size_t i = 0; i < n; ++i)
            if (included(i)) return true;
        return false;
    }
    bool holds(std::size_t i) const { return satisfied(routine, load(&ivars[i]), cmp, values[i]); }
    bool all() const {
        for (std::size_t i = 0; i < n; ++i)
            if (included(i) && !holds(i)) return false;
        return true;
    }
    // The first included, satisfied index at or after `start`, wrapping
    // round to the beginning; SIZE_MAX when none.
    std::size_t any(std::size_t start) const {
        if (start >= n) start = 0;
        for (std::size_t i = start; i < n; ++i)
            if (included(i) && holds(i)) return i;
        for (std::size_t i = 0; i < start; ++i)
            if (included(i) && holds(i)) return i;
        return SIZE_MAX;
    }
    std::size_t some(std::size_t* indices) const {
        std::size_t count = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (included(i) && holds(i)) indices[count++] = i;
        return count;
    }
};

// The set's checks, the job being up.
template <class T, class Values>
IvarSet<T, Values> ivar_set_on(const char* routine, T* ivars, std::size_t n, const int* status, int cmp, Values v) {
    check_cmp(routine, cmp);
    // nelems ivars, all in one segment; nelems times the size checked
    // first (a wrapping count made ivars + n - 1 land back on ivars).
    if (n > 0) rt::check_symmetric(routine, "ivars", ivars, rt::checked_bytes(routine, "nelems", n, sizeof(T)));
    return {routine, ivars, n, status, cmp, v};
}

template <class T, class Values>
IvarSet<T, Values> ivar_set(const char* routine, T* ivars, std::size_t n, const int* status, int cmp, Values v,
                            rt::Job*& j) {
    j = &rt::job(routine);
    return ivar_set_on(routine, ivars, n, status, cmp, v);
}
// §9.11.3, §9.11.10: "a series of calls to shmem_test_any must eventually
// return i" for every satisfied i.  Each thread remembers, for the last few
// ivars arrays it passed to an _any routine, the index after the one
// returned last; the next call on that array starts its scan there and wraps
// round, so every satisfied index comes up within nelems calls.  An array
// not remembered starts at 0.
class AnyCursor {
public:
    explicit AnyCursor(const void* ivars) : entry_(find(ivars)) {}
    std::size_t start() const { return entry_.next; }
    std::size_t returned(std::size_t i) {
        if (i != SIZE_MAX) entry_.next = i + 1;
        return i;
    }

private:
    struct Entry {
        const void* ivars = nullptr;
        std::size_t next = 0;
    };
    static constexpr std::size_t kEntries = 8;
    static Entry& find(const void* ivars) {
        thread_local Entry entries[kEntries];
        thread_local std::size_t victim = 0;
        for (Entry& e : entries)
            if (e.ivars == ivars) return e;
        Entry& e = entries[victim++ % kEntries];
        e = {ivars, 0};
        return e;
    }
    Entry& entry_;
};

// A failed test: every so often, let MPI and Active Messages progress.
void after_failed_test(rt::Job& j) {
    thread_local unsigned misses = 0;
    if (++misses % 64 == 0) rt::Poller::progress(j);
}

template <class Set>
void wait_all(rt::Job& j, const Set& s) {
    rt::Poller poller(j);
    while (!s.all()) poller.pause();
}

template <class Set>
std::size_t wait_any(rt::Job& j, const Set& s) {
    if (!s.any_included()) return SIZE_MAX;
    AnyCursor cursor(s.ivars);
    rt::Poller poller(j);
    for (;;) {
        if (std::size_t i = s.any(cursor.start()); i != SIZE_MAX) return cursor.returned(i);
        poller.pause();
    }
}

template <class Set>
std::size_t wait_some(rt::Job& j, const Set& s, std::size_t* indices) {
    if (!s.any_included()) return 0;
    rt::Poller poller(j);
    for (;;) {
        if (std::size_t k = s.some(indices)) return k;
        poller.pause();
    }
}

template <class Set>
int test_all(rt::Job& j, const Set& s) {
    if (s.all()) return 1;
    after_failed_test(j);
    return 0;
}

template <class Set>
std::size_t test_any(rt::Job& j, const Set& s) {
    AnyCursor cursor(s.ivars);
    std::size_t i = s.any(cursor.start());
    if (i == SIZE_MAX) after_failed_test(j);
    return cursor.returned(i);
}

template <class Set>
std::size_t test_some(rt::Job& j, const Set& s, std::size_t* indices) {
    std::size_t k = s.some(indices);
    if (k == 0) after_failed_test(j);
    return k;
}

// test_all/any/some: `variant` (gasp_shmem_wait_variant_t) for the event.
enum class SetTest { all, any, some };
template <SetTest K, class T, class Values>
auto set_test_on(rt::Job& j, const char* routine, T* ivars, std::size_t n, std::size_t* indices, const int* status,
                 int cmp, Values v) {
    const auto s = ivar_set_on(routine, ivars, n, status, cmp, v);
    if constexpr (K == SetTest::all)
        return test_all(j, s);
    else if constexpr (K == SetTest::any)
        return test_any(j, s);
    else
        return test_some(j, s, indices);
}
template <SetTest K, class T, class Values>
[[gnu::noinline, gnu::cold]] auto set_test_traced(int variant, const char* routine, T* ivars, std::size_t n,
                                                  std::size_t* indices, const int* status, int cmp, Values v) {
    const auto result = set_test_on<K>(rt::job(routine), routine, ivars, n, indices, status, cmp, v);
    if (gasp::on())
        gasp::notify(GASP_SHMEM_TEST, GASP_ATOMIC, static_cast<void*>(ivars), n, cmp, shmem::typecode<T>(), variant,
                     static_cast<std::size_t>(result));
    return result;
}
template <SetTest K, class T, class Values>
auto set_test(int variant, const char* routine, T* ivars, std::size_t n, std::size_t* indices, const int* status,
              int cmp, Values v) {
    rt::Context* c = shmem::untraced_default();
    if (!c) [[unlikely]]
        return set_test_traced<K>(variant, routine, ivars, n, indices, status, cmp, v);
    return set_test_on<K>(c->job(), routine, ivars, n, indices, status, cmp, v);
}

}  // namespace

extern "C" {

// §9.11.2-7 and §9.11.9-14 for one type: FORM is the routine's suffix,
// VALUES how the comparison values are given.
#define GASKET_P2P_SET_FORMS(T, N, SUFFIX, VPARAM, VALUES, V)                                                          \
    void shmem_##N##_wait_until_all##SUFFIX(T* ivars, size_t nelems, const int* status, int cmp, VPARAM) noexcept {    \
        wait_event<T>(GASP_SHMEM_WAIT_ALL##V, ivars, nelems, cmp, [&] {                                                \
            rt::Job* j;                                                                                                \
            auto s = ivar_set("shmem_" #N "_wait_until_all" #SUFFIX, ivars, nelems, status, cmp, VALUES, j);           \
            wait_all(*j, s);                                                                                           \
            return 0;                                                                                                  \
        });                                                                                                            \
    }                                                                                                                  \
    size_t shmem_##N##_wait_until_any##SUFFIX(T* ivars, size_t nelems, const int* status, int cmp, VPARAM) noexcept {  \
        return wait_event<T>(GASP_SHMEM_WAIT_ANY##V, ivars, nelems, cmp, [&] {                                         \
            rt::Job* j;                                                                                                \
            auto s = ivar_set("shmem_" #N "_wait_until_any" #SUFFIX, ivars, nelems, status, cmp, VALUES, j);           \
            return wait_any(*j, s);                                                                                    \
        });                                                                                                            \
    }                                                                                                                  \
    size_t shmem_##N##_wait_until_some##SUFFIX(T* ivars, size_t nelems, size_t* indices, const int* status, int cmp,   \
                                               VPARAM) noexcept {                                                      \
        return wait_event<T>(GASP_SHMEM_WAIT_SOME##V, ivars, nelems, cmp, [&] {                                        \
            rt::Job* j;                                                                                                \
            auto s = ivar_set("shmem_" #N "_wait_until_some" #SUFFIX, ivars, nelems, status, cmp, VALUES, j);          \
            return wait_some(*j, s, indices);                                                                          \
        });                                                                                                            \
    }                                                                                                                  \
    int shmem_##N##_test_all##SUFFIX(T* ivars, size_t nelems, const int* status, int cmp, VPARAM) noexcept {           \
        return set_test<SetTest::all>(GASP_SHMEM_WAIT_ALL##V, "shmem_" #N "_test_all" #SUFFIX, ivars, nelems, nullptr, \
                                      status, cmp, VALUES);                                                            \
    }                                                                                                                  \
    size_t shmem_##N##_test_any##SUFFIX(T* ivars, size_t nelems, const int* status, int cmp, VPARAM) noexcept {        \
        return set_test<SetTest::any>(GASP_SHMEM_WAIT_ANY##V, "shmem_" #N "_test_any" #SUFFIX, ivars, nelems, nullptr, \
                                      status, cmp, VALUES);                                                            \
    }                                                                                                                  \
    size_t shmem_##N##_test_some##SUFFIX(T* ivars, size_t nelems, size_t* indices, const int* status, int cmp,         \
                                         VPARAM) noexcept {                                                            \
        return set_test<SetTest::some>(GASP_SHMEM_WAIT_SOME##V, "shmem_" #N "_test_some" #SUFFIX, ivars, nelems,       \
                                       indices, status, cmp, VALUES);                                                  \
    }
#define GASKET_P2P_SET(T, N)                                       \
    GASKET_P2P_SET_FORMS(T, N, , T cmp_value, One<T>{cmp_value}, ) \
    GASKET_P2P_SET_FORMS(T, N, _vector, const T* cmp_values, PerElement<T>{cmp_values}, _VECTOR)
GASKET_P2P_SET_TYPES(GASKET_P2P_SET)
#undef GASKET_P2P_SET
#undef GASKET_P2P_SET_FORMS

uint64_t shmem_signal_wait_until(uint64_t* sig_addr, int cmp, uint64_t cmp_value) noexcept {
    const char* routine = "shmem_signal_wait_until";
    const bool ev = gasp::on();
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_SIGNAL_WAIT_UNTIL, GASP_START, sig_addr, cmp, cmp_value);
    rt::Job& j = checked(routine, sig_addr);
    rt::Poller poller(j);
    for (;;) {
        const uint64_t value = load(sig_addr);  // the value that satisfied the wait is the one returned
        if (satisfied(routine, value, cmp, cmp_value)) {
            if (ev) [[unlikely]]
                gasp::notify(GASP_SHMEM_SIGNAL_WAIT_UNTIL, GASP_END, sig_addr, cmp, cmp_value);
            return value;
        }
        poller.pause();
    }
}

#define GASKET_P2P(TYPE, NAME)                                                     \
    void shmem_##NAME##_wait_until(TYPE* ivar, int cmp, TYPE cmp_value) noexcept { \
        wait_until<TYPE>("shmem_" #NAME "_wait_until", ivar, cmp, cmp_value);      \
    }                                                                              \
    int shmem_##NAME##_test(TYPE* ivar, int cmp, TYPE cmp_value) noexcept {        \
        return test<TYPE>("shmem_" #NAME "_test", ivar, cmp, cmp_value);           \
    }
GASKET_P2P_SYNC_TYPES(GASKET_P2P)
#undef GASKET_P2P

#define GASKET_WAIT(TYPE, NAME)                                                  \
    void shmem_##NAME##_wait(TYPE* ivar, TYPE cmp_value) noexcept {              \
        wait_until<TYPE>("shmem_" #NAME "_wait", ivar, SHMEM_CMP_NE, cmp_value); \
    }
GASKET_DEPRECATED_WAIT_TYPES(GASKET_WAIT)
#undef GASKET_WAIT

void shmem_wait(long* ivar, long cmp_value) noexcept { wait_until<long>("shmem_wait", ivar, SHMEM_CMP_NE, cmp_value); }
// Annex F.2.11: the untyped C/C++ name, for long.
void shmem_wait_until(long* ivar, int cmp, long cmp_value) noexcept {
    wait_until<long>("shmem_wait_until", ivar, cmp, cmp_value);
}

}  // extern "C"
