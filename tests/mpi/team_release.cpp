// tests/mpi/team_release.cpp -- shmem_finalize releases the teams the
// program never destroyed (§9.1.4: finalize releases all resources): after
// it, no team handle is live.  White-box: looks at the team table
// (shmem/team.hpp) through gasket_whitebox.  Exit status 0 on success.
#include <shmem.h>

#include <cstdio>

#include "shmem/team.hpp"

int main() {
    shmem_init();
    const int n = shmem_n_pes();
    shmem_team_t even = SHMEM_TEAM_INVALID, row = SHMEM_TEAM_INVALID, column = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, nullptr, 0, &even);
    shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, nullptr, 0, &row, nullptr, 0, &column);
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    if (row != SHMEM_TEAM_INVALID) shmem_team_create_ctx(row, 0, &ctx);
    const int me = shmem_my_pe();
    bool ok = row != SHMEM_TEAM_INVALID && column != SHMEM_TEAM_INVALID && ctx != SHMEM_CTX_INVALID;
    ok = ok && (me % 2 != 0 || even != SHMEM_TEAM_INVALID);
    ok = ok && gasket::shmem::team_entry(row) && gasket::shmem::team_entry(row)->team;
    shmem_finalize();  // none destroyed
    int live = 0;
    for (const gasket_shmem_team& e : gasket::shmem::g_teams) live += e.team != nullptr;
    if (!ok || live != 0) {
        std::printf("team_release: PE %d: FAIL: teams made %s, %d live after shmem_finalize\n", me,
                    ok ? "ok" : "NOT ok", live);
        return 1;
    }
    std::printf("team_release: PE %d: ok\n", me);
    return 0;
}
