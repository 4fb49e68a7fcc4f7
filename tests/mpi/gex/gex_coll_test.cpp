// tests/mpi/gex/gex_coll_test.cpp -- GASNet-EX collectives (gasnet_coll.h,
// gex_Coll_BarrierNB; gasnet-ex-api.txt "Collectives"): the barrier's event
// is not ready while a member has not called (a deterministic check: that
// member waits for the others' word first); broadcasts from every root at
// several sizes, in place on the root, over a made team; reductions to all
// and to one for every built-in type x operator against a serial
// reference, in place; a client's commutative operator on a GEX_DT_USER
// struct and a non-commutative one (applied in rank order); several
// collectives in flight at once, completed by gex_Event_WaitAll, TestAll,
// TestSome and GASNet-1's gasnet_try_syncnb.
//
// Region: [kRegion, +4 KiB) of every segment (the barrier test's flags).
#include <gasnet_coll.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <numeric>
#include <vector>

#include "gex_test.hpp"

using gex_test::barrier;
using gex_test::g_job;

namespace {

constexpr std::size_t kRegion = std::size_t(3) << 20 | (896 << 10);

TEST(GexColl, BarrierIsNotReadyBeforeEveryMemberCalls) {
    const gex_Rank_t me = g_job.me, n = g_job.n;
    auto* flags = reinterpret_cast<volatile uint32_t*>(g_job.base + kRegion);
    for (gex_Rank_t r = 0; r < n; ++r) flags[r] = 0;
    barrier();
    if (me == 0) {
        // Everyone else has called and tested before process 0 calls.
        GASNET_BLOCKUNTIL(std::all_of(flags + 1, flags + n, [](uint32_t f) { return f == 1; }));
        gex_Event_t ev = gex_Coll_BarrierNB(g_job.tm, 0);
        gex_Event_Wait(ev);
    } else {
        gex_Event_t ev = gex_Coll_BarrierNB(g_job.tm, 0);
        EXPECT_EQ(gex_Event_Test(ev), GASNET_ERR_NOT_READY);  // process 0 has not called
        void* owner = nullptr;
        gex_Event_Wait(gex_EP_QueryBoundSegmentNB(g_job.tm, 0, &owner, nullptr, nullptr, 0));
        const uint32_t one = 1;
        gex_RMA_PutBlocking(g_job.tm, 0, static_cast<char*>(owner) + kRegion + 4 * me, &one, 4, 0);
        while (gex_Event_Test(ev) != GASNET_OK) {}
    }
    barrier();
}

TEST(GexColl, BroadcastFromEveryRootAtSeveralSizes) {
    const gex_Rank_t me = g_job.me, n = g_job.n;
    for (std::size_t bytes : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(100000)}) {
        for (gex_Rank_t root = 0; root < n; ++root) {
            std::vector<unsigned char> src(bytes), dst(bytes, 0xee);
            for (std::size_t i = 0; i < bytes; ++i) src[i] = gex_test::pattern(root, i, unsigned(bytes));
            gex_Event_Wait(
                gex_Coll_BroadcastNB(g_job.tm, root, dst.data(), me == root ? src.data() : nullptr, bytes, 0));
            for (std::size_t i = 0; i < bytes; ++i)
                if (dst[i] != gex_test::pattern(root, i, unsigned(bytes))) {
                    ADD_FAILURE() << "byte " << i << " of " << bytes << " from root " << root;
                    break;
                }
            // In place on the root.
            std::vector<unsigned char> buf = me == root ? src : std::vector<unsigned char>(bytes, 0);
            gex_Event_Wait(gex_Coll_BroadcastNB(g_job.tm, root, buf.data(), buf.data(), bytes, 0));
            EXPECT_EQ(buf, src);
        }
    }
    // Over a made team (parity), from its last rank.
    gex_TM_t half = GEX_TM_INVALID;
    gex_TM_Split(&half, g_job.tm, int(me % 2), int(me), nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
    const gex_Rank_t size = gex_TM_QuerySize(half), root = size - 1;
    const uint64_t mine = 7000 + me;
    uint64_t got = 0;
    gex_Event_Wait(gex_Coll_BroadcastNB(half, root, &got, &mine, 8, 0));
    EXPECT_EQ(got, 7000 + gex_TM_TranslateRankToJobrank(half, root));
    gex_TM_Destroy(half, nullptr, 0);
    barrier();
}

// The serial reference of a built-in reduction.
template <class T>
T combine(gex_OP_t op, T a, T b) {
    switch (op) {
        case GEX_OP_ADD: return T(a + b);
        case GEX_OP_MULT: return T(a * b);
        case GEX_OP_MIN: return std::min(a, b);
        case GEX_OP_MAX: return std::max(a, b);
        default: break;
    }
    if constexpr (std::is_integral_v<T>) {
        if (op == GEX_OP_AND) return T(a & b);
        if (op == GEX_OP_OR) return T(a | b);
        return T(a ^ b);
    }
    return a;
}

// Element i of rank r's contribution: small, exact in every type, negative
// for some signed ones, distinct bit patterns.
template <class T>
T contribution(gex_Rank_t r, std::size_t i) {
    const long v = long(r) * 3 + long(i) + 1;
    if constexpr (std::is_signed_v<T>) return T(i % 2 ? -v : v);
    return T(v);
}

template <class T>
void reduce_every_op(gex_DT_t dt) {
    const gex_Rank_t me = g_job.me, n = g_job.n;
    constexpr std::size_t kCount = 5;
    std::vector<gex_OP_t> ops = {GEX_OP_ADD, GEX_OP_MULT, GEX_OP_MIN, GEX_OP_MAX};
    if constexpr (std::is_integral_v<T>) ops.insert(ops.end(), {GEX_OP_AND, GEX_OP_OR, GEX_OP_XOR});
    for (gex_OP_t op : ops) {
        std::vector<T> src(kCount), expect(kCount), dst(kCount);
        for (std::size_t i = 0; i < kCount; ++i) {
            src[i] = contribution<T>(me, i);
            expect[i] = contribution<T>(0, i);
            for (gex_Rank_t r = 1; r < n; ++r) expect[i] = combine(op, expect[i], contribution<T>(r, i));
        }
        gex_Event_Wait(
            gex_Coll_ReduceToAllNB(g_job.tm, dst.data(), src.data(), dt, sizeof(T), kCount, op, nullptr, nullptr, 0));
        EXPECT_EQ(dst, expect) << "ReduceToAll, op 0x" << std::hex << op;
        // To one, in place on the root (the last rank).
        const gex_Rank_t root = n - 1;
        std::vector<T> buf = src;
        gex_Event_Wait(gex_Coll_ReduceToOneNB(g_job.tm, root, me == root ? buf.data() : nullptr, buf.data(), dt,
                                              sizeof(T), kCount, op, nullptr, nullptr, 0));
        if (me == root)
            EXPECT_EQ(buf, expect) << "ReduceToOne, op 0x" << std::hex << op;
        else
            EXPECT_EQ(buf, src);  // a source only
        // To all, in place everywhere.
        buf = src;
        gex_Event_Wait(
            gex_Coll_ReduceToAllNB(g_job.tm, buf.data(), buf.data(), dt, sizeof(T), kCount, op, nullptr, nullptr, 0));
        EXPECT_EQ(buf, expect) << "in place, op 0x" << std::hex << op;
    }
}

TEST(GexColl, ReductionsOfEveryBuiltInTypeAndOperator) {
    reduce_every_op<int32_t>(GEX_DT_I32);
    reduce_every_op<uint32_t>(GEX_DT_U32);
    reduce_every_op<int64_t>(GEX_DT_I64);
    reduce_every_op<uint64_t>(GEX_DT_U64);
    reduce_every_op<float>(GEX_DT_FLT);
    reduce_every_op<double>(GEX_DT_DBL);
    barrier();
}

// A client type: the largest `hi`, the sum of `sum` (commutative).
struct Pair12 {
    int32_t hi, sum, pad;
};
std::atomic<int> g_bad_cdata{0};
int g_cdata_marker = 0;
void pair_op(const void* arg1, void* arg2_and_out, size_t count, const void* cdata) {
    if (cdata != &g_cdata_marker) g_bad_cdata.fetch_add(1);
    const auto* x = static_cast<const Pair12*>(arg1);
    auto* y = static_cast<Pair12*>(arg2_and_out);
    for (size_t i = 0; i < count; ++i) {
        y[i].hi = std::max(x[i].hi, y[i].hi);
        y[i].sum += x[i].sum;
    }
}
// Non-commutative: a hexadecimal string of digits as (value, digits);
// x (+) y appends y's digits after x's.
struct Digits {
    uint64_t value, count;
};
void append_op(const void* arg1, void* arg2_and_out, size_t count, const void*) {
    const auto* x = static_cast<const Digits*>(arg1);
    auto* y = static_cast<Digits*>(arg2_and_out);
    for (size_t i = 0; i < count; ++i) {
        y[i].value = (x[i].value << (4 * y[i].count)) | y[i].value;
        y[i].count += x[i].count;
    }
}

TEST(GexColl, ClientOperatorsCommutativeAndNot) {
    const gex_Rank_t me = g_job.me, n = g_job.n;
    constexpr std::size_t kCount = 3;
    std::vector<Pair12> src(kCount), dst(kCount);
    for (std::size_t i = 0; i < kCount; ++i) src[i] = {int32_t(me * 10 + i), int32_t(me + i), 0};
    g_bad_cdata = 0;
    gex_Event_Wait(gex_Coll_ReduceToAllNB(g_job.tm, dst.data(), src.data(), GEX_DT_USER, sizeof(Pair12), kCount,
                                          GEX_OP_USER, &pair_op, &g_cdata_marker, 0));
    for (std::size_t i = 0; i < kCount; ++i) {
        EXPECT_EQ(dst[i].hi, int32_t((n - 1) * 10 + i));
        EXPECT_EQ(dst[i].sum, int32_t(n * (n - 1) / 2 + n * i));
    }
    EXPECT_EQ(g_bad_cdata.load(), 0);
    // Rank order: digit r from rank r, so the result reads 0, 1, ..., n-1.
    Digits mine{me, 1}, all{0, 0};
    const gex_Rank_t root = 0;
    gex_Event_Wait(gex_Coll_ReduceToOneNB(g_job.tm, root, &all, &mine, GEX_DT_USER, sizeof(Digits), 1, GEX_OP_USER_NC,
                                          &append_op, nullptr, 0));
    if (me == root) {
        uint64_t expect = 0;
        for (gex_Rank_t r = 0; r < n; ++r) expect = (expect << 4) | r;
        EXPECT_EQ(all.value, expect);
        EXPECT_EQ(all.count, uint64_t(n));
    }
    barrier();
}

TEST(GexColl, SeveralInFlightCompletedByEveryEventCall) {
    const gex_Rank_t me = g_job.me, n = g_job.n;
    uint64_t one = 1, sum = 0, mx = 0, b = 0, root_value = 4242;
    const uint64_t mine = me;
    gex_Event_t ev[4] = {
        gex_Coll_ReduceToAllNB(g_job.tm, &sum, &one, GEX_DT_U64, 8, 1, GEX_OP_ADD, nullptr, nullptr, 0),
        gex_Coll_ReduceToAllNB(g_job.tm, &mx, &mine, GEX_DT_U64, 8, 1, GEX_OP_MAX, nullptr, nullptr, 0),
        gex_Coll_BroadcastNB(g_job.tm, 0, &b, &root_value, 8, 0),
        gex_Coll_BarrierNB(g_job.tm, 0),
    };
    gex_Event_WaitAll(ev, 4, 0);
    for (gex_Event_t e : ev) EXPECT_EQ(e, GEX_EVENT_INVALID);
    EXPECT_EQ(sum, uint64_t(n));
    EXPECT_EQ(mx, uint64_t(n - 1));
    EXPECT_EQ(b, 4242u);
    // TestAll until done, with an RMA event beside the collective.
    char byte = 1;
    void* owner = nullptr;
    gex_Event_Wait(gex_EP_QueryBoundSegmentNB(g_job.tm, me, &owner, nullptr, nullptr, 0));
    gex_Event_t two[2] = {gex_Coll_BarrierNB(g_job.tm, 0),
                          gex_RMA_PutNB(g_job.tm, me, static_cast<char*>(owner) + kRegion, &byte, 1, GEX_EVENT_NOW, 0)};
    while (gex_Event_TestAll(two, 2, 0) != GASNET_OK) {}
    EXPECT_EQ(two[0], GEX_EVENT_INVALID);
    EXPECT_EQ(two[1], GEX_EVENT_INVALID);
    // TestSome: at least one completes per successful call.
    gex_Event_t some[2] = {gex_Coll_BarrierNB(g_job.tm, 0), gex_Coll_BarrierNB(g_job.tm, 0)};
    int rounds = 0;
    while (some[0] != GEX_EVENT_INVALID || some[1] != GEX_EVENT_INVALID) {
        const int live = (some[0] != GEX_EVENT_INVALID) + (some[1] != GEX_EVENT_INVALID);
        if (gex_Event_TestSome(some, 2, 0) == GASNET_OK)
            EXPECT_LT((some[0] != GEX_EVENT_INVALID) + (some[1] != GEX_EVENT_INVALID), live);
        ++rounds;
    }
    EXPECT_GE(rounds, 1);
    // GASNet-1's try on a collective's event (the handles are the same).
    gasnet_handle_t h = gex_Coll_BarrierNB(g_job.tm, 0);
    while (gasnet_try_syncnb(h) != GASNET_OK) {}
    barrier();
}

}  // namespace
