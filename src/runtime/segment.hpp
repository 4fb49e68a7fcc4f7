// src/runtime/segment.hpp -- a symmetric segment (the heap, or the global
// data) and address translation: a symmetric address on this PE becomes an
// offset, then either a pointer into a node peer's copy or an MPI target.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "route.hpp"

namespace gasket::rt {

struct Segment {
    const char* name = "";     // for messages: "symmetric heap", "global data"
    char* base = nullptr;      // this PE's copy
    std::size_t size = 0;      // bytes
    std::vector<Route> route;  // per world PE (route.hpp)
    Window* window = nullptr;  // MPI path to every PE's copy

    bool contains(const void* p) const {
        return reinterpret_cast<std::uintptr_t>(p) - reinterpret_cast<std::uintptr_t>(base) < size;
    }
    std::size_t offset_of(const void* p) const { return std::size_t(static_cast<const char*>(p) - base); }
    // PE `pe`'s copy when it is mapped here, else null.
    char* direct(int pe) const { return route[std::size_t(pe)].direct; }
};

enum class Fault { none, bad_pe, not_symmetric, out_of_bounds };

struct Translation {
    Target target;
    Segment* segment;    // nullptr unless the address is symmetric
    std::size_t offset;  // of the address in its segment
    Fault fault;
};

// Translates symmetric `addr` for a transfer of `bytes` to `pe` of `n_pes`,
// looking in `heap` then `data`.  Pure: no MPI, no side effects.
[[gnu::always_inline]] inline Translation translate(Segment& heap, Segment& data, int n_pes, const void* addr,
                                                    std::size_t bytes, int pe) {
    if (static_cast<unsigned>(pe) >= static_cast<unsigned>(n_pes)) [[unlikely]]
        return {{}, nullptr, 0, Fault::bad_pe};
    Segment* seg = heap.contains(addr) ? &heap : data.contains(addr) ? &data : nullptr;
    if (!seg) [[unlikely]]
        return {{}, nullptr, 0, Fault::not_symmetric};
    const std::size_t offset = seg->offset_of(addr);
    if (bytes > seg->size - offset) [[unlikely]]
        return {{}, seg, offset, Fault::out_of_bounds};
    return {target_of(seg->route[std::size_t(pe)], seg->window, offset), seg, offset, Fault::none};
}

}  // namespace gasket::rt
