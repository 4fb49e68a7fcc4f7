// src/gasnet/extended.cpp -- the GASNet extended API's transfers
// (gasnet-1.8-spec.md §3.2-3.4): node peers by direct copy, other nodes by
// MPI RMA on the segment window, both found in one table of routes.
//
// Each entry point is a lean inline form for the commonest case (a small
// nb/nbi transfer through MPI from a serialized client) that passes every
// other case, unchanged, to one general out-of-line form.
//
// Handles (no allocation): 0 is GASNET_INVALID_HANDLE; otherwise the low two
// bits say what completes the operation -- kNode: MPI_Win_flush of the node
// in the upper bits; kAll: MPI_Win_flush_all (access regions).  Flushing
// completes every operation to that node, a superset the spec allows.
#include <gasnet.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <vector>

#include "src/gasp/gasp.hpp"
#include "src/runtime/rma.hpp"
#include "state.hpp"

namespace gasket::gasnet {

namespace {

constexpr std::uintptr_t kNode = 1, kAll = 2;

gasnet_handle_t node_handle(gasnet_node_t node) {
    return reinterpret_cast<gasnet_handle_t>((std::uintptr_t(node) << 2) | kNode);
}
gasnet_handle_t all_handle() { return reinterpret_cast<gasnet_handle_t>(kAll); }

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
// Internal linkage: addressed relative to the code, without the GOT.
Routes g_routes;

[[noreturn, gnu::cold, gnu::noinline]] void bad_node(const char* routine, gasnet_node_t node) {
    if (!g_state.attached) rt::fatal(routine, "called before gasnet_attach");
    rt::fatal(routine, "node %u is out of range: the job has nodes 0..%u", node, g_routes.nodes - 1);
}
[[noreturn, gnu::cold, gnu::noinline]] void outside_segment(const char* routine, gasnet_node_t node, const void* addr,
                                                            std::size_t nbytes) {
    const gasnet_seginfo_t& seg = g_state.segments[node];
    rt::fatal(routine, "[%p, +%zu bytes) is outside node %u's segment [%p, +%zu bytes)", addr, nbytes, node, seg.addr,
              std::size_t(seg.size));
}

// A transfer's remote side: the target of [addr, +nbytes) in `node`'s
// segment.  Fatal for a bad node or a range outside the segment (§3:
// extended API errors are fatal); for 0 bytes only the node is checked.
rt::Target locate(const char* routine, gasnet_node_t node, const void* addr, std::size_t nbytes) {
    if (node >= g_routes.nodes) [[unlikely]]
        bad_node(routine, node);
    const rt::Route& r = g_routes.node[node];
    const std::size_t size = g_state.segments[node].size;
    const std::size_t offset = reinterpret_cast<std::uintptr_t>(addr) - r.base;  // huge when below
    if ((offset > size || nbytes > size - offset) && nbytes != 0) [[unlikely]]
        outside_segment(routine, node, addr, nbytes);
    return rt::target_of(r, g_routes.window, offset);
}

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
    bool in_region;
    bool issued_before_region;  // `issued` when the region began
    rt::BounceRing bounce;      // storage (the thread's) from its first refill
};
[[gnu::tls_model("initial-exec")]] thread_local ThreadState t_self;

// How an operation must end.
enum class Sync { blocking, explicit_handle, implicit };

// After an MPI operation to `node` (blocking ones completed themselves;
// implicit: see ThreadState::issued).
gasnet_handle_t finish(gasnet_node_t node, Sync sync) {
    switch (sync) {
        case Sync::blocking: return GASNET_INVALID_HANDLE;
        case Sync::explicit_handle: return node_handle(node);
        case Sync::implicit: t_self.issued = true; return GASNET_INVALID_HANDLE;
    }
    return GASNET_INVALID_HANDLE;
}

// ---- The general forms: every case, checked, out of line ----

// How an operation must end and whether it is bulk, in one argument (the
// general forms then take six, all in registers, and the lean forms reach
// them with a jump).  `bulk`: src may change only after synchronization
// (§3.3.1); else the caller may reuse it on return.
constexpr unsigned mode(Sync sync, bool bulk) { return unsigned(sync) | (bulk ? 4u : 0u); }

// Every put.
[[gnu::noinline]] gasnet_handle_t put_general(const char* routine, gasnet_node_t node, void* dest, const void* src,
                                              std::size_t nbytes, unsigned how) {
    const Sync sync = Sync(how & 3);
    const bool bulk = (how & 4) != 0;
    const rt::Target t = locate(routine, node, dest, nbytes);
    if (nbytes == 0) return GASNET_INVALID_HANDLE;
    rt::Context& ctx = *g_routes.ctx;
    if (t.direct) {  // complete at once, visible before anything that follows
        rt::put_to(ctx, nullptr, t, src, nbytes, int(node), rt::Completion::remote);
        return GASNET_INVALID_HANDLE;
    }
    ThreadState& ts = t_self;
    rt::Completion c = rt::Completion::deferred;
    if (sync == Sync::blocking)
        c = rt::Completion::remote;
    else if (!bulk && nbytes > rt::kBounceMax)
        c = rt::Completion::local;  // locally complete before returning
    else if (!bulk)
        c = sync == Sync::implicit ? rt::Completion::local_joined : rt::Completion::local;  // from the ring
    rt::put_to(ctx, &ts.bounce, t, src, nbytes, int(node), c);
    return finish(node, sync);
}

// Every get (bulk or not: the destination is written by the time the get
// is synchronized either way).
[[gnu::noinline]] gasnet_handle_t get_general(const char* routine, void* dest, gasnet_node_t node, const void* src,
                                              std::size_t nbytes, Sync sync) {
    const rt::Target t = locate(routine, node, src, nbytes);
    if (nbytes == 0) return GASNET_INVALID_HANDLE;
    if (t.direct) {  // complete at once, visible before anything that follows
        rt::get_from(t, dest, nbytes, int(node), rt::Completion::remote);
        return GASNET_INVALID_HANDLE;
    }
    rt::get_from(t, dest, nbytes, int(node),
                 sync == Sync::blocking ? rt::Completion::remote : rt::Completion::deferred);
    return finish(node, sync);
}

// ---- GASP ----
// A blocking put or get raises GASP_SHMEM_PUT / GASP_SHMEM_GET (ctx NULL,
// strides 1, bsize = nbytes), an explicit- or implicit-handle one
// GASP_GASNET_NB_{PUT,GET}_INIT, whose END adds the handle
// (GASP_NB_TRIVIAL for GASNET_INVALID_HANDLE: done at once, or an
// implicit-handle operation), S/E around the transfer (include/gasp_shmem.h).
// With a tool attached, Routes::lean_nodes is 0, so the lean forms below
// pass every transfer to put_cold/get_cold: without one, an event site
// costs nothing on the lean forms (the node test they make anyway) and one
// test of gasp::on() on the general forms.
[[gnu::cold]] void rma_event(unsigned tag, gasp_evttype_t type, Sync sync, gasnet_node_t node, void* dest,
                             const void* src, std::size_t nbytes, gasnet_handle_t h) {
    void* const no_ctx = nullptr;
    const int pe = int(node);
    const std::ptrdiff_t one = 1;
    if (type == GASP_END && sync != Sync::blocking)
        gasp::notify(tag, type, no_ctx, pe, dest, src, nbytes, one, one, nbytes, static_cast<void*>(h));
    else
        gasp::notify(tag, type, no_ctx, pe, dest, src, nbytes, one, one, nbytes);
}
[[gnu::noinline, gnu::cold]] gasnet_handle_t put_traced(const char* routine, gasnet_node_t node, void* dest,
                                                        const void* src, std::size_t nbytes, unsigned how) {
    const Sync sync = Sync(how & 3);
    const unsigned tag = sync == Sync::blocking ? GASP_SHMEM_PUT : GASP_GASNET_NB_PUT_INIT;
    rma_event(tag, GASP_START, sync, node, dest, src, nbytes, GASNET_INVALID_HANDLE);
    const gasnet_handle_t h = put_general(routine, node, dest, src, nbytes, how);
    rma_event(tag, GASP_END, sync, node, dest, src, nbytes, h);
    return h;
}
[[gnu::noinline, gnu::cold]] gasnet_handle_t get_traced(const char* routine, void* dest, gasnet_node_t node,
                                                        const void* src, std::size_t nbytes, Sync sync) {
    const unsigned tag = sync == Sync::blocking ? GASP_SHMEM_GET : GASP_GASNET_NB_GET_INIT;
    rma_event(tag, GASP_START, sync, node, dest, src, nbytes, GASNET_INVALID_HANDLE);
    const gasnet_handle_t h = get_general(routine, dest, node, src, nbytes, sync);
    rma_event(tag, GASP_END, sync, node, dest, src, nbytes, h);
    return h;
}
// Every transfer the lean forms do not take.
[[gnu::noinline]] gasnet_handle_t put_cold(const char* routine, gasnet_node_t node, void* dest, const void* src,
                                           std::size_t nbytes, unsigned how) {
    if (gasp::on()) [[unlikely]]
        return put_traced(routine, node, dest, src, nbytes, how);
    return put_general(routine, node, dest, src, nbytes, how);
}
[[gnu::noinline]] gasnet_handle_t get_cold(const char* routine, void* dest, gasnet_node_t node, const void* src,
                                           std::size_t nbytes, Sync sync) {
    if (gasp::on()) [[unlikely]]
        return get_traced(routine, dest, node, src, nbytes, sync);
    return get_general(routine, dest, node, src, nbytes, sync);
}

// ---- The lean forms: the commonest cases, inline ----
// Direct copies, and puts and gets through MPI with client calls
// serialized of at most lean_max bytes (non-bulk puts: at most
// rt::kLeanCopyMax, copied into the thread's ring by rt::put_to's lean
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

[[gnu::always_inline]] inline gasnet_handle_t put(const char* routine, gasnet_node_t node, void* dest, const void* src,
                                                  std::size_t nbytes, Sync sync, bool bulk) {
    std::size_t offset;
    if (const rt::Route* r = lean(node, dest, nbytes, offset)) [[likely]] {
        rt::Context& ctx = *g_routes.ctx;
        if (r->direct) {  // complete at once, visible before anything that follows
            rt::put_to(ctx, nullptr, rt::Target{r->direct + offset, nullptr, 0}, src, nbytes, int(node),
                       rt::Completion::remote);
            return GASNET_INVALID_HANDLE;
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
            if (nbytes <= rt::kLeanCopyMax) {
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
        if (r->direct) {  // complete at once, visible before anything that follows
            rt::get_from(rt::Target{r->direct + offset, nullptr, 0}, dest, nbytes, int(node), rt::Completion::remote);
            return GASNET_INVALID_HANDLE;
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

// memset: direct, or puts of this thread's buffer filled with the byte,
// up to 64 KiB at a time, through put_general as non-bulk puts in the
// caller's synchronization (the buffer may be refilled at once: up to
// rt::kBounceMax bytes go from the bounce ring, larger chunks complete
// locally).  Not a flush per call: on MPIs whose RMA needs the target
// inside MPI (MPICH), 65535 memset_nbi each waiting for a round trip to a
// busy target took over a minute on a loaded machine.
gasnet_handle_t memset_untraced(const char* routine, gasnet_node_t node, void* dest, int val, std::size_t nbytes,
                                Sync sync) {
    const rt::Target t = locate(routine, node, dest, nbytes);
    if (nbytes == 0) return GASNET_INVALID_HANDLE;
    if (t.direct) {
        std::memset(t.direct, val, nbytes);
        std::atomic_thread_fence(std::memory_order_seq_cst);
        return GASNET_INVALID_HANDLE;
    }
    thread_local std::vector<unsigned char> fill;
    const std::size_t chunk = std::min<std::size_t>(nbytes, std::size_t(1) << 16);
    fill.assign(chunk, static_cast<unsigned char>(val));
    gasnet_handle_t h = GASNET_INVALID_HANDLE;
    for (std::size_t done = 0; done < nbytes; done += chunk)
        h = put_general(routine, node, static_cast<char*>(dest) + done, fill.data(), std::min(chunk, nbytes - done),
                        mode(sync, false));
    return h;
}

// GASP: GASP_GASNET_MEMSET S/E around every memset (END adds the handle,
// GASP_NB_TRIVIAL for GASNET_INVALID_HANDLE).  A memset costs a memory
// fence at least (tens of ns): one gasp::on() test.
[[gnu::noinline, gnu::cold]] gasnet_handle_t memset_traced(const char* routine, gasnet_node_t node, void* dest, int val,
                                                           std::size_t nbytes, Sync sync) {
    gasp::notify(GASP_GASNET_MEMSET, GASP_START, int(node), dest, val, nbytes);
    const gasnet_handle_t h = memset_untraced(routine, node, dest, val, nbytes, sync);
    gasp::notify(GASP_GASNET_MEMSET, GASP_END, int(node), dest, val, nbytes, static_cast<void*>(h));
    return h;
}
gasnet_handle_t memset_remote(const char* routine, gasnet_node_t node, void* dest, int val, std::size_t nbytes,
                              Sync sync) {
    if (gasp::on()) [[unlikely]]
        return memset_traced(routine, node, dest, val, nbytes, sync);
    return memset_untraced(routine, node, dest, val, nbytes, sync);
}

// GASP: GASP_GASNET_NB_SYNC S/E around a sync that has something to
// complete (a valid handle; implicit-handle operations outstanding on the
// thread), with the sync's kind (gasp_gasnet_sync_t).  A sync with nothing
// to complete raises nothing: it costs a few instructions, which a test
// would slow measurably, and §5.4.6 tells tools to ignore syncs of
// GASP_NB_TRIVIAL anyway.  Where there is something to complete the sync is
// an MPI flush (hundreds of ns): one gasp::on() test there.
[[gnu::cold]] void sync_event(gasp_evttype_t type, void* handle, int kind, std::size_t count) {
    gasp::notify(GASP_GASNET_NB_SYNC, type, handle, kind, count, int(GASNET_OK));
}

// Completes what handle h stands for.  A valid handle was made by an MPI
// transfer, so the job is attached.
void complete(gasnet_handle_t h) {
    const auto v = reinterpret_cast<std::uintptr_t>(h);
    if (!v) return;
    if ((v & 3) == kNode) {
        g_routes.ctx->flush(int(v >> 2));
    } else {
        ThreadState& t = t_self;
        t.bounce.issue_run();
        g_routes.ctx->flush_all();
        t.bounce.completed();
    }
}

// Completes handles[0, n) and marks them invalid: one flush of their node
// when every valid handle names the same node, else of every node.  After
// the first valid handle, one pass of plain arithmetic, which vectorizes:
// a handle's low two bits are 0 (invalid), kNode or kAll, so
// ((v & 3) + 1) >> 1 is 1 exactly for valid ones.
void complete_from(gasnet_handle_t* handles, std::size_t n, std::size_t i);
[[gnu::noinline, gnu::cold]] void complete_all_traced(gasnet_handle_t* handles, std::size_t n, std::size_t i,
                                                      int kind) {
    sync_event(GASP_START, static_cast<void*>(handles), kind, n);
    complete_from(handles, n, i);
    sync_event(GASP_END, static_cast<void*>(handles), kind, n);
}
void complete_all(gasnet_handle_t* handles, std::size_t n, int kind) {
    static_assert(sizeof(gasnet_handle_t) == sizeof(std::uintptr_t) && kNode == 1 && kAll == 2);
    std::size_t i = 0;
    while (i < n && handles[i] == GASNET_INVALID_HANDLE) ++i;
    if (i == n) return;
    if (gasp::on()) [[unlikely]]
        return complete_all_traced(handles, n, i, kind);
    complete_from(handles, n, i);
}
// complete_all from handles[i], the first valid one.
void complete_from(gasnet_handle_t* handles, std::size_t n, std::size_t i) {
    const auto first = reinterpret_cast<std::uintptr_t>(handles[i]);
    std::uintptr_t differ = 0;
    for (; i < n; ++i) {
        const auto v = reinterpret_cast<std::uintptr_t>(handles[i]);
        const std::uintptr_t valid = 0 - (((v & 3) + 1) >> 1);  // all ones when valid
        differ |= (v ^ first) & valid;
        handles[i] = GASNET_INVALID_HANDLE;
    }
    complete(differ != 0 ? all_handle() : reinterpret_cast<gasnet_handle_t>(first));
}

void check_value_size(const char* routine, std::size_t nbytes) {
    if (nbytes == 0 || nbytes > SIZEOF_GASNET_REGISTER_VALUE_T) [[unlikely]]
        rt::fatal(routine, "nbytes %zu is not in 1..%d (SIZEOF_GASNET_REGISTER_VALUE_T)", nbytes,
                  SIZEOF_GASNET_REGISTER_VALUE_T);
}

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "value put/get copy the low-order bytes first");

// gasnet_wait_syncnbi_{puts,gets,all}: completes everything on the
// segment window (both kinds) if this thread issued an implicit-handle
// operation since its last synchronization.
void flush_implicit(ThreadState& t) {
    t.bounce.issue_run();  // the flush completes puts too, so none may stay unsent
    g_routes.ctx->flush_all();
    t.issued = false;
    t.bounce.completed();
}
[[gnu::noinline, gnu::cold]] void flush_implicit_traced(ThreadState& t, int kind) {
    sync_event(GASP_START, GASP_NB_TRIVIAL, kind, 0);
    flush_implicit(t);
    sync_event(GASP_END, GASP_NB_TRIVIAL, kind, 0);
}
void sync_implicit(const char* routine, int kind) {
    ThreadState& t = t_self;
    if (t.in_region) [[unlikely]]
        rt::fatal(routine, "called inside an access region (GASNet 1.8 §3.3.6)");
    if (!t.issued) return;
    if (gasp::on()) [[unlikely]]
        return flush_implicit_traced(t, kind);
    flush_implicit(t);
}

// An explicit handle's sync (gasnet_wait_syncnb, gasnet_try_syncnb).
[[gnu::noinline, gnu::cold]] void complete_traced(gasnet_handle_t h, int kind) {
    sync_event(GASP_START, static_cast<void*>(h), kind, 1);
    complete(h);
    sync_event(GASP_END, static_cast<void*>(h), kind, 1);
}
inline void sync_one(gasnet_handle_t h, int kind) {
    if (!h) return;
    if (gasp::on()) [[unlikely]]
        return complete_traced(h, kind);
    complete(h);
}

void begin_region() {
    ThreadState& t = t_self;
    if (t.in_region)
        rt::fatal("gasnet_begin_nbi_accessregion", "an access region is already open: regions do not nest");
    t.in_region = true;
    t.issued_before_region = t.issued;
    t.issued = false;
}

// The region's handle: its operations are all handed to MPI here (a run
// may hold some), so any thread may complete the handle.
gasnet_handle_t end_region() {
    ThreadState& t = t_self;
    if (!t.in_region)
        rt::fatal("gasnet_end_nbi_accessregion", "no access region is open (gasnet_begin_nbi_accessregion)");
    t.in_region = false;
    const bool issued = t.issued;
    t.issued = t.issued_before_region;
    if (!issued) return GASNET_INVALID_HANDLE;
    t.bounce.issue_run();
    return all_handle();
}

}  // namespace

void set_routes(rt::Job& j) {
    const bool serialized = g_state.thread_mode != 2;  // not GASNET_PAR
    g_routes = {gasnet_node_t(j.n_pes), j.heap.route.data(), j.heap.window, j.default_ctx.get(),
                j.heap.window && serialized ? rt::Window::kMaxOneCall : 0};
}

void open_untraced_path() { g_routes.lean_nodes = gasp::on() ? 0 : g_routes.nodes; }

}  // namespace gasket::gasnet

using namespace gasket;
using gasnet::Sync;

extern "C" {

// ---- §3.2 blocking, §3.3.2 explicit handle, §3.3.4 implicit handle ----
// One family per synchronization: gasnet_{get,put}SUFFIX[_bulk] and
// gasnet_memsetSUFFIX.  The non-bulk puts may reuse src at once
// (bulk = false); the bulk ones only once synchronized.
#define GASKET_TRANSFERS(SUFFIX, RET, SYNC)                                                                      \
    RET gasnet_get##SUFFIX(void* dest, gasnet_node_t node, void* src, size_t nbytes) noexcept {                  \
        return static_cast<RET>(gasnet::get("gasnet_get" #SUFFIX, dest, node, src, nbytes, SYNC));               \
    }                                                                                                            \
    RET gasnet_put##SUFFIX(gasnet_node_t node, void* dest, void* src, size_t nbytes) noexcept {                  \
        return static_cast<RET>(gasnet::put("gasnet_put" #SUFFIX, node, dest, src, nbytes, SYNC, false));        \
    }                                                                                                            \
    RET gasnet_get##SUFFIX##_bulk(void* dest, gasnet_node_t node, void* src, size_t nbytes) noexcept {           \
        return static_cast<RET>(gasnet::get("gasnet_get" #SUFFIX "_bulk", dest, node, src, nbytes, SYNC));       \
    }                                                                                                            \
    RET gasnet_put##SUFFIX##_bulk(gasnet_node_t node, void* dest, void* src, size_t nbytes) noexcept {           \
        return static_cast<RET>(gasnet::put("gasnet_put" #SUFFIX "_bulk", node, dest, src, nbytes, SYNC, true)); \
    }                                                                                                            \
    RET gasnet_memset##SUFFIX(gasnet_node_t node, void* dest, int val, size_t nbytes) noexcept {                 \
        return static_cast<RET>(gasnet::memset_remote("gasnet_memset" #SUFFIX, node, dest, val, nbytes, SYNC));  \
    }
GASKET_TRANSFERS(, void, Sync::blocking)
GASKET_TRANSFERS(_nb, gasnet_handle_t, Sync::explicit_handle)
GASKET_TRANSFERS(_nbi, void, Sync::implicit)
#undef GASKET_TRANSFERS

// ---- §3.3.3 explicit synchronization.  Completing is an MPI flush, which
// needs nothing from the target, so try completes too and returns GASNET_OK.
void gasnet_wait_syncnb(gasnet_handle_t handle) noexcept { gasnet::sync_one(handle, GASP_GASNET_SYNC_WAIT_NB); }
int gasnet_try_syncnb(gasnet_handle_t handle) noexcept {
    gasnet::sync_one(handle, GASP_GASNET_SYNC_TRY_NB);
    return GASNET_OK;
}
void gasnet_wait_syncnb_all(gasnet_handle_t* handles, size_t numhandles) noexcept {
    gasnet::complete_all(handles, numhandles, GASP_GASNET_SYNC_WAIT_NB_ALL);
}
int gasnet_try_syncnb_all(gasnet_handle_t* handles, size_t numhandles) noexcept {
    gasnet::complete_all(handles, numhandles, GASP_GASNET_SYNC_TRY_NB_ALL);
    return GASNET_OK;
}
void gasnet_wait_syncnb_some(gasnet_handle_t* handles, size_t numhandles) noexcept {
    gasnet::complete_all(handles, numhandles, GASP_GASNET_SYNC_WAIT_NB_SOME);
}
int gasnet_try_syncnb_some(gasnet_handle_t* handles, size_t numhandles) noexcept {
    gasnet::complete_all(handles, numhandles, GASP_GASNET_SYNC_TRY_NB_SOME);
    return GASNET_OK;
}

// ---- §3.3.5 implicit synchronization ----
void gasnet_wait_syncnbi_gets(void) noexcept {
    gasnet::sync_implicit("gasnet_wait_syncnbi_gets", GASP_GASNET_SYNC_WAIT_NBI_GETS);
}
void gasnet_wait_syncnbi_puts(void) noexcept {
    gasnet::sync_implicit("gasnet_wait_syncnbi_puts", GASP_GASNET_SYNC_WAIT_NBI_PUTS);
}
void gasnet_wait_syncnbi_all(void) noexcept {
    gasnet::sync_implicit("gasnet_wait_syncnbi_all", GASP_GASNET_SYNC_WAIT_NBI_ALL);
}
int gasnet_try_syncnbi_gets(void) noexcept {
    gasnet::sync_implicit("gasnet_try_syncnbi_gets", GASP_GASNET_SYNC_TRY_NBI_GETS);
    return GASNET_OK;
}
int gasnet_try_syncnbi_puts(void) noexcept {
    gasnet::sync_implicit("gasnet_try_syncnbi_puts", GASP_GASNET_SYNC_TRY_NBI_PUTS);
    return GASNET_OK;
}
int gasnet_try_syncnbi_all(void) noexcept {
    gasnet::sync_implicit("gasnet_try_syncnbi_all", GASP_GASNET_SYNC_TRY_NBI_ALL);
    return GASNET_OK;
}

// ---- §3.3.6 access regions ----
void gasnet_begin_nbi_accessregion(void) noexcept { gasnet::begin_region(); }
gasnet_handle_t gasnet_end_nbi_accessregion(void) noexcept { return gasnet::end_region(); }

// ---- §3.4 register-memory operations ----
void gasnet_put_val(gasnet_node_t node, void* dest, gasnet_register_value_t value, size_t nbytes) noexcept {
    gasnet::check_value_size("gasnet_put_val", nbytes);
    gasnet::put("gasnet_put_val", node, dest, &value, nbytes, Sync::blocking, false);
}
gasnet_handle_t gasnet_put_nb_val(gasnet_node_t node, void* dest, gasnet_register_value_t value,
                                  size_t nbytes) noexcept {
    gasnet::check_value_size("gasnet_put_nb_val", nbytes);
    return gasnet::put("gasnet_put_nb_val", node, dest, &value, nbytes, Sync::explicit_handle, false);
}
void gasnet_put_nbi_val(gasnet_node_t node, void* dest, gasnet_register_value_t value, size_t nbytes) noexcept {
    gasnet::check_value_size("gasnet_put_nbi_val", nbytes);
    gasnet::put("gasnet_put_nbi_val", node, dest, &value, nbytes, Sync::implicit, false);
}
gasnet_register_value_t gasnet_get_val(gasnet_node_t node, void* src, size_t nbytes) noexcept {
    gasnet::check_value_size("gasnet_get_val", nbytes);
    gasnet_register_value_t value = 0;
    gasnet::get("gasnet_get_val", &value, node, src, nbytes, Sync::blocking);
    return value;
}
// Split-phase in name: the value is fetched at once and carried in the handle.
gasnet_valget_handle_t gasnet_get_nb_val(gasnet_node_t node, void* src, size_t nbytes) noexcept {
    gasnet::check_value_size("gasnet_get_nb_val", nbytes);
    gasnet_valget_handle_t h{0};
    gasnet::get("gasnet_get_nb_val", &h.value, node, src, nbytes, Sync::blocking);
    return h;
}
gasnet_register_value_t gasnet_wait_syncnb_valget(gasnet_valget_handle_t handle) noexcept { return handle.value; }

// ---- §3.6.1 thread information ----
gasnet_threadinfo_t gasket_gasnet_threadinfo(void) noexcept { return &gasnet::t_self; }

}  // extern "C"
