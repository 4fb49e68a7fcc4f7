// tests/mpi/gex/gex_ad_test.cpp -- GASNet-EX remote atomics
// (gasnet_ratomic.h; gasnet-ex-api.txt "Atomic Domains", "Remote Atomic
// Operations"): every data type x every operation against a serial
// reference, NB and NBI, on this process and its neighbour (so both the
// mapped and the Active Message path run); atomicity under contention from
// every process (each fetched value seen exactly once, a compare-and-swap
// retry loop that loses no increment); access regions; the domain queries.
//
// Region: [kRegion, +64 KiB) of every segment, cleared again by each test.
#include <gasnet_ratomic.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <numeric>
#include <thread>
#include <type_traits>
#include <vector>

#include "gex_test.hpp"

using gex_test::barrier;
using gex_test::g_job;

namespace {

constexpr std::size_t kRegion = std::size_t(3) << 20;
constexpr std::size_t kRegionBytes = 64 << 10;

// Where byte `offset` of the region is on rank r (its owner's address).
char* remote(gex_Rank_t r, std::size_t offset) {
    void* owner = nullptr;
    gex_Event_Wait(gex_EP_QueryBoundSegmentNB(g_job.tm, r, &owner, nullptr, nullptr, 0));
    return static_cast<char*>(owner) + kRegion + offset;
}

void clear_region() {
    barrier();
    std::memset(g_job.base + kRegion, 0, kRegionBytes);
    barrier();
}

// The typed entry points, chosen by T.
template <class T>
struct Ops;
#define GEX_AD_TEST_OPS(DT, TYPE)                                                                                 \
    template <>                                                                                                   \
    struct Ops<TYPE> {                                                                                            \
        static constexpr gex_DT_t dt = GEX_DT_##DT;                                                               \
        static gex_Event_t nb(gex_AD_t ad, TYPE* r, gex_Rank_t k, void* a, gex_OP_t op, TYPE x, TYPE y,           \
                              gex_Flags_t f) {                                                                    \
            return gex_AD_OpNB_##DT(ad, r, k, a, op, x, y, f);                                                    \
        }                                                                                                         \
        static int nbi(gex_AD_t ad, TYPE* r, gex_Rank_t k, void* a, gex_OP_t op, TYPE x, TYPE y, gex_Flags_t f) { \
            return gex_AD_OpNBI_##DT(ad, r, k, a, op, x, y, f);                                                   \
        }                                                                                                         \
    };
GEX_AD_TEST_OPS(I32, int32_t)
GEX_AD_TEST_OPS(U32, uint32_t)
GEX_AD_TEST_OPS(I64, int64_t)
GEX_AD_TEST_OPS(U64, uint64_t)
GEX_AD_TEST_OPS(FLT, float)
GEX_AD_TEST_OPS(DBL, double)
#undef GEX_AD_TEST_OPS

// The serial reference: the specification's expression for `op` (its
// non-fetching twin), evaluated as C does (integers wrap as unsigned).
// The type a reference computes in: T itself for floating point, the
// unsigned twin for integers.
template <class T, bool = std::is_floating_point_v<T>>
struct Wide {
    using type = T;
};
template <class T>
struct Wide<T, false> {
    using type = std::make_unsigned_t<T>;
};

template <class T>
T reference(gex_OP_t op, T op0, T op1, T op2) {
    using W = typename Wide<T>::type;
    const W a = W(op0), b = W(op1);  // unsigned: wraps where C's signed arithmetic would overflow
    switch (op) {
        case GEX_OP_ADD:
        case GEX_OP_FADD: return T(W(a + b));
        case GEX_OP_SUB:
        case GEX_OP_FSUB: return T(W(a - b));
        case GEX_OP_MULT:
        case GEX_OP_FMULT: return T(W(a * b));
        case GEX_OP_MIN:
        case GEX_OP_FMIN: return op0 < op1 ? op0 : op1;
        case GEX_OP_MAX:
        case GEX_OP_FMAX: return op0 > op1 ? op0 : op1;
        case GEX_OP_INC:
        case GEX_OP_FINC: return T(W(a + W(1)));
        case GEX_OP_DEC:
        case GEX_OP_FDEC: return T(W(a - W(1)));
        case GEX_OP_SET:
        case GEX_OP_SWAP: return op1;
        case GEX_OP_CAS:
        case GEX_OP_FCAS: return op0 == op1 ? op2 : op0;
        case GEX_OP_GET: return op0;
        default: break;
    }
    if constexpr (!std::is_floating_point_v<T>) {
        switch (op) {
            case GEX_OP_AND:
            case GEX_OP_FAND: return T(a & b);
            case GEX_OP_OR:
            case GEX_OP_FOR: return T(a | b);
            case GEX_OP_XOR:
            case GEX_OP_FXOR: return T(a ^ b);
            default: break;
        }
    }
    ADD_FAILURE() << "no reference for op 0x" << std::hex << op;
    return op0;
}

constexpr gex_OP_t kFetching = GEX_OP_FADD | GEX_OP_FSUB | GEX_OP_FMULT | GEX_OP_FMIN | GEX_OP_FMAX | GEX_OP_FINC |
                               GEX_OP_FDEC | GEX_OP_FAND | GEX_OP_FOR | GEX_OP_FXOR | GEX_OP_SWAP | GEX_OP_FCAS |
                               GEX_OP_GET;

// The atomic operations on T (every bit the specification allows).
template <class T>
gex_OP_t all_ops() {
    gex_OP_t ops = 0;
    for (unsigned b = 0; b <= 24; ++b) ops |= gex_OP_t(1) << b;  // GEX_OP_ADD .. GEX_OP_GET
    if (std::is_floating_point_v<T>)
        ops &= ~(GEX_OP_AND | GEX_OP_FAND | GEX_OP_OR | GEX_OP_FOR | GEX_OP_XOR | GEX_OP_FXOR);
    return ops;
}

// Start values and operands that exercise each type: negative ones for
// signed and floating types (min/max must compare as the type does), large
// ones for unsigned (above the signed range), wrap-around for integers.
template <class T>
std::vector<T> samples() {
    if constexpr (std::is_floating_point_v<T>) return {T(3.5), T(-2.25), T(0), T(1e6), T(-7)};
    if constexpr (std::is_signed_v<T>)
        return {T(5), T(-3), T(0), std::numeric_limits<T>::max(), std::numeric_limits<T>::min() + T(1)};
    return {T(5), T(3), T(0), std::numeric_limits<T>::max(), T(std::numeric_limits<T>::max() / 2 + 7)};
}

template <class T>
bool same(T a, T b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0 || a == b;
}

// Every op on T from every start value with two operands, on a slot of this
// process and of its right neighbour (slot `me`, so no two processes touch
// one slot): SET the start value, apply the op (NB or NBI), GET the result;
// compare with the reference.
template <class T>
void serial_reference(bool nbi) {
    gex_AD_t ad = GEX_AD_INVALID;
    gex_AD_Create(&ad, g_job.tm, Ops<T>::dt, all_ops<T>(), 0);
    ASSERT_NE(ad, GEX_AD_INVALID);
    const std::vector<T> s = samples<T>();
    std::size_t checked = 0;
    // This process (a mapped target) and its right neighbour (mapped with the
    // fast path on, through an Active Message with it off).
    for (gex_Rank_t r : {g_job.me, (g_job.me + 1) % g_job.n}) {
        T* slot = reinterpret_cast<T*>(remote(r, g_job.me * 8));
        for (unsigned b = 0; b <= 24; ++b) {
            const gex_OP_t op = gex_OP_t(1) << b;
            if (!(op & all_ops<T>())) continue;
            for (T start : s)
                for (T x : {s[1], s[3]}) {  // a negative (signed, floating) or small operand; a large one
                    const T y = reference<T>(GEX_OP_INC, x, T(0), T(0));  // CAS: the value stored
                    T got = T(0), old = T(0), after = T(0);
                    gex_Event_Wait(Ops<T>::nb(ad, nullptr, r, slot, GEX_OP_SET, start, T(0), 0));
                    // CAS compares against `x`; also against the start value itself
                    const T cmp = (op & (GEX_OP_CAS | GEX_OP_FCAS)) && x == s[1] ? start : x;
                    if (nbi) {
                        EXPECT_EQ(Ops<T>::nbi(ad, &got, r, slot, op, cmp, y, 0), 0);
                        gex_NBI_Wait(GEX_EC_ALL, 0);
                    } else {
                        gex_Event_Wait(Ops<T>::nb(ad, &got, r, slot, op, cmp, y, 0));
                    }
                    gex_Event_Wait(Ops<T>::nb(ad, &after, r, slot, GEX_OP_GET, T(0), T(0), 0));
                    old = start;
                    const T want = reference<T>(op, start, cmp, y);
                    EXPECT_TRUE(same(after, want))
                        << "rank " << r << " op 0x" << std::hex << op << std::dec << " start " << +start << " op1 "
                        << +cmp << ": got " << +after << ", want " << +want << (nbi ? " (NBI)" : " (NB)");
                    if (op & kFetching) {
                        EXPECT_TRUE(same(got, old)) << "rank " << r << " op 0x" << std::hex << op << std::dec
                                                    << " fetched " << +got << ", want " << +old;
                    }
                    ++checked;
                }
        }
    }
    EXPECT_GT(checked, 0u);
    barrier();
    gex_AD_Destroy(ad);
    clear_region();
}

TEST(GexAd, SerialReferenceNB) {
    serial_reference<int32_t>(false);
    serial_reference<uint32_t>(false);
    serial_reference<int64_t>(false);
    serial_reference<uint64_t>(false);
    serial_reference<float>(false);
    serial_reference<double>(false);
}

TEST(GexAd, SerialReferenceNBI) {
    serial_reference<int32_t>(true);
    serial_reference<uint32_t>(true);
    serial_reference<int64_t>(true);
    serial_reference<uint64_t>(true);
    serial_reference<float>(true);
    serial_reference<double>(true);
}

// Every process fetch-adds 1 to one counter on every rank, K times each
// (NB, NBI and the non-fetching INC in turn): each rank's counter ends at
// 3 * n * K, and the fetched values, gathered over the job, are each of
// 0 .. 2nK-1 exactly once.
TEST(GexAd, ContendedFetchAdd) {
    constexpr int K = 200;
    gex_AD_t ad = GEX_AD_INVALID;
    gex_AD_Create(&ad, g_job.tm, GEX_DT_U64, GEX_OP_FADD | GEX_OP_INC | GEX_OP_GET, GEX_FLAG_AD_FAVOR_REMOTE);
    for (gex_Rank_t r = 0; r < g_job.n; ++r) {
        std::vector<uint64_t> fetched(2 * K);
        uint64_t* counter = reinterpret_cast<uint64_t*>(remote(r, 0));
        for (int i = 0; i < K; ++i) {
            gex_Event_Wait(gex_AD_OpNB_U64(ad, &fetched[i], r, counter, GEX_OP_FADD, 1, 0, 0));
            gex_AD_OpNBI_U64(ad, &fetched[K + i], r, counter, GEX_OP_FADD, 1, 0, 0);
            gex_AD_OpNBI_U64(ad, nullptr, r, counter, GEX_OP_INC, 0, 0, 0);
        }
        gex_NBI_Wait(GEX_EC_RMW, 0);
        barrier();  // every process's operations done before any blocks in MPI (which serves no AM)
        std::vector<uint64_t> all(std::size_t(2 * K) * g_job.n);
        MPI_Allgather(fetched.data(), 2 * K, MPI_UINT64_T, all.data(), 2 * K, MPI_UINT64_T, MPI_COMM_WORLD);
        std::sort(all.begin(), all.end());
        std::size_t misplaced = 0;
        for (std::size_t i = 0; i < all.size(); ++i) misplaced += all[i] > i + std::size_t(K) * g_job.n;
        // With the INCs interleaved the fetched values are not dense; each is distinct.
        EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end()) << "rank " << r << ": a value fetched twice";
        EXPECT_EQ(misplaced, 0u);
        barrier();
        uint64_t final_value = 0;
        gex_Event_Wait(gex_AD_OpNB_U64(ad, &final_value, r, counter, GEX_OP_GET, 0, 0, 0));
        EXPECT_EQ(final_value, uint64_t(3) * K * g_job.n) << "rank " << r;
        barrier();
    }
    gex_AD_Destroy(ad);
    clear_region();
}

// A compare-and-swap retry loop from every process on one I32 per rank:
// no increment is lost.  Then MIN and MAX from every process on FLT/I64:
// the extremes of every process's operands.
TEST(GexAd, ContendedCasMinMax) {
    constexpr int K = 100;
    gex_AD_t cas = GEX_AD_INVALID, fmin = GEX_AD_INVALID, imax = GEX_AD_INVALID;
    gex_AD_Create(&cas, g_job.tm, GEX_DT_I32, GEX_OP_FCAS | GEX_OP_GET, 0);
    gex_AD_Create(&fmin, g_job.tm, GEX_DT_FLT, GEX_OP_MIN | GEX_OP_SET | GEX_OP_GET, 0);
    gex_AD_Create(&imax, g_job.tm, GEX_DT_I64, GEX_OP_FMAX | GEX_OP_SET | GEX_OP_GET, 0);
    float* fslot = reinterpret_cast<float*>(remote(g_job.me, 64));
    int64_t* islot = reinterpret_cast<int64_t*>(remote(g_job.me, 72));
    gex_Event_Wait(gex_AD_OpNB_FLT(fmin, nullptr, g_job.me, fslot, GEX_OP_SET, 1e9f, 0, 0));
    gex_Event_Wait(gex_AD_OpNB_I64(imax, nullptr, g_job.me, islot, GEX_OP_SET, INT64_MIN, 0, 0));
    barrier();
    for (gex_Rank_t r = 0; r < g_job.n; ++r) {
        int32_t* counter = reinterpret_cast<int32_t*>(remote(r, 32));
        for (int i = 0; i < K; ++i) {
            int32_t seen = 0, old = 0;
            gex_Event_Wait(gex_AD_OpNB_I32(cas, &seen, r, counter, GEX_OP_GET, 0, 0, 0));
            for (;;) {
                gex_Event_Wait(gex_AD_OpNB_I32(cas, &old, r, counter, GEX_OP_FCAS, seen, seen + 1, 0));
                if (old == seen) break;
                seen = old;
            }
        }
        gex_AD_OpNBI_FLT(fmin, nullptr, r, remote(r, 64), GEX_OP_MIN, -1.5f * float(g_job.me + 1), 0, 0);
        int64_t prev = 0;
        gex_AD_OpNBI_I64(imax, &prev, r, remote(r, 72), GEX_OP_FMAX, -1000 + int64_t(g_job.me), 0,
                         GEX_FLAG_AD_ACQ | GEX_FLAG_AD_REL | GEX_FLAG_IMMEDIATE);
        gex_NBI_Wait(GEX_EC_ALL, 0);
        EXPECT_LE(prev, -1000 + int64_t(g_job.n) - 1);
    }
    barrier();
    int32_t total = 0;
    gex_Event_Wait(gex_AD_OpNB_I32(cas, &total, g_job.me, remote(g_job.me, 32), GEX_OP_GET, 0, 0, GEX_FLAG_AD_MY_RANK));
    EXPECT_EQ(total, K * int32_t(g_job.n));
    float lowest = 0;
    gex_Event_Wait(gex_AD_OpNB_FLT(fmin, &lowest, g_job.me, fslot, GEX_OP_GET, 0, 0, GEX_FLAG_RANK_IS_JOBRANK));
    EXPECT_EQ(lowest, -1.5f * float(g_job.n));
    int64_t highest = 0;
    gex_Event_Wait(gex_AD_OpNB_I64(imax, &highest, g_job.me, islot, GEX_OP_GET, 0, 0, GEX_FLAG_AD_MY_NBRHD));
    EXPECT_EQ(highest, -1000 + int64_t(g_job.n) - 1);
    barrier();
    gex_AD_Destroy(cas);
    gex_AD_Destroy(fmin);
    gex_AD_Destroy(imax);
    clear_region();
}

// NBI atomics inside an access region complete with the region's event;
// NB events from AMOs and from puts wait together (gex_Event_WaitAll).
TEST(GexAd, AccessRegionAndEventArrays) {
    gex_AD_t ad = GEX_AD_INVALID;
    gex_AD_Create(&ad, g_job.tm, GEX_DT_DBL, GEX_OP_FADD | GEX_OP_GET, 0);
    const gex_Rank_t right = (g_job.me + 1) % g_job.n;
    double* slot = reinterpret_cast<double*>(remote(right, 128));
    std::vector<double> fetched(16, -1.0);
    gex_NBI_BeginAccessRegion(0);
    for (int i = 0; i < 8; ++i) gex_AD_OpNBI_DBL(ad, &fetched[i], right, slot, GEX_OP_FADD, 0.5, 0, 0);
    gex_Event_t region = gex_NBI_EndAccessRegion(0);
    gex_Event_Wait(region);
    std::vector<gex_Event_t> events;
    const uint64_t word = 0x0123456789abcdefull;
    for (int i = 8; i < 16; ++i) {
        events.push_back(gex_AD_OpNB_DBL(ad, &fetched[i], right, slot, GEX_OP_FADD, 0.5, 0, 0));
        events.push_back(gex_RMA_PutNB(g_job.tm, right, remote(right, 256 + 8 * i), &word, 8, GEX_EVENT_NOW, 0));
    }
    gex_Event_WaitAll(events.data(), events.size(), 0);
    std::vector<double> sorted = fetched;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < 16; ++i) EXPECT_EQ(sorted[i], 0.5 * i) << "fetch " << i;  // only this process adds here
    barrier();
    double sum = 0;
    gex_Event_Wait(gex_AD_OpNB_DBL(ad, &sum, g_job.me, remote(g_job.me, 128), GEX_OP_GET, 0, 0, 0));
    EXPECT_EQ(sum, 8.0);
    for (int i = 8; i < 16; ++i) {
        uint64_t got = 0;
        std::memcpy(&got, g_job.base + kRegion + 256 + 8 * i, 8);
        EXPECT_EQ(got, word) << "put " << i;
    }
    barrier();
    gex_AD_Destroy(ad);
    clear_region();
}

// The try forms never wait for a remote atomic's reply (gasnet-ex-api.txt,
// "_Test: no Poll call is made"; GASNet 1.8 §3.3.3: a try "always returns
// immediately"): rank 0's atomics to rank 1 while rank 1 sleeps without
// entering GASNet.  Where they travel as Active Messages and no process has
// a progress thread (gex_progress_off.np2.mpi), every try that covers them
// says GASNET_ERR_NOT_READY: the replies can only be delivered by a poll,
// and rank 1 serves the requests only when it wakes.  Elsewhere a try may
// say either.  Then the waits complete everything, with every old value
// fetched once, and a try loop that polls ends.
TEST(GexAd, TryFormsNeverWaitForTheTarget) {
    if (g_job.n < 2) GTEST_SKIP() << "needs a second process";
    gex_AD_t ad = GEX_AD_INVALID;
    gex_AD_Create(&ad, g_job.tm, GEX_DT_U64, GEX_OP_FADD, 0);
    uint64_t* counter = reinterpret_cast<uint64_t*>(remote(1, 512));
    const bool no_progress_thread = gex_System_QueryHiddenAMConcurrencyLevel() == 0;
    constexpr int kOps = 6;
    uint64_t fetched[kOps];
    std::fill(fetched, fetched + kOps, ~uint64_t(0));
    barrier();
    if (g_job.me == 1) {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));  // no GASNet call
    } else if (g_job.me == 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));  // rank 1 is asleep
        gex_Event_t one = gex_AD_OpNB_U64(ad, &fetched[0], 1, counter, GEX_OP_FADD, 1, 0, 0);
        const bool strict = one != GEX_EVENT_INVALID && no_progress_thread;  // INVALID: done by load/store
        const int test_one = gex_Event_Test(one);
        gex_Event_t pair[2] = {gex_AD_OpNB_U64(ad, &fetched[1], 1, counter, GEX_OP_FADD, 1, 0, 0), GEX_EVENT_INVALID};
        const int test_all = gex_Event_TestAll(pair, 2, 0);
        const int test_some = gex_Event_TestSome(pair, 2, 0);
        gex_Event_t gasnet1 = gex_AD_OpNB_U64(ad, &fetched[2], 1, counter, GEX_OP_FADD, 1, 0, 0);
        const int try_one = gasnet_try_syncnb(gasnet1);
        gex_AD_OpNBI_U64(ad, &fetched[3], 1, counter, GEX_OP_FADD, 1, 0, 0);
        const int nbi_rmw = gex_NBI_Test(GEX_EC_RMW, 0);
        const int nbi_all = gasnet_try_syncnbi_all();
        const int nbi_puts = gasnet_try_syncnbi_puts();  // atomics are not puts
        gex_NBI_BeginAccessRegion(0);
        gex_AD_OpNBI_U64(ad, &fetched[4], 1, counter, GEX_OP_FADD, 1, 0, 0);
        gex_Event_t region = gex_NBI_EndAccessRegion(0);
        const int test_region = gex_Event_Test(region);
        if (strict) {
            EXPECT_EQ(test_one, GASNET_ERR_NOT_READY) << "gex_Event_Test";
            EXPECT_EQ(test_all, GASNET_ERR_NOT_READY) << "gex_Event_TestAll";
            EXPECT_EQ(test_some, GASNET_ERR_NOT_READY) << "gex_Event_TestSome";
            EXPECT_NE(pair[0], GEX_EVENT_INVALID) << "an event not complete stays valid";
            EXPECT_EQ(try_one, GASNET_ERR_NOT_READY) << "gasnet_try_syncnb";
            EXPECT_EQ(nbi_rmw, GASNET_ERR_NOT_READY) << "gex_NBI_Test(GEX_EC_RMW)";
            EXPECT_EQ(nbi_all, GASNET_ERR_NOT_READY) << "gasnet_try_syncnbi_all";
            EXPECT_EQ(test_region, GASNET_ERR_NOT_READY) << "gex_Event_Test of an access region";
        }
        EXPECT_EQ(nbi_puts, GASNET_OK) << "gasnet_try_syncnbi_puts";
        if (test_one != GASNET_OK) gex_Event_Wait(one);
        gex_Event_WaitAll(pair, 2, 0);
        if (try_one != GASNET_OK) gasnet_wait_syncnb(gasnet1);
        if (test_region != GASNET_OK) gex_Event_Wait(region);
        gex_NBI_Wait(GEX_EC_ALL, 0);
        // With the replies in, a try says GASNET_OK; one that polls sees it.
        gex_Event_t last = gex_AD_OpNB_U64(ad, &fetched[5], 1, counter, GEX_OP_FADD, 1, 0, 0);
        while (gex_Event_Test(last) != GASNET_OK) gasnet_AMPoll();
        EXPECT_EQ(gex_NBI_Test(GEX_EC_ALL, 0), GASNET_OK);
        std::vector<uint64_t> sorted(fetched, fetched + kOps);
        std::sort(sorted.begin(), sorted.end());
        for (int i = 0; i < kOps; ++i) EXPECT_EQ(sorted[std::size_t(i)], uint64_t(i)) << "old value " << i;
    }
    barrier();
    if (g_job.me == 1) {
        uint64_t now = 0;
        std::memcpy(&now, g_job.base + kRegion + 512, 8);
        EXPECT_EQ(now, uint64_t(kOps)) << "rank 1's counter";
    }
    barrier();
    gex_AD_Destroy(ad);
    clear_region();
}

TEST(GexAd, QueriesAndClientData) {
    gex_AD_t a = GEX_AD_INVALID, b = GEX_AD_INVALID;
    gex_AD_Create(&a, g_job.tm, GEX_DT_U32, GEX_OP_AND | GEX_OP_FXOR, GEX_FLAG_AD_FAVOR_MY_NBRHD);
    gex_AD_Create(&b, g_job.tm, GEX_DT_FLT, GEX_OP_FMULT, 0);
    EXPECT_NE(a, b);
    EXPECT_EQ(gex_AD_QueryTM(a), g_job.tm);
    EXPECT_EQ(gex_AD_QueryDT(a), GEX_DT_U32);
    EXPECT_EQ(gex_AD_QueryOps(a), GEX_OP_AND | GEX_OP_FXOR);
    EXPECT_EQ(gex_AD_QueryFlags(a), GEX_FLAG_AD_FAVOR_MY_NBRHD);
    EXPECT_EQ(gex_AD_QueryDT(b), GEX_DT_FLT);
    EXPECT_EQ(gex_AD_QueryOps(b), GEX_OP_FMULT);
    EXPECT_EQ(gex_AD_QueryFlags(b), 0u);
    EXPECT_EQ(gex_AD_QueryCData(a), nullptr);
    int mark = 0;
    gex_AD_SetCData(a, &mark);
    EXPECT_EQ(gex_AD_QueryCData(a), &mark);
    EXPECT_EQ(gex_AD_QueryCData(b), nullptr);
    EXPECT_EQ(GEX_OP_TO_FETCHING(GEX_OP_SET), GEX_OP_SWAP);
    EXPECT_EQ(GEX_OP_TO_NONFETCHING(GEX_OP_FCAS), GEX_OP_CAS);
    EXPECT_EQ(GEX_OP_TO_FETCHING(GEX_OP_XOR), GEX_OP_FXOR);
    gex_AD_Destroy(a);
    gex_AD_Destroy(b);
    // A destroyed domain's slot is reused; the new domain has fresh client data.
    gex_AD_t c = GEX_AD_INVALID;
    gex_AD_Create(&c, g_job.tm, GEX_DT_I64, GEX_OP_ADD, 0);
    EXPECT_EQ(gex_AD_QueryCData(c), nullptr);
    gex_AD_Destroy(c);
    barrier();
}

}  // namespace
