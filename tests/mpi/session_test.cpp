// tests/mpi/session_test.cpp -- §9.9 sessions under oshrun with 2, 3 and 4
// PEs: a GUPS-like loop of non-fetching AMOs and small puts inside a
// BATCH session gives exactly the results it gives without one; starting
// again ORs options and replaces masked configuration; stop is idempotent
// and does not quiet; SHMEM_CTX_INVALID is ignored.
#include <shmem.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "shmem/context.hpp"

namespace {

int me() { return shmem_my_pe(); }
int npes() { return shmem_n_pes(); }

constexpr int kIndices = 64;
constexpr int kUpdates = 20000;

// A deterministic stream of (pe, index, value) updates per PE.
struct Stream {
    std::uint64_t state;
    std::uint64_t next() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    }
};

// Runs the updates on `ctx` (XOR and ADD tables, plus puts of the update
// count to a per-origin slot) and checks every table against the value
// every PE computes locally from all PEs' streams.
void run_updates(shmem_ctx_t ctx, bool session) {
    auto* xors = static_cast<std::uint64_t*>(shmem_calloc(kIndices, sizeof(std::uint64_t)));
    auto* adds = static_cast<std::uint64_t*>(shmem_calloc(kIndices, sizeof(std::uint64_t)));
    auto* slots = static_cast<long*>(shmem_calloc(static_cast<std::size_t>(npes()), sizeof(long)));
    ASSERT_TRUE(xors && adds && slots);
    if (session) {
        shmem_ctx_session_config_t config{kUpdates};
        shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &config, SHMEM_CTX_SESSION_TOTAL_OPS);
    }
    Stream s{0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(me() + 1)};
    for (int i = 0; i < kUpdates; ++i) {
        const std::uint64_t r = s.next();
        const int pe = static_cast<int>(r % static_cast<std::uint64_t>(npes()));
        const int idx = static_cast<int>((r >> 8) % kIndices);
        shmem_ctx_uint64_atomic_xor(ctx, &xors[idx], r, pe);
        shmem_ctx_uint64_atomic_add(ctx, &adds[idx], r >> 40, pe);
        if (i % 64 == 0) shmem_ctx_long_p(ctx, &slots[me()], i, pe);
    }
    if (session) shmem_ctx_session_stop(ctx);
    shmem_ctx_quiet(ctx);  // stop does not quiet
    shmem_barrier_all();

    std::vector<std::uint64_t> want_x(kIndices, 0), want_a(kIndices, 0);
    for (int origin = 0; origin < npes(); ++origin) {
        Stream o{0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(origin + 1)};
        for (int i = 0; i < kUpdates; ++i) {
            const std::uint64_t r = o.next();
            if (static_cast<int>(r % static_cast<std::uint64_t>(npes())) != me()) continue;
            const int idx = static_cast<int>((r >> 8) % kIndices);
            want_x[idx] ^= r;
            want_a[idx] += r >> 40;
        }
    }
    for (int i = 0; i < kIndices; ++i) {
        EXPECT_EQ(xors[i], want_x[i]) << i;
        EXPECT_EQ(adds[i], want_a[i]) << i;
    }
    shmem_barrier_all();
    shmem_free(slots);
    shmem_free(adds);
    shmem_free(xors);
}

TEST(Sessions, BatchSessionKeepsResults) {
    shmem_ctx_t ctx;
    ASSERT_EQ(shmem_ctx_create(0, &ctx), 0);
    run_updates(ctx, true);
    run_updates(ctx, false);
    shmem_ctx_destroy(ctx);
    run_updates(SHMEM_CTX_DEFAULT, true);
}

TEST(Sessions, StartCombinesStopEnds) {
    shmem_ctx_t ctx;
    ASSERT_EQ(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx), 0);
    const gasket_shmem_session& s = gasket::shmem::entry_of(ctx)->session;
    EXPECT_FALSE(s.active);
    shmem_ctx_session_start(ctx, 0, nullptr, 0);
    EXPECT_TRUE(s.active);
    EXPECT_EQ(s.options, 0);
    EXPECT_EQ(s.total_ops, SIZE_MAX);  // the default
    shmem_ctx_session_config_t config{123};
    shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &config, SHMEM_CTX_SESSION_TOTAL_OPS);
    EXPECT_EQ(s.options, SHMEM_CTX_SESSION_BATCH);
    EXPECT_EQ(s.total_ops, 123u);
    // Unmasked fields are ignored; options stay ORed.
    config.total_ops = 7;
    shmem_ctx_session_start(ctx, 0, &config, 0);
    EXPECT_EQ(s.options, SHMEM_CTX_SESSION_BATCH);
    EXPECT_EQ(s.total_ops, 123u);
    config.total_ops = 9;
    shmem_ctx_session_start(ctx, 0, &config, SHMEM_CTX_SESSION_TOTAL_OPS);
    EXPECT_EQ(s.total_ops, 9u);
    shmem_ctx_session_stop(ctx);
    EXPECT_FALSE(s.active);
    shmem_ctx_session_stop(ctx);  // no effect
    EXPECT_FALSE(s.active);
    // A new session starts from the defaults.
    shmem_ctx_session_start(ctx, 0, nullptr, 0);
    EXPECT_EQ(s.options, 0);
    EXPECT_EQ(s.total_ops, SIZE_MAX);
    shmem_ctx_session_stop(ctx);
    shmem_ctx_destroy(ctx);
    // SHMEM_CTX_INVALID: nothing happens.
    shmem_ctx_session_start(SHMEM_CTX_INVALID, SHMEM_CTX_SESSION_BATCH, nullptr, 0);
    shmem_ctx_session_stop(SHMEM_CTX_INVALID);
}

// Put-with-signal and nbi puts inside a session on a team context.
TEST(Sessions, TeamContextSession) {
    const int n = npes();
    shmem_team_t reversed;
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, nullptr, 0, &reversed), 0);
    shmem_ctx_t ctx;
    ASSERT_EQ(shmem_team_create_ctx(reversed, 0, &ctx), 0);
    static long data[256];
    static uint64_t sig;
    sig = 0;
    shmem_barrier_all();
    const int t_next = (shmem_team_my_pe(reversed) + 1) % n;
    shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, nullptr, 0);
    long src[256];
    for (int i = 0; i < 256; ++i) src[i] = 1000L * me() + i;
    shmem_ctx_long_put_nbi(ctx, data, src, 128, t_next);
    shmem_ctx_long_put_signal_nbi(ctx, &data[128], &src[128], 128, &sig, 1, SHMEM_SIGNAL_SET, t_next);
    shmem_ctx_session_stop(ctx);
    shmem_ctx_quiet(ctx);
    shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 1);
    shmem_barrier_all();
    const int from = shmem_team_translate_pe(reversed, (shmem_team_my_pe(reversed) + n - 1) % n, SHMEM_TEAM_WORLD);
    for (int i = 0; i < 256; ++i) ASSERT_EQ(data[i], 1000L * from + i) << i;
    shmem_ctx_destroy(ctx);
    shmem_team_destroy(reversed);
}

}  // namespace
