// tests/mpi/gex/gex_ep_team_test.cpp -- teams naming several endpoints of
// one process (gasnet-ex-memory-kinds.txt §5.3 10, 13, 14): gex_TM_Create
// gives each process one handle per member it holds, in rank order, and
// every point-to-point call by team rank -- RMA, Active Messages, remote
// atomics -- goes from the handle's member endpoint to the member it
// names, another process's or this one's -- and the collectives over it,
// where every handle starts its member's share (all shares started before
// any is waited for, as one thread must) and gets the member's result.  On
// every process, at 2 and 4 processes, node fast path on and off.
//
// The team: every process's endpoints A and B (made here, each with a
// published 64 KiB segment) and jobrank 0's primordial endpoint, so process
// 0 holds three members and the others two:
//   rank p         (0 <= p < n): endpoint A of jobrank p
//   rank n + p     (0 <= p < n): endpoint B of jobrank n-1-p
//   rank 2n:                     the primordial endpoint of jobrank 0
#include <gasnet_coll.h>
#include <gasnet_ratomic.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "gex_test.hpp"

using gex_test::g_job;

namespace {

// Where the primordial member's region is in the attach segment (the team
// test's region, saved and put back).
constexpr std::size_t kAttachAt = std::size_t(3) << 20 | (768 << 10);
constexpr std::size_t kBytes = 64 * 1024;  // each created segment
constexpr std::size_t kPut = 256;          // bytes each member puts to the next
constexpr std::size_t kScratchAt = 32 * 1024, kScratchBytes = 4096;
constexpr unsigned kSalt = 17;

struct Member {
    gex_Rank_t jobrank;
    gex_EP_Index_t index;
};

// The team's members in rank order, for endpoint indices a and b.
std::vector<gex_EP_Location_t> members_of(gex_EP_Index_t a, gex_EP_Index_t b) {
    const gex_Rank_t n = g_job.n;
    std::vector<gex_EP_Location_t> args;
    for (gex_Rank_t p = 0; p < n; ++p) args.push_back(gex_EP_Location_t{p, a});
    for (gex_Rank_t p = 0; p < n; ++p) args.push_back(gex_EP_Location_t{n - 1 - p, b});
    args.push_back(gex_EP_Location_t{0, 0});
    return args;
}

// ---- Active Messages: a Short request to the next member, a Short reply ----
// The handlers record, per receiving endpoint index, what reached it.
std::atomic<int> g_requests{0}, g_replies{0}, g_bad{0};
std::vector<gex_EP_Location_t> g_args;  // the team's members (set before the round)
// Per endpoint index here: the sender's rank its request carried, the
// value its reply carried (GASNET_MAXEPS entries; -1: nothing).
std::vector<std::atomic<long>> g_request_from(GASNET_MAXEPS), g_reply_value(GASNET_MAXEPS);

// The member the token's receiving endpoint is, checked against the sender's
// jobrank; -1 when the token names an endpoint of no member here.
gex_EP_Index_t receiver(gex_Token_t t, gex_Rank_t expected_source) {
    gex_Token_Info_t info;
    gex_Token_Info(t, &info, GEX_TI_ALL);
    if (info.gex_srcrank != expected_source) ++g_bad;
    return gex_EP_QueryIndex(info.gex_ep);
}

void request_handler(gex_Token_t t, gex_AM_Arg_t from_rank, gex_AM_Arg_t reply_index) {
    const gex_Rank_t sender = gex_Rank_t(from_rank);
    const gex_EP_Index_t here = receiver(t, sender < g_args.size() ? g_args[sender].gex_rank : GEX_RANK_INVALID);
    g_request_from[here] = long(sender);
    ++g_requests;
    gex_AM_ReplyShort1(t, gex_AM_Index_t(reply_index), 0, gex_AM_Arg_t(1000 + sender));
}
void reply_handler(gex_Token_t t, gex_AM_Arg_t value) {
    // The reply comes from the next member's process.
    const gex_EP_Index_t here = gex_EP_QueryIndex([&] {
        gex_Token_Info_t info;
        gex_Token_Info(t, &info, GEX_TI_EP);
        return info.gex_ep;
    }());
    g_reply_value[here] = long(value);
    ++g_replies;
}

// The two handlers at endpoint `ep` ("don't care" indices: the same on
// every process, which registers them in the same order).
struct Indices {
    gex_AM_Index_t request, reply;
};
Indices register_on(gex_EP_t ep) {
    gex_AM_Entry_t table[] = {
        {0, reinterpret_cast<gex_AM_Fn_t>(&request_handler), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 2, nullptr,
         "several_request"},
        {0, reinterpret_cast<gex_AM_Fn_t>(&reply_handler), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 1, nullptr,
         "several_reply"},
    };
    EXPECT_EQ(gex_EP_RegisterHandlers(ep, table, 2), GASNET_OK);
    return Indices{table[0].gex_index, table[1].gex_index};
}

// A client's (commutative) reduction: bitwise or of 64-bit words.
void or_words(const void* in, void* inout, size_t count, const void*) {
    const auto* a = static_cast<const std::uint64_t*>(in);
    auto* b = static_cast<std::uint64_t*>(inout);
    for (size_t i = 0; i < count; ++i) b[i] |= a[i];
}

// A client's operation that is not commutative: affine maps x -> a x + b
// (mod 2^64), composed.  compose(f, g) = f after g; the reduction applies it
// as MPI does, inout = in (+) inout with `in` from the lower rank, so the
// result over ranks 0..n-1 is f_0 after f_1 after ... f_{n-1}.
struct Affine {
    std::uint64_t a = 0, b = 0;
};
Affine compose(const Affine& f, const Affine& g) { return Affine{f.a * g.a, f.a * g.b + f.b}; }
Affine affine_of(gex_Rank_t rank, int element) { return Affine{rank + 2u + element, 3u * rank + 1u + element}; }
void compose_maps(const void* in, void* inout, size_t count, const void*) {
    const auto* f = static_cast<const Affine*>(in);
    auto* g = static_cast<Affine*>(inout);
    for (size_t i = 0; i < count; ++i) g[i] = compose(f[i], g[i]);
}

// Starts one share per handle with `start(k)`, then waits for them all.
template <class Start>
void every_share(std::size_t handles, Start&& start) {
    std::vector<gex_Event_t> ev(handles);
    for (std::size_t k = 0; k < handles; ++k) ev[k] = start(k);
    gex_Event_WaitAll(ev.data(), ev.size(), 0);
}

}  // namespace

TEST(GexEpTeamsSeveral, EachMemberOfAProcessHasAHandleAndIsReached) {
    gex_test::Published a(kBytes, nullptr), b(kBytes, nullptr);
    const gex_Rank_t n = g_job.n, me = g_job.me, size = 2 * n + 1;
    const std::vector<gex_EP_Location_t> args = members_of(a.index, b.index);
    // This process's members in rank order, and their endpoints.
    std::vector<gex_Rank_t> mine;
    for (gex_Rank_t r = 0; r < size; ++r)
        if (args[r].gex_rank == me) mine.push_back(r);
    auto ep_of = [&](gex_EP_Index_t index) { return index == a.index ? a.ep : index == b.index ? b.ep : g_job.ep; };
    auto base_of = [&](gex_EP_Index_t index) {
        return index == a.index ? a.base : index == b.index ? b.base : g_job.base + kAttachAt;
    };
    std::vector<unsigned char> saved(g_job.base + kAttachAt, g_job.base + kAttachAt + kScratchAt + kScratchBytes);

    // LOCAL scratch: one range per local member, in its own bound segment.
    std::vector<gex_Addr_t> scratch;
    for (gex_Rank_t r : mine) scratch.push_back(base_of(args[r].gex_ep_index) + kScratchAt);
    std::vector<gex_TM_t> tms(mine.size(), GEX_TM_INVALID);
    gex_TM_Create(tms.data(), tms.size(), g_job.tm, std::vector<gex_EP_Location_t>(args).data(), size, scratch.data(),
                  kScratchBytes, GEX_FLAG_RANK_IS_JOBRANK | GEX_FLAG_TM_LOCAL_SCRATCH);
    ASSERT_EQ(mine.size(), me == 0 ? 3u : 2u);

    // Queries and translations on every handle.
    for (std::size_t k = 0; k < tms.size(); ++k) {
        SCOPED_TRACE(k);
        ASSERT_NE(tms[k], GEX_TM_INVALID);
        for (std::size_t j = 0; j < k; ++j) EXPECT_NE(tms[j], tms[k]);  // distinct handles
        EXPECT_EQ(gex_TM_QueryRank(tms[k]), mine[k]);
        EXPECT_EQ(gex_TM_QuerySize(tms[k]), size);
        EXPECT_EQ(gex_TM_QueryEP(tms[k]), ep_of(args[mine[k]].gex_ep_index));
        for (gex_Rank_t r = 0; r < size; ++r) {
            const gex_EP_Location_t at = gex_TM_TranslateRankToEP(tms[k], r, 0);
            EXPECT_EQ(at.gex_rank, args[r].gex_rank) << "rank " << r;
            EXPECT_EQ(at.gex_ep_index, args[r].gex_ep_index) << "rank " << r;
            EXPECT_EQ(gex_TM_TranslateRankToJobrank(tms[k], r), args[r].gex_rank) << "rank " << r;
        }
        for (gex_Rank_t p = 0; p < n; ++p)  // the least rank of that jobrank: its endpoint A's, rank p
            EXPECT_EQ(gex_TM_TranslateJobrankToRank(tms[k], p), p);
    }

    // RMA: each member puts kPut bytes into the next member's segment (the
    // next rank, possibly of this process), then gets them back.
    auto target_in = [&](gex_TM_t tm, gex_Rank_t r) {
        void* owner = nullptr;
        uintptr_t bytes = 0;
        EXPECT_EQ(gex_Segment_QueryBound(tm, r, &owner, nullptr, &bytes), 0);
        EXPECT_GE(bytes, uintptr_t(kBytes));
        const std::size_t at = args[r].gex_ep_index == 0 ? kAttachAt : 0;
        return static_cast<unsigned char*>(owner) + at;
    };
    std::vector<std::vector<unsigned char>> src(tms.size());
    for (std::size_t k = 0; k < tms.size(); ++k) {
        src[k].resize(kPut);
        for (std::size_t i = 0; i < kPut; ++i) src[k][i] = gex_test::pattern(mine[k], i, kSalt);
        const gex_Rank_t next = (mine[k] + 1) % size;
        gex_RMA_PutBlocking(tms[k], next, target_in(tms[k], next), src[k].data(), kPut, 0);
    }
    gex_test::barrier();
    for (std::size_t k = 0; k < tms.size(); ++k) {
        const gex_Rank_t prev = (mine[k] + size - 1) % size;
        const unsigned char* got = base_of(args[mine[k]].gex_ep_index);
        for (std::size_t i = 0; i < kPut; ++i)
            ASSERT_EQ(got[i], gex_test::pattern(prev, i, kSalt)) << "member " << mine[k] << ", byte " << i;
    }
    for (std::size_t k = 0; k < tms.size(); ++k) {
        const gex_Rank_t next = (mine[k] + 1) % size;
        std::vector<unsigned char> back(kPut, 0);
        gex_Event_Wait(gex_RMA_GetNB(tms[k], back.data(), next, target_in(tms[k], next), kPut, 0));
        EXPECT_EQ(back, src[k]) << "member " << mine[k];
    }
    gex_test::barrier();

    // Active Messages: each member sends the next member a request, which
    // its endpoint's handler answers to the sending endpoint.
    g_args = args;
    for (auto& v : g_request_from) v = -1;
    for (auto& v : g_reply_value) v = -1;
    g_requests = g_replies = g_bad = 0;
    std::vector<Indices> idx(GASNET_MAXEPS);
    for (gex_EP_t ep : {a.ep, b.ep}) idx[gex_EP_QueryIndex(ep)] = register_on(ep);
    idx[0] = register_on(g_job.ep);  // every process registers alike, though only jobrank 0's is a member
    gex_test::barrier();
    for (std::size_t k = 0; k < tms.size(); ++k) {
        const gex_Rank_t next = (mine[k] + 1) % size;
        const gex_EP_Index_t mine_at = args[mine[k]].gex_ep_index;
        gex_AM_RequestShort2(tms[k], next, idx[args[next].gex_ep_index].request, 0, gex_AM_Arg_t(mine[k]),
                             gex_AM_Arg_t(idx[mine_at].reply));
    }
    GASNET_BLOCKUNTIL(g_replies.load() == int(tms.size()));
    gex_test::barrier();  // every reply in, so every request served
    EXPECT_EQ(g_requests.load(), int(tms.size()));
    EXPECT_EQ(g_bad.load(), 0);
    for (std::size_t k = 0; k < tms.size(); ++k) {
        const gex_EP_Index_t at = args[mine[k]].gex_ep_index;
        const gex_Rank_t prev = (mine[k] + size - 1) % size;
        EXPECT_EQ(g_request_from[at].load(), long(prev)) << "member " << mine[k];
        EXPECT_EQ(g_reply_value[at].load(), long(1000 + mine[k])) << "member " << mine[k];
    }
    gex_test::barrier();

    // Remote atomics: a domain per handle; every member adds 1 to a counter
    // in rank 0's segment (endpoint A of jobrank 0).
    std::vector<gex_AD_t> ads(tms.size(), GEX_AD_INVALID);
    auto* counter = reinterpret_cast<std::uint64_t*>(target_in(tms[0], 0) + 4096);
    for (std::size_t k = 0; k < tms.size(); ++k) {
        gex_AD_Create(&ads[k], tms[k], GEX_DT_U64, GEX_OP_ADD | GEX_OP_GET, 0);
        gex_AD_OpNBI_U64(ads[k], nullptr, 0, counter, GEX_OP_ADD, 1, 0, 0);
    }
    gex_NBI_Wait(GEX_EC_RMW, 0);
    gex_test::barrier();
    std::uint64_t total = 0;
    gex_Event_Wait(gex_AD_OpNB_U64(ads.back(), &total, 0, counter, GEX_OP_GET, 0, 0, 0));
    EXPECT_EQ(total, std::uint64_t(size));
    gex_test::barrier();
    for (gex_AD_t ad : ads) gex_AD_Destroy(ad);

    // Collectives over the team, each handle its member's share.
    every_share(tms.size(), [&](std::size_t k) { return gex_Coll_BarrierNB(tms[k], 0); });
    constexpr std::size_t kWords = 100;
    for (const gex_Rank_t root : {gex_Rank_t(size - 1), gex_Rank_t(n + 1)}) {  // jobrank 0's primordial; a B
        SCOPED_TRACE(root);
        std::vector<std::uint64_t> data(kWords);
        for (std::size_t i = 0; i < kWords; ++i) data[i] = root * 1000u + i;
        std::vector<std::vector<std::uint64_t>> got(tms.size(), std::vector<std::uint64_t>(kWords, 0));
        every_share(tms.size(), [&](std::size_t k) {
            return gex_Coll_BroadcastNB(tms[k], root, got[k].data(), mine[k] == root ? data.data() : nullptr,
                                        kWords * 8, 0);
        });
        for (std::size_t k = 0; k < tms.size(); ++k) EXPECT_EQ(got[k], data) << "member " << mine[k];
    }
    // Sums of the ranks and of their squares, to every member.
    std::vector<std::array<std::uint64_t, 2>> in(tms.size()), sum(tms.size(), {0, 0});
    std::uint64_t ranks = 0, squares = 0;
    for (gex_Rank_t r = 0; r < size; ++r) ranks += r, squares += std::uint64_t(r) * r;
    every_share(tms.size(), [&](std::size_t k) {
        in[k] = {mine[k], std::uint64_t(mine[k]) * mine[k]};
        return gex_Coll_ReduceToAllNB(tms[k], sum[k].data(), in[k].data(), GEX_DT_U64, 8, 2, GEX_OP_ADD, nullptr,
                                      nullptr, 0);
    });
    for (std::size_t k = 0; k < tms.size(); ++k) {
        EXPECT_EQ(sum[k][0], ranks) << "member " << mine[k];
        EXPECT_EQ(sum[k][1], squares) << "member " << mine[k];
    }
    // The greatest rank, to rank 1 (endpoint A of jobrank 1) alone.
    std::vector<std::int32_t> rank_of(tms.size()), most(tms.size(), -7);
    every_share(tms.size(), [&](std::size_t k) {
        rank_of[k] = std::int32_t(mine[k]);
        return gex_Coll_ReduceToOneNB(tms[k], 1, &most[k], &rank_of[k], GEX_DT_I32, 4, 1, GEX_OP_MAX, nullptr, nullptr,
                                      0);
    });
    for (std::size_t k = 0; k < tms.size(); ++k)
        EXPECT_EQ(most[k], mine[k] == 1 ? std::int32_t(size - 1) : -7) << "member " << mine[k];
    // A client's operation: every member's bit, or-ed, to every member.
    std::vector<std::uint64_t> bit(tms.size()), all_bits(tms.size(), 0);
    every_share(tms.size(), [&](std::size_t k) {
        bit[k] = std::uint64_t(1) << mine[k];
        return gex_Coll_ReduceToAllNB(tms[k], &all_bits[k], &bit[k], GEX_DT_USER, 8, 1, GEX_OP_USER, &or_words, nullptr,
                                      0);
    });
    for (std::size_t k = 0; k < tms.size(); ++k)
        EXPECT_EQ(all_bits[k], (std::uint64_t(1) << size) - 1) << "member " << mine[k];
    // One that is not commutative (GEX_OP_USER_NC), in rank order: the
    // composition of every member's affine map, to every member and to rank
    // n + 1 (a B) alone, 3 elements of 16 bytes each.
    Affine expected[3];
    for (int e = 0; e < 3; ++e) {
        expected[e] = affine_of(0, e);
        for (gex_Rank_t r = 1; r < size; ++r) expected[e] = compose(expected[e], affine_of(r, e));
    }
    for (const int root : {-1, int(n + 1)}) {
        SCOPED_TRACE(root);
        std::vector<std::array<Affine, 3>> maps(tms.size()), composed(tms.size());
        every_share(tms.size(), [&](std::size_t k) {
            for (int e = 0; e < 3; ++e)
                maps[k][std::size_t(e)] = affine_of(mine[k], e), composed[k][std::size_t(e)] = {};
            return root < 0 ? gex_Coll_ReduceToAllNB(tms[k], composed[k].data(), maps[k].data(), GEX_DT_USER,
                                                     sizeof(Affine), 3, GEX_OP_USER_NC, &compose_maps, nullptr, 0)
                            : gex_Coll_ReduceToOneNB(tms[k], gex_Rank_t(root), composed[k].data(), maps[k].data(),
                                                     GEX_DT_USER, sizeof(Affine), 3, GEX_OP_USER_NC, &compose_maps,
                                                     nullptr, 0);
        });
        for (std::size_t k = 0; k < tms.size(); ++k)
            for (int e = 0; e < 3; ++e) {
                const bool gets = root < 0 || mine[k] == gex_Rank_t(root);
                const Affine want = gets ? expected[e] : Affine{};
                EXPECT_EQ(composed[k][std::size_t(e)].a, want.a) << "member " << mine[k] << ", element " << e;
                EXPECT_EQ(composed[k][std::size_t(e)].b, want.b) << "member " << mine[k] << ", element " << e;
            }
    }

    // Each handle hands its own scratch back; the processes meet at their
    // last one (process 0 destroys three, the others two).
    for (std::size_t k = tms.size(); k-- > 0;) {
        gex_Memvec_t back{nullptr, 0};
        EXPECT_EQ(gex_TM_Destroy(tms[k], &back, 0), 1);
        EXPECT_EQ(back.gex_addr, scratch[k]);
        EXPECT_EQ(back.gex_len, kScratchBytes);
    }
    std::copy(saved.begin(), saved.end(), g_job.base + kAttachAt);
    gex_test::barrier();
    gex_Segment_Destroy(a.seg, 0);
    gex_Segment_Destroy(b.seg, 0);
}
