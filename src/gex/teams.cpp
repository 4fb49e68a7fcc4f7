// src/gex/teams.cpp -- GASNet-EX team construction and destruction
// (gasnet-ex-api.txt, "Operations on gex_TM_t": gex_TM_Split,
// gex_TM_Create, gex_TM_Destroy; gasnet-ex-memory-kinds.txt §5.2:
// gex_TM_Dup) over the runtime's teams: each new team is
// a colour split of its parent's (rt::Team::split), made after the parent's
// members have met in a barrier that serves Active Messages, so a member
// still waiting for a reply from one already inside the call is answered.
//
// A parent naming several endpoints of one process (memory kinds §5.3 10):
// each member calls from its own thread, and the last of a process's to
// come makes the process's call for all of them (gex::meet).  Its new teams
// may be several per process (its members may pass different colours or
// args[]): they are built in rounds of one split each (build()).
//
// Scratch space: Gasket's team collectives run on MPI and use none.  What
// the client grants is checked (inside the caller's bound segment), kept
// untouched and handed back by gex_TM_Destroy; the size queries recommend
// kScratchBytes, the smallest grant the specification allows made
// cache-line sized.
#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "objects.hpp"
#include "src/runtime/collective.hpp"
#include "src/runtime/error.hpp"
#include "src/runtime/job.hpp"
#include "src/runtime/local_meeting.hpp"
#include "src/runtime/nb_collective.hpp"
#include "src/runtime/team.hpp"

namespace gasket::gex {

gex_Rank_t rank_of_jobrank(const gasket_gex_tm& t, gex_Rank_t jobrank) {
    if (!t.jobranks) return jobrank;  // the primordial team holds every process, in jobrank order
    const int proc = t.team->team_pe_of(int(jobrank));
    if (proc < 0) return GEX_RANK_INVALID;
    return t.several ? t.several->first_ranks[std::size_t(proc)] : gex_Rank_t(proc);
}

const rt::Team& processes(const gasket_gex_tm& tm) { return tm.team ? *tm.team : *rt::g_job->world_team; }

void meet(const char* routine, const gasket_gex_tm& tm, void* input,
          const std::function<void(const std::vector<void*>& inputs)>& lead) {
    if (!tm.several) {
        lead(std::vector<void*>{input});
        return;
    }
    if (!g_objects.client.concurrent)
        rt::fatal(routine,
                  "tm %p names %d endpoints of this process: each of them calls from its own thread, at once, "
                  "which only a GASNET_PAR client may do (this one is GASNET_SEQ or GASNET_PARSYNC)",
                  static_cast<const void*>(&tm), tm.several->local_members);
    tm.several->meeting->meet(routine, tm.local_index, input, lead);
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

// ---- Building new teams (gex_TM_Create; gex_TM_Split and gex_TM_Dup over
// a parent naming several endpoints of one process) ----

// A new team this process holds members of: its members in rank order as
// its callers name them, and what its handles here are made of.
struct Building {
    std::vector<int> jobranks;               // rank -> jobrank
    std::vector<gex_EP_Index_t> ep_indices;  // rank -> endpoint index
    std::vector<gex_Memvec_t> scratch;       // per local member, in rank order (length 0: none)
    // From describe(): the member processes in the order of their first
    // member, and those members' ranks; this process's members' ranks; the
    // least (jobrank, endpoint index) of a member as one number, which names
    // the team alike on every process (the teams of one call are disjoint).
    std::vector<int> procs;
    std::vector<gex_Rank_t> first_ranks;
    std::vector<std::size_t> mine;
    long name = LONG_MAX;
    std::unique_ptr<rt::Team> team;  // once built
    std::vector<gex_TM_t> handles;   // this process's members', in rank order
};

void describe(Building& b) {
    const int me = rt::g_job->my_pe;
    std::vector<bool> seen(std::size_t(rt::g_job->n_pes), false);
    for (std::size_t i = 0; i < b.jobranks.size(); ++i) {
        const int j = b.jobranks[i];
        if (!seen[std::size_t(j)]) {
            seen[std::size_t(j)] = true;
            b.procs.push_back(j);
            b.first_ranks.push_back(gex_Rank_t(i));
        }
        if (j == me) b.mine.push_back(i);
        b.name = std::min(b.name, long(j) * GASNET_MAXEPS + long(b.ep_indices[i]));
    }
}

// The handles of this process's members of built team `b`.
void adopt_members(Building& b, gex_Flags_t flags) {
    auto ep_at = [&](std::size_t rank) {
        const gex_EP_Index_t index = b.ep_indices[rank];
        return index ? created_ep_at(index) : nullptr;
    };
    const bool created = std::any_of(b.ep_indices.begin(), b.ep_indices.end(), [](gex_EP_Index_t i) { return i; });
    if (b.jobranks.size() == b.procs.size()) {  // one endpoint per process: the team's ranks are its processes'
        b.handles = {adopt(std::move(b.team), flags, b.scratch[0].gex_addr, b.scratch[0].gex_len, ep_at(b.mine[0]),
                           created ? b.ep_indices : std::vector<gex_EP_Index_t>{})};
        return;
    }
    // Several endpoints of a process: a handle per member here (§5.3 14),
    // sharing the runtime team and the rank table.
    const std::shared_ptr<const rt::Team> shared(std::move(b.team));
    auto several = std::make_shared<SeveralMembers>();
    several->jobranks = b.jobranks;
    several->first_ranks = b.first_ranks;
    several->local_members = int(b.mine.size());
    several->live = int(b.mine.size());
    std::vector<int> proc_of_rank;
    for (int jobrank : b.jobranks) proc_of_rank.push_back(shared->team_pe_of(jobrank));
    several->group = rt::make_member_group(shared, int(b.mine.size()), proc_of_rank);
    several->meeting = std::make_shared<rt::LocalMeeting>(int(b.mine.size()));
    for (std::size_t k = 0; k < b.mine.size(); ++k)
        b.handles.push_back(adopt(shared, flags, b.scratch[k].gex_addr, b.scratch[k].gex_len, ep_at(b.mine[k]),
                                  b.ep_indices, several, gex_Rank_t(b.mine[k]), int(k)));
}

// Builds the runtime team of each of `teams` over the processes `from`
// (every one of them calls, after meeting the others), then the handles of
// this process's members.  In rounds of one colour split over `from`: each
// process proposes the least-named team it still lacks, and a team is built
// when every one of its processes proposed it -- the least-named team left
// anywhere always is, so the rounds end.  A round that builds nothing
// anywhere means the callers named a team differently: fatal, naming
// `routine`.
void build(const char* routine, const rt::Team& from, std::vector<Building*> teams, gex_Flags_t flags) {
    std::sort(teams.begin(), teams.end(), [](const Building* a, const Building* b) { return a->name < b->name; });
    for (std::size_t next = 0;;) {
        Building* b = next < teams.size() ? teams[next] : nullptr;
        if (b && b->name > INT_MAX)
            rt::fatal(routine, "a new team's least member (jobrank %d) is past what a colour split can name",
                      b->procs.front());
        std::unique_ptr<rt::Team> t = from.split(b ? int(b->name) : -1, b ? int(b->mine.front()) : 0);
        const bool built = b && t->world_pes() == b->procs;
        std::string formed;
        if (built) {
            b->team = std::move(t);
            ++next;
        } else if (t) {
            for (int p : t->world_pes()) formed += (formed.empty() ? "" : ", ") + std::to_string(p);
        }
        const bool any_built = !from.all(!built);
        if (from.all(next == teams.size())) break;
        if (!any_built && b)
            rt::fatal(routine,
                      "the members of the new team passed different args[] (they must be the same on each): this "
                      "process's names %zu endpoints of %zu processes, the team formed holds jobranks %s",
                      b->jobranks.size(), b->procs.size(), formed.c_str());
        if (!any_built)
            rt::fatal(routine,
                      "the members of another process's new team passed different args[] (they must be "
                      "the same on each)");
    }
    if ((flags & kScratchKinds) == GEX_FLAG_TM_LOCAL_SCRATCH)  // the barrier LOCAL promises
        for (Building* b : teams) rt::all_members(routine, *b->team, true);
    for (Building* b : teams) adopt_members(*b, flags);
}

// gex_TM_Create for this process's callers at once (`calls`: each one's
// Building, which names no team when it holds no member here): identical
// args[] name one team, whose handles each of them gets; any others must
// name disjoint teams (memory kinds §5.3 9, 10: fatal, naming `routine`).
void create_teams(const char* routine, const gasket_gex_tm& parent, const std::vector<void*>& calls,
                  gex_Flags_t flags) {
    const rt::Team& from = processes(parent);
    rt::all_members(routine, from, true);  // every member of the parent is here (Active Messages served)
    std::vector<Building*> teams, of(calls.size(), nullptr);  // the distinct teams; the one each call names
    std::vector<std::set<long>> named;                        // each distinct team's endpoints
    for (std::size_t i = 0; i < calls.size(); ++i) {
        auto* c = static_cast<Building*>(calls[i]);
        if (c->mine.empty()) continue;
        for (Building* t : teams)
            if (t->jobranks == c->jobranks && t->ep_indices == c->ep_indices) of[i] = t;
        if (of[i]) continue;
        std::set<long> eps;
        for (std::size_t r = 0; r < c->jobranks.size(); ++r)
            eps.insert(long(c->jobranks[r]) * GASNET_MAXEPS + long(c->ep_indices[r]));
        for (const std::set<long>& other : named)
            for (long e : eps)
                if (other.count(e))
                    rt::fatal(routine,
                              "two members of parent_tm %p in this process passed args[] naming different teams that "
                              "share endpoint %ld of jobrank %ld: args[] must be identical or name disjoint teams",
                              raw(&parent), e % GASNET_MAXEPS, e / GASNET_MAXEPS);
        teams.push_back(c);
        named.push_back(std::move(eps));
        of[i] = c;
    }
    build(routine, from, teams, flags);
    for (std::size_t i = 0; i < calls.size(); ++i)
        if (of[i] && of[i] != calls[i]) static_cast<Building*>(calls[i])->handles = of[i]->handles;
}

// What a member of a parent naming several endpoints of this process
// brings to gex_TM_Split's meeting, and takes from it.
struct SplitCall {
    std::int32_t rank;   // its rank in the parent
    std::int32_t color;  // < 0: it joins no new team
    std::int32_t key;
    gex_Memvec_t scratch;  // for its member of the new team (length 0: none)
    gex_Flags_t flags;
    gex_TM_t result = GEX_TM_INVALID;
};

// gex_TM_Split over such a parent for every local member at once: every
// member's (parent rank, colour, key) is gathered over the processes, and
// each colour's members, ordered by key and then parent rank, form a team.
void split_several(const char* routine, const gasket_gex_tm& parent, const std::vector<void*>& calls) {
    const rt::Team& from = processes(parent);
    rt::all_members(routine, from, true);  // every member is here (Active Messages served meanwhile)
    std::vector<std::int32_t> mine;
    for (void* c : calls) {
        const auto& call = *static_cast<const SplitCall*>(c);
        mine.insert(mine.end(), {call.rank, call.color, call.key});
    }
    const std::vector<char> gathered = rt::gather_to_all(routine, from, mine.data(), mine.size() * sizeof(mine[0]));
    std::vector<std::int32_t> all(gathered.size() / sizeof(mine[0]));
    if (!all.empty()) std::memcpy(all.data(), gathered.data(), all.size() * sizeof(mine[0]));
    // The colours of this process's members: their members' (key, parent
    // rank), then their teams and each new rank's parent rank.
    std::map<int, std::vector<std::pair<int, int>>> colors;
    for (void* c : calls)
        if (const int color = static_cast<const SplitCall*>(c)->color; color >= 0) colors[color];
    for (std::size_t i = 0; i + 2 < all.size(); i += 3)
        if (auto at = colors.find(all[i + 1]); at != colors.end()) at->second.push_back({all[i + 2], all[i]});
    std::map<int, Building> teams;
    std::map<int, std::vector<int>> parent_ranks;
    for (auto& [color, members] : colors) {
        std::sort(members.begin(), members.end());
        Building& b = teams[color];
        for (auto [key, rank] : members) {
            b.jobranks.push_back(parent.jobranks[rank]);
            b.ep_indices.push_back(parent.ep_index(gex_Rank_t(rank)));
            parent_ranks[color].push_back(rank);
        }
        describe(b);
    }
    // Where each caller's member is among the team's local members.
    std::vector<std::size_t> place(calls.size());
    for (std::size_t i = 0; i < calls.size(); ++i) {
        const auto& call = *static_cast<const SplitCall*>(calls[i]);
        if (call.color < 0) continue;
        Building& b = teams.at(call.color);
        const std::vector<int>& ranks = parent_ranks[call.color];
        const auto rank = std::size_t(std::find(ranks.begin(), ranks.end(), call.rank) - ranks.begin());
        place[i] = std::size_t(std::find(b.mine.begin(), b.mine.end(), rank) - b.mine.begin());
        b.scratch.resize(b.mine.size(), gex_Memvec_t{nullptr, 0});
        b.scratch[place[i]] = call.scratch;
    }
    std::vector<Building*> building;
    for (auto& [color, b] : teams) building.push_back(&b);
    build(routine, from, building, static_cast<const SplitCall*>(calls.front())->flags);
    for (std::size_t i = 0; i < calls.size(); ++i) {
        auto& call = *static_cast<SplitCall*>(calls[i]);
        if (call.color >= 0) call.result = teams.at(call.color).handles[place[i]];
    }
}

// gex_TM_Dup over a team naming several endpoints of this process, for
// every local member at once (`calls`: each one's scratch, then its new
// handle): the same members in the same order.
struct DupCall {
    gex_Memvec_t scratch;
    gex_TM_t result = GEX_TM_INVALID;
};
void dup_several(const char* routine, const gasket_gex_tm& orig, const std::vector<void*>& calls, gex_Flags_t flags) {
    const rt::Team& from = processes(orig);
    rt::all_members(routine, from, true);  // every member is here (Active Messages served meanwhile)
    Building b;
    for (gex_Rank_t r = 0; r < orig.size; ++r) {
        b.jobranks.push_back(orig.jobranks[r]);
        b.ep_indices.push_back(orig.ep_index(r));
    }
    describe(b);
    for (void* c : calls) b.scratch.push_back(static_cast<const DupCall*>(c)->scratch);  // local index = rank order
    build(routine, from, {&b}, flags);
    for (std::size_t k = 0; k < calls.size(); ++k) static_cast<DupCall*>(calls[k])->result = b.handles[k];
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
    const rt::Team& from = gex::processes(parent);
    if (parent.several) {
        gex::SplitCall call{
            std::int32_t(parent.rank), new_tm_p ? color : -1, key,
            gex_Memvec_t{scratch && new_tm_p ? scratch_addr : nullptr, scratch && new_tm_p ? scratch_size : 0}, flags};
        gex::meet(routine, parent, &call,
                  [&](const std::vector<void*>& calls) { gex::split_several(routine, parent, calls); });
        if (new_tm_p) *new_tm_p = call.result;
        return 0;
    }
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
    // The members, as jobranks in rank order, and their endpoint indices.
    const gex_Rank_t parent_size = parent.jobranks ? parent.size : gex_Rank_t(rt::g_job->n_pes);
    gex::Building b;
    b.jobranks.resize(numargs);
    b.ep_indices.assign(numargs, 0);
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
            if (gex::rank_of_jobrank(parent, r) == GEX_RANK_INVALID)
                rt::fatal(routine, "args[%zu] names jobrank %u, which is not a member of parent_tm %p", i, unsigned(r),
                          gex::raw(parent_tm));
        } else {
            if (r >= parent_size)
                rt::fatal(routine, "args[%zu].gex_rank %u is out of range: parent_tm has ranks 0..%u", i, unsigned(r),
                          unsigned(parent_size) - 1);
            jobrank = parent.jobranks ? parent.jobranks[r] : int(r);
        }
        b.jobranks[i] = jobrank;
        b.ep_indices[i] = args[i].gex_ep_index;
    }
    gex::describe(b);
    // No endpoint twice (§5.3 5): the first repeat in args[] order.
    if (numargs > b.procs.size()) {
        std::vector<std::pair<std::uint64_t, std::size_t>> named(numargs);
        for (std::size_t i = 0; i < numargs; ++i)
            named[i] = {std::uint64_t(b.jobranks[i]) * GASNET_MAXEPS + b.ep_indices[i], i};
        std::sort(named.begin(), named.end());
        std::size_t before = numargs, again = numargs;
        for (std::size_t k = 1; k < numargs; ++k)
            if (named[k].first == named[k - 1].first && named[k].second < again) {
                before = named[k - 1].second;
                again = named[k].second;
            }
        if (again < numargs)
            rt::fatal(routine, "args[%zu] and args[%zu] name the same endpoint (jobrank %d, index %u)", before, again,
                      b.jobranks[again], unsigned(b.ep_indices[again]));
    }
    const std::vector<std::size_t>& mine = b.mine;
    const bool member = !mine.empty();
    if (flags & gex::kSizeQuery) return gex::scratch_query(routine, flags, member);
    if (num_new_tms != mine.size())
        rt::fatal(routine, "num_new_tms is %zu, but args[] names %s of this process's endpoints", num_new_tms,
                  gex::how_many(mine.size()).c_str());
    if (member && !new_tms) rt::fatal(routine, "new_tms is NULL with num_new_tms %zu", num_new_tms);
    // This process's members: their endpoints and scratch space (§5.3 19:
    // one for all, one per local member, or one per member).
    const std::size_t scratch_len = kind != GEX_FLAG_TM_NO_SCRATCH ? scratch_size : 0;
    for (std::size_t k = 0; k < mine.size(); ++k) {
        gasket_gex_ep* ep = nullptr;  // the primordial one
        if (const gex_EP_Index_t index = b.ep_indices[mine[k]]; index != 0) {
            ep = gex::created_ep_at(index);
            if (!ep)
                rt::fatal(routine, "args[%zu] names endpoint %u of this process, which gex_EP_Create has not made",
                          mine[k], unsigned(index));
        }
        b.scratch.push_back(gex_Memvec_t{nullptr, 0});
        if (kind == GEX_FLAG_TM_NO_SCRATCH) continue;
        if (!scratch_addrs) rt::fatal(routine, "scratch_addrs is NULL without GEX_FLAG_TM_NO_SCRATCH");
        void* scratch = scratch_addrs[kind == GEX_FLAG_TM_GLOBAL_SCRATCH  ? mine[k]
                                      : kind == GEX_FLAG_TM_LOCAL_SCRATCH ? k
                                                                          : 0];
        gex::check_scratch(routine, scratch, scratch_len, ep);
        b.scratch.back() = gex_Memvec_t{scratch, scratch_len};
    }
    gex::meet(routine, parent, &b,
              [&](const std::vector<void*>& calls) { gex::create_teams(routine, parent, calls, flags); });
    std::copy(b.handles.begin(), b.handles.end(), new_tms);
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
    if (orig.several) {
        gex::DupCall call{gex_Memvec_t{scratch ? scratch_addr : nullptr, scratch ? scratch_len : 0}};
        gex::meet(routine, orig, &call,
                  [&](const std::vector<void*>& calls) { gex::dup_several(routine, orig, calls, flags); });
        *new_tm_p = call.result;
        return 0;
    }
    const rt::Team& from = gex::processes(orig);
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
