// src/gasnet/job.cpp -- GASNet job control and queries (gasnet-1.8-spec.md
// §1.6, §2.1, §2.2, §3.6.2).
#include <gasnet.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <unistd.h>

#include "dispatch.hpp"
#include "ep_segments.hpp"
#include "src/gasp/gasp.hpp"
#include "src/runtime/collective.hpp"
#include "src/gex/objects.hpp"
#include "src/runtime/start.hpp"
#include "state.hpp"

namespace gasket::gasnet {

State g_state;

rt::Job& initialized_job(const char* routine) {
    if (!g_state.initialized || !rt::g_job) [[unlikely]]
        rt::fatal(routine, "called before gasnet_init");
    return *rt::g_job;
}

namespace {

struct ErrorText {
    int code;
    const char* name;
    const char* desc;
};
constexpr ErrorText kErrors[] = {
    {GASNET_OK, "GASNET_OK", "No error"},
    {GASNET_ERR_NOT_INIT, "GASNET_ERR_NOT_INIT", "GASNet message layer not initialized"},
    {GASNET_ERR_RESOURCE, "GASNET_ERR_RESOURCE", "Problem with requested resource"},
    {GASNET_ERR_BAD_ARG, "GASNET_ERR_BAD_ARG", "Invalid function parameter passed"},
    {GASNET_ERR_NOT_READY, "GASNET_ERR_NOT_READY", "Non-blocking operation not complete"},
    {GASNET_ERR_BARRIER_MISMATCH, "GASNET_ERR_BARRIER_MISMATCH", "Barrier id's mismatched"},
};

const ErrorText* find_error(int code) {
    for (const ErrorText& e : kErrors)
        if (e.code == code) return &e;
    return nullptr;
}

// The spec gasnet_init and gasnet_attach start the job with.
rt::JobSpec job_spec(std::size_t segsize) {
    rt::JobSpec spec;
    spec.api = rt::Api::gasnet;
    spec.concurrent_rma = true;  // handlers on the progress thread send Long replies beside the client
    spec.heap_bytes = segsize;
    spec.node_shared = kNodeShared;
    spec.heap_name = "GASNet segment";
    spec.dispatch = dispatch_handler;
    spec.exit_notices = true;
    return spec;
}

}  // namespace

uintptr_t max_local_segment(const rt::Job& job) {
    std::size_t max = rt::max_heap_bytes(job, kNodeShared, GASNET_PAGESIZE);
    if (job.config.max_segsize) max = std::min(max, job.config.max_segsize / GASNET_PAGESIZE * GASNET_PAGESIZE);
    return max;
}

namespace {

// Chooses handler indices (§2.1.0.2) into `indices`: fixed ones must be
// 128..255 and distinct; "don't care" (0) entries take the highest free
// indices in table order, the same on every node given the same table.
// Changes nothing else; returns GASNET_OK or GASNET_ERR_BAD_ARG (with a
// message).
int choose_handlers(const char* routine, const gasnet_handlerentry_t* table, int numentries,
                    std::vector<gasnet_handler_t>& indices) {
    if (numentries < 0 || (numentries > 0 && !table)) {
        rt::error(routine, "handler table %p with %d entries is not valid", static_cast<const void*>(table),
                  numentries);
        return GASNET_ERR_BAD_ARG;
    }
    bool used[256] = {};
    for (unsigned i = 0; i < 256; ++i) used[i] = handler_index_taken(i);  // by gex_EP_RegisterHandlers
    for (int i = 0; i < numentries; ++i) {
        if (!table[i].fnptr) {
            rt::error(routine, "handler table entry %d has a NULL function", i);
            return GASNET_ERR_BAD_ARG;
        }
        const unsigned index = table[i].index;
        if (index == 0) continue;
        if (index < 128) {
            rt::error(routine,
                      "handler table entry %d asks for index %u: 0..127 are reserved for GASNet (clients use 128..255)",
                      i, index);
            return GASNET_ERR_BAD_ARG;
        }
        if (used[index]) {
            rt::error(routine,
                      "handler index %u is given twice in the handler table, or taken by gex_EP_RegisterHandlers",
                      index);
            return GASNET_ERR_BAD_ARG;
        }
        used[index] = true;
    }
    indices.resize(std::size_t(numentries));
    unsigned next = 255;
    for (int i = 0; i < numentries; ++i) {
        indices[i] = table[i].index;
        if (table[i].index != 0) continue;
        while (next >= 128 && used[next]) --next;
        if (next < 128) {
            rt::error(routine, "no free handler index left for table entry %d (128 client handlers at most)", i);
            return GASNET_ERR_BAD_ARG;
        }
        indices[i] = gasnet_handler_t(next);
        used[next] = true;
    }
    return GASNET_OK;
}

// Ends this node's part of a collective exit with `code` (`follow`: the
// code of a node that began the exit, taken, not chosen): the other nodes
// are told and waited for, then everything is shut down in order.  Returns
// the code the job exits with (agreed by all nodes).  When some node does
// not exit within GASKET_EXIT_TIMEOUT the job is ended with `code` instead.
int leave_job(int code, bool follow, const char* routine) {
    std::fflush(nullptr);
    rt::Job& job = *rt::g_job;
    const int agreed = rt::exit_collectively(job, code, follow, job.config.exit_timeout, routine);
    // A node following another node's exit ends as if it had called
    // gasnet_exit (§2.1.0.5 expects that of its SIGQUIT handler), so a tool
    // sees it end the same way: GASP_GASNET_EXIT with the agreed code, raised
    // after the exit served the Active Messages sent to this node before it
    // (docs/gasp.md).  A SIGQUIT handler that called gasnet_exit raised it.
    if (follow && gasp::on()) gasp::notify(GASP_GASNET_EXIT, GASP_ATOMIC, agreed);  // GASP: A, int status
    // The barrier is left to the process's end, on every node alike (freeing
    // it is collective): a node may be inside a barrier that will never
    // complete, whose destructor would wait for it.  Kept reachable from a
    // global, so leak checkers see it kept, not lost.
    static rt::SplitPhaseBarrier* volatile left_to_exit;  // volatile: the store stays
    left_to_exit = g_state.barrier.release();
    rt::end_job(rt::Ending::exit, agreed);
    g_state = gasnet::State{};
    return agreed;
}

// True when the client has a handler of its own for SIGQUIT.
bool client_handles_sigquit() {
    struct sigaction sa {};
    if (sigaction(SIGQUIT, nullptr, &sa) != 0) return false;
    if (sa.sa_flags & SA_SIGINFO) return sa.sa_sigaction != nullptr;
    return sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN;
}

// Set while a terminate signal is handled (on_terminate_signal): then
// gasnet_exit must not shut down in order (MPI may be interrupted).
volatile std::sig_atomic_t g_in_terminate_signal = 0;

// SIGTERM and SIGINT (where the client left them alone): GASNet 1.8
// §2.1.0.5 sends SIGQUIT for a catchable terminate signal, so the client's
// SIGQUIT handler runs (and may call gasnet_exit: the job then ends at once
// with that code, by MPI_Abort: see gasnet_exit);
// after it, or without one, the signal ends the process as it would have.
void on_terminate_signal(int sig) {
    g_in_terminate_signal = 1;
    if (client_handles_sigquit()) raise(SIGQUIT);
    std::signal(sig, SIG_DFL);
    raise(sig);
}

void catch_terminate_signals() {
    for (int sig : {SIGTERM, SIGINT}) {
        struct sigaction sa {};
        if (sigaction(sig, nullptr, &sa) != 0 || (sa.sa_flags & SA_SIGINFO) || sa.sa_handler != SIG_DFL) continue;
        sa.sa_handler = on_terminate_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = 0;
        sigaction(sig, &sa, nullptr);
    }
}

// A wait of this node saw another node's exit notice (gasnet_exit, or a
// return from main): GASNet 1.8 §2.1.0.5 sends this node SIGQUIT.  The
// client's handler runs now, in this thread; it may call gasnet_exit(code),
// which then sets the job's exit code.  Without one, or when it returns,
// this node follows the exit with the other node's code.  Never inside an
// Active Message handler (the notice is seen again after it).
void remote_exit(rt::Job&, int code, int, const char* routine) {
    if (rt::am_thread_state().handler_depth > 0) return;
    static std::atomic<bool> delivered{false};
    if (delivered.exchange(true)) return;  // another thread of this node handles it
    if (client_handles_sigquit()) raise(SIGQUIT);
    std::exit(leave_job(code, true, routine));
}

// A return from main (or exit) with the job running, without gasnet_exit:
// encouraged, not required (§2.1.0.5), so the exit is gasnet_exit's with
// the exit status: every node returning ends the job cleanly with it; a
// node returning alone ends the job with its status (the others see it at
// their next wait, or after GASKET_EXIT_TIMEOUT).
void exit_without_gasnet_exit(int status, void*) {
    if (!g_state.initialized || !rt::g_job || !rt::runtime_usable()) return;
    if (rt::am_thread_state().handler_depth > 0 || g_in_terminate_signal) rt::abort_job(status);
    const int code = leave_job(status, false, "exit");
    if (code != status) std::_Exit(code);  // stdio flushed by leave_job
}

}  // namespace

int init_job(const char* routine, int thread_mode) {
    if (g_state.initialized) {
        rt::error(routine, "called a second time: returning GASNET_ERR_RESOURCE");
        return GASNET_ERR_RESOURCE;
    }
    if (rt::g_job) {
        rt::error(routine,
                  "this process already runs OpenSHMEM (shmem_init): OpenSHMEM and GASNet in one process "
                  "are not supported");
        return GASNET_ERR_RESOURCE;
    }
    rt::Config config;
    std::string problem;
    if (!rt::load_config(config, problem) || !config.max_segsize_problem.empty()) {
        rt::error(routine, "%s", problem.empty() ? config.max_segsize_problem.c_str() : problem.c_str());
        return GASNET_ERR_RESOURCE;
    }
    rt::set_gasnet_messages(true);  // GASNet 1.8 says "node"
    rt::Job& job = rt::start_job(config, job_spec(0), routine);
    job.on_remote_exit = remote_exit;
    job.on_segment_withdrawn = forget_withdrawn_segment;
    setup_system_info(job);
    g_state.thread_mode = thread_mode;
    g_state.initialized = true;
    static const bool at_exit = on_exit(exit_without_gasnet_exit, nullptr) == 0;
    (void)at_exit;
    catch_terminate_signals();
    if (thread_mode == 2 && !job.env->thread_multiple())
        rt::error(routine,
                  "GASNET_PAR needs a fully thread-safe MPI but it provides thread level %d of 3: call GASNet from one "
                  "thread at a time",
                  int(job.env->thread_level()));
    return GASNET_OK;
}

int attach_job(const char* routine, gasnet_handlerentry_t* table, int numentries, uintptr_t segsize) {
    if (!g_state.initialized) {
        rt::error(routine, "called before gasnet_init: returning GASNET_ERR_NOT_INIT");
        return GASNET_ERR_NOT_INIT;
    }
    if (g_state.attached) {
        rt::error(routine, "called a second time: returning GASNET_ERR_RESOURCE");
        return GASNET_ERR_RESOURCE;
    }
    rt::Job& job = *rt::g_job;
    int status = GASNET_OK;
    const uintptr_t max = max_local_segment(job);
    if (segsize % GASNET_PAGESIZE != 0) {
        rt::error(routine, "segsize %ju is not a multiple of GASNET_PAGESIZE (%d)", uintmax_t(segsize),
                  GASNET_PAGESIZE);
        status = GASNET_ERR_BAD_ARG;
    } else if (segsize > max) {
        rt::error(routine, "segsize %ju is above gasnet_getMaxLocalSegmentSize() = %ju", uintmax_t(segsize),
                  uintmax_t(max));
        status = GASNET_ERR_BAD_ARG;
    }
    std::vector<gasnet_handler_t> indices;
    if (status == GASNET_OK) status = choose_handlers(routine, table, numentries, indices);
    // Agree on success first: attach is collective, nobody may hang, and a
    // refused attach leaves nothing behind.
    if (job.env->all_max(status) != GASNET_OK) {
        if (status == GASNET_OK) rt::error(routine, "another node's %s arguments were refused", routine);
        return status != GASNET_OK ? status : GASNET_ERR_RESOURCE;
    }
    rt::attach_segments(job, job_spec(segsize), routine);
    for (int i = 0; i < numentries; ++i) {
        table[i].index = indices[i];
        job.am->set_handler(indices[i], table[i].fnptr);
    }
    register_attach_handlers(table, numentries);
    install_gex_handlers(job);

    gasnet_seginfo_t mine{segsize ? job.heap.base : nullptr, segsize};
    g_state.segments.resize(job.n_pes);
    job.env->allgather(&mine, sizeof mine, g_state.segments.data());
    g_state.barrier = rt::job_barrier(job);
    set_routes(job);
    g_state.attached = true;
    if (segsize) gex::bind_segment(job.heap.base, segsize);
    // GASP (§3.2): a GASNet program's tool is initialized here, with
    // GASP_MODEL_SHMEM (docs/gasp.md), once per process.
    gasp::start(routine);
    open_untraced_path();
    job.env->barrier();
    return GASNET_OK;
}

}  // namespace gasket::gasnet

using namespace gasket;
using gasket::gasnet::g_state;

extern "C" {

char* gasnet_ErrorName(int errval) noexcept {
    const auto* e = gasnet::find_error(errval);
    return const_cast<char*>(e ? e->name : "GASNET_ERR_UNKNOWN");
}

char* gasnet_ErrorDesc(int errval) noexcept {
    const auto* e = gasnet::find_error(errval);
    return const_cast<char*>(e ? e->desc : "Unknown GASNet error code");
}

int gasket_gasnet_init(int* argc, char*** argv, int thread_mode) noexcept {
    (void)argc;
    (void)argv;
    const char* routine = "gasnet_init";
    const int status = gasnet::init_job(routine, thread_mode);
    // The GASNet-EX objects of a GASNet-1 client (gasnet_QueryGexObjects).
    if (status == GASNET_OK) gex::make_client("GASNET1", GEX_FLAG_USES_GASNET1, thread_mode == 2);  // 2: GASNET_PAR
    return status;
}

int gasnet_attach(gasnet_handlerentry_t* table, int numentries, uintptr_t segsize, uintptr_t minheapoffset) noexcept {
    (void)minheapoffset;
    return gasnet::attach_job("gasnet_attach", table, numentries, segsize);
}
uintptr_t gasnet_getMaxLocalSegmentSize(void) noexcept {
    return gasnet::max_local_segment(gasnet::initialized_job("gasnet_getMaxLocalSegmentSize"));
}

uintptr_t gasnet_getMaxGlobalSegmentSize(void) noexcept {
    rt::Job& job = gasnet::initialized_job("gasnet_getMaxGlobalSegmentSize");
    return job.env->all_min((unsigned long)gasnet::max_local_segment(job));
}

void gasnet_exit(int exitcode) noexcept {
    std::fflush(nullptr);
    if (!g_state.initialized || !rt::g_job) std::exit(exitcode);
    const bool in_order = rt::am_thread_state().handler_depth == 0 && !gasnet::g_in_terminate_signal;
    // In order, the progress thread stops first (the exit would stop it
    // anyway): a handler it runs returns, and its GASP END is raised, before
    // the tool sees the exit, so a tool that reports at GASP_GASNET_EXIT
    // counts every handler whose effects the client waited for.
    if (in_order && rt::g_job->am) rt::g_job->am->stop_progress_thread();
    if (gasp::on()) gasp::notify(GASP_GASNET_EXIT, GASP_ATOMIC, exitcode);  // GASP: A, int status
    // From a handler (perhaps on the progress thread) nothing can be shut
    // down in order: end the job at once.
    if (rt::am_thread_state().handler_depth > 0) rt::abort_job(exitcode);
    // From a terminate signal's handler (a client SIGQUIT handler run by
    // it): no shutdown in order.  MPI_Abort carries the code to the
    // launcher, which then ends the others: an _Exit alone lets Hydra
    // (MPICH) report whichever end it sees first, often the rank it killed
    // (docs/cluster-path.md).  alarm(5) bounds it should the signal have
    // interrupted this thread inside MPI: SIGALRM then ends the process.
    if (gasnet::g_in_terminate_signal) {
        alarm(5);
        rt::abort_job(exitcode);
    }
    // Every node exits: shut down in order, then exit with the agreed code.
    std::exit(gasnet::leave_job(exitcode, false, "gasnet_exit"));
}

gasnet_node_t gasnet_mynode(void) noexcept { return gasnet_node_t(gasnet::initialized_job("gasnet_mynode").my_pe); }

gasnet_node_t gasnet_nodes(void) noexcept { return gasnet_node_t(gasnet::initialized_job("gasnet_nodes").n_pes); }

int gasnet_getSegmentInfo(gasnet_seginfo_t* seginfo_table, int numentries) noexcept {
    const char* routine = "gasnet_getSegmentInfo";
    if (!gasnet::attached_job(routine)) return GASNET_ERR_NOT_INIT;
    if (numentries < 0 || (numentries > 0 && !seginfo_table)) {
        rt::error(routine, "table %p with %d entries is not valid", static_cast<void*>(seginfo_table), numentries);
        return GASNET_ERR_BAD_ARG;
    }
    const int n = std::min<int>(numentries, int(g_state.segments.size()));
    std::copy_n(g_state.segments.begin(), n, seginfo_table);
    return GASNET_OK;
}

char* gasnet_getenv(const char* name) noexcept { return name ? std::getenv(name) : nullptr; }

int gasnet_set_waitmode(int wait_mode) noexcept {
    if (wait_mode != GASNET_WAIT_SPIN && wait_mode != GASNET_WAIT_BLOCK && wait_mode != GASNET_WAIT_SPINBLOCK) {
        rt::error("gasnet_set_waitmode", "wait_mode %d is not GASNET_WAIT_SPIN, _BLOCK or _SPINBLOCK", wait_mode);
        return GASNET_ERR_BAD_ARG;
    }
    g_state.wait_mode = wait_mode == GASNET_WAIT_SPIN    ? rt::WaitMode::spin
                        : wait_mode == GASNET_WAIT_BLOCK ? rt::WaitMode::block
                                                         : rt::WaitMode::spin_block;
    return GASNET_OK;
}

}  // extern "C"
