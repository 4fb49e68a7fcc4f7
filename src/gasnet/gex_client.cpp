// src/gasnet/gex_client.cpp -- GASNet-EX's client and segment creation and
// the bound-segment queries (gasnet-ex-api.txt, "Operations on
// gex_Client_t", "Operations on gex_Segment_t", "Operations on gex_EP_t"),
// over the job start and segment attach gasnet_init/gasnet_attach use, so a
// GASNet-1 and a GASNet-EX program start the same job.
#include <gasnet.h>

#include <cctype>
#include <cstring>

#include "src/gex/objects.hpp"
#include "ep_segments.hpp"
#include "state.hpp"
#include "transfer.hpp"

namespace gasket::gasnet {

namespace {

// [A-Z][A-Z0-9_]+
bool valid_client_name(const char* name) {
    if (!name || !(name[0] >= 'A' && name[0] <= 'Z') || name[1] == '\0') return false;
    for (const char* c = name + 1; *c; ++c)
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_')) return false;
    return true;
}

// The bound segment of endpoint (tm, rank) (a team or TM-pair: both name
// jobranks): its owner's address, size (0 when none, or a created
// endpoint's not published to this process) and, when this process maps
// it, its address here.
struct Bound {
    void* owner = nullptr;
    void* local = nullptr;
    std::uintptr_t size = 0;
};
Bound bound_segment(const char* routine, gex_TM_t tm, gex_Rank_t rank) {
    const gex_EP_Location_t at = gex::p2p_location(routine, tm, rank);
    rank = at.gex_rank;
    rt::Job& job = initialized_job(routine);
    if (rank >= gex_Rank_t(job.n_pes))
        rt::fatal(routine, "rank %u is out of range: the team has ranks 0..%d", unsigned(rank), job.n_pes - 1);
    Bound b;
    if (!g_state.attached) return b;  // no segment anywhere yet
    if (at.gex_ep_index != 0) {
        if (int(rank) == job.my_pe) {  // this process's own endpoint: published or not
            const gasket_gex_ep* e = gex::created_ep_at(at.gex_ep_index);
            if (e && e->segment) {
                const gasket_gex_segment& s = *e->segment;
                b.owner = b.local = s.addr;
                b.size = s.size;
            }
        } else if (const rt::Route* r = ep_route(at.gex_ep_index, rank)) {
            b.owner = reinterpret_cast<void*>(r->base);
            b.size = r->size;
            b.local = r->direct;
        }
        return b;
    }
    const gasnet_seginfo_t& seg = g_state.segments[rank];
    if (seg.size == 0) return b;
    b.owner = seg.addr;
    b.size = seg.size;
    if (int(rank) == job.my_pe)
        b.local = seg.addr;
    else if (g_routes.node && g_routes.node[rank].direct)
        b.local = g_routes.node[rank].direct;
    return b;
}

}  // namespace

}  // namespace gasket::gasnet

using namespace gasket;
using gasket::gasnet::g_state;

extern "C" {

int gasket_gex_Client_Init(gex_Client_t* client_p, gex_EP_t* ep_p, gex_TM_t* tm_p, const char* clientName, int* argc,
                           char*** argv, gex_Flags_t flags, int thread_mode) noexcept {
    (void)argc;
    (void)argv;
    const char* routine = "gex_Client_Init";
    if (!client_p || !ep_p || !tm_p)
        return gex::refuse(GASNET_ERR_BAD_ARG, routine, "client_p %p, ep_p %p, tm_p %p: none may be NULL",
                           static_cast<void*>(client_p), static_cast<void*>(ep_p), static_cast<void*>(tm_p));
    if (!gasnet::valid_client_name(clientName))
        return gex::refuse(GASNET_ERR_BAD_ARG, routine, "clientName \"%s\" does not match [A-Z][A-Z0-9_]+",
                           clientName ? clientName : "(null)");
    const gex_Flags_t allowed = GEX_FLAG_USES_GASNET1 | GEX_FLAG_DEFER_THREADS;
    if (flags & ~allowed)
        return gex::refuse(GASNET_ERR_BAD_ARG, routine,
                           "flags 0x%x: only GEX_FLAG_USES_GASNET1 and GEX_FLAG_DEFER_THREADS are accepted",
                           unsigned(flags));
    if (g_state.initialized)
        return gex::refuse(GASNET_ERR_RESOURCE, routine,
                           "this process's client exists already (gex_Client_Init or gasnet_init was called): one "
                           "client per job");
    const int status = gasnet::init_job(routine, thread_mode);
    if (status != GASNET_OK) return status;
    gex::make_client(clientName, flags, thread_mode == 2);  // 2: GASNET_PAR
    *client_p = &gex::g_objects.client;
    *ep_p = &gex::g_objects.ep;
    *tm_p = gex::primordial_tm();
    rt::g_job->env->barrier();  // creation is complete everywhere before any process returns
    return GASNET_OK;
}

int gex_Segment_Attach(gex_Segment_t* segment_p, gex_TM_t tm, uintptr_t size) noexcept {
    const char* routine = "gex_Segment_Attach";
    if (!g_state.initialized) return gex::refuse(GASNET_ERR_NOT_INIT, routine, "called before gex_Client_Init");
    if (!segment_p) return gex::refuse(GASNET_ERR_BAD_ARG, routine, "segment_p is NULL");
    if (tm != gex::primordial_tm())
        return gex::refuse(GASNET_ERR_BAD_ARG, routine, "tm %p is not the primordial team (%p)", static_cast<void*>(tm),
                           static_cast<void*>(gex::primordial_tm()));
    if (size == 0)
        return gex::refuse(GASNET_ERR_BAD_ARG, routine, "size 0: a segment has a nonzero multiple of %d bytes",
                           GASNET_PAGESIZE);
    const int status = gasnet::attach_job(routine, nullptr, 0, size);
    if (status != GASNET_OK) return status;
    *segment_p = gex::g_objects.ep.segment;
    return GASNET_OK;
}

int gex_Segment_Create(gex_Segment_t* segment_p, gex_Client_t client, gex_Addr_t address, uintptr_t length,
                       gex_MK_t kind, gex_Flags_t flags) noexcept {
    const char* routine = "gex_Segment_Create";
    gex::client_of(routine, client);
    rt::Job& job = gasnet::initialized_job(routine);
    if (!segment_p) return gex::refuse(GASNET_ERR_BAD_ARG, routine, "segment_p is NULL");
    if (flags) return gex::refuse(GASNET_ERR_BAD_ARG, routine, "flags 0x%x: must be 0", unsigned(flags));
    if (!gex::live_kind(kind))
        return gex::refuse(GASNET_ERR_BAD_ARG, routine,
                           "kind %p is neither GEX_MK_HOST nor a live kind of gex_MK_Create", static_cast<void*>(kind));
    if (length == 0) return gex::refuse(GASNET_ERR_BAD_ARG, routine, "length 0: a segment has at least one byte");
    if (kind != GEX_MK_HOST) {  // device memory (memory kinds §4.2): the client's, or the kind's allocation
        uintptr_t end = 0;
        if (address && __builtin_add_overflow(reinterpret_cast<uintptr_t>(address), length, &end))
            return gex::refuse(GASNET_ERR_BAD_ARG, routine, "address %p + length %ju wraps around the address space",
                               address, uintmax_t(length));
        std::string why;
        int code = GASNET_OK;
        gasket_gex_segment* seg = gex::make_device_segment(kind, address, length, why, code);
        if (!seg) return gex::refuse(code, routine, "%s", why.c_str());
        *segment_p = seg;
        return GASNET_OK;
    }
    uintptr_t bytes = length;
    if (address) {
        uintptr_t end = 0;
        if (__builtin_add_overflow(reinterpret_cast<uintptr_t>(address), length, &end))
            return gex::refuse(GASNET_ERR_BAD_ARG, routine, "address %p + length %ju wraps around the address space",
                               address, uintmax_t(length));
    } else {
        const uintptr_t max = gasnet::max_local_segment(job);  // a multiple of GASNET_PAGESIZE
        if (length > max)
            return gex::refuse(GASNET_ERR_BAD_ARG, routine, "length %ju is above gasnet_getMaxLocalSegmentSize() = %ju",
                               uintmax_t(length), uintmax_t(max));
        bytes = (length + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;  // <= max: no overflow
    }
    gasket_gex_segment* seg = gex::make_host_segment(address, bytes);
    if (!seg)
        return gex::refuse(GASNET_ERR_RESOURCE, routine, "%ju bytes of host memory cannot be had", uintmax_t(bytes));
    *segment_p = seg;
    return GASNET_OK;
}

void gasnet_QueryGexObjects(gex_Client_t* client_p, gex_EP_t* endpoint_p, gex_TM_t* tm_p,
                            gex_Segment_t* segment_p) noexcept {
    gasnet::initialized_job("gasnet_QueryGexObjects");
    if (client_p) *client_p = &gex::g_objects.client;
    if (endpoint_p) *endpoint_p = &gex::g_objects.ep;
    if (tm_p) *tm_p = gex::primordial_tm();
    if (segment_p) *segment_p = gex::g_objects.ep.segment;
}

gex_Event_t gex_EP_QueryBoundSegmentNB(gex_TM_t tm, gex_Rank_t rank, void** owneraddr_p, void** localaddr_p,
                                       uintptr_t* size_p, gex_Flags_t flags) noexcept {
    const char* routine = "gex_EP_QueryBoundSegmentNB";
    if (flags & ~GEX_FLAG_IMMEDIATE)
        rt::fatal(routine, "flags 0x%x: only GEX_FLAG_IMMEDIATE is accepted", unsigned(flags));
    const gasnet::Bound b = gasnet::bound_segment(routine, tm, rank);
    if (owneraddr_p) *owneraddr_p = b.owner;
    if (localaddr_p) *localaddr_p = b.local;
    if (size_p) *size_p = b.size;
    return GEX_EVENT_INVALID;
}

int gex_Segment_QueryBound(gex_TM_t tm, gex_Rank_t rank, void** owneraddr_p, void** localaddr_p,
                           uintptr_t* size_p) noexcept {
    const gasnet::Bound b = gasnet::bound_segment("gex_Segment_QueryBound", tm, rank);
    if (b.size == 0) return 1;  // outputs untouched
    if (owneraddr_p) *owneraddr_p = b.owner;
    if (localaddr_p) *localaddr_p = b.local;
    if (size_p) *size_p = b.size;
    return 0;
}

int gex_EP_PublishBoundSegment(gex_TM_t tm, gex_EP_t* eps, size_t num_eps, gex_Flags_t flags) noexcept {
    gex::may_communicate("gex_EP_PublishBoundSegment");
    return gasnet::publish_bound_segments("gex_EP_PublishBoundSegment", tm, eps, num_eps, flags);
}

}  // extern "C"
