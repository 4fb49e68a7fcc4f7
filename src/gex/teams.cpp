// src/gex/teams.cpp -- GASNet-EX team construction and destruction
// (gasnet-ex-api.txt, "Operations on gex_TM_t": gex_TM_Split,
// gex_TM_Create, gex_TM_Destroy; gasnet-ex-memory-kinds.txt §5.2:
// gex_TM_Dup) over the runtime's teams: each new team is
// a colour split of its parent's (rt::Team::split), made after the parent's
// members have met in a barrier that serves Active Messages, so a member
// still waiting for a reply from one already inside the call is answered.
//
// Scratch space: Gasket's team collectives run on MPI and use none.  What
// the client grants is checked (inside the caller's bound segment), kept
// untouched and handed back by gex_TM_Destroy; the size queries recommend
// kScratchBytes, the smallest grant the specification allows made
// cache-line sized.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "objects.hpp"
#include "src/runtime/collective.hpp"
#include "src/runtime/error.hpp"
#include "src/runtime/job.hpp"
#include "src/runtime/team.hpp"

namespace gasket::gex {

void TeamDelete::operator()(const rt::Team* t) const { delete t; }

const rt::Team& members(const gasket_gex_tm& tm) { return tm.team ? *tm.team : *rt::g_job->world_team; }

namespace {

constexpr std::size_t kScratchBytes = 64;
constexpr gex_Flags_t kSizeQuery = GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED | GEX_FLAG_TM_SCRATCH_SIZE_MIN;
constexpr gex_Flags_t kScratchKinds =
    GEX_FLAG_TM_GLOBAL_SCRATCH | GEX_FLAG_TM_LOCAL_SCRATCH | GEX_FLAG_TM_SYMMETRIC_SCRATCH | GEX_FLAG_TM_NO_SCRATCH;

const void* raw(const void* p) { return p; }

// The size query's answer (both flags; MIN is deprecated and says so).
std::size_t scratch_query(const char* routine, gex_Flags_t flags, bool member) {
    if ((flags & kSizeQuery) == kSizeQuery)
        rt::fatal(routine, "flags 0x%x: GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED and _MIN exclude each other",
                  unsigned(flags));
    if (flags & GEX_FLAG_TM_SCRATCH_SIZE_MIN)
        rt::error(routine,
                  "GEX_FLAG_TM_SCRATCH_SIZE_MIN is deprecated (spec 0.11): use GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED");
    return member ? kScratchBytes : 0;
}

// Fatal unless [addr, +len) is a nonzero range inside the bound segment of
// this process's member `ep` (null: the primordial endpoint), a host one
// (where the specification puts scratch space).
void check_scratch(const char* routine, const void* addr, std::size_t len, const gasket_gex_ep* ep = nullptr) {
    if (len == 0) rt::fatal(routine, "scratch_size is 0: pass a nonzero size, or GEX_FLAG_TM_NO_SCRATCH");
    if (!ep) ep = &g_objects.ep;
    if (!ep->segment)
        rt::fatal(routine, "scratch space needs a bound segment, and endpoint %u has none: pass GEX_FLAG_TM_NO_SCRATCH",
                  unsigned(ep->index));
    const gasket_gex_segment& seg = *ep->segment;
    if (seg.kind != GEX_MK_HOST)
        rt::fatal(routine,
                  "scratch space must be host memory, and endpoint %u's segment is not: pass "
                  "GEX_FLAG_TM_NO_SCRATCH (memory kinds §5.3 20)",
                  unsigned(ep->index));
    const auto a = reinterpret_cast<std::uintptr_t>(addr), base = reinterpret_cast<std::uintptr_t>(seg.addr);
    if (a < base || a - base > seg.size || seg.size - (a - base) < len)
        rt::fatal(routine, "scratch [%p, +%zu) is not inside the bound segment [%p, +%zu)", addr, len, seg.addr,
                  std::size_t(seg.size));
}

// Makes and registers the handle of `team` (this process's member, `ep`
// when it is a created endpoint, the members' endpoint indices in
// `ep_indices` when any is not 0).
gex_TM_t adopt(std::unique_ptr<rt::Team> team, gex_Flags_t flags, void* scratch, std::size_t scratch_len,
               gasket_gex_ep* ep = nullptr, std::vector<gex_EP_Index_t> ep_indices = {}) {
    auto* t = new gasket_gex_tm;
    t->ep = ep;
    t->ep_indices = std::move(ep_indices);
    t->flags = flags;
    t->rank = gex_Rank_t(team->my_pe());
    t->size = gex_Rank_t(team->n_pes());
    t->jobranks = team->world_pes().data();
    t->scratch = gex_Memvec_t{scratch, scratch_len};
    t->team.reset(team.release());
    register_team(t);
    return t;
}

}  // namespace

}  // namespace gasket::gex

using namespace gasket;

extern "C" {

size_t gex_TM_Split(gex_TM_t* new_tm_p, gex_TM_t parent_tm, int color, int key, void* scratch_addr, size_t scratch_size,
                    gex_Flags_t flags) noexcept {
    const char* routine = "gex_TM_Split";
    gex::may_communicate(routine);
    const gasket_gex_tm& parent = gex::tm_of(routine, parent_tm);
    if (flags & ~(gex::kSizeQuery | GEX_FLAG_TM_NO_SCRATCH))
        rt::fatal(routine,
                  "flags 0x%x: only GEX_FLAG_TM_NO_SCRATCH and GEX_FLAG_TM_SCRATCH_SIZE_{RECOMMENDED,MIN} are accepted",
                  unsigned(flags));
    if (flags & gex::kSizeQuery) return gex::scratch_query(routine, flags, new_tm_p != nullptr);
    const bool scratch = !(flags & GEX_FLAG_TM_NO_SCRATCH);
    if (new_tm_p) {
        if (color < 0) rt::fatal(routine, "color %d is negative (a member passes a colour >= 0)", color);
        if (scratch) gex::check_scratch(routine, scratch_addr, scratch_size, parent.ep);
    }
    const rt::Team& from = gex::members(parent);
    rt::all_members(routine, from, true);  // every member is here (Active Messages served meanwhile)
    std::unique_ptr<rt::Team> team = from.split(new_tm_p ? color : -1, key);
    if (!new_tm_p) return 0;
    // A team over created endpoints splits into teams over the same
    // endpoints (memory kinds §5): each member keeps its endpoint index.
    std::vector<gex_EP_Index_t> ep_indices;
    if (!parent.ep_indices.empty())
        for (int jobrank : team->world_pes())
            ep_indices.push_back(parent.ep_index(gex_Rank_t(from.team_pe_of(jobrank))));
    *new_tm_p = gex::adopt(std::move(team), flags, scratch ? scratch_addr : nullptr, scratch ? scratch_size : 0,
                           parent.ep, std::move(ep_indices));
    return 0;
}

size_t gex_TM_Create(gex_TM_t* new_tms, size_t num_new_tms, gex_TM_t parent_tm, gex_EP_Location_t* args, size_t numargs,
                     gex_Addr_t* scratch_addrs, size_t scratch_size, gex_Flags_t flags) noexcept {
    const char* routine = "gex_TM_Create";
    gex::may_communicate(routine);
    const gasket_gex_tm& parent = gex::tm_of(routine, parent_tm);
    const rt::Team& from = gex::members(parent);
    if (flags & ~(gex::kSizeQuery | gex::kScratchKinds | GEX_FLAG_RANK_IS_JOBRANK))
        rt::fatal(routine,
                  "flags 0x%x: only GEX_FLAG_TM_{GLOBAL,LOCAL,SYMMETRIC,NO}_SCRATCH, GEX_FLAG_RANK_IS_JOBRANK and "
                  "GEX_FLAG_TM_SCRATCH_SIZE_{RECOMMENDED,MIN} are accepted (GEX_FLAG_SCRATCH_SEG_OFFSET is "
                  "[UNIMPLEMENTED] in the specification)",
                  unsigned(flags));
    const gex_Flags_t kind = flags & gex::kScratchKinds;
    if (kind == 0 || (kind & (kind - 1)))
        rt::fatal(routine,
                  "flags 0x%x: exactly one of GEX_FLAG_TM_{GLOBAL,LOCAL,SYMMETRIC,NO}_SCRATCH is required (there is "
                  "no default)",
                  unsigned(flags));
    // The members, as jobranks in rank order, their endpoint indices, and
    // my place among them.
    const int me = rt::g_job->my_pe;
    std::vector<int> jobranks(numargs);
    std::vector<gex_EP_Index_t> ep_indices(numargs, 0);
    bool created = false;  // a member is an endpoint made by gex_EP_Create
    std::vector<std::size_t> place(std::size_t(rt::g_job->n_pes), numargs);  // jobrank -> its index in args[]
    std::size_t mine = numargs;
    if (numargs > 0 && !args) rt::fatal(routine, "args is NULL with numargs %zu", numargs);
    for (std::size_t i = 0; i < numargs; ++i) {
        if (args[i].gex_ep_index >= GASNET_MAXEPS)
            rt::fatal(routine, "args[%zu].gex_ep_index %u is not an endpoint index (0..%d)", i,
                      unsigned(args[i].gex_ep_index), GASNET_MAXEPS - 1);
        const gex_Rank_t r = args[i].gex_rank;
        int jobrank;
        if (flags & GEX_FLAG_RANK_IS_JOBRANK) {
            if (r >= gex_Rank_t(rt::g_job->n_pes))
                rt::fatal(routine, "args[%zu].gex_rank %u is out of range: the job has jobranks 0..%d", i, unsigned(r),
                          rt::g_job->n_pes - 1);
            jobrank = int(r);
            if (from.team_pe_of(jobrank) < 0)
                rt::fatal(routine, "args[%zu] names jobrank %u, which is not a member of parent_tm %p", i, unsigned(r),
                          gex::raw(parent_tm));
        } else {
            if (r >= gex_Rank_t(from.n_pes()))
                rt::fatal(routine, "args[%zu].gex_rank %u is out of range: parent_tm has ranks 0..%d", i, unsigned(r),
                          from.n_pes() - 1);
            jobrank = from.world_pe(int(r));
        }
        if (const std::size_t before = place[std::size_t(jobrank)]; before < numargs) {
            if (args[before].gex_ep_index == args[i].gex_ep_index)
                rt::fatal(routine, "args[%zu] and args[%zu] name the same endpoint (jobrank %d, index %u)", before, i,
                          jobrank, unsigned(args[i].gex_ep_index));
            rt::fatal(routine,
                      "args[%zu] and args[%zu] name two endpoints of jobrank %d: Gasket's teams hold at most one "
                      "endpoint per process yet (issue 18's next step)",
                      before, i, jobrank);
        }
        place[std::size_t(jobrank)] = i;
        jobranks[i] = jobrank;
        ep_indices[i] = args[i].gex_ep_index;
        created |= args[i].gex_ep_index != 0;
        if (jobrank == me) mine = i;
    }
    const bool member = mine < numargs;
    if (flags & gex::kSizeQuery) return gex::scratch_query(routine, flags, member);
    if (num_new_tms != (member ? 1u : 0u))
        rt::fatal(routine, "num_new_tms is %zu, but args[] names %s of this process's endpoints", num_new_tms,
                  member ? "one" : "none");
    void* scratch = nullptr;
    std::size_t scratch_len = 0;
    gasket_gex_ep* my_ep = nullptr;  // this process's member, when a created endpoint
    if (member) {
        if (!new_tms) rt::fatal(routine, "new_tms is NULL with num_new_tms 1");
        if (ep_indices[mine] != 0) {
            my_ep = gex::created_ep_at(ep_indices[mine]);
            if (!my_ep)
                rt::fatal(routine, "args[%zu] names endpoint %u of this process, which gex_EP_Create has not made",
                          mine, unsigned(ep_indices[mine]));
        }
        if (kind != GEX_FLAG_TM_NO_SCRATCH) {
            if (!scratch_addrs) rt::fatal(routine, "scratch_addrs is NULL without GEX_FLAG_TM_NO_SCRATCH");
            scratch = scratch_addrs[kind == GEX_FLAG_TM_GLOBAL_SCRATCH ? mine : 0];
            scratch_len = scratch_size;
            gex::check_scratch(routine, scratch, scratch_len, my_ep);
        }
    }
    rt::all_members(routine, from, true);  // every member of the parent is here (Active Messages served)
    // One colour per new team: its least jobrank (teams are disjoint), ranks
    // by place in args[].
    const int color = member ? *std::min_element(jobranks.begin(), jobranks.end()) : -1;
    std::unique_ptr<rt::Team> team = from.split(color, int(mine));
    if (!member) return 0;
    if (team->world_pes() != jobranks) {
        std::string formed;
        for (int p : team->world_pes()) formed += (formed.empty() ? "" : ", ") + std::to_string(p);
        rt::fatal(routine,
                  "the members of the new team passed different args[] (they must be the same on each): this "
                  "process's names %zu endpoints, the team formed holds jobranks %s",
                  numargs, formed.c_str());
    }
    if (kind == GEX_FLAG_TM_LOCAL_SCRATCH) rt::all_members(routine, *team, true);  // the barrier LOCAL promises
    if (!created) ep_indices.clear();
    new_tms[0] = gex::adopt(std::move(team), flags, scratch, scratch_len, my_ep, std::move(ep_indices));
    return 0;
}

size_t gex_TM_Dup(gex_TM_t* new_tm_p, gex_TM_t orig_tm, gex_Addr_t scratch_addr, size_t scratch_len,
                  gex_Flags_t flags) noexcept {
    const char* routine = "gex_TM_Dup";
    gex::may_communicate(routine);
    const gasket_gex_tm& orig = gex::tm_of(routine, orig_tm);
    constexpr gex_Flags_t kDupKinds =
        GEX_FLAG_TM_LOCAL_SCRATCH | GEX_FLAG_TM_SYMMETRIC_SCRATCH | GEX_FLAG_TM_NO_SCRATCH;
    if (flags & ~(gex::kSizeQuery | kDupKinds))
        rt::fatal(routine,
                  "flags 0x%x: only GEX_FLAG_TM_{SYMMETRIC,LOCAL,NO}_SCRATCH and "
                  "GEX_FLAG_TM_SCRATCH_SIZE_{RECOMMENDED,MIN} are accepted (GEX_FLAG_SCRATCH_SEG_OFFSET is "
                  "[UNIMPLEMENTED] in gasnet-ex-api.txt)",
                  unsigned(flags));
    if (flags & gex::kSizeQuery) return gex::scratch_query(routine, flags, true);  // every caller is a member
    const gex_Flags_t kind = flags & kDupKinds;
    if (kind == 0 || (kind & (kind - 1)))
        rt::fatal(routine,
                  "flags 0x%x: exactly one of GEX_FLAG_TM_{SYMMETRIC,LOCAL,NO}_SCRATCH is required (there is no "
                  "default)",
                  unsigned(flags));
    if (!new_tm_p) rt::fatal(routine, "new_tm_p is NULL");
    const bool scratch = kind != GEX_FLAG_TM_NO_SCRATCH;
    if (scratch) gex::check_scratch(routine, scratch_addr, scratch_len, orig.ep);
    const rt::Team& from = gex::members(orig);
    rt::all_members(routine, from, true);  // every member is here (Active Messages served meanwhile)
    // One colour, each member keyed by its rank: the same members in order.
    std::unique_ptr<rt::Team> team = from.split(0, from.my_pe());
    if (kind == GEX_FLAG_TM_LOCAL_SCRATCH) rt::all_members(routine, *team, true);  // as gex_TM_Create's LOCAL
    *new_tm_p = gex::adopt(std::move(team), flags, scratch ? scratch_addr : nullptr, scratch ? scratch_len : 0, orig.ep,
                           orig.ep_indices);
    return 0;
}

int gex_TM_Destroy(gex_TM_t tm, gex_Memvec_t* scratch_p, gex_Flags_t flags) noexcept {
    const char* routine = "gex_TM_Destroy";
    gex::may_communicate(routine);
    gasket_gex_tm& t = gex::tm_of(routine, tm);
    if (&t == gex::primordial_tm())
        rt::fatal(routine, "tm %p is the primordial team, which cannot be destroyed", gex::raw(tm));
    if (flags & ~GEX_FLAG_GLOBALLY_QUIESCED)
        rt::fatal(routine,
                  "flags 0x%x: only GEX_FLAG_GLOBALLY_QUIESCED is accepted (GEX_FLAG_SCRATCH_SEG_OFFSET is "
                  "[UNIMPLEMENTED] in the specification)",
                  unsigned(flags));
    if (const int n = t.domains.load(std::memory_order_acquire); n > 0)
        rt::fatal(routine, "%d atomic domain%s over tm %p %s live: gex_AD_Destroy %s first (the team is not quiesced)",
                  n, n == 1 ? "" : "s", gex::raw(tm), n == 1 ? "is" : "are", n == 1 ? "it" : "them");
    // Without the assertion that every member has quiesced the team, no
    // member frees it while another may still be using it.
    if (!(flags & GEX_FLAG_GLOBALLY_QUIESCED)) rt::all_members(routine, *t.team, true);
    gex::unregister_team(&t);
    const gex_Memvec_t scratch = t.scratch;
    delete &t;
    if (!scratch_p || scratch.gex_len == 0) return 0;
    *scratch_p = scratch;
    return 1;
}

}  // extern "C"
