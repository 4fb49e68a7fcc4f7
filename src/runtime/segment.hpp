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

}  // namespace gasket::rt
