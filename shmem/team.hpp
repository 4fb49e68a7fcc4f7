// shmem/team.hpp -- what a shmem_team_t points to, and turning a handle
// into the runtime's team.
#pragma once

#include <shmem.h>

#include <memory>
#include <vector>

#include "src/runtime/job.hpp"

// The object behind a shmem_team_t.  SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED
// are static objects that point at the job's teams between init and
// finalize; split teams own their runtime team.  `contexts` lists the live
// contexts made from the team (guarded by the context table's mutex, see
// shmem/context.cpp), so that shmem_team_destroy can destroy them.
struct gasket_shmem_team {
    gasket::rt::Team* team = nullptr;
    std::unique_ptr<gasket::rt::Team> owned;
    std::vector<shmem_ctx_t> contexts;
};

namespace gasket::shmem {

// Points SHMEM_TEAM_WORLD/SHARED at the job's teams (nullptr: detach).
void bind_predefined_teams(rt::Job* job);

// The team behind `team`; fatal, naming `routine`, before init or for
// SHMEM_TEAM_INVALID or a destroyed team.
inline rt::Team& team_of(const char* routine, shmem_team_t team) {
    rt::job(routine);
    if (!team || !team->team) [[unlikely]]
        rt::fatal(routine, "team %p is SHMEM_TEAM_INVALID or was destroyed", static_cast<void*>(team));
    return *team->team;
}

// Whether `team` is SHMEM_TEAM_WORLD or SHMEM_TEAM_SHARED.
bool predefined(shmem_team_t team);

}  // namespace gasket::shmem
