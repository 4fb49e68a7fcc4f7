// tests/mpi/gex/gex_test.hpp -- what the GASNet-EX tests share (main:
// gex_test_main.cpp).  Every process's segment is kSegmentBytes; tests use
// its regions as they document, and put everything back as it was.
#pragma once

#include <gasnet.h>
#include <gasnet_mk.h>

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

// Every process makes an endpoint with a segment of `bytes` (GASNet-allocated
// when `client` is null, else the client's range) and publishes it over
// `tm` (a team of every process; GEX_TM_INVALID: the primordial team).
// Endpoints are made in the same order everywhere, so its index is every
// process's.
struct Published {
    gex_EP_t ep = GEX_EP_INVALID;
    gex_Segment_t seg = GEX_SEGMENT_INVALID;
    gex_EP_Index_t index = 0;
    unsigned char* base = nullptr;
    Published(std::size_t bytes, void* client, gex_TM_t tm = GEX_TM_INVALID) {
        EXPECT_EQ(gex_EP_Create(&ep, g_job.client, GEX_EP_CAPABILITY_RMA, 0), GASNET_OK);
        EXPECT_EQ(gex_Segment_Create(&seg, g_job.client, client, bytes, GEX_MK_HOST, 0), GASNET_OK);
        EXPECT_EQ(gex_EP_BindSegment(ep, seg, 0), GASNET_OK);
        EXPECT_EQ(gex_EP_PublishBoundSegment(tm == GEX_TM_INVALID ? g_job.tm : tm, &ep, 1, 0), GASNET_OK);
        index = gex_EP_QueryIndex(ep);
        base = static_cast<unsigned char*>(gex_Segment_QueryAddr(seg));
    }
    // Where `rank`'s segment is (its owner's address), and its size.
    unsigned char* on(gex_Rank_t rank, uintptr_t* size = nullptr) const {
        void* owner = nullptr;
        uintptr_t n = 0;
        EXPECT_EQ(gex_Segment_QueryBound(gex_TM_Pair(g_job.ep, index), rank, &owner, nullptr, &n), 0);
        if (size) *size = n;
        return static_cast<unsigned char*>(owner);
    }
};

}  // namespace gex_test
