// tests/mpi/gasnet/extended_transfer_test.cpp -- puts, memsets and gets in every form of
// gasnet-1.8-spec.md §3.2 (blocking), §3.3.2 (explicit handle), §3.3.4
// (implicit handle) and §3.3.6 (in an access region), every node to every
// node, every size, each form synchronized every way.
// Segment layout, guards and helpers: extended_test.hpp.
#include "extended_test.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace {

using namespace extended_test;

// ============================================================================
// Puts and memsets: every node to every node (round r: to node me + r),
// every size, every form.
// ============================================================================
enum class PutOp { Put, PutBulk, PutNb, PutNbBulk, PutNbi, PutNbiBulk, PutNbiRegion, Memset, MemsetNb, MemsetNbi };

const char* put_op_name(PutOp op) {
    switch (op) {
        case PutOp::Put: return "put";
        case PutOp::PutBulk: return "put_bulk";
        case PutOp::PutNb: return "put_nb";
        case PutOp::PutNbBulk: return "put_nb_bulk";
        case PutOp::PutNbi: return "put_nbi";
        case PutOp::PutNbiBulk: return "put_nbi_bulk";
        case PutOp::PutNbiRegion: return "put_nbi_bulk_in_accessregion";
        case PutOp::Memset: return "memset";
        case PutOp::MemsetNb: return "memset_nb";
        case PutOp::MemsetNbi: return "memset_nbi";
    }
    return "?";
}
void PrintTo(PutOp op, std::ostream* os) { *os << put_op_name(op); }
bool is_memset(PutOp op) { return op == PutOp::Memset || op == PutOp::MemsetNb || op == PutOp::MemsetNbi; }
bool unaligned_ok(PutOp op) {
    return op == PutOp::PutBulk || op == PutOp::PutNbBulk || op == PutOp::PutNbiBulk || op == PutOp::PutNbiRegion ||
           is_memset(op);
}
bool is_nb(PutOp op) { return op == PutOp::PutNb || op == PutOp::PutNbBulk || op == PutOp::MemsetNb; }
bool is_nbi(PutOp op) { return op == PutOp::PutNbi || op == PutOp::PutNbiBulk || op == PutOp::MemsetNbi; }
// Forms whose source may be overwritten as soon as the call returns.
bool src_reusable(PutOp op) {
    return op == PutOp::Put || op == PutOp::PutBulk || op == PutOp::PutNb || op == PutOp::PutNbi;
}

std::size_t put_dst_off(PutOp op, int si, gasnet_node_t r) {
    if (unaligned_ok(op)) return kGuard + 1 + 2 * ((std::size_t(si) * 5 + r * 3) % 16);  // odd
    return kGuard + 64 * ((std::size_t(si) + r) % 4);
}
std::size_t put_src_misalign(PutOp op, gasnet_node_t r) { return unaligned_ok(op) ? 1 + 2 * (r % 3) : 0; }
std::uint64_t put_pstart(gasnet_node_t w, gasnet_node_t d, int si) {
    return (std::uint64_t(w) * kMaxNodes + d) * 65537 + std::uint64_t(si) * 4099;
}
int memset_val(gasnet_node_t w, gasnet_node_t d, int si) {
    // Bit 8 set: memset stores (unsigned char)val.
    return 0x100 | (0x10 + int((w * 7 + d * 3 + unsigned(si) * 11) % 0xC0));
}

// Sync strategies, by size index, so that every size meets several.
void sync_nb(std::vector<gasnet_handle_t>& hs, int si, const std::string& what) {
    switch (si % 4) {
        case 0:
            for (auto& h : hs) gasnet_wait_syncnb(h);
            break;
        case 1:
            gasnet_wait_syncnb_all(hs.data(), hs.size());
            expect_all_invalid(hs, what + ", gasnet_wait_syncnb_all");
            break;
        case 2:
            for (auto& h : hs)
                EXPECT_EQ(try_until_done([&] { return gasnet_try_syncnb(h); }), GASNET_OK)
                    << what << ": gasnet_try_syncnb never returned GASNET_OK";
            break;
        default:
            EXPECT_EQ(try_until_done([&] { return gasnet_try_syncnb_all(hs.data(), hs.size()); }), GASNET_OK)
                << what << ": gasnet_try_syncnb_all never returned GASNET_OK";
            expect_all_invalid(hs, what + ", gasnet_try_syncnb_all");
            break;
    }
}
// Synchronizes this thread's nbi operations of one kind (puts or gets): by
// round si % 4, that kind's wait, wait_syncnbi_all, a loop of that kind's
// try, or a loop of try_syncnbi_all; then nothing may be outstanding.
void sync_nbi(int si, const std::string& what, const char* kind, void (*wait_kind)(), int (*try_kind)()) {
    switch (si % 4) {
        case 0: wait_kind(); break;
        case 1: gasnet_wait_syncnbi_all(); break;
        case 2:
            EXPECT_EQ(try_until_done(try_kind), GASNET_OK)
                << what << ": gasnet_try_syncnbi_" << kind << " never returned GASNET_OK";
            break;
        default:
            EXPECT_EQ(try_until_done(gasnet_try_syncnbi_all), GASNET_OK)
                << what << ": gasnet_try_syncnbi_all never returned GASNET_OK";
            break;
    }
    EXPECT_EQ(try_kind(), GASNET_OK) << what << ": nbi " << kind << " outstanding after the sync";
    EXPECT_EQ(gasnet_try_syncnbi_all(), GASNET_OK) << what << ": nbi operations outstanding after the sync";
}
void sync_nbi_puts(int si, const std::string& what) {
    sync_nbi(si, what, "puts", gasnet_wait_syncnbi_puts, gasnet_try_syncnbi_puts);
}
void sync_nbi_gets(int si, const std::string& what) {
    sync_nbi(si, what, "gets", gasnet_wait_syncnbi_gets, gasnet_try_syncnbi_gets);
}
void sync_region(gasnet_handle_t h, int si, const std::string& what) {
    if (si % 2 == 0) {
        gasnet_wait_syncnb(h);
    } else {
        EXPECT_EQ(try_until_done([&] { return gasnet_try_syncnb(h); }), GASNET_OK)
            << what << ": gasnet_try_syncnb on the access region's handle never returned GASNET_OK";
    }
}

class PutTest : public GasnetTest, public ::testing::WithParamInterface<PutOp> {};

TEST_P(PutTest, EveryNodeEverySize) {
    const PutOp op = GetParam();
    if (!enough_segment()) GTEST_SKIP() << "needs <= 8 nodes and 16 MiB segments";
    const gasnet_node_t n = nodes(), self = me();
    std::vector<Buf> bufs;
    for (gasnet_node_t r = 0; r < n; ++r) bufs.emplace_back(kMiB, put_src_misalign(op, r));

    for (int si = 0; si < kNumSizes; ++si) {
        const std::size_t nb = kSizes[si];
        const std::string what = std::string("gasnet_") + put_op_name(op) + " of " + std::to_string(nb) + " bytes";
        for (gasnet_node_t w = 0; w < n; ++w)
            std::memset(my_slot(w), kFill, put_dst_off(op, si, (self + n - w) % n) + nb + kGuard);
        barrier();  // no writer before every owner has filled its guards

        std::vector<gasnet_handle_t> hs(n, GASNET_INVALID_HANDLE);
        if (op == PutOp::PutNbiRegion) gasnet_begin_nbi_accessregion();
        for (gasnet_node_t r = 0; r < n; ++r) {
            const gasnet_node_t d = (self + r) % n;
            unsigned char* dst = slot(d, self) + put_dst_off(op, si, r);
            unsigned char* src = bufs[r].p;
            std::memcpy(src, pattern(put_pstart(self, d, si)), nb);
            const int val = memset_val(self, d, si);
            switch (op) {
                case PutOp::Put: gasnet_put(d, dst, src, nb); break;
                case PutOp::PutBulk: gasnet_put_bulk(d, dst, src, nb); break;
                case PutOp::PutNb: hs[r] = gasnet_put_nb(d, dst, src, nb); break;
                case PutOp::PutNbBulk: hs[r] = gasnet_put_nb_bulk(d, dst, src, nb); break;
                case PutOp::PutNbi: gasnet_put_nbi(d, dst, src, nb); break;
                case PutOp::PutNbiBulk:
                case PutOp::PutNbiRegion: gasnet_put_nbi_bulk(d, dst, src, nb); break;
                case PutOp::Memset: gasnet_memset(d, dst, val, nb); break;
                case PutOp::MemsetNb: hs[r] = gasnet_memset_nb(d, dst, val, nb); break;
                case PutOp::MemsetNbi: gasnet_memset_nbi(d, dst, val, nb); break;
            }
            // put/put_nb/put_nbi: the source may be reused at once.
            if (src_reusable(op)) std::memset(src, kScribble, nb);
        }
        if (op == PutOp::PutNbiRegion) {
            const gasnet_handle_t h = gasnet_end_nbi_accessregion();
            // The region's operations are not implicit-handle operations.
            EXPECT_EQ(gasnet_try_syncnbi_all(), GASNET_OK)
                << what << ": operations of an access region counted as outstanding nbi operations";
            sync_region(h, si, what);
        } else if (is_nb(op)) {
            sync_nb(hs, si, what);
        } else if (is_nbi(op)) {
            sync_nbi_puts(si, what);
        }
        // The _bulk sources must not have been touched by the library.
        for (gasnet_node_t r = 0; r < n && !src_reusable(op) && !is_memset(op); ++r) {
            std::string why;
            if (!matches_pattern(bufs[r].p, nb, put_pstart(self, (self + r) % n, si), &why))
                ADD_FAILURE() << what << ": the local source buffer changed: " << why;
        }
        barrier();  // every put complete: the owners read their slots

        for (gasnet_node_t w = 0; w < n; ++w) {
            const std::size_t off = put_dst_off(op, si, (self + n - w) % n);
            expect_region(what + " from node " + std::to_string(w) + " to node " + std::to_string(self) +
                              " at segment offset " + std::to_string(w * kSlot + off),
                          my_slot(w) + off, nb, off, is_memset(op), put_pstart(w, self, si),
                          static_cast<unsigned char>(memset_val(w, self, si)));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Extended, PutTest,
                         ::testing::Values(PutOp::Put, PutOp::PutBulk, PutOp::PutNb, PutOp::PutNbBulk, PutOp::PutNbi,
                                           PutOp::PutNbiBulk, PutOp::PutNbiRegion, PutOp::Memset, PutOp::MemsetNb,
                                           PutOp::MemsetNbi),
                         [](const ::testing::TestParamInfo<PutOp>& i) { return std::string(put_op_name(i.param)); });

// ============================================================================
// Gets: from every node, every size, every form.
// ============================================================================
enum class GetOp { Get, GetBulk, GetNb, GetNbBulk, GetNbi, GetNbiBulk, GetNbiRegion };

const char* get_op_name(GetOp op) {
    switch (op) {
        case GetOp::Get: return "get";
        case GetOp::GetBulk: return "get_bulk";
        case GetOp::GetNb: return "get_nb";
        case GetOp::GetNbBulk: return "get_nb_bulk";
        case GetOp::GetNbi: return "get_nbi";
        case GetOp::GetNbiBulk: return "get_nbi_bulk";
        case GetOp::GetNbiRegion: return "get_nbi_bulk_in_accessregion";
    }
    return "?";
}
void PrintTo(GetOp op, std::ostream* os) { *os << get_op_name(op); }
bool unaligned_ok(GetOp op) {
    return op == GetOp::GetBulk || op == GetOp::GetNbBulk || op == GetOp::GetNbiBulk || op == GetOp::GetNbiRegion;
}
std::size_t get_src_off(GetOp op, int si, gasnet_node_t r) {
    if (unaligned_ok(op)) return 1 + 2 * ((std::size_t(si) * 3 + r * 5) % 16);
    return 64 * ((std::size_t(si) + r) % 4);
}

class GetTest : public GasnetTest, public ::testing::WithParamInterface<GetOp> {};

TEST_P(GetTest, EveryNodeEverySize) {
    const GetOp op = GetParam();
    if (!enough_segment()) GTEST_SKIP() << "needs <= 8 nodes and 16 MiB segments";
    const gasnet_node_t n = nodes(), self = me();
    fill_get_area();
    barrier();
    std::vector<Buf> bufs;
    for (gasnet_node_t r = 0; r < n; ++r) bufs.emplace_back(kMiB, unaligned_ok(op) ? 1 + 2 * (r % 3) : 0);

    for (int si = 0; si < kNumSizes; ++si) {
        const std::size_t nb = kSizes[si];
        const std::string what = std::string("gasnet_") + get_op_name(op) + " of " + std::to_string(nb) + " bytes";
        std::vector<gasnet_handle_t> hs(n, GASNET_INVALID_HANDLE);
        if (op == GetOp::GetNbiRegion) gasnet_begin_nbi_accessregion();
        for (gasnet_node_t r = 0; r < n; ++r) {
            const gasnet_node_t d = (self + r) % n;
            bufs[r].guard_fill(nb);
            unsigned char* src = seg_addr(d) + kGetBase + get_src_off(op, si, r);
            unsigned char* dst = bufs[r].p;
            switch (op) {
                case GetOp::Get: gasnet_get(dst, d, src, nb); break;
                case GetOp::GetBulk: gasnet_get_bulk(dst, d, src, nb); break;
                case GetOp::GetNb: hs[r] = gasnet_get_nb(dst, d, src, nb); break;
                case GetOp::GetNbBulk: hs[r] = gasnet_get_nb_bulk(dst, d, src, nb); break;
                case GetOp::GetNbi: gasnet_get_nbi(dst, d, src, nb); break;
                case GetOp::GetNbiBulk:
                case GetOp::GetNbiRegion: gasnet_get_nbi_bulk(dst, d, src, nb); break;
            }
        }
        if (op == GetOp::GetNbiRegion) {
            const gasnet_handle_t h = gasnet_end_nbi_accessregion();
            EXPECT_EQ(gasnet_try_syncnbi_gets(), GASNET_OK)
                << what << ": operations of an access region counted as outstanding nbi gets";
            sync_region(h, si, what);
        } else if (op == GetOp::GetNb || op == GetOp::GetNbBulk) {
            sync_nb(hs, si, what);
        } else if (op == GetOp::GetNbi || op == GetOp::GetNbiBulk) {
            sync_nbi_gets(si, what);
        }
        for (gasnet_node_t r = 0; r < n; ++r) {
            const gasnet_node_t d = (self + r) % n;
            const std::size_t off = get_src_off(op, si, r);
            expect_region(
                what + " from node " + std::to_string(d) + " at segment offset " + std::to_string(kGetBase + off),
                bufs[r].p, nb, kGuard, false, get_pstart(d) + off, 0);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Extended, GetTest,
                         ::testing::Values(GetOp::Get, GetOp::GetBulk, GetOp::GetNb, GetOp::GetNbBulk, GetOp::GetNbi,
                                           GetOp::GetNbiBulk, GetOp::GetNbiRegion),
                         [](const ::testing::TestParamInfo<GetOp>& i) { return std::string(get_op_name(i.param)); });

}  // namespace
