// tests/mpi/gasnet/errors_test.cpp -- calls that must return an error code
// (and send nothing): include/gasnet.h and gasnet-1.8-spec.md §1.6, §2.2,
// §2.3.  (Calls that must end the job: error_cases.cpp.  Errors before
// attach: job_test.cpp's BetweenInitAndAttach; attach's own: attach_errors.cpp.)
//
// Every rejected request names a "poison" handler: if the library sent the
// message anyway, the handler records a failure.
#include "gasnet_test.hpp"

#include <atomic>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace gasnet_test;

constexpr std::size_t kMaxMedium = gasnet_AMMaxMedium();
constexpr std::size_t kMaxLong = gasnet_AMMaxLongRequest();

gasnet_handler_t h_poison_short, h_poison_medium, h_poison_long, h_bad_reply, h_ping, h_pong;
void poisoned(const char* what) {
    handler_failure(std::string("a ") + what + " that the library rejected (it returned an error) was delivered");
}
void poison_short(gasnet_token_t) { poisoned("Short message"); }
void poison_medium(gasnet_token_t, void*, std::size_t, gasnet_handlerarg_t) { poisoned("Medium message"); }
void poison_long(gasnet_token_t, void*, std::size_t, gasnet_handlerarg_t, gasnet_handlerarg_t) {
    poisoned("Long message");
}

// Replies (and a query) a request handler makes with bad arguments.
enum BadReply { kMediumTooBig, kLongPastEnd, kLongBeforeBase, kLongTooBig, kSourceNullOut, kKinds };
const char* const kBadReplyNames[] = {"gasnet_AMReplyMedium1 with gasnet_AMMaxMedium()+1 bytes",
                                      "gasnet_AMReplyLong2 running 1 byte past the requester's segment",
                                      "gasnet_AMReplyLong2 starting 1 byte before the requester's segment",
                                      "gasnet_AMReplyLong2 with gasnet_AMMaxLongReply()+1 bytes",
                                      "gasnet_AMGetMsgSource(token, NULL)"};
std::atomic<int> g_bad_handled[kKinds], g_bad_arg[kKinds], g_bad_other[kKinds];
unsigned char g_big[kMaxMedium + 64];

void bad_reply_handler(gasnet_token_t token, gasnet_handlerarg_t kind) {
    gasnet_node_t src = ~0u;
    if (gasnet_AMGetMsgSource(token, &src) != GASNET_OK || src >= nodes() || kind < 0 || kind >= kKinds) {
        handler_failure("bad_reply_handler: source " + std::to_string(src) + ", kind " + std::to_string(kind));
        return;
    }
    unsigned char* base = seg_addr(src);
    const std::size_t size = seg(src).size;
    int rc = GASNET_OK;
    switch (kind) {
        case kMediumTooBig: rc = gasnet_AMReplyMedium1(token, h_poison_medium, g_big, kMaxMedium + 1, 1); break;
        case kLongPastEnd: rc = gasnet_AMReplyLong2(token, h_poison_long, g_big, 11, base + size - 10, 1, 2); break;
        case kLongBeforeBase: rc = gasnet_AMReplyLong2(token, h_poison_long, g_big, 2, base - 1, 1, 2); break;
        case kLongTooBig:
            rc = gasnet_AMReplyLong2(token, h_poison_long, g_big, gasnet_AMMaxLongReply() + 1, base, 1, 2);
            break;
        case kSourceNullOut: rc = gasnet_AMGetMsgSource(token, nullptr); break;
    }
    (rc == GASNET_ERR_BAD_ARG ? g_bad_arg : g_bad_other)[kind].fetch_add(1);
    if (rc != GASNET_ERR_BAD_ARG)
        handler_failure(std::string(kBadReplyNames[kind]) + " returned " + std::to_string(rc) +
                        ", want GASNET_ERR_BAD_ARG");
    g_bad_handled[kind].fetch_add(1, std::memory_order_release);
    // No reply after the rejected one (whether a rejected reply counts as
    // the handler's one reply is not specified).
}

std::atomic<int> g_pongs{0};
void ping_handler(gasnet_token_t token) {
    const int rc = gasnet_AMReplyShort0(token, h_pong);
    if (rc != GASNET_OK) handler_failure("ping: reply returned " + std::to_string(rc));
}
void pong_handler(gasnet_token_t) { g_pongs.fetch_add(1, std::memory_order_release); }

const HandlerRegistrar r1("errors::poison_short", as_handler(&poison_short), &h_poison_short);
const HandlerRegistrar r2("errors::poison_medium", as_handler(&poison_medium), &h_poison_medium);
const HandlerRegistrar r3("errors::poison_long", as_handler(&poison_long), &h_poison_long);
const HandlerRegistrar r4("errors::bad_reply", as_handler(&bad_reply_handler), &h_bad_reply);
const HandlerRegistrar r5("errors::ping", as_handler(&ping_handler), &h_ping);
const HandlerRegistrar r6("errors::pong", as_handler(&pong_handler), &h_pong);

class ErrorReturns : public GasnetTest {};

TEST_F(ErrorReturns, ErrorNamesAndDescriptions) {
    struct {
        int code;
        const char* name;
    } codes[] = {{GASNET_ERR_NOT_INIT, "GASNET_ERR_NOT_INIT"},
                 {GASNET_ERR_RESOURCE, "GASNET_ERR_RESOURCE"},
                 {GASNET_ERR_BAD_ARG, "GASNET_ERR_BAD_ARG"},
                 {GASNET_ERR_NOT_READY, "GASNET_ERR_NOT_READY"},
                 {GASNET_ERR_BARRIER_MISMATCH, "GASNET_ERR_BARRIER_MISMATCH"}};
    std::set<std::string> descs;
    for (const auto& c : codes) {
        ASSERT_NE(gasnet_ErrorName(c.code), nullptr) << c.name;
        EXPECT_STREQ(gasnet_ErrorName(c.code), c.name);
        const char* d = gasnet_ErrorDesc(c.code);
        ASSERT_NE(d, nullptr) << c.name;
        EXPECT_GT(std::strlen(d), 0u) << c.name;
        EXPECT_STRNE(d, c.name) << "a description, not the name";
        descs.insert(d);
    }
    EXPECT_EQ(descs.size(), 5u) << "the five error codes have five different descriptions";
    EXPECT_STREQ(gasnet_ErrorName(GASNET_ERR_BAD_ARG), "GASNET_ERR_BAD_ARG");
    EXPECT_STREQ(gasnet_ErrorName(12345), "GASNET_ERR_UNKNOWN");
    ASSERT_NE(gasnet_ErrorDesc(12345), nullptr);
    EXPECT_GT(std::strlen(gasnet_ErrorDesc(12345)), 0u);
}

TEST_F(ErrorReturns, MediumTooLarge) {
    std::vector<unsigned char> big(kMaxMedium + 1, 0x42);
    for (gasnet_node_t n = 0; n < nodes(); ++n) {
        EXPECT_EQ(gasnet_AMRequestMedium1(n, h_poison_medium, big.data(), kMaxMedium + 1, 1), GASNET_ERR_BAD_ARG)
            << "to node " << n;
        EXPECT_EQ(gasnet_AMRequestMedium1(n, h_poison_medium, big.data(), std::size_t(-1), 1), GASNET_ERR_BAD_ARG)
            << "SIZE_MAX bytes to node " << n;
    }
}

TEST_F(ErrorReturns, LongOutsideDestinationSegment) {
    std::vector<unsigned char> src(kSegBase + nodes() * 3 * GASNET_PAGESIZE + 1, 0x24);
    for (gasnet_node_t n = 0; n < nodes(); ++n) {
        unsigned char* base = seg_addr(n);
        const std::size_t size = seg(n).size;
        struct {
            void* dst;
            std::size_t nbytes;
            const char* what;
        } cases[] = {
            {base + size - 10, 11, "running 1 byte past the end"},
            {base - 1, 2, "starting 1 byte before the base"},
            {base + size, 1, "starting at the end"},
            {reinterpret_cast<void*>(std::uintptr_t(64)), 1, "at address 64"},
            {base, size + 1, "the whole segment plus 1 byte"},
            {base, kMaxLong + 1, "gasnet_AMMaxLongRequest()+1 bytes"},
        };
        for (const auto& c : cases) {
            EXPECT_EQ(gasnet_AMRequestLong2(n, h_poison_long, src.data(), c.nbytes, c.dst, 1, 2), GASNET_ERR_BAD_ARG)
                << "gasnet_AMRequestLong2 to node " << n << " " << c.what;
            EXPECT_EQ(gasnet_AMRequestLongAsync2(n, h_poison_long, src.data(), c.nbytes, c.dst, 1, 2),
                      GASNET_ERR_BAD_ARG)
                << "gasnet_AMRequestLongAsync2 to node " << n << " " << c.what;
        }
    }
}

TEST_F(ErrorReturns, NodeOutOfRange) {
    unsigned char buf[16] = {};
    const gasnet_node_t bad[] = {nodes(), nodes() + 1, gasnet_node_t(-1), gasnet_node_t(INT32_MAX) + 1};
    for (gasnet_node_t d : bad) {
        EXPECT_EQ(gasnet_AMRequestShort0(d, h_poison_short), GASNET_ERR_BAD_ARG) << "node " << d;
        EXPECT_EQ(gasnet_AMRequestMedium1(d, h_poison_medium, buf, sizeof buf, 1), GASNET_ERR_BAD_ARG) << "node " << d;
        EXPECT_EQ(gasnet_AMRequestLong2(d, h_poison_long, buf, sizeof buf, my_seg(), 1, 2), GASNET_ERR_BAD_ARG)
            << "node " << d;
        EXPECT_EQ(gasnet_AMRequestLongAsync2(d, h_poison_long, buf, sizeof buf, my_seg(), 1, 2), GASNET_ERR_BAD_ARG)
            << "node " << d;
    }
}

TEST_F(ErrorReturns, BadRepliesInRequestHandlers) {
    for (auto& a : g_bad_handled) a.store(0);
    for (auto& a : g_bad_arg) a.store(0);
    for (auto& a : g_bad_other) a.store(0);
    barrier();
    for (int kind = 0; kind < kKinds; ++kind)
        for (gasnet_node_t n = 0; n < nodes(); ++n)
            EXPECT_EQ(gasnet_AMRequestShort1(n, h_bad_reply, kind), GASNET_OK) << "to node " << n;
    // Every node gets each kind from every node.
    EXPECT_TRUE(wait_until([] {
        for (auto& a : g_bad_handled)
            if (a.load(std::memory_order_acquire) < int(nodes())) return false;
        return true;
    })) << "node "
        << me() << ": not every request reached its handler";
    for (int kind = 0; kind < kKinds; ++kind) {
        EXPECT_EQ(g_bad_handled[kind].load(), int(nodes())) << kBadReplyNames[kind];
        EXPECT_EQ(g_bad_arg[kind].load(), int(nodes())) << kBadReplyNames[kind] << ": GASNET_ERR_BAD_ARG returned";
    }
}

TEST_F(ErrorReturns, GetMsgSourceAndSegmentInfoBadArgs) {
    gasnet_node_t n = 12345;
    EXPECT_EQ(gasnet_AMGetMsgSource(nullptr, &n), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(n, 12345u) << "output written on error";
    EXPECT_EQ(gasnet_getSegmentInfo(nullptr, int(nodes())), GASNET_ERR_BAD_ARG);
    gasnet_seginfo_t tbl[2];
    EXPECT_EQ(gasnet_getSegmentInfo(tbl, -1), GASNET_ERR_BAD_ARG);
}

TEST_F(ErrorReturns, SecondAttach) {
    EXPECT_EQ(gasnet_attach(nullptr, 0, 0, kMinHeapOffset), GASNET_ERR_RESOURCE);
    gasnet_handlerentry_t e = {0, as_handler(&poison_short)};
    EXPECT_EQ(gasnet_attach(&e, 1, requested_segsize(me()), kMinHeapOffset), GASNET_ERR_RESOURCE);
    // Nothing changed: the segment table is as before.
    gasnet_seginfo_t mine;
    EXPECT_EQ(gasnet_getSegmentInfo(&mine, 1), GASNET_OK);
    EXPECT_EQ(mine.addr, seg(0).addr);
    EXPECT_EQ(mine.size, seg(0).size);
}

TEST_F(ErrorReturns, SetWaitmode) {
    EXPECT_EQ(gasnet_set_waitmode(3), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gasnet_set_waitmode(-1), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gasnet_set_waitmode(99), GASNET_ERR_BAD_ARG);
    // Every mode still waits correctly: a round trip with every node.
    for (int mode : {GASNET_WAIT_SPIN, GASNET_WAIT_BLOCK, GASNET_WAIT_SPINBLOCK}) {
        EXPECT_EQ(gasnet_set_waitmode(mode), GASNET_OK) << "mode " << mode;
        g_pongs.store(0);
        barrier();
        for (gasnet_node_t n = 0; n < nodes(); ++n) EXPECT_EQ(gasnet_AMRequestShort0(n, h_ping), GASNET_OK);
        EXPECT_TRUE(wait_until([] { return g_pongs.load(std::memory_order_acquire) >= int(nodes()); }, 20.0))
            << "node " << me() << ", wait mode " << mode << ": " << g_pongs.load() << " of " << nodes() << " replies";
        barrier();
    }
}

}  // namespace
