// tests/unit/bounce_test.cpp -- rt::copy_lean (src/runtime/bounce.hpp), the
// call-free copy of small puts into the bounce ring: every length 0..16 copies
// exactly those bytes and touches nothing around them (a zero-length put used
// to copy the byte before the source over the byte before the destination).
#include <gtest/gtest.h>

#include <array>
#include <numeric>

#include "src/runtime/bounce.hpp"

namespace {

using gasket::rt::copy_lean;
using gasket::rt::kLeanCopyMax;

TEST(CopyLean, CopiesExactlyNBytesForEveryLength) {
    for (std::size_t n = 0; n <= kLeanCopyMax; ++n) {
        std::array<char, 64> src{}, dst{};
        std::iota(src.begin(), src.end(), char(1));
        dst.fill('.');
        copy_lean(dst.data() + 8, src.data() + 8, n);
        for (std::size_t i = 0; i < dst.size(); ++i) {
            const bool inside = i >= 8 && i < 8 + n;
            EXPECT_EQ(dst[i], inside ? src[i] : '.') << "length " << n << ", byte " << i;
        }
    }
}

}  // namespace
