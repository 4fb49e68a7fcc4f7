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
// The transfers read only this table, filled by gasnet_attach
// (set_routes): one entry per node, so a transfer's checks and target are
// a few loads from one line.  `nodes` is 0 before attach, so one
// comparison rejects a call before attach and a node out of range alike.
struct Route {
    std::uintptr_t base;  // the node's segment address
    // The leading bytes of the segment that the lean forms below serve:
    // all of it when mapped here; min(size, Window::kMaxAtBytes) when the
    // node is reached through MPI and client calls are serialized
    // (GASNET_SEQ, GASNET_PARSYNC); else 0.
    std::size_t lean_size;
    MPI_Aint disp;  // segment window displacement of the segment's first byte
    char* direct;   // the segment mapped here (node fast path), or null
};
static_assert(sizeof(Route) == 32, "a route is indexed with one shift");
struct Routes {
    gasnet_node_t nodes = 0;
    const Route* node = nullptr;
    mpi::Window* window = nullptr;  // the segment window (MPI path)
};
// Internal linkage: addressed relative to the code, without the GOT.
Routes g_routes;
std::vector<Route> g_route_table;

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

// A transfer's remote side: its node's route and the byte offset of
// [addr, +nbytes) in that node's segment.  Fatal for a bad node or a range
// outside the segment (§3: extended API errors are fatal); for 0 bytes
// only the node is checked.
struct Where {
    const Route& route;
    std::size_t offset;
};
Where locate(const char* routine, gasnet_node_t node, const void* addr, std::size_t nbytes) {
    if (node >= g_routes.nodes) [[unlikely]]
        bad_node(routine, node);
    const Route& r = g_routes.node[node];
    const std::size_t size = g_state.segments[node].size;
    const std::size_t offset = reinterpret_cast<std::uintptr_t>(addr) - r.base;  // huge when below
    if ((offset > size || nbytes > size - offset) && nbytes != 0) [[unlikely]]
        outside_segment(routine, node, addr, nbytes);
    return {r, offset};
}

// ---- This thread's state ----
// Small non-bulk puts through MPI are sent from a per-thread copy (the
// ring), so the caller may reuse its buffer at once without waiting for
// MPI's local completion of each put.  When the ring is used up, one
// MPI_Win_flush_local_all frees it; a synchronization that completes
// everything sent from it (gasnet_wait_syncnbi_*, an access region's or
// a list's MPI_Win_flush_all) frees it too.
constexpr std::size_t kBounceMax = 1024;
constexpr std::size_t kBounceBytes = std::size_t(1) << 16;

// A run of small non-bulk implicit-handle puts not yet handed to MPI: each
// put to the bytes just after the previous one's, on the same node, joins
// the run, and the run becomes one MPI_Put when it breaks, before the ring
// is refilled, when this thread synchronizes and when an access region
// ends.  Only nbi puts join: this thread alone synchronizes them
// (§3.3.5), while an explicit handle may be synchronized by any thread.
struct Run {
    const char* src;    // in the ring
    std::size_t bytes;  // 0: no run
    MPI_Aint disp;      // in the segment window
    int node;
};

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
    char* ring;                 // kBounceBytes, allocated by the first refill
    std::size_t ring_limit;     // kBounceBytes once allocated, else 0
    std::size_t used;           // ring bytes holding copies not yet completed
    Run run;
};
[[gnu::tls_model("initial-exec")]] thread_local ThreadState t_self;

void issue_run() {
    Run& r = t_self.run;
    if (r.bytes == 0) return;
    rt::put_at(*g_routes.window, r.src, r.bytes, r.node, r.disp, false);
    r.bytes = 0;
}

[[gnu::cold, gnu::noinline]] void refill(ThreadState& t) {
    if (!t.ring) {
        // Freed at thread exit: threads may outlive the job.
        static thread_local std::unique_ptr<char[]> owner;
        owner.reset(new char[kBounceBytes]);
        t.ring = owner.get();
        t.ring_limit = kBounceBytes;
    } else {
        issue_run();  // the run's bytes are in the ring
        g_routes.window->flush_local_all();
    }
    t.used = 0;
}

// The ring is free again once a flush completed everything sent from it
// (and no run, whose bytes are still to be sent, is waiting).
void ring_completed() {
    if (t_self.run.bytes == 0) t_self.used = 0;
}

inline void copy_small(char* to, const void* from, std::size_t nbytes) {
    if (nbytes == 8) std::memcpy(to, from, 8);  // the common register-sized put, inlined
    else std::memcpy(to, from, nbytes);
}

// Copies 1..kLeanCopyMax bytes with at most two loads and two stores of
// each width, without a call (the lean forms make none but MPI's).
constexpr std::size_t kLeanCopyMax = 16;
[[gnu::always_inline]] inline void copy_lean(char* to, const void* src, std::size_t n) {
    const char* from = static_cast<const char*>(src);
    auto move = [&](auto word) {
        constexpr std::size_t w = sizeof word;
        decltype(word) head, tail;
        std::memcpy(&head, from, w);
        std::memcpy(&tail, from + n - w, w);
        std::memcpy(to, &head, w);
        std::memcpy(to + n - w, &tail, w);
    };
    if (n >= 8) move(std::uint64_t{});
    else if (n >= 4) move(std::uint32_t{});
    else {
        to[0] = from[0];
        to[n / 2] = from[n / 2];
        to[n - 1] = from[n - 1];
    }
}

// A copy of src in the ring, 8-byte aligned.
const char* bounce(const void* src, std::size_t nbytes) {
    ThreadState& t = t_self;
    t.used = (t.used + 7) & ~std::size_t(7);
    if (t.used + nbytes > t.ring_limit) [[unlikely]]
        refill(t);
    char* copy = t.ring + t.used;
    copy_small(copy, src, nbytes);
    t.used += nbytes;
    return copy;
}

// A small non-bulk implicit-handle put through MPI: copied to the ring and
// added to this thread's run.
void put_nbi_small(gasnet_node_t node, MPI_Aint disp, const void* src, std::size_t nbytes) {
    Run& r = t_self.run;
    const bool extends = r.bytes != 0 && r.node == int(node) && r.disp + MPI_Aint(r.bytes) == disp;
    if (!extends) issue_run();
    ThreadState& t = t_self;
    if (extends && t.used + nbytes <= t.ring_limit && r.src + r.bytes == t.ring + t.used) {
        copy_small(t.ring + t.used, src, nbytes);
        t.used += nbytes;
        r.bytes += nbytes;
        return;
    }
    issue_run();
    r = {bounce(src, nbytes), nbytes, disp, int(node)};
}

// How an operation must end.
enum class Sync { blocking, explicit_handle, implicit };

// After an MPI operation to `node` (implicit: see ThreadState::issued).
gasnet_handle_t finish(gasnet_node_t node, Sync sync) {
    switch (sync) {
        case Sync::blocking: g_routes.window->flush(int(node)); return GASNET_INVALID_HANDLE;
        case Sync::explicit_handle: return node_handle(node);
        case Sync::implicit: t_self.issued = true; return GASNET_INVALID_HANDLE;
    }
    return GASNET_INVALID_HANDLE;
}

// A direct copy completes at once; the fence makes it visible before
// anything that follows.
gasnet_handle_t fence_direct() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    return GASNET_INVALID_HANDLE;
}

// ---- The general forms: every case, checked, out of line ----

// Every put.  `bulk`: src may change only after synchronization (§3.3.1);
// else the caller may reuse it on return.
// How an operation must end and whether it is bulk, in one argument (the
// general forms then take six, all in registers, and the lean forms reach
// them with a jump).
constexpr unsigned mode(Sync sync, bool bulk) { return unsigned(sync) | (bulk ? 4u : 0u); }

[[gnu::noinline]] gasnet_handle_t put_general(const char* routine, gasnet_node_t node, void* dest, const void* src,
                                              std::size_t nbytes, unsigned how) {
    const Sync sync = Sync(how & 3);
    const bool bulk = (how & 4) != 0;
    const Where w = locate(routine, node, dest, nbytes);
    if (nbytes == 0) return GASNET_INVALID_HANDLE;
    const rt::Target t{w.route.direct ? w.route.direct + w.offset : nullptr, g_routes.window, w.offset};
    rt::Completion c = rt::Completion::deferred;  // blocking: the flush in finish() completes it locally too
    if (t.direct) {
        rt::put_to(*rt::g_job->default_ctx, t, src, nbytes, int(node), c);
        return fence_direct();
    }
    if (!bulk && sync != Sync::blocking) {
        if (nbytes > kBounceMax) {
            c = rt::Completion::local;  // MPI_Win_flush_local before returning
        } else if (sync == Sync::implicit) {
            put_nbi_small(node, w.route.disp + MPI_Aint(w.offset), src, nbytes);
            return finish(node, sync);
        } else {
            src = bounce(src, nbytes);  // the caller may reuse src; MPI sends the copy
        }
    }
    rt::put_to(*rt::g_job->default_ctx, t, src, nbytes, int(node), c);
    return finish(node, sync);
}

// Every get (bulk or not: the destination is written by the time the get
// is synchronized either way).  Blocking gets end in a flush of the node.
[[gnu::noinline]] gasnet_handle_t get_general(const char* routine, void* dest, gasnet_node_t node, const void* src,
                                              std::size_t nbytes, Sync sync) {
    const Where w = locate(routine, node, src, nbytes);
    if (nbytes == 0) return GASNET_INVALID_HANDLE;
    const rt::Target t{w.route.direct ? w.route.direct + w.offset : nullptr, g_routes.window, w.offset};
    rt::get_from(t, dest, nbytes, int(node), rt::Completion::deferred);
    return t.direct ? fence_direct() : finish(node, sync);
}

// ---- The lean forms: the commonest cases, inline ----
// Direct copies, and puts and gets through MPI with client calls
// serialized, that lie in the route's lean_size; any other case, and any
// case that needs a ring refill, is passed whole to the general form.  The non-blocking lean forms record
// the operation before the MPI call (rt::put_at, serialized) and leave
// nothing to do after it, so the compiler saves no registers, and they
// test what decides the case in the fewest instructions: on a 15-18 ns
// MPI_Put, every nanosecond is 6% of the rate (docs/performance.md).
// Blocking ones record after the call (their own flush must find it).

// The route when the lean forms serve [addr, +nbytes) on `node`, else
// null; sets `offset`, the byte offset of addr in the node's segment.
[[gnu::always_inline]] inline const Route* lean(gasnet_node_t node, const void* addr, std::size_t nbytes,
                                               std::size_t& offset) {
    if (node >= g_routes.nodes) [[unlikely]]
        return nullptr;
    const Route& r = g_routes.node[node];
    offset = reinterpret_cast<std::uintptr_t>(addr) - r.base;
    // 1 <= nbytes <= lean_size - offset
    return offset < r.lean_size && nbytes - 1 < r.lean_size - offset ? &r : nullptr;
}

// A direct copy: complete at once, and the fence makes it visible before
// anything that follows.
[[gnu::always_inline]] inline gasnet_handle_t copy_direct(void* dst, const void* src, std::size_t nbytes) {
    rt::copy_direct(dst, src, nbytes);
    return fence_direct();
}

// A non-bulk implicit-handle put of at most kLeanCopyMax bytes:
// put_nbi_small without a refill, the previous run sent last.  False
// (nothing done) when the ring is full.
[[gnu::always_inline]] inline bool lean_put_nbi_small(gasnet_node_t node, MPI_Aint disp, const void* src,
                                                      std::size_t nbytes) {
    ThreadState& t = t_self;
    Run& r = t.run;
    const std::size_t used = t.used;
    if (r.disp + MPI_Aint(r.bytes) == disp && r.node == int(node) && r.bytes != 0 && r.src + r.bytes == t.ring + used) {
        if (used + nbytes > t.ring_limit) [[unlikely]]
            return false;
        copy_lean(t.ring + used, src, nbytes);
        t.used = used + nbytes;
        r.bytes += nbytes;
        t.issued = true;
        return true;
    }
    const std::size_t at = (used + 7) & ~std::size_t(7);
    if (at + nbytes > t.ring_limit) [[unlikely]]
        return false;
    char* copy = t.ring + at;
    copy_lean(copy, src, nbytes);
    t.used = at + nbytes;
    t.issued = true;
    const Run previous = r;
    r = {copy, nbytes, disp, int(node)};
    if (previous.bytes != 0)
        rt::put_at(*g_routes.window, previous.src, previous.bytes, previous.node, previous.disp, true);
    return true;
}

[[gnu::always_inline]] inline gasnet_handle_t put(const char* routine, gasnet_node_t node, void* dest,
                                                  const void* src, std::size_t nbytes, Sync sync, bool bulk) {
    std::size_t offset;
    if (const Route* r = lean(node, dest, nbytes, offset)) [[likely]] {
        if (r->direct) return copy_direct(r->direct + offset, src, nbytes);
        const MPI_Aint disp = r->disp + MPI_Aint(offset);
        ThreadState& t = t_self;
        if (sync == Sync::blocking) {  // the flush completes it locally too: no copy
            rt::put_at(*g_routes.window, src, nbytes, int(node), disp, false);
            g_routes.window->flush(int(node));
            return GASNET_INVALID_HANDLE;
        }
        if (bulk) {
            if (sync == Sync::implicit) t.issued = true;
            rt::put_at(*g_routes.window, src, nbytes, int(node), disp, true);
            return sync == Sync::implicit ? GASNET_INVALID_HANDLE : node_handle(node);
        }
        if (nbytes <= kLeanCopyMax) {
            if (sync == Sync::implicit) {
                if (lean_put_nbi_small(node, disp, src, nbytes)) return GASNET_INVALID_HANDLE;
            } else {
                const std::size_t at = (t.used + 7) & ~std::size_t(7);
                if (at + nbytes <= t.ring_limit) [[likely]] {
                    char* copy = t.ring + at;
                    copy_lean(copy, src, nbytes);
                    t.used = at + nbytes;
                    rt::put_at(*g_routes.window, copy, nbytes, int(node), disp, true);
                    return node_handle(node);
                }
            }
        }
    }
    return put_general(routine, node, dest, src, nbytes, mode(sync, bulk));
}

[[gnu::always_inline]] inline gasnet_handle_t get(const char* routine, void* dest, gasnet_node_t node, const void* src,
                                                  std::size_t nbytes, Sync sync) {
    std::size_t offset;
    if (const Route* r = lean(node, src, nbytes, offset)) [[likely]] {
        if (r->direct) return copy_direct(dest, r->direct + offset, nbytes);
        const MPI_Aint disp = r->disp + MPI_Aint(offset);
        if (sync == Sync::blocking) {
            rt::get_at(*g_routes.window, dest, nbytes, int(node), disp, false);
            g_routes.window->flush(int(node));
            return GASNET_INVALID_HANDLE;
        }
        if (sync == Sync::implicit) t_self.issued = true;
        rt::get_at(*g_routes.window, dest, nbytes, int(node), disp, true);
        return sync == Sync::implicit ? GASNET_INVALID_HANDLE : node_handle(node);
    }
    return get_general(routine, dest, node, src, nbytes, sync);
}

// memset: direct, or puts of a buffer filled with the byte; completed
// before returning (every form: the buffer is reused).
gasnet_handle_t memset_remote(const char* routine, gasnet_node_t node, void* dest, int val, std::size_t nbytes) {
    const Where w = locate(routine, node, dest, nbytes);
    if (nbytes == 0) return GASNET_INVALID_HANDLE;
    if (w.route.direct) {
        std::memset(w.route.direct + w.offset, val, nbytes);
        std::atomic_thread_fence(std::memory_order_seq_cst);
        return GASNET_INVALID_HANDLE;
    }
    thread_local std::vector<unsigned char> fill;
    const std::size_t chunk = std::min<std::size_t>(nbytes, std::size_t(1) << 16);
    fill.assign(chunk, static_cast<unsigned char>(val));
    for (std::size_t done = 0; done < nbytes; done += chunk)
        rt::put_to(*rt::g_job->default_ctx, rt::Target{nullptr, g_routes.window, w.offset + done}, fill.data(),
                   std::min(chunk, nbytes - done), int(node), rt::Completion::local);
    g_routes.window->flush(int(node));
    return GASNET_INVALID_HANDLE;
}

// Completes what handle h stands for.  A valid handle was made by an MPI
// transfer, so the job is attached.
void complete(gasnet_handle_t h) {
    const auto v = reinterpret_cast<std::uintptr_t>(h);
    if (!v) return;
    if ((v & 3) == kNode) {
        g_routes.window->flush(int(v >> 2));
    } else {
        issue_run();
        g_routes.window->flush_all();
        ring_completed();
    }
}

// Completes handles[0, n) and marks them invalid: one flush of their node
// when every valid handle names the same node, else of every node.  After
// the first valid handle, one pass of plain arithmetic, which vectorizes:
// a handle's low two bits are 0 (invalid), kNode or kAll, so
// ((v & 3) + 1) >> 1 is 1 exactly for valid ones.
void complete_all(gasnet_handle_t* handles, std::size_t n) {
    static_assert(sizeof(gasnet_handle_t) == sizeof(std::uintptr_t) && kNode == 1 && kAll == 2);
    std::size_t i = 0;
    while (i < n && handles[i] == GASNET_INVALID_HANDLE) ++i;
    if (i == n) return;
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
void sync_implicit(const char* routine) {
    ThreadState& t = t_self;
    if (t.in_region) [[unlikely]]
        rt::fatal(routine, "called inside an access region (GASNet 1.8 §3.3.6)");
    if (!t.issued) return;
    issue_run();  // the flush completes puts too, so none may stay unsent
    g_routes.window->flush_all();
    t.issued = false;
    ring_completed();
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
    issue_run();
    return all_handle();
}

}  // namespace

void set_routes(rt::Job& j) {
    g_route_table.resize(std::size_t(j.n_pes));
    for (int n = 0; n < j.n_pes; ++n) {
        const gasnet_seginfo_t& seg = g_state.segments[std::size_t(n)];
        char* direct = j.heap.direct[std::size_t(n)];
        const std::size_t size = seg.size;
        const bool serialized = g_state.thread_mode != 2;  // not GASNET_PAR
        const std::size_t lean_size = direct                            ? size
                                      : j.heap.window && serialized ? std::min(size, mpi::Window::kMaxAtBytes)
                                                                        : 0;
        g_route_table[std::size_t(n)] = {reinterpret_cast<std::uintptr_t>(seg.addr), lean_size,
                                         j.heap.window ? j.heap.window->displacement(n) : 0, direct};
    }
    g_routes = {gasnet_node_t(j.n_pes), g_route_table.data(), j.heap.window};
}

}  // namespace gasket::gasnet

using namespace gasket;
using gasnet::Sync;

extern "C" {

// ---- §3.2 blocking, §3.3.2 explicit handle, §3.3.4 implicit handle ----
// One family per synchronization: gasnet_{get,put}SUFFIX[_bulk] and
// gasnet_memsetSUFFIX.  The non-bulk puts may reuse src at once
// (bulk = false); the bulk ones only once synchronized.
#define GASKET_TRANSFERS(SUFFIX, RET, SYNC)                                                                   \
    RET gasnet_get##SUFFIX(void* dest, gasnet_node_t node, void* src, size_t nbytes) {                        \
        return static_cast<RET>(gasnet::get("gasnet_get" #SUFFIX, dest, node, src, nbytes, SYNC));            \
    }                                                                                                         \
    RET gasnet_put##SUFFIX(gasnet_node_t node, void* dest, void* src, size_t nbytes) {                        \
        return static_cast<RET>(                                                                              \
            gasnet::put("gasnet_put" #SUFFIX, node, dest, src, nbytes, SYNC, false));             \
    }                                                                                                         \
    RET gasnet_get##SUFFIX##_bulk(void* dest, gasnet_node_t node, void* src, size_t nbytes) {                 \
        return static_cast<RET>(gasnet::get("gasnet_get" #SUFFIX "_bulk", dest, node, src, nbytes, SYNC));    \
    }                                                                                                         \
    RET gasnet_put##SUFFIX##_bulk(gasnet_node_t node, void* dest, void* src, size_t nbytes) {                 \
        return static_cast<RET>(                                                                              \
            gasnet::put("gasnet_put" #SUFFIX "_bulk", node, dest, src, nbytes, SYNC, true));  \
    }                                                                                                         \
    RET gasnet_memset##SUFFIX(gasnet_node_t node, void* dest, int val, size_t nbytes) {                       \
        return static_cast<RET>(gasnet::memset_remote("gasnet_memset" #SUFFIX, node, dest, val, nbytes));     \
    }
GASKET_TRANSFERS(, void, Sync::blocking)
GASKET_TRANSFERS(_nb, gasnet_handle_t, Sync::explicit_handle)
GASKET_TRANSFERS(_nbi, void, Sync::implicit)
#undef GASKET_TRANSFERS

// ---- §3.3.3 explicit synchronization.  Completing is an MPI flush, which
// needs nothing from the target, so try completes too and returns GASNET_OK.
void gasnet_wait_syncnb(gasnet_handle_t handle) { gasnet::complete(handle); }
int gasnet_try_syncnb(gasnet_handle_t handle) {
    gasnet::complete(handle);
    return GASNET_OK;
}
void gasnet_wait_syncnb_all(gasnet_handle_t* handles, size_t numhandles) {
    gasnet::complete_all(handles, numhandles);
}
int gasnet_try_syncnb_all(gasnet_handle_t* handles, size_t numhandles) {
    gasnet_wait_syncnb_all(handles, numhandles);
    return GASNET_OK;
}
void gasnet_wait_syncnb_some(gasnet_handle_t* handles, size_t numhandles) {
    gasnet_wait_syncnb_all(handles, numhandles);
}
int gasnet_try_syncnb_some(gasnet_handle_t* handles, size_t numhandles) {
    gasnet_wait_syncnb_all(handles, numhandles);
    return GASNET_OK;
}

// ---- §3.3.5 implicit synchronization ----
void gasnet_wait_syncnbi_gets(void) { gasnet::sync_implicit("gasnet_wait_syncnbi_gets"); }
void gasnet_wait_syncnbi_puts(void) { gasnet::sync_implicit("gasnet_wait_syncnbi_puts"); }
void gasnet_wait_syncnbi_all(void) { gasnet::sync_implicit("gasnet_wait_syncnbi_all"); }
int gasnet_try_syncnbi_gets(void) {
    gasnet::sync_implicit("gasnet_try_syncnbi_gets");
    return GASNET_OK;
}
int gasnet_try_syncnbi_puts(void) {
    gasnet::sync_implicit("gasnet_try_syncnbi_puts");
    return GASNET_OK;
}
int gasnet_try_syncnbi_all(void) {
    gasnet::sync_implicit("gasnet_try_syncnbi_all");
    return GASNET_OK;
}

// ---- §3.3.6 access regions ----
void gasnet_begin_nbi_accessregion(void) { gasnet::begin_region(); }
gasnet_handle_t gasnet_end_nbi_accessregion(void) { return gasnet::end_region(); }

// ---- §3.4 register-memory operations ----
void gasnet_put_val(gasnet_node_t node, void* dest, gasnet_register_value_t value, size_t nbytes) {
    gasnet::check_value_size("gasnet_put_val", nbytes);
    gasnet::put("gasnet_put_val", node, dest, &value, nbytes, Sync::blocking, false);
}
gasnet_handle_t gasnet_put_nb_val(gasnet_node_t node, void* dest, gasnet_register_value_t value, size_t nbytes) {
    gasnet::check_value_size("gasnet_put_nb_val", nbytes);
    return gasnet::put("gasnet_put_nb_val", node, dest, &value, nbytes, Sync::explicit_handle, false);
}
void gasnet_put_nbi_val(gasnet_node_t node, void* dest, gasnet_register_value_t value, size_t nbytes) {
    gasnet::check_value_size("gasnet_put_nbi_val", nbytes);
    gasnet::put("gasnet_put_nbi_val", node, dest, &value, nbytes, Sync::implicit, false);
}
gasnet_register_value_t gasnet_get_val(gasnet_node_t node, void* src, size_t nbytes) {
    gasnet::check_value_size("gasnet_get_val", nbytes);
    gasnet_register_value_t value = 0;
    gasnet::get("gasnet_get_val", &value, node, src, nbytes, Sync::blocking);
    return value;
}
// Split-phase in name: the value is fetched at once and carried in the handle.
gasnet_valget_handle_t gasnet_get_nb_val(gasnet_node_t node, void* src, size_t nbytes) {
    gasnet::check_value_size("gasnet_get_nb_val", nbytes);
    gasnet_valget_handle_t h{0};
    gasnet::get("gasnet_get_nb_val", &h.value, node, src, nbytes, Sync::blocking);
    return h;
}
gasnet_register_value_t gasnet_wait_syncnb_valget(gasnet_valget_handle_t handle) { return handle.value; }

// ---- §3.6.1 thread information ----
gasnet_threadinfo_t gasket_gasnet_threadinfo(void) { return &gasnet::t_self; }

}  // extern "C"
