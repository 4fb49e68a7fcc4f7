// src/runtime/start.cpp -- job start-up and the ways a job ends (cold).
#include "start.hpp"

#include <algorithm>

#include "amo.hpp"
#include "collective.hpp"
#include "context.hpp"
#include "device_staging.hpp"
#include "mpi-bridge/check.hpp"
#include "segment_withdrawal.hpp"

namespace gasket::rt {

Job& start_job(const Config& config, const JobSpec& spec, const char* routine) {
    // MPI_THREAD_MULTIPLE whatever the program asks: the progress thread
    // that serves Active Messages while a PE computes calls MPI beside it.
    g_job = std::make_unique<Job>(config, ThreadLevel::multiple, routine);
    Job& j = *g_job;
    j.api = spec.api;
    j.concurrent_rma = spec.concurrent_rma && j.env->thread_level() == ThreadLevel::multiple;
    // Where an MPI call costs enough to save (docs/performance.md,
    // "Scattered nbi puts in one MPI_Put"): MPICH's MPI_Put costs ~0.2 us
    // here, one put of 256 indexed blocks ~0.05 us a block; Open MPI's
    // ~0.02 us either way.
    j.nbi_batches =
        config.nbi_batch == Tristate::on || (config.nbi_batch == Tristate::automatic && mpi::mpich_family());
    set_thread_ring_batches(j.nbi_batches);
    mpi::set_finalize_stall_limit(config.exit_timeout);
    if (spec.exit_notices) j.exit_channel = std::make_unique<mpi::ExitChannel>(j.env->world());
    if (spec.heap_bytes || spec.globals) attach_segments(j, spec, routine);
    return j;
}

void attach_segments(Job& j, const JobSpec& spec, const char* routine) {
    j.attach_heap(spec.heap_bytes, spec.node_shared, spec.heap_name, routine);
    if (spec.globals) j.attach_globals(routine);
    if (spec.api == Api::gasnet && j.n_pes > 1) j.open_dynamic_window();
    j.default_ctx = Context::make_default(j);
    j.contexts.reset(new ContextPool(j, spec.context_windows));
    debug(routine, "%d context window pairs", spec.context_windows);
    j.am = std::make_unique<AmEngine>(*j.env, j.config, j.heap, spec.dispatch, routine);
    register_amo_handlers(*j.am);
    register_staging_handlers(*j.am);
    register_withdrawal_handlers(*j.am);
    // OpenSHMEM's world and shared barriers now, while every PE is here
    // (GASNet makes its own at gasnet_attach).
    if (spec.api == Api::shmem) {
        make_barrier(j, *j.world_team);
        make_barrier(j, *j.shared_team);
    }
}

std::size_t max_heap_bytes(const Job& j, bool node_shared, std::size_t page) {
    const int ranks = j.env->node_size();
    return node_shared ? mpi::shared_memory_per_rank(ranks, page) : mpi::private_memory_per_rank(ranks, page);
}

void end_job(Ending ending, int status) {
    if (ending == Ending::exit && g_job && g_job->am) g_job->am->drain();
    g_job.reset();
    if (ending == Ending::exit) mpi::finalize_mpi(status);
}

bool runtime_usable() { return mpi::mpi_usable(); }

void abort_job(int code) { mpi::abort_job(code); }

namespace {
// Whether this thread may serve Active Messages while exiting: there is an
// engine, and the thread is not inside a handler (serving would nest).
bool may_serve(const Job& j) { return j.am && am_thread_state().handler_depth == 0; }

// Serves Active Messages while waiting for the others' exit notices.
void serve_while_exiting(void* job) {
    Job& j = *static_cast<Job*>(job);
    if (may_serve(j)) j.am->poll("exit");
}

// After every exit notice is in: up to 64 more polls while messages keep
// arriving (a message sent before its sender's notice may be unserved yet).
void serve_what_arrived(Job& j) {
    if (!may_serve(j)) return;
    for (int i = 0; i < 64 && j.am->poll("exit") > 0; ++i) {}
}
}  // namespace

int exit_collectively(Job& j, int code, bool follow, double timeout_seconds, const char* routine) {
    if (!j.exit_channel) fatal(routine, "this job was started without exit notices");
    if (j.am) j.am->stop_progress_thread();
    int first = 0, from = -1;
    const mpi::ExitRole role = follow                                ? mpi::ExitRole::follow
                               : exit_notice_arrived(j, first, from) ? mpi::ExitRole::choose
                                                                     : mpi::ExitRole::start;
    if (j.exit_channel->notify_and_wait(role, code, timeout_seconds, serve_while_exiting, &j)) {
        // Every PE has stopped sending: serve what reached this PE before
        // the last notice (the wait may have ended before polling for it).
        serve_what_arrived(j);
        return j.exit_channel->agreed_code();
    }
    error(routine, "not every %s exited within %g s (GASKET_EXIT_TIMEOUT): ending the job with exit code %d",
          j.api == Api::gasnet ? "node" : "PE", timeout_seconds, code);
    j.exit_channel->abort(code);
}

bool exit_notice_arrived(Job& j, int& code, int& pe) {
    return j.exit_channel && j.exit_channel->notice_arrived(code, pe);
}

}  // namespace gasket::rt
