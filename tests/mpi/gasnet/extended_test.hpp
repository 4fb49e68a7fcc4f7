// tests/mpi/gasnet/extended_test.hpp -- what the tests of the GASNet
// extended API's data transfers share (gasnet-1.8-spec.md §3.1-§3.4,
// §3.6.1; include/gasnet.h "Chapter 3").  Every test runs on every node,
// to every node including itself; one file per spec section:
//   extended_transfer_test.cpp  §3.2, §3.3: every put, memset and get form
//   extended_sync_test.cpp      §3.3.3 explicit-handle synchronization
//   extended_many_test.cpp      §3.3.1 many operations in flight
//   extended_region_test.cpp    §3.3.6 access regions
//   extended_value_test.cpp     §3.4 register-value forms
//   extended_threads_test.cpp   §3.6.1 thread information, §3.3.5 per-thread nbi
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
#pragma once

#include "gasnet_test.hpp"

#include <sched.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace extended_test {

using namespace gasnet_test;

inline constexpr std::size_t kMiB = std::size_t(1) << 20;
inline constexpr std::size_t kSlot = kMiB + 64 * 1024;
inline constexpr std::size_t kMaxNodes = 8;
inline constexpr std::size_t kGetBase = 9 * kMiB;
inline constexpr std::size_t kGetArea = kMiB + 64 * 1024;
inline constexpr std::size_t kValBase = 11 * kMiB;
inline constexpr std::size_t kGuard = 64;
inline constexpr unsigned char kFill = 0xEE;
inline constexpr unsigned char kScribble = 0x5A;

inline constexpr std::size_t kSizes[] = {0, 1, 7, 8, 4096, kMiB};
inline constexpr int kNumSizes = int(sizeof kSizes / sizeof kSizes[0]);

inline unsigned char* slot(gasnet_node_t owner, gasnet_node_t writer) { return seg_addr(owner) + writer * kSlot; }
inline unsigned char* my_slot(gasnet_node_t writer) { return my_seg() + writer * kSlot; }

inline std::uint64_t get_pstart(gasnet_node_t owner) { return std::uint64_t(owner) * 100003 + 17; }
inline void fill_get_area() { std::memcpy(my_seg() + kGetBase, pattern(get_pstart(me())), kGetArea); }

inline unsigned char val_byte(gasnet_node_t owner, std::size_t i) {
    return static_cast<unsigned char>(0x80 | ((owner * 13 + i * 7) & 0x7f));
}
inline void fill_val_area() {
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
inline bool all_bytes(const unsigned char* p, std::size_t n, unsigned char b, std::string* why) {
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
inline void expect_region(const std::string& what, const unsigned char* p, std::size_t n, std::size_t before,
                          bool is_memset, std::uint64_t pstart, unsigned char byte) {
    std::string why;
    if (!all_bytes(p - before, before, kFill, &why))
        ADD_FAILURE() << what << ": guard bytes before the data overwritten: " << why;
    const bool ok = is_memset ? all_bytes(p, n, byte, &why) : matches_pattern(p, n, pstart, &why);
    if (!ok) ADD_FAILURE() << what << ": data wrong: " << why;
    if (!all_bytes(p + n, kGuard, kFill, &why))
        ADD_FAILURE() << what << ": guard bytes after the data overwritten: " << why;
}

inline std::size_t count_valid(const std::vector<gasnet_handle_t>& hs) {
    std::size_t k = 0;
    for (auto h : hs) k += h != GASNET_INVALID_HANDLE;
    return k;
}
inline void expect_all_invalid(const std::vector<gasnet_handle_t>& hs, const std::string& what) {
    EXPECT_EQ(count_valid(hs), 0u) << what << ": completed handles must be overwritten with GASNET_INVALID_HANDLE";
}

inline bool enough_segment() { return nodes() <= kMaxNodes && seg(me()).size >= 16 * kMiB; }

// The 8-byte value writer w puts as its i-th small put (the many-operation
// and thread tests).
inline std::uint64_t many_value(gasnet_node_t w, std::size_t i, unsigned salt) {
    return (std::uint64_t(salt) << 56) ^ (std::uint64_t(w) << 40) ^ (std::uint64_t(i) * 0x9E3779B1u);
}

}  // namespace extended_test
