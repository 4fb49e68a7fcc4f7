// tests/mpi/gasnet/extended_threads_test.cpp -- thread information and threads
// (gasnet-1.8-spec.md §3.6.1; §3.3.5: nbi operations are synchronized per
// thread): GASNET_BEGIN_FUNCTION / GET / POST_THREADINFO, nbi operations
// and explicit handles from several threads (GASNET_PAR).
// Segment layout, guards and helpers: extended_test.hpp.
#include "extended_test.hpp"

#include <thread>
#include <vector>

namespace {

using namespace extended_test;

// ============================================================================
// §3.6.1 thread information, threads (GASNET_PAR)
// ============================================================================
using ExtendedThreads = GasnetTest;

// A function with GASNET_BEGIN_FUNCTION making several calls.
std::uint64_t round_trip_with_begin_function(gasnet_node_t d, unsigned char* dst, std::uint64_t v) {
    GASNET_BEGIN_FUNCTION();
    gasnet_put_val(d, dst, v, 8);
    const std::uint64_t back = gasnet_get_val(d, dst, 8);
    std::uint64_t again = 0;
    gasnet_get(&again, d, dst, 8);
    return back == again ? back : ~back;
}
// A function given the thread information by its caller.
std::uint64_t round_trip_with_posted_info(gasnet_threadinfo_t info, gasnet_node_t d, unsigned char* dst,
                                          std::uint64_t v) {
    GASNET_POST_THREADINFO(info);
    gasnet_handle_t h = gasnet_put_nb(d, dst, &v, 8);
    gasnet_wait_syncnb(h);
    std::uint64_t back = 0;
    gasnet_get_nbi(&back, d, dst, 8);
    gasnet_wait_syncnbi_gets();
    return back;
}

TEST_F(ExtendedThreads, ThreadInfoMacros) {
    if (!enough_segment()) GTEST_SKIP() << "needs <= 8 nodes and 16 MiB segments";
    const gasnet_node_t n = nodes(), self = me();
    const gasnet_threadinfo_t info = GASNET_GET_THREADINFO();
    for (gasnet_node_t r = 0; r < n; ++r) {
        const gasnet_node_t d = (self + r) % n;
        unsigned char* dst = slot(d, self) + 8 * 1000;  // 8-aligned, this writer's own slot
        const std::uint64_t v1 = 0xA1B2C3D4E5F60718ull ^ (std::uint64_t(self) << 32) ^ d;
        EXPECT_EQ(round_trip_with_begin_function(d, dst, v1), v1) << "GASNET_BEGIN_FUNCTION, node " << d;
        const std::uint64_t v2 = ~v1;
        EXPECT_EQ(round_trip_with_posted_info(info, d, dst + 8, v2), v2) << "GASNET_POST_THREADINFO, node " << d;
    }
}

// §3.3.5: nbi operations are synchronized per thread; include/gasnet.h:
// explicit handles may be synchronized from any thread.
TEST_F(ExtendedThreads, NbiPerThreadAndHandlesAcrossThreads) {
#if !defined(GASNET_PAR)
    GTEST_SKIP() << "threads calling GASNet at once need GASNET_PAR";
#endif
    if (!enough_segment()) GTEST_SKIP() << "needs <= 8 nodes and 16 MiB segments";
    const gasnet_node_t n = nodes(), self = me(), next = (self + 1) % n;
    fill_get_area();
    barrier();
    constexpr int kThreads = 3;
    constexpr std::size_t kPerThread = 2000;
    std::vector<std::string> errors(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            std::vector<std::uint64_t> got(kPerThread, 0);
            const std::size_t base = std::size_t(t) * kPerThread;
            for (std::size_t i = 0; i < kPerThread; ++i) {
                std::uint64_t v = many_value(self, base + i, 3);
                gasnet_put_nbi(next, slot(next, self) + 8 * (base + i), &v, 8);
                gasnet_get_nbi(&got[i], next, seg_addr(next) + kGetBase + 8 * (base + i), 8);
            }
            if (t == 0) {
                gasnet_wait_syncnbi_all();
            } else if (try_until_done(gasnet_try_syncnbi_all) != GASNET_OK) {
                errors[t] = "gasnet_try_syncnbi_all never returned GASNET_OK";
                gasnet_wait_syncnbi_all();
            }
            std::string why;
            if (!matches_pattern(got.data(), 8 * kPerThread, get_pstart(next) + 8 * base, &why))
                errors[t] += " get_nbi data: " + why;
        });
    for (auto& th : threads) th.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_TRUE(errors[t].empty()) << "thread " << t << ": " << errors[t];

    // A thread with no nbi operation of its own has nothing outstanding,
    // even while this thread has (a 1 MiB get from the next node).
    Buf big(kMiB, 0);
    big.guard_fill(kMiB);
    gasnet_get_nbi_bulk(big.p, next, seg_addr(next) + kGetBase, kMiB);
    int other_rc = -1;
    std::thread([&] { other_rc = gasnet_try_syncnbi_all(); }).join();
    EXPECT_EQ(other_rc, GASNET_OK) << "gasnet_try_syncnbi_all on a thread without nbi operations";
    gasnet_wait_syncnbi_gets();
    expect_region("get_nbi_bulk of 1 MiB", big.p, kMiB, kGuard, false, get_pstart(next), 0);

    // An explicit handle made here, synchronized by another thread.
    Buf small(4096, 1);
    small.guard_fill(4096);
    const gasnet_handle_t h = gasnet_get_nb_bulk(small.p, next, seg_addr(next) + kGetBase + 9, 4096);
    std::thread([h] { gasnet_wait_syncnb(h); }).join();
    expect_region("get_nb_bulk synchronized by another thread", small.p, 4096, kGuard, false, get_pstart(next) + 9, 0);

    barrier();
    const gasnet_node_t prev = (self + n - 1) % n;
    std::size_t bad = 0;
    for (std::size_t i = 0; i < kThreads * kPerThread; ++i) {
        std::uint64_t v;
        std::memcpy(&v, my_slot(prev) + 8 * i, 8);
        bad += v != many_value(prev, i, 3);
    }
    EXPECT_EQ(bad, 0u) << "put_nbi from " << kThreads << " threads of node " << prev;
}

}  // namespace
