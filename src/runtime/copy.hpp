// src/runtime/copy.hpp -- the copy behind every direct (load/store) put
// and get between node peers.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gasket::rt {

// Whether [a, a + abytes) and [b, b + bbytes) share a byte.
inline bool overlap(const void* a, std::size_t abytes, const void* b, std::size_t bbytes) {
    const auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
    return x < y + bbytes && y < x + abytes;
}

// Copies 0..kSmallCopyMax bytes without a call: at most two loads of one
// width, then the stores (every load before any store, so the ranges may
// overlap, as memmove's).  A call to memmove costs a PLT jump and its own
// size dispatch, more than an 8-byte put to a node peer's other work.
// n == 0 copies nothing (a zero-length put reaches here: from[n - 1] would
// read the byte before the source and write the byte before the destination).
inline constexpr std::size_t kSmallCopyMax = 16;
[[gnu::always_inline]] inline void copy_small(void* dst, const void* src, std::size_t n) {
    auto* to = static_cast<char*>(dst);
    const char* from = static_cast<const char*>(src);
    auto move = [&](auto word) {
        constexpr std::size_t w = sizeof word;
        decltype(word) head, tail;
        std::memcpy(&head, from, w);
        std::memcpy(&tail, from + n - w, w);
        std::memcpy(to, &head, w);
        std::memcpy(to + n - w, &tail, w);
    };
    if (n >= 8)
        move(std::uint64_t{});
    else if (n >= 4)
        move(std::uint32_t{});
    else if (n > 0) {
        const char first = from[0], middle = from[n / 2], last = from[n - 1];
        to[0] = first;
        to[n / 2] = middle;
        to[n - 1] = last;
    }
}

// Copies `bytes` from `src` to `dst` (as memmove: they may overlap).  Up to
// kSmallCopyMax bytes inline (copy_small); past kDirectChunk in chunks of
// that size.  glibc copies large blocks with `rep movsb`; on the
// development VM one 1-4 MiB copy ran at 0.84-0.94 of Open MPI's on-node
// MPI_Put/MPI_Get, which copy in pieces, and the same bytes in 128 KiB
// pieces run at 1.02-1.11 of it (docs/performance.md).  Overlapping ranges
// take one memmove.
inline constexpr std::size_t kDirectChunk = std::size_t(1) << 17;

[[gnu::always_inline]] inline void copy_direct(void* dst, const void* src, std::size_t bytes) {
    if (bytes <= kSmallCopyMax) {
        copy_small(dst, src, bytes);
        return;
    }
    if (bytes <= kDirectChunk) [[likely]] {
        std::memmove(dst, src, bytes);
        return;
    }
    auto* d = static_cast<char*>(dst);
    auto* s = static_cast<const char*>(src);
    if (d < s + bytes && s < d + bytes) [[unlikely]] {  // overlapping: one memmove
        std::memmove(dst, src, bytes);
        return;
    }
    for (std::size_t done = 0; done < bytes; done += kDirectChunk)
        std::memcpy(d + done, s + done, std::min(kDirectChunk, bytes - done));
}

}  // namespace gasket::rt
