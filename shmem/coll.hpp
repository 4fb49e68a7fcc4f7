// shmem/coll.hpp -- what the §9.10 entry points share: the team of a
// team-based collective, and the checks of the deprecated work arrays.
#pragma once

#include <shmem.h>

#include "src/runtime/collective.hpp"
#include "team.hpp"

namespace gasket::shmem {

// The runtime team of a team-based collective; nullptr, after an error
// message naming `routine`, for SHMEM_TEAM_INVALID (the caller returns
// nonzero: the PE is in no team, so nobody waits for it).  Fatal for a
// destroyed team or before init.
inline rt::Team* collective_team(const char* routine, shmem_team_t team) {
    if (team == SHMEM_TEAM_INVALID) [[unlikely]] {
        rt::job(routine);
        rt::error(routine, "team is SHMEM_TEAM_INVALID: nothing done");
        return nullptr;
    }
    return &team_of(routine, team);
}

// The shape of every team-based collective: `run(team)` on the runtime
// team, returning its result (0, or nonzero after an error message); 1
// for SHMEM_TEAM_INVALID (see collective_team).
template <class Run>
int on_team(const char* routine, shmem_team_t team, Run&& run) {
    rt::Team* t = collective_team(routine, team);
    return t ? run(*t) : 1;
}

// Fatal, naming `routine`, unless pSync is a symmetric array of `longs`.
inline void check_psync(const char* routine, const long* pSync, std::size_t longs) {
    rt::check_symmetric(routine, "pSync", pSync, longs * sizeof(long));
}

}  // namespace gasket::shmem
