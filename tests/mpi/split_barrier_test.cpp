// tests/mpi/split_barrier_test.cpp -- the network barrier's values
// (mpi::SplitBarrier, white-box), over MPI_COMM_WORLD at 2, 3 and 4 PEs.
// Every PE enters with values from a table of (case, rank, index) and
// checks, after the barrier, the element-wise maximum over every PE against
// the same table.  The cases straddle the two ways a round's message
// carries its values: in the tag of a 0-byte message (each value none,
// i.e. LLONG_MIN, or 0-14) or as a 24-byte payload (anything else), with
// PEs of one barrier using different ways, and back-to-back barriers whose
// way changes from one to the next while some PE arrives late (messages of
// the next barrier then reach a PE still in this one).
#include <mpi.h>
#include <sched.h>
#include <shmem.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <thread>

#include "mpi-bridge/split_barrier.hpp"
#include "shmem_test.hpp"

namespace {

using namespace gasket_test;
using gasket::mpi::SplitBarrier;
constexpr int kV = SplitBarrier::kValues;
using Values = std::array<long long, kV>;
using Table = long long (*)(int round, int rank, int n, int i);

constexpr long long kNone = LLONG_MIN;
long long g_largest_pair = 0;  // SplitBarrier::largest_pair_in_tag(), set by each test

// GASNet's named barrier's values: (mismatch flag, id, -id).
long long named(long long flag, long long id, int i) { return i == 0 ? flag : i == 1 ? id : -id; }

// Enters `b` with `mine`, waits, returns the maximum.
Values pass(SplitBarrier& b, const Values& mine) {
    long long in[kV], max[kV];
    for (int i = 0; i < kV; ++i) in[i] = mine[i];
    b.start(in);
    while (!b.test(max)) sched_yield();
    Values out;
    for (int i = 0; i < kV; ++i) out[i] = max[i];
    return out;
}

Values row(Table t, int round, int rank, int n) {
    Values v;
    for (int i = 0; i < kV; ++i) v[i] = t(round, rank, n, i);
    return v;
}

Values expected_max(Table t, int round, int n) {
    Values m = row(t, round, 0, n);
    for (int r = 1; r < n; ++r)
        for (int i = 0; i < kV; ++i) m[i] = std::max(m[i], t(round, r, n, i));
    return m;
}

struct Case {
    const char* name;
    Table table;
};

const Case kCases[] = {
    {"every value none", [](int, int, int, int) { return kNone; }},
    {"OpenSHMEM's flags: the last PE did RMA, odd PEs vote",
     [](int, int rank, int n, int i) -> long long { return i == 0   ? rank == n - 1
                                                           : i == 1 ? rank % 2
                                                                    : 0; }},
    {"13, 14 and 15 (the last does not fit a tag) rotating over PEs and values",
     [](int, int rank, int, int i) -> long long { return 13 + (rank + i) % 3; }},
    {"14 (the largest in a tag) on PE 0 only, 0 elsewhere",
     [](int, int rank, int, int) -> long long { return rank == 0 ? 14 : 0; }},
    {"15 (a payload) on the last PE only, none elsewhere",
     [](int, int rank, int n, int) -> long long { return rank == n - 1 ? 15 : kNone; }},
    {"negative, LLONG_MAX and LLONG_MIN + rank",
     [](int, int rank, int, int i) -> long long {
         return i == 0 ? -1 - rank : i == 1 ? (rank == 1 ? LLONG_MAX : rank) : LLONG_MIN + rank;
     }},
    {"GASNet's named barrier, id 42 everywhere",
     [](int, int, int, int i) -> long long { return i == 0   ? 0
                                                    : i == 1 ? 42
                                                             : -42; }},
    {"GASNet's anonymous barrier, the mismatch flag on PE 0",
     [](int, int rank, int, int i) -> long long { return i == 0 ? rank == 0 : kNone; }},
    {"GASNet's named barrier, id 0 everywhere", [](int, int, int, int i) { return named(0, 0, i); }},
    {"named, the largest id a tag holds, everywhere", [](int, int, int, int i) { return named(0, g_largest_pair, i); }},
    {"named, one past the largest id a tag holds (a payload), everywhere",
     [](int, int, int, int i) { return named(0, g_largest_pair + 1, i); }},
    {"named, the largest id a tag holds on PE 0, one past it elsewhere",
     [](int, int rank, int, int i) { return named(0, g_largest_pair + (rank != 0), i); }},
    {"named, id -7 (a payload) everywhere", [](int, int, int, int i) { return named(0, -7, i); }},
    {"named, a different id on each PE", [](int, int rank, int, int i) { return named(0, 100 + rank, i); }},
    {"named, id 9, the mismatch flag on the last PE",
     [](int, int rank, int n, int i) { return named(rank == n - 1, 9, i); }},
    {"named (id 5) on PE 0 only, anonymous elsewhere",
     [](int, int rank, int, int i) { return rank == 0 ? named(0, 5, i)
                                            : i == 0  ? 0
                                                      : kNone; }},
    {"a pair with a first value past the codes (a payload)", [](int, int, int, int i) { return named(15, 3, i); }},
};

TEST(SplitBarrierValues, MaximumOverEveryPe) {
    const int n = npes();
    SplitBarrier b(MPI_COMM_WORLD);
    g_largest_pair = b.largest_pair_in_tag();
    ASSERT_GE(g_largest_pair, 1023) << "MPI_TAG_UB is at least 32767 in every MPI";
    for (const Case& c : kCases) {
        const Values got = pass(b, row(c.table, 0, me(), n));
        EXPECT_EQ(got, expected_max(c.table, 0, n)) << c.name << ", on PE " << me();
    }
}

// Per barrier, per PE, per value: in a tag or not, changing every round.
long long back_to_back(int round, int rank, int, int i) {
    switch ((round + rank + i) % 4) {
        case 0: return kNone;
        case 1: return round % 15;                        // fits a tag
        case 2: return 15 + round;                        // a payload
        default: return -(long long)round * 1000 - rank;  // a payload
    }
}

// Per barrier, per PE: GASNet's named and anonymous barriers, the named
// one's id in a tag or not, changing every round.
long long back_to_back_named(int round, int rank, int, int i) {
    const long long flag = (round / 7) % 2;
    switch ((round + rank) % 5) {
        case 0: return named(flag, round, i);               // a pair, the same id on PEs of this form
        case 1: return named(flag, g_largest_pair, i);      // the largest pair
        case 2: return named(flag, g_largest_pair + 1, i);  // a payload
        case 3: return i == 0 ? flag : kNone;               // anonymous
        default: return named(flag, -round, i);             // a payload (round 0: id 0, a pair)
    }
}

// 3000 barriers back to back with values from `t`, some PE arriving late.
void run_back_to_back(Table t) {
    const int n = npes();
    SplitBarrier b(MPI_COMM_WORLD);
    g_largest_pair = b.largest_pair_in_tag();
    int wrong = 0;
    for (int round = 0; round < 3000; ++round) {
        // Every 250th round one PE (in turn) arrives 5 ms late: the others
        // wait for it, then run ahead into the next barriers.
        if (round % 250 == 0 && (round / 250) % n == me()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        const Values got = pass(b, row(t, round, me(), n));
        const Values want = expected_max(t, round, n);
        if (got != want && wrong++ < 5) ADD_FAILURE() << "round " << round << ", on PE " << me();
    }
    EXPECT_EQ(wrong, 0) << "rounds with a wrong maximum on PE " << me();
}

TEST(SplitBarrierValues, BackToBackWithLatePes) { run_back_to_back(back_to_back); }

TEST(SplitBarrierValues, NamedBackToBackWithLatePes) { run_back_to_back(back_to_back_named); }

TEST(SplitBarrierValues, NotPassedUntilEveryPeEntered) {
    SplitBarrier b(MPI_COMM_WORLD);
    long long max[kV];
    const long long mine[kV] = {me(), kNone, 0};
    if (me() == 0) {
        b.start(mine);
        // The others enter only after MPI_Barrier, which waits for this PE.
        for (int i = 0; i < 1000; ++i) EXPECT_FALSE(b.test(max)) << "passed before the other PEs entered";
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        b.start(mine);
    }
    while (!b.test(max)) sched_yield();
    EXPECT_EQ(max[0], npes() - 1);
    EXPECT_EQ(max[1], kNone);
    EXPECT_EQ(max[2], 0);
}

}  // namespace
