// src/runtime/rma.hpp -- the runtime's RMA entry points.  Every put and get
// of every API passes through put_to and get_from (one per kind), so
// completion tracking, the bounce ring and, later, tool events live here
// once.  Hot: inline.
//
// Units: `bytes` are bytes; strided forms count `elem`-byte elements.
// `routine` names the user-facing call for error messages.
#pragma once

#include <cstring>

#include "bounce.hpp"
#include "context.hpp"
#include "copy.hpp"
#include "fence.hpp"
#include "job.hpp"

namespace gasket::rt {

// How a transfer completes.
enum class Completion {
    local,         // put: src reusable on return; get: dest written on return
    deferred,      // src must not change (dest is not written) until the context's quiet (nbi, bulk)
    joined,        // put: as deferred, and a small put that continues the previous one on both sides
                   // (source and target bytes adjacent) joins the run of the caller's ring, in place
    local_joined,  // put: as local, and a small put is copied into the caller's ring and joins its
                   // run when it continues the previous one at the target
    remote,        // complete at the target (put) or here (get) on return: the operation, then a flush
    caller_fences  // as deferred, except that a direct transfer (load/store) is not noted in the context:
                   // the caller's own synchronization makes the memory fence that completes it
};

namespace detail {
template <bool Serialized>
[[gnu::always_inline]] inline void put_nbi(Window& w, const void* src, std::size_t bytes, int pe, Displacement disp) {
    if (Serialized)
        w.put_nbi_recorded_first(src, bytes, pe, disp);
    else
        w.put_nbi(src, bytes, pe, disp);
}
}  // namespace detail

// The put entry point of both APIs: copies `bytes` from local `src` to the
// resolved target `t` on world PE `pe`, on context `ctx` (which records
// direct stores for its quiet; MPI operations complete with its windows'
// flushes), as `c` says.  `ring`: the caller's bounce ring (a context's,
// attached, that threads do not share, or a GASNet thread's), or null.
// `Serialized`: no other thread completes this window's operations
// meanwhile, so the operation is recorded before the MPI call and nothing
// lives across it (at most Window::kMaxOneCall bytes; GASNet's serialized
// clients, whose ring goes through one window: bounce.hpp's lean forms).
template <bool Serialized = false>
[[gnu::always_inline]] inline void put_to(Context& ctx, BounceRing* ring, const Target& t, const void* src,
                                          std::size_t bytes, int pe, Completion c) {
    if (t.direct) {
        copy_direct(t.direct, src, bytes);
        if (c == Completion::remote)
            rt::full_fence();  // visible now
        else if (c != Completion::caller_fences)
            ctx.note_direct_store();
        return;
    }
    Window& w = *t.window;
    switch (c) {
        case Completion::local:
            if (ring && bytes <= kBounceMax) {
                if (bytes <= kSmallCopyMax) {
                    const char* copy =
                        Serialized ? ring->copy_lean_or_null(src, bytes) : ring->copy_lean_if_sent(w, src, bytes);
                    if (copy) [[likely]]
                        return detail::put_nbi<Serialized>(w, copy, bytes, pe, t.disp);
                }
                return ring->put_nbi_copied(w, pe, t.disp, src, bytes);
            }
            return w.put(src, bytes, pe, t.disp);
        case Completion::joined:
            if (ring && bytes <= kBounceMax) return ring->put_nbi_joined_in_place(w, pe, t.disp, src, bytes);
            return detail::put_nbi<Serialized>(w, src, bytes, pe, t.disp);
        case Completion::local_joined:
            if (ring && bytes <= kBounceMax) {
                if (Serialized && bytes <= kSmallCopyMax && ring->put_nbi_joined_lean(w, pe, t.disp, src, bytes))
                    [[likely]]
                    return;
                return ring->put_nbi_joined(w, pe, t.disp, src, bytes);
            }
            return w.put(src, bytes, pe, t.disp);
        case Completion::deferred:
        case Completion::caller_fences: return detail::put_nbi<Serialized>(w, src, bytes, pe, t.disp);
        case Completion::remote: w.put_nbi(src, bytes, pe, t.disp); return w.flush(pe);
    }
}

// The get entry point of both APIs: copies `bytes` from the resolved
// source `t` on world PE `pe` to local `dest`, as `c` says (`joined`,
// `local_joined` and `caller_fences` are as `deferred`).  `Serialized` as
// for put_to.
template <bool Serialized = false>
[[gnu::always_inline]] inline void get_from(const Target& t, void* dest, std::size_t bytes, int pe, Completion c) {
    if (t.direct) {
        copy_direct(dest, t.direct, bytes);
        if (c == Completion::remote) rt::full_fence();
        return;
    }
    Window& w = *t.window;
    switch (c) {
        case Completion::local: return w.get(dest, bytes, pe, t.disp);
        case Completion::joined:
        case Completion::local_joined:
        case Completion::deferred:
        case Completion::caller_fences:
            if (Serialized) return w.get_nbi_recorded_first(dest, bytes, pe, t.disp);
            return w.get_nbi(dest, bytes, pe, t.disp);
        case Completion::remote: w.get_nbi(dest, bytes, pe, t.disp); return w.flush(pe);
    }
}

// OpenSHMEM's put: copies `bytes` from local `src` to symmetric `dest` on
// `pe`, counted in `ctx`'s team (the default context: world PEs), through
// ctx's windows and ring; completed (remotely) by ctx's quiet.  `c`: local
// -- src reusable on return (blocking put); joined -- src must not change
// until ctx's quiet (nbi; small puts may be joined).  Fatal, naming
// `routine`, for a PE outside the team, a non-symmetric dest, or a range
// past its segment; with bytes == 0 only the PE is checked (Annex C: any
// address, null included, and nothing moves).
[[gnu::always_inline]] inline void put(Context& ctx, const char* routine, void* dest, const void* src,
                                       std::size_t bytes, int pe, Completion c = Completion::local) {
    const int world = ctx.world_pe(routine, pe);
    const Target t = ctx.resolve(routine, dest, bytes, world);
    if (!t.direct && !t.window) [[unlikely]]
        return;                                                             // empty, at any address
    put_to(ctx, t.direct ? nullptr : ctx.ring(), t, src, bytes, world, c);  // a ring only for MPI targets
}
// OpenSHMEM's get: copies `bytes` from symmetric `src` on `pe` to local
// `dest` (local: on return; deferred: by ctx's quiet).  Errors as put().
[[gnu::always_inline]] inline void get(Context& ctx, const char* routine, void* dest, const void* src,
                                       std::size_t bytes, int pe, Completion c = Completion::local) {
    const int world = ctx.world_pe(routine, pe);
    const Target t = ctx.resolve(routine, src, bytes, world);
    if (!t.direct && !t.window) [[unlikely]]
        return;  // empty, at any address
    get_from(t, dest, bytes, world, c);
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
