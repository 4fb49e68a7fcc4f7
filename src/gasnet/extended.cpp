// src/gasnet/extended.cpp -- the GASNet extended API's transfers
// (gasnet-1.8-spec.md §3.2-3.4) on the runtime's put/get entry points:
// node peers by direct copy, other nodes by MPI RMA on the segment window.
//
// Handles (no allocation): 0 is GASNET_INVALID_HANDLE; otherwise the low two
// bits say what completes the operation -- kNode: MPI_Win_flush of the node
// in the upper bits; kAll: MPI_Win_flush_all (access regions).  Flushing
// completes every operation to that node, a superset the spec allows.
#include <gasnet.h>

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

// This thread's implicit-handle operations (§3.3.5: synchronized per thread).
struct ImplicitState {
    bool puts = false, gets = false;      // outstanding outside a region
    bool in_region = false, region_ops = false;
};
// initial-exec: a thread-pointer load per access instead of a
// __tls_get_addr call (libgasket is loaded with the program).
[[gnu::tls_model("initial-exec")]] thread_local ImplicitState t_nbi;

rt::Job& extended_job(const char* routine) {
    if (!g_state.attached) [[unlikely]]
        rt::fatal(routine, "called before gasnet_attach");
    return *rt::g_job;
}

// Where (node, addr) of nbytes is: a direct pointer when mapped here, else
// the segment window and offset.  Fatal for a bad node or a range outside
// the node's segment (§3: extended API errors are fatal).
void check_node(const char* routine, rt::Job& j, gasnet_node_t node) {
    if (node >= gasnet_node_t(j.n_pes)) [[unlikely]]
        rt::fatal(routine, "node %u is out of range: the job has nodes 0..%d", node, j.n_pes - 1);
}

[[gnu::always_inline]] inline rt::Target remote(const char* routine, rt::Job& j, gasnet_node_t node, const void* addr, std::size_t nbytes) {
    check_node(routine, j, node);
    const gasnet_seginfo_t& seg = g_state.segments[node];
    const auto a = reinterpret_cast<std::uintptr_t>(addr), base = reinterpret_cast<std::uintptr_t>(seg.addr);
    const std::size_t offset = a - base;
    if (a < base || offset > seg.size || nbytes > seg.size - offset) [[unlikely]]
        rt::fatal(routine, "[%p, +%zu bytes) is outside node %u's segment [%p, +%ju bytes)", addr, nbytes, node,
                  seg.addr, uintmax_t(seg.size));
    char* direct = j.heap.direct[node];
    return {direct ? direct + offset : nullptr, j.heap.window, offset};
}

// Small non-bulk nb/nbi puts through MPI are sent from a per-thread copy,
// so the caller may reuse its buffer at once without waiting for MPI's
// local completion of each put.  When the ring is used up, one
// MPI_Win_flush_local_all frees it; a synchronization that completes
// everything sent from it frees it too.
constexpr std::size_t kBounceMax = 1024;
constexpr std::size_t kBounceBytes = std::size_t(1) << 16;
// Trivially initialized, so each access is a plain thread-pointer load
// (a thread_local with a constructor costs an init check and a call).
struct Bounce {
    char* bytes;
    std::size_t used;
    int node;  // node + 1 of every copy since the ring was freed, kNoNode or kManyNodes
};
constexpr int kNoNode = 0, kManyNodes = -1;
[[gnu::tls_model("initial-exec")]] thread_local Bounce t_bounce;

// A run of small non-bulk implicit-handle puts not yet handed to MPI: each
// put to the bytes just after the previous one's, on the same node, joins
// the run, and the run becomes one MPI_Put when it breaks, before the ring
// is refilled, and when this thread synchronizes.  Only nbi puts join: this
// thread alone synchronizes them (§3.3.5), while an explicit handle may be
// synchronized by any thread.  bytes == 0: no run.
struct Run {
    mpi::Window* window;
    int node;
    std::size_t offset;  // in the node's segment
    const char* src;     // in the ring
    std::size_t bytes;
};
[[gnu::tls_model("initial-exec")]] thread_local Run t_run;

void issue_run() {
    Run& r = t_run;
    if (r.bytes == 0) return;
    r.window->put_nbi(r.src, r.bytes, r.node, r.offset);
    r.bytes = 0;
}

[[gnu::cold, gnu::noinline]] void refill(rt::Job& j, Bounce& b) {
    if (!b.bytes) {
        // Freed at thread exit: threads may outlive the job.
        static thread_local std::unique_ptr<char[]> owner;
        owner.reset(new char[kBounceBytes]);
        b.bytes = owner.get();
    } else {
        issue_run();  // the run's bytes are in the ring
        j.heap.window->flush_local_all();
    }
    b.used = 0;
    b.node = kNoNode;
}

// The ring is free again once a flush completed everything sent from it
// (and no run, whose bytes are still to be sent, is waiting).
void ring_completed() {
    if (t_run.bytes != 0) return;
    t_bounce.used = 0;
    t_bounce.node = kNoNode;
}
void ring_completed(gasnet_node_t node) {
    if (t_bounce.node == int(node) + 1) ring_completed();
}

// A copy of src in the ring; `packed`: right after the previous copy (to
// extend a run), else 16-byte aligned.
const char* bounce(rt::Job& j, const void* src, std::size_t nbytes, gasnet_node_t node, bool packed = false) {
    Bounce& b = t_bounce;
    if (!packed) b.used = (b.used + 15) & ~std::size_t(15);
    if (!b.bytes || b.used + nbytes > kBounceBytes) [[unlikely]]
        refill(j, b);
    if (b.node != int(node) + 1) b.node = b.node == kNoNode ? int(node) + 1 : kManyNodes;
    char* copy = b.bytes + b.used;
    if (nbytes == 8) std::memcpy(copy, src, 8);  // the common register-sized put, inlined
    else std::memcpy(copy, src, nbytes);
    b.used += nbytes;
    return copy;
}

// A small non-bulk implicit-handle put through MPI: copied to the ring and
// added to this thread's run.
void put_nbi_small(rt::Job& j, const rt::Target& t, gasnet_node_t node, const void* src, std::size_t nbytes) {
    Run& r = t_run;
    const bool extends = r.bytes != 0 && r.window == t.window && r.node == int(node) && r.offset + r.bytes == t.offset;
    if (!extends) issue_run();
    const char* copy = bounce(j, src, nbytes, node, extends);
    if (r.bytes != 0 && copy == r.src + r.bytes) {  // (a refill issued the run)
        r.bytes += nbytes;
    } else {
        issue_run();
        r = {t.window, int(node), t.offset, copy, nbytes};
    }
}

// How an operation must end.
enum class Sync { blocking, explicit_handle, implicit };

[[gnu::always_inline]] inline gasnet_handle_t finish(rt::Job& j, const rt::Target& t, gasnet_node_t node, Sync sync, bool is_put) {
    if (t.direct) {
        std::atomic_thread_fence(std::memory_order_seq_cst);  // visible before anything that follows
        return GASNET_INVALID_HANDLE;
    }
    switch (sync) {
        case Sync::blocking: t.window->flush(int(node)); return GASNET_INVALID_HANDLE;
        case Sync::explicit_handle: return node_handle(node);
        case Sync::implicit:
            if (t_nbi.in_region) t_nbi.region_ops = true;
            else (is_put ? t_nbi.puts : t_nbi.gets) = true;
            return GASNET_INVALID_HANDLE;
    }
    (void)j;
    return GASNET_INVALID_HANDLE;
}

[[gnu::always_inline]] inline gasnet_handle_t put(const char* routine, gasnet_node_t node, void* dest, const void* src, std::size_t nbytes,
                    Sync sync, rt::Completion local) {
    rt::Job& j = extended_job(routine);
    if (nbytes == 0) {
        check_node(routine, j, node);
        return GASNET_INVALID_HANDLE;
    }
    const rt::Target t = remote(routine, j, node, dest, nbytes);  // checks node
    if (!t.direct && sync == Sync::implicit && local == rt::Completion::local && nbytes <= kBounceMax &&
        !t_nbi.in_region) {
        put_nbi_small(j, t, node, src, nbytes);
        t_nbi.puts = true;
        return GASNET_INVALID_HANDLE;
    }
    if (!t.direct) {
        if (sync == Sync::blocking) {
            local = rt::Completion::deferred;  // the flush in finish() completes it locally too
        } else if (local == rt::Completion::local && nbytes <= kBounceMax) {
            src = bounce(j, src, nbytes, node);  // the caller may reuse src; MPI sends the copy
            local = rt::Completion::deferred;
        }
    }
    rt::put_to(j, t, src, nbytes, int(node), local);
    return finish(j, t, node, sync, true);
}

[[gnu::always_inline]] inline gasnet_handle_t get(const char* routine, void* dest, gasnet_node_t node, const void* src, std::size_t nbytes,
                    Sync sync) {
    rt::Job& j = extended_job(routine);
    if (nbytes == 0) {
        check_node(routine, j, node);
        return GASNET_INVALID_HANDLE;
    }
    const rt::Target t = remote(routine, j, node, src, nbytes);  // checks node
    // Deferred even when blocking: finish() flushes the node, which
    // completes the get (a flush_local first would be a second round).
    rt::get_from(t, dest, nbytes, int(node), rt::Completion::deferred);
    return finish(j, t, node, sync, false);
}

// memset: direct, or puts of a buffer filled with the byte; completed
// before returning (every form: the buffer is reused).
gasnet_handle_t memset_remote(const char* routine, gasnet_node_t node, void* dest, int val, std::size_t nbytes) {
    rt::Job& j = extended_job(routine);
    check_node(routine, j, node);
    if (nbytes == 0) return GASNET_INVALID_HANDLE;
    const rt::Target t = remote(routine, j, node, dest, nbytes);
    if (t.direct) {
        std::memset(t.direct, val, nbytes);
        std::atomic_thread_fence(std::memory_order_seq_cst);
        return GASNET_INVALID_HANDLE;
    }
    thread_local std::vector<unsigned char> fill;
    const std::size_t chunk = std::min<std::size_t>(nbytes, std::size_t(1) << 16);
    fill.assign(chunk, static_cast<unsigned char>(val));
    for (std::size_t done = 0; done < nbytes; done += chunk)
        t.window->put(fill.data(), std::min(chunk, nbytes - done), int(node), t.offset + done);
    t.window->flush(int(node));
    return GASNET_INVALID_HANDLE;
}

void complete(gasnet_handle_t h) {
    const auto v = reinterpret_cast<std::uintptr_t>(h);
    if (!v) return;
    rt::Job& j = extended_job("gasnet_wait_syncnb");
    if ((v & 3) == kNode) {
        j.heap.window->flush(int(v >> 2));
        ring_completed(gasnet_node_t(v >> 2));
    } else {
        issue_run();
        j.heap.window->flush_all();
        ring_completed();
    }
}

void check_value_size(const char* routine, std::size_t nbytes) {
    if (nbytes == 0 || nbytes > SIZEOF_GASNET_REGISTER_VALUE_T) [[unlikely]]
        rt::fatal(routine, "nbytes %zu is not in 1..%d (SIZEOF_GASNET_REGISTER_VALUE_T)", nbytes,
                  SIZEOF_GASNET_REGISTER_VALUE_T);
}

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "value put/get copy the low-order bytes first");

void sync_implicit(const char* routine, bool puts, bool gets) {
    if (t_nbi.in_region) [[unlikely]]
        rt::fatal(routine, "called inside an access region (GASNet 1.8 §3.3.6)");
    if ((puts && t_nbi.puts) || (gets && t_nbi.gets)) {
        issue_run();  // the flush completes puts too, so none may stay unsent
        extended_job(routine).heap.window->flush_all();  // completes both kinds
        t_nbi.puts = t_nbi.gets = false;
        ring_completed();
    }
}

}  // namespace

}  // namespace gasket::gasnet

using namespace gasket;
using gasnet::Sync;
using rt::Completion;

extern "C" {

// ---- §3.2 blocking, §3.3.2 explicit handle, §3.3.4 implicit handle ----
// One family per synchronization: gasnet_{get,put}SUFFIX[_bulk] and
// gasnet_memsetSUFFIX.  The non-bulk puts may reuse src at once
// (Completion::local); the bulk ones only once synchronized.
#define GASKET_TRANSFERS(SUFFIX, RET, SYNC)                                                                   \
    RET gasnet_get##SUFFIX(void* dest, gasnet_node_t node, void* src, size_t nbytes) {                        \
        return static_cast<RET>(gasnet::get("gasnet_get" #SUFFIX, dest, node, src, nbytes, SYNC));            \
    }                                                                                                         \
    RET gasnet_put##SUFFIX(gasnet_node_t node, void* dest, void* src, size_t nbytes) {                        \
        return static_cast<RET>(                                                                              \
            gasnet::put("gasnet_put" #SUFFIX, node, dest, src, nbytes, SYNC, Completion::local));             \
    }                                                                                                         \
    RET gasnet_get##SUFFIX##_bulk(void* dest, gasnet_node_t node, void* src, size_t nbytes) {                 \
        return static_cast<RET>(gasnet::get("gasnet_get" #SUFFIX "_bulk", dest, node, src, nbytes, SYNC));    \
    }                                                                                                         \
    RET gasnet_put##SUFFIX##_bulk(gasnet_node_t node, void* dest, void* src, size_t nbytes) {                 \
        return static_cast<RET>(                                                                              \
            gasnet::put("gasnet_put" #SUFFIX "_bulk", node, dest, src, nbytes, SYNC, Completion::deferred));  \
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
    // One flush for the lot: of the handles' node when they agree, else of
    // every node.
    gasnet_handle_t common = GASNET_INVALID_HANDLE;
    for (size_t i = 0; i < numhandles; ++i) {
        if (handles[i] == GASNET_INVALID_HANDLE) continue;
        common = common == GASNET_INVALID_HANDLE || common == handles[i] ? handles[i] : gasnet::all_handle();
        handles[i] = GASNET_INVALID_HANDLE;
    }
    gasnet::complete(common);
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
void gasnet_wait_syncnbi_gets(void) { gasnet::sync_implicit("gasnet_wait_syncnbi_gets", false, true); }
void gasnet_wait_syncnbi_puts(void) { gasnet::sync_implicit("gasnet_wait_syncnbi_puts", true, false); }
void gasnet_wait_syncnbi_all(void) { gasnet::sync_implicit("gasnet_wait_syncnbi_all", true, true); }
int gasnet_try_syncnbi_gets(void) {
    gasnet::sync_implicit("gasnet_try_syncnbi_gets", false, true);
    return GASNET_OK;
}
int gasnet_try_syncnbi_puts(void) {
    gasnet::sync_implicit("gasnet_try_syncnbi_puts", true, false);
    return GASNET_OK;
}
int gasnet_try_syncnbi_all(void) {
    gasnet::sync_implicit("gasnet_try_syncnbi_all", true, true);
    return GASNET_OK;
}

// ---- §3.3.6 access regions ----
void gasnet_begin_nbi_accessregion(void) {
    if (gasnet::t_nbi.in_region)
        rt::fatal("gasnet_begin_nbi_accessregion", "an access region is already open: regions do not nest");
    gasnet::t_nbi.in_region = true;
    gasnet::t_nbi.region_ops = false;
}
gasnet_handle_t gasnet_end_nbi_accessregion(void) {
    if (!gasnet::t_nbi.in_region)
        rt::fatal("gasnet_end_nbi_accessregion", "no access region is open (gasnet_begin_nbi_accessregion)");
    gasnet::t_nbi.in_region = false;
    return gasnet::t_nbi.region_ops ? gasnet::all_handle() : GASNET_INVALID_HANDLE;
}

// ---- §3.4 register-memory operations ----
void gasnet_put_val(gasnet_node_t node, void* dest, gasnet_register_value_t value, size_t nbytes) {
    gasnet::check_value_size("gasnet_put_val", nbytes);
    gasnet::put("gasnet_put_val", node, dest, &value, nbytes, Sync::blocking, Completion::local);
}
gasnet_handle_t gasnet_put_nb_val(gasnet_node_t node, void* dest, gasnet_register_value_t value, size_t nbytes) {
    gasnet::check_value_size("gasnet_put_nb_val", nbytes);
    return gasnet::put("gasnet_put_nb_val", node, dest, &value, nbytes, Sync::explicit_handle, Completion::local);
}
void gasnet_put_nbi_val(gasnet_node_t node, void* dest, gasnet_register_value_t value, size_t nbytes) {
    gasnet::check_value_size("gasnet_put_nbi_val", nbytes);
    gasnet::put("gasnet_put_nbi_val", node, dest, &value, nbytes, Sync::implicit, Completion::local);
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
gasnet_threadinfo_t gasket_gasnet_threadinfo(void) { return &gasnet::t_nbi; }

}  // extern "C"
