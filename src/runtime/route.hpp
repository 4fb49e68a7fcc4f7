// src/runtime/route.hpp -- how this PE reaches one PE's copy of a segment:
// by load/store when that copy is mapped here (node peers with the node
// fast path), else through MPI at a window displacement.  One route per PE
// per segment, filled when the segment is attached; every put, get and AMO
// of both APIs reads its target's route.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpi-bridge/window.hpp"

namespace gasket::rt {

// A displacement in an MPI window (bytes; mpi::Window::displacement).
using Displacement = mpi::Displacement;
// The RMA window type every route goes through.
using Window = mpi::Window;

struct Route {
    // The segment's first byte on that PE, in that PE's address space
    // (GASNet segments differ in address between nodes; an OpenSHMEM
    // address is translated through this PE's copy instead).
    std::uintptr_t base;
    std::size_t size;   // the segment's bytes on that PE
    Displacement disp;  // window displacement of the segment's first byte on that PE
    char* direct;       // that PE's copy mapped here, or null
};
static_assert(sizeof(Route) == 32, "a route is indexed with one shift");

// Where one transfer goes: `direct` when the target's memory is mapped
// here, else `window` at displacement `disp`.
struct Target {
    char* direct;
    Window* window;
    Displacement disp;
};

// The target of byte `offset` of the segment behind `r`, through `w`.
[[gnu::always_inline]] inline Target target_of(const Route& r, Window* w, std::size_t offset) {
    return {r.direct ? r.direct + offset : nullptr, w, r.disp + Displacement(offset)};
}

}  // namespace gasket::rt
