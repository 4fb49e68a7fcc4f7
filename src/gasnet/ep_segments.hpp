// src/gasnet/ep_segments.hpp -- the bound segments of endpoints made by
// gex_EP_Create, as published to this process (gasnet-ex-api.txt,
// "gex_EP_PublishBoundSegment"; gasnet-ex-memory-kinds.txt §3, §4): for
// each endpoint index >= 1, a route per jobrank (rt::Route: the segment's
// address and size on its owner, its displacement in the job's dynamic
// window, and its address here when this process maps it: its own, and a
// node peer's GASNet-allocated one under the node fast path, whose pages
// are mapped here at publication).  RMA to such a segment is a copy when
// it is mapped here, else goes through that window (transfer.cpp's put_ep,
// get_ep).
//
// A device segment (gasnet-ex-memory-kinds.txt §4.1, a CUDA_UVA kind's) is
// not in the window and never in Route::direct (the CPU cannot load or
// store it): its route says `device`, and where this process reaches it by
// the kind's copies -- its own, or a node peer's mapped by CUDA IPC at
// publication -- `mapped` holds it; elsewhere transfers are staged through
// its owner (src/runtime/device_staging.hpp).  Only device_transfer
// (transfer.hpp) moves data to and from such a route.
//
// When the owner destroys the segment, the node peers it was published to
// unmap it and forget their routes (gex_Segment_Destroy below).
#pragma once

#include <gasnetex.h>

#include <array>
#include <atomic>
#include <cstdint>

#include "src/runtime/job.hpp"
#include "src/runtime/memory_kind.hpp"
#include "src/runtime/route.hpp"

namespace gasket::gasnet {

struct EpRoute : rt::Route {
    bool device = false;       // the segment is device memory (Route::direct stays null)
    rt::DeviceMapping mapped;  // device: where a copy reaches it here, and with which context (else unmapped)
};

// Per endpoint index, a route per jobrank, made at the first publication
// that names the index (all zero: nothing published) and kept for the
// process: a transfer reads it without a lock.
extern std::array<std::atomic<EpRoute*>, GASNET_MAXEPS> g_routes_of;

// The route to the bound segment of endpoint `index` (1 <= index <
// GASNET_MAXEPS) of jobrank `node` (< the job's size, checked by the
// caller), or null when none has been published to this process.  Inline:
// the TM-pair RMA path (gex_rma.cpp) asks it.
inline const EpRoute* ep_route(gex_EP_Index_t index, unsigned node) {
    const EpRoute* r = index < GASNET_MAXEPS ? g_routes_of[index].load(std::memory_order_acquire) : nullptr;
    return r && r[node].size ? &r[node] : nullptr;
}

// The context for device copies when [p, +bytes) lies in the device segment
// bound to this process's endpoint `index` (>= 1); else null (host memory,
// or not that segment).
void* local_device_context(gex_EP_Index_t index, const void* p, std::size_t bytes);

// gex_EP_PublishBoundSegment: collective over `tm` (a team, not a TM-pair,
// checked here): every member's created endpoints among eps[0, num_eps)
// that have a bound segment are exposed through the job's dynamic window
// (once per segment; a device segment is exported by CUDA IPC instead, and
// mapped by the members on its node under the node fast path) and their
// routes reach every member.  The primordial
// endpoint's segment is published by attach already.  Returns GASNET_OK;
// GASNET_ERR_NOT_INIT before the job's segment is attached (on every member
// alike: attach is collective); GASNET_ERR_BAD_ARG on every member when any
// member passed nonzero flags, a null eps with num_eps > 0 or an endpoint
// twice (they agree first, so none waits for another that refused).  Each
// refusal is printed, naming `routine`, unless verbose errors are off.  A
// bad handle is fatal, naming `routine`.  Over a team naming several
// endpoints of this process every member calls, each from its own thread
// (GASNET_PAR; fatal otherwise), and the process publishes what they all
// name (gex::meet); an endpoint two of them name is refused as above.
int publish_bound_segments(const char* routine, gex_TM_t tm, gex_EP_t* eps, std::size_t num_eps, gex_Flags_t flags);

// Job::on_segment_withdrawn for GASNet jobs (set by gasnet_init /
// gex_Client_Init): node peer `owner` is destroying the segment bound to
// its endpoint `ep`, at `base` in its process; the route to it is
// forgotten (later transfers there are fatal, as to an endpoint never
// published) and what this process mapped of it unmapped.  Runs in the
// withdrawal's Active Message handler.
void forget_withdrawn_segment(rt::Job& job, int owner, unsigned ep, std::uintptr_t base);

// gex_Segment_Destroy (memory kinds §4.3) is defined in ep_segments.cpp:
// before the segment is freed, each node peer it was published to unmaps
// it (rt::withdraw_segment, one Active Message round trip per such peer),
// so its pages or device memory are returned to the system at once.

}  // namespace gasket::gasnet
