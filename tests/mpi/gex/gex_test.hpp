// tests/mpi/gex/gex_test.hpp -- what the GASNet-EX tests share (main:
// gex_test_main.cpp).  Every process's segment is kSegmentBytes; tests use
// its regions as they document, and put everything back as it was.
#pragma once

#include <gasnet.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

namespace gex_test {

constexpr uintptr_t kSegmentBytes = uintptr_t(4) << 20;

struct Job {
    gex_Client_t client = GEX_CLIENT_INVALID;
    gex_EP_t ep = GEX_EP_INVALID;
    gex_TM_t tm = GEX_TM_INVALID;
    gex_Segment_t segment = GEX_SEGMENT_INVALID;
    gex_Rank_t me = 0, n = 1;
    unsigned char* base = nullptr;  // this process's segment
};
extern Job g_job;

// Every process (gasnet_barrier_notify/wait, anonymous).
void barrier();

// The byte a test writes at offset i of the region it gives to `writer`.
inline unsigned char pattern(gex_Rank_t writer, std::size_t i, unsigned salt) {
    return static_cast<unsigned char>(writer * 31u + i * 7u + salt);
}

}  // namespace gex_test
