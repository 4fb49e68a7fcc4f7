// tests/unit/fence_test.cpp -- rt::full_fence (src/runtime/fence.hpp), the
// fence behind blocking puts and gets to node peers and quiet: the
// store-buffering litmus test.  Two threads each store 1 to their own word,
// fence, and load the other's; with a full fence between the store and the
// load at least one of them must see the other's 1.  Without one, x86's
// store buffer lets both loads pass both stores and both see 0 -- the same
// rounds run with only a compiler barrier, to show this machine can tell a
// fence from none (the test skips, saying so, where it cannot).
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>

#include "src/runtime/fence.hpp"

namespace {

constexpr long kRounds = 200000;

struct alignas(64) Word {
    std::atomic<int> v{0};
};

// Runs kRounds rounds of the litmus test with `Between` between each
// thread's store and its load; returns the rounds in which both loads saw
// 0 (forbidden with a full fence).
template <class Between>
long both_saw_zero(Between between) {
    auto x = std::make_unique<Word[]>(kRounds), y = std::make_unique<Word[]>(kRounds);
    auto rx = std::make_unique<int[]>(kRounds), ry = std::make_unique<int[]>(kRounds);
    std::atomic<long> arrived{0};
    auto side = [&](Word* mine, Word* other, int* seen) {
        for (long r = 0; r < kRounds; ++r) {
            // Both threads start round r together (within a few hundred
            // cycles), so their stores and loads overlap.
            arrived.fetch_add(1, std::memory_order_acq_rel);
            while (arrived.load(std::memory_order_acquire) < 2 * (r + 1)) {}
            mine[r].v.store(1, std::memory_order_relaxed);
            between();
            seen[r] = other[r].v.load(std::memory_order_relaxed);
        }
    };
    std::thread a(side, x.get(), y.get(), rx.get());
    side(y.get(), x.get(), ry.get());
    a.join();
    long both = 0;
    for (long r = 0; r < kRounds; ++r) both += rx[r] == 0 && ry[r] == 0;
    return both;
}

TEST(FullFence, StoreThenLoadIsNeverReordered) {
    if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one CPU: the two threads never run at once";
    const long unfenced = both_saw_zero([] { asm volatile("" ::: "memory"); });
    if (unfenced == 0)
        GTEST_SKIP() << "in " << kRounds
                     << " rounds without a fence this machine never let a load pass a store, so the test cannot tell a "
                        "fence from none";
    const long fenced = both_saw_zero([] { gasket::rt::full_fence(); });
    EXPECT_EQ(fenced, 0) << "rt::full_fence let a load pass a store in " << fenced << " of " << kRounds << " rounds ("
                         << unfenced << " without a fence)";
}

}  // namespace
