// tests/mpi/team_test.cpp -- §9.4 teams and §9.1.10 shmem_team_ptr under
// oshrun with 2, 3 and 4 PEs: the predefined teams, strided splits (every
// stride sign, odd sizes, invalid triplets), 2-D splits with ragged rows,
// PE translation, configurations, destruction, and RMA/AMOs through team
// contexts with team-relative PE numbers.
#include <shmem.h>

#include <gtest/gtest.h>

#include <vector>

namespace {

int me() { return shmem_my_pe(); }
int npes() { return shmem_n_pes(); }

// Checks that `team` holds exactly the world PEs `members` in that order,
// from this PE's point of view (member or not).
void expect_team(shmem_team_t team, const std::vector<int>& members) {
    int mine = -1;
    for (std::size_t i = 0; i < members.size(); ++i)
        if (members[i] == me()) mine = static_cast<int>(i);
    if (mine < 0) {
        EXPECT_EQ(team, SHMEM_TEAM_INVALID) << "PE " << me() << " is not a member";
        return;
    }
    ASSERT_NE(team, SHMEM_TEAM_INVALID);
    EXPECT_EQ(shmem_team_my_pe(team), mine);
    EXPECT_EQ(shmem_team_n_pes(team), static_cast<int>(members.size()));
    for (std::size_t i = 0; i < members.size(); ++i) {
        EXPECT_EQ(shmem_team_translate_pe(team, static_cast<int>(i), SHMEM_TEAM_WORLD), members[i]);
        EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, members[i], team), static_cast<int>(i));
    }
}

TEST(Teams, Predefined) {
    EXPECT_EQ(shmem_team_my_pe(SHMEM_TEAM_WORLD), me());
    EXPECT_EQ(shmem_team_n_pes(SHMEM_TEAM_WORLD), npes());
    EXPECT_EQ(shmem_team_my_pe(SHMEM_TEAM_INVALID), -1);
    EXPECT_EQ(shmem_team_n_pes(SHMEM_TEAM_INVALID), -1);
    // SHMEM_TEAM_SHARED: exactly the PEs shmem_ptr reaches.
    static long probe;
    const int shared_n = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    ASSERT_GE(shared_n, 1);
    int reachable = 0;
    for (int pe = 0; pe < npes(); ++pe) {
        const bool in_shared = shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED) >= 0;
        EXPECT_EQ(in_shared, shmem_ptr(&probe, pe) != nullptr) << "PE " << pe;
        reachable += in_shared;
    }
    EXPECT_EQ(reachable, shared_n);
    EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_SHARED, shmem_team_my_pe(SHMEM_TEAM_SHARED), SHMEM_TEAM_WORLD), me());
    // Translation misses.
    EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, npes(), SHMEM_TEAM_WORLD), -1);
    EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, -1, SHMEM_TEAM_WORLD), -1);
    EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD), -1);
    EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID), -1);
}

TEST(Teams, SplitStridedEvens) {
    const int n = npes();
    shmem_team_t evens = reinterpret_cast<shmem_team_t>(0x1);  // must be overwritten
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, nullptr, 0, &evens), 0);
    std::vector<int> members;
    for (int p = 0; p < n; p += 2) members.push_back(p);
    expect_team(evens, members);
    shmem_team_destroy(evens);
}

TEST(Teams, SplitStridedReversedAndSingle) {
    const int n = npes();
    shmem_team_t reversed, single;
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, nullptr, 0, &reversed), 0);
    std::vector<int> members;
    for (int p = n - 1; p >= 0; --p) members.push_back(p);
    expect_team(reversed, members);
    // stride 0, size 1: the one PE named by start.
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, 0, 1, nullptr, 0, &single), 0);
    expect_team(single, {n - 1});
    // A split of a split: odd team PEs of the reversed team, backwards.
    shmem_team_t sub;
    const int sub_size = n / 2;
    const int last_odd = (n % 2 == 0) ? n - 1 : n - 2;  // highest odd team PE of `reversed`
    ASSERT_EQ(shmem_team_split_strided(reversed, last_odd, -2, sub_size, nullptr, 0, &sub), 0);
    std::vector<int> sub_members;
    for (int t = last_odd; t >= 0 && static_cast<int>(sub_members.size()) < sub_size; t -= 2)
        sub_members.push_back(n - 1 - t);
    expect_team(sub, sub_members);
    shmem_team_destroy(sub);
    shmem_team_destroy(single);
    shmem_team_destroy(reversed);
}

TEST(Teams, SplitStridedInvalidTriplets) {
    const int n = npes();
    struct Case {
        int start, stride, size;
    };
    const Case bad[] = {{0, 1, 0}, {0, 1, -1}, {-1, 1, 1},    {n, 1, 1}, {1, 1, n},
                        {0, 0, 2}, {0, -1, 2}, {n - 1, 1, 2}, {0, n, 2}, {0, 1, n + 1}};
    for (const Case& c : bad) {
        shmem_team_t t = SHMEM_TEAM_WORLD;
        EXPECT_NE(shmem_team_split_strided(SHMEM_TEAM_WORLD, c.start, c.stride, c.size, nullptr, 0, &t), 0)
            << c.start << "," << c.stride << "," << c.size;
        EXPECT_EQ(t, SHMEM_TEAM_INVALID);
    }
    shmem_team_t t = SHMEM_TEAM_WORLD;
    EXPECT_NE(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, nullptr, 0, &t), 0);
    EXPECT_EQ(t, SHMEM_TEAM_INVALID);
    // Bad configurations fail everywhere too.
    shmem_team_config_t conf{-1};
    EXPECT_NE(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, &conf, SHMEM_TEAM_NUM_CONTEXTS, &t), 0);
    EXPECT_NE(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, nullptr, SHMEM_TEAM_NUM_CONTEXTS, &t), 0);
    EXPECT_NE(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, &conf, 1L << 5, &t), 0);
    // One PE with a bad configuration fails the split on every PE.
    shmem_team_config_t mixed{me() == n - 1 ? -5 : 1};
    EXPECT_NE(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, &mixed, SHMEM_TEAM_NUM_CONTEXTS, &t), 0);
    EXPECT_EQ(t, SHMEM_TEAM_INVALID);
    // The world team still works after the failed splits.
    shmem_team_t all;
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, nullptr, 0, &all), 0);
    std::vector<int> everyone;
    for (int p = 0; p < n; ++p) everyone.push_back(p);
    expect_team(all, everyone);
    shmem_team_destroy(all);
}

TEST(Teams, Split2d) {
    const int n = npes();
    for (int xrange : {1, 2, 3, n + 5}) {
        const int xr = xrange > n ? n : xrange;
        shmem_team_t row = SHMEM_TEAM_INVALID, column = SHMEM_TEAM_INVALID;
        shmem_team_config_t xc{2}, yc{0};
        ASSERT_EQ(shmem_team_split_2d(SHMEM_TEAM_WORLD, xrange, &xc, SHMEM_TEAM_NUM_CONTEXTS, &row, &yc,
                                      SHMEM_TEAM_NUM_CONTEXTS, &column),
                  0)
            << "xrange " << xrange;
        const int x = me() % xr, y = me() / xr;
        std::vector<int> row_members, column_members;
        for (int p = y * xr; p < (y + 1) * xr && p < n; ++p) row_members.push_back(p);
        for (int p = x; p < n; p += xr) column_members.push_back(p);
        expect_team(row, row_members);
        expect_team(column, column_members);
        EXPECT_EQ(shmem_team_my_pe(row), x);
        EXPECT_EQ(shmem_team_my_pe(column), y);
        shmem_team_config_t got{-7};
        EXPECT_EQ(shmem_team_get_config(row, SHMEM_TEAM_NUM_CONTEXTS, &got), 0);
        EXPECT_EQ(got.num_contexts, 2);
        EXPECT_EQ(shmem_team_get_config(column, SHMEM_TEAM_NUM_CONTEXTS, &got), 0);
        EXPECT_EQ(got.num_contexts, 0);
        shmem_team_destroy(row);
        shmem_team_destroy(column);
    }
    shmem_team_t row = SHMEM_TEAM_WORLD, column = SHMEM_TEAM_WORLD;
    EXPECT_NE(shmem_team_split_2d(SHMEM_TEAM_WORLD, 0, nullptr, 0, &row, nullptr, 0, &column), 0);
    EXPECT_EQ(row, SHMEM_TEAM_INVALID);
    EXPECT_EQ(column, SHMEM_TEAM_INVALID);
    row = column = SHMEM_TEAM_WORLD;
    EXPECT_NE(shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, nullptr, 0, &row, nullptr, 0, &column), 0);
    EXPECT_EQ(row, SHMEM_TEAM_INVALID);
    EXPECT_EQ(column, SHMEM_TEAM_INVALID);
}

TEST(Teams, GetConfig) {
    shmem_team_config_t conf{3}, got{-1};
    shmem_team_t t;
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes(), &conf, SHMEM_TEAM_NUM_CONTEXTS, &t), 0);
    EXPECT_EQ(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &got), 0);
    EXPECT_EQ(got.num_contexts, 3);
    got.num_contexts = -1;
    EXPECT_EQ(shmem_team_get_config(t, 0, nullptr), 0);  // mask 0: nothing read or written
    shmem_team_destroy(t);
    // Without the mask bit the default (0) is used.
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes(), &conf, 0, &t), 0);
    EXPECT_EQ(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &got), 0);
    EXPECT_EQ(got.num_contexts, 0);
    shmem_team_destroy(t);
    EXPECT_NE(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &got), 0);
    EXPECT_EQ(shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &got), 0);
    EXPECT_GE(got.num_contexts, 0);
    shmem_team_destroy(SHMEM_TEAM_INVALID);  // no-op
}

TEST(Teams, TeamPtr) {
    static int object[4];
    const int n = npes();
    shmem_team_t reversed;
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, nullptr, 0, &reversed), 0);
    for (int pe = 0; pe < n; ++pe) {
        EXPECT_EQ(shmem_team_ptr(SHMEM_TEAM_WORLD, object, pe), shmem_ptr(object, pe));
        EXPECT_EQ(shmem_team_ptr(reversed, object, pe), shmem_ptr(object, n - 1 - pe));
    }
    EXPECT_EQ(shmem_team_ptr(SHMEM_TEAM_WORLD, object, n), nullptr);
    EXPECT_EQ(shmem_team_ptr(reversed, object, -1), nullptr);
    EXPECT_EQ(shmem_team_ptr(SHMEM_TEAM_INVALID, object, 0), nullptr);
    int local = 0;
    EXPECT_EQ(shmem_team_ptr(SHMEM_TEAM_WORLD, &local, me()), nullptr);  // not symmetric
    // This PE's own copy is always reachable.
    EXPECT_EQ(shmem_team_ptr(reversed, object, shmem_team_my_pe(reversed)), static_cast<void*>(object));
    shmem_team_destroy(reversed);
}

// RMA, AMOs and signals addressed to team-relative PEs through a context
// made from a team whose numbering differs from the world's.
TEST(Teams, TeamContextRmaAndAmo) {
    static long slot = -1;
    static long counter = 0;
    static uint64_t flag = 0;
    static long strided[8];
    const int n = npes();
    slot = -1;
    counter = 0;
    flag = 0;
    for (long& s : strided) s = -1;
    shmem_barrier_all();
    shmem_team_t reversed;
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, nullptr, 0, &reversed), 0);
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    ASSERT_EQ(shmem_team_create_ctx(reversed, 0, &ctx), 0);
    ASSERT_NE(ctx, SHMEM_CTX_INVALID);
    shmem_team_t got = SHMEM_TEAM_INVALID;
    EXPECT_EQ(shmem_ctx_get_team(ctx, &got), 0);
    EXPECT_EQ(got, reversed);

    const int t_me = shmem_team_my_pe(reversed);
    const int t_next = (t_me + 1) % n;
    long value = me();
    shmem_ctx_long_put(ctx, &slot, &value, 1, t_next);
    shmem_ctx_long_atomic_add(ctx, &counter, me() + 1, 0);  // team PE 0 = world PE n-1
    long block[4] = {10L * me(), 10L * me() + 1, 10L * me() + 2, 10L * me() + 3};
    shmem_ctx_long_iput(ctx, strided, block, 2, 1, 4, t_next);
    shmem_ctx_putmem_signal(ctx, &strided[1], &value, 0, &flag, 1, SHMEM_SIGNAL_ADD, t_next);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();

    // My slot came from the PE whose team successor I am: team PE t_me-1.
    const int from_world = shmem_team_translate_pe(reversed, (t_me + n - 1) % n, SHMEM_TEAM_WORLD);
    EXPECT_EQ(slot, from_world);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(strided[2 * i], 10L * from_world + i);
    EXPECT_EQ(flag, 1u);
    if (me() == n - 1)
        EXPECT_EQ(counter, static_cast<long>(n) * (n + 1) / 2);
    else
        EXPECT_EQ(counter, 0);
    // get/g/fetch through the team context read the same objects.
    EXPECT_EQ(shmem_ctx_long_g(ctx, &slot, t_next), shmem_team_translate_pe(reversed, t_me, SHMEM_TEAM_WORLD));
    EXPECT_EQ(shmem_ctx_long_atomic_fetch(ctx, &counter, 0), static_cast<long>(n) * (n + 1) / 2);
    shmem_barrier_all();
    shmem_ctx_destroy(ctx);
    shmem_team_destroy(reversed);
}

}  // namespace
