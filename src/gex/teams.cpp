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
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "objects.hpp"
#include "src/runtime/collective.hpp"
#include "src/runtime/error.hpp"
#include "src/runtime/job.hpp"
#include "src/runtime/nb_collective.hpp"
#include "src/runtime/team.hpp"

namespace gasket::gex {

gex_Rank_t rank_of_jobrank(const gasket_gex_tm& t, gex_Rank_t jobrank) {
    if (!t.jobranks) return jobrank;  // the primordial team holds every process, in jobrank order
    const int proc = t.team->team_pe_of(int(jobrank));
    if (proc < 0) return GEX_RANK_INVALID;
    return t.several ? t.several->first_ranks[std::size_t(proc)] : gex_Rank_t(proc);
}

const rt::Team& members(const char* routine, const gasket_gex_tm& tm) {
    if (tm.several)
        rt::fatal(routine,
                  "tm %p names several endpoints of one process (%u members over %d processes): Gasket runs "
                  "splits, duplicates, publication and team construction over a team's members only on teams of "
                  "one endpoint per process yet",
                  static_cast<const void*>(&tm), unsigned(tm.size), tm.team->n_pes());
    return tm.team ? *tm.team : *rt::g_job->world_team;
}

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

// Makes and registers the handle of one of this process's members of
// `team`: `ep` when it is a created endpoint, the members' endpoint indices
// in `ep_indices` when any is not 0; for a team naming several endpoints
// of one process, `several` and the member's rank and local index (else
// the member is the process's one, ranked as in `team`).
gex_TM_t adopt(std::shared_ptr<const rt::Team> team, gex_Flags_t flags, void* scratch, std::size_t scratch_len,
               gasket_gex_ep* ep = nullptr, std::vector<gex_EP_Index_t> ep_indices = {},
               std::shared_ptr<SeveralMembers> several = nullptr, gex_Rank_t rank = 0, int local_index = 0) {
    auto* t = new gasket_gex_tm;
    t->ep = ep;
    t->ep_indices = std::move(ep_indices);
    t->flags = flags;
    if (several) {
        t->rank = rank;
        t->size = gex_Rank_t(several->jobranks.size());
        t->jobranks = several->jobranks.data();
        t->local_index = local_index;
        t->several = std::move(several);
    } else {
        t->rank = gex_Rank_t(team->my_pe());
        t->size = gex_Rank_t(team->n_pes());
        t->jobranks = team->world_pes().data();
    }
    t->scratch = gex_Memvec_t{scratch, scratch_len};
    t->team = std::move(team);
    register_team(t);
    return t;
}

// "none", "one", or the count.
std::string how_many(std::size_t n) { return n == 0 ? "none" : n == 1 ? "one" : std::to_string(n); }

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
    const rt::Team& from = gex::members(routine, parent);
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
    const rt::Team& from = gex::members(routine, parent);
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
    // The members, as jobranks in rank order, and their endpoint indices;
    // the member processes in the order of their first member; this
    // process's members, in rank order.
    const int me = rt::g_job->my_pe;
    std::vector<int> jobranks(numargs);
    std::vector<gex_EP_Index_t> ep_indices(numargs, 0);
    bool created = false;  // a member is an endpoint made by gex_EP_Create
    std::vector<int> procs;
    std::vector<std::size_t> first(std::size_t(rt::g_job->n_pes), numargs);  // jobrank -> its first member's place
    std::vector<std::size_t> mine;
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
        if (first[std::size_t(jobrank)] == numargs) {
            first[std::size_t(jobrank)] = i;
            procs.push_back(jobrank);
        }
        jobranks[i] = jobrank;
        ep_indices[i] = args[i].gex_ep_index;
        created |= args[i].gex_ep_index != 0;
        if (jobrank == me) mine.push_back(i);
    }
    // No endpoint twice (§5.3 5): the first repeat in args[] order.
    if (numargs > procs.size()) {
        std::vector<std::pair<std::uint64_t, std::size_t>> named(numargs);
        for (std::size_t i = 0; i < numargs; ++i)
            named[i] = {std::uint64_t(jobranks[i]) * GASNET_MAXEPS + ep_indices[i], i};
        std::sort(named.begin(), named.end());
        std::size_t before = numargs, again = numargs;
        for (std::size_t k = 1; k < numargs; ++k)
            if (named[k].first == named[k - 1].first && named[k].second < again) {
                before = named[k - 1].second;
                again = named[k].second;
            }
        if (again < numargs)
            rt::fatal(routine, "args[%zu] and args[%zu] name the same endpoint (jobrank %d, index %u)", before, again,
                      jobranks[again], unsigned(ep_indices[again]));
    }
    const bool member = !mine.empty();
    if (flags & gex::kSizeQuery) return gex::scratch_query(routine, flags, member);
    if (num_new_tms != mine.size())
        rt::fatal(routine, "num_new_tms is %zu, but args[] names %s of this process's endpoints", num_new_tms,
                  gex::how_many(mine.size()).c_str());
    if (member && !new_tms) rt::fatal(routine, "new_tms is NULL with num_new_tms %zu", num_new_tms);
    // This process's members: their endpoints (null: the primordial one)
    // and scratch space (§5.3 19: one for all, one per local member, or
    // one per member).
    std::vector<gasket_gex_ep*> eps(mine.size(), nullptr);
    std::vector<void*> scratch(mine.size(), nullptr);
    const std::size_t scratch_len = kind != GEX_FLAG_TM_NO_SCRATCH ? scratch_size : 0;
    for (std::size_t k = 0; k < mine.size(); ++k) {
        if (const gex_EP_Index_t index = ep_indices[mine[k]]; index != 0) {
            eps[k] = gex::created_ep_at(index);
            if (!eps[k])
                rt::fatal(routine, "args[%zu] names endpoint %u of this process, which gex_EP_Create has not made",
                          mine[k], unsigned(index));
        }
        if (kind == GEX_FLAG_TM_NO_SCRATCH) continue;
        if (!scratch_addrs) rt::fatal(routine, "scratch_addrs is NULL without GEX_FLAG_TM_NO_SCRATCH");
        scratch[k] = scratch_addrs[kind == GEX_FLAG_TM_GLOBAL_SCRATCH  ? mine[k]
                                   : kind == GEX_FLAG_TM_LOCAL_SCRATCH ? k
                                                                       : 0];
        gex::check_scratch(routine, scratch[k], scratch_len, eps[k]);
    }
    rt::all_members(routine, from, true);  // every member of the parent is here (Active Messages served)
    // One colour per new team: its least jobrank (teams are disjoint); the
    // processes ranked by their first member's place in args[].
    const int color = member ? *std::min_element(procs.begin(), procs.end()) : -1;
    std::unique_ptr<rt::Team> team = from.split(color, member ? int(mine.front()) : 0);
    if (!member) return 0;
    if (team->world_pes() != procs) {
        std::string formed;
        for (int p : team->world_pes()) formed += (formed.empty() ? "" : ", ") + std::to_string(p);
        rt::fatal(routine,
                  "the members of the new team passed different args[] (they must be the same on each): this "
                  "process's names %zu endpoints, the team formed holds jobranks %s",
                  numargs, formed.c_str());
    }
    if (kind == GEX_FLAG_TM_LOCAL_SCRATCH) rt::all_members(routine, *team, true);  // the barrier LOCAL promises
    if (numargs == procs.size()) {  // one endpoint per process: the team's ranks are its processes'
        if (!created) ep_indices.clear();
        new_tms[0] = gex::adopt(std::move(team), flags, scratch[0], scratch_len, eps[0], std::move(ep_indices));
        return 0;
    }
    // Several endpoints of a process: a handle per member here (§5.3 14),
    // sharing the runtime team and the rank table.
    const std::shared_ptr<const rt::Team> shared(std::move(team));
    auto several = std::make_shared<gex::SeveralMembers>();
    several->jobranks = std::move(jobranks);
    for (int p : procs) several->first_ranks.push_back(gex_Rank_t(first[std::size_t(p)]));
    several->live = int(mine.size());
    several->group = rt::make_member_group(shared, int(mine.size()));
    for (std::size_t k = 0; k < mine.size(); ++k)
        new_tms[k] = gex::adopt(shared, flags, scratch[k], scratch_len, eps[k], ep_indices, several,
                                gex_Rank_t(mine[k]), int(k));
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
    const rt::Team& from = gex::members(routine, orig);
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
    // member frees it while another may still be using it: the processes
    // meet at each one's last handle of it.
    const bool last_here = !t.several || t.several->live.fetch_sub(1, std::memory_order_acq_rel) == 1;
    if (last_here && !(flags & GEX_FLAG_GLOBALLY_QUIESCED)) rt::all_members(routine, *t.team, true);
    gex::unregister_team(&t);
    const gex_Memvec_t scratch = t.scratch;
    delete &t;
    if (!scratch_p || scratch.gex_len == 0) return 0;
    *scratch_p = scratch;
    return 1;
}

}  // extern "C"
