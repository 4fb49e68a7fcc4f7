// tests/mpi/gex/gex_team_test.cpp -- GASNet-EX team construction
// (gasnet-ex-api.txt, "Operations on gex_TM_t": gex_TM_Split,
// gex_TM_Create, gex_TM_Destroy; gasnet-ex-memory-kinds.txt §5.2:
// gex_TM_Dup) and made teams in every call that takes a
// team: the queries and translations against the membership computed here,
// RMA, bound-segment queries, an Active Message (whose gex_Token_Info
// source is a jobrank) and an atomic domain over a made team; splits of a
// made team; scratch space handed back; the size queries.
//
// Region: [kRegion, +64 KiB) of every segment, cleared again by each test.
#include <gasnet_ratomic.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "gex_test.hpp"

using gex_test::barrier;
using gex_test::g_job;

namespace {

constexpr std::size_t kRegion = std::size_t(3) << 20 | (768 << 10);
constexpr std::size_t kRegionBytes = 64 << 10;
constexpr std::size_t kScratch = kRegion + (32 << 10);  // scratch space granted to teams

void clear_region() {
    barrier();
    std::memset(g_job.base + kRegion, 0, kRegionBytes);
    barrier();
}

// Where byte `offset` of the region is on member `rank` of `tm` (its owner's address).
char* remote(gex_TM_t tm, gex_Rank_t rank, std::size_t offset) {
    void* owner = nullptr;
    uintptr_t size = 0;
    gex_Event_Wait(gex_EP_QueryBoundSegmentNB(tm, rank, &owner, nullptr, &size, 0));
    EXPECT_EQ(size, gex_test::kSegmentBytes);
    return static_cast<char*>(owner) + kRegion + offset;
}

// Checks tm against `members` (jobranks in rank order), which holds this process.
void expect_team(gex_TM_t tm, const std::vector<gex_Rank_t>& members, gex_Flags_t flags) {
    const auto mine = std::find(members.begin(), members.end(), g_job.me);
    ASSERT_NE(mine, members.end());
    EXPECT_EQ(gex_TM_QuerySize(tm), gex_Rank_t(members.size()));
    EXPECT_EQ(gex_TM_QueryRank(tm), gex_Rank_t(mine - members.begin()));
    EXPECT_EQ(gex_TM_QueryFlags(tm), flags);
    EXPECT_EQ(gex_TM_QueryClient(tm), g_job.client);
    EXPECT_EQ(gex_TM_QueryEP(tm), g_job.ep);
    for (gex_Rank_t r = 0; r < members.size(); ++r) {
        EXPECT_EQ(gex_TM_TranslateRankToJobrank(tm, r), members[r]);
        const gex_EP_Location_t loc = gex_TM_TranslateRankToEP(tm, r, 0);
        EXPECT_EQ(loc.gex_rank, members[r]);
        EXPECT_EQ(loc.gex_ep_index, 0u);
    }
    for (gex_Rank_t j = 0; j < g_job.n; ++j) {
        const auto at = std::find(members.begin(), members.end(), j);
        EXPECT_EQ(gex_TM_TranslateJobrankToRank(tm, j),
                  at == members.end() ? GEX_RANK_INVALID : gex_Rank_t(at - members.begin()));
    }
}

// ---- an Active Message over a made team ----
std::atomic<int> g_requests_ok{0}, g_requests_bad{0}, g_replies{0};
// Fixed indices: the order tests run in cannot move the "don't care" ones
// other tests check.
constexpr gex_AM_Index_t g_req_index = 170, g_rep_index = 171;

// The request carries the sender's jobrank: gex_Token_Info must say the same.
void team_req(gex_Token_t t, gex_AM_Arg_t sender) {
    gex_Token_Info_t info;
    gex_Token_Info(t, &info, GEX_TI_SRCRANK);
    (info.gex_srcrank == gex_Rank_t(sender) ? g_requests_ok : g_requests_bad).fetch_add(1);
    gex_AM_ReplyShort0(t, g_rep_index, 0);
}
void team_rep(gex_Token_t) { g_replies.fetch_add(1); }

void register_once() {
    static bool done = false;
    if (done) return;
    gex_AM_Entry_t table[] = {
        {g_req_index, reinterpret_cast<gex_AM_Fn_t>(&team_req), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 1, nullptr,
         "team_req"},
        {g_rep_index, reinterpret_cast<gex_AM_Fn_t>(&team_rep), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 0, nullptr,
         "team_rep"},
    };
    ASSERT_EQ(gex_EP_RegisterHandlers(g_job.ep, table, 2), GASNET_OK);
    done = true;
    barrier();  // registered everywhere before any request
}

// Every communication call on made team `tm` (members: jobranks in rank
// order), each member with its team neighbours: a put to the right, a get
// from the left, an AM request to the right, fetch-adds to rank 0 (by rank
// and by jobrank).
void communicate(gex_TM_t tm, const std::vector<gex_Rank_t>& members) {
    const gex_Rank_t size = gex_Rank_t(members.size()), me = gex_TM_QueryRank(tm);
    const gex_Rank_t right = (me + 1) % size, left = (me + size - 1) % size;
    clear_region();
    // Put my jobrank into slot 0 of the right neighbour; get the left one's slot 1.
    const uint64_t mine = 1000 + g_job.me;
    std::memcpy(g_job.base + kRegion + 8, &mine, 8);
    barrier();
    gex_RMA_PutBlocking(tm, right, remote(tm, right, 0), &mine, 8, 0);
    uint64_t got = 0;
    gex_RMA_GetBlocking(tm, &got, left, remote(tm, left, 8), 8, 0);
    EXPECT_EQ(got, 1000 + members[left]);
    gex_RMA_PutBlockingVal(tm, right, remote(tm, right, 16), gex_RMA_Value_t(mine), 8, 0);
    EXPECT_EQ(gex_RMA_GetBlockingVal(tm, left, remote(tm, left, 8), 8, 0), gex_RMA_Value_t(1000 + members[left]));
    barrier();
    uint64_t landed = 0, landed_val = 0;
    std::memcpy(&landed, g_job.base + kRegion, 8);
    std::memcpy(&landed_val, g_job.base + kRegion + 16, 8);
    EXPECT_EQ(landed, 1000 + members[left]);
    EXPECT_EQ(landed_val, 1000 + members[left]);
    // An AM to the right neighbour, named by team rank.
    register_once();
    g_requests_ok = 0;
    g_requests_bad = 0;
    g_replies = 0;
    barrier();
    gex_AM_RequestShort1(tm, right, g_req_index, 0, gex_AM_Arg_t(g_job.me));
    GASNET_BLOCKUNTIL(g_replies.load() == 1 && g_requests_ok.load() + g_requests_bad.load() == 1);
    EXPECT_EQ(g_requests_ok.load(), 1);
    EXPECT_EQ(g_requests_bad.load(), 0);
    barrier();
    // Remote atomics over the team: two fetch-adds to rank 0's counter.
    gex_AD_t ad = GEX_AD_INVALID;
    gex_AD_Create(&ad, tm, GEX_DT_U64, GEX_OP_FADD, 0);
    EXPECT_EQ(gex_AD_QueryTM(ad), tm);
    uint64_t* counter = reinterpret_cast<uint64_t*>(remote(tm, 0, 24));
    uint64_t old1 = ~0ull, old2 = ~0ull;
    gex_Event_Wait(gex_AD_OpNB_U64(ad, &old1, 0, counter, GEX_OP_FADD, 1, 0, 0));
    gex_Event_Wait(gex_AD_OpNB_U64(ad, &old2, members[0], counter, GEX_OP_FADD, 1, 0, GEX_FLAG_RANK_IS_JOBRANK));
    EXPECT_LT(old1, 2u * size);
    EXPECT_LT(old2, 2u * size);
    barrier();
    if (me == 0) {
        uint64_t total = 0;
        std::memcpy(&total, g_job.base + kRegion + 24, 8);
        EXPECT_EQ(total, 2u * size);
    }
    gex_AD_Destroy(ad);
    clear_region();
}

TEST(GexTeams, SplitByParityInReverseOrder) {
    const gex_Rank_t me = g_job.me, n = g_job.n;
    std::vector<gex_Rank_t> members;  // my parity, by decreasing jobrank (key -jobrank)
    for (gex_Rank_t j = n; j-- > 0;)
        if (j % 2 == me % 2) members.push_back(j);
    EXPECT_EQ(gex_TM_Split(nullptr, g_job.tm, int(me % 2), -int(me), nullptr, 0, GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED),
              0u);
    gex_TM_t tm = GEX_TM_INVALID;
    EXPECT_EQ(gex_TM_Split(&tm, g_job.tm, int(me % 2), -int(me), nullptr, 0, GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED),
              64u);
    EXPECT_EQ(tm, GEX_TM_INVALID);  // a query makes no team
    gex_TM_Split(&tm, g_job.tm, int(me % 2), -int(me), nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
    ASSERT_NE(tm, GEX_TM_INVALID);
    ASSERT_NE(tm, g_job.tm);
    expect_team(tm, members, GEX_FLAG_TM_NO_SCRATCH);
    communicate(tm, members);
    // Client data on a made team.
    int marker = 7;
    gex_TM_SetCData(tm, &marker);
    EXPECT_EQ(gex_TM_QueryCData(tm), &marker);
    // A split of the made team: its ranks 0 and 1 together (keys equal: parent order).
    gex_TM_t sub = GEX_TM_INVALID;
    const gex_Rank_t r = gex_TM_QueryRank(tm);
    gex_TM_Split(&sub, tm, int(r / 2), 5, nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
    std::vector<gex_Rank_t> sub_members;
    for (gex_Rank_t i = r / 2 * 2; i < std::min<gex_Rank_t>(r / 2 * 2 + 2, members.size()); ++i)
        sub_members.push_back(members[i]);
    expect_team(sub, sub_members, GEX_FLAG_TM_NO_SCRATCH);
    communicate(sub, sub_members);  // a team of one at 2 processes: everything to itself
    gex_Memvec_t scratch{reinterpret_cast<void*>(1), 1};
    EXPECT_EQ(gex_TM_Destroy(sub, &scratch, 0), 0);
    EXPECT_EQ(scratch.gex_addr, reinterpret_cast<void*>(1));  // untouched: the team had no scratch space
    EXPECT_EQ(gex_TM_Destroy(tm, nullptr, 0), 0);
    barrier();
}

TEST(GexTeams, SplitWithoutSomeProcessesAndScratchHandedBack) {
    const gex_Rank_t me = g_job.me;
    // Process 0 joins no team; the others form one, with scratch space.
    gex_TM_t tm = GEX_TM_INVALID;
    void* scratch = g_job.base + kScratch;
    gex_TM_Split(me == 0 ? nullptr : &tm, g_job.tm, 3, 0, scratch, 64, 0);
    if (me == 0) {
        EXPECT_EQ(tm, GEX_TM_INVALID);
    } else {
        std::vector<gex_Rank_t> members;
        for (gex_Rank_t j = 1; j < g_job.n; ++j) members.push_back(j);
        expect_team(tm, members, 0);
        gex_Memvec_t given{nullptr, 0};
        EXPECT_EQ(gex_TM_Destroy(tm, &given, 0), 1);
        EXPECT_EQ(given.gex_addr, scratch);
        EXPECT_EQ(given.gex_len, 64u);
    }
    barrier();
}

TEST(GexTeams, DupKeepsTheMembersInOrder) {
    const gex_Rank_t me = g_job.me, n = g_job.n;
    EXPECT_EQ(gex_TM_Dup(nullptr, g_job.tm, nullptr, 0, GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED), 64u);
    // The primordial team's duplicate: every process, by jobrank.
    std::vector<gex_Rank_t> all;
    for (gex_Rank_t j = 0; j < n; ++j) all.push_back(j);
    gex_TM_t world = GEX_TM_INVALID;
    EXPECT_EQ(gex_TM_Dup(&world, g_job.tm, nullptr, 0, GEX_FLAG_TM_NO_SCRATCH), 0u);
    ASSERT_NE(world, GEX_TM_INVALID);
    ASSERT_NE(world, g_job.tm);
    expect_team(world, all, GEX_FLAG_TM_NO_SCRATCH);
    communicate(world, all);
    // A made team's duplicate (parity, decreasing jobrank), with LOCAL
    // scratch handed back by gex_TM_Destroy.
    std::vector<gex_Rank_t> members;
    for (gex_Rank_t j = n; j-- > 0;)
        if (j % 2 == me % 2) members.push_back(j);
    gex_TM_t parity = GEX_TM_INVALID, dup = GEX_TM_INVALID;
    gex_TM_Split(&parity, g_job.tm, int(me % 2), -int(me), nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
    void* scratch = g_job.base + kScratch;
    gex_TM_Dup(&dup, parity, scratch, 64, GEX_FLAG_TM_LOCAL_SCRATCH);
    ASSERT_NE(dup, parity);
    expect_team(dup, members, GEX_FLAG_TM_LOCAL_SCRATCH);
    communicate(dup, members);
    gex_Event_Wait(gex_Coll_BarrierNB(dup, 0));
    gex_Memvec_t given{nullptr, 0};
    EXPECT_EQ(gex_TM_Destroy(dup, &given, 0), 1);
    EXPECT_EQ(given.gex_addr, scratch);
    EXPECT_EQ(given.gex_len, 64u);
    // The original outlives its duplicate.
    expect_team(parity, members, GEX_FLAG_TM_NO_SCRATCH);
    EXPECT_EQ(gex_TM_Destroy(parity, nullptr, 0), 0);
    EXPECT_EQ(gex_TM_Destroy(world, nullptr, 0), 0);
    barrier();
}

TEST(GexTeams, CreateByJobrankAndByParentRank) {
    const gex_Rank_t me = g_job.me, n = g_job.n;
    // Every process, in reverse jobrank order, GLOBAL scratch: each member's
    // own address from its owner's view.
    std::vector<gex_EP_Location_t> args;
    std::vector<gex_Addr_t> scratch;
    std::vector<gex_Rank_t> members;
    for (gex_Rank_t j = n; j-- > 0;) {
        args.push_back({j, 0});
        members.push_back(j);
        void* owner = nullptr;
        gex_Event_Wait(gex_EP_QueryBoundSegmentNB(g_job.tm, j, &owner, nullptr, nullptr, 0));
        scratch.push_back(static_cast<char*>(owner) + kScratch);
    }
    EXPECT_EQ(
        gex_TM_Create(nullptr, 1, g_job.tm, args.data(), args.size(), nullptr, 64,
                      GEX_FLAG_RANK_IS_JOBRANK | GEX_FLAG_TM_GLOBAL_SCRATCH | GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED),
        64u);
    gex_TM_t all = GEX_TM_INVALID;
    gex_TM_Create(&all, 1, g_job.tm, args.data(), args.size(), scratch.data(), 64,
                  GEX_FLAG_RANK_IS_JOBRANK | GEX_FLAG_TM_GLOBAL_SCRATCH);
    expect_team(all, members, GEX_FLAG_RANK_IS_JOBRANK | GEX_FLAG_TM_GLOBAL_SCRATCH);
    communicate(all, members);
    // Pairs by rank in `all` (ranks 2k, 2k+1 -> jobranks n-1-2k, n-2-2k),
    // LOCAL scratch; a team of one when n is odd.
    const gex_Rank_t r = gex_TM_QueryRank(all);
    std::vector<gex_EP_Location_t> pair_args;
    std::vector<gex_Rank_t> pair;
    for (gex_Rank_t i = r / 2 * 2; i < std::min(r / 2 * 2 + 2, n); ++i) {
        pair_args.push_back({i, 0});
        pair.push_back(members[i]);
    }
    gex_Addr_t mine = g_job.base + kScratch + 64;
    gex_TM_t two = GEX_TM_INVALID;
    gex_TM_Create(&two, 1, all, pair_args.data(), pair_args.size(), &mine, 128, GEX_FLAG_TM_LOCAL_SCRATCH);
    expect_team(two, pair, GEX_FLAG_TM_LOCAL_SCRATCH);
    gex_Memvec_t given{nullptr, 0};
    EXPECT_EQ(gex_TM_Destroy(two, &given, 0), 1);
    EXPECT_EQ(given.gex_addr, mine);
    EXPECT_EQ(given.gex_len, 128u);
    EXPECT_EQ(gex_TM_Destroy(all, &given, GEX_FLAG_GLOBALLY_QUIESCED), 1);
    EXPECT_EQ(given.gex_addr, static_cast<void*>(g_job.base + kScratch));
    // Process 0 names nobody (numargs 0); the rest form one team without scratch.
    std::vector<gex_EP_Location_t> rest;
    for (gex_Rank_t j = 1; j < n; ++j) rest.push_back({j, 0});
    gex_TM_t others = GEX_TM_INVALID;
    if (me == 0) {
        EXPECT_EQ(gex_TM_Create(nullptr, 0, g_job.tm, nullptr, 0, nullptr, 0, GEX_FLAG_TM_NO_SCRATCH), 0u);
    } else {
        gex_TM_Create(&others, 1, g_job.tm, rest.data(), rest.size(), nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
        std::vector<gex_Rank_t> expect;
        for (gex_Rank_t j = 1; j < n; ++j) expect.push_back(j);
        expect_team(others, expect, GEX_FLAG_TM_NO_SCRATCH);
        EXPECT_EQ(gex_TM_Destroy(others, nullptr, 0), 0);
    }
    barrier();
}

}  // namespace
