// tests/gasp/events_test.cpp -- GASP events of OpenSHMEM programs, seen by
// the recorder tool (recorder.h) linked into this program: for each family
// implemented (docs/gasp.md), the exact sequence of events, their types and
// arguments on every PE; gasp_init once; shmem_pcontrol -> gasp_control;
// user events; a tool upcall from inside gasp_event_notify.
#include <gasp.h>
#include <gasp_shmem.h>
#include <shmem.h>
#include <shmemx.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <thread>
#include <vector>

#include "expect.hpp"
#include "recorder.h"

using namespace gasp_test;

TEST(GaspEvents, InitOnceWithShmemModel) {
    EXPECT_EQ(gasp_recorder_inits(), 1);
    EXPECT_EQ(gasp_recorder_model(), GASP_MODEL_SHMEM);
    EXPECT_EQ(gasp_recorder_unknown(), 0);
    EXPECT_EQ(GASP_VERSION, 20060914);
    // A nested shmem_init raises nothing and calls gasp_init no more.
    start_clean();
    shmem_init();
    expect_events({});
    EXPECT_EQ(gasp_recorder_inits(), 1);
    shmem_finalize();  // the inner one: S/E with is_last 0, around its barrier
    expect_events({{GASP_SHMEM_FINALIZE, GASP_START, {0}}, {GASP_SHMEM_FINALIZE, GASP_END, {0}}});
}

TEST(GaspEvents, BarriersAndSyncs) {
    start_clean();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    static long psync[SHMEM_BARRIER_SYNC_SIZE];
    for (long& p : psync) p = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    shmem_sync_all();
    EXPECT_EQ(shmem_team_sync(SHMEM_TEAM_WORLD), 0);
    shmem_barrier_all();  // psync is reused only after every PE is past
    shmem_barrier(0, 0, n, psync);
    const uint64_t world = P(SHMEM_TEAM_WORLD);
    expect_events({{GASP_SHMEM_BARRIER_ALL, GASP_START, {world}},
                   {GASP_SHMEM_BARRIER_ALL, GASP_END, {world}},
                   {GASP_SHMEM_SYNC, GASP_START, {world}},
                   {GASP_SHMEM_SYNC, GASP_END, {world}},
                   {GASP_SHMEM_SYNC, GASP_START, {world}},
                   {GASP_SHMEM_SYNC, GASP_END, {world}},
                   {GASP_SHMEM_BARRIER_ALL, GASP_START, {world}},
                   {GASP_SHMEM_BARRIER_ALL, GASP_END, {world}},
                   {GASP_SHMEM_BARRIER, GASP_START, {0, 0, I(n)}},
                   {GASP_SHMEM_BARRIER, GASP_END, {0, 0, I(n)}}});
    (void)me;
}

TEST(GaspEvents, PutGetBlockingNbiStrided) {
    static long dest[8], src_sym[8];
    long src[8];
    const int me = shmem_my_pe(), peer = (me + 1) % shmem_n_pes();
    for (int i = 0; i < 8; ++i) src[i] = src_sym[i] = 100 * me + i;
    start_clean();
    shmem_ctx_t ctx;
    ASSERT_EQ(shmem_ctx_create(0, &ctx), 0);
    gasp_recorder_clear();
    long got[8] = {};
    shmem_long_put(dest, src, 4, peer);
    shmem_long_get(got, src_sym, 4, peer);
    shmem_putmem_nbi(dest + 4, src + 4, 2 * sizeof(long), peer);
    shmem_ctx_getmem_nbi(ctx, got + 4, src_sym + 4, 3 * sizeof(long), peer);
    shmem_long_iput(dest, src, 2, 1, 3, peer);
    shmem_int_p(reinterpret_cast<int*>(dest + 7), 5, peer);
    const long g = shmem_long_g(src_sym, peer);
    shmem_ctx_quiet(ctx);
    shmem_quiet();
    const uint64_t c = P(ctx);
    expect_events({
        {GASP_SHMEM_PUT, GASP_START, {kDefault, I(peer), P(dest), P(src), 32, 1, 1, 32}},
        {GASP_SHMEM_PUT, GASP_END, {kDefault, I(peer), P(dest), P(src), 32, 1, 1, 32}},
        {GASP_SHMEM_GET, GASP_START, {kDefault, I(peer), P(got), P(src_sym), 32, 1, 1, 32}},
        {GASP_SHMEM_GET, GASP_END, {kDefault, I(peer), P(got), P(src_sym), 32, 1, 1, 32}},
        {GASP_SHMEM_PUT_NBI_INIT, GASP_START, {kDefault, I(peer), P(dest + 4), P(src + 4), 16, 1, 1, 16}},
        {GASP_SHMEM_PUT_NBI_INIT, GASP_END, {kDefault, I(peer), P(dest + 4), P(src + 4), 16, 1, 1, 16, kDefault}},
        {GASP_SHMEM_GET_NBI_INIT, GASP_START, {c, I(peer), P(got + 4), P(src_sym + 4), 24, 1, 1, 24}},
        {GASP_SHMEM_GET_NBI_INIT, GASP_END, {c, I(peer), P(got + 4), P(src_sym + 4), 24, 1, 1, 24, c}},
        {GASP_SHMEM_PUT, GASP_START, {kDefault, I(peer), P(dest), P(src), 24, 2, 1, 1}},
        {GASP_SHMEM_PUT, GASP_END, {kDefault, I(peer), P(dest), P(src), 24, 2, 1, 1}},
        {GASP_SHMEM_PUT, GASP_START, {kDefault, I(peer), P(dest + 7), kAny, 4, 1, 1, 4}},
        {GASP_SHMEM_PUT, GASP_END, {kDefault, I(peer), P(dest + 7), kAny, 4, 1, 1, 4}},
        {GASP_SHMEM_GET, GASP_START, {kDefault, I(peer), kAny, P(src_sym), 8, 1, 1, 8}},
        {GASP_SHMEM_GET, GASP_END, {kDefault, I(peer), kAny, P(src_sym), 8, 1, 1, 8}},
        {GASP_SHMEM_QUIET, GASP_START, {c}},
        {GASP_SHMEM_QUIET, GASP_END, {c}},
        {GASP_SHMEM_QUIET, GASP_START, {kDefault}},
        {GASP_SHMEM_QUIET, GASP_END, {kDefault}},
    });
    // The values moved are right too.
    for (int i = 0; i < 7; ++i) EXPECT_EQ(got[i], 100 * peer + i) << i;
    EXPECT_EQ(g, 100 * peer);
    shmem_ctx_destroy(ctx);
}

TEST(GaspEvents, Amo) {
    static long target = 0;
    static int itarget = 0;
    static unsigned long long utarget = 0;
    const int me = shmem_my_pe(), n = shmem_n_pes(), peer = (me + 1) % n;
    start_clean();
    shmem_ctx_t ctx;
    ASSERT_EQ(shmem_ctx_create(0, &ctx), 0);
    shmem_barrier_all();
    gasp_recorder_clear();
    const long old = shmem_long_atomic_fetch_add(&target, 2, peer);
    shmem_int_atomic_inc(&itarget, peer);
    long fetched = -1;
    shmem_ctx_long_atomic_fetch_nbi(ctx, &fetched, &target, peer);
    shmem_ctx_quiet(ctx);
    shmem_ulonglong_atomic_xor(&utarget, 1ULL, peer);
    const double d = 0;
    (void)d;
    const long swapped = shmem_long_atomic_compare_swap(&target, -5, 7, peer);
    shmem_quiet();
    const uint64_t c = P(ctx);
    const uint64_t t = P(&target);
    expect_events({
        {GASP_SHMEM_AMO, GASP_START, {kDefault, GASP_SHMEM_AMO_ADD, GASP_SHMEM_TYPE_INT64, t, I(peer), 1, 0}},
        {GASP_SHMEM_AMO, GASP_END, {kDefault, GASP_SHMEM_AMO_ADD, GASP_SHMEM_TYPE_INT64, t, I(peer), 1, 0}},
        {GASP_SHMEM_AMO,
         GASP_ATOMIC,
         {kDefault, GASP_SHMEM_AMO_ADD, GASP_SHMEM_TYPE_INT32, P(&itarget), I(peer), 0, 0}},
        {GASP_SHMEM_AMO, GASP_START, {c, GASP_SHMEM_AMO_FETCH, GASP_SHMEM_TYPE_INT64, t, I(peer), 1, 1}},
        {GASP_SHMEM_AMO, GASP_END, {c, GASP_SHMEM_AMO_FETCH, GASP_SHMEM_TYPE_INT64, t, I(peer), 1, 1}},
        {GASP_SHMEM_QUIET, GASP_START, {c}},
        {GASP_SHMEM_QUIET, GASP_END, {c}},
        {GASP_SHMEM_AMO,
         GASP_ATOMIC,
         {kDefault, GASP_SHMEM_AMO_XOR, GASP_SHMEM_TYPE_UINT64, P(&utarget), I(peer), 0, 0}},
        {GASP_SHMEM_AMO, GASP_START, {kDefault, GASP_SHMEM_AMO_COMPARE_SWAP, GASP_SHMEM_TYPE_INT64, t, I(peer), 1, 0}},
        {GASP_SHMEM_AMO, GASP_END, {kDefault, GASP_SHMEM_AMO_COMPARE_SWAP, GASP_SHMEM_TYPE_INT64, t, I(peer), 1, 0}},
        {GASP_SHMEM_QUIET, GASP_START, {kDefault}},
        {GASP_SHMEM_QUIET, GASP_END, {kDefault}},
    });
    shmem_barrier_all();
    EXPECT_EQ(old, 0);
    EXPECT_EQ(fetched, 2);
    EXPECT_EQ(swapped, 2);  // -5 did not match
    EXPECT_EQ(target, 2);
    EXPECT_EQ(itarget, 1);
    EXPECT_EQ(utarget, 1u);
    shmem_ctx_destroy(ctx);
}

TEST(GaspEvents, FenceQuietPeQuiet) {
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int pes[2] = {(me + 1) % n, me};
    start_clean();
    shmem_fence();
    shmem_quiet();
    shmem_pe_quiet(pes, 2);
    shmem_ctx_fence(SHMEM_CTX_INVALID);  // no operation: no event
    expect_events({{GASP_SHMEM_FENCE, GASP_START, {kDefault}},
                   {GASP_SHMEM_FENCE, GASP_END, {kDefault}},
                   {GASP_SHMEM_QUIET, GASP_START, {kDefault}},
                   {GASP_SHMEM_QUIET, GASP_END, {kDefault}},
                   {GASP_SHMEM_PE_QUIET, GASP_START, {kDefault, P(pes), 2}},
                   {GASP_SHMEM_PE_QUIET, GASP_END, {kDefault, P(pes), 2}}});
}

TEST(GaspEvents, MallocFree) {
    start_clean();
    void* a = shmem_malloc(100);
    void* b = shmem_align(256, 64);
    void* c = shmem_calloc(3, 16);
    void* d = shmem_malloc_with_hints(32, SHMEM_MALLOC_ATOMICS_REMOTE);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    ASSERT_NE(c, nullptr);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % 256, 0u);
    shmem_free(d);
    shmem_free(c);
    shmem_free(b);
    shmem_free(a);
    expect_events({
        {GASP_SHMEM_MALLOC, GASP_START, {100, 0, 0}},
        {GASP_SHMEM_MALLOC, GASP_END, {100, 0, 0, P(a)}},
        {GASP_SHMEM_MALLOC, GASP_START, {64, 256, 0}},
        {GASP_SHMEM_MALLOC, GASP_END, {64, 256, 0, P(b)}},
        {GASP_SHMEM_MALLOC, GASP_START, {48, 0, 0}},
        {GASP_SHMEM_MALLOC, GASP_END, {48, 0, 0, P(c)}},
        {GASP_SHMEM_MALLOC, GASP_START, {32, 0, I(SHMEM_MALLOC_ATOMICS_REMOTE)}},
        {GASP_SHMEM_MALLOC, GASP_END, {32, 0, I(SHMEM_MALLOC_ATOMICS_REMOTE), P(d)}},
        {GASP_SHMEM_FREE, GASP_START, {P(d)}},
        {GASP_SHMEM_FREE, GASP_END, {P(d)}},
        {GASP_SHMEM_FREE, GASP_START, {P(c)}},
        {GASP_SHMEM_FREE, GASP_END, {P(c)}},
        {GASP_SHMEM_FREE, GASP_START, {P(b)}},
        {GASP_SHMEM_FREE, GASP_END, {P(b)}},
        {GASP_SHMEM_FREE, GASP_START, {P(a)}},
        {GASP_SHMEM_FREE, GASP_END, {P(a)}},
    });
}

TEST(GaspEvents, PcontrolMapsToGaspControlPerThread) {
    start_clean();
    shmem_pcontrol(0);
    shmem_pcontrol(1);
    shmem_pcontrol(-3);
    shmem_pcontrol(2);
    shmem_pcontrol(3);  // reserved: no call
    // Args: on, and what gasp_control returned (the previous value on this thread).
    expect_events({{GASP_RECORDER_CONTROL, GASP_ATOMIC, {0, 1}},
                   {GASP_RECORDER_CONTROL, GASP_ATOMIC, {1, 0}},
                   {GASP_RECORDER_CONTROL, GASP_ATOMIC, {0, 1}},
                   {GASP_RECORDER_CONTROL, GASP_ATOMIC, {1, 0}}});
    // Another thread's control is its own (the tool sees it on that thread;
    // its first call returns the "never called" value, nonzero).
    gasp_recorder_clear();
    std::thread([] { shmem_pcontrol(0); }).join();
    ASSERT_EQ(gasp_recorder_count(), 1u);
    const gasp_recorded_event e = gasp_recorder_event(0);
    EXPECT_EQ(e.main_thread, 0);
    EXPECT_EQ(e.tag, GASP_RECORDER_CONTROL);
    EXPECT_EQ(e.args[0], 0u);
    EXPECT_EQ(e.args[1], 1u);
}

TEST(GaspEvents, UserEvents) {
    start_clean();
    const unsigned a = shmemx_create_event("phase", "%d");
    const unsigned b = shmemx_create_event("mark", nullptr);
    EXPECT_NE(a, b);
    EXPECT_GE(a, GASP_SHMEM_USEREVT_START);
    EXPECT_LE(b, GASP_SHMEM_USEREVT_END);
    shmemx_event_start(a, 7);
    shmemx_event_atomic(b);
    shmemx_event_end(a, -2);
    expect_events({{a, GASP_START, {7}}, {b, GASP_ATOMIC, {}}, {a, GASP_END, {I(-2)}}});
}

TEST(GaspEvents, ToolUpcallsRaiseNoNestedEvents) {
    static long counter = 0;
    const int me = shmem_my_pe();
    start_clean();
    // At each fence's START the tool calls shmem_long_atomic_inc and
    // shmem_quiet: they work (the counter moves) and raise no events.
    gasp_recorder_upcall(GASP_SHMEM_FENCE, &counter);
    shmem_fence();
    shmem_fence();
    shmem_fence();
    (void)shmemx_create_event("upcall", nullptr);  // the tool calls shmem_n_pes() from there
    gasp_recorder_upcall(0, nullptr);
    expect_events({{GASP_SHMEM_FENCE, GASP_START, {kDefault}},
                   {GASP_SHMEM_FENCE, GASP_END, {kDefault}},
                   {GASP_SHMEM_FENCE, GASP_START, {kDefault}},
                   {GASP_SHMEM_FENCE, GASP_END, {kDefault}},
                   {GASP_SHMEM_FENCE, GASP_START, {kDefault}},
                   {GASP_SHMEM_FENCE, GASP_END, {kDefault}}});
    EXPECT_EQ(counter, 3);
    EXPECT_EQ(gasp_recorder_max_depth(), 1);
    (void)me;
}
