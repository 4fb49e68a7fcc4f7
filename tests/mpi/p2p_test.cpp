// tests/mpi/p2p_test.cpp -- §9.11 shmem_TYPENAME_wait_until and
// shmem_TYPENAME_test for every point-to-point synchronization type and every
// SHMEM_CMP_* value, on global and heap variables: test returns 0 before and
// 1 after a remote update; wait_until returns only once the condition holds
// (an intermediate update that does not satisfy it must not release it).
//
// The per-type list comes from GASKET_P2P_SYNC_TYPES.
#include <chrono>
#include <thread>

#include "shmem_test.hpp"

namespace {

using namespace gasket_test;

// One comparison: the variable starts at `init` (condition false), the
// neighbour writes `mid` (still false), then, after a fence, `last` (true).
struct CmpCase {
    int cmp;
    const char* name;
    int init, value, mid, last;
};
constexpr CmpCase kCases[] = {
    {SHMEM_CMP_EQ, "SHMEM_CMP_EQ", 0, 5, 3, 5}, {SHMEM_CMP_NE, "SHMEM_CMP_NE", 5, 5, 5, 6},
    {SHMEM_CMP_GT, "SHMEM_CMP_GT", 5, 5, 4, 6}, {SHMEM_CMP_GE, "SHMEM_CMP_GE", 4, 5, 3, 5},
    {SHMEM_CMP_LT, "SHMEM_CMP_LT", 5, 5, 6, 4}, {SHMEM_CMP_LE, "SHMEM_CMP_LE", 6, 5, 7, 5},
};
constexpr std::size_t kNumCases = std::size(kCases);

// A test() loop gives up after this long (then falls back to wait_until so
// every PE stays in step) and reports that test never saw the update.
constexpr auto kTestLoopLimit = std::chrono::seconds(30);

template <class Row>
void p2p_round(typename Row::T* ivars, bool use_test_loop) {
    using T = typename Row::T;
    for (std::size_t c = 0; c < kNumCases; ++c) ivars[c] = T(kCases[c].init);
    shmem_barrier_all();
    for (std::size_t c = 0; c < kNumCases; ++c) {
        const CmpCase& k = kCases[c];
        EXPECT_EQ(Row::test(&ivars[c], k.cmp, T(k.value)), 0)
            << Row::kTest << "(" << k.name << ", " << k.value << ") with the variable at " << k.init;
    }
    shmem_barrier_all();  // nobody updates before everyone tested "before"

    for (std::size_t c = 0; c < kNumCases; ++c) Row::p(&ivars[c], T(kCases[c].mid), right());
    shmem_fence();
    if (!use_test_loop) std::this_thread::sleep_for(std::chrono::milliseconds(2));  // let the waiter block first
    for (std::size_t c = 0; c < kNumCases; ++c) Row::p(&ivars[c], T(kCases[c].last), right());
    shmem_quiet();

    for (std::size_t c = 0; c < kNumCases; ++c) {
        const CmpCase& k = kCases[c];
        if (use_test_loop) {
            const auto deadline = std::chrono::steady_clock::now() + kTestLoopLimit;
            int r = 0;
            while ((r = Row::test(&ivars[c], k.cmp, T(k.value))) == 0 && std::chrono::steady_clock::now() < deadline) {}
            EXPECT_EQ(r, 1) << Row::kTest << "(" << k.name << ", " << k.value << ") still 0 after "
                            << kTestLoopLimit.count() << " s of polling; the variable holds " << show(ivars[c])
                            << " (PE " << left() << " wrote " << k.last << ")";
            if (r == 0) Row::wait_until(&ivars[c], k.cmp, T(k.value));
        } else {
            Row::wait_until(&ivars[c], k.cmp, T(k.value));
        }
        EXPECT_EQ(ivars[c], T(k.last)) << (use_test_loop ? Row::kTest : Row::kWait) << "(" << k.name << ", " << k.value
                                       << ") returned before the satisfying update";
        EXPECT_EQ(Row::test(&ivars[c], k.cmp, T(k.value)), 1)
            << Row::kTest << "(" << k.name << ", " << k.value << ") after the update";
    }
    shmem_barrier_all();
}

#define GASKET_TEST_P2P_ROW(TYPE, NAME)                                                            \
    struct P2p_##NAME {                                                                            \
        using T = TYPE;                                                                            \
        static constexpr const char* kName = #NAME;                                                \
        static constexpr const char* kWait = "shmem_" #NAME "_wait_until";                         \
        static constexpr const char* kTest = "shmem_" #NAME "_test";                               \
        static TYPE global_ivars[kNumCases];                                                       \
        static void wait_until(TYPE* v, int cmp, TYPE x) { shmem_##NAME##_wait_until(v, cmp, x); } \
        static int test(TYPE* v, int cmp, TYPE x) { return shmem_##NAME##_test(v, cmp, x); }       \
        static void p(TYPE* v, TYPE x, int pe) { shmem_##NAME##_p(v, x, pe); }                     \
    };                                                                                             \
    TYPE P2p_##NAME::global_ivars[kNumCases];
GASKET_P2P_SYNC_TYPES(GASKET_TEST_P2P_ROW)
#undef GASKET_TEST_P2P_ROW

#define GASKET_TEST_ROW_NAME(TYPE, NAME) , P2p_##NAME
using P2pRows = DropFirst<void GASKET_P2P_SYNC_TYPES(GASKET_TEST_ROW_NAME)>::type;
#undef GASKET_TEST_ROW_NAME

static_assert(0 GASKET_P2P_SYNC_TYPES(GASKET_TEST_COUNT) == 14, "Table 6 (12 rows) + short, ushort");

template <class Row>
class P2p : public ::testing::Test {};
TYPED_TEST_SUITE(P2p, P2pRows, RowName);

TYPED_TEST(P2p, WaitUntilAndTestGlobal) {
    p2p_round<TypeParam>(TypeParam::global_ivars, false);
    p2p_round<TypeParam>(TypeParam::global_ivars, true);
}

TYPED_TEST(P2p, WaitUntilAndTestHeap) {
    using T = typename TypeParam::T;
    T* ivars = static_cast<T*>(shmem_malloc(kNumCases * sizeof(T)));
    if (!all_pes(ivars != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(ivars);
        return;
    }
    p2p_round<TypeParam>(ivars, false);
    p2p_round<TypeParam>(ivars, true);
    shmem_free(ivars);
}

// Many waiters on one PE: every PE sends to PE 0, which waits for each slot
// in turn (updates arrive in any order).
TEST(P2pMisc, ManySendersOneWaiter) {
    const int n = npes();
    long* slots = static_cast<long*>(shmem_calloc(std::size_t(n), sizeof(long)));
    if (!all_pes(slots != nullptr)) {
        ADD_FAILURE() << "shmem_calloc returned NULL";
        shmem_free(slots);
        return;
    }
    for (int round = 1; round <= 10; ++round) {
        shmem_long_p(&slots[me()], round, 0);
        if (me() == 0)
            for (int pe = n - 1; pe >= 0; --pe) {
                shmem_long_wait_until(&slots[pe], SHMEM_CMP_GE, round);
                EXPECT_EQ(slots[pe], round) << "slot of PE " << pe;
            }
        shmem_barrier_all();
    }
    shmem_free(slots);
}

}  // namespace
