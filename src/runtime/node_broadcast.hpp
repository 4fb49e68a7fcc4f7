// src/runtime/node_broadcast.hpp -- a broadcast in node-shared memory
// (§9.10.6) for teams whose members' symmetric memory is all mapped here
// (one node, the node fast path on): no MPI call after the first use.
//
// Each team keeps, in one block of node-shared memory (made at the team's
// first node broadcast: collective, like its barrier; 68 KiB per member), per
// member a count of the broadcasts it has finished and a ring of kRing (64)
// announcements.
// Broadcast number s (counted per team; every member calls them in the
// same order) from root r uses r's announcement s % kRing:
//  - up to kInline (1024) bytes, the root copies the data into the announcement,
//    publishes s and returns at once (its source may be reused: nothing
//    reads it any more).  Before writing announcement s % kRing it waits
//    until every member has finished broadcast s - kRing, the previous one
//    that could have used it, so a fast root runs at most kRing ahead.
//  - larger, the root publishes where its source lies (segment and
//    offset), and each member copies straight from the root's source over
//    the node mapping, all at once; the root waits until every member has
//    finished (the source may be reused when it returns).
// A member waits for announcement s, copies into its dest, and records s as
// finished.  One-to-all plus all-to-one flags, like the node barrier, but
// no member waits for any other member than the root.
#pragma once

#include <cstddef>

namespace gasket::rt {

class Job;
class Team;

// The node broadcast's shared state of one team (owned by the Team through
// NodeBroadcastDelete, team.hpp).
struct NodeBroadcastState;

// Broadcasts `bytes` (> 0) from team PE `root`'s `source` to every other
// member's `dest` (and to the root's own when `root_writes_dest`; source
// and dest may overlap there).  source and dest are symmetric and checked
// by the caller; every member must be mapped here (the caller knows) and
// pass the same `bytes` and `root` (a member whose bytes differ from the
// root's ends the job, naming `routine` and both sizes).  Collective over
// `team`; waits with Poller::idle (nothing to serve when every PE is
// mapped).
void node_broadcast(const char* routine, Job& j, const Team& team, void* dest, const void* source, std::size_t bytes,
                    int root, bool root_writes_dest);

}  // namespace gasket::rt
