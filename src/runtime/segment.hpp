// src/runtime/segment.hpp -- a symmetric segment (the heap, or the global
// data) and address translation: a symmetric address on this PE becomes an
// offset, then either a pointer into a node peer's copy or an MPI target.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mpi-bridge/window.hpp"

namespace gasket::rt {

struct Segment {
    const char* name = "";        // for messages: "symmetric heap", "global data"
    char* base = nullptr;         // this PE's copy
    std::size_t size = 0;         // bytes
    std::vector<char*> direct;    // per world PE: load/store address of its copy, or nullptr
    mpi::Window* window = nullptr;  // MPI path to every PE's copy

    bool contains(const void* p) const {
        return reinterpret_cast<std::uintptr_t>(p) - reinterpret_cast<std::uintptr_t>(base) < size;
    }
    std::size_t offset_of(const void* p) const { return std::size_t(static_cast<const char*>(p) - base); }
};

// Where a transfer goes: `direct` when the target's memory is mapped here,
// else `window` + `offset` through MPI.
struct Target {
    char* direct;
    mpi::Window* window;
    std::size_t offset;
};

enum class Fault { none, bad_pe, not_symmetric, out_of_bounds };

struct Translation {
    Target target;
    Segment* segment;  // nullptr unless the address is symmetric
    Fault fault;
};

// Translates symmetric `addr` for a transfer of `bytes` to `pe` of `n_pes`,
// looking in `heap` then `data`.  Pure: no MPI, no side effects.
inline Translation translate(Segment& heap, Segment& data, int n_pes, const void* addr, std::size_t bytes, int pe) {
    if (static_cast<unsigned>(pe) >= static_cast<unsigned>(n_pes)) [[unlikely]]
        return {{}, nullptr, Fault::bad_pe};
    Segment* seg = heap.contains(addr) ? &heap : data.contains(addr) ? &data : nullptr;
    if (!seg) [[unlikely]]
        return {{}, nullptr, Fault::not_symmetric};
    const std::size_t offset = seg->offset_of(addr);
    if (bytes > seg->size - offset) [[unlikely]]
        return {{}, seg, Fault::out_of_bounds};
    char* peer = seg->direct[pe];
    return {{peer ? peer + offset : nullptr, seg->window, offset}, seg, Fault::none};
}

}  // namespace gasket::rt
