// tests/unit/copy_test.cpp -- rt::copy_small and rt::copy_direct
// (src/runtime/copy.hpp), the copies behind direct puts and gets to node
// peers and behind the bounce ring's small puts: every length copies exactly
// its bytes and touches nothing around them (a zero-length put used to copy
// the byte before the source over the byte before the destination), and
// overlapping ranges copy as memmove does, in either direction.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "src/runtime/copy.hpp"

namespace {

using gasket::rt::copy_direct;
using gasket::rt::copy_small;
using gasket::rt::kSmallCopyMax;

using Copy = void (*)(void*, const void*, std::size_t);

// Copies n bytes between two separate buffers at offset 8 and checks every
// byte of the destination buffer.
void check_disjoint(Copy copy, std::size_t n) {
    std::vector<char> src(n + 16), dst(n + 16, '.');
    std::iota(src.begin(), src.end(), char(1));
    copy(dst.data() + 8, src.data() + 8, n);
    for (std::size_t i = 0; i < dst.size(); ++i) {
        const bool inside = i >= 8 && i < 8 + n;
        ASSERT_EQ(dst[i], inside ? src[i] : '.') << "length " << n << ", byte " << i;
    }
}

// Copies n bytes within one buffer, from offset 8 to offset 8 + shift
// (shift may be negative), and checks the buffer against memmove's result.
void check_overlap(Copy copy, std::size_t n, long shift) {
    std::vector<char> buf(n + 32), want;
    std::iota(buf.begin(), buf.end(), char(1));
    want = buf;
    std::memmove(want.data() + 8 + shift, want.data() + 8, n);
    copy(buf.data() + 8 + shift, buf.data() + 8, n);
    ASSERT_EQ(buf, want) << "length " << n << ", shift " << shift;
}

TEST(CopySmall, CopiesExactlyNBytesForEveryLength) {
    for (std::size_t n = 0; n <= kSmallCopyMax; ++n) check_disjoint(copy_small, n);
}

TEST(CopySmall, OverlappingRangesCopyAsMemmove) {
    for (std::size_t n = 1; n <= kSmallCopyMax; ++n)
        for (long shift = -7; shift <= 7; ++shift) check_overlap(copy_small, n, shift);
}

TEST(CopyDirect, CopiesExactlyNBytesAcrossItsSizeClasses) {
    const std::size_t chunk = gasket::rt::kDirectChunk;
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(8), kSmallCopyMax,
                          kSmallCopyMax + 1, std::size_t(4096), chunk, chunk + 1, 3 * chunk + 5})
        check_disjoint(copy_direct, n);
}

TEST(CopyDirect, OverlappingRangesCopyAsMemmove) {
    for (std::size_t n :
         {std::size_t(2), std::size_t(8), kSmallCopyMax, std::size_t(100), gasket::rt::kDirectChunk + 3})
        for (long shift : {-5L, -1L, 1L, 5L}) check_overlap(copy_direct, n, shift);
}

}  // namespace
