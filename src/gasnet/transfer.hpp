// src/gasnet/transfer.hpp -- the transfers of both GASNet APIs (the GASNet 1.8
// extended API, gasnet-1.8-spec.md §3.2-3.4, and GASNet-EX's gex_RMA_*):
// node peers by direct copy, other nodes by MPI RMA on the segment window,
// both found in one table of routes.
//
// Each entry point is a lean inline form for the commonest case (a small
// nb/nbi transfer through MPI from a serialized client) that passes every
// other case, unchanged, to one general out-of-line form (transfer.cpp).
//
// Handles (no allocation): 0 is GASNET_INVALID_HANDLE; otherwise the low two
// bits say what completes the operation -- kNode: MPI_Win_flush of the node
// in the upper bits; kAll: with upper bits 0, MPI_Win_flush_all, a memory
// fence and the wait for GASNet-EX's remote atomics in flight (access
// regions, several handles of different kinds), with upper bits 1 only that
// wait (gex_AD_OpNB through an Active Message); kFence (with upper bits 1: 3 itself is
// GEX_EVENT_NO_OP): a memory fence, for a transfer by load and store to a
// node peer.  Flushing completes every operation to that node, a superset
// the spec allows.  Low bits 0 (and not 0): a collective in flight, the
// address of its rt::NbCollective (gex_Coll_*NB), completed by the
// collective, which needs the other members: only its waits block, its
// tests may answer GASNET_ERR_NOT_READY.
// GASNet-EX events are these handles.
#pragma once

#include <gasnet.h>

#include <cstdint>

#include "src/gasp/gasp.hpp"
#include "src/runtime/rma.hpp"
#include "state.hpp"

namespace gasket::gasnet {

struct EpRoute;  // ep_segments.hpp

// Hidden: the library's own, so calls and data are addressed relative to
// the code (no PLT, no GOT), as when they had internal linkage.
#pragma GCC visibility push(hidden)

inline constexpr std::uintptr_t kNode = 1, kAll = 2, kFence = 3;

inline gasnet_handle_t node_handle(gasnet_node_t node) {
    return reinterpret_cast<gasnet_handle_t>((std::uintptr_t(node) << 2) | kNode);
}
inline gasnet_handle_t all_handle() { return reinterpret_cast<gasnet_handle_t>(kAll); }
inline gasnet_handle_t amo_handle() { return reinterpret_cast<gasnet_handle_t>((std::uintptr_t(1) << 2) | kAll); }
inline gasnet_handle_t fence_handle() { return reinterpret_cast<gasnet_handle_t>((std::uintptr_t(1) << 2) | kFence); }
inline bool is_collective(gasnet_handle_t h) {
    const auto v = reinterpret_cast<std::uintptr_t>(h);
    return v != 0 && (v & 3) == 0;
}

// ---- Where each node's segment is ----
// The transfers read only this view of the runtime's routes to the GASNet
// segment (rt::Route: each node's segment address and size, window
// displacement, direct mapping), filled by gasnet_attach (set_routes), so a
// transfer's checks and target are a few loads from one line.  `nodes` and
// `lean_nodes` are 0 before attach, so one comparison rejects a call before
// attach and a node out of range alike.
struct Routes {
    gasnet_node_t nodes = 0;
    const rt::Route* node = nullptr;
    rt::Window* window = nullptr;  // the segment window (MPI path)
    rt::Context* ctx = nullptr;    // the job's default context: completion of every transfer
    // Bytes the lean forms below send through MPI in one call: at most
    // Window::kMaxOneCall when client calls are serialized (GASNET_SEQ,
    // GASNET_PARSYNC), else 0.
    std::size_t lean_max = 0;
    // `nodes` while no GASP tool is attached, else 0: the lean forms' node
    // test then passes every transfer to the forms that raise the events.
    gasnet_node_t lean_nodes = 0;
};
// Hidden (the pragma above): addressed relative to the code, without the GOT.
inline Routes g_routes;

// ---- This thread's state ----
// Small non-bulk puts through MPI are sent from this thread's bounce ring
// (rt::BounceRing), so the caller may reuse its buffer at once; small
// non-bulk implicit-handle puts to adjacent bytes join its run.  Only nbi
// puts join: this thread alone synchronizes them (§3.3.5), while an
// explicit handle may be synchronized by any thread.  A synchronization
// that completes everything (gasnet_wait_syncnbi_*, an access region's or a
// list's flush of all) frees the ring.
//
// Trivially initialized, so each access is a plain thread-pointer load (a
// thread_local with a constructor costs an init check and a call); one
// object, so one address load serves every field.
struct ThreadState {
    // §3.3.5: an implicit-handle operation was issued since this thread's
    // last implicit synchronization (inside an access region: since the
    // region began).  One flag for puts and gets: a synchronization of
    // either kind completes both, a superset the spec allows.
    bool issued;
    bool direct;  // among them, a transfer by load and store: the synchronization fences
    bool in_region;
    bool issued_before_region;  // `issued` when the region began
    rt::BounceRing bounce;      // storage (the thread's) from its first refill
};
[[gnu::tls_model("initial-exec")]] inline thread_local ThreadState t_self;

// How an operation must end.
enum class Sync { blocking, explicit_handle, implicit };

// How an operation must end and whether it is bulk, in one argument (the
// general forms then take six, all in registers, and the lean forms reach
// them with a jump).  `bulk`: src may change only after synchronization
// (§3.3.1); else the caller may reuse it on return.
constexpr unsigned mode(Sync sync, bool bulk) { return unsigned(sync) | (bulk ? 4u : 0u); }

// ---- Out of line (transfer.cpp) ----
// Every transfer the lean forms below do not take: checked (fatal for a
// bad node or a range outside the segment, naming `routine`), with GASP
// events when a tool is attached.  `how` is mode(sync, bulk).
[[gnu::noinline]] gasnet_handle_t put_cold(const char* routine, gasnet_node_t node, void* dest, const void* src,
                                           std::size_t nbytes, unsigned how);
[[gnu::noinline]] gasnet_handle_t get_cold(const char* routine, void* dest, gasnet_node_t node, const void* src,
                                           std::size_t nbytes, Sync sync);
// GASNet-EX: a put or get whose remote side is the bound segment of the
// endpoint of index `index` (>= 1, made by gex_EP_Create) of jobrank
// `node`, published to this process (ep_segments.hpp): as put_cold /
// get_cold, through the job's dynamic window, or by device_transfer when that
// segment is device memory or `local_ctx` is not null (the local buffer is
// in this process's device segment: then, and only then, `index` may be 0,
// the attach segment); fatal, naming `routine`, when nothing is published for that
// endpoint or the range is outside its segment.
gasnet_handle_t put_ep(const char* routine, gasnet_node_t node, gex_EP_Index_t index, void* dest, const void* src,
                       std::size_t nbytes, unsigned how, void* local_ctx = nullptr);
gasnet_handle_t get_ep(const char* routine, void* dest, gasnet_node_t node, gex_EP_Index_t index, const void* src,
                       std::size_t nbytes, Sync sync, void* local_ctx = nullptr);
// A transfer where device memory takes part (gasnet-ex-memory-kinds.txt
// §4.1): `nbytes` bytes between `local` (this process's; local_ctx, when
// not null, says it lies in a device segment of this process's endpoint
// and is that kind's context) and `remote` in the segment of endpoint
// `index` of jobrank `node` (0: its attach segment), put when `put`, else
// get.  One device copy (rt::device_copy), complete locally and remotely on
// return: the result is GASNET_INVALID_HANDLE.  Fatal, naming `routine`, as
// locate / route_ep for the range, and when the remote segment cannot be
// reached by a copy from here (another node or the node fast path off:
// issue 18's next step; CUDA IPC refused: the reason).
gasnet_handle_t device_transfer(const char* routine, gasnet_node_t node, gex_EP_Index_t index, void* remote,
                                void* local, std::size_t nbytes, bool put, void* local_ctx);
// The remote side of [addr, +nbytes) on jobrank `node` in its attach
// segment.  Fatal, naming `routine`, for a bad node or a range outside the
// segment (for 0 bytes only the node is checked).
rt::Target locate(const char* routine, gasnet_node_t node, const void* addr, std::size_t nbytes);
// The route to the published bound segment of created endpoint `index`
// (>= 1) of jobrank `node` (ep_segments.hpp; host or device memory) and the
// offset of [addr, +nbytes) in it, in bytes (rt::target_of makes a host
// segment's target of them; only device_transfer reaches a device one).  Fatal,
// naming `routine`, for a bad node, nothing published there, or a range
// outside the segment (for 0 bytes only the node and the publication are
// checked).
const EpRoute& route_ep(const char* routine, gasnet_node_t node, gex_EP_Index_t index, const void* addr,
                        std::size_t nbytes, std::size_t& offset);
// gasnet_memset*: `nbytes` bytes of `val` at [dest, +nbytes) of node's
// segment, synchronized as `sync` says.
gasnet_handle_t memset_remote(const char* routine, gasnet_node_t node, void* dest, int val, std::size_t nbytes,
                              Sync sync);
// Completes what handle h stands for (GASNET_INVALID_HANDLE: nothing).
void complete(gasnet_handle_t h);
// As complete, with GASP_GASNET_NB_SYNC of kind `kind` (gasp_gasnet_sync_t) around it.
[[gnu::noinline, gnu::cold]] void complete_traced(gasnet_handle_t h, int kind);
// The try forms (gasnet_try_syncnb*, gex_Event_Test*): as the waits, except
// that a collective not yet complete, or an event that would wait for the
// reply of a GASNet-EX atomic (gex_AD_OpNB's, or "every operation" while
// one is in flight), stays (GASNET_ERR_NOT_READY); they never poll.  One
// handle: GASNET_OK once complete.  An array: `some` false, GASNET_OK when
// every handle is complete (each complete one set invalid); `some` true,
// GASNET_OK when one completed in this call or none was valid.
int try_one(gasnet_handle_t h, int kind);
// An array holding GEX_EVENT_NO_OP is fatal, naming `routine`.
int try_all(const char* routine, gasnet_handle_t* handles, std::size_t n, int kind, bool some);
// Completes handles[0, n) and sets them to GASNET_INVALID_HANDLE; `kind`
// as for complete_traced.  Fatal, naming `routine`, when one of them is
// GEX_EVENT_NO_OP (checked in the pass that looks for collectives' events).
void complete_all(const char* routine, gasnet_handle_t* handles, std::size_t n, int kind);
// Fatal, naming `routine`: GEX_EVENT_NO_OP was given to synchronize.
[[noreturn, gnu::cold, gnu::noinline]] void no_op_event(const char* routine);
// The calling thread's implicit-handle operations (§3.3.5); fatal inside
// an access region, naming `routine`.
void sync_implicit(const char* routine, int kind);
// The try forms of it (gasnet_try_syncnbi_*, gex_NBI_Test): the same
// completion, except that GASNet-EX atomics (gex_AD_OpNBI) whose replies
// have not arrived are not waited for -- they stay for a later sync, and
// make the result GASNET_ERR_NOT_READY when `amos` (the try covers
// atomics: gasnet_try_syncnbi_all, gex_NBI_Test with GEX_EC_RMW), else
// GASNET_OK.  No poll: the reply comes with the progress thread or a
// later poll or wait.  Fatal inside an access region, naming `routine`.
int try_implicit(const char* routine, int kind, bool amos);
// §3.3.6 access regions of the calling thread; fatal when nested / none open.
void begin_region();
gasnet_handle_t end_region();
// Fatal, naming `routine`, unless 1 <= nbytes <= SIZEOF_GASNET_REGISTER_VALUE_T
// (inline: the value forms are as hot as the transfers).
[[noreturn, gnu::cold, gnu::noinline]] void bad_value_size(const char* routine, std::size_t nbytes);
inline void check_value_size(const char* routine, std::size_t nbytes) {
    if (nbytes - 1 >= SIZEOF_GASNET_REGISTER_VALUE_T) [[unlikely]]  // 0 wraps around
        bad_value_size(routine, nbytes);
}

// An explicit handle's sync (gasnet_wait_syncnb, gasnet_try_syncnb, gex_Event_Wait/Test).
inline void sync_one(gasnet_handle_t h, int kind) {
    if (!h) return;
    if (gasp::on()) [[unlikely]]
        return complete_traced(h, kind);
    complete(h);
}

// ---- The lean forms: the commonest cases, inline ----
// Direct copies, and puts and gets through MPI with client calls
// serialized of at most lean_max bytes (non-bulk puts: at most
// rt::kSmallCopyMax, copied into the thread's ring by rt::put_to's lean
// forms, which refill it out of line); any other case is passed whole to
// the general form.  The non-blocking lean forms record the operation
// before the MPI call (rt::put_to<true>) and leave nothing to do after it,
// so the compiler saves few registers, and they test what decides the
// case in the fewest instructions: on a 15-18 ns MPI_Put, every
// nanosecond is 6% of the rate (docs/performance.md).  Blocking ones
// record after the call (their own flush must find it).

// The route when [addr, +nbytes) lies in `node`'s segment and nbytes >= 1,
// else null; sets `offset`, the byte offset of addr in the segment.
[[gnu::always_inline]] inline const rt::Route* lean(gasnet_node_t node, const void* addr, std::size_t nbytes,
                                                    std::size_t& offset) {
    if (node >= g_routes.lean_nodes) [[unlikely]]
        return nullptr;
    const rt::Route& r = g_routes.node[node];
    offset = reinterpret_cast<std::uintptr_t>(addr) - r.base;
    // 1 <= nbytes <= size - offset
    return offset < r.size && nbytes - 1 < r.size - offset ? &r : nullptr;
}

// A direct copy (load/store to a node peer, or loopback) is done on return.
// Blocking: fenced at once, visible before anything that follows.
// Otherwise fenced by its synchronization, not one fence per transfer: an
// explicit handle's (fence_handle()), or the thread's nbi sync (`direct`).
[[gnu::always_inline]] inline rt::Completion direct_completion(Sync sync) {
    return sync == Sync::blocking ? rt::Completion::remote : rt::Completion::caller_fences;
}
[[gnu::always_inline]] inline gasnet_handle_t direct_handle(Sync sync) {
    if (sync == Sync::implicit) t_self.issued = t_self.direct = true;
    return sync == Sync::explicit_handle ? fence_handle() : GASNET_INVALID_HANDLE;
}

[[gnu::always_inline]] inline gasnet_handle_t put(const char* routine, gasnet_node_t node, void* dest, const void* src,
                                                  std::size_t nbytes, Sync sync, bool bulk) {
    std::size_t offset;
    if (const rt::Route* r = lean(node, dest, nbytes, offset)) [[likely]] {
        rt::Context& ctx = *g_routes.ctx;
        if (r->direct) {
            rt::put_to(ctx, nullptr, rt::Target{r->direct + offset, nullptr, 0}, src, nbytes, int(node),
                       direct_completion(sync));
            return direct_handle(sync);
        }
        const rt::Target t = rt::target_of(*r, g_routes.window, offset);
        if (nbytes <= g_routes.lean_max) {
            if (sync == Sync::blocking) {  // the flush completes it locally too: no copy
                rt::put_to(ctx, nullptr, t, src, nbytes, int(node), rt::Completion::remote);
                return GASNET_INVALID_HANDLE;
            }
            ThreadState& ts = t_self;
            if (bulk) {
                if (sync == Sync::implicit) ts.issued = true;
                rt::put_to<true>(ctx, nullptr, t, src, nbytes, int(node), rt::Completion::deferred);
                return sync == Sync::implicit ? GASNET_INVALID_HANDLE : node_handle(node);
            }
            if (nbytes <= rt::kSmallCopyMax) {
                if (sync == Sync::implicit) {
                    ts.issued = true;
                    rt::put_to<true>(ctx, &ts.bounce, t, src, nbytes, int(node), rt::Completion::local_joined);
                    return GASNET_INVALID_HANDLE;
                }
                rt::put_to<true>(ctx, &ts.bounce, t, src, nbytes, int(node), rt::Completion::local);
                return node_handle(node);
            }
        }
    }
    return put_cold(routine, node, dest, src, nbytes, mode(sync, bulk));
}

[[gnu::always_inline]] inline gasnet_handle_t get(const char* routine, void* dest, gasnet_node_t node, const void* src,
                                                  std::size_t nbytes, Sync sync) {
    std::size_t offset;
    if (const rt::Route* r = lean(node, src, nbytes, offset)) [[likely]] {
        if (r->direct) {
            rt::get_from(rt::Target{r->direct + offset, nullptr, 0}, dest, nbytes, int(node), direct_completion(sync));
            return direct_handle(sync);
        }
        const rt::Target t = rt::target_of(*r, g_routes.window, offset);
        if (nbytes <= g_routes.lean_max) {
            if (sync == Sync::blocking) {
                rt::get_from(t, dest, nbytes, int(node), rt::Completion::remote);
                return GASNET_INVALID_HANDLE;
            }
            if (sync == Sync::implicit) t_self.issued = true;
            rt::get_from<true>(t, dest, nbytes, int(node), rt::Completion::deferred);
            return sync == Sync::implicit ? GASNET_INVALID_HANDLE : node_handle(node);
        }
    }
    return get_cold(routine, dest, node, src, nbytes, sync);
}

#pragma GCC visibility pop

}  // namespace gasket::gasnet
