// tests/mpi/gex/gex_ep_window_test.cpp -- publication of created
// endpoints' host segments through the job's dynamic window
// (src/gasnet/ep_segments.hpp), whatever the team and the memory: a
// GASNet-allocated segment published over the primordial team, one
// published over a made team (every process, in reverse order), and a
// client-allocated one are reached alike by every put and get form from
// every process; publishing a segment again changes nothing; segments
// published after destroyed ones (withdrawn from the window) are reached.
// On every process, at 2 and 4 processes, node fast path on and off (off:
// every transfer between processes goes through MPI).
#include <cstdint>
#include <cstring>
#include <vector>

#include "gex_test.hpp"

using gex_test::g_job;

namespace {

using gex_test::Published;

// Every process puts `bytes` bytes of its pattern into its right
// neighbour's segment of `m` at `at` (blocking, NBI and NB forms in thirds),
// then reads them back from there; its own segment must hold its left
// neighbour's pattern.
void ring(const Published& m, std::size_t at, std::size_t bytes, unsigned salt) {
    const gex_Rank_t me = g_job.me, n = g_job.n, right = (me + 1) % n, left = (me + n - 1) % n;
    const gex_TM_t pair = gex_TM_Pair(g_job.ep, m.index);
    std::vector<unsigned char> src(bytes);
    for (std::size_t i = 0; i < bytes; ++i) src[i] = gex_test::pattern(me, i, salt);
    unsigned char* there = m.on(right) + at;
    const std::size_t third = bytes / 3;
    gex_RMA_PutBlocking(pair, right, there, src.data(), third, 0);
    gex_RMA_PutNBI(pair, right, there + third, src.data() + third, third, GEX_EVENT_NOW, 0);
    gex_NBI_Wait(GEX_EC_PUT, 0);
    gex_Event_Wait(
        gex_RMA_PutNB(pair, right, there + 2 * third, src.data() + 2 * third, bytes - 2 * third, GEX_EVENT_DEFER, 0));
    gex_test::barrier();
    for (std::size_t i = 0; i < bytes; ++i)
        ASSERT_EQ(m.base[at + i], gex_test::pattern(left, i, salt)) << "byte " << i << " of endpoint " << m.index;
    std::vector<unsigned char> back(bytes, 0);
    gex_RMA_GetBlocking(pair, back.data(), right, there, third, 0);
    gex_RMA_GetNBI(pair, back.data() + third, right, there + third, bytes - third, 0);
    gex_NBI_Wait(GEX_EC_GET, 0);
    EXPECT_EQ(back, src) << "endpoint " << m.index;
    gex_test::barrier();
}

}  // namespace

// Segments published over the primordial team and over a made team, and a
// client-allocated one, all reached alike.
TEST(GexEpWindows, SegmentsOfEveryTeamAndMemoryAreReached) {
    gex_TM_t everyone = GEX_TM_INVALID;
    gex_TM_Split(&everyone, g_job.tm, 0, int(g_job.n - 1 - g_job.me), nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
    ASSERT_NE(everyone, GEX_TM_INVALID);
    std::vector<unsigned char> client(64 * 1024);
    Published world(64 * 1024, nullptr), made(64 * 1024, nullptr, everyone), clients(client.size(), client.data());
    for (const Published* m : {&world, &made, &clients}) {
        SCOPED_TRACE(m->index);
        ring(*m, 0, 3000, 21);
        ring(*m, 8192, 40000, 22);
    }
    // Published again (the second over the other team): the same bytes,
    // reached alike.
    EXPECT_EQ(gex_EP_PublishBoundSegment(g_job.tm, &world.ep, 1, 0), GASNET_OK);
    EXPECT_EQ(gex_EP_PublishBoundSegment(g_job.tm, &made.ep, 1, 0), GASNET_OK);
    EXPECT_EQ(world.base[0], gex_test::pattern((g_job.me + g_job.n - 1) % g_job.n, 0, 21));
    ring(world, 100, 900, 23);
    ring(made, 100, 900, 23);
    gex_test::barrier();
    for (const Published* m : {&world, &made, &clients}) gex_Segment_Destroy(m->seg, 0);
    EXPECT_EQ(gex_TM_Destroy(everyone, nullptr, 0), 0);
}

// Segments destroyed after publication (withdrawn from the dynamic window)
// and new ones published after them: the new ones are reached.
TEST(GexEpWindows, SegmentsPublishedAfterDestroyedOnesAreReached) {
    for (int round = 0; round < 3; ++round) {
        SCOPED_TRACE(round);
        Published m(16 * 1024, nullptr);
        ring(m, 0, 4096, unsigned(30 + round));
        gex_Segment_Destroy(m.seg, 0);
        gex_test::barrier();
    }
}
