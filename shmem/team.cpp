// shmem/team.cpp -- §9.4 teams: the predefined team handles and queries.
#include "team.hpp"

using namespace gasket;

namespace {
gasket_shmem_team g_world, g_shared;
}  // namespace

namespace gasket::shmem {

void bind_predefined_teams(rt::Job* job) {
    g_world.team = job ? job->world_team.get() : nullptr;
    g_shared.team = job ? job->shared_team.get() : nullptr;
}

}  // namespace gasket::shmem

extern "C" {

shmem_team_t const gasket_shmem_team_world = &g_world;
shmem_team_t const gasket_shmem_team_shared = &g_shared;

int shmem_team_my_pe(shmem_team_t team) {
    if (team == SHMEM_TEAM_INVALID) return -1;
    return shmem::team_of("shmem_team_my_pe", team).my_pe();
}

int shmem_team_n_pes(shmem_team_t team) {
    if (team == SHMEM_TEAM_INVALID) return -1;
    return shmem::team_of("shmem_team_n_pes", team).n_pes();
}

}  // extern "C"
