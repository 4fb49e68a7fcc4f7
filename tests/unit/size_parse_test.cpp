// tests/unit/size_parse_test.cpp -- SHMEM_SYMMETRIC_SIZE syntax (spec §8).
#include "src/runtime/size_parse.hpp"

#include <gtest/gtest.h>

using gasket::rt::parse_size;

TEST(SizeParse, PlainAndSuffixed) {
    EXPECT_EQ(parse_size("65536"), 65536u);
    EXPECT_EQ(parse_size("20m"), 20971520u);  // the spec's examples
    EXPECT_EQ(parse_size("3.1M"), 3250586u);
    EXPECT_EQ(parse_size("2k"), 2048u);
    EXPECT_EQ(parse_size("1G"), std::size_t(1) << 30);
    EXPECT_EQ(parse_size("1t"), std::size_t(1) << 40);
}

TEST(SizeParse, SpecCornerCases) {
    EXPECT_EQ(parse_size(".5m"), parse_size("0.5m"));
    EXPECT_EQ(parse_size("20kk"), 20480u);  // only one multiplier is recognised
    EXPECT_EQ(parse_size("0"), 0u);
    EXPECT_EQ(parse_size("1.5"), 2u);  // rounded up to whole bytes
}

TEST(SizeParse, InvalidValues) {
    EXPECT_FALSE(parse_size(""));
    EXPECT_FALSE(parse_size("abc"));
    EXPECT_FALSE(parse_size("-1"));
    EXPECT_FALSE(parse_size("12q"));
    EXPECT_FALSE(parse_size("."));
    EXPECT_FALSE(parse_size("99999999999T"));  // overflow
}
