// src/gasnet/ep_segments.cpp -- publication of created endpoints' bound
// segments and the routes it leaves (ep_segments.hpp).
#include "ep_segments.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <memory>
#include <mutex>
#include <vector>

#include "src/gex/objects.hpp"
#include "src/runtime/collective.hpp"
#include "src/runtime/job.hpp"
#include "src/runtime/node_pages.hpp"
#include "src/runtime/segment_withdrawal.hpp"
#include "src/runtime/team.hpp"
#include "state.hpp"

namespace gasket::gasnet {

std::array<std::atomic<EpRoute*>, GASNET_MAXEPS> g_routes_of;

namespace {

std::mutex g_publish_lock;

EpRoute* routes_for(gex_EP_Index_t index, int n) {
    EpRoute* r = g_routes_of[index].load(std::memory_order_acquire);
    if (r) return r;
    auto* made = new EpRoute[std::size_t(n)]();  // kept for the process
    g_routes_of[index].store(made, std::memory_order_release);
    return made;
}

// What one process publishes of one endpoint.
struct Published {
    std::uint32_t jobrank, index;
    std::uint64_t base, size;
    std::int64_t disp;
    std::int32_t pid, fd;  // its node-shareable pages (rt::NodePages), or fd -1
    // A device segment: exported (`exported`, else `why` says why not) for
    // the processes of its node to map.
    std::uint8_t device, exported;
    char why[126];
    rt::DeviceExport exported_range;
};

// This process's published segments that node peers may have mapped: per
// segment (its endpoint and base here), the jobranks of the members of its
// node it was published to.  gex_Segment_Destroy withdraws it from them.
// Under g_publish_lock.
struct SharedWith {
    gex_EP_Index_t index;
    std::uintptr_t base;
    std::vector<int> peers;
};
std::vector<SharedWith> g_shared_with;

// Notes that `p` (this process's) went to `team`'s members: those that are
// node peers under the node fast path may map it (host pages with an fd,
// or device memory that was exported).  Under g_publish_lock.
void note_shared(const rt::Job& job, const rt::Team& team, const Published& p) {
    if (p.device ? !p.exported : p.fd < 0) return;
    auto it = std::find_if(g_shared_with.begin(), g_shared_with.end(),
                           [&](const SharedWith& w) { return w.index == p.index && w.base == p.base; });
    if (it == g_shared_with.end()) it = g_shared_with.insert(g_shared_with.end(), SharedWith{p.index, p.base, {}});
    for (int pe : team.world_pes())
        if (pe != job.my_pe && job.shared_team->team_pe_of(pe) >= 0 &&
            std::find(it->peers.begin(), it->peers.end(), pe) == it->peers.end())
            it->peers.push_back(pe);
}

// Forgets the route to `owner`'s endpoint `index` when it leads to the
// segment at `base` there, unmapping what this process mapped of it.
// Under g_publish_lock.
void forget_route(const rt::Job& job, gex_EP_Index_t index, int owner, std::uintptr_t base) {
    EpRoute* routes = index < GASNET_MAXEPS ? g_routes_of[index].load(std::memory_order_acquire) : nullptr;
    if (!routes || owner < 0 || owner >= job.n_pes) return;
    EpRoute& r = routes[owner];
    if (!r.size || r.base != base) return;  // published again since, or never here
    if (owner != job.my_pe) {
        if (r.direct) rt::NodePages::unmap_peer(r.direct, r.size);
        rt::close_device(r.mapped);
    }
    r = EpRoute{};
}

// The route `p` leaves here for a device segment: its own context for this
// process's, else its mapping when its owner is a node peer under the node
// fast path and CUDA IPC maps it; else unmapped (transfers are staged
// through the owner, device_staging.hpp), saying why under SHMEM_DEBUG.
void route_device(const char* routine, const rt::Job& job, const Published& p, EpRoute& r) {
    r.device = true;
    if (int(p.jobrank) == job.my_pe) {
        const gasket_gex_ep* e = gex::created_ep_at(gex_EP_Index_t(p.index));
        const rt::MemoryKind* kind = e && e->segment ? gex::kind_object(e->segment->kind) : nullptr;
        r.mapped = rt::DeviceMapping{reinterpret_cast<char*>(std::uintptr_t(p.base)), nullptr,
                                     kind ? kind->copy_context() : nullptr};
        return;
    }
    std::string why;
    if (!p.exported)
        why = std::string("its owner could not export it: ") + p.why;
    else if (job.shared_team->team_pe_of(int(p.jobrank)) < 0)
        why = "it is on another node, or the node fast path is off";
    else if (r.mapped = rt::import_device(p.exported_range, why); r.mapped.at)
        return;
    rt::debug(routine, "the device segment of endpoint %u of jobrank %u is reached through Active Messages: %s",
              unsigned(p.index), unsigned(p.jobrank), why.c_str());
}

// The segment `p` describes, mapped here when its owner is a node peer this
// process reaches by load and store (the node fast path) and its pages can
// be mapped; else null (MPI reaches it).
char* map_if_peer(const rt::Job& job, const Published& p) {
    if (int(p.jobrank) == job.my_pe) return reinterpret_cast<char*>(std::uintptr_t(p.base));
    if (p.fd < 0 || job.shared_team->team_pe_of(int(p.jobrank)) < 0) return nullptr;
    return rt::NodePages::map_peer(p.pid, p.fd, std::size_t(p.size));
}

}  // namespace

void* local_device_context(gex_EP_Index_t index, const void* p, std::size_t bytes) {
    if (!gex::any_device_segment()) return nullptr;  // host memory only: the usual case, one load
    const gasket_gex_ep* e = gex::created_ep_at(index);
    if (!e || !e->segment || e->segment->kind == GEX_MK_HOST) return nullptr;
    const gasket_gex_segment& s = *e->segment;
    const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(p) - reinterpret_cast<std::uintptr_t>(s.addr);
    if (offset >= s.size || bytes > s.size - offset) return nullptr;
    const rt::MemoryKind* kind = gex::kind_object(s.kind);
    return kind ? kind->copy_context() : nullptr;
}

namespace {

// What a member of the team brings to publication, and takes from it.
struct PublishCall {
    int status;                 // GASNET_OK, or its own refusal
    std::vector<gex_EP_t> eps;  // its endpoints
    int result = GASNET_OK;
};

// Publishes the endpoints of every member of the team in this process
// (`calls`: each one's PublishCall) over the team's processes.
void publish_for(const char* routine, rt::Job& job, const gasket_gex_tm& t, gex_TM_t tm,
                 const std::vector<void*>& calls) {
    // Bad arguments are refused on every member alike, after an agreement:
    // one member's refusal must not leave the others waiting below.
    int status = GASNET_OK;
    std::vector<gex_EP_t> eps;
    for (void* c : calls) {
        const auto& call = *static_cast<const PublishCall*>(c);
        if (call.status != GASNET_OK && status == GASNET_OK) status = call.status;
        for (gex_EP_t ep : call.eps) {
            if (status == GASNET_OK && std::find(eps.begin(), eps.end(), ep) != eps.end())
                status = gex::refuse(GASNET_ERR_BAD_ARG, routine,
                                     "endpoint %p is named by two members of team %p in this process",
                                     static_cast<void*>(ep), static_cast<void*>(tm));
            eps.push_back(ep);
        }
    }
    const rt::Team& team = gex::processes(t);
    const bool agreed = rt::all_members(routine, team, status == GASNET_OK);
    if (!agreed && status == GASNET_OK)
        status = gex::refuse(GASNET_ERR_BAD_ARG, routine, "another member of team %p refused its arguments",
                             static_cast<void*>(tm));
    for (void* c : calls) {
        auto& call = *static_cast<PublishCall*>(c);
        call.result = call.status != GASNET_OK ? call.status : status;
    }
    if (!agreed) return;
    const std::size_t num_eps = eps.size();
    std::vector<Published> mine;
    for (std::size_t i = 0; i < num_eps; ++i) {
        const gasket_gex_ep& e = gex::ep_of(routine, eps[i]);
        if (e.index == 0 || !e.segment) continue;  // attach published the primordial one; no segment: nothing
        gasket_gex_segment& s = gex::segment_of(routine, e.segment);
        Published p{std::uint32_t(job.my_pe),
                    e.index,
                    reinterpret_cast<std::uintptr_t>(s.addr),
                    std::uint64_t(s.size),
                    0,
                    s.pages ? s.pages->pid() : 0,
                    s.pages ? s.pages->fd() : -1,
                    0,
                    0,
                    {},
                    {}};
        if (s.kind != GEX_MK_HOST) {
            // Device memory: exported for node peers; not in the window (an
            // MPI that is not CUDA-aware must never be handed it).
            std::string why;
            const rt::MemoryKind* kind = gex::kind_object(s.kind);
            p.device = 1;
            p.exported = kind && kind->export_range(s.addr, p.exported_range, why);
            if (!kind) why = "its memory kind was destroyed";
            std::snprintf(p.why, sizeof p.why, "%s", why.c_str());
            // Long payloads to it are copied into place by their senders,
            // or staged through this process (device_staging.hpp): the
            // handler is given its address here.
            job.am->bind_endpoint_segment(std::uint8_t(e.index), static_cast<char*>(s.addr), s.size, nullptr,
                                          kind ? kind->copy_context() : nullptr);
            mine.push_back(p);
            continue;
        }
        if (!s.exposed && job.dynamic_window) {
            s.disp = job.expose(s.addr, s.size);
            s.exposed = true;
        }
        p.disp = std::int64_t(s.disp);
        // Long payloads to it land in its segment (before any peer can send one)
        job.am->bind_endpoint_segment(std::uint8_t(e.index), static_cast<char*>(s.addr), s.size, job.dynamic_window);
        mine.push_back(p);
    }
    // Every member learns what every member publishes.
    const std::vector<char> all = rt::gather_to_all(routine, team, mine.data(), mine.size() * sizeof(Published));
    std::vector<Published> every(all.size() / sizeof(Published));
    if (!every.empty()) std::memcpy(every.data(), all.data(), every.size() * sizeof(Published));
    std::lock_guard<std::mutex> hold(g_publish_lock);
    for (const Published& p : every) {
        EpRoute& r = routes_for(gex_EP_Index_t(p.index), job.n_pes)[p.jobrank];
        if (r.direct && int(p.jobrank) != job.my_pe) rt::NodePages::unmap_peer(r.direct, r.size);  // replaced
        if (int(p.jobrank) != job.my_pe) rt::close_device(r.mapped);
        r = EpRoute{};
        static_cast<rt::Route&>(r) = rt::Route{std::uintptr_t(p.base), std::size_t(p.size), rt::Displacement(p.disp),
                                               p.device ? nullptr : map_if_peer(job, p)};
        if (p.device) route_device(routine, job, p, r);
    }
    for (const Published& p : mine) note_shared(job, team, p);
}

}  // namespace

int publish_bound_segments(const char* routine, gex_TM_t tm, gex_EP_t* eps, std::size_t num_eps, gex_Flags_t flags) {
    const gasket_gex_tm& t = gex::tm_of(routine, tm);
    rt::Job& job = initialized_job(routine);
    // Not attached: so on every member (attach is collective).
    if (!g_state.attached)
        return gex::refuse(
            GASNET_ERR_NOT_INIT, routine,
            "called before gex_Segment_Attach (or gasnet_attach): Gasket publishes the segments of created "
            "endpoints once the job's segment is attached");
    PublishCall call{GASNET_OK, {}};
    if (flags != 0) {
        call.status = gex::refuse(GASNET_ERR_BAD_ARG, routine, "flags 0x%x: must be 0", unsigned(flags));
    } else if (num_eps > 0 && !eps) {
        call.status = gex::refuse(GASNET_ERR_BAD_ARG, routine, "eps is NULL with num_eps %zu", num_eps);
    } else {
        for (std::size_t i = 0; i < num_eps && call.status == GASNET_OK; ++i) {
            gex::ep_of(routine, eps[i]);  // fatal for a bad handle
            for (std::size_t j = 0; j < i; ++j)
                if (eps[j] == eps[i]) {
                    call.status =
                        gex::refuse(GASNET_ERR_BAD_ARG, routine, "endpoint %p is named twice (eps[%zu], eps[%zu])",
                                    static_cast<void*>(eps[i]), j, i);
                    break;
                }
        }
        if (call.status == GASNET_OK) call.eps.assign(eps, eps + num_eps);
    }
    gex::meet(routine, t, &call, [&](const std::vector<void*>& calls) { publish_for(routine, job, t, tm, calls); });
    return call.result;
}

void forget_withdrawn_segment(rt::Job& job, int owner, unsigned ep, std::uintptr_t base) {
    std::lock_guard<std::mutex> hold(g_publish_lock);
    forget_route(job, gex_EP_Index_t(ep), owner, base);
}

}  // namespace gasket::gasnet

using namespace gasket;

extern "C" void gex_Segment_Destroy(gex_Segment_t segment, gex_Flags_t flags) noexcept {
    const char* routine = "gex_Segment_Destroy";
    gex::may_communicate(routine);
    gasket_gex_segment& s = gex::destroyable_segment(routine, segment, flags);
    const auto base = reinterpret_cast<std::uintptr_t>(s.addr);
    if (rt::Job* job = rt::g_job.get()) {
        // Taken out of the table under the lock, withdrawn without it: the
        // peers' own withdrawals, served while this one waits, take it.
        std::vector<gasnet::SharedWith> withdrawn;
        {
            std::lock_guard<std::mutex> hold(gasnet::g_publish_lock);
            for (auto it = gasnet::g_shared_with.begin(); it != gasnet::g_shared_with.end();)
                if (it->base == base) {
                    withdrawn.push_back(std::move(*it));
                    it = gasnet::g_shared_with.erase(it);
                } else {
                    ++it;
                }
            // This process's own route to it too (a transfer there through a
            // TM-pair is then fatal rather than a write into freed memory).
            for (gex_EP_Index_t index = 1; index < GASNET_MAXEPS; ++index)
                gasnet::forget_route(*job, index, job->my_pe, base);
        }
        for (const gasnet::SharedWith& w : withdrawn)
            rt::withdraw_segment(routine, *job, w.peers, std::uint8_t(w.index), base);
    }
    gex::release_segment(routine, segment, s);
}
