// tests/mpi/gex/gex_ad_par_test.cpp -- the try forms beside remote atomics
// that another thread of the process issues (GASNET_PAR): a test never waits
// for an atomic's reply, not even for one issued between its look at the
// atomics in flight and its completion of the event (gasnet-ex-api.txt,
// "_Test: no Poll call is made"; GASNet 1.8 §3.3.3: a try "always returns
// immediately").
//
// Rank 1 sleeps in rounds without entering GASNet and polls for a moment
// between them.  On rank 0 an issuer thread sends one fetch-add to rank 1
// early in each sleep and waits for it, while a tester thread makes
// access-region events (a put to itself) and tests them as fast as it can
// (gex_Event_Test, gex_Event_TestAll, gasnet_try_syncnb), each test until
// it says GASNET_OK.  Where the atomics travel as Active Messages and no
// process has a progress thread (gex_ad_par_progress_off.np2.mpi), a reply
// arrives only after rank 1 wakes, so a test that waited for it would last
// most of a sleep (kSleep); every test must return within kMaxTest, and
// the tester must have seen the atomics in flight (GASNET_ERR_NOT_READY).
// Each round is one chance for an atomic to leave while the tester is
// inside a test; elsewhere the same calls run and only the results are
// checked.
#ifndef GASNET_PAR
#error "this test is a GASNET_PAR program (CMakeLists.txt defines it)"
#endif

#include <gasnet_ratomic.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "gex_test.hpp"

using gex_test::barrier;
using gex_test::g_job;

namespace {

using Clock = std::chrono::steady_clock;

// [kRegion, +64) of every segment: rank 1's counter at 0, rank 0's put
// target at 8.
constexpr std::size_t kRegion = (std::size_t(3) << 20) + (std::size_t(1) << 19);
// Against the library before the fix, 4 of 6 runs of 6 rounds failed
// (about one round in six catches it): 14 rounds, about 3 s.
constexpr int kRounds = 14;
constexpr auto kSleep = std::chrono::milliseconds(200);   // rank 1, without GASNet calls
constexpr auto kAwake = std::chrono::milliseconds(20);    // rank 1, polling
constexpr auto kIssueAt = std::chrono::milliseconds(20);  // rank 0's atomic, into rank 1's sleep
constexpr auto kMaxTest = std::chrono::milliseconds(90);  // a test must return within

char* remote(gex_Rank_t r, std::size_t offset) {
    void* owner = nullptr;
    gex_Event_Wait(gex_EP_QueryBoundSegmentNB(g_job.tm, r, &owner, nullptr, nullptr, 0));
    return static_cast<char*>(owner) + kRegion + offset;
}

// An access region's event for one 8-byte put to this process's own
// segment: an event of "every operation", which also covers the atomics in
// flight.
gex_Event_t region_event(std::uint64_t value) {
    gex_NBI_BeginAccessRegion(0);
    gex_RMA_PutNBI(g_job.tm, g_job.me, g_job.base + kRegion + 8, &value, 8, GEX_EVENT_NOW, 0);
    return gex_NBI_EndAccessRegion(0);
}

struct Tester {
    Clock::duration longest{};
    long tests = 0, not_ready = 0, invalid = 0;

    // Runs `test` (one try; true when GASNET_OK) until it succeeds, timing
    // each try.
    template <class Test>
    void until_ok(Test test) {
        for (;;) {
            const Clock::time_point t0 = Clock::now();
            const bool ok = test();
            longest = std::max(longest, Clock::now() - t0);
            ++tests;
            if (ok) return;
            ++not_ready;
        }
    }

    void run(const std::atomic<bool>& stop) {
        for (std::uint64_t i = 0; !stop.load(std::memory_order_acquire); ++i) {
            gex_Event_t ev[2] = {region_event(i), GEX_EVENT_INVALID};
            if (ev[0] == GEX_EVENT_INVALID) ++invalid;
            switch (i % 3) {
                case 0: until_ok([&] { return gex_Event_Test(ev[0]) == GASNET_OK; }); break;
                case 1:
                    ev[1] = region_event(i);
                    until_ok([&] { return gex_Event_TestAll(ev, 2, 0) == GASNET_OK; });
                    break;
                default: until_ok([&] { return gasnet_try_syncnb(ev[0]) == GASNET_OK; }); break;
            }
        }
    }
};

TEST(GexAdThreads, TestsNeverWaitForAnotherThreadsAtomic) {
    if (g_job.n < 2) GTEST_SKIP() << "needs a second process";
    gex_AD_t ad = GEX_AD_INVALID;
    gex_AD_Create(&ad, g_job.tm, GEX_DT_U64, GEX_OP_FADD, 0);
    auto* counter = reinterpret_cast<std::uint64_t*>(remote(1, 0));
    const bool no_progress_thread = gex_System_QueryHiddenAMConcurrencyLevel() == 0;
    barrier();
    const Clock::time_point start = Clock::now();
    const auto round_start = [&](int r) { return start + r * (kSleep + kAwake); };
    if (g_job.me == 1) {
        for (int r = 0; r < kRounds; ++r) {
            std::this_thread::sleep_until(round_start(r) + kSleep);  // no GASNet call
            while (Clock::now() < round_start(r + 1)) gasnet_AMPoll();
        }
    } else if (g_job.me == 0) {
        std::uint64_t fetched[kRounds];
        std::fill(fetched, fetched + kRounds, ~std::uint64_t(0));
        bool by_am = false;  // some atomic returned an event: not done by load/store
        std::atomic<bool> stop{false};
        Tester tester;
        std::thread testing([&] { tester.run(stop); });
        for (int r = 0; r < kRounds; ++r) {
            std::this_thread::sleep_until(round_start(r) + kIssueAt);
            const gex_Event_t e = gex_AD_OpNB_U64(ad, &fetched[r], 1, counter, GEX_OP_FADD, 1, 0, 0);
            by_am |= e != GEX_EVENT_INVALID;
            gex_Event_Wait(e);
        }
        stop.store(true, std::memory_order_release);
        testing.join();
        EXPECT_EQ(tester.invalid, 0) << "an access region with a put returned GEX_EVENT_INVALID";
        if (by_am && no_progress_thread) {
            EXPECT_LT(tester.longest, kMaxTest)
                << "a test lasted " << std::chrono::duration_cast<std::chrono::milliseconds>(tester.longest).count()
                << " ms: it waited for the reply of another thread's atomic (" << tester.tests << " tests)";
            EXPECT_GT(tester.not_ready, 0) << "the tester never saw an atomic in flight (" << tester.tests << " tests)";
        }
        std::sort(fetched, fetched + kRounds);
        for (int r = 0; r < kRounds; ++r) EXPECT_EQ(fetched[r], std::uint64_t(r)) << "old value " << r;
    }
    barrier();
    if (g_job.me == 1) {
        std::uint64_t now = 0;
        std::memcpy(&now, g_job.base + kRegion, 8);
        EXPECT_EQ(now, std::uint64_t(kRounds)) << "rank 1's counter";
    }
    std::memset(g_job.base + kRegion, 0, 16);
    barrier();
    gex_AD_Destroy(ad);
}

}  // namespace
