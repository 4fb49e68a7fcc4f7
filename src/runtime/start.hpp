// src/runtime/start.hpp -- starting and ending the job: the one start-up
// path both APIs take (shmem_init*, gasnet_init/gasnet_attach), and the
// ways a job ends (finalize, collective exit, abort).  Cold: out of line.
#pragma once

#include <cstddef>

#include "am.hpp"
#include "job.hpp"

namespace gasket::rt {

// What a job is started with.  OpenSHMEM attaches everything at start;
// GASNet starts with no segment (gasnet_init) and attaches its segment at
// gasnet_attach (attach_segments with the same spec, `heap_bytes` set).
struct JobSpec {
    Api api = Api::shmem;
    // Several threads may issue RMA at once; granted only when MPI gives
    // ThreadLevel::multiple (Job::concurrent_rma says what was granted).
    bool concurrent_rma = true;
    // The heap (OpenSHMEM symmetric heap, or the GASNet segment): bytes on
    // this PE; `node_shared`: node memory that node peers load/store (with
    // the node fast path), else an MPI_Win_allocate window.
    std::size_t heap_bytes = 0;
    bool node_shared = true;
    const char* heap_name = "symmetric heap";
    // The executable's global data as a second segment (OpenSHMEM).
    bool globals = false;
    // Context window pairs opened for OpenSHMEM contexts (0..64).
    int context_windows = 0;
    // Runs client Active Message handlers (GASNet), or none.
    AmEngine::Dispatch dispatch = nullptr;
    // Exit notices for a collective exit from any PE (gasnet_exit).
    bool exit_notices = false;
};

// Starts the job: MPI (at MPI_THREAD_MULTIPLE unless the application
// initialized it), the world and shared teams and, when spec.heap_bytes
// is set or spec.globals, the segments, the Active Message engine and the
// contexts (attach_segments).  Collective over MPI_COMM_WORLD.  Sets and
// returns g_job; fatal, naming `routine`, when MPI or a segment cannot be
// had.  Call only while no job runs.
Job& start_job(const Config& config, const JobSpec& spec, const char* routine);

// Attaches the heap of spec.heap_bytes, the global data (spec.globals),
// starts the Active Message engine and makes the default context and the
// context window pool.  Collective.  Part of start_job; separately for an
// API whose segment comes later (gasnet_attach).
void attach_segments(Job& j, const JobSpec& spec, const char* routine);

// The largest heap (GASNet segment) this PE could attach, in bytes rounded
// down to `page`: node-shared memory (free /dev/shm and physical memory
// shared among the node's PEs) when `node_shared`, else private memory
// (physical memory and swap shared likewise).
std::size_t max_heap_bytes(const Job& j, bool node_shared, std::size_t page);

// How a job ends (end_job).
enum class Ending {
    finalize,  // shmem_finalize: MPI stays up (for a later shmem_init; if
               // Gasket initialized it, it is finalized at process exit)
    exit       // gasnet_exit: Active Message sends drained first, and MPI
               // always finalized (the program cannot do it after exit)
};
// Ends the job collectively (every PE calls it): the Active Message engine
// stops, then every segment, team and window is freed, and MPI finalized
// as `ending` says.  `status`: the code the process then exits with (for
// Ending::exit: MPI_Finalize may end the process with it if it stalls,
// mpi::finalize_mpi).  g_job is null afterwards.
void end_job(Ending ending, int status = 0);

// True while MPI can still be called (the application may have finalized
// it first): at-exit handlers check it before ending the job.
bool runtime_usable();

// Ends every process of the job with exit code `code` (MPI_Abort), from
// any PE at any time; never returns.
[[noreturn]] void abort_job(int code);

// Collective exit from any PE (gasnet_exit; OpenSHMEM's implicit
// finalization at exit; needs spec.exit_notices): stops the progress
// thread, tells every other PE, then waits (serving Active Messages) for
// every PE to exit too: up to `timeout_seconds`, or without limit when it is
// negative; then serves what arrived before the last notice.  `follow`: this PE joins an exit that another PE began and takes
// its code; otherwise `code` is this PE's own (it wins over the code of the
// PE that began, mpi::ExitRole).  Returns the code the whole job exits with
// (the same on every PE) when every PE exited (the caller then calls
// end_job); otherwise prints why, naming `routine`, and ends the job with
// `code` (MPI_Abort).
int exit_collectively(Job& j, int code, bool follow, double timeout_seconds, const char* routine);

// True, with the first notice's code and sender in `code` and `pe`, once
// another PE has begun a collective exit.  Cheap enough for polls (a test
// of one receive).  What waits do about it: check_remote_exit (progress.hpp).
bool exit_notice_arrived(Job& j, int& code, int& pe);

}  // namespace gasket::rt
