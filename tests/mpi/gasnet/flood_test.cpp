// tests/mpi/gasnet/flood_test.cpp -- floods of Active Message requests:
// every message handled exactly once, memory bounded, no deadlock.
//
// ManyToOne: every node (node 0 included, by loopback) sends kFlood
// requests to node 0 as fast as it can, alternating Short2 and Medium2
// (payload 1..4096 bytes, about 2 KiB on average, so each sender's flood
// carries about 100 MiB).  Node 0 records every (source, sequence number)
// it handles: no duplicate, none missing, arguments and payloads exact.
// Node 0's peak RSS (VmHWM, reset before the flood) may grow by less than
// kMaxGrowthKiB = 64 MiB.  Why that bound: a library that let the flood
// pile up unhandled at node 0 would hold up to (nodes - 1) x ~100 MiB of
// payload (more than 64 MiB already with 2 nodes); one with flow control
// holds at most its credits x message size per sender (a few MiB), plus
// the receive buffers it preallocates at attach.
//
// AllToAll: every node floods every node (itself included) at the same
// time, kFlood requests per node spread round-robin, and every 8th request
// asks for a reply; a library whose blocked senders stopped serving
// incoming messages would deadlock here.  Same exactly-once and memory
// checks on every node.
#include "gasnet_test.hpp"

#include <atomic>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace gasnet_test;

constexpr int kFlood = 100000;             // requests per sending node
constexpr long kMaxGrowthKiB = 64 * 1024;  // VmHWM growth allowed during a flood
constexpr double kFloodSeconds = 120.0;    // wait limit (a hang shows as a failure)

std::int32_t flood_check(gasnet_node_t src, int seq) {
    return arg_value(std::uint32_t(src) * 2654435761u + 17u, seq & 15) ^ (seq * 31);
}
std::size_t flood_size(int seq) { return 1 + std::size_t(seq) * 389 % 4096; }
std::uint64_t flood_pstart(gasnet_node_t src, int seq) {
    return (std::uint64_t(src) * 7 + std::uint64_t(seq) * 13) % 8000;
}
bool is_medium(int seq) { return seq % 2 == 1; }
bool wants_reply(int seq) { return seq % 8 == 0; }

struct FloodState {
    std::vector<std::atomic<unsigned char>> seen;  // [src * kFlood + seq]
    std::atomic<long> received{0}, duplicates{0}, bad{0}, replies{0}, bad_replies{0}, bad_reply_rc{0};
    bool reply_mode = false;  // AllToAll: requests with wants_reply(seq) are answered
    explicit FloodState(std::size_t n) : seen(n * kFlood) {}
};
// Replaced per test; the old one is never freed (a late message must not
// touch freed memory).
std::atomic<FloodState*> g_state{nullptr};
gasnet_handler_t h_flood_short, h_flood_medium, h_flood_reply;

void report_bad(FloodState& st, const std::string& what) {
    if (st.bad.fetch_add(1) < 5) handler_failure(what);
}

void flood_common(gasnet_token_t token, const void* buf, std::size_t nbytes, bool medium, int seq, std::int32_t check) {
    FloodState* st = g_state.load(std::memory_order_acquire);
    gasnet_node_t src = ~gasnet_node_t(0);
    if (gasnet_AMGetMsgSource(token, &src) != GASNET_OK || src >= nodes()) {
        report_bad(*st, "flood: gasnet_AMGetMsgSource failed");
        return;
    }
    if (seq < 0 || seq >= kFlood || check != flood_check(src, seq) || medium != is_medium(seq)) {
        report_bad(*st, "flood message from node " + std::to_string(src) + ": seq " + std::to_string(seq) + " check " +
                            std::to_string(check) + (medium ? " (Medium)" : " (Short)") +
                            ": wrong arguments, source or category");
        return;
    }
    if (medium) {
        std::string why;
        if (nbytes != flood_size(seq))
            report_bad(*st, "flood Medium " + std::to_string(seq) + " from node " + std::to_string(src) + ": " +
                                std::to_string(nbytes) + " bytes, want " + std::to_string(flood_size(seq)));
        else if (!matches_pattern(buf, nbytes, flood_pstart(src, seq), &why))
            report_bad(*st, "flood Medium " + std::to_string(seq) + " from node " + std::to_string(src) + ": " + why);
    }
    if (st->seen[std::size_t(src) * kFlood + std::size_t(seq)].exchange(1) != 0) st->duplicates.fetch_add(1);
    st->received.fetch_add(1, std::memory_order_release);
    if (st->reply_mode && wants_reply(seq)) {
        const int rc = gasnet_AMReplyShort2(token, h_flood_reply, seq, ~check);
        if (rc != GASNET_OK) st->bad_reply_rc.fetch_add(1);
    }
}
void flood_short(gasnet_token_t token, gasnet_handlerarg_t seq, gasnet_handlerarg_t check) {
    flood_common(token, nullptr, 0, false, seq, check);
}
void flood_medium(gasnet_token_t token, void* buf, std::size_t nbytes, gasnet_handlerarg_t seq,
                  gasnet_handlerarg_t check) {
    flood_common(token, buf, nbytes, true, seq, check);
}
void flood_reply(gasnet_token_t token, gasnet_handlerarg_t seq, gasnet_handlerarg_t check) {
    FloodState* st = g_state.load(std::memory_order_acquire);
    gasnet_node_t src = ~gasnet_node_t(0);
    if (gasnet_AMGetMsgSource(token, &src) != GASNET_OK || src >= nodes() || seq < 0 || seq >= kFlood ||
        check != ~flood_check(me(), seq) || !wants_reply(seq)) {
        if (st->bad_replies.fetch_add(1) < 5)
            handler_failure("flood reply from node " + std::to_string(src) + ": seq " + std::to_string(seq) +
                            " check " + std::to_string(check) + " do not match");
        return;
    }
    st->replies.fetch_add(1, std::memory_order_release);
}
const HandlerRegistrar reg_short("flood::short", as_handler(&flood_short), &h_flood_short);
const HandlerRegistrar reg_medium("flood::medium", as_handler(&flood_medium), &h_flood_medium);
const HandlerRegistrar reg_reply("flood::reply", as_handler(&flood_reply), &h_flood_reply);

// Sends this node's kFlood requests, to dest_of(seq); returns how many
// did not return GASNET_OK.
template <class DestOf>
int send_flood(DestOf dest_of) {
    int bad = 0;
    for (int seq = 0; seq < kFlood; ++seq) {
        const gasnet_node_t dest = dest_of(seq);
        const std::int32_t check = flood_check(me(), seq);
        int rc;
        if (is_medium(seq))
            rc = gasnet_AMRequestMedium2(dest, h_flood_medium,
                                         const_cast<unsigned char*>(pattern(flood_pstart(me(), seq))), flood_size(seq),
                                         seq, check);
        else
            rc = gasnet_AMRequestShort2(dest, h_flood_short, seq, check);
        bad += rc != GASNET_OK;
    }
    return bad;
}

// Counts (source, seq) pairs that should have arrived and did not.
long count_missing(FloodState& st, gasnet_node_t src, bool (*expected)(gasnet_node_t src, int seq)) {
    long missing = 0;
    for (int seq = 0; seq < kFlood; ++seq)
        if (expected(src, seq) && st.seen[std::size_t(src) * kFlood + std::size_t(seq)].load() == 0) ++missing;
    return missing;
}

class Flood : public GasnetTest {
protected:
    FloodState& fresh_state(bool reply_mode) {
        // Never freed (a late handler may still look at an old state), but
        // kept reachable so LeakSanitizer does not call it a leak (the list
        // itself is never destroyed: a static's destructor runs at exit
        // before LeakSanitizer looks).
        static auto* all_states = new std::vector<FloodState*>;
        auto* st = new FloodState(nodes());
        all_states->push_back(st);
        st->reply_mode = reply_mode;
        g_state.store(st, std::memory_order_release);
        return *st;
    }
};

TEST_F(Flood, ManyToOne) {
    FloodState& st = fresh_state(false);
    barrier();
    const bool reset = me() == 0 && reset_vm_hwm();
    const long hwm0 = vm_hwm_kib();
    const double t0 = now_s();

    const int bad_rc = send_flood([](int) { return gasnet_node_t(0); });
    EXPECT_EQ(bad_rc, 0) << "node " << me() << ": flood requests that did not return GASNET_OK";

    if (me() == 0) {
        const long want = long(nodes()) * kFlood;
        EXPECT_TRUE(wait_until([&] { return st.received.load(std::memory_order_acquire) >= want; }, kFloodSeconds))
            << "node 0 handled " << st.received.load() << " of " << want << " flood messages within " << kFloodSeconds
            << " s";
        const double t = now_s() - t0;
        const long hwm1 = vm_hwm_kib();
        std::printf("[ flood    ] %ld requests from %u nodes handled by node 0 in %.2f s; VmHWM %ld -> %ld KiB%s\n",
                    st.received.load(), nodes(), t, hwm0, hwm1, reset ? "" : " (peak not reset)");
        std::fflush(stdout);
        EXPECT_GT(hwm0, 0) << "VmHWM not found in /proc/self/status";
        EXPECT_LT(hwm1 - hwm0, kMaxGrowthKiB)
            << "node 0's peak RSS grew by " << (hwm1 - hwm0) << " KiB during the flood";
    }
    barrier();  // every sender done; late duplicates would have arrived by the checks below
    if (me() == 0) {
        EXPECT_EQ(st.received.load(), long(nodes()) * kFlood) << "flood messages handled by node 0";
        EXPECT_EQ(st.duplicates.load(), 0) << "flood messages handled twice";
        EXPECT_EQ(st.bad.load(), 0) << "flood messages with wrong arguments, source or payload";
        for (gasnet_node_t src = 0; src < nodes(); ++src)
            EXPECT_EQ(count_missing(st, src, [](gasnet_node_t, int) { return true; }), 0)
                << "flood messages from node " << src << " never handled";
    } else {
        EXPECT_EQ(st.received.load(), 0) << "node " << me() << " handled flood messages meant for node 0";
    }
}

gasnet_node_t all_to_all_dest(gasnet_node_t src, int seq) {
    return gasnet_node_t((std::uint64_t(src) + 1 + std::uint64_t(seq)) % nodes());
}

TEST_F(Flood, AllToAllWithReplies) {
    FloodState& st = fresh_state(true);
    barrier();
    const bool reset = reset_vm_hwm();
    const long hwm0 = vm_hwm_kib();
    const double t0 = now_s();

    const int bad_rc = send_flood([](int seq) { return all_to_all_dest(me(), seq); });
    EXPECT_EQ(bad_rc, 0) << "node " << me() << ": flood requests that did not return GASNET_OK";

    long want_in = 0, want_replies = 0;
    for (gasnet_node_t src = 0; src < nodes(); ++src)
        for (int seq = 0; seq < kFlood; ++seq) want_in += all_to_all_dest(src, seq) == me();
    for (int seq = 0; seq < kFlood; ++seq) want_replies += wants_reply(seq);
    EXPECT_TRUE(wait_until(
        [&] {
            return st.received.load(std::memory_order_acquire) >= want_in &&
                   st.replies.load(std::memory_order_acquire) >= want_replies;
        },
        kFloodSeconds))
        << "node " << me() << " handled " << st.received.load() << " of " << want_in << " requests and "
        << st.replies.load() << " of " << want_replies << " replies within " << kFloodSeconds << " s";
    const double t = now_s() - t0;
    const long hwm1 = vm_hwm_kib();
    EXPECT_LT(hwm1 - hwm0, kMaxGrowthKiB)
        << "node " << me() << ": peak RSS grew by " << (hwm1 - hwm0) << " KiB during the flood";
    if (me() == 0) {
        std::printf(
            "[ flood    ] all-to-all: %d requests per node, %u nodes, node 0 done in %.2f s; VmHWM %ld -> "
            "%ld KiB%s\n",
            kFlood, nodes(), t, hwm0, hwm1, reset ? "" : " (peak not reset)");
        std::fflush(stdout);
    }
    barrier();
    EXPECT_EQ(st.received.load(), want_in) << "node " << me() << ": flood requests handled";
    EXPECT_EQ(st.replies.load(), want_replies) << "node " << me() << ": flood replies handled";
    EXPECT_EQ(st.duplicates.load(), 0) << "node " << me() << ": flood messages handled twice";
    EXPECT_EQ(st.bad.load(), 0) << "node " << me() << ": flood messages with wrong arguments, source or payload";
    EXPECT_EQ(st.bad_replies.load(), 0) << "node " << me() << ": wrong flood replies";
    EXPECT_EQ(st.bad_reply_rc.load(), 0) << "node " << me() << ": gasnet_AMReplyShort2 failures in handlers";
    for (gasnet_node_t src = 0; src < nodes(); ++src)
        EXPECT_EQ(count_missing(st, src, [](gasnet_node_t s, int seq) { return all_to_all_dest(s, seq) == me(); }), 0)
            << "node " << me() << ": flood messages from node " << src << " never handled";
}

}  // namespace
