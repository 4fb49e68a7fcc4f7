// tests/gasp/threads_test.cpp -- GASP events from several threads
// (SHMEM_THREAD_MULTIPLE, tests/mpi/shmem_test_main.cpp's
// GASKET_TEST_THREAD_MULTIPLE start): kThreads threads each make kOps
// rounds of a put, a non-fetching and a fetching AMO to the next PE, then a
// quiet.  The recorder (recorder.h, thread-safe) numbers the delivering
// threads: each worker's own sequence must be exactly its program order
// (every START followed by its END, nothing interleaved on that thread),
// the totals what the program did, and the data right.
#include <gasp.h>
#include <gasp_shmem.h>
#include <shmem.h>

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <thread>
#include <vector>

#include "expect.hpp"
#include "recorder.h"

namespace gasket_test {
extern int init_thread_rc, init_thread_provided;
}

using namespace gasp_test;

namespace {
constexpr int kThreads = 4, kOps = 50;
}

TEST(GaspThreads, EveryThreadsSequenceCompleteAndNested) {
    ASSERT_EQ(gasket_test::init_thread_rc, 0);
    ASSERT_EQ(gasket_test::init_thread_provided, SHMEM_THREAD_MULTIPLE);
    static long slots[kThreads * kOps];
    static long counter = 0;
    const int me = shmem_my_pe(), n = shmem_n_pes(), peer = (me + 1) % n, from = (me + n - 1) % n;
    start_clean();
    std::vector<std::thread> workers;
    std::vector<long> fetched(kThreads * kOps, -1);
    for (int t = 0; t < kThreads; ++t)
        workers.emplace_back([&, t] {
            for (int j = 0; j < kOps; ++j) {
                shmem_long_p(&slots[t * kOps + j], 1000 * me + t * kOps + j, peer);
                shmem_long_atomic_add(&counter, 1, peer);
                fetched[t * kOps + j] = shmem_long_atomic_fetch_add(&counter, 1, peer);
            }
            shmem_quiet();
        });
    for (auto& w : workers) w.join();
    shmem_barrier_all();

    // Group the workers' events by delivering thread (the main thread's are
    // its barriers).
    std::map<int, std::vector<gasp_recorded_event>> by_thread;
    size_t main_events = 0;
    for (size_t i = 0; i < gasp_recorder_count(); ++i) {
        const gasp_recorded_event e = gasp_recorder_event(i);
        if (e.main_thread)
            ++main_events;
        else
            by_thread[e.thread].push_back(e);
    }
    EXPECT_EQ(main_events, 2u);  // the barrier after the joins: START, END
    ASSERT_EQ(by_thread.size(), size_t(kThreads));
    const uint64_t k = P(&counter);
    for (const auto& [thread, events] : by_thread) {
        SCOPED_TRACE("thread " + std::to_string(thread));
        ASSERT_EQ(events.size(), size_t(kOps * 5 + 2));
        // Which worker: its first put's destination slot.
        ASSERT_EQ(events[0].tag, GASP_SHMEM_PUT);
        const long first = long((events[0].args[2] - P(slots)) / sizeof(long));
        ASSERT_EQ(first % kOps, 0);
        for (int j = 0; j < kOps; ++j) {
            const gasp_recorded_event* e = &events[size_t(j) * 5];
            const uint64_t dest = P(&slots[first + j]);
            for (int s = 0; s < 2; ++s) {
                EXPECT_EQ(e[s].tag, GASP_SHMEM_PUT) << j;
                EXPECT_EQ(e[s].type, s == 0 ? GASP_START : GASP_END) << j;
                EXPECT_EQ(e[s].args[1], I(peer)) << j;
                EXPECT_EQ(e[s].args[2], dest) << j;
                EXPECT_EQ(e[s].args[4], sizeof(long)) << j;
            }
            EXPECT_EQ(e[2].tag, GASP_SHMEM_AMO) << j;
            EXPECT_EQ(e[2].type, GASP_ATOMIC) << j;
            EXPECT_EQ(e[2].args[1], uint64_t(GASP_SHMEM_AMO_ADD)) << j;
            EXPECT_EQ(e[2].args[3], k) << j;
            EXPECT_EQ(e[2].args[5], 0u) << j;  // not fetching
            for (int s = 3; s < 5; ++s) {
                EXPECT_EQ(e[s].tag, GASP_SHMEM_AMO) << j;
                EXPECT_EQ(e[s].type, s == 3 ? GASP_START : GASP_END) << j;
                EXPECT_EQ(e[s].args[3], k) << j;
                EXPECT_EQ(e[s].args[5], 1u) << j;  // fetching
            }
        }
        EXPECT_EQ(events[kOps * 5].tag, GASP_SHMEM_QUIET);
        EXPECT_EQ(events[kOps * 5].type, GASP_START);
        EXPECT_EQ(events[kOps * 5 + 1].tag, GASP_SHMEM_QUIET);
        EXPECT_EQ(events[kOps * 5 + 1].type, GASP_END);
        for (const auto& e : events) {
            EXPECT_EQ(e.bad_context, 0);
            EXPECT_EQ(e.bad_position, 0);
        }
    }
    // The data: every slot from the PE before, the counter bumped twice per
    // round by every thread of the PE before.
    for (int i = 0; i < kThreads * kOps; ++i) EXPECT_EQ(slots[i], 1000 * from + i) << i;
    EXPECT_EQ(counter, 2L * kThreads * kOps);
    std::set<long> distinct(fetched.begin(), fetched.end());  // each fetch_add saw its own value
    EXPECT_EQ(distinct.size(), fetched.size());
    EXPECT_GE(*distinct.begin(), 0);
    EXPECT_LT(*distinct.rbegin(), 2L * kThreads * kOps * n);
    EXPECT_EQ(gasp_recorder_unknown(), 0);
    EXPECT_EQ(gasp_recorder_max_depth(), 1);
    shmem_barrier_all();
}
