// tests/mpi/ordering_test.cpp -- §9.12 memory ordering and §9.10 barrier
// completion: fence orders a data put before a flag put; quiet and pe_quiet
// complete nbi puts before a flag; barrier_all completes every prior put.
//
// Message-passing pattern (ring, every PE both sends and receives): put
// data to the right neighbour, order/complete, put flag = iteration; wait
// for the flag from the left, check the data, acknowledge to the left with
// ack = iteration; wait for the ack from the right before the next
// iteration (so new data never lands while the target is still checking).
// The sender's path never depends on an assertion, so a failing check cannot
// leave a neighbour waiting.
#include "shmem_test.hpp"

namespace {

using namespace gasket_test;

constexpr int kIterations = 200;
constexpr std::size_t kData = 4096;  // longs (32 KiB): several MPI packets on the MPI path

long g_data[kData];
long g_flag, g_ack;

long datum(int pe, int iter, std::size_t i) { return long(iter) * 1000003L + long(i) * 7 + pe; }

enum class Order { fence, ctx_fence, quiet_nbi, ctx_quiet_nbi, pe_quiet_nbi, ctx_pe_quiet_nbi };
const char* name_of(Order o) {
    switch (o) {
        case Order::fence: return "shmem_long_put + shmem_fence + shmem_long_p";
        case Order::ctx_fence: return "shmem_ctx_long_put + shmem_ctx_fence + shmem_ctx_long_p";
        case Order::quiet_nbi: return "shmem_long_put_nbi + shmem_quiet + shmem_long_p";
        case Order::ctx_quiet_nbi: return "shmem_ctx_long_put_nbi + shmem_ctx_quiet + shmem_ctx_long_p";
        case Order::pe_quiet_nbi: return "shmem_long_put_nbi + shmem_pe_quiet(right) + shmem_long_p";
        case Order::ctx_pe_quiet_nbi: return "shmem_ctx_long_put_nbi + shmem_ctx_pe_quiet(right) + shmem_ctx_long_p";
    }
    return "?";
}

std::string short_name(Order o) {
    static const char* const names[] = {"fence",         "ctx_fence",    "quiet_nbi",
                                        "ctx_quiet_nbi", "pe_quiet_nbi", "ctx_pe_quiet_nbi"};
    return names[int(o)];
}

// Runs the ring pattern with `o` on `data` (heap or global) and returns the
// number of iterations whose data was wrong when the flag arrived.
int ring_ordering(Order o, long* data) {
    g_flag = 0;
    g_ack = 0;
    std::fill(data, data + kData, -1L);
    shmem_barrier_all();
    const int to = right(), pe_list[1] = {to};
    std::vector<long> src(kData);
    int bad_iterations = 0;
    for (int iter = 1; iter <= kIterations; ++iter) {
        for (std::size_t i = 0; i < kData; ++i) src[i] = datum(me(), iter, i);
        switch (o) {
            case Order::fence:
                shmem_long_put(data, src.data(), kData, to);
                shmem_fence();
                shmem_long_p(&g_flag, iter, to);
                break;
            case Order::ctx_fence:
                shmem_ctx_long_put(SHMEM_CTX_DEFAULT, data, src.data(), kData, to);
                shmem_ctx_fence(SHMEM_CTX_DEFAULT);
                shmem_ctx_long_p(SHMEM_CTX_DEFAULT, &g_flag, iter, to);
                break;
            case Order::quiet_nbi:
                shmem_long_put_nbi(data, src.data(), kData, to);
                shmem_quiet();
                shmem_long_p(&g_flag, iter, to);
                break;
            case Order::ctx_quiet_nbi:
                shmem_ctx_long_put_nbi(SHMEM_CTX_DEFAULT, data, src.data(), kData, to);
                shmem_ctx_quiet(SHMEM_CTX_DEFAULT);
                shmem_ctx_long_p(SHMEM_CTX_DEFAULT, &g_flag, iter, to);
                break;
            case Order::pe_quiet_nbi:
                shmem_long_put_nbi(data, src.data(), kData, to);
                shmem_pe_quiet(pe_list, 1);
                shmem_long_p(&g_flag, iter, to);
                break;
            case Order::ctx_pe_quiet_nbi:
                shmem_ctx_long_put_nbi(SHMEM_CTX_DEFAULT, data, src.data(), kData, to);
                shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, pe_list, 1);
                shmem_ctx_long_p(SHMEM_CTX_DEFAULT, &g_flag, iter, to);
                break;
        }
        shmem_long_wait_until(&g_flag, SHMEM_CMP_EQ, iter);
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < kData; ++i) wrong += data[i] != datum(left(), iter, i);
        if (wrong) {
            ++bad_iterations;
            if (bad_iterations <= 3)
                ADD_FAILURE() << name_of(o) << ": iteration " << iter << ": flag from PE " << left() << " arrived but "
                              << wrong << " of " << kData << " data elements were not yet there";
        }
        shmem_long_p(&g_ack, iter, left());
        shmem_long_wait_until(&g_ack, SHMEM_CMP_EQ, iter);
    }
    shmem_barrier_all();
    return bad_iterations;
}

class Ordering : public ::testing::TestWithParam<Order> {};

TEST_P(Ordering, FlagAfterDataGlobal) { EXPECT_EQ(ring_ordering(GetParam(), g_data), 0) << name_of(GetParam()); }

TEST_P(Ordering, FlagAfterDataHeap) {
    long* data = static_cast<long*>(shmem_malloc(kData * sizeof(long)));
    if (!all_pes(data != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(data);
        return;
    }
    EXPECT_EQ(ring_ordering(GetParam(), data), 0) << name_of(GetParam());
    shmem_free(data);
}

INSTANTIATE_TEST_SUITE_P(Forms, Ordering,
                         ::testing::Values(Order::fence, Order::ctx_fence, Order::quiet_nbi, Order::ctx_quiet_nbi,
                                           Order::pe_quiet_nbi, Order::ctx_pe_quiet_nbi),
                         [](const ::testing::TestParamInfo<Order>& i) { return short_name(i.param); });

// Fence orders puts per target: a sequence of puts to the same flag word,
// separated by fences, ends with the last value (and every PE sees it).
TEST(Fence, LastOfFencedPutsToOneWordWins) {
    g_flag = 0;
    shmem_barrier_all();
    for (long v = 1; v <= 50; ++v) {
        shmem_long_p(&g_flag, v, right());
        shmem_fence();
    }
    shmem_long_wait_until(&g_flag, SHMEM_CMP_GE, 50);
    shmem_barrier_all();
    EXPECT_EQ(g_flag, 50);
    shmem_barrier_all();
}

// shmem_barrier_all completes every put issued before it (blocking, nbi,
// strided, p) to every PE: each PE writes its own slot on every PE.
TEST(Barrier, BarrierAllCompletesPriorPuts) {
    const int n = npes();
    constexpr std::size_t kSlot = 512;  // longs per writer
    long* board = static_cast<long*>(shmem_malloc(std::size_t(n) * kSlot * sizeof(long)));
    if (!all_pes(board != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(board);
        return;
    }
    for (int round = 0; round < 5; ++round) {
        std::fill(board, board + std::size_t(n) * kSlot, -1L);
        shmem_barrier_all();
        std::vector<long> src(kSlot);
        for (std::size_t i = 0; i < kSlot; ++i) src[i] = datum(me(), round, i);
        long* slot = board + std::size_t(me()) * kSlot;
        for (int pe = 0; pe < n; ++pe) {
            // Quarter by quarter, a different form each (no quiet before the barrier).
            shmem_long_put(slot, src.data(), kSlot / 4, pe);
            shmem_long_put_nbi(slot + kSlot / 4, src.data() + kSlot / 4, kSlot / 4, pe);
            shmem_long_iput(slot + kSlot / 2, src.data() + kSlot / 2, 1, 1, kSlot / 4, pe);
            for (std::size_t i = 3 * kSlot / 4; i < kSlot; ++i) shmem_long_p(slot + i, src[i], pe);
        }
        shmem_barrier_all();
        for (int pe = 0; pe < n; ++pe) {
            std::vector<long> want(kSlot);
            for (std::size_t i = 0; i < kSlot; ++i) want[i] = datum(pe, round, i);
            EXPECT_TRUE(ArraysMatch(board + std::size_t(pe) * kSlot, want.data(), kSlot))
                << "round " << round << ": slot written by PE " << pe;
        }
        shmem_barrier_all();
    }
    shmem_free(board);
}

// shmem_quiet then shmem_sync_all: sync_all completes nothing itself, but
// after a quiet the puts are delivered, so the data is there.
TEST(Barrier, QuietThenSyncAll) {
    for (int round = 0; round < 5; ++round) {
        std::fill(g_data, g_data + kData, -1L);
        shmem_sync_all();
        std::vector<long> src(kData);
        for (std::size_t i = 0; i < kData; ++i) src[i] = datum(me(), round, i);
        shmem_long_put_nbi(g_data, src.data(), kData, right());
        shmem_quiet();
        shmem_sync_all();
        std::vector<long> want(kData);
        for (std::size_t i = 0; i < kData; ++i) want[i] = datum(left(), round, i);
        EXPECT_TRUE(ArraysMatch(g_data, want.data(), kData)) << "round " << round;
        shmem_sync_all();
    }
}

// shmem_pe_quiet with an empty list is a no-op (target_pes may be NULL);
// with PEs listed it completes the puts (p and nbi) to them, so that after
// shmem_sync_all (which completes nothing itself) the data is there.
TEST(PeQuiet, EmptyListAndListedPes) {
    shmem_pe_quiet(nullptr, 0);
    shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, nullptr, 0);
    const int n = npes();
    std::vector<int> all(static_cast<std::size_t>(n));
    for (int pe = 0; pe < n; ++pe) all[pe] = pe;
    long* board = static_cast<long*>(shmem_calloc(2 * std::size_t(n), sizeof(long)));
    if (!all_pes(board != nullptr)) {
        ADD_FAILURE() << "shmem_calloc returned NULL";
        shmem_free(board);
        return;
    }
    const long nbi_value = 200 + me();  // stays valid until the pe_quiet below
    for (int round = 0; round < 2; ++round) {
        for (int pe = 0; pe < n; ++pe) {
            shmem_long_p(board + me(), 100 + me(), pe);
            shmem_long_put_nbi(board + n + me(), &nbi_value, 1, pe);
        }
        if (round == 0)
            shmem_pe_quiet(all.data(), all.size());
        else
            for (int pe = 0; pe < n; ++pe) shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, &all[pe], 1);
        shmem_sync_all();
        for (int pe = 0; pe < n; ++pe) {
            EXPECT_EQ(board[pe], 100 + pe) << "round " << round << ": shmem_long_p from PE " << pe;
            EXPECT_EQ(board[n + pe], 200 + pe) << "round " << round << ": shmem_long_put_nbi from PE " << pe;
        }
        shmem_barrier_all();
        std::fill(board, board + 2 * n, 0L);
        shmem_barrier_all();
    }
    shmem_free(board);
}

}  // namespace
