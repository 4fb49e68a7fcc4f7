// shmem/team.hpp -- what a shmem_team_t points to, and turning a handle
// into the runtime's team.
#pragma once

#include <shmem.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "src/runtime/job.hpp"

// The object behind a shmem_team_t: an entry of one fixed table
// (g_teams), so a handle is checked by a range check and a load, never by
// dereferencing whatever the program passed.  Entries 0 and 1 are
// SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED (they point at the job's teams
// between init and finalize); split teams own their runtime team.  A free
// entry has team == nullptr, so a destroyed handle is an error until its
// entry is reused (entries are handed out round-robin, so that takes
// kMaxTeams - 2 more splits).  `contexts` lists the live contexts made from
// the team (guarded by the context table's mutex, see shmem/context.cpp),
// so that shmem_team_destroy can destroy them.
struct gasket_shmem_team {
    gasket::rt::Team* team = nullptr;
    std::unique_ptr<gasket::rt::Team> owned;
    std::vector<shmem_ctx_t> contexts;
};

namespace gasket::shmem {

// Teams alive at once per PE, the two predefined ones included; a split
// past it returns nonzero on every PE of the parent.
inline constexpr std::size_t kMaxTeams = 1024;
extern gasket_shmem_team g_teams[kMaxTeams];

// Points SHMEM_TEAM_WORLD/SHARED at the job's teams (nullptr: detach).
void bind_predefined_teams(rt::Job* job);

// The table entry of `team`, or nullptr when `team` is not an entry.
inline gasket_shmem_team* team_entry(shmem_team_t team) {
    const auto at = reinterpret_cast<std::uintptr_t>(team) - reinterpret_cast<std::uintptr_t>(g_teams);
    if (at >= sizeof g_teams || at % sizeof(gasket_shmem_team) != 0) return nullptr;
    return &g_teams[at / sizeof(gasket_shmem_team)];
}

[[noreturn, gnu::cold]] void bad_team(const char* routine, shmem_team_t team);

// The team behind `team`; fatal, naming `routine`, before init, for
// SHMEM_TEAM_INVALID, a destroyed team or anything that is not a team
// handle.
inline rt::Team& team_of(const char* routine, shmem_team_t team) {
    rt::job(routine);
    gasket_shmem_team* e = team_entry(team);
    if (!e || !e->team) [[unlikely]]
        bad_team(routine, team);
    return *e->team;
}

// Whether `team` is SHMEM_TEAM_WORLD or SHMEM_TEAM_SHARED.
bool predefined(shmem_team_t team);

// Frees every team made by a split that is still alive (shmem_finalize,
// after the contexts are gone and before the job goes).
void release_teams();

}  // namespace gasket::shmem
