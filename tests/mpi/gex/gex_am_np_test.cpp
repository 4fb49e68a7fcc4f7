// tests/mpi/gex/gex_am_np_test.cpp -- GASNet-EX negotiated-payload Active
// Messages (gasnet-ex-api.txt "Negotiated-payload AM APIs"): Prepare and
// Commit of requests and replies, Medium and Long, with a buffer Gasket
// allocates and with the client's (lc_opt an event pointer), the forms with
// and without M and the _v2 forms, dest_addr given at Prepare, Cancel, and
// the descriptor's address and size.
//
// Each process sends to its right neighbour, whose request handler replies
// with a negotiated-payload reply, and waits for the reply.
// Region: [kRegion, +4 KiB) of every segment (Long payloads and replies).
#include <atomic>
#include <cstdint>
#include <cstring>

#include "gex_test.hpp"

using gex_test::barrier;
using gex_test::g_job;

namespace {

constexpr std::size_t kRegion = std::size_t(3) << 20 | (512 << 10);

gex_Rank_t right() { return (g_job.me + 1) % g_job.n; }
gex_Rank_t left() { return (g_job.me + g_job.n - 1) % g_job.n; }

std::atomic<int> g_replies{0};
std::atomic<long> g_sum{0};
std::atomic<int> g_bad{0};  // something a handler found wrong
gex_AM_Index_t h_med_req, h_med_rep, h_long_req, h_long_rep;

unsigned char byte_at(std::size_t i, gex_AM_Arg_t salt) { return static_cast<unsigned char>(i * 3 + unsigned(salt)); }

long check_payload(const void* buf, std::size_t nbytes, gex_AM_Arg_t salt) {
    long sum = 0;
    const auto* b = static_cast<const unsigned char*>(buf);
    for (std::size_t i = 0; i < nbytes; ++i) {
        if (b[i] != byte_at(i, salt)) g_bad.fetch_add(1);
        sum += b[i];
    }
    return sum;
}

// Medium request: replies Medium with the payload's byte sum, from a buffer
// Gasket allocates (negotiated: least 8, most 1000; 8 sent).
void med_req(gex_Token_t t, void* buf, size_t nbytes, gex_AM_Arg_t salt) {
    const long sum = check_payload(buf, nbytes, salt);
    gex_AM_SrcDesc_t sd = gex_AM_PrepareReplyMedium(t, nullptr, sizeof sum, 1000, nullptr, 0, 1);
    if (gex_AM_SrcDescSize(sd) != 1000 || reinterpret_cast<std::uintptr_t>(gex_AM_SrcDescAddr(sd)) % alignof(long))
        g_bad.fetch_add(1);
    std::memcpy(gex_AM_SrcDescAddr(sd), &sum, sizeof sum);
    gex_AM_CommitReplyMedium(sd, h_med_rep, sizeof sum, salt);
}
void med_rep(gex_Token_t, void* buf, size_t nbytes, gex_AM_Arg_t) {
    long sum = 0;
    if (nbytes == sizeof sum)
        std::memcpy(&sum, buf, sizeof sum);
    else
        g_bad.fetch_add(1);
    g_sum.fetch_add(sum);
    g_replies.fetch_add(1);
}
// Long request: the payload landed in this segment; replies Long into the
// sender's segment at `offset`, from the client's buffer (the _v2 Commit,
// the destination named at Prepare).
void long_req(gex_Token_t t, void* buf, size_t nbytes, gex_AM_Arg_t salt, gex_AM_Arg_t offset) {
    const long sum = check_payload(buf, nbytes, salt);
    void* back = nullptr;
    gex_EP_QueryBoundSegmentNB(g_job.tm, left(), &back, nullptr, nullptr, GEX_FLAG_IMMEDIATE);
    char* dest = static_cast<char*>(back) + offset;
    gex_Event_t lc = reinterpret_cast<gex_Event_t>(5);
    gex_AM_SrcDesc_t sd = gex_AM_PrepareReplyLong(t, &sum, sizeof sum, sizeof sum, dest, &lc, 0, 0);
    if (gex_AM_SrcDescAddr(sd) != &sum || gex_AM_SrcDescSize(sd) != sizeof sum) g_bad.fetch_add(1);
    if (gex_AM_CommitReplyLong0_v2(sd, h_long_rep, sizeof sum, dest, GEX_FLAG_IMMEDIATE) != 0) g_bad.fetch_add(1);
    if (lc != GEX_EVENT_INVALID) g_bad.fetch_add(1);
}
void long_rep(gex_Token_t, void* buf, size_t nbytes) {
    long sum = 0;
    if (nbytes == sizeof sum)
        std::memcpy(&sum, buf, sizeof sum);
    else
        g_bad.fetch_add(1);
    g_sum.fetch_add(sum);
    g_replies.fetch_add(1);
}

void register_once() {
    static bool done = false;
    if (done) return;
    gex_AM_Entry_t table[] = {
        {0, reinterpret_cast<gex_AM_Fn_t>(&med_req), GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQUEST, 1, nullptr,
         "np_med_req"},
        {0, reinterpret_cast<gex_AM_Fn_t>(&med_rep), GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY, 1, nullptr, "np_med_rep"},
        {0, reinterpret_cast<gex_AM_Fn_t>(&long_req), GEX_FLAG_AM_LONG | GEX_FLAG_AM_REQUEST, 2, nullptr,
         "np_long_req"},
        {0, reinterpret_cast<gex_AM_Fn_t>(&long_rep), GEX_FLAG_AM_LONG | GEX_FLAG_AM_REPLY, 0, nullptr, "np_long_rep"},
    };
    ASSERT_EQ(gex_EP_RegisterHandlers(g_job.ep, table, sizeof table / sizeof table[0]), GASNET_OK);
    h_med_req = table[0].gex_index;
    h_med_rep = table[1].gex_index;
    h_long_req = table[2].gex_index;
    h_long_rep = table[3].gex_index;
    done = true;
    barrier();  // every process's handlers are in place before any request
}

// Waits for `want` replies in all.
void await_replies(int want) { GASNET_BLOCKUNTIL(g_replies.load(std::memory_order_acquire) >= want); }

TEST(GexAmNp, MediumRequestFromGasketsBuffer) {
    register_once();
    g_replies = 0;
    g_sum = 0;
    g_bad = 0;
    // Most above the maximum: the size is the maximum.
    gex_AM_SrcDesc_t sd = gex_AM_PrepareRequestMedium(g_job.tm, right(), nullptr, 100, std::size_t(1) << 30, nullptr,
                                                      GEX_FLAG_IMMEDIATE, 1);
    ASSERT_NE(sd, GEX_AM_SRCDESC_NO_OP);
    EXPECT_EQ(gex_AM_SrcDescSize(sd), gex_AM_MaxRequestMedium(g_job.tm, right(), nullptr, 0, 1));
    auto* p = static_cast<unsigned char*>(gex_AM_SrcDescAddr(sd));
    ASSERT_NE(p, nullptr);
    long want = 0;
    for (std::size_t i = 0; i < 100; ++i) want += (p[i] = byte_at(i, 7));
    gex_AM_CommitRequestMedium1(sd, h_med_req, 100, 7);
    // The counted form, with the whole maximum.
    sd = gex_AM_PrepareRequestMedium(g_job.tm, right(), nullptr, 65536, 65536, nullptr, 0, 1);
    p = static_cast<unsigned char*>(gex_AM_SrcDescAddr(sd));
    for (std::size_t i = 0; i < 65536; ++i) want += (p[i] = byte_at(i, 9));
    gex_AM_CommitRequestMedium(sd, h_med_req, 65536, 9);
    await_replies(2);
    EXPECT_EQ(g_sum.load(), want);
    EXPECT_EQ(g_bad.load(), 0);
    barrier();
}

TEST(GexAmNp, LongRequestFromClientBufferAndReplies) {
    register_once();
    g_replies = 0;
    g_sum = 0;
    unsigned char buf[256];
    long want = 0;
    for (std::size_t i = 0; i < sizeof buf; ++i) want += (buf[i] = byte_at(i, 1));
    void* peer = nullptr;
    gex_Event_Wait(gex_EP_QueryBoundSegmentNB(g_job.tm, right(), &peer, nullptr, nullptr, 0));
    char* dest = static_cast<char*>(peer) + kRegion;
    gex_Event_t lc = reinterpret_cast<gex_Event_t>(5);
    gex_AM_SrcDesc_t sd = gex_AM_PrepareRequestLong(g_job.tm, right(), buf, 16, sizeof buf, dest, &lc, 0, 2);
    EXPECT_EQ(gex_AM_SrcDescAddr(sd), static_cast<void*>(buf));
    EXPECT_EQ(gex_AM_SrcDescSize(sd), sizeof buf);
    // The reply lands at kRegion + 1024 of this process's segment.
    EXPECT_EQ(gex_AM_CommitRequestLong_v2(sd, h_long_req, sizeof buf, dest, 0, 1, gex_AM_Arg_t(kRegion + 1024)), 0);
    EXPECT_EQ(lc, GEX_EVENT_INVALID);
    std::memset(buf, 0, sizeof buf);  // locally complete
    await_replies(1);
    EXPECT_EQ(g_sum.load(), want);
    long landed = 0;
    std::memcpy(&landed, g_job.base + kRegion + 1024, sizeof landed);
    EXPECT_EQ(landed, want);
    EXPECT_EQ(g_bad.load(), 0);
    barrier();
    std::memset(g_job.base + kRegion, 0, 4096);
    barrier();
}

TEST(GexAmNp, CancelThenPrepareAgain) {
    register_once();
    char buf[8] = {};
    gex_AM_SrcDesc_t sd = gex_AM_PrepareRequestMedium(g_job.tm, right(), buf, 8, 8, GEX_EVENT_NOW, 0, 0);
    gex_AM_CancelRequestMedium(sd, 0);
    sd = gex_AM_PrepareRequestLong(g_job.tm, right(), nullptr, 8, 4000, nullptr, nullptr, 0, 3);
    EXPECT_EQ(gex_AM_SrcDescSize(sd), 4000u);  // most_payload, below the maximum
    EXPECT_NE(gex_AM_SrcDescAddr(sd), nullptr);
    gex_AM_CancelRequestLong(sd, 0);
    barrier();
}

}  // namespace
