// src/runtime/rma.hpp -- the runtime's RMA entry points.  Every put and get
// of every API passes through these (one per kind), so completion tracking,
// checks and, later, tool events live here once.  Hot: inline.
//
// Units: `bytes` are bytes; strided forms count `elem`-byte elements.
// `routine` names the user-facing call for error messages.
#pragma once

#include <cstring>

#include "context.hpp"
#include "copy.hpp"
#include "job.hpp"

namespace gasket::rt {

enum class Completion { local, deferred };  // blocking (source reusable) | nbi (until quiet)

// Copies `bytes` from local `src` to the resolved target `t` on world PE
// `pe`, on context `ctx` (which records direct stores for its quiet).
inline void put_to(Context& ctx, const Target& t, const void* src, std::size_t bytes, int pe, Completion c) {
    if (t.direct) {
        copy_direct(t.direct, src, bytes);
        ctx.note_direct_store();
    } else if (c == Completion::local) {
        t.window->put(src, bytes, pe, t.offset);
    } else {
        t.window->put_nbi(src, bytes, pe, t.offset);
    }
}

// Copies `bytes` from the resolved source `t` on `pe` to local `dest`.
inline void get_from(const Target& t, void* dest, std::size_t bytes, int pe, Completion c) {
    if (t.direct) {
        copy_direct(dest, t.direct, bytes);
    } else if (c == Completion::local) {
        t.window->get(dest, bytes, pe, t.offset);
    } else {
        t.window->get_nbi(dest, bytes, pe, t.offset);
    }
}

// The same two for a caller that keeps window displacements itself (the
// GASNet extended API's table of routes; its small-operation rate is most
// of an MPI_Put's, so it skips the per-target block-start lookup of
// put_to/get_from): one MPI put or get of `bytes` (at most
// mpi::Window::kMaxAtBytes) at displacement `disp` (Window::displacement)
// of `pe`'s block on window `w`, completed by the window's flushes.
// `serialized`: no other thread completes this window's operations
// meanwhile, so the operation is recorded before the MPI call and nothing
// lives across it (Window::put_nbi_at_recorded_first).
inline void put_at(mpi::Window& w, const void* src, std::size_t bytes, int pe, MPI_Aint disp, bool serialized) {
    if (serialized) w.put_nbi_at_recorded_first(src, bytes, pe, disp);
    else w.put_nbi_at(src, bytes, pe, disp);
}
inline void get_at(mpi::Window& w, void* dest, std::size_t bytes, int pe, MPI_Aint disp, bool serialized) {
    if (serialized) w.get_nbi_at_recorded_first(dest, bytes, pe, disp);
    else w.get_nbi_at(dest, bytes, pe, disp);
}

// The put entry point: copies `bytes` from local `src` to symmetric `dest`
// on `pe`, counted in `ctx`'s team (the default context: world PEs),
// through ctx's windows; completed (remotely) by ctx's quiet.  `c`:
// local -- src reusable on return (blocking put); deferred -- src must not
// change until ctx's quiet (nbi).  Fatal, naming `routine`, for a PE
// outside the team, a non-symmetric dest, or a range past its segment.
inline void put(Context& ctx, const char* routine, void* dest, const void* src, std::size_t bytes, int pe,
                Completion c = Completion::local) {
    const int world = ctx.world_pe(routine, pe);
    put_to(ctx, ctx.resolve(routine, dest, bytes, world), src, bytes, world, c);
}
// The get entry point: copies `bytes` from symmetric `src` on `pe` to local
// `dest` (local: on return; deferred: by ctx's quiet).  Errors as put().
inline void get(Context& ctx, const char* routine, void* dest, const void* src, std::size_t bytes, int pe,
                Completion c = Completion::local) {
    const int world = ctx.world_pe(routine, pe);
    get_from(ctx.resolve(routine, src, bytes, world), dest, bytes, world, c);
}

// Strided shape (§9.6.1.3/4/7/8): nblocks blocks of bsize elements of `elem`
// bytes; block b is at element b*remote_stride of the symmetric side and
// b*local_stride of the local side.
struct Strided {
    std::size_t elem;
    std::ptrdiff_t remote_stride, local_stride;
    std::size_t bsize, nblocks;
};

// Blocking strided put/get (out of line: they loop or build MPI datatypes):
// `pe` counts in ctx's team and ctx's windows carry the transfer.  Errors
// as put() for the whole extent the shape touches.
void put_strided(Context& ctx, const char* routine, void* dest, const void* src, const Strided& shape, int pe);
void get_strided(Context& ctx, const char* routine, void* dest, const void* src, const Strided& shape, int pe);

}  // namespace gasket::rt
