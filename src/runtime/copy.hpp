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

// Copies `bytes` from `src` to `dst` (as memmove: they may overlap).  Past
// kDirectChunk the copy goes in chunks of that size.  glibc copies large
// blocks with `rep movsb`; on the development VM one 1-4 MiB copy ran at
// 0.84-0.94 of Open MPI's on-node MPI_Put/MPI_Get, which copy in pieces,
// and the same bytes in 128 KiB pieces run at 1.02-1.11 of it
// (docs/performance.md).  Overlapping ranges take one memmove.
inline constexpr std::size_t kDirectChunk = std::size_t(1) << 17;

[[gnu::always_inline]] inline void copy_direct(void* dst, const void* src, std::size_t bytes) {
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
