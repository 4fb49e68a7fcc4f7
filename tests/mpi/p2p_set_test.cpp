// tests/mpi/p2p_set_test.cpp -- §9.11.2-7 and §9.11.9-14: the waits and
// tests over arrays of ivars, shmem_TYPENAME_{wait_until,test}_{all,any,
// some}[_vector], for every Table 6 type and short/unsigned short (as other
// implementations offer them), on heap and global arrays:
//  - return values against a reference model, for every SHMEM_CMP_*, with
//    status NULL, all-zero, a mask excluding some entries (satisfied ones
//    among them), and all entries excluded, and with nelems 0:
//      test_all: 1 iff every included entry satisfies (1 when none is
//        included); test_any: an included satisfying index, else SIZE_MAX;
//      test_some / wait_until_some: the count and the exact set of the
//        included satisfying indices (they test every included entry;
//        nothing changes during the call), 0 when none is included;
//      wait_until_any: an included satisfying index, SIZE_MAX when none
//        is included; wait_until_all returns when every included entry
//        satisfies, at once when none is included;
//    and repeated _any calls, masking what they returned, enumerate every
//    satisfying index once;
//  - waits and polling tests satisfied by updates from other PEs (atomic
//    set and put), every PE writing one entry on every PE; the _any/_some
//    forms collect every entry exactly once;
//  - fairness: repeated _any calls with nothing masked return every
//    satisfied index, also in the spec's Example 43 loop without its mask;
//  - an excluded entry that already satisfies is ignored: the wait returns
//    only for the included entry a remote PE updates later.
// Values are signed/unsigned sensitive (negative numbers become large
// unsigned ones) and use the top bits of the type.
#include <chrono>
#include <set>
#include <thread>

#include "shmem_test.hpp"

namespace {

using namespace gasket_test;

constexpr std::size_t kN = 9;        // ivars in the local tests
constexpr std::size_t kMaxPes = 64;  // global arrays for the remote tests
constexpr auto kTestLoopLimit = std::chrono::seconds(30);

// ---- rows of Table 6 -----------------------------------------------------------

// SET: how remote tests write an ivar (an atomic set; a put for short and
// unsigned short, which have no AMOs).
#define GASKET_TEST_SET_ROW_WITH(TYPE, NAME, SET)                                  \
    struct Set_##NAME {                                                            \
        using T = TYPE;                                                            \
        static constexpr const char* kName = #NAME;                                \
        static TYPE global_ivars[kMaxPes > kN ? kMaxPes : kN];                     \
        static constexpr auto wait_all = shmem_##NAME##_wait_until_all;            \
        static constexpr auto wait_any = shmem_##NAME##_wait_until_any;            \
        static constexpr auto wait_some = shmem_##NAME##_wait_until_some;          \
        static constexpr auto wait_all_v = shmem_##NAME##_wait_until_all_vector;   \
        static constexpr auto wait_any_v = shmem_##NAME##_wait_until_any_vector;   \
        static constexpr auto wait_some_v = shmem_##NAME##_wait_until_some_vector; \
        static constexpr auto test_all = shmem_##NAME##_test_all;                  \
        static constexpr auto test_any = shmem_##NAME##_test_any;                  \
        static constexpr auto test_some = shmem_##NAME##_test_some;                \
        static constexpr auto test_all_v = shmem_##NAME##_test_all_vector;         \
        static constexpr auto test_any_v = shmem_##NAME##_test_any_vector;         \
        static constexpr auto test_some_v = shmem_##NAME##_test_some_vector;       \
        static constexpr auto atomic_set = SET;                                    \
        static constexpr auto p = shmem_##NAME##_p;                                \
    };                                                                             \
    TYPE Set_##NAME::global_ivars[kMaxPes > kN ? kMaxPes : kN];
#define GASKET_TEST_SET_ROW(TYPE, NAME) GASKET_TEST_SET_ROW_WITH(TYPE, NAME, shmem_##NAME##_atomic_set)
#define GASKET_TEST_SET_ROW_PUT(TYPE, NAME) GASKET_TEST_SET_ROW_WITH(TYPE, NAME, shmem_##NAME##_p)
GASKET_STD_AMO_TYPES(GASKET_TEST_SET_ROW)
GASKET_P2P_SYNC_DEPRECATED_TYPES(GASKET_TEST_SET_ROW_PUT)
#undef GASKET_TEST_SET_ROW_PUT
#undef GASKET_TEST_SET_ROW
#undef GASKET_TEST_SET_ROW_WITH

#define GASKET_TEST_ROW_NAME(TYPE, NAME) , Set_##NAME
using SetRows = DropFirst<void GASKET_P2P_SET_TYPES(GASKET_TEST_ROW_NAME)>::type;
#undef GASKET_TEST_ROW_NAME

static_assert(0 GASKET_P2P_SET_TYPES(GASKET_TEST_COUNT) == 14, "Table 6 has 12 rows, plus short and ushort");

// ---- reference model ------------------------------------------------------------

struct Cmp {
    int cmp;
    const char* name;
};
constexpr Cmp kCmps[] = {{SHMEM_CMP_EQ, "SHMEM_CMP_EQ"}, {SHMEM_CMP_NE, "SHMEM_CMP_NE"},
                         {SHMEM_CMP_GT, "SHMEM_CMP_GT"}, {SHMEM_CMP_GE, "SHMEM_CMP_GE"},
                         {SHMEM_CMP_LT, "SHMEM_CMP_LT"}, {SHMEM_CMP_LE, "SHMEM_CMP_LE"}};

template <class T>
bool holds(T v, int cmp, T x) {
    switch (cmp) {
        case SHMEM_CMP_EQ: return v == x;
        case SHMEM_CMP_NE: return v != x;
        case SHMEM_CMP_GT: return v > x;
        case SHMEM_CMP_GE: return v >= x;
        case SHMEM_CMP_LT: return v < x;
        case SHMEM_CMP_LE: return v <= x;
    }
    return false;
}

// The ivars and comparison values of the local tests.  As T: negative
// numbers are huge for unsigned types; `big` uses the type's top bits.
template <class T>
T big() {
    return static_cast<T>(T(1) << (8 * sizeof(T) - 2));
}
template <class T>
std::vector<T> local_ivars() {
    const long long raw[kN - 1] = {3, -5, 7, 5, -9, 5, 1, -6};
    std::vector<T> v;
    for (long long r : raw) v.push_back(static_cast<T>(r));
    v.push_back(big<T>());
    return v;
}
template <class T>
std::vector<T> local_cmp_values() {  // the _vector forms
    const long long raw[kN - 1] = {3, -4, 8, 5, -9, 6, 0, -6};
    std::vector<T> v;
    for (long long r : raw) v.push_back(static_cast<T>(r));
    v.push_back(static_cast<T>(big<T>() - 1));
    return v;
}
template <class T>
T local_cmp_value() {  // the scalar forms
    return T(5);
}

std::string show_set(const std::set<std::size_t>& s) {
    std::string out = "{";
    for (std::size_t i : s) out += (out.size() > 1 ? "," : "") + std::to_string(i);
    return out + "}";
}

// The status masks of the local tests (nullptr: status NULL).
struct Mask {
    const char* name;
    std::vector<int> st;  // empty: status NULL
};
std::vector<Mask> local_masks() {
    return {{"status NULL", {}},
            {"status all 0", std::vector<int>(kN, 0)},
            {"status excluding 1,4,7 (and 8 as -1)", {0, 1, 0, 0, 2, 0, 0, 1, -1}},
            {"status excluding all", std::vector<int>(kN, 1)}};
}

// ---- local return values ---------------------------------------------------------

// Checks every routine on `ivars` (this PE's own symmetric array, already
// holding local_ivars()).  Nothing changes the array during the calls.
template <class Row>
void local_checks(typename Row::T* ivars) {
    using T = typename Row::T;
    const std::vector<T> cmp_values = local_cmp_values<T>();
    const T x = local_cmp_value<T>();
    for (const Cmp& c : kCmps)
        for (const Mask& m : local_masks())
            for (bool vec : {false, true}) {
                const int* st = m.st.empty() ? nullptr : m.st.data();
                std::set<std::size_t> included, sat;  // sat: included and satisfying
                for (std::size_t i = 0; i < kN; ++i) {
                    if (st && st[i] != 0) continue;
                    included.insert(i);
                    if (holds(ivars[i], c.cmp, vec ? cmp_values[i] : x)) sat.insert(i);
                }
                const std::string where = std::string(vec ? "_vector, " : "") + c.name + ", " + m.name + ": included " +
                                          show_set(included) + ", satisfying " + show_set(sat);
                SCOPED_TRACE(where);
                const bool all_sat = sat == included;

                // test_all
                const int ta = vec ? Row::test_all_v(ivars, kN, st, c.cmp, cmp_values.data())
                                   : Row::test_all(ivars, kN, st, c.cmp, x);
                EXPECT_EQ(ta, all_sat ? 1 : 0) << "test_all";
                // test_any, then repeated with what it returned masked
                {
                    std::vector<int> st2 = m.st.empty() ? std::vector<int>(kN, 0) : m.st;
                    std::set<std::size_t> got;
                    for (std::size_t k = 0; k <= kN; ++k) {
                        const int* s2 = (k == 0) ? st : st2.data();
                        const std::size_t r = vec ? Row::test_any_v(ivars, kN, s2, c.cmp, cmp_values.data())
                                                  : Row::test_any(ivars, kN, s2, c.cmp, x);
                        if (r == SIZE_MAX) break;
                        EXPECT_TRUE(r < kN && sat.count(r) && !got.count(r))
                            << "test_any returned " << r << " (call " << k << ", already returned " << show_set(got)
                            << ")";
                        if (r >= kN) break;
                        got.insert(r);
                        st2[r] = 1;
                    }
                    EXPECT_EQ(got, sat) << "the indices test_any returned, masking each one it returned";
                }
                // test_some
                {
                    std::vector<std::size_t> idx(kN, SIZE_MAX);
                    const std::size_t cnt = vec ? Row::test_some_v(ivars, kN, idx.data(), st, c.cmp, cmp_values.data())
                                                : Row::test_some(ivars, kN, idx.data(), st, c.cmp, x);
                    EXPECT_EQ(cnt, sat.size()) << "test_some's count";
                    const std::set<std::size_t> got(idx.begin(), idx.begin() + std::min(cnt, kN));
                    EXPECT_EQ(got, sat) << "test_some's indices";
                }
                // wait_until_all: only where it returns (every included entry satisfied)
                if (all_sat) {
                    if (vec)
                        Row::wait_all_v(ivars, kN, st, c.cmp, cmp_values.data());
                    else
                        Row::wait_all(ivars, kN, st, c.cmp, x);
                }
                // wait_until_any / wait_until_some: only where one entry satisfies or none is included
                if (!sat.empty() || included.empty()) {
                    const std::size_t r = vec ? Row::wait_any_v(ivars, kN, st, c.cmp, cmp_values.data())
                                              : Row::wait_any(ivars, kN, st, c.cmp, x);
                    if (included.empty())
                        EXPECT_EQ(r, SIZE_MAX) << "wait_until_any with every entry excluded";
                    else
                        EXPECT_TRUE(r < kN && sat.count(r)) << "wait_until_any returned " << r;
                    std::vector<std::size_t> idx(kN, SIZE_MAX);
                    const std::size_t cnt = vec ? Row::wait_some_v(ivars, kN, idx.data(), st, c.cmp, cmp_values.data())
                                                : Row::wait_some(ivars, kN, idx.data(), st, c.cmp, x);
                    EXPECT_EQ(cnt, sat.size()) << "wait_until_some's count";
                    const std::set<std::size_t> got(idx.begin(), idx.begin() + std::min(cnt, kN));
                    EXPECT_EQ(got, sat) << "wait_until_some's indices";
                }
                // wait_until_any, repeated, masking each index it returned
                if (!sat.empty()) {
                    std::vector<int> st2 = m.st.empty() ? std::vector<int>(kN, 0) : m.st;
                    std::set<std::size_t> got;
                    for (std::size_t k = 0; k < sat.size(); ++k) {
                        const std::size_t r = vec ? Row::wait_any_v(ivars, kN, st2.data(), c.cmp, cmp_values.data())
                                                  : Row::wait_any(ivars, kN, st2.data(), c.cmp, x);
                        EXPECT_TRUE(r < kN && sat.count(r) && !got.count(r)) << "wait_until_any returned " << r;
                        if (r >= kN) break;
                        got.insert(r);
                        st2[r] = 1;
                    }
                    EXPECT_EQ(got, sat) << "the indices wait_until_any returned, masking each one it returned";
                }
            }

    // nelems 0: the set is empty whatever the status (none passed here).
    std::size_t idx[1] = {12345};
    const T* cv = cmp_values.data();
    EXPECT_EQ(Row::test_all(ivars, 0, nullptr, SHMEM_CMP_EQ, x), 1) << "test_all, nelems 0";
    EXPECT_EQ(Row::test_all_v(ivars, 0, nullptr, SHMEM_CMP_EQ, cv), 1) << "test_all_vector, nelems 0";
    EXPECT_EQ(Row::test_any(ivars, 0, nullptr, SHMEM_CMP_EQ, x), SIZE_MAX) << "test_any, nelems 0";
    EXPECT_EQ(Row::test_any_v(ivars, 0, nullptr, SHMEM_CMP_EQ, cv), SIZE_MAX) << "test_any_vector, nelems 0";
    EXPECT_EQ(Row::test_some(ivars, 0, idx, nullptr, SHMEM_CMP_EQ, x), 0u) << "test_some, nelems 0";
    EXPECT_EQ(Row::test_some_v(ivars, 0, idx, nullptr, SHMEM_CMP_EQ, cv), 0u) << "test_some_vector, nelems 0";
    Row::wait_all(ivars, 0, nullptr, SHMEM_CMP_EQ, x);  // returns at once
    Row::wait_all_v(ivars, 0, nullptr, SHMEM_CMP_EQ, cv);
    EXPECT_EQ(Row::wait_any(ivars, 0, nullptr, SHMEM_CMP_EQ, x), SIZE_MAX) << "wait_until_any, nelems 0";
    EXPECT_EQ(Row::wait_any_v(ivars, 0, nullptr, SHMEM_CMP_EQ, cv), SIZE_MAX) << "wait_until_any_vector, nelems 0";
    EXPECT_EQ(Row::wait_some(ivars, 0, idx, nullptr, SHMEM_CMP_EQ, x), 0u) << "wait_until_some, nelems 0";
    EXPECT_EQ(Row::wait_some_v(ivars, 0, idx, nullptr, SHMEM_CMP_EQ, cv), 0u) << "wait_until_some_vector, nelems 0";

    // A wait on entries none of which satisfies, all excluded: returns at once.
    const std::vector<int> none(kN, 1);
    Row::wait_all(ivars, kN, none.data(), SHMEM_CMP_EQ, T(42));
    Row::wait_all_v(ivars, kN, none.data(), SHMEM_CMP_GT, cv);
}

template <class Row>
void local_test(typename Row::T* ivars) {
    const auto init = local_ivars<typename Row::T>();
    std::copy(init.begin(), init.end(), ivars);
    local_checks<Row>(ivars);
    EXPECT_TRUE(ArraysMatch(ivars, init.data(), kN)) << "the routines changed the ivars";
}

// ---- waits satisfied by other PEs -------------------------------------------------

// Which routine a remote phase exercises.
enum class Form { wait_all, wait_any, wait_some, test_all, test_any, test_some };
const char* form_name(Form f, bool vec) {
    static const char* names[] = {"wait_until_all", "wait_until_any", "wait_until_some",
                                  "test_all",       "test_any",       "test_some"};
    static std::string with[6];
    const std::string& s = with[int(f)] = std::string(names[int(f)]) + (vec ? "_vector" : "");
    return s.c_str();
}

// Every PE j stores value(j) into entry j of `ivars` on every PE (atomic_set
// from even PEs, put from odd PEs), starting with its right neighbour; each
// PE then waits for all n entries with `form`: the scalar forms with
// SHMEM_CMP_NE 0, the vector forms with SHMEM_CMP_EQ value(j).
template <class Row>
void remote_phase(typename Row::T* ivars, Form form, bool vec) {
    using T = typename Row::T;
    const int n = npes();
    const std::size_t un = std::size_t(n);
    auto value = [](int j) { return static_cast<T>(T(j + 1) | big<T>()); };
    std::vector<T> cv(un);
    for (int j = 0; j < n; ++j) cv[std::size_t(j)] = value(j);
    const int cmp = vec ? SHMEM_CMP_EQ : SHMEM_CMP_NE;
    const T x = T(0);
    const char* name = form_name(form, vec);
    SCOPED_TRACE(name);

    std::fill(ivars, ivars + un, T(0));
    shmem_barrier_all();
    for (int k = 1; k <= n; ++k) {
        const int pe = (me() + k) % n;  // right neighbour first, self last
        if (me() % 2)
            Row::p(&ivars[me()], value(me()), pe);
        else
            Row::atomic_set(&ivars[me()], value(me()), pe);
    }
    shmem_quiet();

    std::vector<int> status(un, 0);
    std::vector<std::size_t> idx(un, SIZE_MAX);
    std::set<std::size_t> got;
    const auto deadline = std::chrono::steady_clock::now() + kTestLoopLimit;
    auto expired = [&] { return std::chrono::steady_clock::now() > deadline; };
    switch (form) {
        case Form::wait_all:
            if (vec)
                Row::wait_all_v(ivars, un, nullptr, cmp, cv.data());
            else
                Row::wait_all(ivars, un, nullptr, cmp, x);
            for (std::size_t j = 0; j < un; ++j) got.insert(j);
            break;
        case Form::test_all: {
            int r = 0;
            while (!(r = vec ? Row::test_all_v(ivars, un, nullptr, cmp, cv.data())
                             : Row::test_all(ivars, un, nullptr, cmp, x)) &&
                   !expired()) {}
            EXPECT_EQ(r, 1) << "still 0 after " << kTestLoopLimit.count() << " s of polling";
            if (r)
                for (std::size_t j = 0; j < un; ++j) got.insert(j);
            break;
        }
        case Form::wait_any:
        case Form::test_any:
            while (got.size() < un && !expired()) {
                const std::size_t r = form == Form::wait_any
                                          ? (vec ? Row::wait_any_v(ivars, un, status.data(), cmp, cv.data())
                                                 : Row::wait_any(ivars, un, status.data(), cmp, x))
                                          : (vec ? Row::test_any_v(ivars, un, status.data(), cmp, cv.data())
                                                 : Row::test_any(ivars, un, status.data(), cmp, x));
                if (r == SIZE_MAX && form == Form::test_any) continue;
                EXPECT_TRUE(r < un && status[r] == 0)
                    << "returned " << r << " (already returned " << show_set(got) << ")";
                if (r >= un || status[r]) break;
                got.insert(r);
                status[r] = 1;
            }
            break;
        case Form::wait_some:
        case Form::test_some:
            while (got.size() < un && !expired()) {
                const std::size_t cnt =
                    form == Form::wait_some
                        ? (vec ? Row::wait_some_v(ivars, un, idx.data(), status.data(), cmp, cv.data())
                               : Row::wait_some(ivars, un, idx.data(), status.data(), cmp, x))
                        : (vec ? Row::test_some_v(ivars, un, idx.data(), status.data(), cmp, cv.data())
                               : Row::test_some(ivars, un, idx.data(), status.data(), cmp, x));
                if (form == Form::wait_some) EXPECT_GE(cnt, 1u) << "wait_until_some returned 0 with entries left";
                bool bad = cnt > un - got.size();
                for (std::size_t i = 0; i < cnt && !bad; ++i) {
                    const std::size_t r = idx[i];
                    bad = r >= un || status[r] != 0;
                    if (!bad) {
                        got.insert(r);
                        status[r] = 1;
                    }
                }
                EXPECT_FALSE(bad) << "returned " << cnt << " indices, one out of range or already returned";
                if (bad || (cnt == 0 && form == Form::wait_some)) break;
            }
            break;
    }
    EXPECT_EQ(got.size(), un) << "collected " << show_set(got) << " of " << n << " entries";
    if (got.size() < un) {  // stay in step: wait for the rest with the plain wait
        for (std::size_t j = 0; j < un; ++j) Row::wait_all(&ivars[j], 1, nullptr, SHMEM_CMP_NE, T(0));
    }
    for (std::size_t j = 0; j < un; ++j)
        EXPECT_EQ(ivars[j], value(int(j))) << "entry " << j << " (written by PE " << j << ")";
    shmem_barrier_all();  // every PE done before the array is reset
}

template <class Row>
void remote_test(typename Row::T* ivars) {
    for (Form f : {Form::wait_all, Form::wait_any, Form::wait_some, Form::test_all, Form::test_any, Form::test_some})
        for (bool vec : {false, true}) remote_phase<Row>(ivars, f, vec);
}

// Three entries: [0] already satisfies but is excluded, [1] is written by
// the left neighbour after a pause, [2] is never written (excluded for the
// _all forms).  The waits must return for [1], never report [0].
template <class Row>
void excluded_test(typename Row::T* ivars) {
    using T = typename Row::T;
    const T good = big<T>();  // satisfies SHMEM_CMP_EQ good; 0 does not
    for (int phase = 0; phase < 6; ++phase) {
        const bool vec = phase % 2;
        const std::vector<T> cv(3, good);
        ivars[0] = good;
        ivars[1] = T(0);
        ivars[2] = T(0);
        shmem_barrier_all();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));  // let the right neighbour start waiting
        Row::atomic_set(&ivars[1], good, right());
        shmem_quiet();
        switch (phase / 2) {
            case 0: {
                const int st[3] = {1, 0, 0};
                const std::size_t r = vec ? Row::wait_any_v(ivars, 3, st, SHMEM_CMP_EQ, cv.data())
                                          : Row::wait_any(ivars, 3, st, SHMEM_CMP_EQ, good);
                EXPECT_EQ(r, 1u) << "wait_until_any" << (vec ? "_vector" : "")
                                 << " with the satisfied entry 0 excluded";
                break;
            }
            case 1: {
                const int st[3] = {1, 0, 0};
                std::size_t idx[3] = {SIZE_MAX, SIZE_MAX, SIZE_MAX};
                const std::size_t cnt = vec ? Row::wait_some_v(ivars, 3, idx, st, SHMEM_CMP_EQ, cv.data())
                                            : Row::wait_some(ivars, 3, idx, st, SHMEM_CMP_EQ, good);
                EXPECT_EQ(cnt, 1u) << "wait_until_some" << (vec ? "_vector" : "") << " with entry 0 excluded";
                EXPECT_EQ(idx[0], 1u) << "wait_until_some" << (vec ? "_vector" : "") << " with entry 0 excluded";
                break;
            }
            default: {
                const int st[3] = {1, 0, 1};
                if (vec)
                    Row::wait_all_v(ivars, 3, st, SHMEM_CMP_EQ, cv.data());
                else
                    Row::wait_all(ivars, 3, st, SHMEM_CMP_EQ, good);
                EXPECT_EQ(ivars[1], good)
                    << "wait_until_all" << (vec ? "_vector" : "") << " returned before the included entry was written";
                break;
            }
        }
        // Whatever happened, the update is awaited before the next phase.
        Row::wait_all(&ivars[1], 1, nullptr, SHMEM_CMP_EQ, good);
        EXPECT_EQ(ivars[2], T(0));
        shmem_barrier_all();
    }
}

// §9.11.3, §9.11.10: "a series of calls to shmem_test_any must eventually
// return i" for every satisfied i (and the same for wait_until_any and the
// _vector forms).
//  - Local: every entry satisfied, nothing masked: kN calls return every
//    index (each form, twice round).
//  - The pattern of the spec's Example 43 (a linear barrier over test_any)
//    without the status mask: every PE sets its flag on every PE, and each
//    PE calls test_any (then wait_until_any), once every flag is set, until
//    it has seen every PE's index.  Returning the lowest satisfied index every time never ends.
template <class Row>
void fair_test(typename Row::T* ivars, typename Row::T* flags) {
    using T = typename Row::T;
    const T one = T(1);
    const std::vector<T> ones(std::max<std::size_t>(kN, std::size_t(npes())), one);
    for (std::size_t i = 0; i < kN; ++i) ivars[i] = one;
    const char* names[4] = {"test_any", "test_any_vector", "wait_until_any", "wait_until_any_vector"};
    for (int form = 0; form < 4; ++form) {
        for (int round = 0; round < 2; ++round) {
            std::set<std::size_t> got;
            for (std::size_t k = 0; k < kN; ++k) {
                const std::size_t r = form == 0   ? Row::test_any(ivars, kN, nullptr, SHMEM_CMP_EQ, one)
                                      : form == 1 ? Row::test_any_v(ivars, kN, nullptr, SHMEM_CMP_EQ, ones.data())
                                      : form == 2 ? Row::wait_any(ivars, kN, nullptr, SHMEM_CMP_EQ, one)
                                                  : Row::wait_any_v(ivars, kN, nullptr, SHMEM_CMP_EQ, ones.data());
                got.insert(r);
            }
            EXPECT_EQ(got.size(), kN) << names[form] << ": " << kN << " calls with all " << kN
                                      << " entries satisfied returned only " << show_set(got);
        }
    }

    const std::size_t n = std::size_t(npes());
    for (std::size_t i = 0; i < n; ++i) flags[i] = T(0);
    shmem_barrier_all();
    for (int pe = 0; pe < npes(); ++pe) Row::atomic_set(&flags[me()], one, pe);
    shmem_barrier_all();  // every flag is set: from here on a fair loop ends within n calls
    for (int form = 0; form < 2; ++form) {
        std::set<std::size_t> seen;
        const std::size_t limit = 1000 * n;
        std::size_t calls = 0;
        const auto deadline = std::chrono::steady_clock::now() + kTestLoopLimit;
        while (seen.size() < n && calls < limit && std::chrono::steady_clock::now() < deadline) {
            const std::size_t r = form == 0 ? Row::test_any(flags, n, nullptr, SHMEM_CMP_EQ, one)
                                            : Row::wait_any(flags, n, nullptr, SHMEM_CMP_EQ, one);
            if (r != SIZE_MAX) {
                seen.insert(r);
                ++calls;
            }
        }
        EXPECT_EQ(seen.size(), n) << names[2 * form] << " in Example 43's loop without the mask: " << calls
                                  << " calls returned only " << show_set(seen);
    }
    shmem_barrier_all();
}

template <class Row>
class SyncSet : public ::testing::Test {};
TYPED_TEST_SUITE(SyncSet, SetRows, RowName);

TYPED_TEST(SyncSet, LocalReturnValuesGlobal) { local_test<TypeParam>(TypeParam::global_ivars); }

TYPED_TEST(SyncSet, LocalReturnValuesHeap) {
    using T = typename TypeParam::T;
    T* ivars = static_cast<T*>(shmem_malloc(kN * sizeof(T)));
    if (!all_pes(ivars != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(ivars);
        return;
    }
    local_test<TypeParam>(ivars);
    shmem_free(ivars);
}

TYPED_TEST(SyncSet, RemoteUpdatesGlobal) {
    if (!all_pes(npes() <= int(kMaxPes))) GTEST_SKIP() << "more than " << kMaxPes << " PEs";
    remote_test<TypeParam>(TypeParam::global_ivars);
}

TYPED_TEST(SyncSet, RemoteUpdatesHeap) {
    using T = typename TypeParam::T;
    T* ivars = static_cast<T*>(shmem_malloc(std::size_t(npes()) * sizeof(T)));
    if (!all_pes(ivars != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(ivars);
        return;
    }
    remote_test<TypeParam>(ivars);
    shmem_free(ivars);
}

TYPED_TEST(SyncSet, AnyIsFair) {
    using T = typename TypeParam::T;
    T* ivars = static_cast<T*>(shmem_malloc(kN * sizeof(T)));
    T* flags = static_cast<T*>(shmem_malloc(std::size_t(npes()) * sizeof(T)));
    if (!all_pes(ivars != nullptr && flags != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
    } else {
        fair_test<TypeParam>(ivars, flags);
    }
    shmem_free(flags);
    shmem_free(ivars);
}

TYPED_TEST(SyncSet, ExcludedSatisfiedEntryIgnored) {
    using T = typename TypeParam::T;
    T* ivars = static_cast<T*>(shmem_malloc(3 * sizeof(T)));
    if (!all_pes(ivars != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(ivars);
        return;
    }
    excluded_test<TypeParam>(ivars);
    excluded_test<TypeParam>(TypeParam::global_ivars);
    shmem_free(ivars);
}

}  // namespace
