// tests/mpi/gasnet/progress_test.cpp -- handlers run by Gasket's progress
// thread (GASKET_PROGRESS_THREAD=on, set in the test's ENVIRONMENT) while
// the client computes without making any GASNet call (spec §2.3.5.1, §2.4.1:
// handlers may run on a GASNet-private thread).
//
// RequestsServedWhileComputing: nodes 1..n-1 tell node 0 they are ready,
// then spin on an atomic flag for up to 10 s making no GASNet calls.  Node
// 0 sends each of them kWork requests (Short, Medium and 100 KB Long, all
// in flight at once), waits for every reply (Short, Medium, and Long replies
// into node 0's segment), then sends a "stop" request whose handler sets
// the flag that ends the loop.  Fails if a reply or the stop does not come
// within 10 s, if any payload differs, or if the stop handler ran on the
// computing thread (it cannot have: that thread made no call).
//
// StreamDeliveredWhileSenderComputes: nodes 1..n-1 each send node 0 a
// stream of small requests back to back (Short2, and Medium2 of 8, 64 and
// 200 bytes), then compute without GASNet calls.  Through MPI, requests
// that follow one another with no poll between them leave in batches
// (mpi-bridge/am_transport.hpp), and the last batch of each stream leaves
// at a poll of the sender's progress thread.  Node 0 polls until every
// request came, checking each sender's sequence numbers arrive in order
// and each payload, then releases the senders.  Fails if a stream is short
// (a batch never left), out of order, or corrupt.
//
// ReplyHandledWhileComputing: the reverse direction for reply handlers:
// node 0 sends a request to node k (which polls), then spins without GASNet
// calls until the reply handler, run by node 0's progress thread, sets its
// flag.
#include "gasnet_test.hpp"

#include <array>
#include <atomic>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace gasnet_test;

constexpr int kWork = 30;  // requests from node 0 to each computing node
constexpr double kComputeSeconds = 10.0;
constexpr std::size_t kMediumBytes = 1000;
constexpr std::size_t kLongBytes = 100000;  // more than fits in one 4 KiB message
constexpr std::uint64_t kLongStride = 110000;
constexpr std::int32_t kStopMagic = 0x53544f50;  // "STOP"

std::thread::id g_main_thread;
std::atomic<bool> g_stop{false};
std::atomic<int> g_stop_on_main{-1};  // 1: the stop handler ran on the main thread, 0: on another
std::atomic<int> g_work_handled{0}, g_work_on_main_in_loop{0};
std::atomic<bool> g_in_loop{false};
std::atomic<int> g_ready{0};         // node 0: computing nodes ready
std::atomic<int> g_work_replies{0};  // node 0
std::atomic<int> g_stop_acks{0};     // node 0
gasnet_handler_t h_ready, h_work_short, h_work_medium, h_work_long, h_rep_short, h_rep_medium, h_rep_long, h_stop,
    h_stop_ack;

std::uint64_t req_pstart(gasnet_node_t k, int seq) { return std::uint64_t(k) * 101 + std::uint64_t(seq) * 7; }
std::uint64_t rep_pstart(gasnet_node_t k, int seq) { return 5000 + std::uint64_t(k) * 37 + std::uint64_t(seq) * 11; }
std::uint64_t req_offset(int seq) { return 1 + std::uint64_t(seq / 3) * kLongStride; }
// Node 0's segment: 2 MiB per computing node for the Long replies.
std::uint64_t rep_offset(gasnet_node_t k, int seq) {
    return (std::uint64_t(k) << 21) + 3 + std::uint64_t(seq / 3) * kLongStride;
}
std::int32_t work_check(gasnet_node_t k, int seq) { return arg_value(std::uint32_t(k) * 31 + 5, seq % 16) ^ seq; }

void ready_handler(gasnet_token_t) { g_ready.fetch_add(1, std::memory_order_release); }

void note_work(const char* what, gasnet_token_t token, int seq, std::int32_t check, const void* buf, std::size_t nbytes,
               std::size_t want_bytes, bool is_long) {
    gasnet_node_t src = ~gasnet_node_t(0);
    if (gasnet_AMGetMsgSource(token, &src) != GASNET_OK || src != 0)
        handler_failure(std::string(what) + ": gasnet_AMGetMsgSource gave node " + std::to_string(src) + ", want 0");
    if (seq < 0 || seq >= kWork || check != work_check(me(), seq)) {
        handler_failure(std::string(what) + ": wrong arguments " + std::to_string(seq) + ", " + std::to_string(check));
        return;
    }
    std::string why;
    if (nbytes != want_bytes)
        handler_failure(std::string(what) + " " + std::to_string(seq) + ": " + std::to_string(nbytes) + " bytes");
    else if (is_long && buf != my_seg() + req_offset(seq))
        handler_failure(std::string(what) + " " + std::to_string(seq) + ": buf is not where the payload was sent");
    else if (!matches_pattern(buf, nbytes, req_pstart(me(), seq), &why))
        handler_failure(std::string(what) + " " + std::to_string(seq) + ": " + why);
    if (g_in_loop.load() && std::this_thread::get_id() == g_main_thread) g_work_on_main_in_loop.fetch_add(1);
    g_work_handled.fetch_add(1, std::memory_order_release);
}
void reply_failed(const char* what, int rc) {
    if (rc != GASNET_OK) handler_failure(std::string(what) + " returned " + std::to_string(rc));
}
void work_short(gasnet_token_t token, gasnet_handlerarg_t seq, gasnet_handlerarg_t check) {
    note_work("Short work request", token, seq, check, nullptr, 0, 0, false);
    reply_failed("gasnet_AMReplyShort2", gasnet_AMReplyShort2(token, h_rep_short, seq, ~check));
}
void work_medium(gasnet_token_t token, void* buf, std::size_t nbytes, gasnet_handlerarg_t seq,
                 gasnet_handlerarg_t check) {
    note_work("Medium work request", token, seq, check, buf, nbytes, kMediumBytes, false);
    reply_failed("gasnet_AMReplyMedium2",
                 gasnet_AMReplyMedium2(token, h_rep_medium, const_cast<unsigned char*>(pattern(rep_pstart(me(), seq))),
                                       kMediumBytes, seq, ~check));
}
void work_long(gasnet_token_t token, void* buf, std::size_t nbytes, gasnet_handlerarg_t seq,
               gasnet_handlerarg_t check) {
    note_work("Long work request", token, seq, check, buf, nbytes, kLongBytes, true);
    reply_failed("gasnet_AMReplyLong2",
                 gasnet_AMReplyLong2(token, h_rep_long, const_cast<unsigned char*>(pattern(rep_pstart(me(), seq))),
                                     kLongBytes, seg_addr(0) + rep_offset(me(), seq), seq, ~check));
}

// Node 0's reply handlers.
void note_reply(const char* what, gasnet_token_t token, int seq, std::int32_t check, const void* buf,
                std::size_t nbytes, std::size_t want_bytes, bool is_long) {
    gasnet_node_t src = ~gasnet_node_t(0);
    if (gasnet_AMGetMsgSource(token, &src) != GASNET_OK || src == 0 || src >= nodes()) {
        handler_failure(std::string(what) + ": gasnet_AMGetMsgSource gave node " + std::to_string(src));
        return;
    }
    std::string why;
    if (seq < 0 || seq >= kWork || check != ~work_check(src, seq))
        handler_failure(std::string(what) + " from node " + std::to_string(src) + ": wrong arguments");
    else if (nbytes != want_bytes)
        handler_failure(std::string(what) + " from node " + std::to_string(src) + ": " + std::to_string(nbytes) +
                        " bytes");
    else if (is_long && buf != my_seg() + rep_offset(src, seq))
        handler_failure(std::string(what) + " from node " + std::to_string(src) + ": buf is not where it was sent");
    else if (!matches_pattern(buf, nbytes, rep_pstart(src, seq), &why))
        handler_failure(std::string(what) + " " + std::to_string(seq) + " from node " + std::to_string(src) + ": " +
                        why);
    g_work_replies.fetch_add(1, std::memory_order_release);
}
void rep_short(gasnet_token_t token, gasnet_handlerarg_t seq, gasnet_handlerarg_t check) {
    note_reply("Short reply", token, seq, check, nullptr, 0, 0, false);
}
void rep_medium(gasnet_token_t token, void* buf, std::size_t nbytes, gasnet_handlerarg_t seq,
                gasnet_handlerarg_t check) {
    note_reply("Medium reply", token, seq, check, buf, nbytes, kMediumBytes, false);
}
void rep_long(gasnet_token_t token, void* buf, std::size_t nbytes, gasnet_handlerarg_t seq, gasnet_handlerarg_t check) {
    note_reply("Long reply", token, seq, check, buf, nbytes, kLongBytes, true);
}

void stop_handler(gasnet_token_t token, gasnet_handlerarg_t magic) {
    if (magic != kStopMagic) handler_failure("stop handler: argument " + std::to_string(magic));
    g_stop_on_main.store(std::this_thread::get_id() == g_main_thread ? 1 : 0);
    g_stop.store(true, std::memory_order_release);
    reply_failed("gasnet_AMReplyShort0", gasnet_AMReplyShort0(token, h_stop_ack));
}
void stop_ack_handler(gasnet_token_t) { g_stop_acks.fetch_add(1, std::memory_order_release); }

const HandlerRegistrar r1("progress::ready", as_handler(&ready_handler), &h_ready);
const HandlerRegistrar r2("progress::work_short", as_handler(&work_short), &h_work_short);
const HandlerRegistrar r3("progress::work_medium", as_handler(&work_medium), &h_work_medium);
const HandlerRegistrar r4("progress::work_long", as_handler(&work_long), &h_work_long);
const HandlerRegistrar r5("progress::reply_short", as_handler(&rep_short), &h_rep_short);
const HandlerRegistrar r6("progress::reply_medium", as_handler(&rep_medium), &h_rep_medium);
const HandlerRegistrar r7("progress::reply_long", as_handler(&rep_long), &h_rep_long);
const HandlerRegistrar r8("progress::stop", as_handler(&stop_handler), &h_stop);
const HandlerRegistrar r9("progress::stop_ack", as_handler(&stop_ack_handler), &h_stop_ack);

// A loop that makes no GASNet call: spins until `flag` or `seconds` pass.
// Returns the seconds spent.
double compute_until(const std::atomic<bool>& flag, double seconds) {
    const double t0 = now_s();
    volatile double x = 1.0;
    while (!flag.load(std::memory_order_acquire) && now_s() - t0 < seconds)
        for (int i = 0; i < 1000; ++i) x = x * 1.0000001 + 1e-9;
    return now_s() - t0;
}

class ProgressThread : public GasnetTest {};

TEST_F(ProgressThread, RequestsServedWhileComputing) {
    g_main_thread = std::this_thread::get_id();
    g_stop.store(false);
    g_stop_on_main.store(-1);
    g_work_handled.store(0);
    g_work_on_main_in_loop.store(0);
    g_ready.store(0);
    g_work_replies.store(0);
    g_stop_acks.store(0);
    barrier();
    if (me() != 0) {
        EXPECT_EQ(gasnet_AMRequestShort0(0, h_ready), GASNET_OK);
        g_in_loop.store(true);
        const double spent = compute_until(g_stop, kComputeSeconds);  // no GASNet calls in here
        g_in_loop.store(false);
        EXPECT_TRUE(g_stop.load()) << "node " << me() << " computed " << spent
                                   << " s without GASNet calls and no handler set its flag: the requests from node 0 "
                                      "were not served (is the progress thread running?)";
        if (g_stop.load())
            EXPECT_EQ(g_stop_on_main.load(), 0) << "node " << me() << ": the stop handler ran on the computing thread";
        EXPECT_EQ(g_work_handled.load(), kWork) << "node " << me() << ": work requests handled";
        EXPECT_EQ(g_work_on_main_in_loop.load(), 0)
            << "node " << me() << ": work handlers ran on the thread that was computing without GASNet calls";
    } else {
        const int others = int(nodes()) - 1;
        EXPECT_TRUE(wait_until([&] { return g_ready.load(std::memory_order_acquire) == others; }))
            << "only " << g_ready.load() << " of " << others << " nodes said they were ready";
        // Work to every computing node (all in flight at once), then the stops.
        const double t0 = now_s();
        int bad_rc = 0;
        for (gasnet_node_t k = 1; k < nodes(); ++k)
            for (int seq = 0; seq < kWork; ++seq) {
                const std::int32_t check = work_check(k, seq);
                void* src = const_cast<unsigned char*>(pattern(req_pstart(k, seq)));
                int rc;
                if (seq % 3 == 0)
                    rc = gasnet_AMRequestShort2(k, h_work_short, seq, check);
                else if (seq % 3 == 1)
                    rc = gasnet_AMRequestMedium2(k, h_work_medium, src, kMediumBytes, seq, check);
                else
                    rc = gasnet_AMRequestLong2(k, h_work_long, src, kLongBytes, seg_addr(k) + req_offset(seq), seq,
                                               check);
                bad_rc += rc != GASNET_OK;
            }
        EXPECT_EQ(bad_rc, 0) << "work requests that did not return GASNET_OK";
        EXPECT_TRUE(wait_until([&] { return g_work_replies.load(std::memory_order_acquire) >= others * kWork; },
                               kComputeSeconds))
            << "the computing nodes (no GASNet calls) answered " << g_work_replies.load() << " of " << others * kWork
            << " requests within " << kComputeSeconds << " s";
        const double t1 = now_s();
        for (gasnet_node_t k = 1; k < nodes(); ++k) EXPECT_EQ(gasnet_AMRequestShort1(k, h_stop, kStopMagic), GASNET_OK);
        EXPECT_TRUE(wait_until([&] { return g_stop_acks.load(std::memory_order_acquire) >= others; }, kComputeSeconds))
            << g_stop_acks.load() << " of " << others << " computing nodes answered the stop request";
        std::printf(
            "[ progress ] %d computing node(s), %d requests each: replies after %.3f s, stop acks after %.3f s\n",
            others, kWork, t1 - t0, now_s() - t1);
        std::fflush(stdout);
        EXPECT_EQ(g_work_replies.load(), others * kWork);
    }
}

constexpr int kStream = 5000;  // requests from each sender
constexpr std::array<std::size_t, 3> kStreamBytes = {8, 64, 200};
std::vector<std::atomic<int>> g_stream_next(1024);  // node 0: next sequence number expected per sender
std::atomic<int> g_stream_bad{0};
std::atomic<bool> g_stream_released{false};
gasnet_handler_t h_stream_short, h_stream_medium, h_stream_release;

std::uint64_t stream_pstart(gasnet_node_t k, int seq) { return std::uint64_t(k) * 7919 + std::uint64_t(seq) * 13; }

void note_stream(gasnet_token_t token, int seq, const void* buf, std::size_t nbytes, bool medium) {
    gasnet_node_t src = 0;
    if (gasnet_AMGetMsgSource(token, &src) != GASNET_OK || src == 0 || src >= g_stream_next.size()) {
        handler_failure("stream request: source node " + std::to_string(src));
        return;
    }
    const int want = g_stream_next[src].load(std::memory_order_relaxed);
    std::string why;
    if (seq != want) {
        if (g_stream_bad.fetch_add(1) < 5)
            handler_failure("stream request from node " + std::to_string(src) + ": sequence number " +
                            std::to_string(seq) + " arrived where " + std::to_string(want) + " was next");
    } else if (medium != (seq % 4 != 0) || (medium && nbytes != kStreamBytes[std::size_t(seq % 4 - 1)])) {
        if (g_stream_bad.fetch_add(1) < 5)
            handler_failure("stream request " + std::to_string(seq) + " from node " + std::to_string(src) + ": " +
                            std::to_string(nbytes) + " bytes");
    } else if (medium && !matches_pattern(buf, nbytes, stream_pstart(src, seq), &why)) {
        if (g_stream_bad.fetch_add(1) < 5)
            handler_failure("stream request " + std::to_string(seq) + " from node " + std::to_string(src) + ": " + why);
    }
    g_stream_next[src].store(want + 1, std::memory_order_release);
}
void stream_short(gasnet_token_t token, gasnet_handlerarg_t seq, gasnet_handlerarg_t) {
    note_stream(token, seq, nullptr, 0, false);
}
void stream_medium(gasnet_token_t token, void* buf, std::size_t nbytes, gasnet_handlerarg_t seq, gasnet_handlerarg_t) {
    note_stream(token, seq, buf, nbytes, true);
}
void stream_release(gasnet_token_t) { g_stream_released.store(true, std::memory_order_release); }
const HandlerRegistrar r13("progress::stream_short", as_handler(&stream_short), &h_stream_short);
const HandlerRegistrar r14("progress::stream_medium", as_handler(&stream_medium), &h_stream_medium);
const HandlerRegistrar r15("progress::stream_release", as_handler(&stream_release), &h_stream_release);

TEST_F(ProgressThread, StreamDeliveredWhileSenderComputes) {
    ASSERT_LE(nodes(), g_stream_next.size());
    for (auto& n : g_stream_next) n.store(0);
    g_stream_bad.store(0);
    g_stream_released.store(false);
    barrier();
    if (me() != 0) {
        int bad_rc = 0;
        for (int seq = 0; seq < kStream; ++seq) {
            if (seq % 4 == 0) {
                bad_rc += gasnet_AMRequestShort2(0, h_stream_short, seq, 0) != GASNET_OK;
            } else {
                const std::size_t n = kStreamBytes[std::size_t(seq % 4 - 1)];
                void* src = const_cast<unsigned char*>(pattern(stream_pstart(me(), seq)));
                bad_rc += gasnet_AMRequestMedium2(0, h_stream_medium, src, n, seq, 0) != GASNET_OK;
            }
        }
        EXPECT_EQ(bad_rc, 0) << "node " << me() << ": stream requests that did not return GASNET_OK";
        const double spent = compute_until(g_stream_released, kComputeSeconds);  // no GASNet calls in here
        EXPECT_TRUE(g_stream_released.load())
            << "node " << me() << " computed " << spent << " s without GASNet calls after its stream and node 0 "
            << "did not release it: node 0 still waits for requests (a batch that never left?)";
    } else {
        const auto all_in = [] {
            for (gasnet_node_t k = 1; k < nodes(); ++k)
                if (g_stream_next[k].load(std::memory_order_acquire) < kStream) return false;
            return true;
        };
        EXPECT_TRUE(wait_until(all_in, kComputeSeconds)) << "node 0 did not receive every stream request";
        for (gasnet_node_t k = 1; k < nodes(); ++k)
            EXPECT_EQ(g_stream_next[k].load(), kStream) << "requests from node " << k;
        EXPECT_EQ(g_stream_bad.load(), 0) << "stream requests out of order, of the wrong size or corrupt";
        for (gasnet_node_t k = 1; k < nodes(); ++k) EXPECT_EQ(gasnet_AMRequestShort0(k, h_stream_release), GASNET_OK);
    }
    barrier();
}

std::atomic<bool> g_reply_flag{false};
std::atomic<int> g_reply_on_main{-1};
std::atomic<bool> g_released{false};
gasnet_handler_t h_ping, h_pong, h_release;

void ping_handler(gasnet_token_t token, gasnet_handlerarg_t v) {
    reply_failed("gasnet_AMReplyShort1", gasnet_AMReplyShort1(token, h_pong, v + 1));
}
void pong_handler(gasnet_token_t, gasnet_handlerarg_t v) {
    if (v != -41) handler_failure("pong: argument " + std::to_string(v) + ", want -41");
    g_reply_on_main.store(std::this_thread::get_id() == g_main_thread ? 1 : 0);
    g_reply_flag.store(true, std::memory_order_release);
}
void release_handler(gasnet_token_t) { g_released.store(true, std::memory_order_release); }
const HandlerRegistrar r10("progress::ping", as_handler(&ping_handler), &h_ping);
const HandlerRegistrar r11("progress::pong", as_handler(&pong_handler), &h_pong);
const HandlerRegistrar r12("progress::release", as_handler(&release_handler), &h_release);

TEST_F(ProgressThread, ReplyHandledWhileComputing) {
    g_main_thread = std::this_thread::get_id();
    g_released.store(false);
    barrier();
    if (me() == 0) {
        for (gasnet_node_t k = 1; k < nodes(); ++k) {
            g_reply_flag.store(false);
            g_reply_on_main.store(-1);
            EXPECT_EQ(gasnet_AMRequestShort1(k, h_ping, -42), GASNET_OK);
            const double spent = compute_until(g_reply_flag, kComputeSeconds);  // no GASNet calls in here
            EXPECT_TRUE(g_reply_flag.load()) << "node 0 computed " << spent << " s without GASNet calls and the reply "
                                             << "from node " << k << " was not handled";
            if (g_reply_flag.load())
                EXPECT_EQ(g_reply_on_main.load(), 0) << "the reply handler ran on the computing thread";
        }
        for (gasnet_node_t k = 1; k < nodes(); ++k) EXPECT_EQ(gasnet_AMRequestShort0(k, h_release), GASNET_OK);
    } else {
        EXPECT_TRUE(wait_until([] { return g_released.load(std::memory_order_acquire); }, 30.0))
            << "node " << me() << " was not released by node 0";
    }
}

}  // namespace
