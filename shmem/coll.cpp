// shmem/coll.cpp -- §9.10.1-4 barriers and syncs: shmem_barrier_all,
// shmem_sync_all, shmem_team_sync and the deprecated active-set
// shmem_barrier and shmem_sync.  Data movement is in coll_data.cpp,
// reductions and scans in coll_reduce.cpp.
#include "coll.hpp"
#include "events.hpp"

using namespace gasket;

using shmem::with_event;

extern "C" {

void shmem_barrier_all(void) noexcept {
    constexpr const char* routine = "shmem_barrier_all";
    with_event(
        GASP_SHMEM_BARRIER_ALL, [] { rt::barrier_all(routine); }, shmem::event_handle(SHMEM_TEAM_WORLD));
}

void shmem_sync_all(void) noexcept {
    constexpr const char* routine = "shmem_sync_all";
    with_event(
        GASP_SHMEM_SYNC, [] { rt::sync_all(routine); }, shmem::event_handle(SHMEM_TEAM_WORLD));
}

int shmem_team_sync(shmem_team_t team) noexcept {
    constexpr const char* routine = "shmem_team_sync";
    return with_event(
        GASP_SHMEM_SYNC,
        [&] {
            return shmem::on_team(routine, team, [&](rt::Team& t) {
                rt::synchronize(routine, t, false);
                return 0;
            });
        },
        shmem::event_handle(team));
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long* pSync) noexcept {
    constexpr const char* routine = "shmem_barrier";
    shmem::check_psync(routine, pSync, SHMEM_BARRIER_SYNC_SIZE);
    with_event(
        GASP_SHMEM_BARRIER,
        [&] { rt::synchronize(routine, rt::active_set(routine, PE_start, logPE_stride, PE_size), true); }, PE_start,
        logPE_stride, PE_size);
}

void shmem_sync(int PE_start, int logPE_stride, int PE_size, long* pSync) noexcept {
    constexpr const char* routine = "shmem_sync";
    shmem::check_psync(routine, pSync, SHMEM_SYNC_SIZE);
    with_event(
        GASP_SHMEM_BARRIER,
        [&] { rt::synchronize(routine, rt::active_set(routine, PE_start, logPE_stride, PE_size), false); }, PE_start,
        logPE_stride, PE_size);
}

}  // extern "C"
