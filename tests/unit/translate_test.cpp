// tests/unit/translate_test.cpp -- symmetric address translation, on
// hand-made segments (no MPI).
#include "src/runtime/segment.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace gasket::rt;

namespace {
struct Fixture : ::testing::Test {
    std::vector<char> heap_mem = std::vector<char>(4096), peer_heap = std::vector<char>(4096);
    std::vector<char> data_mem = std::vector<char>(256);
    // Routes: {base on that PE, size, window displacement, direct copy here}.
    Segment heap{"symmetric heap",
                 heap_mem.data(),
                 heap_mem.size(),
                 {{0, 4096, 0, heap_mem.data()}, {0, 4096, 512, peer_heap.data()}, {0, 4096, 1024, nullptr}}};
    Segment data{"global data",
                 data_mem.data(),
                 data_mem.size(),
                 {{0, 256, 0, data_mem.data()}, {0, 256, 0, nullptr}, {0, 256, 0, nullptr}}};
    Translation go(const void* addr, std::size_t bytes, int pe) { return translate(heap, data, 3, addr, bytes, pe); }
};
}  // namespace

TEST_F(Fixture, HeapAddressToDirectPeer) {
    Translation t = go(heap_mem.data() + 100, 8, 1);
    EXPECT_EQ(t.fault, Fault::none);
    EXPECT_EQ(t.segment, &heap);
    EXPECT_EQ(t.offset, 100u);
    EXPECT_EQ(t.target.direct, peer_heap.data() + 100);
    EXPECT_EQ(t.target.disp, 512 + 100);
}

TEST_F(Fixture, UnmappedPeerGoesThroughTheWindow) {
    Translation t = go(heap_mem.data() + 64, 8, 2);
    EXPECT_EQ(t.fault, Fault::none);
    EXPECT_EQ(t.target.direct, nullptr);
    EXPECT_EQ(t.offset, 64u);
    EXPECT_EQ(t.target.disp, 1024 + 64);  // the route's window displacement plus the offset
}

TEST_F(Fixture, GlobalDataAddress) {
    Translation t = go(data_mem.data() + 16, 16, 0);
    EXPECT_EQ(t.segment, &data);
    EXPECT_EQ(t.target.direct, data_mem.data() + 16);
    EXPECT_EQ(go(data_mem.data() + 16, 16, 1).target.direct, nullptr);
}

TEST_F(Fixture, Faults) {
    int on_stack = 0;
    EXPECT_EQ(go(heap_mem.data(), 8, 3).fault, Fault::bad_pe);
    EXPECT_EQ(go(heap_mem.data(), 8, -1).fault, Fault::bad_pe);
    EXPECT_EQ(go(&on_stack, 4, 0).fault, Fault::not_symmetric);
    EXPECT_EQ(go(heap_mem.data() + heap_mem.size(), 1, 0).fault, Fault::not_symmetric);  // one past the end
    EXPECT_EQ(go(heap_mem.data() + 4000, 97, 0).fault, Fault::out_of_bounds);
    EXPECT_EQ(go(heap_mem.data() + 4000, 96, 0).fault, Fault::none);  // exactly to the end
    EXPECT_EQ(go(data_mem.data(), 257, 0).fault, Fault::out_of_bounds);
}
