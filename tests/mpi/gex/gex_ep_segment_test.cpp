// tests/mpi/gex/gex_ep_segment_test.cpp -- endpoints and segments beyond the
// primordial ones (gasnet-ex-memory-kinds.txt §3.1-§3.4, §3.7, §4.2, §4.3),
// on every process: gex_EP_Create gives indices in order of creation with
// the flags it got; GASNet-allocated host segments are zeroed, writable and
// rounded up to the page; client-allocated ones describe exactly the
// client's range and leave it untouched; binding makes the segment the
// endpoint's; every bad argument the document names returns
// GASNET_ERR_BAD_ARG with the output unchanged; endpoints run out at
// GASNET_MAXEPS with GASNET_ERR_RESOURCE (last: the endpoints stay).
// Published segments of created endpoints are reached by every put and get
// form through TM-pairs and through teams over created endpoints
// (gex_TM_Create), on the node fast path and through MPI alike; so are their
// Active Message handlers, Long payloads landing in their segments, every
// VIS shape, and atomic domains over teams of created endpoints.
#include <gasnet_mk.h>
#include <gasnet_ratomic.h>
#include <gasnet_vis.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "gex_test.hpp"

using gex_test::g_job;

namespace {

// The non-fatal errors are the calls' to print, not these tests' to read.
struct Quiet {
    int old = gex_System_GetVerboseErrors();
    Quiet() { gex_System_SetVerboseErrors(0); }
    ~Quiet() { gex_System_SetVerboseErrors(old); }
};

gex_EP_t make_ep(gex_EP_Capabilities_t caps, gex_Flags_t flags) {
    gex_EP_t ep = GEX_EP_INVALID;
    EXPECT_EQ(gex_EP_Create(&ep, g_job.client, caps, flags), GASNET_OK);
    return ep;
}

TEST(GexEndpoints, CreateGivesTheNextIndexAndKeepsTheHints) {
    EXPECT_EQ(gex_EP_QueryIndex(g_job.ep), 0u);
    const gex_EP_t a = make_ep(GEX_EP_CAPABILITY_RMA, 0);
    const gex_EP_t b = make_ep(GEX_EP_CAPABILITY_ALL, GEX_FLAG_HINT_ACCEL_AD);
    const gex_EP_t c = make_ep(GEX_EP_CAPABILITY_AM | GEX_EP_CAPABILITY_AD, GEX_FLAG_HINT_ACCEL_ALL);
    ASSERT_NE(a, GEX_EP_INVALID);
    EXPECT_NE(a, g_job.ep);
    EXPECT_GE(gex_EP_QueryIndex(a), 1u);
    EXPECT_EQ(gex_EP_QueryIndex(b), gex_EP_QueryIndex(a) + 1);
    EXPECT_EQ(gex_EP_QueryIndex(c), gex_EP_QueryIndex(a) + 2);
    EXPECT_NE(gex_EP_QueryIndex(c), GEX_EP_INDEX_INVALID);
    EXPECT_EQ(gex_EP_QueryFlags(a), 0u);
    EXPECT_EQ(gex_EP_QueryFlags(b), GEX_FLAG_HINT_ACCEL_AD);
    EXPECT_EQ(gex_EP_QueryFlags(c), GEX_FLAG_HINT_ACCEL_ALL);
    EXPECT_EQ(gex_EP_QueryClient(b), g_job.client);
    EXPECT_EQ(gex_EP_QuerySegment(b), GEX_SEGMENT_INVALID);  // none bound yet
    int data = 7;
    gex_EP_SetCData(c, &data);
    EXPECT_EQ(gex_EP_QueryCData(c), &data);
    EXPECT_EQ(gex_EP_QueryCData(g_job.ep), nullptr);  // each endpoint its own
    // The primordial endpoint is unchanged by it all.
    EXPECT_EQ(gex_EP_QuerySegment(g_job.ep), g_job.segment);
    EXPECT_EQ(gex_EP_QueryFlags(g_job.ep), 0u);
}

TEST(GexEndpoints, BadArgumentsReturnBadArg) {
    Quiet quiet;
    const gex_EP_t sentinel = reinterpret_cast<gex_EP_t>(0x77);
    gex_EP_t ep = sentinel;
    EXPECT_EQ(gex_EP_Create(nullptr, g_job.client, GEX_EP_CAPABILITY_RMA, 0), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gex_EP_Create(&ep, g_job.client, 0, 0), GASNET_ERR_BAD_ARG);  // no capability
    EXPECT_EQ(gex_EP_Create(&ep, g_job.client, GEX_EP_CAPABILITY_ALL + 1, 0), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gex_EP_Create(&ep, g_job.client, GEX_EP_CAPABILITY_RMA, GEX_FLAG_HINT_ACCEL_ALL << 1),
              GASNET_ERR_BAD_ARG);
    EXPECT_EQ(ep, sentinel);  // untouched by every refusal
}

TEST(GexSegments, GasnetAllocatedHostSegmentIsZeroedWritableAndRounded) {
    gex_Segment_t seg = GEX_SEGMENT_INVALID;
    ASSERT_EQ(gex_Segment_Create(&seg, g_job.client, nullptr, 5000, GEX_MK_HOST, 0), GASNET_OK);
    ASSERT_NE(seg, GEX_SEGMENT_INVALID);
    EXPECT_NE(seg, g_job.segment);
    auto* base = static_cast<unsigned char*>(gex_Segment_QueryAddr(seg));
    const uintptr_t size = gex_Segment_QuerySize(seg);
    ASSERT_NE(base, nullptr);
    EXPECT_EQ(size, uintptr_t(2 * GASNET_PAGESIZE));  // 5000 rounded up to the page
    EXPECT_EQ(reinterpret_cast<uintptr_t>(base) % GASNET_PAGESIZE, 0u);
    EXPECT_EQ(gex_Segment_QueryClient(seg), g_job.client);
    EXPECT_EQ(gex_Segment_QueryFlags(seg), 0u);
    int bad = 0;
    for (uintptr_t i = 0; i < size; ++i) bad += base[i] != 0;
    EXPECT_EQ(bad, 0) << "bytes not zero in a new GASNet-allocated segment";
    for (uintptr_t i = 0; i < size; ++i) base[i] = gex_test::pattern(g_job.me, i, 3);
    for (uintptr_t i = 0; i < size; ++i) bad += base[i] != gex_test::pattern(g_job.me, i, 3);
    EXPECT_EQ(bad, 0);
    // Bound to a new endpoint, it is that endpoint's segment.
    const gex_EP_t ep = make_ep(GEX_EP_CAPABILITY_RMA | GEX_EP_CAPABILITY_AM, 0);
    EXPECT_EQ(gex_EP_BindSegment(ep, seg, 0), GASNET_OK);
    EXPECT_EQ(gex_EP_QuerySegment(ep), seg);
    // The same segment may be bound to a second endpoint (§3.7).
    const gex_EP_t other = make_ep(GEX_EP_CAPABILITY_RMA, 0);
    EXPECT_EQ(gex_EP_BindSegment(other, seg, 0), GASNET_OK);
    EXPECT_EQ(gex_EP_QuerySegment(other), seg);
    int data = 0;
    gex_Segment_SetCData(seg, &data);
    EXPECT_EQ(gex_Segment_QueryCData(seg), &data);
    gex_Segment_Destroy(seg, 0);
    EXPECT_EQ(gex_Segment_QuerySize(g_job.segment), gex_test::kSegmentBytes);  // the attach segment stays
}

TEST(GexSegments, ClientAllocatedHostSegmentIsTheClientsRangeUntouched) {
    std::vector<unsigned char> mine(3000);
    for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = gex_test::pattern(g_job.me, i, 9);
    // No alignment rule for client-allocated host memory (§4.2 4a).
    unsigned char* start = mine.data() + 3;
    gex_Segment_t seg = GEX_SEGMENT_INVALID;
    ASSERT_EQ(gex_Segment_Create(&seg, g_job.client, start, 1001, GEX_MK_HOST, 0), GASNET_OK);
    EXPECT_EQ(gex_Segment_QueryAddr(seg), static_cast<void*>(start));
    EXPECT_EQ(gex_Segment_QuerySize(seg), 1001u);
    int changed = 0;
    for (std::size_t i = 0; i < mine.size(); ++i) changed += mine[i] != gex_test::pattern(g_job.me, i, 9);
    EXPECT_EQ(changed, 0);
    // Two segments over one range are two segments.
    gex_Segment_t again = GEX_SEGMENT_INVALID;
    ASSERT_EQ(gex_Segment_Create(&again, g_job.client, start, 1001, GEX_MK_HOST, 0), GASNET_OK);
    EXPECT_NE(again, seg);
    gex_Segment_Destroy(seg, 0);
    gex_Segment_Destroy(again, 0);
    for (std::size_t i = 0; i < mine.size(); ++i) changed += mine[i] != gex_test::pattern(g_job.me, i, 9);
    EXPECT_EQ(changed, 0) << "destroying a client-allocated segment changed the client's memory";
}

TEST(GexSegments, BadArgumentsReturnBadArg) {
    Quiet quiet;
    const gex_Segment_t sentinel = reinterpret_cast<gex_Segment_t>(0x55);
    gex_Segment_t seg = sentinel;
    char buf[64];
    const uintptr_t max = gasnet_getMaxLocalSegmentSize();
    EXPECT_EQ(gex_Segment_Create(nullptr, g_job.client, nullptr, 4096, GEX_MK_HOST, 0), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gex_Segment_Create(&seg, g_job.client, nullptr, 0, GEX_MK_HOST, 0), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gex_Segment_Create(&seg, g_job.client, buf, 0, GEX_MK_HOST, 0), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gex_Segment_Create(&seg, g_job.client, nullptr, max + 1, GEX_MK_HOST, 0), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gex_Segment_Create(&seg, g_job.client, nullptr, UINTPTR_MAX, GEX_MK_HOST, 0), GASNET_ERR_BAD_ARG);
    void* high = reinterpret_cast<void*>(UINTPTR_MAX - 10);
    EXPECT_EQ(gex_Segment_Create(&seg, g_job.client, high, 100, GEX_MK_HOST, 0), GASNET_ERR_BAD_ARG);  // wraps
    EXPECT_EQ(gex_Segment_Create(&seg, g_job.client, buf, 64, GEX_MK_HOST, 1), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gex_Segment_Create(&seg, g_job.client, buf, 64, GEX_MK_INVALID, 0), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gex_Segment_Create(&seg, g_job.client, buf, 64, reinterpret_cast<gex_MK_t>(0x3000), 0),
              GASNET_ERR_BAD_ARG);
    EXPECT_EQ(seg, sentinel);  // untouched by every refusal
}

// ---- RMA to created endpoints' segments (TM-pairs, published segments) ----

// gex_test::Published (gex_test.hpp): an endpoint with a published segment.
using gex_test::Published;

TEST(GexEpRma, TmPairsCompareEqualExactlyForEqualArguments) {
    gex_EP_t made = GEX_EP_INVALID;
    ASSERT_EQ(gex_EP_Create(&made, g_job.client, GEX_EP_CAPABILITY_RMA, 0), GASNET_OK);
    const gex_EP_Index_t i = gex_EP_QueryIndex(made);
    EXPECT_EQ(gex_TM_Pair(g_job.ep, i), gex_TM_Pair(g_job.ep, i));
    EXPECT_EQ(gex_TM_Pair(made, 0), gex_TM_Pair(made, 0));
    EXPECT_NE(gex_TM_Pair(g_job.ep, i), gex_TM_Pair(g_job.ep, 0));
    EXPECT_NE(gex_TM_Pair(g_job.ep, i), gex_TM_Pair(made, i));
    EXPECT_NE(gex_TM_Pair(made, 0), gex_TM_Pair(g_job.ep, 0));
    EXPECT_NE(gex_TM_Pair(g_job.ep, 0), g_job.tm);
    EXPECT_NE(gex_TM_Pair(made, i), g_job.tm);
}

TEST(GexEpRma, BoundSegmentQueriesSeeEveryPublishedSegment) {
    Published p(8192, nullptr);
    for (gex_Rank_t r = 0; r < g_job.n; ++r) {
        void* owner = nullptr;
        void* local = reinterpret_cast<void*>(1);
        uintptr_t size = 0;
        EXPECT_EQ(gex_Segment_QueryBound(gex_TM_Pair(g_job.ep, p.index), r, &owner, &local, &size), 0) << "rank " << r;
        EXPECT_EQ(size, uintptr_t(8192)) << "rank " << r;
        EXPECT_NE(owner, nullptr) << "rank " << r;
        if (r == g_job.me) {
            EXPECT_EQ(owner, p.base);
            EXPECT_EQ(local, p.base);
        } else {
            // Mapped here exactly when the attach segment is (the node fast
            // path): then a store through the mapping is the owner's byte.
            void* attach_local = nullptr;
            ASSERT_EQ(gex_Segment_QueryBound(g_job.tm, r, nullptr, &attach_local, nullptr), 0);
            EXPECT_EQ(local != nullptr, attach_local != nullptr) << "rank " << r;
        }
    }
    // Through the mapping, each process writes one byte of its right
    // neighbour's segment; each finds its left neighbour's byte.
    const gex_Rank_t right = (g_job.me + 1) % g_job.n, left = (g_job.me + g_job.n - 1) % g_job.n;
    void* mapped = nullptr;
    gex_Segment_QueryBound(gex_TM_Pair(g_job.ep, p.index), right, nullptr, &mapped, nullptr);
    if (mapped) static_cast<volatile unsigned char*>(mapped)[100] = static_cast<unsigned char>(0x40 + g_job.me);
    gex_test::barrier();
    void* left_mapped = nullptr;
    gex_Segment_QueryBound(gex_TM_Pair(g_job.ep, p.index), left, nullptr, &left_mapped, nullptr);
    if (left_mapped) EXPECT_EQ(p.base[100], 0x40 + left);
    // An index nobody published: an unsuccessful query (size 0).
    uintptr_t size = 1;
    gex_Event_Wait(gex_EP_QueryBoundSegmentNB(gex_TM_Pair(g_job.ep, GASNET_MAXEPS - 1), (g_job.me + 1) % g_job.n,
                                              nullptr, nullptr, &size, 0));
    EXPECT_EQ(size, uintptr_t(0));
    gex_test::barrier();
}

// Each process writes its right neighbour's segment by every put form and
// reads its left neighbour's by every get form, through TM-pairs of the
// primordial endpoint and of the created one; each checks what it received.
void put_and_get_through_pairs(const Published& p, std::size_t bytes) {
    const gex_Rank_t me = g_job.me, n = g_job.n;
    const gex_Rank_t right = (me + 1) % n, left = (me + n - 1) % n;
    uintptr_t size = 0;
    unsigned char* dest = p.on(right, &size);
    ASSERT_GE(size, 4 * bytes + 64);
    std::vector<unsigned char> src(bytes);
    for (std::size_t i = 0; i < bytes; ++i) src[i] = gex_test::pattern(me, i, 1);
    const gex_TM_t pair = gex_TM_Pair(g_job.ep, p.index), from_made = gex_TM_Pair(p.ep, p.index);
    gex_RMA_PutBlocking(pair, right, dest, src.data(), bytes, 0);
    gex_RMA_PutNBI(from_made, right, dest + bytes, src.data(), bytes, GEX_EVENT_NOW, 0);
    gex_NBI_Wait(GEX_EC_ALL, 0);
    gex_Event_Wait(gex_RMA_PutNB(pair, right, dest + 2 * bytes, src.data(), bytes, GEX_EVENT_DEFER, 0));
    gex_RMA_PutBlockingVal(pair, right, dest + 4 * bytes, 0x1122334455667788ull + me, 8, 0);
    gex_test::barrier();
    for (int copy = 0; copy < 3; ++copy)
        for (std::size_t i = 0; i < bytes; ++i)
            ASSERT_EQ(p.base[copy * bytes + i], gex_test::pattern(left, i, 1)) << "copy " << copy << " byte " << i;
    std::uint64_t v = 0;
    std::memcpy(&v, p.base + 4 * bytes, 8);
    EXPECT_EQ(v, 0x1122334455667788ull + left);
    // Gets from the left neighbour, which holds its own left neighbour's pattern.
    const gex_Rank_t second = (left + n - 1) % n;
    unsigned char* from = p.on(left);
    std::vector<unsigned char> got(3 * bytes, 0);
    gex_RMA_GetBlocking(pair, got.data(), left, from, bytes, 0);
    gex_RMA_GetNBI(from_made, got.data() + bytes, left, from + bytes, bytes, 0);
    gex_NBI_Wait(GEX_EC_GET, 0);
    gex_Event_Wait(gex_RMA_GetNB(pair, got.data() + 2 * bytes, left, from + 2 * bytes, bytes, 0));
    for (int copy = 0; copy < 3; ++copy)
        for (std::size_t i = 0; i < bytes; ++i)
            ASSERT_EQ(got[copy * bytes + i], gex_test::pattern(second, i, 1)) << "copy " << copy << " byte " << i;
    EXPECT_EQ(gex_RMA_GetBlockingVal(pair, left, from + 4 * bytes, 8, 0), 0x1122334455667788ull + second);
    gex_test::barrier();  // nobody still reads this segment
}

TEST(GexEpRma, PutsAndGetsReachGasnetAllocatedSegments) {
    Published p(64 * 1024, nullptr);
    for (std::size_t bytes : {std::size_t(1), std::size_t(8), std::size_t(1000), std::size_t(12000)}) {
        SCOPED_TRACE(bytes);
        put_and_get_through_pairs(p, bytes);
    }
    gex_Segment_Destroy(p.seg, 0);  // withdrawn from MPI, then unmapped
}

TEST(GexEpRma, PutsAndGetsReachClientAllocatedSegments) {
    const std::size_t bytes = std::size_t(1) << 20;
    std::vector<unsigned char> mine(4 * bytes + 4096);
    Published p(mine.size(), mine.data());
    EXPECT_EQ(p.base, mine.data());
    put_and_get_through_pairs(p, bytes);
    gex_Segment_Destroy(p.seg, 0);  // withdrawn from MPI before the vector frees the memory
}

// The mappings of Gasket's node-shareable segment pages in this process
// (memfd "gasket-segment"), counted from /proc/self/maps.
int mapped_segment_pages() {
    std::FILE* maps = std::fopen("/proc/self/maps", "r");
    if (!maps) return -1;
    int n = 0;
    char line[512];
    while (std::fgets(line, sizeof line, maps))
        if (std::strstr(line, "/memfd:gasket-segment")) ++n;
    std::fclose(maps);
    return n;
}

// gex_Segment_Destroy (memory kinds §4.3, "releasing resources"): the node
// peers that mapped a published GASNet-allocated segment (here bound to
// two endpoints, each published) unmap it before the owner's call returns,
// so its pages go back to the system then, not when the last peer ends
// (any use after the call is erroneous, §4.3 3, so only the mappings are
// looked at).
TEST(GexEpRma, DestroyUnmapsTheSegmentOnEveryNodePeer) {
    const int before = mapped_segment_pages();
    ASSERT_GE(before, 0) << "/proc/self/maps cannot be read";
    Published p(64 * 1024, nullptr);
    int peers_mapping = 0;  // node peers whose copy is mapped here (the node fast path)
    for (gex_Rank_t r = 0; r < g_job.n; ++r) {
        void* local = nullptr;
        ASSERT_EQ(gex_Segment_QueryBound(gex_TM_Pair(g_job.ep, p.index), r, nullptr, &local, nullptr), 0);
        peers_mapping += r != g_job.me && local != nullptr;
    }
    EXPECT_EQ(mapped_segment_pages(), before + 1 + peers_mapping);
    // Bound to a second endpoint and published again through it: node
    // peers map it once more (a route per endpoint), and destroying it
    // withdraws both.
    gex_EP_t second = GEX_EP_INVALID;
    ASSERT_EQ(gex_EP_Create(&second, g_job.client, GEX_EP_CAPABILITY_RMA, 0), GASNET_OK);
    ASSERT_EQ(gex_EP_BindSegment(second, p.seg, 0), GASNET_OK);
    ASSERT_EQ(gex_EP_PublishBoundSegment(g_job.tm, &second, 1, 0), GASNET_OK);
    EXPECT_EQ(mapped_segment_pages(), before + 1 + 2 * peers_mapping);
    // Still reached by a put right up to the destruction.
    const gex_Rank_t right = (g_job.me + 1) % g_job.n, left = (g_job.me + g_job.n - 1) % g_job.n;
    const std::uint64_t value = 0x5eed0000ull + g_job.me;
    gex_RMA_PutBlocking(gex_TM_Pair(g_job.ep, p.index), right, p.on(right) + 64, &value, 8, 0);
    gex_test::barrier();
    std::uint64_t got = 0;
    std::memcpy(&got, p.base + 64, 8);
    EXPECT_EQ(got, 0x5eed0000ull + left);
    gex_test::barrier();
    gex_Segment_Destroy(p.seg, 0);  // returns once every node peer has unmapped it
    gex_test::barrier();            // ... every process's
    EXPECT_EQ(mapped_segment_pages(), before);
    gex_test::barrier();
}

TEST(GexEpRma, PrimordialSegmentStaysReachableThroughPairsOfCreatedEndpoints) {
    gex_EP_t made = GEX_EP_INVALID;
    ASSERT_EQ(gex_EP_Create(&made, g_job.client, GEX_EP_CAPABILITY_RMA, 0), GASNET_OK);
    const gex_Rank_t right = (g_job.me + 1) % g_job.n, left = (g_job.me + g_job.n - 1) % g_job.n;
    void* peer = nullptr;
    ASSERT_EQ(gex_Segment_QueryBound(g_job.tm, right, &peer, nullptr, nullptr), 0);
    // Region [3 MiB, +8) of each segment (the other tests use the first ones).
    const std::uint64_t value = 0xabcdef0012345678ull ^ g_job.me;
    gex_RMA_PutBlocking(gex_TM_Pair(made, 0), right, static_cast<char*>(peer) + (3 << 20), &value, 8, 0);
    gex_test::barrier();
    std::uint64_t got = 0;
    std::memcpy(&got, g_job.base + (3 << 20), 8);
    EXPECT_EQ(got, 0xabcdef0012345678ull ^ left);
    std::memset(g_job.base + (3 << 20), 0, 8);
    gex_test::barrier();
}

// ---- Teams over created endpoints (gex_TM_Create, memory kinds §5.3) ----

// A team of every process's created endpoint in reverse jobrank order: team
// rank r is jobrank n-1-r.  Queries, translation, RMA by team rank into
// the members' created segments, a duplicate, and a barrier over a team
// with LOCAL scratch inside the created segment.
TEST(GexEpTeams, CreateOverCreatedEndpointsReachesTheirSegments) {
    const std::size_t kBytes = 64 * 1024, kScratchAt = 32 * 1024;
    Published p(kBytes, nullptr);
    const gex_Rank_t n = g_job.n, me = g_job.me;
    std::vector<gex_EP_Location_t> args(n);
    for (gex_Rank_t r = 0; r < n; ++r) args[r] = gex_EP_Location_t{n - 1 - r, p.index};
    gex_TM_t team = GEX_TM_INVALID;
    gex_TM_Create(&team, 1, g_job.tm, args.data(), n, nullptr, 0, GEX_FLAG_RANK_IS_JOBRANK | GEX_FLAG_TM_NO_SCRATCH);
    ASSERT_NE(team, GEX_TM_INVALID);
    EXPECT_EQ(gex_TM_QueryEP(team), p.ep);
    EXPECT_EQ(gex_TM_QuerySize(team), n);
    const gex_Rank_t rank = gex_TM_QueryRank(team);
    EXPECT_EQ(rank, n - 1 - me);
    for (gex_Rank_t r = 0; r < n; ++r) {
        const gex_EP_Location_t at = gex_TM_TranslateRankToEP(team, r, 0);
        EXPECT_EQ(at.gex_rank, n - 1 - r);
        EXPECT_EQ(at.gex_ep_index, p.index);
        EXPECT_EQ(gex_TM_TranslateRankToJobrank(team, r), n - 1 - r);
    }
    // Team rank r writes 512 bytes into team rank r+1's created segment.
    const gex_Rank_t next = (rank + 1) % n, prev = (rank + n - 1) % n;
    std::vector<unsigned char> src(512);
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = gex_test::pattern(rank, i, 5);
    unsigned char* dest = p.on(n - 1 - next);
    gex_RMA_PutBlocking(team, next, dest, src.data(), src.size(), 0);
    gex_test::barrier();
    for (std::size_t i = 0; i < src.size(); ++i) ASSERT_EQ(p.base[i], gex_test::pattern(prev, i, 5)) << "byte " << i;
    // ... and reads it back from there, through a duplicate of the team.
    gex_TM_t dup = GEX_TM_INVALID;
    gex_TM_Dup(&dup, team, nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
    EXPECT_EQ(gex_TM_QueryEP(dup), p.ep);
    EXPECT_EQ(gex_TM_TranslateRankToEP(dup, 0, 0).gex_ep_index, p.index);
    std::vector<unsigned char> got(512, 0);
    gex_Event_Wait(gex_RMA_GetNB(dup, got.data(), next, dest, got.size(), 0));
    EXPECT_EQ(got, src);
    gex_test::barrier();
    // LOCAL scratch in the created segment; a barrier over the team.
    gex_TM_t scratched = GEX_TM_INVALID;
    gex_Addr_t scratch = p.base + kScratchAt;
    gex_TM_Create(&scratched, 1, g_job.tm, args.data(), n, &scratch, 4096,
                  GEX_FLAG_RANK_IS_JOBRANK | GEX_FLAG_TM_LOCAL_SCRATCH);
    gex_Event_Wait(gex_Coll_BarrierNB(scratched, 0));
    gex_Memvec_t back{nullptr, 0};
    EXPECT_EQ(gex_TM_Destroy(scratched, &back, 0), 1);
    EXPECT_EQ(back.gex_addr, scratch);
    EXPECT_EQ(gex_TM_Destroy(dup, nullptr, 0), 0);
    EXPECT_EQ(gex_TM_Destroy(team, nullptr, 0), 0);
    std::memset(p.base, 0, src.size());
    gex_test::barrier();
    gex_Segment_Destroy(p.seg, 0);
}

// ---- Active Messages to and from created endpoints (memory kinds §3, §5) ----
//
// Each process sends its right neighbour a Short, a Medium and a Long
// request through a TM-pair or a team; each request handler checks its
// token (the receiving endpoint, the sender's jobrank), its payload (a Long
// one in the receiving endpoint's segment) and replies to the sending
// endpoint, whose reply handler checks the same.  The handlers' tables are
// per endpoint: a created endpoint registers its own.
namespace epam {

std::atomic<int> g_requests{0}, g_replies{0}, g_bad{0};
std::atomic<std::uint64_t> g_reply_sum{0};
// What the handlers expect (set before each round, read by the handlers).
gex_EP_t g_request_ep = GEX_EP_INVALID, g_reply_ep = GEX_EP_INVALID;
gex_Rank_t g_left = 0, g_right = 0;
unsigned char* g_request_long_at = nullptr;  // where a Long request's payload lands here
unsigned char* g_reply_long_at = nullptr;    // where a Long reply's payload lands here
constexpr unsigned kSalt = 11;

void check_token(gex_Token_t t, gex_EP_t ep, bool is_request, gex_Rank_t source) {
    gex_Token_Info_t info;
    gex_Token_Info(t, &info, GEX_TI_ALL);
    if (info.gex_ep != ep || bool(info.gex_is_req) != is_request || info.gex_srcrank != source) ++g_bad;
}
bool holds(const void* buf, std::size_t n, gex_Rank_t writer) {
    const auto* b = static_cast<const unsigned char*>(buf);
    for (std::size_t i = 0; i < n; ++i)
        if (b[i] != gex_test::pattern(writer, i, kSalt)) return false;
    return true;
}

void short_request(gex_Token_t t, gex_AM_Arg_t reply_index, gex_AM_Arg_t value) {
    check_token(t, g_request_ep, true, g_left);
    ++g_requests;
    gex_AM_ReplyShort1(t, gex_AM_Index_t(reply_index), 0, value + 1);
}
void medium_request(gex_Token_t t, void* buf, size_t n, gex_AM_Arg_t reply_index) {
    check_token(t, g_request_ep, true, g_left);
    if (!holds(buf, n, g_left)) ++g_bad;
    ++g_requests;
    gex_AM_ReplyMedium0(t, gex_AM_Index_t(reply_index), buf, n, GEX_EVENT_NOW, 0);
}
void long_request(gex_Token_t t, void* buf, size_t n, gex_AM_Arg_t reply_index, gex_AM_Arg_t hi, gex_AM_Arg_t lo) {
    check_token(t, g_request_ep, true, g_left);
    if (buf != g_request_long_at || !holds(buf, n, g_left)) ++g_bad;
    ++g_requests;
    void* dest = reinterpret_cast<void*>((std::uintptr_t(std::uint32_t(hi)) << 32) | std::uint32_t(lo));
    gex_AM_ReplyLong0(t, gex_AM_Index_t(reply_index), buf, n, dest, GEX_EVENT_NOW, 0);
}
void short_reply(gex_Token_t t, gex_AM_Arg_t value) {
    check_token(t, g_reply_ep, false, g_right);
    g_reply_sum += std::uint64_t(value);
    ++g_replies;
}
void medium_reply(gex_Token_t t, void* buf, size_t n) {
    check_token(t, g_reply_ep, false, g_right);
    if (!holds(buf, n, g_job.me)) ++g_bad;  // our own payload, back
    ++g_replies;
}
void long_reply(gex_Token_t t, void* buf, size_t n) {
    check_token(t, g_reply_ep, false, g_right);
    if (buf != g_reply_long_at || !holds(buf, n, g_job.me)) ++g_bad;
    ++g_replies;
}

// The six handlers' indices at one endpoint (registered there with
// "don't care" indices, so any endpoint, the primordial one included, can
// take them).
struct Indices {
    gex_AM_Index_t short_req, medium_req, long_req, short_rep, medium_rep, long_rep;
};
Indices register_on(gex_EP_t ep) {
    const gex_Flags_t req = GEX_FLAG_AM_REQUEST, rep = GEX_FLAG_AM_REPLY;
    gex_AM_Entry_t table[] = {
        {0, reinterpret_cast<gex_AM_Fn_t>(&short_request), GEX_FLAG_AM_SHORT | req, 2, nullptr, "short_request"},
        {0, reinterpret_cast<gex_AM_Fn_t>(&medium_request), GEX_FLAG_AM_MEDIUM | req, 1, nullptr, "medium_request"},
        {0, reinterpret_cast<gex_AM_Fn_t>(&long_request), GEX_FLAG_AM_LONG | req, 3, nullptr, "long_request"},
        {0, reinterpret_cast<gex_AM_Fn_t>(&short_reply), GEX_FLAG_AM_SHORT | rep, 1, nullptr, "short_reply"},
        {0, reinterpret_cast<gex_AM_Fn_t>(&medium_reply), GEX_FLAG_AM_MEDIUM | rep, 0, nullptr, "medium_reply"},
        {0, reinterpret_cast<gex_AM_Fn_t>(&long_reply), GEX_FLAG_AM_LONG | rep, 0, nullptr, "long_reply"},
    };
    EXPECT_EQ(gex_EP_RegisterHandlers(ep, table, 6), GASNET_OK);
    return Indices{table[0].gex_index, table[1].gex_index, table[2].gex_index,
                   table[3].gex_index, table[4].gex_index, table[5].gex_index};
}

// One round: requests through (tm, rank) to the right neighbour, whose
// endpoint `to` has the handlers `at`; replies to this process's endpoint
// `from`, whose handlers are `back`.  `long_there`: where the right
// neighbour's Long payload lands (its owner's address); `long_here`: where
// the left neighbour's lands here and `reply_here` where this process's
// reply lands.  Handler indices are the same on every process (endpoints
// made and registered in the same order).
void round(gex_TM_t tm, gex_Rank_t rank, gex_EP_t to, const Indices& at, gex_EP_t from, const Indices& back,
           unsigned char* long_there, unsigned char* long_here, unsigned char* reply_here, std::size_t long_bytes) {
    g_requests = 0;
    g_replies = 0;
    g_bad = 0;
    g_reply_sum = 0;
    g_request_ep = to;
    g_reply_ep = from;
    g_left = (g_job.me + g_job.n - 1) % g_job.n;
    g_right = (g_job.me + 1) % g_job.n;
    g_request_long_at = long_here;
    g_reply_long_at = reply_here;
    gex_test::barrier();
    std::vector<unsigned char> src(std::max<std::size_t>(long_bytes, 512));
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = gex_test::pattern(g_job.me, i, kSalt);
    const auto at_reply = reinterpret_cast<std::uintptr_t>(reply_here);
    gex_AM_RequestShort2(tm, rank, at.short_req, 0, back.short_rep, gex_AM_Arg_t(1000 + g_job.me));
    gex_AM_RequestMedium1(tm, rank, at.medium_req, src.data(), 512, GEX_EVENT_NOW, 0, back.medium_rep);
    gex_AM_RequestLong3(tm, rank, at.long_req, src.data(), long_bytes, long_there, GEX_EVENT_NOW, 0, back.long_rep,
                        gex_AM_Arg_t(at_reply >> 32), gex_AM_Arg_t(at_reply & 0xffffffffu));
    GASNET_BLOCKUNTIL(g_replies.load() == 3);
    gex_test::barrier();  // every reply in, so every request served
    EXPECT_EQ(g_requests.load(), 3);
    EXPECT_EQ(g_bad.load(), 0);
    EXPECT_EQ(g_reply_sum.load(), 1001u + g_job.me);  // our value, plus one by the right neighbour
    gex_test::barrier();
}

}  // namespace epam

// Between created endpoints through their TM-pair, into GASNet-allocated
// and client-allocated segments, for Long payloads carried in the message
// and put through MPI (or copied on the node fast path).
TEST(GexEpAm, RequestsAndRepliesReachTheCreatedEndpointsHandlersAndSegments) {
    std::vector<unsigned char> client(256 * 1024);
    for (void* memory : {static_cast<void*>(nullptr), static_cast<void*>(client.data())}) {
        SCOPED_TRACE(memory ? "client-allocated" : "GASNet-allocated");
        Published p(256 * 1024, memory);
        const epam::Indices idx = epam::register_on(p.ep);
        const gex_Rank_t right = (g_job.me + 1) % g_job.n;
        unsigned char* there = p.on(right);
        for (std::size_t bytes : {std::size_t(8), std::size_t(3000), std::size_t(100000)}) {
            SCOPED_TRACE(bytes);
            // requests land in the first half of each segment, replies in the second
            epam::round(gex_TM_Pair(p.ep, p.index), right, p.ep, idx, p.ep, idx, there, p.base, p.base + 128 * 1024,
                        bytes);
        }
        gex_Segment_Destroy(p.seg, 0);
    }
}

// The primordial endpoint and a created one talk through TM-pairs both
// ways: requests from the primordial endpoint to the created one (replies
// back to the primordial endpoint's table and attach segment), and from the
// created one to the primordial one.
TEST(GexEpAm, PrimordialAndCreatedEndpointsReachEachOther) {
    Published p(256 * 1024, nullptr);
    const epam::Indices created = epam::register_on(p.ep), primordial = epam::register_on(g_job.ep);
    const gex_Rank_t right = (g_job.me + 1) % g_job.n;
    void* attach_there = nullptr;
    ASSERT_EQ(gex_Segment_QueryBound(g_job.tm, right, &attach_there, nullptr, nullptr), 0);
    const std::size_t at = (3 << 20) + (512 << 10);  // a region of the attach segment no other test uses
    unsigned char* attach_region = g_job.base + at;
    epam::round(gex_TM_Pair(g_job.ep, p.index), right, p.ep, created, g_job.ep, primordial, p.on(right), p.base,
                attach_region, 20000);
    epam::round(gex_TM_Pair(p.ep, 0), right, g_job.ep, primordial, p.ep, created,
                static_cast<unsigned char*>(attach_there) + at, attach_region, p.base + 128 * 1024, 20000);
    gex_Segment_Destroy(p.seg, 0);
}

// Through a team over created endpoints (by team rank), and the
// negotiated-payload form through a TM-pair.
TEST(GexEpAm, TeamsAndNegotiatedPayloadsReachCreatedEndpoints) {
    Published p(256 * 1024, nullptr);
    const epam::Indices idx = epam::register_on(p.ep);
    const gex_Rank_t n = g_job.n, me = g_job.me, right = (me + 1) % n;
    std::vector<gex_EP_Location_t> args(n);
    for (gex_Rank_t r = 0; r < n; ++r) args[r] = gex_EP_Location_t{r, p.index};
    gex_TM_t team = GEX_TM_INVALID;
    gex_TM_Create(&team, 1, g_job.tm, args.data(), n, nullptr, 0, GEX_FLAG_RANK_IS_JOBRANK | GEX_FLAG_TM_NO_SCRATCH);
    ASSERT_NE(team, GEX_TM_INVALID);
    epam::round(team, right, p.ep, idx, p.ep, idx, p.on(right), p.base, p.base + 128 * 1024, 5000);
    // Negotiated payload: a Medium prepared through the pair, committed.
    epam::g_requests = 0;
    epam::g_replies = 0;
    epam::g_bad = 0;
    gex_test::barrier();
    gex_AM_SrcDesc_t sd =
        gex_AM_PrepareRequestMedium(gex_TM_Pair(p.ep, p.index), right, nullptr, 256, 256, nullptr, 0, 1);
    ASSERT_NE(sd, GEX_AM_SRCDESC_NO_OP);
    auto* buf = static_cast<unsigned char*>(gex_AM_SrcDescAddr(sd));
    for (std::size_t i = 0; i < 256; ++i) buf[i] = gex_test::pattern(me, i, epam::kSalt);
    gex_AM_CommitRequestMedium1(sd, idx.medium_req, 256, idx.medium_rep);
    GASNET_BLOCKUNTIL(epam::g_replies.load() == 1);
    gex_test::barrier();
    EXPECT_EQ(epam::g_requests.load(), 1);
    EXPECT_EQ(epam::g_bad.load(), 0);
    EXPECT_EQ(gex_TM_Destroy(team, nullptr, 0), 0);
    gex_test::barrier();
    gex_Segment_Destroy(p.seg, 0);
}

// ---- VIS and remote atomics to created endpoints (memory kinds §5) ----

// Every VIS shape, put and get, through a TM-pair into the right
// neighbour's created segment (and back from the left one's), with a peer
// completion handler of the created endpoint announcing a put.
namespace epvis {
std::atomic<int> g_notices{0}, g_bad{0};
gex_EP_t g_ep = GEX_EP_INVALID;
void peer_done(gex_Token_t t, void* buf, size_t n) {
    gex_Token_Info_t info;
    gex_Token_Info(t, &info, GEX_TI_ALL);
    const gex_Rank_t left = (g_job.me + g_job.n - 1) % g_job.n;
    if (info.gex_ep != g_ep || info.gex_srcrank != left || n != 4 || std::memcmp(buf, "done", 4) != 0) ++g_bad;
    ++g_notices;
}
}  // namespace epvis

TEST(GexEpVis, EveryShapeReachesCreatedSegments) {
    Published p(64 * 1024, nullptr);
    epvis::g_ep = p.ep;
    gex_AM_Entry_t entry{0,
                         reinterpret_cast<gex_AM_Fn_t>(&epvis::peer_done),
                         GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY,
                         0,
                         nullptr,
                         "peer_done"};
    ASSERT_EQ(gex_EP_RegisterHandlers(p.ep, &entry, 1), GASNET_OK);
    gex_test::barrier();  // registered everywhere before anyone sends
    const gex_Rank_t me = g_job.me, n = g_job.n, right = (me + 1) % n, left = (me + n - 1) % n;
    const gex_TM_t pair = gex_TM_Pair(p.ep, p.index);
    unsigned char* there = p.on(right);
    std::vector<unsigned char> src(4096);
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = gex_test::pattern(me, i, 13);
    // Vector: two 1000-byte pieces to [0, 1000) and [2000, 3000).
    gex_Memvec_t dst_v[2] = {{there, 1000}, {there + 2000, 1000}}, src_v[1] = {{src.data(), 2000}};
    gex_VIS_VectorPutBlocking(pair, right, 2, dst_v, 1, src_v, 0);
    // Indexed: four 100-byte pieces to [4000 + 200 k, +100).
    void* dst_i[4] = {there + 4000, there + 4200, there + 4400, there + 4600};
    void* src_i[1] = {src.data() + 2000};
    gex_Event_Wait(gex_VIS_IndexedPutNB(pair, right, 4, dst_i, 100, 1, src_i, 400, 0));
    // Strided: 8 rows of 64 bytes, 128 apart there, contiguous here; with
    // the created endpoint's peer completion handler announcing it.
    const ptrdiff_t dst_strides[1] = {128}, src_strides[1] = {64};
    const size_t count[1] = {8};
    gex_VIS_SetPeerCompletionHandler(entry.gex_index, "done", 4, 0);
    gex_VIS_StridedPutNBI(pair, right, there + 8192, dst_strides, src.data() + 2400, src_strides, 64, count, 1, 0);
    gex_NBI_Wait(GEX_EC_PUT, 0);
    GASNET_BLOCKUNTIL(epvis::g_notices.load() == 1);
    gex_test::barrier();
    EXPECT_EQ(epvis::g_bad.load(), 0);
    auto from_left = [&](std::size_t i) { return gex_test::pattern(left, i, 13); };
    for (std::size_t i = 0; i < 1000; ++i) {
        ASSERT_EQ(p.base[i], from_left(i)) << "vector byte " << i;
        ASSERT_EQ(p.base[2000 + i], from_left(1000 + i)) << "vector byte " << 1000 + i;
    }
    for (std::size_t k = 0; k < 4; ++k)
        for (std::size_t i = 0; i < 100; ++i)
            ASSERT_EQ(p.base[4000 + 200 * k + i], from_left(2000 + 100 * k + i)) << "indexed piece " << k;
    for (std::size_t row = 0; row < 8; ++row)
        for (std::size_t i = 0; i < 64; ++i)
            ASSERT_EQ(p.base[8192 + 128 * row + i], from_left(2400 + 64 * row + i)) << "strided row " << row;
    // Gets of the same shapes from the left neighbour's segment (which holds
    // its own left neighbour's pattern).
    const gex_Rank_t second = (left + n - 1) % n;
    unsigned char* from = p.on(left);
    std::vector<unsigned char> got(2000, 0);
    gex_Memvec_t got_v[1] = {{got.data(), 2000}}, from_v[2] = {{from, 1000}, {from + 2000, 1000}};
    gex_VIS_VectorGetBlocking(pair, 1, got_v, left, 2, from_v, 0);
    for (std::size_t i = 0; i < 2000; ++i) ASSERT_EQ(got[i], gex_test::pattern(second, i, 13)) << "get byte " << i;
    std::vector<unsigned char> rows(8 * 64, 0);
    gex_VIS_StridedGetNBI(pair, rows.data(), src_strides, left, from + 8192, dst_strides, 64, count, 1, 0);
    gex_NBI_Wait(GEX_EC_GET, 0);
    for (std::size_t i = 0; i < rows.size(); ++i)
        ASSERT_EQ(rows[i], gex_test::pattern(second, 2400 + i, 13)) << "strided get byte " << i;
    gex_test::barrier();
    gex_Segment_Destroy(p.seg, 0);
}

// An atomic domain over a team of every process's created endpoint: every
// process adds to one counter in team rank 0's created segment and swaps
// into its right neighbour's, fetching and not, blocking (NB) and NBI, by
// team rank and by jobrank.
TEST(GexEpAtomics, DomainsOverCreatedEndpointsReachTheirSegments) {
    Published p(8192, nullptr);
    const gex_Rank_t n = g_job.n, me = g_job.me;
    std::vector<gex_EP_Location_t> args(n);
    for (gex_Rank_t r = 0; r < n; ++r) args[r] = gex_EP_Location_t{n - 1 - r, p.index};  // team rank r: jobrank n-1-r
    gex_TM_t team = GEX_TM_INVALID;
    gex_TM_Create(&team, 1, g_job.tm, args.data(), n, nullptr, 0, GEX_FLAG_RANK_IS_JOBRANK | GEX_FLAG_TM_NO_SCRATCH);
    ASSERT_NE(team, GEX_TM_INVALID);
    gex_AD_t ad = GEX_AD_INVALID;
    gex_AD_Create(&ad, team, GEX_DT_U64, GEX_OP_ADD | GEX_OP_FADD | GEX_OP_SWAP | GEX_OP_GET, 0);
    const gex_Rank_t rank = gex_TM_QueryRank(team), next = (rank + 1) % n;
    auto* counter_at0 = reinterpret_cast<std::uint64_t*>(p.on(n - 1));  // team rank 0 is jobrank n-1
    auto* slot_next = reinterpret_cast<std::uint64_t*>(p.on(n - 1 - next)) + 1;
    gex_AD_OpNBI_U64(ad, nullptr, 0, counter_at0, GEX_OP_ADD, 1, 0, 0);
    gex_NBI_Wait(GEX_EC_RMW, 0);
    std::uint64_t old = 0;
    gex_Event_Wait(gex_AD_OpNB_U64(ad, &old, 0, counter_at0, GEX_OP_FADD, 10, 0, 0));
    EXPECT_GE(old, std::uint64_t(1));            // this process's own add of 1 at least
    EXPECT_LE(old, std::uint64_t(11) * n - 10);  // at most everyone else's 11 and that 1
    std::uint64_t prior = 1;
    gex_Event_Wait(
        gex_AD_OpNB_U64(ad, &prior, n - 1 - next, slot_next, GEX_OP_SWAP, 1000 + rank, 0, GEX_FLAG_RANK_IS_JOBRANK));
    EXPECT_EQ(prior, std::uint64_t(0));
    gex_test::barrier();
    std::uint64_t total = 0;
    gex_Event_Wait(gex_AD_OpNB_U64(ad, &total, 0, counter_at0, GEX_OP_GET, 0, 0, 0));
    EXPECT_EQ(total, std::uint64_t(11) * n);
    const gex_Rank_t prev = (rank + n - 1) % n;
    EXPECT_EQ(reinterpret_cast<std::uint64_t*>(p.base)[1], std::uint64_t(1000 + prev));
    gex_test::barrier();
    gex_AD_Destroy(ad);
    EXPECT_EQ(gex_TM_Destroy(team, nullptr, 0), 0);
    gex_Segment_Destroy(p.seg, 0);
}

// A team over created endpoints split by jobrank parity: the halves keep
// the members' endpoints (queries, translations), and a put by rank in the
// half reaches the member endpoint's segment.
TEST(GexEpTeams, SplitKeepsTheCreatedEndpoints) {
    Published p(8192, nullptr);
    const gex_Rank_t n = g_job.n, me = g_job.me;
    std::vector<gex_EP_Location_t> args(n);
    for (gex_Rank_t r = 0; r < n; ++r) args[r] = gex_EP_Location_t{r, p.index};
    gex_TM_t team = GEX_TM_INVALID;
    gex_TM_Create(&team, 1, g_job.tm, args.data(), n, nullptr, 0, GEX_FLAG_RANK_IS_JOBRANK | GEX_FLAG_TM_NO_SCRATCH);
    ASSERT_NE(team, GEX_TM_INVALID);
    gex_TM_t half = GEX_TM_INVALID;
    gex_TM_Split(&half, team, int(me % 2), int(me), nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
    ASSERT_NE(half, GEX_TM_INVALID);
    const gex_Rank_t size = gex_TM_QuerySize(half), rank = gex_TM_QueryRank(half);
    EXPECT_EQ(size, (n - me % 2 + 1) / 2);  // the jobranks of my parity
    EXPECT_EQ(rank, me / 2);
    EXPECT_EQ(gex_TM_QueryEP(half), p.ep);
    for (gex_Rank_t r = 0; r < size; ++r) {
        const gex_EP_Location_t at = gex_TM_TranslateRankToEP(half, r, 0);
        EXPECT_EQ(at.gex_rank, 2 * r + me % 2);
        EXPECT_EQ(at.gex_ep_index, p.index);
    }
    // Each member puts its jobrank into the next member's created segment.
    const gex_Rank_t next = (rank + 1) % size, prev = (rank + size - 1) % size;
    const std::uint64_t mine = 0x5000 + me;
    gex_RMA_PutBlocking(half, next, p.on(2 * next + me % 2) + 64, &mine, 8, 0);
    gex_test::barrier();
    std::uint64_t got = 0;
    std::memcpy(&got, p.base + 64, 8);
    EXPECT_EQ(got, 0x5000u + 2 * prev + me % 2);
    EXPECT_EQ(gex_TM_Destroy(half, nullptr, 0), 0);
    EXPECT_EQ(gex_TM_Destroy(team, nullptr, 0), 0);
    gex_test::barrier();
    gex_Segment_Destroy(p.seg, 0);
}

// Its own suite, after the others (GoogleTest runs suites in order of
// appearance): the endpoints it makes stay (there is no destroy).
TEST(GexEndpointsLast, RunOutAtMaxEpsWithResource) {
    Quiet quiet;
    gex_EP_t ep = GEX_EP_INVALID;
    gex_EP_Index_t last = 0;
    int made = 0;
    while (made < 2 * GASNET_MAXEPS && gex_EP_Create(&ep, g_job.client, GEX_EP_CAPABILITY_RMA, 0) == GASNET_OK) {
        last = gex_EP_QueryIndex(ep);
        ++made;
    }
    EXPECT_EQ(last, gex_EP_Index_t(GASNET_MAXEPS - 1));
    const gex_EP_t before = ep;
    EXPECT_EQ(gex_EP_Create(&ep, g_job.client, GEX_EP_CAPABILITY_RMA, 0), GASNET_ERR_RESOURCE);
    EXPECT_EQ(ep, before);
}

}  // namespace
