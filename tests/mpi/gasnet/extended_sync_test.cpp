// tests/mpi/gasnet/extended_sync_test.cpp -- explicit-handle synchronization
// (gasnet-1.8-spec.md §3.3.3): invalid handles, empty lists, operations
// that complete at once, lists mixing GASNET_INVALID_HANDLE with handles
// of every kind.
// Segment layout, guards and helpers: extended_test.hpp.
#include "extended_test.hpp"

#include <string>
#include <vector>

namespace {

using namespace extended_test;

// ============================================================================
// Explicit-handle synchronization (§3.3.3)
// ============================================================================
using ExtendedSync = GasnetTest;

TEST_F(ExtendedSync, InvalidHandleEmptyListsAndNothingOutstanding) {
    EXPECT_EQ(gasnet_try_syncnb(GASNET_INVALID_HANDLE), GASNET_OK);
    gasnet_wait_syncnb(GASNET_INVALID_HANDLE);

    std::vector<gasnet_handle_t> none(3, GASNET_INVALID_HANDLE);
    EXPECT_EQ(gasnet_try_syncnb_all(none.data(), 0), GASNET_OK) << "numhandles 0";
    EXPECT_EQ(gasnet_try_syncnb_some(none.data(), 0), GASNET_OK) << "numhandles 0";
    gasnet_wait_syncnb_all(none.data(), 0);
    gasnet_wait_syncnb_some(none.data(), 0);
    EXPECT_EQ(gasnet_try_syncnb_all(none.data(), none.size()), GASNET_OK) << "only GASNET_INVALID_HANDLE";
    EXPECT_EQ(gasnet_try_syncnb_some(none.data(), none.size()), GASNET_OK) << "only GASNET_INVALID_HANDLE";
    gasnet_wait_syncnb_all(none.data(), none.size());
    gasnet_wait_syncnb_some(none.data(), none.size());
    expect_all_invalid(none, "list of GASNET_INVALID_HANDLE");

    // §3.3.5: no outstanding implicit-handle operation.
    EXPECT_EQ(gasnet_try_syncnbi_gets(), GASNET_OK);
    EXPECT_EQ(gasnet_try_syncnbi_puts(), GASNET_OK);
    EXPECT_EQ(gasnet_try_syncnbi_all(), GASNET_OK);
    gasnet_wait_syncnbi_gets();
    gasnet_wait_syncnbi_puts();
    gasnet_wait_syncnbi_all();

    // An access region without operations needs no syncing (include/gasnet.h).
    gasnet_begin_nbi_accessregion();
    EXPECT_EQ(gasnet_end_nbi_accessregion(), GASNET_INVALID_HANDLE) << "access region without operations";
    EXPECT_EQ(gasnet_try_syncnbi_all(), GASNET_OK);
}

// include/gasnet.h: operations that complete at once -- loopback, memset
// of this node's segment -- are done when they return: their handle is
// GASNET_INVALID_HANDLE (memset_nb) or one that the first try_syncnb
// completes (a loopback transfer's: its sync is a memory fence, the fence
// a put by load and store needs); a memset_nb to another node returns a
// handle like put_nb's, synchronized here.  An access region whose
// operations need no syncing (only an explicit-handle one) returns
// GASNET_INVALID_HANDLE, one with only loopback nbi operations a handle the
// first try completes.
void expect_done_at_once(gasnet_handle_t h, const char* what) {
    EXPECT_EQ(gasnet_try_syncnb(h), GASNET_OK) << what << ": the first try_syncnb of its handle";
}
TEST_F(ExtendedSync, ImmediateOperationsCompleteAtOnce) {
    if (!enough_segment()) GTEST_SKIP() << "needs <= 8 nodes and 16 MiB segments";
    const gasnet_node_t n = nodes(), self = me();
    fill_get_area();
    for (gasnet_node_t w = 0; w < n; ++w) std::memset(my_slot(w), kFill, 64 * 1024);
    barrier();
    unsigned char* const mine = my_slot(self);  // this node's slot in its own segment
    Buf src(4096, 1), dst(4096, 3);
    std::memcpy(src.p, pattern(777), 4096);
    const gasnet_handle_t hp = gasnet_put_nb(self, mine + kGuard, src.p, 64);
    std::string why;
    EXPECT_TRUE(matches_pattern(mine + kGuard, 64, 777, &why)) << "loopback put_nb, on return: " << why;
    expect_done_at_once(hp, "loopback put_nb");
    const gasnet_handle_t hb = gasnet_put_nb_bulk(self, mine + 1001, src.p, 4096);
    expect_done_at_once(hb, "loopback put_nb_bulk");
    expect_done_at_once(gasnet_put_nb_val(self, mine + 8192, 0x0102030405060708ull, 8), "loopback put_nb_val");
    dst.guard_fill(4096);
    const gasnet_handle_t hg = gasnet_get_nb_bulk(dst.p, self, mine + 1001, 4096);
    expect_region("loopback get_nb_bulk of what loopback put_nb_bulk wrote, on return", dst.p, 4096, kGuard, false, 777,
                  0);
    expect_done_at_once(hg, "loopback get_nb_bulk");
    std::uint64_t v = 0;
    const gasnet_handle_t hv = gasnet_get_nb(&v, self, mine + 8192, 8);
    EXPECT_EQ(v, 0x0102030405060708ull) << "loopback get_nb of what loopback put_nb_val wrote, on return";
    expect_done_at_once(hv, "loopback get_nb");

    for (gasnet_node_t r = 0; r < n; ++r) {
        const gasnet_node_t d = (self + r) % n;
        const gasnet_handle_t hm = gasnet_memset_nb(d, slot(d, self) + 20000 + 1, 0x42, 3000);
        if (d == self) EXPECT_EQ(hm, GASNET_INVALID_HANDLE) << "loopback memset_nb";
        gasnet_wait_syncnb(hm);
    }

    dst.guard_fill(100);
    gasnet_begin_nbi_accessregion();
    gasnet_put_nbi(self, mine + 30000, src.p, 64);
    gasnet_get_nbi_bulk(dst.p, self, seg_addr(self) + kGetBase + 3, 100);
    const gasnet_handle_t hr = gasnet_end_nbi_accessregion();
    expect_region("loopback get_nbi_bulk in an access region", dst.p, 100, kGuard, false, get_pstart(self) + 3, 0);
    expect_done_at_once(hr, "access region with loopback operations only");

    gasnet_begin_nbi_accessregion();
    const gasnet_handle_t h = gasnet_get_nb(&v, (self + 1) % n, seg_addr((self + 1) % n) + kGetBase, 8);
    EXPECT_EQ(gasnet_end_nbi_accessregion(), GASNET_INVALID_HANDLE)
        << "access region with only an explicit-handle operation in it";
    gasnet_wait_syncnb(h);
    EXPECT_EQ(std::memcmp(&v, pattern(get_pstart((self + 1) % n)), 8), 0) << "get_nb inside an access region";

    barrier();
    for (gasnet_node_t w = 0; w < n; ++w)
        expect_region("memset_nb from node " + std::to_string(w), my_slot(w) + 20000 + 1, 3000, kGuard, true, 0, 0x42);
}

// Lists with GASNET_INVALID_HANDLE entries between handles of every kind
// (get_nb_bulk of 1 MiB, put_nb_bulk of 64 KiB, memset_nb, get_nb, an access
// region's handle), synchronized four ways.
enum class ListMode { TryAll, WaitAll, TrySome, WaitSome };
const char* list_mode_name(ListMode m) {
    switch (m) {
        case ListMode::TryAll: return "gasnet_try_syncnb_all";
        case ListMode::WaitAll: return "gasnet_wait_syncnb_all";
        case ListMode::TrySome: return "gasnet_try_syncnb_some";
        case ListMode::WaitSome: return "gasnet_wait_syncnb_some";
    }
    return "?";
}
constexpr std::size_t kListPutBytes = 64 * 1024, kListMemsetBytes = 4096, kListModeStride = 256 * 1024;
std::size_t list_put_off(int m) { return std::size_t(m) * kListModeStride + kGuard + 1; }
std::size_t list_memset_off(int m) { return std::size_t(m) * kListModeStride + 128 * 1024 + 3; }
std::uint64_t list_pstart(gasnet_node_t w, gasnet_node_t d, int m) { return (w * kMaxNodes + d) * 7919 + m * 131; }
int list_memset_val(gasnet_node_t w, gasnet_node_t d, int m) { return 0x20 + int(w * 17 + d * 5 + unsigned(m)); }

TEST_F(ExtendedSync, ListsWithInvalidEntries) {
    if (!enough_segment()) GTEST_SKIP() << "needs <= 8 nodes and 16 MiB segments";
    const gasnet_node_t n = nodes(), self = me();
    fill_get_area();
    for (gasnet_node_t w = 0; w < n; ++w) std::memset(my_slot(w), kFill, kSlot);
    barrier();

    constexpr ListMode kModes[] = {ListMode::TryAll, ListMode::WaitAll, ListMode::TrySome, ListMode::WaitSome};
    for (int m = 0; m < 4; ++m) {
        const ListMode mode = kModes[m];
        const std::string what = list_mode_name(mode);
        std::vector<Buf> gets, smallgets, regiongets, puts;
        for (gasnet_node_t r = 0; r < n; ++r) {
            gets.emplace_back(kMiB, 3);
            smallgets.emplace_back(64, 0);
            regiongets.emplace_back(4096, 5);
            puts.emplace_back(kListPutBytes, 1);
        }
        // entry 0 and every other entry: GASNET_INVALID_HANDLE
        std::vector<gasnet_handle_t> hs(1, GASNET_INVALID_HANDLE);
        auto add = [&](gasnet_handle_t h) {
            hs.push_back(h);
            hs.push_back(GASNET_INVALID_HANDLE);
        };
        for (gasnet_node_t r = 0; r < n; ++r) {
            const gasnet_node_t d = (self + n - r) % n;  // the others first, self last
            gets[r].guard_fill(kMiB);
            smallgets[r].guard_fill(64);
            regiongets[r].guard_fill(4096);
            std::memcpy(puts[r].p, pattern(list_pstart(self, d, m)), kListPutBytes);
            add(gasnet_get_nb_bulk(gets[r].p, d, seg_addr(d) + kGetBase + 1 + r, kMiB));
            add(gasnet_put_nb_bulk(d, slot(d, self) + list_put_off(m), puts[r].p, kListPutBytes));
            add(gasnet_memset_nb(d, slot(d, self) + list_memset_off(m), list_memset_val(self, d, m), kListMemsetBytes));
            add(gasnet_get_nb(smallgets[r].p, d, seg_addr(d) + kGetBase + 64 * (r + 1), 64));
            gasnet_begin_nbi_accessregion();
            gasnet_get_nbi_bulk(regiongets[r].p, d, seg_addr(d) + kGetBase + 7 * (r + 1), 4096);
            add(gasnet_end_nbi_accessregion());
        }
        std::vector<bool> was_invalid(hs.size());
        for (std::size_t i = 0; i < hs.size(); ++i) was_invalid[i] = hs[i] == GASNET_INVALID_HANDLE;
        auto invalid_stay_invalid = [&] {
            for (std::size_t i = 0; i < hs.size(); ++i)
                if (was_invalid[i] && hs[i] != GASNET_INVALID_HANDLE) return false;
            return true;
        };

        const double deadline = now_s() + 30.0;
        switch (mode) {
            case ListMode::TryAll: {
                int rc;
                while ((rc = gasnet_try_syncnb_all(hs.data(), hs.size())) == GASNET_ERR_NOT_READY && now_s() < deadline)
                    EXPECT_TRUE(invalid_stay_invalid()) << what << " changed a GASNET_INVALID_HANDLE entry";
                EXPECT_EQ(rc, GASNET_OK) << what << " never returned GASNET_OK";
                break;
            }
            case ListMode::WaitAll: gasnet_wait_syncnb_all(hs.data(), hs.size()); break;
            case ListMode::TrySome:
                while (count_valid(hs) > 0 && now_s() < deadline) {
                    const std::size_t before = count_valid(hs);
                    const int rc = gasnet_try_syncnb_some(hs.data(), hs.size());
                    const std::size_t after = count_valid(hs);
                    if (rc == GASNET_OK) {
                        EXPECT_LT(after, before) << what << " returned GASNET_OK but marked no handle completed";
                    } else {
                        EXPECT_EQ(rc, GASNET_ERR_NOT_READY) << what;
                        EXPECT_EQ(after, before) << what << " returned GASNET_ERR_NOT_READY but marked handles";
                        if (rc != GASNET_ERR_NOT_READY) break;
                    }
                    if (rc == GASNET_OK && after >= before) break;
                }
                EXPECT_EQ(gasnet_try_syncnb_some(hs.data(), hs.size()), GASNET_OK)
                    << what << " on a list of only GASNET_INVALID_HANDLE";
                break;
            case ListMode::WaitSome:
                while (count_valid(hs) > 0 && now_s() < deadline) {
                    const std::size_t before = count_valid(hs);
                    gasnet_wait_syncnb_some(hs.data(), hs.size());
                    const std::size_t after = count_valid(hs);
                    EXPECT_LT(after, before) << what << " returned but marked no handle completed";
                    if (after >= before) break;
                }
                gasnet_wait_syncnb_some(hs.data(), hs.size());
                break;
        }
        EXPECT_TRUE(invalid_stay_invalid()) << what << " changed a GASNET_INVALID_HANDLE entry";
        expect_all_invalid(hs, what);
        if (count_valid(hs) != 0) gasnet_wait_syncnb_all(hs.data(), hs.size());  // do not leave them in flight

        for (gasnet_node_t r = 0; r < n; ++r) {
            const gasnet_node_t d = (self + n - r) % n;
            const std::string from = what + ": from node " + std::to_string(d) + ": ";
            expect_region(from + "get_nb_bulk", gets[r].p, kMiB, kGuard, false, get_pstart(d) + 1 + r, 0);
            expect_region(from + "get_nb", smallgets[r].p, 64, kGuard, false, get_pstart(d) + 64 * (r + 1), 0);
            expect_region(from + "get_nbi_bulk in an access region", regiongets[r].p, 4096, kGuard, false,
                          get_pstart(d) + 7 * (r + 1), 0);
            std::string why;
            if (!matches_pattern(puts[r].p, kListPutBytes, list_pstart(self, d, m), &why))
                ADD_FAILURE() << what << ": put_nb_bulk source changed: " << why;
        }
    }
    barrier();
    for (gasnet_node_t w = 0; w < n; ++w)
        for (int m = 0; m < 4; ++m) {
            const std::string what = std::string(list_mode_name(kModes[m])) + ": from node " + std::to_string(w);
            expect_region(what + ": put_nb_bulk", my_slot(w) + list_put_off(m), kListPutBytes, kGuard, false,
                          list_pstart(w, me(), m), 0);
            expect_region(what + ": memset_nb", my_slot(w) + list_memset_off(m), kListMemsetBytes, kGuard, true, 0,
                          static_cast<unsigned char>(list_memset_val(w, me(), m)));
        }
}

}  // namespace
