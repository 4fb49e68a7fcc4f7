// tests/mpi/gex/gex_am_test.cpp -- GASNet-EX fixed-payload Active Messages
// (gasnet-ex-api.txt, "AM handlers" .. "Fixed-payload AM APIs"): handler
// registration (fixed and "don't care" indices, refusals), every category
// as request and reply, 0 and 16 arguments and the forms without M, every
// lc_opt, gex_Token_Info in request and reply handlers, the limit queries.
//
// Each process sends to its right neighbour and waits (GASNET_BLOCKUNTIL)
// for the reply; handlers record what they saw in atomics, checked after.
#include <atomic>
#include <cstring>
#include <vector>

#include "gex_test.hpp"

using gex_test::barrier;
using gex_test::g_job;

namespace {

gex_Rank_t right() { return (g_job.me + 1) % g_job.n; }
gex_Rank_t left() { return (g_job.me + g_job.n - 1) % g_job.n; }

// What handlers saw (handlers may run on the progress thread: atomics).
std::atomic<int> g_replies{0};
std::atomic<long> g_sum{0};
std::atomic<int> g_info_bad{0};  // token info that was wrong
std::atomic<int> g_info_checked{0};
int g_cdata_marker = 42;

enum : gex_AM_Index_t { kShortReq = 200, kShortRep = 201 };
gex_AM_Index_t h_medium_req, h_medium_rep, h_long_req, h_long_rep, h_args16;

void check_info(gex_Token_t token, bool is_req, bool is_long, gex_AM_Index_t index) {
    gex_Token_Info_t info;
    const gex_TI_t got = gex_Token_Info(token, &info, GEX_TI_ALL);
    bool ok = got == GEX_TI_ALL && info.gex_ep == g_job.ep && info.gex_is_req == int(is_req) &&
              info.gex_is_long == int(is_long) && info.gex_entry && info.gex_entry->gex_index == index &&
              info.gex_srcrank == (is_req ? left() : right());
    if (index == kShortReq) ok = ok && info.gex_entry->gex_cdata == &g_cdata_marker;
    if (!ok) g_info_bad.fetch_add(1);
    g_info_checked.fetch_add(1);
}

// Short: request adds a0 + a1 and replies with the sum (Short, 1 argument).
void short_req(gex_Token_t t, gex_AM_Arg_t a0, gex_AM_Arg_t a1) {
    check_info(t, true, false, kShortReq);
    gex_AM_ReplyShort1(t, kShortRep, 0, a0 + a1);
}
void short_rep(gex_Token_t t, gex_AM_Arg_t sum) {
    check_info(t, false, false, kShortRep);
    g_sum.fetch_add(sum);
    g_replies.fetch_add(1);
}
// Medium: request checks its payload (bytes i*a0) and replies Medium with
// the byte sum as payload, lc_opt an event pointer.
void medium_req(gex_Token_t t, void* buf, size_t nbytes, gex_AM_Arg_t a0) {
    check_info(t, true, false, h_medium_req);
    long sum = 0;
    const auto* b = static_cast<const unsigned char*>(buf);
    for (size_t i = 0; i < nbytes; ++i) {
        if (b[i] != static_cast<unsigned char>(i * unsigned(a0))) g_info_bad.fetch_add(1);
        sum += b[i];
    }
    if (gex_Token_MaxReplyMedium(t, GEX_EVENT_NOW, 0, 0) != gex_AM_LUBReplyMedium()) g_info_bad.fetch_add(1);
    gex_Event_t lc = reinterpret_cast<gex_Event_t>(5);
    gex_AM_ReplyMedium0(t, h_medium_rep, &sum, sizeof sum, &lc, 0);
    if (lc != GEX_EVENT_INVALID) g_info_bad.fetch_add(1);
}
void medium_rep(gex_Token_t t, void* buf, size_t nbytes) {
    check_info(t, false, false, h_medium_rep);
    long sum = 0;
    if (nbytes == sizeof sum) std::memcpy(&sum, buf, sizeof sum);
    g_sum.fetch_add(sum);
    g_replies.fetch_add(1);
}
// Long: the payload lands at dest_addr in this process's segment; the
// request replies Long into the sender's segment (offset from a1).
void long_req(gex_Token_t t, void* buf, size_t nbytes, gex_AM_Arg_t a0, gex_AM_Arg_t offset) {
    check_info(t, true, true, h_long_req);
    const auto* b = static_cast<const unsigned char*>(buf);
    long sum = 0;
    for (size_t i = 0; i < nbytes; ++i) {
        if (b[i] != static_cast<unsigned char>(i + unsigned(a0))) g_info_bad.fetch_add(1);
        sum += b[i];
    }
    void* back = nullptr;  // in a handler: only with GEX_FLAG_IMMEDIATE, and no wait (it returns GEX_EVENT_INVALID)
    if (gex_EP_QueryBoundSegmentNB(g_job.tm, left(), &back, nullptr, nullptr, GEX_FLAG_IMMEDIATE) != GEX_EVENT_INVALID)
        g_info_bad.fetch_add(1);
    gex_AM_ReplyLong(t, h_long_rep, &sum, sizeof sum, static_cast<char*>(back) + offset, GEX_EVENT_NOW, 0);
}
void long_rep(gex_Token_t t, void* buf, size_t nbytes) {
    check_info(t, false, true, h_long_rep);
    long sum = 0;
    if (nbytes == sizeof sum) std::memcpy(&sum, buf, sizeof sum);
    g_sum.fetch_add(sum);
    g_replies.fetch_add(1);
}
// 16 arguments, replied with their sum.
void args16(gex_Token_t t, gex_AM_Arg_t a0, gex_AM_Arg_t a1, gex_AM_Arg_t a2, gex_AM_Arg_t a3, gex_AM_Arg_t a4,
            gex_AM_Arg_t a5, gex_AM_Arg_t a6, gex_AM_Arg_t a7, gex_AM_Arg_t a8, gex_AM_Arg_t a9, gex_AM_Arg_t a10,
            gex_AM_Arg_t a11, gex_AM_Arg_t a12, gex_AM_Arg_t a13, gex_AM_Arg_t a14, gex_AM_Arg_t a15) {
    const long s = long(a0) + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 + a15;
    gex_AM_ReplyShort(t, kShortRep, 0, gex_AM_Arg_t(s));
}

bool g_registered = false;
void register_once() {
    if (g_registered) return;
    gex_AM_Entry_t table[] = {
        {kShortReq, reinterpret_cast<gex_AM_Fn_t>(&short_req), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 2,
         &g_cdata_marker, "short_req"},
        {kShortRep, reinterpret_cast<gex_AM_Fn_t>(&short_rep), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 1, nullptr,
         "short_rep"},
        {0, reinterpret_cast<gex_AM_Fn_t>(&medium_req), GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQUEST, 1, nullptr, nullptr},
        {0, reinterpret_cast<gex_AM_Fn_t>(&medium_rep), GEX_FLAG_AM_MEDLONG | GEX_FLAG_AM_REPLY, 0, nullptr, nullptr},
        {0, reinterpret_cast<gex_AM_Fn_t>(&long_req), GEX_FLAG_AM_LONG | GEX_FLAG_AM_REQREP, 2, nullptr, nullptr},
        {0, reinterpret_cast<gex_AM_Fn_t>(&long_rep), GEX_FLAG_AM_LONG | GEX_FLAG_AM_REPLY, 0, nullptr, nullptr},
        {0, reinterpret_cast<gex_AM_Fn_t>(&args16), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 16, nullptr, nullptr},
    };
    ASSERT_EQ(gex_EP_RegisterHandlers(g_job.ep, table, sizeof table / sizeof table[0]), GASNET_OK);
    // Fixed indices kept; "don't care" ones in table order, highest free first.
    EXPECT_EQ(table[0].gex_index, kShortReq);
    EXPECT_EQ(table[1].gex_index, kShortRep);
    EXPECT_EQ(table[2].gex_index, 255);
    EXPECT_EQ(table[3].gex_index, 254);
    EXPECT_EQ(table[6].gex_index, 251);
    h_medium_req = table[2].gex_index;
    h_medium_rep = table[3].gex_index;
    h_long_req = table[4].gex_index;
    h_long_rep = table[5].gex_index;
    h_args16 = table[6].gex_index;
    g_registered = true;
    barrier();  // registered everywhere before anyone sends
}

void wait_replies(int n) { GASNET_BLOCKUNTIL(g_replies.load() >= n); }

}  // namespace

TEST(GexAm, RegistrationRefusesBadEntries) {
    register_once();
    gex_AM_Entry_t taken{
        kShortReq, reinterpret_cast<gex_AM_Fn_t>(&short_req), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 2, nullptr,
        nullptr};
    EXPECT_EQ(gex_EP_RegisterHandlers(g_job.ep, &taken, 1), GASNET_ERR_BAD_ARG);  // index 200 is taken
    gex_AM_Entry_t low = taken;
    low.gex_index = 5;  // below GEX_AM_INDEX_BASE
    EXPECT_EQ(gex_EP_RegisterHandlers(g_job.ep, &low, 1), GASNET_ERR_BAD_ARG);
    gex_AM_Entry_t no_kind = taken;
    no_kind.gex_index = 0;
    no_kind.gex_flags = GEX_FLAG_AM_SHORT;  // neither request nor reply
    EXPECT_EQ(gex_EP_RegisterHandlers(g_job.ep, &no_kind, 1), GASNET_ERR_BAD_ARG);
    gex_AM_Entry_t two_cats = no_kind;
    two_cats.gex_flags = GEX_FLAG_AM_SHORT | GEX_FLAG_AM_LONG | GEX_FLAG_AM_REQUEST;
    EXPECT_EQ(gex_EP_RegisterHandlers(g_job.ep, &two_cats, 1), GASNET_ERR_BAD_ARG);
    gex_AM_Entry_t many = no_kind;
    many.gex_flags = GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST;
    many.gex_nargs = 17;
    EXPECT_EQ(gex_EP_RegisterHandlers(g_job.ep, &many, 1), GASNET_ERR_BAD_ARG);
    gex_AM_Entry_t null_fn = many;
    null_fn.gex_nargs = 0;
    null_fn.gex_fnptr = nullptr;
    EXPECT_EQ(gex_EP_RegisterHandlers(g_job.ep, &null_fn, 1), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gex_EP_RegisterHandlers(g_job.ep, nullptr, 0), GASNET_OK);
    barrier();
}

TEST(GexAm, ShortRequestAndReplyWithTokenInfo) {
    register_once();
    g_replies = 0;
    g_sum = 0;
    g_info_bad = 0;
    g_info_checked = 0;
    barrier();  // reset everywhere before any request arrives
    for (int i = 0; i < 10; ++i) gex_AM_RequestShort2(g_job.tm, right(), kShortReq, 0, i, 100);
    for (int i = 0; i < 10; ++i) gex_AM_RequestShort(g_job.tm, right(), kShortReq, GEX_FLAG_IMMEDIATE, i, 1000);
    wait_replies(20);
    EXPECT_EQ(g_sum.load(), 2 * 45 + 10 * 100 + 10 * 1000);
    barrier();
    EXPECT_EQ(g_info_bad.load(), 0) << "token info wrong in " << g_info_bad.load() << " handlers";
    EXPECT_EQ(g_info_checked.load(), 40);  // 20 requests served here, 20 replies received
    barrier();
}

TEST(GexAm, MediumEveryLcOptAndMediumReply) {
    register_once();
    g_replies = 0;
    g_sum = 0;
    g_info_bad = 0;
    barrier();
    const size_t sizes[] = {0, 1, 512, 4096, gex_AM_MaxRequestMedium(g_job.tm, right(), GEX_EVENT_NOW, 0, 1)};
    long want = 0;
    int sent = 0;
    for (size_t n : sizes) {
        std::vector<unsigned char> payload(n);
        for (size_t i = 0; i < n; ++i) payload[i] = static_cast<unsigned char>(i * 3u);
        for (size_t i = 0; i < n; ++i) want += payload[i];
        gex_AM_RequestMedium1(g_job.tm, right(), h_medium_req, payload.data(), n, GEX_EVENT_NOW, 0, 3);
        gex_AM_RequestMedium(g_job.tm, right(), h_medium_req, payload.data(), n, GEX_EVENT_GROUP, 0, 3);
        gex_Event_t lc = reinterpret_cast<gex_Event_t>(5);
        gex_AM_RequestMedium1(g_job.tm, right(), h_medium_req, payload.data(), n, &lc, 0, 3);
        EXPECT_EQ(lc, GEX_EVENT_INVALID);
        gex_Event_Wait(lc);
        if (n)
            std::memset(payload.data(), 0xee,
                        n);  // locally complete: the sends took copies (an empty vector has no data())
        sent += 3;
    }
    gex_NBI_Wait(GEX_EC_AM, 0);
    wait_replies(sent);
    EXPECT_EQ(g_sum.load(), 3 * want);
    barrier();
    EXPECT_EQ(g_info_bad.load(), 0);
    barrier();
}

TEST(GexAm, LongRequestIntoTheSegmentAndLongReply) {
    register_once();
    g_replies = 0;
    g_sum = 0;
    g_info_bad = 0;
    barrier();
    void* peer = nullptr;
    gex_Event_Wait(gex_EP_QueryBoundSegmentNB(g_job.tm, right(), &peer, nullptr, nullptr, 0));
    const size_t n = 10000;
    std::vector<unsigned char> payload(n);
    long want = 0;
    for (size_t i = 0; i < n; ++i) {
        payload[i] = static_cast<unsigned char>(i + 7u);
        want += payload[i];
    }
    const gex_AM_Arg_t reply_offset = 1 << 20;  // where the 8-byte reply lands in my segment
    gex_AM_RequestLong2(g_job.tm, right(), h_long_req, payload.data(), n, static_cast<char*>(peer) + 4096,
                        GEX_EVENT_NOW, 0, 7, reply_offset);
    wait_replies(1);
    EXPECT_EQ(g_sum.load(), want);
    long landed = 0;
    std::memcpy(&landed, g_job.base + reply_offset, sizeof landed);
    EXPECT_EQ(landed, want) << "the Long reply's bytes in this segment";
    barrier();
    for (size_t i = 0; i < n; ++i)  // the request's bytes landed in this segment at 4096
        if (g_job.base[4096 + i] != static_cast<unsigned char>(i + 7u)) {
            ADD_FAILURE() << "Long payload byte " << i << " wrong in this segment";
            break;
        }
    std::memset(g_job.base, 0, (1 << 20) + 16);
    EXPECT_EQ(g_info_bad.load(), 0);
    barrier();
}

TEST(GexAm, SixteenArguments) {
    register_once();
    g_replies = 0;
    g_sum = 0;
    barrier();
    gex_AM_RequestShort16(g_job.tm, right(), h_args16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
    gex_AM_RequestShort(gex_TM_Pair(g_job.ep, 0), right(), h_args16, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
    wait_replies(2);
    EXPECT_EQ(g_sum.load(), 136 + 16);
    barrier();
}

TEST(GexAm, LimitQueries) {
    EXPECT_EQ(gex_AM_MaxArgs(), 16u);
    EXPECT_EQ(gex_AM_MaxArgs(), gasnet_AMMaxArgs());
    for (gex_Rank_t r : {right(), GEX_RANK_INVALID}) {
        EXPECT_EQ(gex_AM_MaxRequestMedium(g_job.tm, r, GEX_EVENT_NOW, 0, 0), gasnet_AMMaxMedium());
        EXPECT_EQ(gex_AM_MaxReplyMedium(g_job.tm, r, nullptr, 0, 16), gasnet_AMMaxMedium());
        EXPECT_EQ(gex_AM_MaxRequestLong(g_job.tm, r, GEX_EVENT_GROUP, 0, 2), gasnet_AMMaxLongRequest());
        EXPECT_EQ(gex_AM_MaxReplyLong(gex_TM_Pair(g_job.ep, 0), r, GEX_EVENT_NOW, 0, 0), gasnet_AMMaxLongReply());
    }
    EXPECT_GE(gex_AM_LUBRequestMedium(), 512u);  // the specification's floor
    EXPECT_LE(gex_AM_LUBRequestMedium(), gex_AM_MaxRequestMedium(g_job.tm, right(), GEX_EVENT_NOW, 0, 16));
    EXPECT_LE(gex_AM_LUBReplyLong(), gex_AM_MaxReplyLong(g_job.tm, right(), GEX_EVENT_NOW, 0, 16));
}
