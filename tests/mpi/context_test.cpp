// tests/mpi/context_test.cpp -- §9.5 communication contexts and §9.12 on
// contexts, under oshrun with 2, 3 and 4 PEs at SHMEM_THREAD_MULTIPLE.
//
// Black-box: creation, options, get_team, every routine family on a context,
// pool exhaustion.  White-box (through shmem/context.hpp): a context's quiet
// completes its own operations and leaves another context's outstanding; a
// context past the window pool shares the default windows; private
// contexts get windows of their own set for one thread; destroying a team
// frees its contexts' entries.
#include <shmem.h>

#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <set>
#include <thread>
#include <vector>

#include "shmem/context.hpp"

namespace {

int me() { return shmem_my_pe(); }
int npes() { return shmem_n_pes(); }
int next() { return (me() + 1) % npes(); }
int prev() { return (me() + npes() - 1) % npes(); }

gasket::rt::Context& rt_of(shmem_ctx_t ctx) { return gasket::shmem::context_of("test", ctx); }
gasket::rt::Job& job() { return *gasket::rt::g_job; }
int pool_size() {
    shmem_team_config_t conf{};
    shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &conf);
    return conf.num_contexts;
}

TEST(Contexts, CreateOptionsAndTeam) {
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    ASSERT_EQ(shmem_ctx_create(0, &ctx), 0);
    ASSERT_NE(ctx, SHMEM_CTX_INVALID);
    ASSERT_NE(ctx, SHMEM_CTX_DEFAULT);
    shmem_team_t team = SHMEM_TEAM_INVALID;
    EXPECT_EQ(shmem_ctx_get_team(ctx, &team), 0);
    EXPECT_EQ(team, SHMEM_TEAM_WORLD);
    team = SHMEM_TEAM_INVALID;
    EXPECT_EQ(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &team), 0);
    EXPECT_EQ(team, SHMEM_TEAM_WORLD);
    EXPECT_NE(shmem_ctx_get_team(SHMEM_CTX_INVALID, &team), 0);
    EXPECT_EQ(team, SHMEM_TEAM_INVALID);
    shmem_ctx_destroy(ctx);

    for (long options : {SHMEM_CTX_SERIALIZED, SHMEM_CTX_PRIVATE, SHMEM_CTX_NOSTORE,
                         SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE}) {
        ASSERT_EQ(shmem_ctx_create(options, &ctx), 0) << options;
        EXPECT_EQ(rt_of(ctx).nostore(), (options & SHMEM_CTX_NOSTORE) != 0);
        shmem_ctx_destroy(ctx);
    }
    ctx = SHMEM_CTX_DEFAULT;
    EXPECT_NE(shmem_ctx_create(1L << 10, &ctx), 0);  // not an option
    EXPECT_EQ(ctx, SHMEM_CTX_INVALID);
    ctx = SHMEM_CTX_DEFAULT;
    EXPECT_NE(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &ctx), 0);
    EXPECT_EQ(ctx, SHMEM_CTX_INVALID);
    // The ordering routines and destroy do nothing for SHMEM_CTX_INVALID.
    shmem_ctx_quiet(SHMEM_CTX_INVALID);
    shmem_ctx_fence(SHMEM_CTX_INVALID);
    shmem_ctx_pe_quiet(SHMEM_CTX_INVALID, nullptr, 3);
    shmem_ctx_destroy(SHMEM_CTX_INVALID);
}

// Every routine family through a context, each checked at its target.
void exercise(shmem_ctx_t ctx) {
    static long slot[16];
    static long got_back[4];
    static long counter, swapped;
    static int cell;
    static uint64_t sig;
    for (long& s : slot) s = -1;
    counter = swapped = 0;
    cell = 0;
    sig = 0;
    shmem_barrier_all();

    const long base = 100L * me();
    long src[4] = {base, base + 1, base + 2, base + 3};
    shmem_ctx_long_put(ctx, slot, src, 4, next());                    // slot[0..3]
    shmem_ctx_long_p(ctx, &slot[4], base + 4, next());                // slot[4]
    shmem_ctx_long_iput(ctx, &slot[5], src, 2, 1, 2, next());         // slot[5], slot[7]
    shmem_ctx_long_ibput(ctx, &slot[8], src, 3, 2, 1, 2, next());     // slot[8], slot[11]
    shmem_ctx_long_put_nbi(ctx, &slot[12], src, 2, next());           // slot[12..13]
    shmem_ctx_putmem(ctx, &slot[14], &src[3], sizeof(long), next());  // slot[14]
    shmem_ctx_put64(ctx, &slot[15], &src[2], 1, next());              // slot[15]
    shmem_ctx_long_atomic_add(ctx, &counter, 1, 0);
    shmem_ctx_long_atomic_fetch_add(ctx, &counter, 10, 0);
    long fetched = -1;
    shmem_ctx_long_atomic_fetch_inc_nbi(ctx, &fetched, &counter, 0);
    shmem_ctx_int_atomic_set(ctx, &cell, me() + 1, next());
    shmem_ctx_putmem_signal(ctx, &slot[6], &src[1], sizeof(long), &sig, 1, SHMEM_SIGNAL_ADD, next());
    shmem_ctx_signal_add(ctx, &sig, 10, next());
    shmem_ctx_fence(ctx);
    const int targets[1] = {next()};
    shmem_ctx_pe_quiet(ctx, targets, 1);
    shmem_ctx_quiet(ctx);
    EXPECT_GE(fetched, 0);
    shmem_barrier_all();

    const long from = 100L * prev();
    for (int i = 0; i < 4; ++i) EXPECT_EQ(slot[i], from + i) << i;
    EXPECT_EQ(slot[4], from + 4);
    EXPECT_EQ(slot[5], from);
    EXPECT_EQ(slot[7], from + 1);
    EXPECT_EQ(slot[8], from);
    EXPECT_EQ(slot[11], from + 2);
    EXPECT_EQ(slot[12], from);
    EXPECT_EQ(slot[13], from + 1);
    EXPECT_EQ(slot[14], from + 3);
    EXPECT_EQ(slot[15], from + 2);
    EXPECT_EQ(slot[6], from + 1);
    EXPECT_EQ(sig, 11u);
    EXPECT_EQ(cell, prev() + 1);
    if (me() == 0) EXPECT_EQ(counter, 12L * npes());
    // Gets, g, fetches and swaps through the context.
    EXPECT_EQ(shmem_ctx_long_g(ctx, &slot[4], next()), base + 4);
    long back[4] = {};
    shmem_ctx_long_get(ctx, back, slot, 4, next());
    for (int i = 0; i < 4; ++i) EXPECT_EQ(back[i], base + i);
    shmem_ctx_long_iget(ctx, got_back, slot, 1, 2, 2, next());
    EXPECT_EQ(got_back[0], base);
    EXPECT_EQ(got_back[1], base + 2);
    long nbi[2] = {};
    shmem_ctx_long_get_nbi(ctx, nbi, &slot[12], 2, next());
    shmem_ctx_quiet(ctx);
    EXPECT_EQ(nbi[0], base);
    EXPECT_EQ(nbi[1], base + 1);
    EXPECT_EQ(shmem_ctx_long_atomic_fetch(ctx, &counter, 0), 12L * npes());
    shmem_barrier_all();
    // One PE wins the compare-and-swap; it alone then reads its value back.
    const bool won = shmem_ctx_long_atomic_compare_swap(ctx, &swapped, 0, me() + 1, 0) == 0;
    const bool mine = shmem_ctx_long_atomic_fetch(ctx, &swapped, 0) == me() + 1;
    EXPECT_EQ(won, mine);
    // The symmetric heap as well as the global data.
    auto* heap = static_cast<long*>(shmem_malloc(4 * sizeof(long)));
    ASSERT_NE(heap, nullptr);
    shmem_ctx_long_put(ctx, heap, src, 4, next());
    shmem_ctx_long_atomic_add(ctx, &heap[3], 1000, next());
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (int i = 0; i < 3; ++i) EXPECT_EQ(heap[i], from + i);
    EXPECT_EQ(heap[3], from + 3 + 1000);
    shmem_free(heap);
}

TEST(Contexts, EveryFamilyOnAContext) {
    shmem_ctx_t ctx;
    ASSERT_EQ(shmem_ctx_create(0, &ctx), 0);
    exercise(ctx);
    shmem_ctx_destroy(ctx);
    exercise(SHMEM_CTX_DEFAULT);
    ASSERT_EQ(shmem_ctx_create(SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE, &ctx), 0);
    exercise(ctx);
    shmem_ctx_destroy(ctx);
}

// shmem_ctx_quiet(B) leaves A's operations outstanding; quiet(A) completes
// them.  Through MPI (PE not mapped) this is the windows' pending state;
// on the node fast path it is the direct-store flag.
TEST(Contexts, QuietIsolation) {
    if (pool_size() < 2) GTEST_SKIP() << "needs two window pairs";
    static char buffer[4096];
    shmem_quiet();
    shmem_barrier_all();
    // Private: a shareable context under SHMEM_THREAD_MULTIPLE fences on
    // every quiet (its flag cannot say which thread stored), so only a
    // private one shows the direct-store isolation.
    shmem_ctx_t a, b;
    ASSERT_EQ(shmem_ctx_create(SHMEM_CTX_PRIVATE, &a), 0);
    ASSERT_EQ(shmem_ctx_create(SHMEM_CTX_PRIVATE, &b), 0);
    gasket::rt::Context& ra = rt_of(a);
    gasket::rt::Context& rb = rt_of(b);
    ASSERT_TRUE(ra.own_windows());
    ASSERT_TRUE(rb.own_windows());
    EXPECT_NE(ra.heap_window(), rb.heap_window());
    EXPECT_NE(ra.heap_window(), job().heap.window);
    EXPECT_NE(ra.data_window(), rb.data_window());
    EXPECT_NE(ra.data_window(), job().data.window);

    char src[sizeof buffer];
    std::memset(src, me(), sizeof src);
    const bool mapped = shmem_ptr(buffer, next()) != nullptr;
    shmem_ctx_putmem_nbi(a, buffer, src, sizeof src, next());
    if (mapped) {
        EXPECT_FALSE(rb.take_direct_stores());
        EXPECT_TRUE(ra.take_direct_stores());
    } else {
        EXPECT_FALSE(ra.data_window()->idle());
        EXPECT_TRUE(rb.data_window()->idle());
        shmem_ctx_quiet(b);
        shmem_quiet();
        EXPECT_FALSE(ra.data_window()->idle()) << "quiet on another context completed A's put";
        shmem_ctx_quiet(a);
        EXPECT_TRUE(ra.data_window()->idle());
    }
    // AMOs in flight count in their own context only.
    static long counter;
    shmem_ctx_long_atomic_add(a, &counter, 1, next());
    EXPECT_EQ(rb.pending_am_ops.load(), 0);
    EXPECT_EQ(rt_of(SHMEM_CTX_DEFAULT).pending_am_ops.load(), 0);
    EXPECT_LE(ra.pending_am_ops.load(), 1);
    shmem_ctx_quiet(a);
    EXPECT_EQ(ra.pending_am_ops.load(), 0);
    shmem_ctx_destroy(a);
    shmem_ctx_destroy(b);
    shmem_barrier_all();
}

// SHMEM_CTX_DEFAULT is an ordinary runtime context: the world team, the
// job's own windows, and its own count of AMOs in flight, which its quiet
// completes.
TEST(Contexts, DefaultIsAnOrdinaryContext) {
    gasket::rt::Context& d = rt_of(SHMEM_CTX_DEFAULT);
    EXPECT_EQ(&d, &gasket::rt::default_context("test"));
    EXPECT_FALSE(d.own_windows());
    EXPECT_EQ(&d.team(), job().world_team.get());
    EXPECT_EQ(d.heap_window(), job().heap.window);
    EXPECT_EQ(d.data_window(), job().data.window);
    static long counter;
    counter = 0;
    shmem_barrier_all();
    shmem_long_atomic_add(&counter, 1, next());
    EXPECT_LE(d.pending_am_ops.load(), 1);
    shmem_quiet();
    EXPECT_EQ(d.pending_am_ops.load(), 0);
    shmem_barrier_all();
    EXPECT_EQ(counter, 1);
    shmem_barrier_all();
}

// Past the pool, contexts share the default windows and stay correct.
TEST(Contexts, PoolExhaustion) {
    const int pool = pool_size();
    const int free_before = job().contexts->free_count();
    EXPECT_EQ(free_before, pool);
    std::vector<shmem_ctx_t> ctxs(static_cast<std::size_t>(pool + 3));
    for (auto& c : ctxs) ASSERT_EQ(shmem_ctx_create(0, &c), 0);
    std::set<const void*> windows;
    for (int i = 0; i < static_cast<int>(ctxs.size()); ++i) {
        gasket::rt::Context& r = rt_of(ctxs[i]);
        EXPECT_EQ(r.own_windows(), i < pool) << i;
        if (npes() > 1 && i < pool) windows.insert(r.heap_window());
        if (i >= pool) {
            EXPECT_EQ(r.heap_window(), job().heap.window);
            EXPECT_EQ(r.data_window(), job().data.window);
        }
    }
    EXPECT_EQ(static_cast<int>(windows.size()), pool);
    EXPECT_EQ(job().contexts->free_count(), 0);
    for (auto c : ctxs) exercise(c);
    for (auto c : ctxs) shmem_ctx_destroy(c);
    EXPECT_EQ(job().contexts->free_count(), pool);
}

// Private contexts used by two threads at once: each has windows of its own
// set for one thread (bounce ring, no atomics on its bookkeeping), a
// shareable context's are set for threads.
TEST(Contexts, PrivateContextsInThreads) {
    int provided = -1;
    shmem_query_thread(&provided);
    ASSERT_EQ(provided, SHMEM_THREAD_MULTIPLE);
    if (pool_size() < 3) GTEST_SKIP() << "needs three window pairs";
    shmem_ctx_t shared;
    ASSERT_EQ(shmem_ctx_create(0, &shared), 0);
    if (npes() > 1) EXPECT_TRUE(rt_of(shared).heap_window()->concurrent());

    constexpr int kThreads = 2, kOps = 2000;
    static long slots[kThreads][kOps];
    static long counter;
    counter = 0;
    for (auto& row : slots)
        for (long& s : row) s = -1;
    shmem_barrier_all();
    std::atomic<const void*> windows[kThreads] = {};
    std::atomic<bool> single_thread_windows[kThreads] = {};
    std::barrier both_alive(kThreads);  // the two contexts coexist while they work
    auto work = [&](int t) {
        shmem_ctx_t ctx;
        const bool created = shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0;
        both_alive.arrive_and_wait();
        if (!created) return both_alive.arrive_and_drop();
        gasket::rt::Context& r = rt_of(ctx);
        windows[t] = r.heap_window();
        single_thread_windows[t] = r.heap_window() == nullptr || !r.heap_window()->concurrent();
        for (int i = 0; i < kOps; ++i) {
            const long v = 1000000L * me() + 1000L * t + i;
            shmem_ctx_long_p(ctx, &slots[t][i], v, next());
            shmem_ctx_long_atomic_add(ctx, &counter, 1, 0);
        }
        shmem_ctx_quiet(ctx);
        both_alive.arrive_and_wait();
        shmem_ctx_destroy(ctx);
    };
    std::thread t0(work, 0), t1(work, 1);
    t0.join();
    t1.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_TRUE(single_thread_windows[t].load()) << t;
    if (npes() > 1) EXPECT_NE(windows[0].load(), windows[1].load());
    shmem_barrier_all();
    for (int t = 0; t < kThreads; ++t)
        for (int i = 0; i < kOps; ++i) ASSERT_EQ(slots[t][i], 1000000L * prev() + 1000L * t + i) << t << "," << i;
    if (me() == 0) EXPECT_EQ(counter, static_cast<long>(kThreads) * kOps * npes());
    shmem_ctx_destroy(shared);
    shmem_barrier_all();
}

// §9.4.8: destroying a team quiets and frees its shareable contexts.
TEST(Contexts, TeamDestroyTakesShareableContexts) {
    const int pool = pool_size();
    shmem_team_t t;
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes(), nullptr, 0, &t), 0);
    static long cell;
    cell = 0;
    shmem_barrier_all();
    shmem_ctx_t a, b;
    ASSERT_EQ(shmem_team_create_ctx(t, 0, &a), 0);
    ASSERT_EQ(shmem_team_create_ctx(t, SHMEM_CTX_SERIALIZED, &b), 0);
    shmem_ctx_long_atomic_inc(a, &cell, 0);
    shmem_ctx_long_atomic_inc(b, &cell, 0);
    shmem_team_destroy(t);
    EXPECT_EQ(gasket::shmem::entry_of(a)->ctx, nullptr);
    EXPECT_EQ(gasket::shmem::entry_of(b)->ctx, nullptr);
    EXPECT_EQ(job().contexts->free_count(), pool);
    shmem_barrier_all();
    if (me() == 0) EXPECT_EQ(cell, 2L * npes());
}

// The table holds 1024 live contexts; creation past it fails cleanly, and
// entries are reused after destruction.
TEST(Contexts, TableLimit) {
    std::vector<shmem_ctx_t> ctxs;
    shmem_ctx_t c;
    while (ctxs.size() < 2000 && shmem_ctx_create(0, &c) == 0) ctxs.push_back(c);
    EXPECT_EQ(ctxs.size(), gasket::shmem::kMaxContexts);
    EXPECT_EQ(c, SHMEM_CTX_INVALID);
    shmem_ctx_destroy(ctxs.back());
    ctxs.pop_back();
    ASSERT_EQ(shmem_ctx_create(0, &c), 0);
    ctxs.push_back(c);
    for (auto x : ctxs) shmem_ctx_destroy(x);
}

}  // namespace
