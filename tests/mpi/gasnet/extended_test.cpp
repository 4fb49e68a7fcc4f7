// tests/mpi/gasnet/extended_test.cpp -- the GASNet extended API's data
// transfers (gasnet-1.8-spec.md §3.1-§3.4, §3.6.1; include/gasnet.h
// "Chapter 3"), run on every node, to every node including itself.
//
// Segment layout (every node's segment is >= 16 MiB, gasnet_test.hpp):
//   [0, 8 x kSlot)            one slot per writing node: what node w puts to
//                             node d lands in d's slot w (so nodes never write
//                             the same bytes); at most 8 nodes
//   [kGetBase, +kGetArea)     filled by its owner with pattern(get_pstart(owner))
//                             and only read by the others
//   [kValBase, +64)           the bytes gasnet_get_val reads (high bit set in
//                             every byte, so a sign extension shows)
// Before the writers put, each owner fills the bytes around the target with
// kFill; after the sync and a barrier (AM-built, gasnet_test.hpp: these tests
// do not depend on gasnet_barrier_*) the owner checks the data byte for byte
// and that the guard bytes before and after are still kFill.
//
// Alignment: the spec lets only the _bulk forms (and memset) use unaligned
// addresses (§3.2.0.1: "src and dest ... must be properly aligned"), so the
// non-bulk forms use 64-byte aligned addresses and the _bulk forms and
// memset odd offsets in the segment and odd local buffers.
//
// try_* loops (try_until_done) call nothing but the try routine (and
// sched_yield): a try must make progress by itself, as a client's
// `while (gasnet_try_syncnb(h) != GASNET_OK) {}` relies on.
#include "gasnet_test.hpp"

#include <sched.h>

#include <array>
#include <bit>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace gasnet_test;

constexpr std::size_t kMiB = std::size_t(1) << 20;
constexpr std::size_t kSlot = kMiB + 64 * 1024;
constexpr std::size_t kMaxNodes = 8;
constexpr std::size_t kGetBase = 9 * kMiB;
constexpr std::size_t kGetArea = kMiB + 64 * 1024;
constexpr std::size_t kValBase = 11 * kMiB;
constexpr std::size_t kGuard = 64;
constexpr unsigned char kFill = 0xEE;
constexpr unsigned char kScribble = 0x5A;

constexpr std::size_t kSizes[] = {0, 1, 7, 8, 4096, kMiB};
constexpr int kNumSizes = int(sizeof kSizes / sizeof kSizes[0]);

unsigned char* slot(gasnet_node_t owner, gasnet_node_t writer) { return seg_addr(owner) + writer * kSlot; }
unsigned char* my_slot(gasnet_node_t writer) { return my_seg() + writer * kSlot; }

std::uint64_t get_pstart(gasnet_node_t owner) { return std::uint64_t(owner) * 100003 + 17; }
void fill_get_area() { std::memcpy(my_seg() + kGetBase, pattern(get_pstart(me())), kGetArea); }

unsigned char val_byte(gasnet_node_t owner, std::size_t i) {
    return static_cast<unsigned char>(0x80 | ((owner * 13 + i * 7) & 0x7f));
}
void fill_val_area() {
    for (std::size_t i = 0; i < 64; ++i) my_seg()[kValBase + i] = val_byte(me(), i);
}

// Calls try_fn() until it returns something else than GASNET_ERR_NOT_READY,
// or `seconds` have passed; returns its last result.
template <class F>
int try_until_done(F try_fn, double seconds = 30.0) {
    const double deadline = now_s() + seconds;
    int rc;
    while ((rc = try_fn()) == GASNET_ERR_NOT_READY && now_s() < deadline) sched_yield();
    return rc;
}

// A local buffer with kGuard bytes either side of [p, p + capacity),
// p = 64-byte aligned + misalign.
struct Buf {
    std::unique_ptr<unsigned char[]> storage;
    unsigned char* p;
    Buf(std::size_t capacity, std::size_t misalign) : storage(new unsigned char[capacity + 4 * kGuard + 64]) {
        auto a = reinterpret_cast<std::uintptr_t>(storage.get());
        a = (a + 63) & ~std::uintptr_t(63);
        p = reinterpret_cast<unsigned char*>(a) + kGuard + misalign;
    }
    void guard_fill(std::size_t n) { std::memset(p - kGuard, kFill, n + 2 * kGuard); }
};

// Whether the n bytes at p are all b; on mismatch *why says where.
bool all_bytes(const unsigned char* p, std::size_t n, unsigned char b, std::string* why) {
    for (std::size_t i = 0; i < n; ++i)
        if (p[i] != b) {
            if (why) *why = "byte " + std::to_string(i) + " is " + std::to_string(p[i]) + ", want " + std::to_string(b);
            return false;
        }
    return true;
}

// The data at p (n bytes) equal the pattern from pstart (or, with memset,
// all `byte`), and the kGuard bytes before (from `before` bytes back) and
// after are kFill.  Adds one failure naming `what` otherwise.
void expect_region(const std::string& what, const unsigned char* p, std::size_t n, std::size_t before,
                   bool is_memset, std::uint64_t pstart, unsigned char byte) {
    std::string why;
    if (!all_bytes(p - before, before, kFill, &why))
        ADD_FAILURE() << what << ": guard bytes before the data overwritten: " << why;
    const bool ok = is_memset ? all_bytes(p, n, byte, &why) : matches_pattern(p, n, pstart, &why);
    if (!ok) ADD_FAILURE() << what << ": data wrong: " << why;
    if (!all_bytes(p + n, kGuard, kFill, &why))
        ADD_FAILURE() << what << ": guard bytes after the data overwritten: " << why;
}

std::size_t count_valid(const std::vector<gasnet_handle_t>& hs) {
    std::size_t k = 0;
    for (auto h : hs) k += h != GASNET_INVALID_HANDLE;
    return k;
}
void expect_all_invalid(const std::vector<gasnet_handle_t>& hs, const std::string& what) {
    EXPECT_EQ(count_valid(hs), 0u) << what << ": completed handles must be overwritten with GASNET_INVALID_HANDLE";
}

bool enough_segment() { return nodes() <= kMaxNodes && seg(me()).size >= 16 * kMiB; }

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
            expect_region(what + " from node " + std::to_string(d) + " at segment offset " +
                              std::to_string(kGetBase + off),
                          bufs[r].p, nb, kGuard, false, get_pstart(d) + off, 0);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Extended, GetTest,
                         ::testing::Values(GetOp::Get, GetOp::GetBulk, GetOp::GetNb, GetOp::GetNbBulk, GetOp::GetNbi,
                                           GetOp::GetNbiBulk, GetOp::GetNbiRegion),
                         [](const ::testing::TestParamInfo<GetOp>& i) { return std::string(get_op_name(i.param)); });

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

// include/gasnet.h: operations that complete at once -- loopback, memset --
// return GASNET_INVALID_HANDLE, and an access region whose operations need
// no syncing (loopback only, or only explicit-handle ones) returns it too.
TEST_F(ExtendedSync, ImmediateOperationsReturnInvalidHandle) {
    if (!enough_segment()) GTEST_SKIP() << "needs <= 8 nodes and 16 MiB segments";
    const gasnet_node_t n = nodes(), self = me();
    fill_get_area();
    for (gasnet_node_t w = 0; w < n; ++w) std::memset(my_slot(w), kFill, 64 * 1024);
    barrier();
    unsigned char* const mine = my_slot(self);  // this node's slot in its own segment
    Buf src(4096, 1), dst(4096, 3);
    std::memcpy(src.p, pattern(777), 4096);
    EXPECT_EQ(gasnet_put_nb(self, mine + kGuard, src.p, 64), GASNET_INVALID_HANDLE) << "loopback put_nb";
    EXPECT_EQ(gasnet_put_nb_bulk(self, mine + 1001, src.p, 4096), GASNET_INVALID_HANDLE) << "loopback put_nb_bulk";
    EXPECT_EQ(gasnet_put_nb_val(self, mine + 8192, 0x0102030405060708ull, 8), GASNET_INVALID_HANDLE)
        << "loopback put_nb_val";
    dst.guard_fill(4096);
    EXPECT_EQ(gasnet_get_nb_bulk(dst.p, self, mine + 1001, 4096), GASNET_INVALID_HANDLE) << "loopback get_nb_bulk";
    expect_region("loopback get_nb_bulk of what loopback put_nb_bulk wrote", dst.p, 4096, kGuard, false, 777, 0);
    std::uint64_t v = 0;
    EXPECT_EQ(gasnet_get_nb(&v, self, mine + 8192, 8), GASNET_INVALID_HANDLE) << "loopback get_nb";
    EXPECT_EQ(v, 0x0102030405060708ull) << "loopback get_nb of what loopback put_nb_val wrote";
    std::string why;
    EXPECT_TRUE(matches_pattern(mine + kGuard, 64, 777, &why)) << "loopback put_nb: " << why;

    for (gasnet_node_t r = 0; r < n; ++r) {
        const gasnet_node_t d = (self + r) % n;
        EXPECT_EQ(gasnet_memset_nb(d, slot(d, self) + 20000 + 1, 0x42, 3000), GASNET_INVALID_HANDLE)
            << "memset_nb to node " << d;
    }

    dst.guard_fill(100);
    gasnet_begin_nbi_accessregion();
    gasnet_put_nbi(self, mine + 30000, src.p, 64);
    gasnet_get_nbi_bulk(dst.p, self, seg_addr(self) + kGetBase + 3, 100);
    EXPECT_EQ(gasnet_end_nbi_accessregion(), GASNET_INVALID_HANDLE) << "access region with loopback operations only";
    expect_region("loopback get_nbi_bulk in an access region", dst.p, 100, kGuard, false, get_pstart(self) + 3, 0);

    gasnet_begin_nbi_accessregion();
    const gasnet_handle_t h = gasnet_get_nb(&v, (self + 1) % n, seg_addr((self + 1) % n) + kGetBase, 8);
    EXPECT_EQ(gasnet_end_nbi_accessregion(), GASNET_INVALID_HANDLE)
        << "access region with only an explicit-handle operation in it";
    gasnet_wait_syncnb(h);
    EXPECT_EQ(std::memcmp(&v, pattern(get_pstart((self + 1) % n)), 8), 0) << "get_nb inside an access region";

    barrier();
    for (gasnet_node_t w = 0; w < n; ++w)
        expect_region("memset_nb from node " + std::to_string(w), my_slot(w) + 20000 + 1, 3000, kGuard, true, 0,
                      0x42);
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
            add(gasnet_memset_nb(d, slot(d, self) + list_memset_off(m), list_memset_val(self, d, m),
                                 kListMemsetBytes));
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
                while ((rc = gasnet_try_syncnb_all(hs.data(), hs.size())) == GASNET_ERR_NOT_READY &&
                       now_s() < deadline)
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

// ============================================================================
// Many operations in flight (§3.3.1: at least 2^16 - 1)
// ============================================================================
using ExtendedMany = GasnetTest;

constexpr std::size_t kManyNb = 10000;
constexpr std::size_t kManyNbi = 65535;

std::uint64_t many_value(gasnet_node_t w, std::size_t i, unsigned salt) {
    return (std::uint64_t(salt) << 56) ^ (std::uint64_t(w) << 40) ^ (std::uint64_t(i) * 0x9E3779B1u);
}
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
            gasnet_get_nbi_bulk(region_gets[k].p + part * 1000, d, seg_addr(d) + kGetBase + 3 * k + part * 1000,
                                1000);
        hs.push_back(gasnet_end_nbi_accessregion());
        hs.push_back(GASNET_INVALID_HANDLE);
        gasnet_get_nbi_bulk(between_gets[k].p, next, seg_addr(next) + kGetBase + 100000 + 5 * k, kBytes);
        gasnet_wait_syncnbi_gets();  // only the implicit one
        expect_region("get_nbi_bulk between regions " + std::to_string(k), between_gets[k].p, kBytes, kGuard,
                      false, get_pstart(next) + 100000 + 5 * k, 0);
    }
    gasnet_wait_syncnb_all(hs.data(), hs.size());
    expect_all_invalid(hs, "gasnet_wait_syncnb_all on access region handles");
    for (int k = 0; k < kRegions; ++k) {
        const gasnet_node_t d = (self + gasnet_node_t(k)) % n;
        expect_region("access region " + std::to_string(k) + " (from node " + std::to_string(d) + ")",
                      region_gets[k].p, kBytes, kGuard, false, get_pstart(d) + 3 * k, 0);
    }
}

// ============================================================================
// Register-value forms (§3.4)
// ============================================================================
using ExtendedValue = GasnetTest;

// Every nbytes the spec allows (0 < nbytes <= SIZEOF_GASNET_REGISTER_VALUE_T);
// 3, 5, 6 and 7 are not integer sizes: for them the expected bytes are the
// low-order bytes in little-endian order (Gasket's platforms).
constexpr std::size_t kWidths[] = {1, 2, 4, 8, 3, 5, 6, 7};
constexpr int kNumWidths = int(sizeof kWidths / sizeof kWidths[0]);
static_assert(std::endian::native == std::endian::little, "the expectations for widths 3, 5, 6, 7 assume it");

// The low-order nbytes of v in native byte order, as an nbytes integer would be stored.
void store_low(unsigned char* out, std::uint64_t v, std::size_t nbytes) {
    switch (nbytes) {
        case 1: { std::uint8_t x = std::uint8_t(v); std::memcpy(out, &x, 1); break; }
        case 2: { std::uint16_t x = std::uint16_t(v); std::memcpy(out, &x, 2); break; }
        case 4: { std::uint32_t x = std::uint32_t(v); std::memcpy(out, &x, 4); break; }
        case 8: std::memcpy(out, &v, 8); break;
        default: std::memcpy(out, &v, nbytes); break;  // little-endian: the low-order bytes first
    }
}
// The nbytes integer at p, zero-extended.
std::uint64_t load_zext(const unsigned char* p, std::size_t nbytes) {
    switch (nbytes) {
        case 1: { std::uint8_t x; std::memcpy(&x, p, 1); return x; }
        case 2: { std::uint16_t x; std::memcpy(&x, p, 2); return x; }
        case 4: { std::uint32_t x; std::memcpy(&x, p, 4); return x; }
        case 8: { std::uint64_t x; std::memcpy(&x, p, 8); return x; }
        default: { std::uint64_t x = 0; std::memcpy(&x, p, nbytes); return x; }
    }
}
std::uint64_t put_value(gasnet_node_t w, gasnet_node_t d, int k) {
    // Every byte nonzero and distinct from kFill; the high bytes differ from the low ones.
    return 0xF1E2D3C4B5A69788ull ^ (std::uint64_t(w + 1) << 4) ^ (std::uint64_t(d + 1) << 12) ^
           (std::uint64_t(k + 1) << 20);
}

TEST_F(ExtendedValue, PutValEveryWidthEveryNode) {
    if (!enough_segment()) GTEST_SKIP() << "needs <= 8 nodes and 16 MiB segments";
    const gasnet_node_t n = nodes(), self = me();
    constexpr int kCells = 3 * kNumWidths;  // every width x 3 forms, 16 bytes each
    for (gasnet_node_t w = 0; w < n; ++w) std::memset(my_slot(w), kFill, kGuard + 16 * kCells + kGuard);
    barrier();
    std::vector<gasnet_handle_t> hs;
    for (gasnet_node_t r = 0; r < n; ++r) {
        const gasnet_node_t d = (self + r) % n;
        for (int k = 0; k < kCells; ++k) {
            const std::size_t nb = kWidths[k / 3];
            unsigned char* dst = slot(d, self) + kGuard + 16 * k;
            const std::uint64_t v = put_value(self, d, k);
            switch (k % 3) {
                case 0: gasnet_put_val(d, dst, v, nb); break;
                case 1: hs.push_back(gasnet_put_nb_val(d, dst, v, nb)); break;
                default: gasnet_put_nbi_val(d, dst, v, nb); break;
            }
        }
    }
    gasnet_wait_syncnb_all(hs.data(), hs.size());
    expect_all_invalid(hs, "gasnet_wait_syncnb_all on put_nb_val handles");
    gasnet_wait_syncnbi_puts();
    barrier();
    static const char* kForm[] = {"gasnet_put_val", "gasnet_put_nb_val", "gasnet_put_nbi_val"};
    for (gasnet_node_t w = 0; w < n; ++w) {
        std::string why;
        EXPECT_TRUE(all_bytes(my_slot(w), kGuard, kFill, &why)) << "before the cells of node " << w << ": " << why;
        for (int k = 0; k < kCells; ++k) {
            const std::size_t nb = kWidths[k / 3];
            unsigned char want[16];
            std::memset(want, kFill, 16);
            store_low(want, put_value(w, self, k), nb);
            const unsigned char* got = my_slot(w) + kGuard + 16 * k;
            EXPECT_EQ(std::memcmp(got, want, 16), 0)
                << kForm[k % 3] << " of " << nb << " bytes from node " << w << ": wrote "
                << ::testing::PrintToString(std::vector<int>(got, got + 16)) << ", want "
                << ::testing::PrintToString(std::vector<int>(want, want + 16));
        }
    }
}

TEST_F(ExtendedValue, GetValZeroExtendsEveryWidthEveryNode) {
    const gasnet_node_t n = nodes(), self = me();
    fill_val_area();
    barrier();
    struct Want {
        gasnet_node_t d;
        std::size_t nb, off;
        std::uint64_t value;
    };
    std::vector<Want> wants;
    for (gasnet_node_t r = 0; r < n; ++r) {
        const gasnet_node_t d = (self + r) % n;
        unsigned char bytes[64];
        for (std::size_t i = 0; i < 64; ++i) bytes[i] = val_byte(d, i);
        for (std::size_t nb : kWidths)
            for (std::size_t off = 0; off + nb <= 64; off += nb == 1 ? 5 : (nb & (nb - 1)) ? 8 : nb)
                wants.push_back({d, nb, off, load_zext(bytes + off, nb)});
    }
    for (const auto& w : wants) {
        const std::uint64_t got = gasnet_get_val(w.d, seg_addr(w.d) + kValBase + w.off, w.nb);
        EXPECT_EQ(got, w.value) << "gasnet_get_val of " << w.nb << " bytes from node " << w.d << " at offset "
                                << w.off << " (want zero-extended)";
    }
    // All non-blocking value gets in flight, then synchronized in reverse order.
    std::vector<gasnet_valget_handle_t> vh;
    for (const auto& w : wants) vh.push_back(gasnet_get_nb_val(w.d, seg_addr(w.d) + kValBase + w.off, w.nb));
    for (std::size_t i = wants.size(); i-- > 0;) {
        const std::uint64_t got = gasnet_wait_syncnb_valget(vh[i]);
        EXPECT_EQ(got, wants[i].value) << "gasnet_get_nb_val of " << wants[i].nb << " bytes from node " << wants[i].d
                                       << " at offset " << wants[i].off;
    }
}

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
    expect_region("get_nb_bulk synchronized by another thread", small.p, 4096, kGuard, false,
                  get_pstart(next) + 9, 0);

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
