// src/gasnet/transfer.cpp -- the out-of-line half of the transfers of both
// GASNet APIs (transfer.hpp): the general forms every case reaches, their
// GASP events, memset, completion of handles and access regions.
#include "transfer.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ep_segments.hpp"
#include "src/runtime/device_staging.hpp"
#include "src/runtime/fence.hpp"
#include "src/runtime/nb_collective.hpp"
#include "src/runtime/progress.hpp"

namespace gasket::gasnet {

#pragma GCC visibility push(hidden)

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

const EpRoute& route_ep(const char* routine, gasnet_node_t node, gex_EP_Index_t index, const void* addr,
                        std::size_t nbytes, std::size_t& offset) {
    if (node >= g_routes.nodes) [[unlikely]]
        bad_node(routine, node);
    const EpRoute* r = ep_route(index, node);
    if (!r)
        rt::fatal(routine,
                  "endpoint %u of jobrank %u has no bound segment published to this process "
                  "(gex_EP_BindSegment, then gex_EP_PublishBoundSegment)",
                  unsigned(index), node);
    offset = reinterpret_cast<std::uintptr_t>(addr) - r->base;  // huge when below
    if ((offset > r->size || nbytes > r->size - offset) && nbytes != 0)
        rt::fatal(routine, "[%p, +%zu bytes) is outside the segment of endpoint %u of jobrank %u [%p, +%zu bytes)",
                  addr, nbytes, unsigned(index), node, reinterpret_cast<void*>(r->base), r->size);
    return *r;
}

// A put to the resolved target `t` on `node` (nbytes >= 1).
gasnet_handle_t put_target(const rt::Target& t, gasnet_node_t node, const void* src, std::size_t nbytes, unsigned how) {
    const Sync sync = Sync(how & 3);
    const bool bulk = (how & 4) != 0;
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

// Every put.
[[gnu::noinline]] gasnet_handle_t put_general(const char* routine, gasnet_node_t node, void* dest, const void* src,
                                              std::size_t nbytes, unsigned how) {
    const rt::Target t = locate(routine, node, dest, nbytes);
    if (nbytes == 0) return GASNET_INVALID_HANDLE;
    return put_target(t, node, src, nbytes, how);
}

// Every get (bulk or not: the destination is written by the time the get
// is synchronized either way).
gasnet_handle_t get_target(const rt::Target& t, void* dest, gasnet_node_t node, std::size_t nbytes, Sync sync) {
    if (t.direct) {  // complete at once, visible before anything that follows
        rt::get_from(t, dest, nbytes, int(node), rt::Completion::remote);
        return GASNET_INVALID_HANDLE;
    }
    rt::get_from(t, dest, nbytes, int(node),
                 sync == Sync::blocking ? rt::Completion::remote : rt::Completion::deferred);
    return finish(node, sync);
}
[[gnu::noinline]] gasnet_handle_t get_general(const char* routine, void* dest, gasnet_node_t node, const void* src,
                                              std::size_t nbytes, Sync sync) {
    const rt::Target t = locate(routine, node, src, nbytes);
    if (nbytes == 0) return GASNET_INVALID_HANDLE;
    return get_target(t, dest, node, nbytes, sync);
}

// ---- Device memory (gasnet-ex-memory-kinds.txt §4.1) ----

namespace {

// Host memory of `node` reached through MPI (`t`: not mapped here) and a
// local device buffer (`local_ctx`): in chunks through a host buffer here,
// each put or get complete before the next.
void host_through_mpi(const char* routine, const rt::Target& t, gasnet_node_t node, char* local, std::size_t nbytes,
                      bool put, void* local_ctx) {
    constexpr std::size_t kChunk = std::size_t(1) << 20;
    std::vector<char> bounce(std::min(kChunk, nbytes));
    std::string failed;
    for (std::size_t done = 0; done < nbytes;) {
        const std::size_t n = std::min(kChunk, nbytes - done);
        const rt::Target at{nullptr, t.window, t.disp + rt::Displacement(done)};
        if (put) {
            rt::copy_out_to_send(routine, local_ctx, bounce.data(), local + done, n);
            put_target(at, node, bounce.data(), n, mode(Sync::blocking, false));
        } else {
            get_target(at, bounce.data(), node, n, Sync::blocking);
            if (!rt::device_copy(local_ctx, local + done, bounce.data(), n, failed))
                rt::fatal(routine, "copying %zu bytes into device memory: %s", n, failed.c_str());
        }
        done += n;
    }
}

}  // namespace

gasnet_handle_t device_transfer(const char* routine, gasnet_node_t node, gex_EP_Index_t index, void* remote,
                                void* local, std::size_t nbytes, bool put, void* local_ctx) {
    rt::Target host{nullptr, nullptr, 0};  // the remote range when it is host memory
    const EpRoute* r = nullptr;
    std::size_t offset = 0;
    if (index == 0) {
        host = locate(routine, node, remote, nbytes);  // the attach segment: host memory
    } else {
        r = &route_ep(routine, node, index, remote, nbytes, offset);
        if (!r->device) host = rt::target_of(*r, rt::g_job->dynamic_window, offset);
    }
    if (nbytes == 0) return GASNET_INVALID_HANDLE;
    auto* mine = static_cast<char*>(local);
    char* at = r && r->device ? (r->mapped.at ? r->mapped.at + offset : nullptr) : host.direct;
    void* ctx = r && r->device && r->mapped.at ? r->mapped.ctx : local_ctx;
    if (at) {  // one copy: this process's own device memory, a node peer's mapped by CUDA IPC, or mapped host memory
        std::string failed;
        if (!ctx)
            rt::fatal(routine,
                      "the device segment of endpoint %u of jobrank %u has no copy context: its memory kind "
                      "was destroyed",
                      unsigned(index), node);
        if (!rt::device_copy(ctx, put ? at : mine, put ? mine : at, nbytes, failed))
            rt::fatal(routine, "copying %zu bytes %s the segment of endpoint %u of jobrank %u: %s", nbytes,
                      put ? "to" : "from", unsigned(index), node, failed.c_str());
    } else if (r && r->device) {  // staged through Active Messages; the owner copies
        if (put)
            rt::staged_put(routine, *rt::g_job, int(node), std::uint8_t(index), offset, mine, nbytes, local_ctx);
        else
            rt::staged_get(routine, *rt::g_job, int(node), std::uint8_t(index), offset, mine, nbytes, local_ctx);
    } else {  // the remote range is host memory reached through MPI; the local one is device memory
        host_through_mpi(routine, host, node, mine, nbytes, put, local_ctx);
    }
    return GASNET_INVALID_HANDLE;  // complete, locally and remotely
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

// Transfers to and from a created endpoint's segment, with the same GASP
// events as the others.
gasnet_handle_t put_ep(const char* routine, gasnet_node_t node, gex_EP_Index_t index, void* dest, const void* src,
                       std::size_t nbytes, unsigned how, void* local_ctx) {
    const Sync sync = Sync(how & 3);
    const unsigned tag = sync == Sync::blocking ? GASP_SHMEM_PUT : GASP_GASNET_NB_PUT_INIT;
    const bool traced = gasp::on();
    if (traced) rma_event(tag, GASP_START, sync, node, dest, src, nbytes, GASNET_INVALID_HANDLE);
    gasnet_handle_t h = GASNET_INVALID_HANDLE;
    std::size_t offset = 0;
    if (local_ctx) {
        h = device_transfer(routine, node, index, dest, const_cast<void*>(src), nbytes, true, local_ctx);
    } else if (const EpRoute& r = route_ep(routine, node, index, dest, nbytes, offset); r.device) {
        h = device_transfer(routine, node, index, dest, const_cast<void*>(src), nbytes, true, nullptr);
    } else if (nbytes) {
        h = put_target(rt::target_of(r, rt::g_job->dynamic_window, offset), node, src, nbytes, how);
    }
    if (traced) rma_event(tag, GASP_END, sync, node, dest, src, nbytes, h);
    return h;
}
gasnet_handle_t get_ep(const char* routine, void* dest, gasnet_node_t node, gex_EP_Index_t index, const void* src,
                       std::size_t nbytes, Sync sync, void* local_ctx) {
    const unsigned tag = sync == Sync::blocking ? GASP_SHMEM_GET : GASP_GASNET_NB_GET_INIT;
    const bool traced = gasp::on();
    if (traced) rma_event(tag, GASP_START, sync, node, dest, src, nbytes, GASNET_INVALID_HANDLE);
    gasnet_handle_t h = GASNET_INVALID_HANDLE;
    std::size_t offset = 0;
    if (local_ctx) {
        h = device_transfer(routine, node, index, const_cast<void*>(src), dest, nbytes, false, local_ctx);
    } else if (const EpRoute& r = route_ep(routine, node, index, src, nbytes, offset); r.device) {
        h = device_transfer(routine, node, index, const_cast<void*>(src), dest, nbytes, false, nullptr);
    } else if (nbytes) {
        h = get_target(rt::target_of(r, rt::g_job->dynamic_window, offset), dest, node, nbytes, sync);
    }
    if (traced) rma_event(tag, GASP_END, sync, node, dest, src, nbytes, h);
    return h;
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
        rt::full_fence();
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

// GASNet-EX's remote atomics through Active Messages (gex_ad.cpp) count in
// the default context until their replies arrive: the events of "every
// operation" (kAll, an access region's) and the implicit synchronizations
// wait for them.
void wait_amos(const char* routine) {
    std::atomic<long>& pending = g_routes.ctx->pending_am_ops;
    if (pending.load(std::memory_order_acquire)) [[unlikely]]
        rt::wait_pending(*rt::g_job, routine, pending);
}
namespace {

// Whether such an AMO still waits for its reply, which only the target's
// handler sends: the try forms (gasnet_try_*, gex_Event_Test*,
// gex_NBI_Test) then return GASNET_ERR_NOT_READY rather than wait.
bool amos_in_flight() { return g_routes.ctx->pending_am_ops.load(std::memory_order_acquire) != 0; }

// The everything handle's part that needs nothing from a target: this
// thread's bounce ring sent, both windows flushed, direct transfers fenced.
void flush_everything() {
    ThreadState& t = t_self;
    t.bounce.issue_run();
    g_routes.ctx->flush_all();
    t.bounce.completed();
    rt::full_fence();  // direct transfers (an access region's)
}

}  // namespace

// Completes what handle h stands for.  A valid handle was made by an MPI
// transfer, so the job is attached.
void complete(gasnet_handle_t h) {
    const auto v = reinterpret_cast<std::uintptr_t>(h);
    if (!v) return;
    if ((v & 3) == 0) [[unlikely]] {
        rt::wait("GASNet synchronization (a collective's event)", reinterpret_cast<rt::NbCollective*>(v));
    } else if ((v & 3) == kNode) {
        g_routes.ctx->flush(int(v >> 2));
    } else if ((v & 3) == kFence) {
        rt::full_fence();
    } else if (h == amo_handle()) {
        wait_amos("GASNet synchronization");
    } else {
        flush_everything();
        wait_amos("GASNet synchronization");
    }
}

// Completes handles[0, n) and marks them invalid: what the valid handles
// stand for when they are all the same (one node's flush, or one fence),
// else everything (kAll).  After the first valid handle, one pass of plain
// arithmetic (no branch per handle): collectives' handles are taken out first,
// so a handle is valid exactly when its low two bits are not 0.
void complete_from(const char* routine, gasnet_handle_t* handles, std::size_t n, std::size_t i);
[[gnu::noinline, gnu::cold]] void complete_all_traced(const char* routine, gasnet_handle_t* handles, std::size_t n,
                                                      std::size_t i, int kind) {
    sync_event(GASP_START, static_cast<void*>(handles), kind, n);
    complete_from(routine, handles, n, i);
    sync_event(GASP_END, static_cast<void*>(handles), kind, n);
}
void complete_all(const char* routine, gasnet_handle_t* handles, std::size_t n, int kind) {
    static_assert(sizeof(gasnet_handle_t) == sizeof(std::uintptr_t) && kNode == 1 && kAll == 2 && kFence == 3);
    std::size_t i = 0;
    while (i < n && handles[i] == GASNET_INVALID_HANDLE) ++i;
    if (i == n) return;
    if (gasp::on()) [[unlikely]]
        return complete_all_traced(routine, handles, n, i, kind);
    complete_from(routine, handles, n, i);
}
namespace {

// Whether handles[i, n) hold a handle that the common case does not: a
// collective's event, or GEX_EVENT_NO_OP (3: no operation returns it, so in
// either API it is the caller's error, found in the same pass).  One pass
// of plain arithmetic, no early exit.
bool any_unusual(const gasnet_handle_t* handles, std::size_t n, std::size_t i) {
    std::uintptr_t found = 0;
    for (; i < n; ++i) {
        const auto v = reinterpret_cast<std::uintptr_t>(handles[i]);
        found |= ((v & 3) == 0 ? v : 0) | std::uintptr_t(v == 3);
    }
    return found != 0;
}

}  // namespace

void no_op_event(const char* routine) {
    rt::fatal(routine, "GEX_EVENT_NO_OP is not an event to synchronize (it reports an operation never injected)");
}

namespace {

// Fatal, naming `routine`, when handles[i, n) hold GEX_EVENT_NO_OP.
void check_no_op(const char* routine, const gasnet_handle_t* handles, std::size_t n, std::size_t i) {
    for (; i < n; ++i)
        if (handles[i] == GEX_EVENT_NO_OP) no_op_event(routine);
}

// complete_from when some handles are unusual: fatal for GEX_EVENT_NO_OP;
// else each collective's event waited for on its own, then the rest as usual.
[[gnu::cold, gnu::noinline]] void complete_unusual(const char* routine, gasnet_handle_t* handles, std::size_t n,
                                                   std::size_t i) {
    check_no_op(routine, handles, n, i);
    for (std::size_t j = i; j < n; ++j)
        if (is_collective(handles[j])) {
            complete(handles[j]);
            handles[j] = GASNET_INVALID_HANDLE;
        }
    while (i < n && handles[i] == GASNET_INVALID_HANDLE) ++i;
    if (i < n) complete_from(routine, handles, n, i);
}

}  // namespace

// complete_all from handles[i], the first valid one.
void complete_from(const char* routine, gasnet_handle_t* handles, std::size_t n, std::size_t i) {
    if (any_unusual(handles, n, i)) [[unlikely]]
        return complete_unusual(routine, handles, n, i);
    const auto first = reinterpret_cast<std::uintptr_t>(handles[i]);
    std::uintptr_t differ = 0;
    for (; i < n; ++i) {
        const auto v = reinterpret_cast<std::uintptr_t>(handles[i]);
        const std::uintptr_t valid = 0 - std::uintptr_t((v & 3) != 0);  // all ones when valid
        differ |= (v ^ first) & valid;
        handles[i] = GASNET_INVALID_HANDLE;
    }
    complete(differ != 0 ? all_handle() : reinterpret_cast<gasnet_handle_t>(first));
}

void bad_value_size(const char* routine, std::size_t nbytes) {
    rt::fatal(routine, "nbytes %zu is not in 1..%d (SIZEOF_GASNET_REGISTER_VALUE_T)", nbytes,
              SIZEOF_GASNET_REGISTER_VALUE_T);
}

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "value put/get copy the low-order bytes first");

// gasnet_wait_syncnbi_{puts,gets,all}: completes everything on the
// segment window (both kinds), and with a memory fence this thread's
// transfers by load and store, if this thread issued an implicit-handle
// operation since its last synchronization.
void flush_rma_implicit(ThreadState& t) {
    t.bounce.issue_run();  // the flush completes puts too, so none may stay unsent
    g_routes.ctx->flush_all();
    if (t.direct) rt::full_fence();  // transfer.hpp: put, get
    t.issued = t.direct = false;
    t.bounce.completed();
}
void flush_implicit(ThreadState& t) {
    flush_rma_implicit(t);
    wait_amos("GASNet synchronization");
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

namespace {

// try_implicit's completion: the RMA part at once; AMOs whose replies have
// not arrived keep the thread's operations unsynchronized (a later sync
// waits for them) and, when `amos` (the try covers atomics), make it
// GASNET_ERR_NOT_READY.
int try_flush_implicit(ThreadState& t, bool amos) {
    flush_rma_implicit(t);
    if (!amos_in_flight()) [[likely]]
        return GASNET_OK;
    t.issued = true;
    return amos ? GASNET_ERR_NOT_READY : GASNET_OK;
}
[[gnu::noinline, gnu::cold]] int try_implicit_traced(ThreadState& t, int kind, bool amos) {
    sync_event(GASP_START, GASP_NB_TRIVIAL, kind, 0);
    const int rc = try_flush_implicit(t, amos);
    gasp::notify(GASP_GASNET_NB_SYNC, GASP_END, GASP_NB_TRIVIAL, kind, std::size_t(0), rc);
    return rc;
}

}  // namespace

int try_implicit(const char* routine, int kind, bool amos) {
    ThreadState& t = t_self;
    if (t.in_region) [[unlikely]]
        rt::fatal(routine, "called inside an access region (GASNet 1.8 §3.3.6)");
    if (!t.issued) return GASNET_OK;
    if (gasp::on()) [[unlikely]]
        return try_implicit_traced(t, kind, amos);
    return try_flush_implicit(t, amos);
}

namespace {

// One try of a collective's event: GASNET_OK once complete (then freed).
int try_collective(gasnet_handle_t h) {
    return rt::test("GASNet synchronization (a collective's event)", reinterpret_cast<rt::NbCollective*>(h))
               ? GASNET_OK
               : GASNET_ERR_NOT_READY;
}

// Completes h unless that would wait for an AMO's reply (h is an event of
// "every operation" or of the atomics, kAll, and one is in flight): false
// then, with what needs no target done (h stays valid).  The look at the
// AMOs in flight comes after the flushes and nothing waits for them, so an
// AMO that another thread issues meanwhile (GASNET_PAR) makes the answer
// false, never a wait.
bool complete_unless_replies(gasnet_handle_t h) {
    if ((reinterpret_cast<std::uintptr_t>(h) & 3) != kAll) {
        complete(h);
        return true;
    }
    if (h != amo_handle()) flush_everything();
    return !amos_in_flight();
}

// try_all's common case (no collective's event, no GEX_EVENT_NO_OP among
// handles[i, n), handles[i] valid): completes them as complete_from does
// -- one completion for the lot -- unless that would wait for an AMO's
// reply: false then, with what needs no target done and handles[i, n) as
// they were.
bool complete_from_unless_replies(gasnet_handle_t* handles, std::size_t n, std::size_t i) {
    const auto first = reinterpret_cast<std::uintptr_t>(handles[i]);
    std::uintptr_t differ = 0;
    for (std::size_t j = i; j < n; ++j) {
        const auto v = reinterpret_cast<std::uintptr_t>(handles[j]);
        differ |= (v ^ first) & (0 - std::uintptr_t((v & 3) != 0));  // valid handles only
    }
    if (!complete_unless_replies(differ != 0 ? all_handle() : reinterpret_cast<gasnet_handle_t>(first))) return false;
    std::fill(handles + i, handles + n, GASNET_INVALID_HANDLE);
    return true;
}

// try_all with a collective or an AMO's wait among the handles: each
// collective tried, every other handle completed unless it waits for an
// AMO's reply (a flush needs nothing from the target).
int try_untraced(gasnet_handle_t* handles, std::size_t n, bool some) {
    bool valid = false, completed = false, pending = false;
    for (std::size_t j = 0; j < n; ++j) {
        const gasnet_handle_t h = handles[j];
        if (h == GASNET_INVALID_HANDLE) continue;
        valid = true;
        if (is_collective(h) ? try_collective(h) != GASNET_OK : !complete_unless_replies(h)) {
            pending = true;
            continue;
        }
        handles[j] = GASNET_INVALID_HANDLE;
        completed = true;
    }
    if (some) return completed || !valid ? GASNET_OK : GASNET_ERR_NOT_READY;
    return pending ? GASNET_ERR_NOT_READY : GASNET_OK;
}

[[gnu::cold, gnu::noinline]] int try_traced(gasnet_handle_t* handles, std::size_t n, int kind, bool some) {
    void* what = n == 1 ? static_cast<void*>(handles[0]) : static_cast<void*>(handles);
    sync_event(GASP_START, what, kind, n);
    const int rc = try_untraced(handles, n, some);
    gasp::notify(GASP_GASNET_NB_SYNC, GASP_END, what, kind, n, rc);
    return rc;
}

// try_all's common case with no AMO in flight when it began: the events
// of complete_all (the array), the answer of try_untraced.
[[gnu::cold, gnu::noinline]] int try_common_traced(gasnet_handle_t* handles, std::size_t n, std::size_t i, int kind,
                                                   bool some) {
    sync_event(GASP_START, static_cast<void*>(handles), kind, n);
    const int rc = complete_from_unless_replies(handles, n, i) ? GASNET_OK : try_untraced(handles, n, some);
    gasp::notify(GASP_GASNET_NB_SYNC, GASP_END, static_cast<void*>(handles), kind, n, rc);
    return rc;
}

}  // namespace

int try_one(gasnet_handle_t h, int kind) {
    // A node's flush or a fence needs nothing from a target: completed as
    // its wait would.  An event of "every operation" (kAll) may cover AMOs
    // whose replies only their targets send: complete_unless_replies looks
    // at them after its flushes and waits for none.
    if ((reinterpret_cast<std::uintptr_t>(h) & 3) != kAll && !is_collective(h)) [[likely]] {
        sync_one(h, kind);
        return GASNET_OK;
    }
    if (gasp::on()) [[unlikely]]
        return try_traced(&h, 1, kind, false);
    return try_untraced(&h, 1, false);
}

int try_all(const char* routine, gasnet_handle_t* handles, std::size_t n, int kind, bool some) {
    std::size_t i = 0;
    while (i < n && handles[i] == GASNET_INVALID_HANDLE) ++i;
    if (i == n) return GASNET_OK;
    if (!any_unusual(handles, n, i)) [[likely]] {
        const bool amos = amos_in_flight();
        if (gasp::on()) [[unlikely]]
            return amos ? try_traced(handles, n, kind, some) : try_common_traced(handles, n, i, kind, some);
        if (!amos && complete_from_unless_replies(handles, n, i)) [[likely]]
            return GASNET_OK;
        return try_untraced(handles, n, some);
    }
    check_no_op(routine, handles, n, i);
    if (gasp::on()) [[unlikely]]
        return try_traced(handles, n, kind, some);
    return try_untraced(handles, n, some);
}

// An explicit handle's sync, with its event (sync_one, transfer.hpp).
[[gnu::noinline, gnu::cold]] void complete_traced(gasnet_handle_t h, int kind) {
    sync_event(GASP_START, static_cast<void*>(h), kind, 1);
    complete(h);
    sync_event(GASP_END, static_cast<void*>(h), kind, 1);
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

#pragma GCC visibility pop

void set_routes(rt::Job& j) {
    const bool serialized = g_state.thread_mode != 2;  // not GASNET_PAR
    g_routes = {gasnet_node_t(j.n_pes), j.heap.route.data(), j.heap.window, j.default_ctx.get(),
                j.heap.window && serialized ? rt::Window::kMaxOneCall : 0};
}

void open_untraced_path() { g_routes.lean_nodes = gasp::on() ? 0 : g_routes.nodes; }

}  // namespace gasket::gasnet
