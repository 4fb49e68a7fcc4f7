// tests/mpi/gasnet/barrier_test.cpp -- GASNet split-phase barriers
// (gasnet-1.8-spec.md §3.5) and gasnet_set_waitmode (§3.6.2), run on every
// node.  Each test asserts, on every node, what gasnet_barrier_wait/try
// return: GASNET_OK, or GASNET_ERR_BARRIER_MISMATCH in exactly the cases of
// §3.5.0.2 (flags or named id differing from this node's notify, a
// GASNET_BARRIERFLAG_MISMATCH notify anywhere, two nodes notifying different
// named ids; anonymous notifies match anything).  A mismatched barrier still
// completes: the next one is checked to match again.
//
// The fixture's barrier (AM-built, gasnet_test.hpp) separates the tests, so
// a barrier test that goes wrong cannot leave another test's barrier half
// done.  Data written between notify and wait is checked after the
// following barrier, since a node may leave a barrier as soon as every node
// has notified (§3.5.0.1: notify does not wait for puts).
#include "gasnet_test.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace gasnet_test;

constexpr int kNamed = 0;

// notify(id, flags) then wait(wait_id, wait_flags).
int barrier_with(int id, int flags, int wait_id, int wait_flags) {
    gasnet_barrier_notify(id, flags);
    return gasnet_barrier_wait(wait_id, wait_flags);
}
int barrier_with(int id, int flags) { return barrier_with(id, flags, id, flags); }

// gasnet_barrier_try until it returns something else than GASNET_ERR_NOT_READY
// (or `seconds`); nothing else is called in between: try makes progress.
int try_until_done(int id, int flags, double seconds = 30.0, int* not_ready = nullptr) {
    const double deadline = now_s() + seconds;
    int rc;
    while ((rc = gasnet_barrier_try(id, flags)) == GASNET_ERR_NOT_READY && now_s() < deadline) {
        if (not_ready) ++*not_ready;
        sched_yield();
    }
    return rc;
}

const char* rc_name(int rc) { return gasnet_ErrorName(rc); }
#define EXPECT_RC(got, want) EXPECT_STREQ(rc_name(got), rc_name(want))

using Barrier = GasnetTest;

TEST_F(Barrier, NamedWithEqualIds) {
    for (int id : {0, 1, -1, 42, INT_MIN, INT_MAX, 0x12345678}) {
        EXPECT_RC(barrier_with(id, kNamed), GASNET_OK) << "named barrier, id " << id << " on every node";
    }
}

TEST_F(Barrier, AnonymousIgnoresIds) {
    // Anonymous: the id is ignored, so different ids (and different ids at
    // wait) still match.
    const int id = 1000 + int(me());
    EXPECT_RC(barrier_with(id, GASNET_BARRIERFLAG_ANONYMOUS), GASNET_OK);
    EXPECT_RC(barrier_with(id, GASNET_BARRIERFLAG_ANONYMOUS, -id, GASNET_BARRIERFLAG_ANONYMOUS), GASNET_OK)
        << "anonymous notify and wait with another id";
}

TEST_F(Barrier, DifferentNamedIdsMismatchOnEveryNode) {
    EXPECT_RC(barrier_with(100 + int(me()), kNamed), GASNET_ERR_BARRIER_MISMATCH) << "every node a different id";
    EXPECT_RC(barrier_with(7, kNamed), GASNET_OK) << "the barrier after a mismatch";
    // Only the last node differs.
    const int id = me() == nodes() - 1 ? 8 : 9;
    EXPECT_RC(barrier_with(id, kNamed), GASNET_ERR_BARRIER_MISMATCH) << "the last node notifies 8, the others 9";
    EXPECT_RC(barrier_with(INT_MIN, kNamed), GASNET_OK) << "the barrier after a mismatch";
}

TEST_F(Barrier, AnonymousMatchesNamed) {
    // Even nodes anonymous (with an id that would not match), odd nodes named 42.
    const bool anon = me() % 2 == 0;
    EXPECT_RC(barrier_with(anon ? 5 : 42, anon ? GASNET_BARRIERFLAG_ANONYMOUS : kNamed), GASNET_OK)
        << (anon ? "anonymous" : "named 42") << " on this node";
    // Every node anonymous but node 0, named.
    const int flags = me() == 0 ? kNamed : GASNET_BARRIERFLAG_ANONYMOUS;
    EXPECT_RC(barrier_with(-3, flags), GASNET_OK);
    // Anonymous ones do not hide two named ones that differ (needs 3 nodes:
    // node 0 anonymous, the others named by their index).
    if (nodes() >= 3) {
        const int f = me() == 0 ? GASNET_BARRIERFLAG_ANONYMOUS : kNamed;
        EXPECT_RC(barrier_with(int(me()), f), GASNET_ERR_BARRIER_MISMATCH)
            << "node 0 anonymous, nodes 1.. named with different ids";
    }
    EXPECT_RC(barrier_with(0, GASNET_BARRIERFLAG_ANONYMOUS), GASNET_OK);
}

TEST_F(Barrier, MismatchFlagMismatchesEveryNode) {
    const bool last = me() == nodes() - 1;
    // The others named.
    EXPECT_RC(barrier_with(77, last ? GASNET_BARRIERFLAG_MISMATCH : kNamed), GASNET_ERR_BARRIER_MISMATCH)
        << (last ? "this node notified GASNET_BARRIERFLAG_MISMATCH" : "the last node notified MISMATCH");
    EXPECT_RC(barrier_with(78, kNamed), GASNET_OK) << "the barrier after a mismatch";
    // The others anonymous.
    EXPECT_RC(barrier_with(77, last ? GASNET_BARRIERFLAG_MISMATCH : GASNET_BARRIERFLAG_ANONYMOUS),
              GASNET_ERR_BARRIER_MISMATCH);
    EXPECT_RC(barrier_with(79, GASNET_BARRIERFLAG_ANONYMOUS), GASNET_OK);
    // Every node.
    EXPECT_RC(barrier_with(0, GASNET_BARRIERFLAG_MISMATCH), GASNET_ERR_BARRIER_MISMATCH);
    EXPECT_RC(barrier_with(0, kNamed), GASNET_OK);
}

TEST_F(Barrier, WaitDifferingFromOwnNotify) {
    // Node 0's wait differs from its own notify; the notifies all match, so
    // only node 0 sees the mismatch (§3.5.0.2 lists no reason for the others).
    const bool zero = me() == 0;
    struct Case {
        int id, flags, wait_id, wait_flags;
        const char* what;
    } const cases[] = {
        {5, kNamed, 6, kNamed, "named 5, wait with id 6"},
        {5, kNamed, 5, GASNET_BARRIERFLAG_ANONYMOUS, "named 5, wait anonymous"},
        {5, GASNET_BARRIERFLAG_ANONYMOUS, 5, kNamed, "anonymous, wait named 5"},
        {5, kNamed, 5, GASNET_BARRIERFLAG_MISMATCH, "named 5, wait with the MISMATCH flag"},
    };
    for (const auto& c : cases) {
        const int rc = zero ? barrier_with(c.id, c.flags, c.wait_id, c.wait_flags) : barrier_with(5, kNamed);
        EXPECT_RC(rc, zero ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK) << "node 0: " << c.what;
    }
    EXPECT_RC(barrier_with(5, kNamed), GASNET_OK);
}

// gasnet_barrier_try: GASNET_ERR_NOT_READY while a node has not notified.
// Node 0 notifies and tries; the others notify only once node 0 has seen
// NOT_READY and told them so by an Active Message (which they get while
// polling in wait_until).
std::atomic<int> g_go{0};
gasnet_handler_t h_go;
void go_handler(gasnet_token_t, gasnet_handlerarg_t round) { g_go.store(round, std::memory_order_release); }
const HandlerRegistrar reg_go("barrier_test::go", as_handler(&go_handler), &h_go);

void tell_others(int round) {
    for (gasnet_node_t k = 1; k < nodes(); ++k)
        EXPECT_EQ(gasnet_AMRequestShort1(k, h_go, round), GASNET_OK) << "go request to node " << k;
}

TEST_F(Barrier, TryNotReadyUntilEveryNodeNotified) {
    // Round 1: node 0 tries until GASNET_OK; round 2: node 0 tries once,
    // then waits; round 3: the ids differ, try ends with MISMATCH.
    for (int round = 1; round <= 3; ++round) {
        const int id = 300 + round;
        const int other_id = round == 3 ? id + 1 : id;
        const int want = round == 3 ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK;
        if (me() == 0) {
            gasnet_barrier_notify(id, kNamed);
            for (int k = 0; k < 5; ++k)
                EXPECT_RC(gasnet_barrier_try(id, kNamed), GASNET_ERR_NOT_READY)
                    << "round " << round << ": the other nodes have not notified yet (try " << k << ")";
            tell_others(round);
            int rc;
            if (round == 2) {
                rc = gasnet_barrier_wait(id, kNamed);
            } else {
                rc = try_until_done(id, kNamed);
            }
            EXPECT_RC(rc, want) << "round " << round << " on node 0";
        } else {
            const bool told = wait_until([&] { return g_go.load(std::memory_order_acquire) >= round; }, 30.0);
            EXPECT_TRUE(told) << "round " << round << ": node 0 never said it had seen GASNET_ERR_NOT_READY";
            gasnet_barrier_notify(other_id, kNamed);
            const int rc = round == 1 ? try_until_done(other_id, kNamed) : gasnet_barrier_wait(other_id, kNamed);
            EXPECT_RC(rc, want) << "round " << round << " on node " << me();
        }
    }
    g_go.store(0);
}

// gasnet_barrier_wait serves Active Messages: node 0 notifies only after
// every other node, already in gasnet_barrier_wait, has answered a request.
std::atomic<int> g_pongs{0};
gasnet_handler_t h_ping, h_pong;
void ping_handler(gasnet_token_t token, gasnet_handlerarg_t x) {
    if (gasnet_AMReplyShort1(token, h_pong, x + 1) != GASNET_OK) handler_failure("pong reply failed");
}
void pong_handler(gasnet_token_t, gasnet_handlerarg_t x) {
    if (x != 1235) handler_failure("pong argument " + std::to_string(x));
    g_pongs.fetch_add(1, std::memory_order_release);
}
const HandlerRegistrar reg_ping("barrier_test::ping", as_handler(&ping_handler), &h_ping);
const HandlerRegistrar reg_pong("barrier_test::pong", as_handler(&pong_handler), &h_pong);

TEST_F(Barrier, WaitServesActiveMessages) {
    g_pongs.store(0);
    if (me() == 0) {
        for (gasnet_node_t k = 1; k < nodes(); ++k) EXPECT_EQ(gasnet_AMRequestShort1(k, h_ping, 1234), GASNET_OK);
        EXPECT_TRUE(wait_until([] { return g_pongs.load() == int(nodes()) - 1; }, 30.0))
            << "only " << g_pongs.load() << " of " << nodes() - 1 << " nodes answered from gasnet_barrier_wait";
    }
    EXPECT_RC(barrier_with(11, kNamed), GASNET_OK);
}

// Split-phase overlap: between notify and wait every node puts to its two
// neighbours (a blocking put, nbi puts synchronized before the wait, an
// explicit-handle memset) and gets from them; the data is checked after
// the following barrier.
constexpr std::size_t kOverlapBase = 12 << 20;  // in every segment, below 16 MiB
constexpr std::size_t kOverlapSlot = 640 * 1024;
constexpr std::size_t kBlockBytes = 65536, kNbiBytes = 256 * 1024 + 3, kMemsetBytes = 1000;

std::uint64_t overlap_pstart(gasnet_node_t w, int iter) { return std::uint64_t(w) * 40009 + std::uint64_t(iter) * 977; }

TEST_F(Barrier, SplitPhaseOverlapsPuts) {
    const gasnet_node_t n = nodes(), self = me(), next = (self + 1) % n, prev = (self + n - 1) % n;
    if (seg(self).size < kOverlapBase + 2 * kOverlapSlot) GTEST_SKIP() << "segment too small";
    // This node's two slots: [0] written by prev, [1] by next.
    unsigned char* const mine = my_seg() + kOverlapBase;
    std::vector<unsigned char> src(kBlockBytes + kNbiBytes + 16), got(kBlockBytes);
    for (int iter = 0; iter < 10; ++iter) {
        std::memset(mine, 0, 2 * kOverlapSlot);
        barrier();  // the slots are clear before anyone writes
        const int id = 500 + iter;
        gasnet_barrier_notify(id, kNamed);
        // A blocking put to next (slot 0 there), from an unaligned buffer.
        unsigned char* s = src.data() + 1;
        std::memcpy(s, pattern(overlap_pstart(self, iter)), kBlockBytes + kNbiBytes);
        gasnet_put_bulk(next, seg_addr(next) + kOverlapBase + 1, s, kBlockBytes);
        // nbi puts to prev (slot 1 there), several pieces, and a memset_nb to next.
        for (std::size_t off = 0; off < kNbiBytes; off += 65536) {
            const std::size_t len = std::min<std::size_t>(65536, kNbiBytes - off);
            gasnet_put_nbi_bulk(prev, seg_addr(prev) + kOverlapBase + kOverlapSlot + off, s + kBlockBytes + off, len);
        }
        const gasnet_handle_t hm =
            gasnet_memset_nb(next, seg_addr(next) + kOverlapBase + 2 + kBlockBytes, 0xA0 + iter, kMemsetBytes);
        // A get from prev's area that prev does not write in this phase? Every
        // area may be being written: get the far end of next's slot 1 instead,
        // which nobody writes (nbi puts end at kNbiBytes).
        gasnet_get_bulk(got.data(), next, seg_addr(next) + kOverlapBase + kOverlapSlot + kNbiBytes + 100, 64);
        for (int k = 0; k < 64; ++k)
            if (got[k] != 0) {
                ADD_FAILURE() << "iteration " << iter << ": get between notify and wait: byte " << k << " is "
                              << int(got[k]);
                break;
            }
        gasnet_wait_syncnbi_puts();
        gasnet_wait_syncnb(hm);
        EXPECT_RC(gasnet_barrier_wait(id, kNamed), GASNET_OK) << "iteration " << iter;
        // The following barrier: every node's puts of this phase are done.
        EXPECT_RC(barrier_with(id + 1000, GASNET_BARRIERFLAG_ANONYMOUS), GASNET_OK);
        std::string why;
        EXPECT_TRUE(matches_pattern(mine + 1, kBlockBytes, overlap_pstart(prev, iter), &why))
            << "iteration " << iter << ": blocking put from node " << prev << ": " << why;
        EXPECT_TRUE(matches_pattern(mine + kOverlapSlot, kNbiBytes, overlap_pstart(next, iter) + kBlockBytes, &why))
            << "iteration " << iter << ": nbi puts from node " << next << ": " << why;
        std::size_t bad = 0;
        for (std::size_t k = 0; k < kMemsetBytes; ++k) bad += mine[2 + kBlockBytes + k] != 0xA0 + iter;
        EXPECT_EQ(bad, 0u) << "iteration " << iter << ": memset_nb from node " << prev;
    }
}

TEST_F(Barrier, ManyConsecutive) {
    constexpr int kBarriers = 1000;
    const double t0 = now_s();
    int bad = 0;
    for (int i = 0; i < kBarriers; ++i) {
        int rc;
        switch (i % 4) {
            case 0: rc = barrier_with(i, kNamed); break;
            case 1: rc = barrier_with(i, GASNET_BARRIERFLAG_ANONYMOUS); break;
            case 2:
                gasnet_barrier_notify(i, kNamed);
                rc = try_until_done(i, kNamed);
                break;
            default:  // mixed: node 0 anonymous
                rc = barrier_with(-i, me() == 0 ? GASNET_BARRIERFLAG_ANONYMOUS : kNamed);
                break;
        }
        if (rc != GASNET_OK && bad++ < 5) ADD_FAILURE() << "barrier " << i << " returned " << rc_name(rc);
    }
    EXPECT_EQ(bad, 0);
    if (me() == 0) std::printf("[ gasket   ] %d barriers: %.3f s\n", kBarriers, now_s() - t0);
}

// §3.6.2: every wait mode; barriers (and other waits) still complete.
TEST_F(Barrier, EveryWaitMode) {
    const gasnet_node_t n = nodes(), self = me(), next = (self + 1) % n;
    for (int mode : {GASNET_WAIT_BLOCK, GASNET_WAIT_SPIN, GASNET_WAIT_SPINBLOCK}) {
        EXPECT_EQ(gasnet_set_waitmode(mode), GASNET_OK) << "mode " << mode;
        // Fewer in SPIN mode: spinning nodes oversubscribing the cores wait
        // for each other's time slices.
        const int count = mode == GASNET_WAIT_SPIN ? 5 : 20;
        for (int i = 0; i < count; ++i) {
            // Node i % n arrives late.
            if (self == gasnet_node_t(i) % n) {
                const double until = now_s() + 0.002;
                while (now_s() < until) {}
            }
            EXPECT_RC(barrier_with(i + 10 * mode, kNamed), GASNET_OK) << "wait mode " << mode << ", barrier " << i;
        }
        std::uint64_t v = 0xC0FFEE00ull + std::uint64_t(mode), back = 0;
        gasnet_put(next, seg_addr(next) + kOverlapBase + 8 * self, &v, 8);
        gasnet_handle_t h = gasnet_get_nb(&back, next, seg_addr(next) + kOverlapBase + 8 * self, 8);
        gasnet_wait_syncnb(h);
        EXPECT_EQ(back, v) << "wait mode " << mode;
        EXPECT_RC(barrier_with(0, GASNET_BARRIERFLAG_ANONYMOUS), GASNET_OK);
    }
    EXPECT_EQ(gasnet_set_waitmode(GASNET_WAIT_SPINBLOCK), GASNET_OK);
}

}  // namespace
