// src/gasnet/state.hpp -- what the GASNet layer keeps between calls, and the
// argument checks every entry point shares.
#pragma once

#include <gasnet.h>

#include <memory>
#include <vector>

#include "src/runtime/error.hpp"
#include "src/runtime/job.hpp"
#include "src/runtime/progress.hpp"
#include "src/runtime/split_barrier.hpp"

namespace gasket::gasnet {

// FAST segments are node-shared memory (node peers load/store them); LARGE
// ones are private.
#if defined(GASNET_SEGMENT_LARGE)
inline constexpr bool kNodeShared = false;
#else
inline constexpr bool kNodeShared = true;
#endif

struct State {
    bool initialized = false;                           // gasnet_init succeeded
    bool attached = false;                              // gasnet_attach succeeded
    int thread_mode = 0;                                // 0 SEQ, 1 PARSYNC, 2 PAR (GASKET_GASNET_THREAD_MODE)
    rt::WaitMode wait_mode = rt::WaitMode::spin_block;  // gasnet_set_waitmode (§3.6.2)
    std::vector<gasnet_seginfo_t> segments;             // every node's segment, after attach
    // After attach: the split-phase barrier (node memory or MPI).
    std::unique_ptr<rt::SplitPhaseBarrier> barrier;
    // The barrier phase: notify's arguments, and whether a notify awaits
    // its wait (§3.5).
    bool barrier_notified = false;
    int barrier_id = 0, barrier_flags = 0;
};
extern State g_state;

// The job after gasnet_attach, or nullptr (after printing why, naming
// `routine`) so the caller returns GASNET_ERR_NOT_INIT.
inline rt::Job* attached_job(const char* routine) {
    if (g_state.attached) [[likely]]
        return rt::g_job.get();
    rt::error(routine, "called before gasnet_attach: returning GASNET_ERR_NOT_INIT");
    return nullptr;
}

// Fills the extended API's table of where each node's segment is
// (extended.cpp), at gasnet_attach once the segments are known.
void set_routes(rt::Job& job);
// After the GASP tool is started (gasnet_attach): opens the lean transfer
// forms to every node, unless a tool is attached (then every transfer takes
// the forms that raise its events).
void open_untraced_path();

// Called by application polls (every 64th call looks, naming `routine`):
// if another node has called gasnet_exit, this node gets SIGQUIT and exits
// too (rt::check_remote_exit), so that node's exit completes at once.
void watch_for_exit(const char* routine);

// gasnet_init's and gex_Client_Init's start of the job (`thread_mode`: 0
// SEQ, 1 PARSYNC, 2 PAR), and gasnet_attach's and gex_Segment_Attach's
// handlers and segment (`segsize` bytes, 0: none), naming `routine` in
// their messages.  Return GASNET_OK or the GASNET_ERR_* code to return.
int init_job(const char* routine, int thread_mode);
int attach_job(const char* routine, gasnet_handlerentry_t* table, int numentries, uintptr_t segsize);

// At the job's start (collective): the neighbourhood and host of this
// process and the job's sets of them, for gex_System_Query* (gex_system.cpp).
void setup_system_info(rt::Job& job);

// GASNet-EX's handler registry (gex_am.cpp): gasnet_attach's handlers
// (their indices, for gex_Token_Info and the checks of
// gex_EP_RegisterHandlers), and installing the handlers
// gex_EP_RegisterHandlers registered before the segment existed.
void register_attach_handlers(const gasnet_handlerentry_t* table, int numentries);
void install_gex_handlers(rt::Job& job);
// Whether handler index `index` is registered (either API).
bool handler_index_taken(unsigned index);

// The job after gasnet_init; fatal (naming `routine`) before it.
rt::Job& initialized_job(const char* routine);
// gasnet_getMaxLocalSegmentSize(): the most bytes one segment may have.
uintptr_t max_local_segment(const rt::Job& job);

}  // namespace gasket::gasnet
