// shmem/setup.cpp -- §9.1 library setup, exit and query, §9.2 threads.
#include <shmem.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "src/gasp/gasp.hpp"
#include "src/runtime/job.hpp"
#include "src/runtime/start.hpp"
#include "src/runtime/collective.hpp"
#include "src/runtime/sync.hpp"
#include "context.hpp"
#include "team.hpp"

using namespace gasket;

namespace {

struct gasket_default_ctx_storage {
    int unused;
} g_default_ctx;

int g_thread_level = SHMEM_THREAD_SINGLE;
bool g_atexit_registered = false;

int shmem_level(rt::ThreadLevel level) {
    switch (level) {
        case rt::ThreadLevel::single: return SHMEM_THREAD_SINGLE;
        case rt::ThreadLevel::funneled: return SHMEM_THREAD_FUNNELED;
        case rt::ThreadLevel::serialized: return SHMEM_THREAD_SERIALIZED;
        case rt::ThreadLevel::multiple: break;
    }
    return SHMEM_THREAD_MULTIPLE;
}

void print_banner(const rt::Job& j) {
    if (j.my_pe != 0) return;
    if (j.config.version)
        std::printf("%s, OpenSHMEM %d.%d\n", SHMEM_VENDOR_STRING, SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION);
    if (j.config.info)
        std::printf("Gasket environment variables (value, default, meaning):\n%s",
                    rt::format_table(rt::describe(j.config)).c_str());
    std::fflush(stdout);
}

// What a PE waiting in OpenSHMEM does when another PE has begun to exit
// without shmem_finalize (implicit finalization at exit(0), below): the
// wait may still end (the exiting PE passed the same barrier first), so
// it goes on, for GASKET_EXIT_TIMEOUT seconds after the first such look;
// a wait still going then waits for a PE that left: the job ends with exit
// code 1, as MPI ends a job whose process exits without MPI_Finalize.
void remote_exit_while_waiting(rt::Job& j, int code, int pe, const char* routine) {
    using clock = std::chrono::steady_clock;
    static std::atomic<clock::rep> deadline{0};
    const clock::rep now = clock::now().time_since_epoch().count();
    clock::rep expected = 0;
    const auto grace =
        std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(j.config.exit_timeout));
    if (deadline.compare_exchange_strong(expected, now + grace.count()) || now < deadline.load()) return;
    rt::error(routine,
              "PE %d exited (status %d) without shmem_finalize, and this PE still waits %g s later "
              "(GASKET_EXIT_TIMEOUT): ending the job with exit code 1",
              pe, code, j.config.exit_timeout);
    rt::abort_job(1);
}

// A PE's exit with the job running (no shmem_finalize: start_pes programs,
// or a program that forgot it, or one that gives up with exit(n)).
// Status 0: implicit finalization (Annex F.2.3), collective: this PE
// tells the others and waits for them without limit (they may still
// compute), serving Active Messages; others left waiting for it in a
// barrier or a wait end the job (remote_exit_while_waiting).  Nonzero
// status: the job ends now with that status, as MPI ends a job when a
// process exits nonzero; nobody is left waiting.
void exit_without_finalize(int status, void*) {
    if (!rt::g_job || !rt::runtime_usable()) return;
    rt::Job& j = *rt::g_job;
    if (status != 0) {
        rt::error("exit", "PE %d exited with status %d without shmem_finalize: ending the job with exit code %d",
                  j.my_pe, status, status);
        rt::abort_job(status);
    }
    j.init_count = 1;
    rt::quiet(*j.default_ctx, "shmem_finalize");
    rt::exit_collectively(j, 0, false, -1.0, "shmem_finalize");
    shmem::release_contexts();
    shmem::bind_predefined_teams(nullptr);
    rt::end_job(rt::Ending::finalize);
    rt::set_message_context(-1, false);
}

// Returns 0 or a nonzero code after printing why.
int start(const char* routine, int requested, int* provided) {
    if (rt::g_job && rt::g_job->api != rt::Api::shmem)
        rt::fatal(routine,
                  "this process already runs GASNet (gasnet_init): OpenSHMEM and GASNet in one process are "
                  "not supported");
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE) {
        std::fprintf(stderr, "gasket: %s: requested thread level %d is not a SHMEM_THREAD_* value\n", routine,
                     requested);
        return 1;
    }
    if (rt::g_job) {
        // A nested init: the level was fixed by the first (§9.2.1 Notes).
        ++rt::g_job->init_count;
        if (provided) *provided = g_thread_level;
        return 0;
    }
    rt::Config config;
    std::string error;
    if (!rt::load_config(config, error)) {
        std::fprintf(stderr, "gasket: %s: %s\n", routine, error.c_str());
        return 1;
    }
    rt::JobSpec spec;
    spec.api = rt::Api::shmem;
    spec.concurrent_rma = requested == SHMEM_THREAD_MULTIPLE;
    spec.heap_bytes = config.symmetric_size;
    spec.node_shared = true;
    spec.heap_name = "symmetric heap";
    spec.globals = true;
    spec.context_windows = config.ctx_windows;
    spec.exit_notices = true;  // implicit finalization at exit
    rt::Job& j = rt::start_job(config, spec, routine);
    j.on_remote_exit = remote_exit_while_waiting;
    shmem::bind_predefined_teams(&j);
    g_thread_level = std::min(requested, shmem_level(j.env->thread_level()));
    if (provided) *provided = g_thread_level;
    if (!g_atexit_registered) {
        on_exit(exit_without_finalize, nullptr);  // glibc: the handler learns the exit status
        g_atexit_registered = true;
    }
    print_banner(j);
    // GASP (§3.2): the tool's gasp_init once per process, after the runtime is
    // up; then the init event, on the first init only.
    if (gasp::start(routine) && gasp::on()) gasp::notify(GASP_SHMEM_INIT, GASP_END, requested, g_thread_level);
    shmem::open_untraced_path(*j.default_ctx);
    return 0;
}

}  // namespace

extern "C" {

shmem_ctx_t const gasket_shmem_ctx_default = reinterpret_cast<shmem_ctx_t>(&g_default_ctx);

void shmem_init(void) noexcept {
    if (start("shmem_init", SHMEM_THREAD_SINGLE, nullptr) != 0) rt::abort_job(1);
}

int shmem_init_thread(int requested, int* provided) noexcept { return start("shmem_init_thread", requested, provided); }

void shmem_query_thread(int* provided) noexcept {
    rt::job("shmem_query_thread");
    if (provided) *provided = g_thread_level;
}

void shmem_finalize(void) noexcept {
    if (!rt::g_job) return;  // after the last finalize: nothing left to do
    const int is_last = rt::g_job->init_count == 1;
    const bool ev = gasp::on();
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_FINALIZE, GASP_START, is_last);
    rt::barrier_all("shmem_finalize");
    if (--rt::g_job->init_count > 0) {
        if (ev) [[unlikely]]
            gasp::notify(GASP_SHMEM_FINALIZE, GASP_END, is_last);
        return;
    }
    shmem::release_contexts();
    shmem::release_teams();
    shmem::bind_predefined_teams(nullptr);
    rt::end_job(rt::Ending::finalize);
    rt::set_message_context(-1, false);
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_FINALIZE, GASP_END, is_last);
}

void shmem_query_initialized(int* initialized) noexcept {
    if (initialized) *initialized = rt::g_job != nullptr;
}

void shmem_global_exit(int status) noexcept {
    // GASP: GASP_SHMEM_GLOBAL_EXIT (A) while the job is still up, so that the
    // tool gets it (and may save its data) before the processes end.
    if (gasp::on()) [[unlikely]]
        gasp::notify(GASP_SHMEM_GLOBAL_EXIT, GASP_ATOMIC, status);
    std::fflush(stdout);
    std::fflush(stderr);
    rt::abort_job(status);
}

int shmem_my_pe(void) noexcept { return rt::job("shmem_my_pe").my_pe; }
int shmem_n_pes(void) noexcept { return rt::job("shmem_n_pes").n_pes; }

int shmem_pe_accessible(int pe) noexcept {
    const rt::Job& j = rt::job("shmem_pe_accessible");
    return pe >= 0 && pe < j.n_pes;
}

int shmem_addr_accessible(const void* addr, int pe) noexcept {
    rt::Job& j = rt::job("shmem_addr_accessible");
    return pe >= 0 && pe < j.n_pes && j.segment_of(addr) != nullptr;
}

void* shmem_ptr(const void* dest, int pe) noexcept {
    rt::Job& j = rt::job("shmem_ptr");
    if (pe < 0 || pe >= j.n_pes) return nullptr;
    rt::Segment* seg = j.segment_of(dest);
    if (!seg || !seg->direct(pe)) return nullptr;
    return seg->direct(pe) + seg->offset_of(dest);
}

void shmem_info_get_version(int* major, int* minor) noexcept {
    if (major) *major = SHMEM_MAJOR_VERSION;
    if (minor) *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char* name) noexcept {
    if (!name) rt::fatal("shmem_info_get_name", "name is NULL");
    std::strncpy(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN - 1);
    name[SHMEM_MAX_NAME_LEN - 1] = '\0';
}

}  // extern "C"
