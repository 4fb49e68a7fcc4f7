// src/runtime/team.hpp -- a team: an ordered set of world PEs with its own
// MPI communicator (§9.4).  Team PE i is world PE world_pe(i); collectives
// on the team run on comm().  Both APIs' teams are built on this class.
#pragma once

#include <atomic>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mpi-bridge/communicator.hpp"
#include "split_barrier.hpp"

namespace gasket::rt {

// The node broadcast's state of a team (node_broadcast.hpp); the team owns
// it through this deleter, defined in node_broadcast.cpp, so team never
// includes node_broadcast.
struct NodeBroadcastState;
struct NodeBroadcastDelete {
    void operator()(NodeBroadcastState* s) const;
};

class Team {
public:
    // `comm` holds exactly the PEs of `world_pes` (team PE order = rank
    // order of comm); `num_contexts` is the team's context hint (§9.4.3).
    Team(mpi::Communicator comm, std::vector<int> world_pes, int num_contexts);

    int my_pe() const { return comm_.rank(); }
    int n_pes() const { return comm_.size(); }
    MPI_Comm comm() const { return comm_.get(); }
    const mpi::Communicator& communicator() const { return comm_; }
    int num_contexts() const { return num_contexts_; }
    const std::vector<int>& world_pes() const { return world_pes_; }

    // World PE of team PE `team_pe` (0 <= team_pe < n_pes(), unchecked).
    int world_pe(int team_pe) const { return world_pes_[team_pe]; }
    // Team PE of world PE `world_pe`, or -1 if it is not a member.
    int team_pe_of(int world_pe) const {
        if (identity_) return world_pe >= 0 && world_pe < n_pes() ? world_pe : -1;
        auto it = team_pe_of_.find(world_pe);
        return it == team_pe_of_.end() ? -1 : it->second;
    }
    // World PE of team PE `team_pe`; fatal, naming `routine`, when out of
    // range.
    int checked_world_pe(const char* routine, int team_pe) const {
        if (static_cast<unsigned>(team_pe) >= static_cast<unsigned>(n_pes())) [[unlikely]]
            bad_pe(routine, team_pe);
        return world_pes_[team_pe];
    }
    [[noreturn, gnu::cold]] void bad_pe(const char* routine, int team_pe) const;

    // Splits (§9.4.6, §9.4.7), collective over this team; arguments already
    // checked.  The new team holds team PEs start + stride*i, i = 0..size-1,
    // numbered by i; nullptr on PEs outside it.
    std::unique_ptr<Team> split_strided(int start, int stride, int size, int num_contexts) const;
    // The 2-D split with `xrange` (1..n_pes()) columns: team PE p sits at
    // (p % xrange, p / xrange).  Returns {row team (same y, numbered by x),
    // column team (same x, numbered by y)}; every PE is in one of each.
    std::pair<std::unique_ptr<Team>, std::unique_ptr<Team>> split_2d(int xrange, int x_contexts, int y_contexts) const;
    // The split by colour (GASNet-EX's gex_TM_Split and gex_TM_Create),
    // collective over this team: the members passing the same `color` >= 0
    // form one new team, numbered by increasing `key`, ties by their rank
    // here; nullptr for a member passing color < 0.  A blocking MPI call:
    // callers that must serve Active Messages meet first (rt::all_members).
    std::unique_ptr<Team> split(int color, int key) const;
    // True on every member when `mine` is true on every member (collective).
    bool all(bool mine) const { return comm_.all(mine); }

    // The team's barrier, made at the first call (collective, like every
    // barrier on the team: rt::make_barrier makes it when the team is made,
    // where every member is in the same call) as the node barrier when
    // `on_node` (every member reached by loads and stores), else the
    // network barrier; later calls return it whatever `on_node` says.  Not
    // for concurrent use (§9.10: one collective at a time per team).
    SplitPhaseBarrier& barrier(bool on_node) const {
        if (!barrier_) [[unlikely]]
            barrier_ = std::make_unique<SplitPhaseBarrier>(comm(), on_node);
        return *barrier_;
    }
    // Frees the team's barrier (collective: its duplicate communicator), if
    // made; the job's end frees the predefined teams' barriers before any
    // window (rt::Job::~Job says why).  Not during a barrier.
    void free_barrier() const { barrier_.reset(); }

    // Whether the team's data collectives serve Active Messages while they
    // wait (the nonblocking MPI collective and a poll loop) rather than call
    // the blocking MPI collective.  The same on every member at each of the
    // team's collectives: true when the team is made, then what each of its
    // network barriers agreed (rt::synchronize: the maximum of the members'
    // AmEngine::collectives_serve_vote()).  Members pass the team's barriers
    // in the same order relative to its collectives, so all switch together.
    bool collectives_serve() const { return serve_ams_.load(std::memory_order_relaxed); }
    void agree_collectives_serve(bool any) const { serve_ams_.store(any, std::memory_order_relaxed); }

    // The team's node broadcast state, made by rt::node_broadcast at the
    // team's first node broadcast (collective); null before.
    std::unique_ptr<NodeBroadcastState, NodeBroadcastDelete>& node_broadcast_state() const { return node_bcast_; }

private:
    mpi::Communicator comm_;
    std::vector<int> world_pes_;
    std::unordered_map<int, int> team_pe_of_;  // empty when identity_
    bool identity_ = true;                     // team PE == world PE
    int num_contexts_ = 0;
    mutable std::atomic<bool> serve_ams_{true};                                    // collectives_serve()
    mutable std::unique_ptr<SplitPhaseBarrier> barrier_;                           // after comm_: freed before it
    mutable std::unique_ptr<NodeBroadcastState, NodeBroadcastDelete> node_bcast_;  // likewise
};

}  // namespace gasket::rt
