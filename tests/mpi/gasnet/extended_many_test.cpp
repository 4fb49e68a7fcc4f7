// tests/mpi/gasnet/extended_many_test.cpp -- many operations in flight
// (gasnet-1.8-spec.md §3.3.1: at least 2^16 - 1): 10000 put_nb/get_nb, 65535
// put_nbi and get_nbi together, adjacent small put_nbi joined into runs,
// scattered small put_nbi (in batches where GASKET_NBI_BATCH is on).
// Segment layout, guards and helpers: extended_test.hpp.
#include "extended_test.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>

namespace {

using namespace extended_test;

// ============================================================================
// Many operations in flight (§3.3.1: at least 2^16 - 1)
// ============================================================================
using ExtendedMany = GasnetTest;

constexpr std::size_t kManyNb = 10000;
constexpr std::size_t kManyNbi = 65535;

// Which node writer w sends its i-th small put to: mostly w + 1, every
// 16th to itself.
gasnet_node_t many_dest(gasnet_node_t w, std::size_t i) { return i % 16 == 5 ? w : (w + 1) % nodes(); }

// Checks the 8-byte values writer w put into this node's slot w.
void expect_many_values(std::size_t count, unsigned salt, const std::string& what) {
    const gasnet_node_t n = nodes(), self = me();
    for (gasnet_node_t w = 0; w < n; ++w) {
        std::size_t bad = 0, first = 0, checked = 0;
        for (std::size_t i = 0; i < count; ++i) {
            if (many_dest(w, i) != self) continue;
            ++checked;
            std::uint64_t v;
            std::memcpy(&v, my_slot(w) + 8 * i, 8);
            if (v != many_value(w, i, salt) && bad++ == 0) first = i;
        }
        EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << checked << " values from node " << w
                           << " wrong, first the one at index " << first;
    }
}

TEST_F(ExtendedMany, TenThousandPutNbThenOneWaitAll) {
    if (!enough_segment()) GTEST_SKIP() << "needs <= 8 nodes and 16 MiB segments";
    for (gasnet_node_t w = 0; w < nodes(); ++w) std::memset(my_slot(w), kFill, 8 * kManyNb);
    fill_get_area();
    barrier();
    std::vector<gasnet_handle_t> hs(kManyNb);
    const double t0 = now_s();
    for (std::size_t i = 0; i < kManyNb; ++i) {
        std::uint64_t v = many_value(me(), i, 1);  // put_nb: the source may be reused at once
        const gasnet_node_t d = many_dest(me(), i);
        hs[i] = gasnet_put_nb(d, slot(d, me()) + 8 * i, &v, 8);
        v = 0;
    }
    gasnet_wait_syncnb_all(hs.data(), hs.size());
    const double t1 = now_s();
    expect_all_invalid(hs, "gasnet_wait_syncnb_all on 10000 put_nb handles");

    // And 10000 get_nb of 8 bytes each, synchronized with try_syncnb_all.
    std::vector<std::uint64_t> got(kManyNb, 0);
    const gasnet_node_t from = (me() + 1) % nodes();
    for (std::size_t i = 0; i < kManyNb; ++i)
        hs[i] = gasnet_get_nb(&got[i], from, seg_addr(from) + kGetBase + 8 * i, 8);
    EXPECT_EQ(try_until_done([&] { return gasnet_try_syncnb_all(hs.data(), hs.size()); }), GASNET_OK)
        << "gasnet_try_syncnb_all on 10000 get_nb handles never returned GASNET_OK";
    expect_all_invalid(hs, "gasnet_try_syncnb_all on 10000 get_nb handles");
    std::string why;
    EXPECT_TRUE(matches_pattern(got.data(), 8 * kManyNb, get_pstart(from), &why)) << "10000 get_nb: " << why;
    if (me() == 0) std::printf("[ gasket   ] 10000 put_nb + wait_syncnb_all: %.3f s\n", t1 - t0);
    barrier();
    expect_many_values(kManyNb, 1, "10000 put_nb");
}

TEST_F(ExtendedMany, SixtyFiveThousandNbiPutsAndGets) {
    if (!enough_segment()) GTEST_SKIP() << "needs <= 8 nodes and 16 MiB segments";
    for (gasnet_node_t w = 0; w < nodes(); ++w) std::memset(my_slot(w), kFill, 8 * kManyNbi);
    fill_get_area();
    barrier();
    std::vector<std::uint64_t> got(kManyNbi, 0);
    const gasnet_node_t from = (me() + 1) % nodes();
    const double t0 = now_s();
    // 65535 puts and 65535 gets in flight together.
    for (std::size_t i = 0; i < kManyNbi; ++i) {
        std::uint64_t v = many_value(me(), i, 2);
        const gasnet_node_t d = many_dest(me(), i);
        gasnet_put_nbi(d, slot(d, me()) + 8 * i, &v, 8);
        v = 0;
        gasnet_get_nbi(&got[i], from, seg_addr(from) + kGetBase + 8 * i, 8);
    }
    gasnet_wait_syncnbi_gets();
    std::string why;
    EXPECT_TRUE(matches_pattern(got.data(), 8 * kManyNbi, get_pstart(from), &why)) << "65535 get_nbi: " << why;
    EXPECT_EQ(try_until_done(gasnet_try_syncnbi_puts), GASNET_OK)
        << "gasnet_try_syncnbi_puts after 65535 put_nbi never returned GASNET_OK";
    EXPECT_EQ(gasnet_try_syncnbi_all(), GASNET_OK);
    const double t1 = now_s();
    if (me() == 0) std::printf("[ gasket   ] 65535 put_nbi + 65535 get_nbi + sync: %.3f s\n", t1 - t0);
    barrier();
    expect_many_values(kManyNbi, 2, "65535 put_nbi");

    // 65535 memset_nbi (synchronized as puts) of 8 bytes each.
    barrier();
    for (std::size_t i = 0; i < kManyNbi; ++i) {
        const gasnet_node_t d = many_dest(me(), i);
        gasnet_memset_nbi(d, slot(d, me()) + 8 * i, int(i & 0xff), 8);
    }
    gasnet_wait_syncnbi_puts();
    barrier();
    for (gasnet_node_t w = 0; w < nodes(); ++w) {
        std::size_t bad = 0;
        for (std::size_t i = 0; i < kManyNbi; ++i)
            if (many_dest(w, i) == me() && !all_bytes(my_slot(w) + 8 * i, 8, static_cast<unsigned char>(i), nullptr))
                ++bad;
        EXPECT_EQ(bad, 0u) << "65535 memset_nbi from node " << w << ": " << bad << " wrong";
    }
}

// Small non-bulk put_nbi to adjacent addresses are joined into one MPI put
// (src/gasnet/extended.cpp): runs of 1..24-byte puts, each source
// scribbled at once, filling 1 MiB of the next node's slot (the 64 KiB
// copy ring refills many times), broken by a put elsewhere every 1000
// puts, and synchronized first as gets (which must not leave a run unsent),
// then as puts.
TEST_F(ExtendedMany, AdjacentSmallNbiPutsArriveWhole) {
    if (!enough_segment()) GTEST_SKIP() << "needs <= 8 nodes and 16 MiB segments";
    const gasnet_node_t n = nodes(), self = me(), next = (self + 1) % n;
    for (gasnet_node_t w = 0; w < n; ++w) std::memset(my_slot(w), kFill, kSlot);
    barrier();
    const unsigned char* want = pattern(77 + self);
    unsigned char src[24];
    std::size_t off = 0, puts = 0;
    while (off < kMiB) {
        const std::size_t nb = std::min<std::size_t>(1 + (puts * 7) % 24, kMiB - off);
        std::memcpy(src, want + off, nb);
        gasnet_put_nbi(next, slot(next, self) + off, src, nb);
        std::memset(src, kScribble, sizeof src);
        off += nb;
        if (++puts % 1000 == 0) {  // a put elsewhere breaks the run
            std::uint64_t v = puts;
            gasnet_put_nbi(next, slot(next, self) + kMiB + 8, &v, 8);
        }
    }
    gasnet_wait_syncnbi_gets();
    gasnet_wait_syncnbi_puts();
    barrier();
    const gasnet_node_t prev = (self + n - 1) % n;
    std::string why;
    EXPECT_TRUE(matches_pattern(my_slot(prev), kMiB, 77 + prev, &why))
        << puts << " adjacent put_nbi of 1..24 bytes from node " << prev << ": " << why;
}

// Small non-bulk put_nbi scattered over the next node's slot (with
// GASKET_NBI_BATCH on, the MPICH family's default, a thread's ring sends
// them up to 256 at a time in one MPI put with an indexed target datatype):
// 1..16 bytes at the start of each 16-byte cell, cells in the order 97 k mod
// n, each source scribbled at once, every 50th cell put twice (the same
// bytes, overlapping the batch) and a put to the previous node's slot every
// 1000 (another node: the batch ends).  Synchronized as gets first (which
// must send what waits), then as puts; every byte of the slot is checked.
// In PAR the puts come from a new thread, whose ring they attach (a batch
// must not begin before its ring has one).
TEST_F(ExtendedMany, ScatteredSmallNbiPutsArriveWhole) {
    if (!enough_segment()) GTEST_SKIP() << "needs <= 8 nodes and 16 MiB segments";
    const gasnet_node_t n = nodes(), self = me(), next = (self + 1) % n, before = (self + n - 1) % n;
    constexpr std::size_t kCell = 16, kCells = kMiB / kCell;
    const auto cell_bytes = [](std::size_t c) { return 1 + (c * 7) % kCell; };
    for (gasnet_node_t w = 0; w < n; ++w) std::memset(my_slot(w), kFill, kSlot);
    barrier();
    const auto put_all = [&] {
        const unsigned char* want = pattern(91 + self);
        unsigned char src[kCell];
        for (std::size_t k = 0; k < kCells; ++k) {
            const std::size_t c = (97 * k) % kCells, nb = cell_bytes(c);
            for (int twice = 0; twice < (k % 50 == 7 ? 2 : 1); ++twice) {
                std::memcpy(src, want + c * kCell, nb);
                gasnet_put_nbi(next, slot(next, self) + c * kCell, src, nb);
                std::memset(src, kScribble, sizeof src);
            }
            if (k % 1000 == 999) {
                std::uint64_t v = k;
                gasnet_put_nbi(before, slot(before, self) + kMiB + 8, &v, 8);
            }
        }
        gasnet_wait_syncnbi_gets();
        gasnet_wait_syncnbi_puts();
    };
#ifdef GASNET_PAR
    std::thread(put_all).join();
#else
    put_all();
#endif
    barrier();
    const gasnet_node_t prev = (self + n - 1) % n;
    const unsigned char* from_prev = pattern(91 + prev);
    std::size_t bad = 0, first = kCells;
    for (std::size_t c = 0; c < kCells; ++c) {
        const unsigned char* cell = my_slot(prev) + c * kCell;
        const std::size_t nb = cell_bytes(c);
        const bool ok =
            std::memcmp(cell, from_prev + c * kCell, nb) == 0 && all_bytes(cell + nb, kCell - nb, kFill, nullptr);
        if (!ok && bad++ == 0) first = c;
    }
    EXPECT_EQ(bad, 0u) << bad << " of " << kCells << " cells of scattered put_nbi from node " << prev
                       << " wrong, first cell " << first;
}

}  // namespace
