// tests/mpi/gasnet/extended_region_test.cpp -- access regions (gasnet-1.8-spec.md
// §3.3.6): a region's handle synchronizes its operations and no others,
// joined puts, several regions synchronized together.
// Segment layout, guards and helpers: extended_test.hpp.
#include "extended_test.hpp"

#include <thread>
#include <vector>

namespace {

using namespace extended_test;

// ============================================================================
// Access regions (§3.3.6)
// ============================================================================
using ExtendedRegion = GasnetTest;

TEST_F(ExtendedRegion, RegionHandleSyncsItsOperationsOnly) {
    if (!enough_segment()) GTEST_SKIP() << "needs <= 8 nodes and 16 MiB segments";
    const gasnet_node_t n = nodes(), self = me(), next = (self + 1) % n, prev = (self + n - 1) % n;
    for (gasnet_node_t w = 0; w < n; ++w) std::memset(my_slot(w), kFill, kSlot);
    fill_get_area();
    barrier();
    // Offsets in next's slot `self`.
    constexpr std::size_t kA = 64, kB = 8192 + 1, kM = 200000 + 3, kV = 300000, kC = 400000;
    constexpr std::size_t kABytes = 4096, kBBytes = 64 * 1024, kMBytes = 1000, kCBytes = 4096;
    Buf a(kABytes, 0), b(kBBytes, 1), c(kCBytes, 0), g(kMiB, 3), e(256, 0), selfput(kABytes, 0);

    // A: an nbi put before the region (stays an implicit-handle operation).
    std::memcpy(a.p, pattern(11 + self), kABytes);
    gasnet_put_nbi(next, slot(next, self) + kA, a.p, kABytes);
    std::memset(a.p, kScribble, kABytes);

    gasnet_begin_nbi_accessregion();
    std::memcpy(b.p, pattern(1000 + self), kBBytes);
    gasnet_put_nbi_bulk(next, slot(next, self) + kB, b.p, kBBytes);
    g.guard_fill(kMiB);
    gasnet_get_nbi_bulk(g.p, next, seg_addr(next) + kGetBase + 5, kMiB);
    gasnet_memset_nbi(next, slot(next, self) + kM, 0x3C, kMBytes);
    gasnet_put_nbi_val(next, slot(next, self) + kV, 0x1122334455667788ull, 8);
    std::memcpy(selfput.p, pattern(5000 + self), kABytes);
    gasnet_put_nbi(self, slot(self, self) + kA, selfput.p, kABytes);  // loopback inside the region
    // An explicit-handle operation inside the region works as usual.
    e.guard_fill(256);
    const gasnet_handle_t he = gasnet_get_nb(e.p, prev, seg_addr(prev) + kGetBase + 256, 256);
    gasnet_wait_syncnb(he);
    expect_region("get_nb inside an access region", e.p, 256, kGuard, false, get_pstart(prev) + 256, 0);
    const gasnet_handle_t h = gasnet_end_nbi_accessregion();

    // C: an nbi put after the region; wait_syncnbi_all syncs A and C.
    std::memcpy(c.p, pattern(3000 + self), kCBytes);
    gasnet_put_nbi(next, slot(next, self) + kC, c.p, kCBytes);
    gasnet_wait_syncnbi_all();
    EXPECT_EQ(gasnet_try_syncnbi_all(), GASNET_OK);
    gasnet_wait_syncnb(h);
    expect_region("get_nbi_bulk in an access region", g.p, kMiB, kGuard, false, get_pstart(next) + 5, 0);
    std::string why;
    EXPECT_TRUE(matches_pattern(b.p, kBBytes, 1000 + self, &why)) << "put_nbi_bulk source changed: " << why;
    barrier();

    const std::string from = "from node " + std::to_string(prev) + ": ";
    expect_region(from + "put_nbi before the region", my_slot(prev) + kA, kABytes, kGuard, false, 11 + prev, 0);
    expect_region(from + "put_nbi_bulk in the region", my_slot(prev) + kB, kBBytes, kGuard, false, 1000 + prev, 0);
    expect_region(from + "memset_nbi in the region", my_slot(prev) + kM, kMBytes, kGuard, true, 0, 0x3C);
    std::uint64_t v = 0;
    std::memcpy(&v, my_slot(prev) + kV, 8);
    EXPECT_EQ(v, 0x1122334455667788ull) << from << "put_nbi_val in the region";
    expect_region(from + "put_nbi after the region", my_slot(prev) + kC, kCBytes, kGuard, false, 3000 + prev, 0);
    expect_region("put_nbi to this node in the region", my_slot(self) + kA, kABytes, kGuard, false, 5000 + self, 0);
}

// Small adjacent put_nbi inside a region join into runs like those outside
// it; ending the region hands the runs to MPI, so the region's handle
// completes them wherever it is synchronized: on another thread (PAR;
// PARSYNC allows it too), else after a put elsewhere from this thread.
TEST_F(ExtendedRegion, JoinedPutsCompleteThroughTheHandle) {
    if (!enough_segment()) GTEST_SKIP() << "needs <= 8 nodes and 16 MiB segments";
    const gasnet_node_t n = nodes(), self = me(), next = (self + 1) % n, prev = (self + n - 1) % n;
    for (gasnet_node_t w = 0; w < n; ++w) std::memset(my_slot(w), kFill, kSlot);
    barrier();
    constexpr std::size_t kBytes = 40000;  // 5000 adjacent 8-byte puts: runs across ring refills
    const unsigned char* want = pattern(600 + self);
    gasnet_begin_nbi_accessregion();
    for (std::size_t off = 0; off < kBytes; off += 8) {
        std::uint64_t v;
        std::memcpy(&v, want + off, 8);
        gasnet_put_nbi(next, slot(next, self) + off, &v, 8);
    }
    const gasnet_handle_t h = gasnet_end_nbi_accessregion();  // invalid when the puts were direct copies
#if defined(GASNET_PAR)
    std::thread([h] { gasnet_wait_syncnb(h); }).join();
#else
    std::uint64_t other = 1;  // a put elsewhere from this thread, completed on its own
    gasnet_wait_syncnb(gasnet_put_nb(next, slot(next, self) + kBytes + 64, &other, 8));
    gasnet_wait_syncnb(h);
#endif
    barrier();
    std::string why;
    EXPECT_TRUE(matches_pattern(my_slot(prev), kBytes, 600 + prev, &why))
        << "adjacent put_nbi in a region from node " << prev << ": " << why;
}

// Several regions in a row, their handles kept and synchronized together
// (with other explicit handles) by gasnet_wait_syncnb_all, while implicit
// operations between them are synchronized on their own.
TEST_F(ExtendedRegion, SeveralRegionsSyncedTogether) {
    if (!enough_segment()) GTEST_SKIP() << "needs <= 8 nodes and 16 MiB segments";
    const gasnet_node_t n = nodes(), self = me(), next = (self + 1) % n;
    fill_get_area();
    barrier();
    constexpr int kRegions = 20;
    constexpr std::size_t kBytes = 3000;
    std::vector<Buf> region_gets, between_gets;
    std::vector<gasnet_handle_t> hs;
    for (int k = 0; k < kRegions; ++k) {
        region_gets.emplace_back(kBytes, 1);
        between_gets.emplace_back(kBytes, 1);
    }
    for (int k = 0; k < kRegions; ++k) {
        const gasnet_node_t d = (self + gasnet_node_t(k)) % n;
        region_gets[k].guard_fill(kBytes);
        between_gets[k].guard_fill(kBytes);
        gasnet_begin_nbi_accessregion();
        for (int part = 0; part < 3; ++part)  // one region, three gets
            gasnet_get_nbi_bulk(region_gets[k].p + part * 1000, d, seg_addr(d) + kGetBase + 3 * k + part * 1000, 1000);
        hs.push_back(gasnet_end_nbi_accessregion());
        hs.push_back(GASNET_INVALID_HANDLE);
        gasnet_get_nbi_bulk(between_gets[k].p, next, seg_addr(next) + kGetBase + 100000 + 5 * k, kBytes);
        gasnet_wait_syncnbi_gets();  // only the implicit one
        expect_region("get_nbi_bulk between regions " + std::to_string(k), between_gets[k].p, kBytes, kGuard, false,
                      get_pstart(next) + 100000 + 5 * k, 0);
    }
    gasnet_wait_syncnb_all(hs.data(), hs.size());
    expect_all_invalid(hs, "gasnet_wait_syncnb_all on access region handles");
    for (int k = 0; k < kRegions; ++k) {
        const gasnet_node_t d = (self + gasnet_node_t(k)) % n;
        expect_region("access region " + std::to_string(k) + " (from node " + std::to_string(d) + ")", region_gets[k].p,
                      kBytes, kGuard, false, get_pstart(d) + 3 * k, 0);
    }
}

}  // namespace
