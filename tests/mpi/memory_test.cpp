// tests/mpi/memory_test.cpp -- §9.3 symmetric heap management: malloc,
// calloc, realloc, align, malloc_with_hints, free; symmetry (the same offset
// on every PE, and usable as a remote address at once); size 0; exhaustion
// (NULL on every PE, heap still usable afterwards).
//
// The heap size comes from SHMEM_SYMMETRIC_SIZE (CMake sets it for this
// program) or Gasket's default, 128M.
#include <cinttypes>
#include <cstddef>
#include <limits>

#include "shmem_test.hpp"

namespace {

using namespace gasket_test;

// SHMEM_SYMMETRIC_SIZE in bytes (number with optional K/M/G suffix).
std::size_t heap_size() {
    const char* v = std::getenv("SHMEM_SYMMETRIC_SIZE");
    if (!v || !*v) return std::size_t(128) << 20;
    char* end = nullptr;
    double x = std::strtod(v, &end);
    switch (end && *end ? *end : ' ') {
        case 'k':
        case 'K': x *= 1024.0; break;
        case 'm':
        case 'M': x *= 1024.0 * 1024; break;
        case 'g':
        case 'G': x *= 1024.0 * 1024 * 1024; break;
        default: break;
    }
    return std::size_t(x);
}

// The first symmetric block this program allocates: other blocks' offsets
// from it must be the same on every PE.
char* anchor() {
    static char* a = static_cast<char*>(shmem_malloc(1));
    return a;
}
std::ptrdiff_t offset_of(const void* p) { return static_cast<const char*>(p) - anchor(); }

// p is non-NULL on every PE, at the same offset, and usable: each PE puts a
// marker into its right neighbour's block and reads back the left's.
::testing::AssertionResult Symmetric(void* p, std::size_t size) {
    if (!all_pes(p != nullptr)) return ::testing::AssertionFailure() << "NULL on some PE";
    const std::ptrdiff_t off = offset_of(p);
    if (!same_on_all_pes(off)) {
        auto all = allgather(off);
        std::string s;
        for (std::size_t i = 0; i < all.size(); ++i) s += " PE" + std::to_string(i) + "=" + std::to_string(all[i]);
        return ::testing::AssertionFailure() << "offsets from the first block differ:" << s;
    }
    // First and last byte of the block, remotely.
    auto* c = static_cast<unsigned char*>(p);
    shmem_barrier_all();
    const int last_marker = size > 1 ? 0x60 : 0x40;  // a 1-byte block: first == last
    shmem_uint8_p(c, uint8_t(0x40 + me()), right());
    if (size > 1) shmem_uint8_p(c + size - 1, uint8_t(0x60 + me()), right());
    shmem_barrier_all();
    const bool ok = c[0] == 0x40 + left() && c[size - 1] == last_marker + left();
    const int first = c[0], last = c[size - 1];
    shmem_barrier_all();
    if (!ok)
        return ::testing::AssertionFailure() << "PE " << me() << ": puts from PE " << left()
                                             << " to the block's first/last byte read " << first << "/" << last;
    return ::testing::AssertionSuccess();
}

bool aligned(const void* p, std::size_t a) { return reinterpret_cast<std::uintptr_t>(p) % a == 0; }

TEST(Malloc, SymmetricAlignedUsable) {
    ASSERT_TRUE(all_pes(anchor() != nullptr));  // before any collective in this test
    const std::size_t sizes[] = {1, 3, 8, 100, 4096, 4097, std::size_t(1) << 20};
    std::vector<void*> blocks;
    for (std::size_t size : sizes) {
        void* p = shmem_malloc(size);
        EXPECT_TRUE(aligned(p, alignof(std::max_align_t))) << "shmem_malloc(" << size << ") = " << p;
        EXPECT_TRUE(Symmetric(p, size)) << "shmem_malloc(" << size << ")";
        blocks.push_back(p);
    }
    // Distinct, non-overlapping blocks.
    for (std::size_t i = 0; i < blocks.size(); ++i)
        for (std::size_t j = 0; j < blocks.size(); ++j)
            if (i != j && blocks[i] && blocks[j]) {
                auto a = static_cast<char*>(blocks[i]), b = static_cast<char*>(blocks[j]);
                EXPECT_TRUE(a + sizes[i] <= b || b + sizes[j] <= a) << "blocks " << i << " and " << j << " overlap";
            }
    // Free in a scrambled order.
    for (std::size_t i : {3, 0, 6, 1, 5, 2, 4}) shmem_free(blocks[i]);
}

TEST(Malloc, FreeThenMallocReusesTheBlock) {
    void* p = shmem_malloc(4096);
    shmem_free(p);
    void* q = shmem_malloc(4096);
    EXPECT_EQ(q, p) << "a block of the same size right after free";
    EXPECT_TRUE(Symmetric(q, 4096));
    shmem_free(q);
    shmem_free(nullptr);  // no action
}

TEST(Malloc, SizeZeroReturnsNull) {
    EXPECT_EQ(shmem_malloc(0), nullptr);
    EXPECT_EQ(shmem_align(64, 0), nullptr);
    EXPECT_EQ(shmem_malloc_with_hints(0, 0), nullptr);
    EXPECT_EQ(shmem_malloc_with_hints(0, SHMEM_MALLOC_ATOMICS_REMOTE), nullptr);
    EXPECT_EQ(shmem_calloc(0, 8), nullptr);
    EXPECT_EQ(shmem_calloc(8, 0), nullptr);
    EXPECT_EQ(shmem_realloc(nullptr, 0), nullptr);
    // realloc to 0 frees: the space is available again.
    void* p = shmem_malloc(256);
    EXPECT_EQ(shmem_realloc(p, 0), nullptr);
    void* q = shmem_malloc(256);
    EXPECT_EQ(q, p) << "shmem_realloc(p, 0) did not free p";
    shmem_free(q);
}

TEST(Calloc, ZeroedEvenOverDirtyMemory) {
    // Dirty a region, free it, then calloc the same space.
    auto* dirty = static_cast<unsigned char*>(shmem_malloc(65536));
    if (dirty) std::memset(dirty, 0xab, 65536);
    shmem_free(dirty);
    auto* z = static_cast<unsigned char*>(shmem_calloc(16384, 4));
    EXPECT_TRUE(aligned(z, alignof(std::max_align_t)));
    if (z) EXPECT_TRUE(BytesAre(z, 65536, 0)) << "shmem_calloc(16384, 4)";
    EXPECT_TRUE(Symmetric(z, 65536));
    shmem_free(z);
    auto* odd = static_cast<unsigned char*>(shmem_calloc(3, 7));
    if (odd) EXPECT_TRUE(BytesAre(odd, 21, 0)) << "shmem_calloc(3, 7)";
    EXPECT_TRUE(Symmetric(odd, 21));
    shmem_free(odd);
}

TEST(Calloc, OverflowReturnsNullEverywhere) {
    void* p = shmem_calloc(std::numeric_limits<std::size_t>::max() / 2, 4);
    EXPECT_EQ(p, nullptr);
    EXPECT_TRUE(all_pes(p == nullptr));
}

TEST(Realloc, GrowShrinkKeepContent) {
    constexpr std::size_t kOld = 1000, kBig = 100000, kSmall = 100;
    auto* p = static_cast<unsigned char*>(shmem_malloc(kOld));
    for (std::size_t i = 0; p && i < kOld; ++i) p[i] = pattern_byte(me(), i);
    void* blocker = shmem_malloc(64);  // right after p: growing must move it

    auto* q = static_cast<unsigned char*>(shmem_realloc(p, kBig));
    EXPECT_NE(q, nullptr);
    if (q) EXPECT_TRUE(BytesMatchPattern(q, kOld, me())) << "content after growing " << kOld << " -> " << kBig;
    EXPECT_TRUE(Symmetric(q, kBig)) << "after growing (moved)";
    for (std::size_t i = 0; q && i < kOld; ++i) q[i] = pattern_byte(me(), i);  // Symmetric() wrote ends

    auto* r = static_cast<unsigned char*>(shmem_realloc(q, kSmall));
    EXPECT_NE(r, nullptr);
    if (r) EXPECT_TRUE(BytesMatchPattern(r, kSmall, me())) << "content after shrinking " << kBig << " -> " << kSmall;
    EXPECT_TRUE(Symmetric(r, kSmall)) << "after shrinking";

    // The last block can grow in place or move; either way content is kept.
    shmem_free(blocker);
    for (std::size_t i = 0; r && i < kSmall; ++i) r[i] = pattern_byte(me(), i + 5);
    auto* s = static_cast<unsigned char*>(shmem_realloc(r, 3 * kBig));
    EXPECT_NE(s, nullptr);
    if (s) EXPECT_TRUE(BytesMatchPattern(s, kSmall, me(), 5)) << "content after growing " << kSmall;
    EXPECT_TRUE(Symmetric(s, 3 * kBig)) << "after growing the last block";
    shmem_free(s);

    // realloc(NULL, n) is malloc(n).
    void* m = shmem_realloc(nullptr, 512);
    EXPECT_TRUE(Symmetric(m, 512)) << "shmem_realloc(NULL, 512)";
    shmem_free(m);
}

TEST(Align, AlignmentHonoredAndSymmetric) {
    const std::size_t alignments[] = {8, 16, 64, 256, 4096, 65536, std::size_t(1) << 20};
    std::vector<void*> blocks;
    void* spacer = shmem_malloc(24);  // so that the heap's next free byte is not already aligned
    for (std::size_t a : alignments) {
        void* p = shmem_align(a, 1000);
        EXPECT_TRUE(aligned(p, a)) << "shmem_align(" << a << ", 1000) = " << p;
        EXPECT_TRUE(Symmetric(p, 1000)) << "shmem_align(" << a << ", 1000)";
        blocks.push_back(p);
        void* small = shmem_malloc(40);  // keep the free space unaligned
        blocks.push_back(small);
    }
    for (void* p : blocks) shmem_free(p);
    shmem_free(spacer);
}

TEST(MallocWithHints, EveryKnownHint) {
    const long hints[] = {0, SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE,
                          SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE};
    for (long h : hints) {
        void* p = shmem_malloc_with_hints(4000, h);
        EXPECT_TRUE(aligned(p, alignof(std::max_align_t))) << "hints " << h;
        EXPECT_TRUE(Symmetric(p, 4000)) << "shmem_malloc_with_hints(4000, " << h << ")";
        shmem_free(p);
    }
}

TEST(Exhaustion, NullOnEveryPeThenHeapStillWorks) {
    const std::size_t heap = heap_size();
    ASSERT_TRUE(all_pes(anchor() != nullptr));  // one granule in use from here on
    if (me() == 0) std::printf("[ info     ] symmetric heap: %zu bytes per PE\n", heap);

    void* too_big = shmem_malloc(heap + 1);
    EXPECT_EQ(too_big, nullptr) << "shmem_malloc(SHMEM_SYMMETRIC_SIZE + 1)";
    EXPECT_TRUE(all_pes(too_big == nullptr)) << "some PE got a block larger than the heap";
    void* huge = shmem_malloc(std::size_t(1) << 40);
    EXPECT_TRUE(all_pes(huge == nullptr)) << "shmem_malloc(1 TiB)";
    void* huge_aligned = shmem_align(4096, heap);  // the anchor already uses part of it
    EXPECT_TRUE(all_pes(huge_aligned == nullptr)) << "shmem_align(4096, SHMEM_SYMMETRIC_SIZE)";
    void* huge_calloc = shmem_calloc(heap / 8 + 1, 8);
    EXPECT_TRUE(all_pes(huge_calloc == nullptr)) << "shmem_calloc past the heap";

    // Fill the heap with eighths until it runs out: the same count everywhere.
    std::vector<void*> blocks;
    for (int i = 0; i < 16; ++i) {
        void* p = shmem_malloc(heap / 8);
        if (!all_pes(p != nullptr)) {
            EXPECT_TRUE(all_pes(p == nullptr)) << "exhaustion reached on some PEs only";
            shmem_free(p);
            break;
        }
        blocks.push_back(p);
    }
    // Only the 1-byte anchor block is live (every other test frees its blocks),
    // so exactly 7 eighths fit.
    EXPECT_EQ(blocks.size(), 7u) << "eighths of the heap that fit next to one small block";

    // realloc that cannot be satisfied returns NULL and leaves the block alone.
    auto* keep = static_cast<unsigned char*>(blocks.empty() ? nullptr : blocks.back());
    if (keep) std::memset(keep, 0x5a, 4096);
    void* grown = blocks.empty() ? nullptr : shmem_realloc(keep, heap);
    EXPECT_TRUE(all_pes(grown == nullptr)) << "shmem_realloc to the whole heap while it is full";
    if (keep) EXPECT_TRUE(BytesAre(keep, 4096, 0x5a)) << "block changed by a failed shmem_realloc";

    for (void* p : blocks) shmem_free(p);

    // The heap still works: a big block again, then RMA on it.
    void* again = shmem_malloc(heap / 2);
    EXPECT_TRUE(Symmetric(again, heap / 2)) << "shmem_malloc(heap/2) after exhaustion and free";
    if (all_pes(again != nullptr)) {
        std::vector<long> src(1024, me()), dst(1024, -1);
        shmem_long_put(static_cast<long*>(again), src.data(), src.size(), right());
        shmem_barrier_all();
        shmem_long_get(dst.data(), static_cast<long*>(again), dst.size(), right());
        EXPECT_EQ(dst[0], me());
        EXPECT_EQ(dst[1023], me());
        shmem_barrier_all();
    }
    shmem_free(again);
}

}  // namespace
