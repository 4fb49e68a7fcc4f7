// tests/unit/heap_allocator_test.cpp -- the symmetric heap allocator alone.
#include "src/runtime/heap_allocator.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using gasket::rt::HeapAllocator;
constexpr std::size_t G = HeapAllocator::kGranule;

TEST(HeapAllocator, FirstFitInAddressOrder) {
    HeapAllocator a(1 << 20);
    EXPECT_EQ(a.allocate(100), 0u);
    EXPECT_EQ(a.allocate(1), 2 * G);  // 100 bytes round up to two granules
    EXPECT_EQ(a.allocate(G), 3 * G);
    EXPECT_EQ(a.bytes_in_use(), 4 * G);
}

TEST(HeapAllocator, SameCallsGiveSameOffsets) {
    // Determinism is what makes heap objects symmetric across PEs.
    auto run = [] {
        HeapAllocator a(1 << 22);
        std::mt19937 rng(7);
        std::vector<std::size_t> live, trace;
        for (int i = 0; i < 2000; ++i) {
            if (!live.empty() && rng() % 3 == 0) {
                std::size_t k = rng() % live.size();
                EXPECT_TRUE(a.release(live[k]));
                live.erase(live.begin() + std::ptrdiff_t(k));
            } else if (auto off = a.allocate(rng() % 5000 + 1, std::size_t(1) << (rng() % 10))) {
                live.push_back(*off);
                trace.push_back(*off);
            }
        }
        return trace;
    };
    EXPECT_EQ(run(), run());
}

TEST(HeapAllocator, FreedNeighboursCoalesce) {
    HeapAllocator a(16 * G);
    auto x = a.allocate(4 * G), y = a.allocate(4 * G), z = a.allocate(4 * G);
    ASSERT_TRUE(x && y && z);
    EXPECT_TRUE(a.release(*x));
    EXPECT_TRUE(a.release(*z));
    EXPECT_EQ(a.free_ranges(), 2u);  // [0,4G) and [8G,16G)
    EXPECT_TRUE(a.release(*y));
    EXPECT_EQ(a.free_ranges(), 1u);
    EXPECT_EQ(a.largest_free(), 16 * G);
    EXPECT_EQ(a.allocate(16 * G), 0u);  // the whole heap is one block again
}

TEST(HeapAllocator, ExhaustionReturnsNulloptAndHeapStillWorks) {
    HeapAllocator a(8 * G);
    EXPECT_FALSE(a.allocate(9 * G));
    EXPECT_FALSE(a.allocate(SIZE_MAX));
    auto x = a.allocate(8 * G);
    ASSERT_TRUE(x);
    EXPECT_FALSE(a.allocate(1));
    EXPECT_TRUE(a.release(*x));
    EXPECT_TRUE(a.allocate(1));
}

TEST(HeapAllocator, AlignmentIsHonoured) {
    HeapAllocator a(1 << 20);
    ASSERT_TRUE(a.allocate(1));
    for (std::size_t align : {std::size_t(128), std::size_t(4096), std::size_t(65536)}) {
        auto off = a.allocate(10, align);
        ASSERT_TRUE(off);
        EXPECT_EQ(*off % align, 0u) << "alignment " << align;
    }
    // The gap left in front of an aligned block is reused.
    EXPECT_EQ(a.allocate(G), G);
}

TEST(HeapAllocator, ReleaseRejectsUnknownOffsets) {
    HeapAllocator a(1 << 16);
    auto x = a.allocate(100);
    ASSERT_TRUE(x);
    EXPECT_FALSE(a.release(*x + G));
    EXPECT_TRUE(a.release(*x));
    EXPECT_FALSE(a.release(*x));  // double free
}

TEST(HeapAllocator, ResizeInPlace) {
    HeapAllocator a(16 * G);
    auto x = a.allocate(2 * G), y = a.allocate(2 * G);
    ASSERT_TRUE(x && y);
    EXPECT_FALSE(a.resize_in_place(*x, 3 * G));  // y is in the way
    EXPECT_TRUE(a.resize_in_place(*y, 10 * G));  // grows into the free tail
    EXPECT_EQ(a.block_size(*y), 10 * G);
    EXPECT_TRUE(a.resize_in_place(*y, G));  // shrinking frees the tail
    EXPECT_EQ(a.block_size(*y), G);
    EXPECT_EQ(a.largest_free(), 13 * G);
    EXPECT_FALSE(a.resize_in_place(*y + 1, G));
}

// shmem_realloc(p, SIZE_MAX - 8) once rounded the size up to 0: the block
// stayed live and its bytes went on the free list too (the next allocation
// returned the same offset).  Any size past the heap must be refused and
// leave the heap as it was.
TEST(HeapAllocator, HugeSizesAreRefusedNotWrapped) {
    HeapAllocator a(16 * G);
    auto x = a.allocate(2 * G);
    ASSERT_TRUE(x);
    for (std::size_t size : {SIZE_MAX, SIZE_MAX - 8, SIZE_MAX - G + 1, std::size_t(17) * G}) {
        EXPECT_FALSE(a.resize_in_place(*x, size)) << size;
        EXPECT_FALSE(a.allocate(size)) << size;
        EXPECT_FALSE(a.allocate(G, size)) << "alignment " << size;  // not a power of two for most: never fits
    }
    EXPECT_EQ(a.block_size(*x), 2 * G);
    EXPECT_EQ(a.bytes_in_use(), 2 * G);
    EXPECT_EQ(a.largest_free(), 14 * G);
    auto y = a.allocate(G);
    ASSERT_TRUE(y);
    EXPECT_NE(*y, *x);
}

// A heap whose base is `residue` bytes past an alignment boundary: the
// block's address (base + offset), not its offset, is aligned.
TEST(HeapAllocator, AlignmentCountsFromTheBaseResidue) {
    const std::size_t align = 1 << 12, residue = 5 * G;
    HeapAllocator a(1 << 16);
    auto first = a.allocate(G);  // offset 0: unaligned block before
    auto x = a.allocate(G, align, residue);
    ASSERT_TRUE(first && x);
    EXPECT_EQ((residue + *x) % align, 0u);
    EXPECT_EQ(*x, align - residue);
    auto y = a.allocate(G, align, 0);
    ASSERT_TRUE(y);
    EXPECT_EQ(*y % align, 0u);
    EXPECT_FALSE(a.allocate(G, std::size_t(1) << 63, 1));  // no offset in the heap fits
}
