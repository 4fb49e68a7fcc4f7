// src/gasnet/barrier.cpp -- split-phase barriers (gasnet-1.8-spec.md §3.5):
// notify enters a barrier that combines {mismatch forced, named id, -named
// id} by maximum (anonymous nodes contribute the minimum), so every node
// learns at once whether anyone forced a mismatch and whether the named ids
// agree (max id == min id).  The barrier is the runtime's split-phase
// barrier (src/runtime/split_barrier.hpp): node-shared memory when every
// node is on this machine, else a dissemination barrier of point-to-point
// messages.  Waiting serves Active Messages (rt::Poller::wait on the node
// barrier, rt::Poller::serve on the network one).
#include <gasnet.h>

#include <climits>

#include "src/gasp/gasp.hpp"
#include "state.hpp"

namespace gasket::gasnet {

namespace {

rt::SplitPhaseBarrier& barrier(const char* routine) {
    if (!g_state.attached) [[unlikely]]
        rt::fatal(routine, "called before gasnet_attach");
    return *g_state.barrier;
}

void check_flags(const char* routine, int flags) {
    if (flags != 0 && flags != GASNET_BARRIERFLAG_ANONYMOUS && flags != GASNET_BARRIERFLAG_MISMATCH) [[unlikely]]
        rt::fatal(routine, "flags %d is not 0, GASNET_BARRIERFLAG_ANONYMOUS or GASNET_BARRIERFLAG_MISMATCH", flags);
}

// The end of the phase: GASNET_OK or GASNET_ERR_BARRIER_MISMATCH.
int outcome(const long long (&max)[3], int id, int flags) {
    g_state.barrier_notified = false;
    const bool forced = max[0] != 0;
    const bool named_anywhere = max[1] != LLONG_MIN;
    const bool ids_differ = named_anywhere && max[1] != -max[2];
    const bool own_differs = flags != g_state.barrier_flags || (flags == 0 && id != g_state.barrier_id);
    return forced || ids_differ || own_differs ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK;
}

void check_notified(const char* routine) {
    if (!g_state.barrier_notified) [[unlikely]]
        rt::fatal(routine, "no gasnet_barrier_notify precedes it (GASNet 1.8 §3.5)");
}

void notify(int id, int flags) {
    const char* routine = "gasnet_barrier_notify";
    rt::SplitPhaseBarrier& b = barrier(routine);
    check_flags(routine, flags);
    if (g_state.barrier_notified)
        rt::fatal(routine, "called twice without gasnet_barrier_wait in between (GASNet 1.8 §3.5)");
    const bool named = flags == 0;
    const long long values[3] = {flags == GASNET_BARRIERFLAG_MISMATCH ? 1 : 0, named ? (long long)id : LLONG_MIN,
                                 named ? -(long long)id : LLONG_MIN};
    b.start(values);
    g_state.barrier_notified = true;
    g_state.barrier_id = id;
    g_state.barrier_flags = flags;
}

int wait(int id, int flags) {
    const char* routine = "gasnet_barrier_wait";
    rt::SplitPhaseBarrier& b = barrier(routine);
    check_notified(routine);
    long long max[3];
    // In the rhythm gasnet_set_waitmode chose.  The node barrier's test is
    // a load: Active Messages are served every few idle steps, with a pause
    // between (bench-gasnet, fast path on: serving at every step made it
    // 1.5x slower, dropping the pause 5x).  The network barrier's test is
    // an MPI call: served at every step without a pause, as OpenSHMEM's
    // network barrier waits (rt::synchronize); with the pause it read
    // 1.05-1.37x MPI_Barrier at 2 PEs, this way 1.00-1.05x.
    rt::Poller poller(*rt::g_job, g_state.wait_mode);
    if (b.on_node())
        while (!b.test(max)) poller.wait(routine);
    else
        while (!b.test(max)) poller.serve(routine);
    return outcome(max, id, flags);
}

int try_barrier(int id, int flags) {
    const char* routine = "gasnet_barrier_try";
    rt::SplitPhaseBarrier& b = barrier(routine);
    check_notified(routine);
    long long max[3];
    if (!b.test(max)) {
        rt::g_job->am->poll(routine);
        rt::check_remote_exit(*rt::g_job, routine);
        return GASNET_ERR_NOT_READY;
    }
    return outcome(max, id, flags);
}

}  // namespace

}  // namespace gasket::gasnet

using namespace gasket;
using gasnet::g_state;

// GASP (include/gasp_shmem.h): GASP_GASNET_BARRIER_{NOTIFY,WAIT,TRY}, S/E,
// arguments int named (flags == 0), int id; the END of wait and try adds
// the result.
extern "C" {

void gasnet_barrier_notify(int id, int flags) noexcept {
    const bool ev = gasp::on();
    const int named = flags == 0;
    if (ev) [[unlikely]]
        gasp::notify(GASP_GASNET_BARRIER_NOTIFY, GASP_START, named, id);
    gasnet::notify(id, flags);
    if (ev) [[unlikely]]
        gasp::notify(GASP_GASNET_BARRIER_NOTIFY, GASP_END, named, id);
}

int gasnet_barrier_wait(int id, int flags) noexcept {
    const bool ev = gasp::on();
    const int named = flags == 0;
    if (ev) [[unlikely]]
        gasp::notify(GASP_GASNET_BARRIER_WAIT, GASP_START, named, id);
    const int result = gasnet::wait(id, flags);
    if (ev) [[unlikely]]
        gasp::notify(GASP_GASNET_BARRIER_WAIT, GASP_END, named, id, result);
    return result;
}

int gasnet_barrier_try(int id, int flags) noexcept {
    const bool ev = gasp::on();
    const int named = flags == 0;
    if (ev) [[unlikely]]
        gasp::notify(GASP_GASNET_BARRIER_TRY, GASP_START, named, id);
    const int result = gasnet::try_barrier(id, flags);
    if (ev) [[unlikely]]
        gasp::notify(GASP_GASNET_BARRIER_TRY, GASP_END, named, id, result);
    return result;
}

}  // extern "C"
