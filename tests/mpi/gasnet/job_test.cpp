// tests/mpi/gasnet/job_test.cpp -- job control and environment queries
// (gasnet-1.8-spec.md §2.1, §2.2) and atomicity control (§2.4: handler-safe
// locks, No-Interrupt Sections).  Compiled for GASNET_PAR: the HSL tests
// use threads of their own.
//
//  - what may be called between gasnet_init and gasnet_attach, and what
//    must return GASNET_ERR_NOT_INIT there (recorded by a pre-attach hook);
//  - gasnet_mynode/gasnet_nodes against MPI_COMM_WORLD;
//  - the handler table after attach: fixed indices kept, "don't care" ones
//    assigned from 255 downwards and identical on every node;
//  - gasnet_getSegmentInfo: page-aligned bases, the sizes asked for, the
//    same table on every node, numentries smaller/larger than the job;
//  - gasnet_getenv;
//  - HSLs: GASNET_HSL_INITIALIZER and gasnet_hsl_init, trylock against a
//    holder on another thread, blocking lock, an HSL-protected counter
//    updated concurrently by handlers and threads ending exact;
//  - No-Interrupt Sections: the calls allowed inside, hold/resume ignored
//    in handlers and while holding an HSL.
#include "gasnet_test.hpp"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace gasnet_test;

// ---- between gasnet_init and gasnet_attach ---------------------------------------
struct PreAttach {
    bool ran = false;
    gasnet_node_t mynode = ~0u, nodes = 0;
    std::uintptr_t max_local = 0, max_global = 0, max_local_after = 0;
    int poll_rc = 0, seginfo_rc = 0, short_rc = 0, medium_rc = 0, long_rc = 0, init_again_rc = 0;
    bool seginfo_untouched = false;
    std::string env;
    bool env_set = false, unset_is_null = false;
} g_pre;

void pre_attach_checks() {
    g_pre.ran = true;
    g_pre.mynode = gasnet_mynode();
    g_pre.nodes = gasnet_nodes();
    g_pre.max_local = gasnet_getMaxLocalSegmentSize();
    g_pre.max_global = gasnet_getMaxGlobalSegmentSize();  // collective: every node is here
    g_pre.max_local_after = gasnet_getMaxLocalSegmentSize();
    g_pre.poll_rc = gasnet_AMPoll();
    gasnet_seginfo_t tbl[4];
    std::memset(tbl, 0xAB, sizeof tbl);
    g_pre.seginfo_rc = gasnet_getSegmentInfo(tbl, 4);
    gasnet_seginfo_t fresh;
    std::memset(&fresh, 0xAB, sizeof fresh);
    g_pre.seginfo_untouched = std::memcmp(&tbl[0], &fresh, sizeof fresh) == 0;
    char buf[16] = {};
    g_pre.short_rc = gasnet_AMRequestShort1(0, 255, -1);
    g_pre.medium_rc = gasnet_AMRequestMedium0(0, 255, buf, sizeof buf);
    g_pre.long_rc = gasnet_AMRequestLong0(0, 255, buf, sizeof buf, buf);
    int argc = 0;
    char** argv = nullptr;
    g_pre.init_again_rc = gasnet_init(&argc, &argv);
    const char* v = gasnet_getenv("GASKET_TEST_GETENV");
    g_pre.env_set = v != nullptr;
    if (v) g_pre.env = v;
    g_pre.unset_is_null = gasnet_getenv("GASKET_TEST_SURELY_NOT_SET_ANYWHERE") == nullptr;
}
const PreAttachRegistrar pre(&pre_attach_checks);

// ---- handlers with fixed indices (and some "don't care" ones) --------------------
// Fixed 129, 200 and 250 (250 lies among the indices "don't care" entries
// get, so the assignment must step over it); the rest don't care.
constexpr gasnet_handler_t kFixedEcho = 250, kFixedAdd = 200, kFixedNoop = 129;
gasnet_handler_t h_echo, h_echo_reply, h_add, h_noop, h_nis_in_handler, h_nis_reply;
std::atomic<int> g_echo_replies{0};

void echo_handler(gasnet_token_t token, gasnet_handlerarg_t v) {
    const int rc = gasnet_AMReplyShort1(token, h_echo_reply, ~v);
    if (rc != GASNET_OK) handler_failure("echo: reply returned " + std::to_string(rc));
}
void echo_reply_handler(gasnet_token_t token, gasnet_handlerarg_t v) {
    gasnet_node_t src = ~0u;
    if (gasnet_AMGetMsgSource(token, &src) != GASNET_OK || ~v != std::int32_t(me() * 1000 + src))
        handler_failure("echo reply from node " + std::to_string(src) + ": argument " + std::to_string(~v));
    g_echo_replies.fetch_add(1, std::memory_order_release);
}

gasnet_hsl_t g_counter_lock = GASNET_HSL_INITIALIZER;
long g_counter = 0;  // protected by g_counter_lock only (not atomic on purpose)
std::atomic<long> g_adds_handled{0};
void bump(long amount) {
    // A read, a pause, a write: lost updates if the lock does not exclude.
    volatile long v = g_counter;
    for (int spin = 0; spin < 3; ++spin) std::atomic_signal_fence(std::memory_order_seq_cst);
    g_counter = v + amount;
}
void add_handler(gasnet_token_t, gasnet_handlerarg_t amount) {
    gasnet_hsl_lock(&g_counter_lock);
    bump(amount);
    gasnet_hsl_unlock(&g_counter_lock);
    g_adds_handled.fetch_add(1, std::memory_order_release);
}
void noop_handler(gasnet_token_t) {}

// Hold/resume inside a handler are ignored (§2.4.3), also with an HSL held.
std::atomic<int> g_nis_replies{0};
gasnet_hsl_t g_nis_lock = GASNET_HSL_INITIALIZER;
void nis_in_handler(gasnet_token_t token) {
    gasnet_hold_interrupts();
    gasnet_resume_interrupts();
    gasnet_hsl_lock(&g_nis_lock);
    gasnet_hold_interrupts();
    gasnet_resume_interrupts();
    gasnet_hsl_unlock(&g_nis_lock);
    const int rc = gasnet_AMReplyShort0(token, h_nis_reply);
    if (rc != GASNET_OK) handler_failure("nis_in_handler: reply returned " + std::to_string(rc));
}
void nis_reply(gasnet_token_t) { g_nis_replies.fetch_add(1, std::memory_order_release); }

const HandlerRegistrar r1("job::echo", as_handler(&echo_handler), &h_echo, kFixedEcho);
const HandlerRegistrar r2("job::echo_reply", as_handler(&echo_reply_handler), &h_echo_reply);
const HandlerRegistrar r3("job::add", as_handler(&add_handler), &h_add, kFixedAdd);
const HandlerRegistrar r4("job::noop", as_handler(&noop_handler), &h_noop, kFixedNoop);
const HandlerRegistrar r5("job::nis_in_handler", as_handler(&nis_in_handler), &h_nis_in_handler);
const HandlerRegistrar r6("job::nis_reply", as_handler(&nis_reply), &h_nis_reply);

class Job : public GasnetTest {};

TEST_F(Job, BetweenInitAndAttach) {
    ASSERT_TRUE(g_pre.ran);
    EXPECT_EQ(g_pre.mynode, gasnet_mynode()) << "gasnet_mynode before attach";
    EXPECT_EQ(g_pre.nodes, gasnet_nodes()) << "gasnet_nodes before attach";
    EXPECT_GT(g_pre.max_local, 0u) << "gasnet_getMaxLocalSegmentSize";
    EXPECT_EQ(g_pre.max_local % GASNET_PAGESIZE, 0u) << "gasnet_getMaxLocalSegmentSize: " << g_pre.max_local;
    EXPECT_GT(g_pre.max_global, 0u) << "gasnet_getMaxGlobalSegmentSize";
    EXPECT_EQ(g_pre.max_global % GASNET_PAGESIZE, 0u) << "gasnet_getMaxGlobalSegmentSize: " << g_pre.max_global;
    // The minimum over the nodes cannot exceed this node's value (taken just
    // before and just after, in case free memory moved meanwhile).
    EXPECT_LE(g_pre.max_global, std::max(g_pre.max_local, g_pre.max_local_after)) << "node " << me();
    // Every node's maximum then was at least what it attached later (16 MiB or more).
    EXPECT_GE(g_pre.max_global, requested_segsize(0));
    EXPECT_EQ(g_pre.poll_rc, GASNET_ERR_NOT_INIT) << "gasnet_AMPoll before attach";
    EXPECT_EQ(g_pre.seginfo_rc, GASNET_ERR_NOT_INIT) << "gasnet_getSegmentInfo before attach";
    EXPECT_TRUE(g_pre.seginfo_untouched) << "gasnet_getSegmentInfo before attach wrote the table";
    EXPECT_EQ(g_pre.short_rc, GASNET_ERR_NOT_INIT) << "gasnet_AMRequestShort1 before attach";
    EXPECT_EQ(g_pre.medium_rc, GASNET_ERR_NOT_INIT) << "gasnet_AMRequestMedium0 before attach";
    EXPECT_EQ(g_pre.long_rc, GASNET_ERR_NOT_INIT) << "gasnet_AMRequestLong0 before attach";
    EXPECT_EQ(g_pre.init_again_rc, GASNET_ERR_RESOURCE) << "a second gasnet_init";
    EXPECT_TRUE(g_pre.env_set) << "gasnet_getenv before attach";
    // The global maximum is one value for the whole job.
    const auto globals = allgather_value(g_pre.max_global);
    for (gasnet_node_t n = 0; n < nodes(); ++n)
        EXPECT_EQ(globals[n], g_pre.max_global)
            << "gasnet_getMaxGlobalSegmentSize on node " << n << " vs node " << me();
}

TEST_F(Job, NodeNumbersAreMpiRanks) {
    int initialized = 0, rank = -1, size = -1;
    MPI_Initialized(&initialized);
    EXPECT_TRUE(initialized) << "gasnet_init initializes MPI";
    if (initialized) {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        EXPECT_EQ(gasnet_mynode(), gasnet_node_t(rank));
        EXPECT_EQ(gasnet_nodes(), gasnet_node_t(size));
    }
    EXPECT_LT(me(), nodes());
    const auto all = allgather_value(gasnet_mynode());
    ASSERT_EQ(all.size(), std::size_t(nodes()));
    for (gasnet_node_t n = 0; n < nodes(); ++n) EXPECT_EQ(all[n], n) << "gasnet_mynode of node " << n;
}

TEST_F(Job, HandlerIndicesAfterAttach) {
    const auto& before = table_before_attach();
    const auto& after = table_after_attach();
    ASSERT_EQ(before.size(), after.size());
    ASSERT_LE(before.size(), 128u);
    std::set<int> fixed;
    for (const auto& e : before)
        if (e.index) fixed.insert(e.index);
    EXPECT_TRUE(fixed.count(kFixedEcho) && fixed.count(kFixedAdd) && fixed.count(kFixedNoop) && fixed.count(128));
    // "Don't care" entries, in table order, get the highest free index:
    // 255 downwards, skipping fixed ones (include/gasnet.h).
    int next = 255;
    std::set<int> used;
    for (std::size_t i = 0; i < before.size(); ++i) {
        EXPECT_EQ(after[i].fn, before[i].fn) << "entry " << i << " (" << before[i].name << ")";
        EXPECT_TRUE(used.insert(after[i].index).second)
            << "index " << int(after[i].index) << " given twice (entry " << i << ", " << before[i].name << ")";
        if (before[i].index) {
            EXPECT_EQ(after[i].index, before[i].index) << "fixed entry " << i << " (" << before[i].name << ") changed";
            continue;
        }
        while (fixed.count(next)) --next;
        EXPECT_EQ(int(after[i].index), next) << "don't-care entry " << i << " (" << before[i].name << ")";
        EXPECT_GE(int(after[i].index), 128) << "entry " << i << ": indices 0..127 are reserved";
        --next;
    }
    // Every node got the same assignment.
    std::vector<unsigned char> mine;
    for (const auto& e : after) mine.push_back(e.index);
    const auto all = allgather(mine.data(), mine.size());
    for (gasnet_node_t n = 0; n < nodes(); ++n) EXPECT_EQ(all[n], mine) << "node " << n << "'s table vs node " << me();
    // The fixed handlers are reachable at their indices on every node.
    g_echo_replies.store(0);
    barrier();
    for (gasnet_node_t n = 0; n < nodes(); ++n)
        EXPECT_EQ(gasnet_AMRequestShort1(n, kFixedEcho, std::int32_t(me() * 1000 + n)), GASNET_OK);
    EXPECT_TRUE(wait_until([] { return g_echo_replies.load() >= int(nodes()); }))
        << "node " << me() << ": " << g_echo_replies.load() << " echo replies";
}

TEST_F(Job, SegmentInfo) {
    const gasnet_node_t n = nodes();
    std::vector<gasnet_seginfo_t> tbl(n);
    ASSERT_EQ(gasnet_getSegmentInfo(tbl.data(), int(n)), GASNET_OK);
    for (gasnet_node_t k = 0; k < n; ++k) {
        EXPECT_NE(tbl[k].addr, nullptr) << "node " << k;
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(tbl[k].addr) % GASNET_PAGESIZE, 0u)
            << "node " << k << "'s segment base " << tbl[k].addr;
        EXPECT_EQ(tbl[k].size, requested_segsize(k)) << "node " << k << "'s segment size";
        EXPECT_EQ(tbl[k].addr, seg(k).addr) << "two calls disagree";
    }
    // Each node's own entry is what every node sees for it.
    const auto own = allgather_value(tbl[me()]);
    for (gasnet_node_t k = 0; k < n; ++k) {
        EXPECT_EQ(own[k].addr, tbl[k].addr) << "node " << k << "'s segment base as node " << me() << " sees it";
        EXPECT_EQ(own[k].size, tbl[k].size) << "node " << k << "'s segment size as node " << me() << " sees it";
    }
    // More entries than nodes: the extra ones untouched; fewer: only those.
    gasnet_seginfo_t sentinel;
    std::memset(&sentinel, 0xCD, sizeof sentinel);
    std::vector<gasnet_seginfo_t> big(n + 2, sentinel);
    EXPECT_EQ(gasnet_getSegmentInfo(big.data(), int(n + 2)), GASNET_OK);
    for (gasnet_node_t k = 0; k < n; ++k) EXPECT_EQ(big[k].addr, tbl[k].addr);
    for (gasnet_node_t k = n; k < n + 2; ++k)
        EXPECT_EQ(std::memcmp(&big[k], &sentinel, sizeof sentinel), 0) << "entry " << k << " past the job was written";
    std::vector<gasnet_seginfo_t> small(n, sentinel);
    EXPECT_EQ(gasnet_getSegmentInfo(small.data(), 1), GASNET_OK);
    EXPECT_EQ(small[0].addr, tbl[0].addr);
    EXPECT_EQ(small[0].size, tbl[0].size);
    for (gasnet_node_t k = 1; k < n; ++k)
        EXPECT_EQ(std::memcmp(&small[k], &sentinel, sizeof sentinel), 0)
            << "entry " << k << " written with numentries 1";
    EXPECT_EQ(gasnet_getSegmentInfo(small.data(), 0), GASNET_OK);
    // This node's segment is usable locally at once, first byte to last.
    unsigned char* base = my_seg();
    const std::size_t size = seg(me()).size;
    base[0] = 0x11;
    base[size / 2] = 0x22;
    base[size - 1] = 0x33;
    EXPECT_EQ(base[0], 0x11);
    EXPECT_EQ(base[size / 2], 0x22);
    EXPECT_EQ(base[size - 1], 0x33);
}

TEST_F(Job, Getenv) {
    const char* v = gasnet_getenv("GASKET_TEST_GETENV");
    ASSERT_NE(v, nullptr) << "GASKET_TEST_GETENV is set in the test's environment (CMakeLists.txt)";
    EXPECT_STREQ(v, "gasnet getenv: value 42");
    EXPECT_EQ(g_pre.env, "gasnet getenv: value 42") << "before attach";
    EXPECT_TRUE(g_pre.unset_is_null) << "an unset variable before attach";
    EXPECT_EQ(gasnet_getenv("GASKET_TEST_SURELY_NOT_SET_ANYWHERE"), nullptr);
}

// ---- handler-safe locks -----------------------------------------------------------
gasnet_hsl_t g_static_lock = GASNET_HSL_INITIALIZER;

TEST_F(Job, HslStaticInitializer) {
    gasnet_hsl_lock(&g_static_lock);
    gasnet_hsl_unlock(&g_static_lock);
    EXPECT_EQ(gasnet_hsl_trylock(&g_static_lock), GASNET_OK);
    gasnet_hsl_unlock(&g_static_lock);
    gasnet_hsl_lock(&g_static_lock);
    gasnet_hsl_unlock(&g_static_lock);
}

TEST_F(Job, HslInitNestedAndDestroy) {
    std::vector<gasnet_hsl_t> locks(6);
    for (auto& l : locks) gasnet_hsl_init(&l);
    for (auto& l : locks) gasnet_hsl_lock(&l);  // several locks, released in reverse order
    for (auto it = locks.rbegin(); it != locks.rend(); ++it) gasnet_hsl_unlock(&*it);
    EXPECT_EQ(gasnet_hsl_trylock(&locks[0]), GASNET_OK);
    EXPECT_EQ(gasnet_hsl_trylock(&locks[1]), GASNET_OK);
    gasnet_hsl_unlock(&locks[1]);
    gasnet_hsl_unlock(&locks[0]);
    for (auto& l : locks) gasnet_hsl_destroy(&l);
}

// Another thread holds the lock: trylock says GASNET_ERR_NOT_READY, lock
// blocks until the holder lets go.
void check_against_holder(gasnet_hsl_t* l) {
    std::atomic<int> state{0};  // 1: holding, 2: may release
    std::thread holder([&] {
        gasnet_hsl_lock(l);
        state.store(1);
        while (state.load() != 2) std::this_thread::yield();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        gasnet_hsl_unlock(l);
    });
    while (state.load() != 1) std::this_thread::yield();
    EXPECT_EQ(gasnet_hsl_trylock(l), GASNET_ERR_NOT_READY) << "trylock while another thread holds the lock";
    EXPECT_EQ(gasnet_hsl_trylock(l), GASNET_ERR_NOT_READY) << "trylock again";
    const double t0 = now_s();
    state.store(2);
    gasnet_hsl_lock(l);  // the holder lets go after 100 ms
    const double waited = now_s() - t0;
    gasnet_hsl_unlock(l);
    holder.join();
    EXPECT_GE(waited, 0.05) << "gasnet_hsl_lock returned while another thread held the lock";
    EXPECT_EQ(gasnet_hsl_trylock(l), GASNET_OK) << "trylock once the lock is free";
    gasnet_hsl_unlock(l);
}

TEST_F(Job, HslTrylockAndLockAgainstAnotherThread) {
    check_against_holder(&g_static_lock);
    gasnet_hsl_t dynamic;
    gasnet_hsl_init(&dynamic);
    check_against_holder(&dynamic);
    gasnet_hsl_destroy(&dynamic);
}

// Handlers (run in polls of three threads, and on the progress thread if
// there is one) and three client threads add to one HSL-protected counter.
TEST_F(Job, HslCounterFromHandlersAndThreads) {
    constexpr int kIter = 100000, kMsgs = 2000, kAmount = 3;
    gasnet_hsl_lock(&g_counter_lock);
    g_counter = 0;
    gasnet_hsl_unlock(&g_counter_lock);
    g_adds_handled.store(0);
    barrier();
    std::atomic<bool> go{false};
    auto worker = [&] {
        while (!go.load()) std::this_thread::yield();
        for (int i = 0; i < kIter; ++i) {
            gasnet_hsl_lock(&g_counter_lock);
            bump(1);
            gasnet_hsl_unlock(&g_counter_lock);
            if (i % 256 == 0) gasnet_AMPoll();  // GASNET_PAR: any thread may poll and run handlers
        }
    };
    std::thread t1(worker), t2(worker);
    go.store(true);
    int bad_rc = 0;
    for (int i = 0; i < kMsgs; ++i) {
        for (gasnet_node_t n = 0; n < nodes(); ++n) bad_rc += gasnet_AMRequestShort1(n, h_add, kAmount) != GASNET_OK;
        for (int j = 0; j < kIter / kMsgs; ++j) {
            gasnet_hsl_lock(&g_counter_lock);
            bump(1);
            gasnet_hsl_unlock(&g_counter_lock);
        }
    }
    EXPECT_EQ(bad_rc, 0);
    const long want_handled = long(kMsgs) * nodes();
    EXPECT_TRUE(wait_until([&] { return g_adds_handled.load(std::memory_order_acquire) >= want_handled; }))
        << "node " << me() << ": " << g_adds_handled.load() << " of " << want_handled << " add requests handled";
    t1.join();
    t2.join();
    barrier();
    gasnet_hsl_lock(&g_counter_lock);
    const long total = g_counter;
    gasnet_hsl_unlock(&g_counter_lock);
    EXPECT_EQ(g_adds_handled.load(), want_handled);
    EXPECT_EQ(total, 3L * kIter + kAmount * want_handled)
        << "node " << me() << ": updates lost (or made twice) under the handler-safe lock";
}

// ---- No-Interrupt Sections ---------------------------------------------------------
TEST_F(Job, NoInterruptSectionAllowedCalls) {
    gasnet_hsl_t l;
    gasnet_hsl_init(&l);
    for (int round = 0; round < 3; ++round) {
        gasnet_hold_interrupts();
        EXPECT_EQ(gasnet_mynode(), me());
        EXPECT_EQ(gasnet_nodes(), nodes());
        gasnet_hsl_lock(&l);  // the one blocking call allowed inside
        gasnet_hsl_unlock(&l);
        EXPECT_EQ(gasnet_hsl_trylock(&l), GASNET_OK);
        gasnet_hsl_unlock(&l);
        gasnet_resume_interrupts();
    }
    // Holding an HSL is a No-Interrupt Section: hold/resume are ignored.
    gasnet_hsl_lock(&l);
    gasnet_hold_interrupts();
    gasnet_resume_interrupts();
    gasnet_hsl_unlock(&l);
    gasnet_hsl_destroy(&l);
    // After the sections, messages flow (and handlers that hold/resume, ignored there).
    g_nis_replies.store(0);
    barrier();
    for (gasnet_node_t n = 0; n < nodes(); ++n) EXPECT_EQ(gasnet_AMRequestShort0(n, h_nis_in_handler), GASNET_OK);
    EXPECT_TRUE(wait_until([] { return g_nis_replies.load() >= int(nodes()); }))
        << "node " << me() << ": " << g_nis_replies.load() << " replies";
}

}  // namespace
