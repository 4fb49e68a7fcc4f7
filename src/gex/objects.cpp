// src/gex/objects.cpp -- the GASNet-EX objects and their queries: client
// data, the client, segment, team and endpoint queries, TM-pairs and rank
// translation (gasnet-ex-api.txt, "Client-Data", "Operations on ...").
#include "objects.hpp"

#include <atomic>
#include <mutex>
#include <unordered_set>

#include "src/runtime/am.hpp"
#include "src/runtime/error.hpp"
#include "src/runtime/job.hpp"

namespace gasket::gex {

Objects g_objects;

// The TM-pairs other than the primordial one (make_pair): a slot's address
// | 1.  Two bytes a slot, so each address is even.
std::uint16_t g_pair_slots[GASNET_MAXEPS * GASNET_MAXEPS];

namespace {

std::atomic<bool> g_verbose{true};

const void* raw(const void* h) { return h; }

[[noreturn, gnu::cold]] void not_made(const char* routine) {
    rt::fatal(routine, "called before gex_Client_Init (or gasnet_init)");
}

bool is_pair(gex_TM_t tm) { return pair_ends(tm, nullptr, nullptr); }

// The live teams made by gex_TM_Split / gex_TM_Create.  Never destroyed
// (a team may outlive the process's static objects), so what it points to
// stays reachable.
std::mutex g_teams_lock;
std::unordered_set<const gasket_gex_tm*>& live_teams() {
    static auto* teams = new std::unordered_set<const gasket_gex_tm*>;
    return *teams;
}

// The job's rank and size: the primordial team's.
int job_rank() { return rt::g_job->my_pe; }
int job_size() { return rt::g_job->n_pes; }

}  // namespace

void make_client(const char* name, gex_Flags_t flags, bool concurrent) {
    g_objects.tm.cdata = nullptr;
    g_objects.client = gasket_gex_client{};
    g_objects.ep = gasket_gex_ep{};
    g_objects.segment = gasket_gex_segment{};
    g_objects.client.name = name;
    g_objects.client.flags = flags;
    g_objects.client.concurrent = concurrent;
    g_objects.made = true;
}

void bind_segment(void* addr, std::uintptr_t size) {
    g_objects.segment.addr = addr;
    g_objects.segment.size = size;
    g_objects.ep.segment = &g_objects.segment;
}

gasket_gex_client& client_of(const char* routine, gex_Client_t client) {
    if (!g_objects.made) not_made(routine);
    if (client != &g_objects.client)
        rt::fatal(routine, "client %p is not this process's client (%p)", raw(client), raw(&g_objects.client));
    return g_objects.client;
}

gasket_gex_ep& ep_of(const char* routine, gex_EP_t ep) {
    if (!g_objects.made) not_made(routine);
    if (ep == &g_objects.ep) return g_objects.ep;
    if (gasket_gex_ep* made = find_created_ep(ep)) return *made;
    rt::fatal(routine, "endpoint %p is not an endpoint of this process (the primordial one is %p)", raw(ep),
              raw(&g_objects.ep));
}

gasket_gex_tm& tm_of(const char* routine, gex_TM_t tm) {
    if (!g_objects.made) not_made(routine);
    if (is_pair(tm)) rt::fatal(routine, "tm %p is a TM-pair (gex_TM_Pair), which this call does not accept", raw(tm));
    if (tm == &g_objects.tm) return g_objects.tm;
    if (gasket_gex_tm* made = find_team(tm)) return *made;
    rt::fatal(routine, "tm %p is not a team of this process (the primordial team is %p; a destroyed team is none)",
              raw(tm), raw(&g_objects.tm));
}

gasket_gex_segment& segment_of(const char* routine, gex_Segment_t seg) {
    if (!g_objects.made) not_made(routine);
    if (seg == &g_objects.segment && g_objects.ep.segment) return g_objects.segment;
    if (gasket_gex_segment* made = find_created_segment(seg)) {
        if (!made->live) rt::fatal(routine, "segment %p was destroyed (gex_Segment_Destroy)", raw(seg));
        return *made;
    }
    if (!g_objects.ep.segment)
        rt::fatal(routine, "segment %p is not a segment of this process (none is attached yet)", raw(seg));
    rt::fatal(routine, "segment %p is not a segment of this process (its attach segment is %p)", raw(seg),
              raw(&g_objects.segment));
}

gex_TM_t make_pair(gex_EP_Index_t local, gex_EP_Index_t remote) {
    if (local == 0 && remote == 0) return primordial_pair();
    const auto slot = reinterpret_cast<std::uintptr_t>(&g_pair_slots[std::size_t(local) * GASNET_MAXEPS + remote]);
    return reinterpret_cast<gex_TM_t>(slot | 1);
}

namespace {

// The made team `tm` names, `rank` checked against its size; fatal, naming
// `routine`, for a tm that is no live team (nor a TM-pair) or a rank out of
// range.
const gasket_gex_tm& made_team(const char* routine, gex_TM_t tm, gex_Rank_t rank) {
    const gasket_gex_tm* t = find_team(tm);
    if (!t)
        rt::fatal(routine,
                  "tm %p is neither a team of this process nor a TM-pair (the primordial team is %p; a destroyed "
                  "team is none)",
                  raw(tm), raw(&g_objects.tm));
    if (rank >= t->size)
        rt::fatal(routine, "rank %u is out of range: team %p has ranks 0..%u", unsigned(rank), raw(tm),
                  unsigned(t->size - 1));
    return *t;
}

}  // namespace

gex_EP_Location_t p2p_location(const char* routine, gex_TM_t tm, gex_Rank_t rank) {
    if (!g_objects.made) not_made(routine);
    gex_EP_Index_t local = 0, remote = 0;
    if (pair_ends(tm, &local, &remote)) return gex_EP_Location_t{rank, remote};
    if (tm == primordial_tm()) return gex_EP_Location_t{rank, 0};
    const gasket_gex_tm& t = made_team(routine, tm, rank);
    return gex_EP_Location_t{gex_Rank_t(t.jobranks[rank]), t.ep_index(rank)};
}

gex_EP_Index_t local_ep_index(const char* routine, gex_TM_t tm) {
    if (!g_objects.made) not_made(routine);
    gex_EP_Index_t local = 0;
    if (pair_ends(tm, &local, nullptr) || tm == primordial_tm()) return local;
    const gasket_gex_tm& t = made_team(routine, tm, 0);
    return t.ep ? t.ep->index : 0;
}

void register_team(gasket_gex_tm* tm) {
    std::lock_guard<std::mutex> hold(g_teams_lock);
    live_teams().insert(tm);
}
void unregister_team(gasket_gex_tm* tm) {
    std::lock_guard<std::mutex> hold(g_teams_lock);
    live_teams().erase(tm);
}
gasket_gex_tm* find_team(gex_TM_t tm) {
    std::lock_guard<std::mutex> hold(g_teams_lock);
    return live_teams().count(tm) ? tm : nullptr;
}

namespace {

// The jobrank of `rank` in the team `tm` (not a TM-pair); fatal, naming
// `routine`, when rank is not below the team's size.
gex_Rank_t rank_to_jobrank(const char* routine, gex_TM_t tm, gex_Rank_t rank) {
    const gasket_gex_tm& t = tm_of(routine, tm);
    const gex_Rank_t size = t.jobranks ? t.size : gex_Rank_t(job_size());
    if (rank >= size)
        rt::fatal(routine, "rank %u is out of range: the team has ranks 0..%u", unsigned(rank), unsigned(size - 1));
    return t.jobranks ? gex_Rank_t(t.jobranks[rank]) : rank;
}

}  // namespace

void may_communicate(const char* routine) {
    const rt::AmThreadState& t = rt::am_thread_state();
    if (t.handler_depth > 0)
        rt::fatal(routine,
                  "called inside an Active Message handler: this call may communicate, which handler context "
                  "prohibits (gasnet-ex-memory-kinds.txt §3.6)");
    if (t.held_locks > 0)
        rt::fatal(routine,
                  "called while holding %d handler-safe lock(s): this call may communicate, which holding an HSL "
                  "prohibits (gasnet-ex-memory-kinds.txt §3.6)",
                  t.held_locks);
}

bool verbose() { return g_verbose.load(std::memory_order_relaxed); }
void set_verbose(bool on) { g_verbose.store(on, std::memory_order_relaxed); }

}  // namespace gasket::gex

using namespace gasket;

extern "C" {

// ---- client data ----
void gex_Client_SetCData(gex_Client_t client, const void* val) noexcept {
    gex::client_of("gex_Client_SetCData", client).cdata = val;
}
void* gex_Client_QueryCData(gex_Client_t client) noexcept {
    return const_cast<void*>(gex::client_of("gex_Client_QueryCData", client).cdata);
}
void gex_Segment_SetCData(gex_Segment_t seg, const void* val) noexcept {
    gex::segment_of("gex_Segment_SetCData", seg).cdata = val;
}
void* gex_Segment_QueryCData(gex_Segment_t seg) noexcept {
    return const_cast<void*>(gex::segment_of("gex_Segment_QueryCData", seg).cdata);
}
void gex_TM_SetCData(gex_TM_t tm, const void* val) noexcept { gex::tm_of("gex_TM_SetCData", tm).cdata = val; }
void* gex_TM_QueryCData(gex_TM_t tm) noexcept { return const_cast<void*>(gex::tm_of("gex_TM_QueryCData", tm).cdata); }
void gex_EP_SetCData(gex_EP_t ep, const void* val) noexcept { gex::ep_of("gex_EP_SetCData", ep).cdata = val; }
void* gex_EP_QueryCData(gex_EP_t ep) noexcept { return const_cast<void*>(gex::ep_of("gex_EP_QueryCData", ep).cdata); }

// ---- clients ----
gex_Flags_t gex_Client_QueryFlags(gex_Client_t client) noexcept {
    return gex::client_of("gex_Client_QueryFlags", client).flags;
}
const char* gex_Client_QueryName(gex_Client_t client) noexcept {
    return gex::client_of("gex_Client_QueryName", client).name.c_str();
}

// ---- segments ----
gex_Client_t gex_Segment_QueryClient(gex_Segment_t seg) noexcept {
    gex::segment_of("gex_Segment_QueryClient", seg);
    return &gex::g_objects.client;
}
gex_Flags_t gex_Segment_QueryFlags(gex_Segment_t seg) noexcept {
    gex::segment_of("gex_Segment_QueryFlags", seg);
    return 0;
}
void* gex_Segment_QueryAddr(gex_Segment_t seg) noexcept { return gex::segment_of("gex_Segment_QueryAddr", seg).addr; }
uintptr_t gex_Segment_QuerySize(gex_Segment_t seg) noexcept {
    return gex::segment_of("gex_Segment_QuerySize", seg).size;
}

// ---- teams ----
gex_Client_t gex_TM_QueryClient(gex_TM_t tm) noexcept {
    gex::tm_of("gex_TM_QueryClient", tm);
    return &gex::g_objects.client;
}
gex_EP_t gex_TM_QueryEP(gex_TM_t tm) noexcept {
    const gasket_gex_tm& t = gex::tm_of("gex_TM_QueryEP", tm);
    return t.ep ? t.ep : &gex::g_objects.ep;
}
gex_Flags_t gex_TM_QueryFlags(gex_TM_t tm) noexcept { return gex::tm_of("gex_TM_QueryFlags", tm).flags; }
gex_Rank_t gex_TM_QueryRank(gex_TM_t tm) noexcept {
    const gasket_gex_tm& t = gex::tm_of("gex_TM_QueryRank", tm);
    return t.jobranks ? t.rank : gex_Rank_t(gex::job_rank());
}
gex_Rank_t gex_TM_QuerySize(gex_TM_t tm) noexcept {
    const gasket_gex_tm& t = gex::tm_of("gex_TM_QuerySize", tm);
    return t.jobranks ? t.size : gex_Rank_t(gex::job_size());
}

gex_TM_t gex_TM_Pair(gex_EP_t local_ep, gex_EP_Index_t remote_ep_index) noexcept {
    const char* routine = "gex_TM_Pair";
    const gasket_gex_ep& local = gex::ep_of(routine, local_ep);
    if (remote_ep_index >= GASNET_MAXEPS)
        rt::fatal(routine, "remote_ep_index %u is not an endpoint index (0..%d)", unsigned(remote_ep_index),
                  GASNET_MAXEPS - 1);
    return gex::make_pair(local.index, remote_ep_index);
}

gex_Rank_t gex_TM_TranslateRankToJobrank(gex_TM_t tm, gex_Rank_t rank) noexcept {
    return gex::rank_to_jobrank("gex_TM_TranslateRankToJobrank", tm, rank);
}
gex_Rank_t gex_TM_TranslateJobrankToRank(gex_TM_t tm, gex_Rank_t jobrank) noexcept {
    const char* routine = "gex_TM_TranslateJobrankToRank";
    const gasket_gex_tm& t = gex::tm_of(routine, tm);
    if (jobrank >= gex_Rank_t(gex::job_size()))
        rt::fatal(routine, "jobrank %u is out of range: the job has jobranks 0..%d", unsigned(jobrank),
                  gex::job_size() - 1);
    return gex::rank_of_jobrank(t, jobrank);
}
gex_EP_Location_t gex_TM_TranslateRankToEP(gex_TM_t tm, gex_Rank_t rank, gex_Flags_t flags) noexcept {
    const char* routine = "gex_TM_TranslateRankToEP";
    gex::may_communicate(routine);
    if (flags != 0) rt::fatal(routine, "flags 0x%x: this call takes none (0)", unsigned(flags));
    const gex_Rank_t jobrank = gex::rank_to_jobrank(routine, tm, rank);  // checks tm and rank
    const gasket_gex_tm& t = gex::tm_of(routine, tm);
    return gex_EP_Location_t{jobrank, t.ep_index(rank)};
}

// ---- endpoints ----
gex_Client_t gex_EP_QueryClient(gex_EP_t ep) noexcept {
    gex::ep_of("gex_EP_QueryClient", ep);
    return &gex::g_objects.client;
}
gex_Flags_t gex_EP_QueryFlags(gex_EP_t ep) noexcept { return gex::ep_of("gex_EP_QueryFlags", ep).flags; }
gex_Segment_t gex_EP_QuerySegment(gex_EP_t ep) noexcept { return gex::ep_of("gex_EP_QuerySegment", ep).segment; }
gex_EP_Index_t gex_EP_QueryIndex(gex_EP_t ep) noexcept { return gex::ep_of("gex_EP_QueryIndex", ep).index; }

// ---- verbose errors ----
int gex_System_GetVerboseErrors(void) noexcept { return gex::verbose() ? 1 : 0; }
void gex_System_SetVerboseErrors(int enable) noexcept {
    if (enable != 0 && enable != 1) {
        rt::error("gex_System_SetVerboseErrors", "enable %d is reserved (0 or 1): the setting is unchanged", enable);
        return;
    }
    gex::set_verbose(enable == 1);
}

}  // extern "C"
