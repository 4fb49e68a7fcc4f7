// tests/mpi/gex/gex_ep_team_par_test.cpp -- the blocking calls over a team
// naming several endpoints of one process, each member calling from its own
// thread (GASNET_PAR; gasnet-ex-memory-kinds.txt §5.3 10: "multiple callers
// per process"): gex_EP_PublishBoundSegment, gex_TM_Split, gex_TM_Dup and
// gex_TM_Create with such a team as parent.  Every new team's ranks,
// endpoints and jobranks are checked on every member, and a collective over
// it (each thread starting and waiting for its own member's share) proves
// its members are the ones named.  On every process, at 2 and 4 processes,
// node fast path on and off.
//
// The parent: every process's endpoints A and B (made here, each with a
// 4 KiB segment), two members per process:
//   rank p         (0 <= p < n): endpoint A of jobrank p
//   rank n + p     (0 <= p < n): endpoint B of jobrank n-1-p
// so a process's local member 0 is its A (the lower rank), 1 its B.
#ifndef GASNET_PAR
#error "this test is a GASNET_PAR program (CMakeLists.txt defines it)"
#endif

#include <gasnet_coll.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <thread>
#include <vector>

#include "gex_test.hpp"

using gex_test::g_job;

namespace {

constexpr std::size_t kSegment = 4096;

struct Parent {
    gex_EP_t ep[2] = {GEX_EP_INVALID, GEX_EP_INVALID};  // A, B
    gex_Segment_t seg[2] = {GEX_SEGMENT_INVALID, GEX_SEGMENT_INVALID};
    gex_EP_Index_t index[2] = {0, 0};
    std::vector<gex_EP_Location_t> args;                // the members in rank order
    gex_TM_t tm[2] = {GEX_TM_INVALID, GEX_TM_INVALID};  // this process's handles, A's then B's
    gex_Rank_t size() const { return gex_Rank_t(args.size()); }
};

// A new team's members as parent ranks in rank order: what every handle of
// it must say (rank, size, and each rank's jobrank and endpoint), and a
// reduction to all over it, this thread's share: the sum of its members'
// parent ranks + 1.
void expect_team(const Parent& p, gex_TM_t tm, const std::vector<gex_Rank_t>& members, gex_Rank_t mine) {
    ASSERT_NE(tm, GEX_TM_INVALID);
    const auto at = std::find(members.begin(), members.end(), mine);
    ASSERT_NE(at, members.end());
    EXPECT_EQ(gex_TM_QueryRank(tm), gex_Rank_t(at - members.begin()));
    EXPECT_EQ(gex_TM_QuerySize(tm), gex_Rank_t(members.size()));
    EXPECT_EQ(gex_EP_QueryIndex(gex_TM_QueryEP(tm)), p.args[mine].gex_ep_index);
    std::uint64_t expected = 0;
    for (gex_Rank_t r = 0; r < members.size(); ++r) {
        const gex_EP_Location_t want = p.args[members[r]];
        const gex_EP_Location_t got = gex_TM_TranslateRankToEP(tm, r, 0);
        EXPECT_EQ(got.gex_rank, want.gex_rank) << "rank " << r;
        EXPECT_EQ(got.gex_ep_index, want.gex_ep_index) << "rank " << r;
        EXPECT_EQ(gex_TM_TranslateRankToJobrank(tm, r), want.gex_rank) << "rank " << r;
        expected += members[r] + 1;
    }
    std::uint64_t in = mine + 1, out = 0;
    gex_Event_Wait(gex_Coll_ReduceToAllNB(tm, &out, &in, GEX_DT_U64, 8, 1, GEX_OP_ADD, nullptr, nullptr, 0));
    EXPECT_EQ(out, expected);
}

// What thread k (local member k, parent rank `mine`) does.
void member(Parent& p, int k, std::array<std::vector<gex_TM_t>, 2>& created) {
    const gex_Rank_t n = g_job.n, me = g_job.me, size = p.size();
    const gex_TM_t tm = p.tm[k];
    const gex_Rank_t mine = gex_TM_QueryRank(tm);

    // Publication: each member its own endpoint; then each member puts its
    // parent rank into the next member's segment (the next rank, possibly of
    // this process), and every member finds its predecessor's.
    ASSERT_EQ(gex_EP_PublishBoundSegment(tm, &p.ep[k], 1, 0), GASNET_OK);
    const gex_Rank_t next = (mine + 1) % size, prev = (mine + size - 1) % size;
    void* owner = nullptr;
    uintptr_t bytes = 0;
    EXPECT_EQ(gex_Segment_QueryBound(tm, next, &owner, nullptr, &bytes), 0);
    EXPECT_EQ(bytes, uintptr_t(kSegment));
    const std::uint64_t value = 1000 + mine;
    gex_RMA_PutBlocking(tm, next, owner, const_cast<std::uint64_t*>(&value), sizeof value, 0);
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
    const auto* here = static_cast<const std::uint64_t*>(gex_Segment_QueryAddr(p.seg[k]));
    EXPECT_EQ(here[0], 1000 + prev);
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));

    // Split by the parity of the parent rank, keyed by its negation: each
    // colour's members in falling parent rank order.  With two processes
    // or more, a process's A and B land in different teams at some process.
    {
        gex_TM_t half = GEX_TM_INVALID;
        gex_TM_Split(&half, tm, int(mine % 2), -int(mine), nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
        std::vector<gex_Rank_t> members;
        for (gex_Rank_t r = size; r-- > 0;)
            if (r % 2 == mine % 2) members.push_back(r);
        expect_team(p, half, members, mine);
        gex_TM_Destroy(half, nullptr, 0);
    }
    // Split with every A joining one colour and every B none.
    {
        gex_TM_t as = GEX_TM_INVALID;
        gex_TM_Split(k == 0 ? &as : nullptr, tm, 7, int(n - mine), nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
        if (k == 0) {
            std::vector<gex_Rank_t> members;
            for (gex_Rank_t r = n; r-- > 0;) members.push_back(r);
            expect_team(p, as, members, mine);
            gex_TM_Destroy(as, nullptr, 0);
        }
    }
    // Split into one colour, keyed by rank: every member in parent order, a
    // team naming both endpoints of every process again.
    {
        gex_TM_t all = GEX_TM_INVALID;
        gex_TM_Split(&all, tm, 0, int(mine), nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
        std::vector<gex_Rank_t> members;
        for (gex_Rank_t r = 0; r < size; ++r) members.push_back(r);
        expect_team(p, all, members, mine);
        gex_TM_Destroy(all, nullptr, 0);
    }
    // Dup: the same members, in the same order.
    {
        gex_TM_t dup = GEX_TM_INVALID;
        gex_TM_Dup(&dup, tm, nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
        std::vector<gex_Rank_t> members;
        for (gex_Rank_t r = 0; r < size; ++r) members.push_back(r);
        expect_team(p, dup, members, mine);
        EXPECT_NE(dup, tm);
        gex_TM_Destroy(dup, nullptr, 0);
    }
    // Create, each local member naming the other kind of endpoint: A's
    // caller names every B (in jobrank order) and receives this process's
    // B's handle, B's caller every A (falling jobrank order).
    {
        std::vector<gex_EP_Location_t> args;
        std::vector<gex_Rank_t> members;  // as parent ranks
        for (gex_Rank_t q = 0; q < n; ++q) {
            const gex_Rank_t jobrank = k == 0 ? q : n - 1 - q;
            args.push_back(gex_EP_Location_t{jobrank, p.index[1 - k]});
            members.push_back(k == 0 ? n + (n - 1 - jobrank) : jobrank);
        }
        gex_TM_t other = GEX_TM_INVALID;
        gex_TM_Create(&other, 1, tm, args.data(), args.size(), nullptr, 0,
                      GEX_FLAG_RANK_IS_JOBRANK | GEX_FLAG_TM_NO_SCRATCH);
        // A team of one member per process, whose handle here this thread
        // holds: the member is the other endpoint.
        expect_team(p, other, members, k == 0 ? n + (n - 1 - me) : me);
        gex_TM_Destroy(other, nullptr, 0);
    }
    // Create, both local members naming the same team (every endpoint,
    // B's first): each receives this process's two handles, the same ones.
    {
        std::vector<gex_EP_Location_t> args;
        std::vector<gex_Rank_t> members;  // as parent ranks
        for (gex_Rank_t r = n; r < size; ++r) members.push_back(r);
        for (gex_Rank_t r = 0; r < n; ++r) members.push_back(r);
        for (gex_Rank_t r : members) args.push_back(p.args[r]);
        created[std::size_t(k)].assign(2, GEX_TM_INVALID);
        gex_TM_Create(created[std::size_t(k)].data(), 2, tm, args.data(), args.size(), nullptr, 0,
                      GEX_FLAG_RANK_IS_JOBRANK | GEX_FLAG_TM_NO_SCRATCH);
        // Handle j is this process's j-th member in the new rank order: B
        // (rank n-1-me) before A (rank n+me).
        const gex_TM_t mine_now = created[std::size_t(k)][1 - std::size_t(k)];
        expect_team(p, mine_now, members, mine);
    }
}

}  // namespace

TEST(GexEpTeamsThreads, EveryMemberCallsFromItsOwnThread) {
    const gex_Rank_t n = g_job.n, me = g_job.me;
    Parent p;
    for (int k = 0; k < 2; ++k) {
        ASSERT_EQ(gex_EP_Create(&p.ep[k], g_job.client, GEX_EP_CAPABILITY_RMA, 0), GASNET_OK);
        ASSERT_EQ(gex_Segment_Create(&p.seg[k], g_job.client, nullptr, kSegment, GEX_MK_HOST, 0), GASNET_OK);
        ASSERT_EQ(gex_EP_BindSegment(p.ep[k], p.seg[k], 0), GASNET_OK);
        p.index[k] = gex_EP_QueryIndex(p.ep[k]);
    }
    for (gex_Rank_t q = 0; q < n; ++q) p.args.push_back(gex_EP_Location_t{q, p.index[0]});
    for (gex_Rank_t q = 0; q < n; ++q) p.args.push_back(gex_EP_Location_t{n - 1 - q, p.index[1]});
    // One thread makes the parent (one call, a handle per local member).
    gex_TM_Create(p.tm, 2, g_job.tm, p.args.data(), p.args.size(), nullptr, 0,
                  GEX_FLAG_RANK_IS_JOBRANK | GEX_FLAG_TM_NO_SCRATCH);
    ASSERT_EQ(gex_TM_QueryRank(p.tm[0]), me);
    ASSERT_EQ(gex_TM_QueryRank(p.tm[1]), n + (n - 1 - me));

    std::array<std::vector<gex_TM_t>, 2> created;
    std::thread a([&] { member(p, 0, created); }), b([&] { member(p, 1, created); });
    a.join();
    b.join();
    EXPECT_EQ(created[0], created[1]);  // the same two handles to both callers
    EXPECT_NE(created[0][0], created[0][1]);
    // One thread destroys a team's handles here (each once), then the parent's.
    for (gex_TM_t t : created[0]) gex_TM_Destroy(t, nullptr, 0);
    for (gex_TM_t t : p.tm) gex_TM_Destroy(t, nullptr, 0);
    gex_test::barrier();
}
