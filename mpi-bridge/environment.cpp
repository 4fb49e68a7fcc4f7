// mpi-bridge/environment.cpp -- MPI init/finalize policy and communicators.
#include "environment.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <thread>

#include "check.hpp"

namespace gasket::mpi {

namespace {
// Set by abort_job before MPI_Abort: MPICH's MPI_Abort ends the calling
// process with exit(), which runs static destructors and atexit handlers;
// none of them may call MPI then (MPICH asserts in MPI_Win_free, and the
// job's status becomes 1 instead of the abort's code).
std::atomic<bool> g_aborting{false};

// The finalize watchdog's limit (set_finalize_stall_limit) and its end.
// Atomics only: the watchdog thread may still read them while the process
// runs its static destructors.
std::atomic<double> g_stall_limit{2.0};
std::atomic<bool> g_finalize_returned{false};

// Ends this process with `status` when MPI_Finalize has not returned
// `limit` seconds from now (finalize_mpi says why).
void watch_finalize(int status, double limit) {
    std::thread([status, limit] {
        using clock = std::chrono::steady_clock;
        const auto deadline = clock::now() + std::chrono::duration<double>(limit);
        while (clock::now() < deadline) {
            if (g_finalize_returned.load(std::memory_order_acquire)) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        if (g_finalize_returned.load(std::memory_order_acquire)) return;
        std::fprintf(stderr,
                     "gasket: MPI_Finalize has not returned %g s after every process reached it (MPICH over UCX "
                     "without CMA stalls so: docs/cluster-path.md, part 1): ending this process with status %d\n",
                     limit, status);
        std::fflush(nullptr);
        // Once, with both processes ending here, Hydra reported the job
        // ended by SIGHUP (status 1): this process is ending anyway.
        std::signal(SIGHUP, SIG_IGN);
        _exit(status);
    }).detach();
}
}  // namespace

void mark_aborting() { g_aborting.store(true, std::memory_order_release); }
bool aborting() { return g_aborting.load(std::memory_order_acquire); }

bool mpi_usable() {
    if (g_aborting.load(std::memory_order_acquire)) return false;
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    return initialized && !finalized;
}

void set_finalize_stall_limit(double seconds) { g_stall_limit.store(seconds, std::memory_order_relaxed); }

void finalize_mpi(int status) {
    if (!mpi_usable()) return;
    if (mpich_family()) {
        // Every process at its end first, so the watchdog times
        // MPI_Finalize's own teardown, not a wait for a process that still
        // computes.
        MPI_Barrier(MPI_COMM_WORLD);
        watch_finalize(status, g_stall_limit.load(std::memory_order_relaxed));
    }
    MPI_Finalize();
    g_finalize_returned.store(true, std::memory_order_release);
}

namespace {
int mpi_level(ThreadLevel level) {
    switch (level) {
        case ThreadLevel::single: return MPI_THREAD_SINGLE;
        case ThreadLevel::funneled: return MPI_THREAD_FUNNELED;
        case ThreadLevel::serialized: return MPI_THREAD_SERIALIZED;
        case ThreadLevel::multiple: break;
    }
    return MPI_THREAD_MULTIPLE;
}
}  // namespace

ThreadLevel Environment::thread_level() const {
    if (thread_level_ == MPI_THREAD_SINGLE) return ThreadLevel::single;
    if (thread_level_ == MPI_THREAD_FUNNELED) return ThreadLevel::funneled;
    if (thread_level_ == MPI_THREAD_SERIALIZED) return ThreadLevel::serialized;
    return ThreadLevel::multiple;
}

Environment::Environment(ThreadLevel requested) {
    const int requested_thread = mpi_level(requested);
    int initialized = 0;
    check(MPI_Initialized(&initialized), "MPI_Initialized");
    if (initialized) {
        check(MPI_Query_thread(&thread_level_), "MPI_Query_thread");
    } else {
        // MPICH over UCX, where UCX carries RMA over TCP (no CMA between
        // node peers, or a TCP network): a TCP put_zcopy leaves its endpoint
        // waiting for an acknowledgement, which MPI_Finalize's endpoint
        // close waits for while the peer, its own closes done, no longer
        // progresses -- the job hangs at exit (docs/cluster-path.md, part 1,
        // "A hang in MPI_Finalize without CMA").  UCX reads this when MPI
        // starts; the user's own setting wins.  (MPI_Get_library_version may
        // be called before MPI_Init_thread.)
        if (mpich_family()) setenv("UCX_TCP_PUT_ENABLE", "n", 0);
        check(MPI_Init_thread(nullptr, nullptr, requested_thread, &thread_level_), "MPI_Init_thread");
        we_initialized_ = true;
        // MPI cannot be initialized twice in a process, and OpenSHMEM may
        // be (shmem_init after the last shmem_finalize): MPI stays up until
        // the process exits.  Registered after MPI_Init_thread, so it runs
        // after the exit handlers the APIs register later (implicit
        // finalization, GASNet's exit at return from main).
        static const bool registered = on_exit([](int status, void*) { finalize_mpi(status); }, nullptr) == 0;
        (void)registered;
    }
    rma_needs_target_ = mpich_family();
    check(MPI_Comm_dup(MPI_COMM_WORLD, &world_), "MPI_Comm_dup");
    check(MPI_Comm_set_errhandler(world_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    check(MPI_Comm_rank(world_, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(world_, &size_), "MPI_Comm_size");
    check(MPI_Comm_split_type(world_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node_), "MPI_Comm_split_type");
    check(MPI_Comm_rank(node_, &node_rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(node_, &node_size_), "MPI_Comm_size");

    // Translate every world rank to its node rank (MPI_UNDEFINED -> -1).
    MPI_Group world_group, node_group;
    check(MPI_Comm_group(world_, &world_group), "MPI_Comm_group");
    check(MPI_Comm_group(node_, &node_group), "MPI_Comm_group");
    std::vector<int> world_ranks(size_);
    std::iota(world_ranks.begin(), world_ranks.end(), 0);
    node_rank_of_.assign(size_, -1);
    check(MPI_Group_translate_ranks(world_group, size_, world_ranks.data(), node_group, node_rank_of_.data()),
          "MPI_Group_translate_ranks");
    for (int& r : node_rank_of_)
        if (r == MPI_UNDEFINED) r = -1;
    MPI_Group_free(&node_group);
    MPI_Group_free(&world_group);
}

Environment::~Environment() {
    if (!mpi_usable()) return;  // the application finalized MPI first
    if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
    if (world_ != MPI_COMM_NULL) MPI_Comm_free(&world_);
}

void Environment::barrier() const { check(MPI_Barrier(world_), "MPI_Barrier"); }

int Environment::all_min(int mine) const {
    int out = mine;
    check(MPI_Allreduce(&mine, &out, 1, MPI_INT, MPI_MIN, world_), "MPI_Allreduce");
    return out;
}

int Environment::all_max(int mine) const {
    int out = mine;
    check(MPI_Allreduce(&mine, &out, 1, MPI_INT, MPI_MAX, world_), "MPI_Allreduce");
    return out;
}

unsigned long Environment::all_min(unsigned long mine) const {
    unsigned long out = mine;
    check(MPI_Allreduce(&mine, &out, 1, MPI_UNSIGNED_LONG, MPI_MIN, world_), "MPI_Allreduce");
    return out;
}

void Environment::allgather(const void* mine, std::size_t bytes, void* all) const {
    check(MPI_Allgather(mine, int(bytes), MPI_BYTE, all, int(bytes), MPI_BYTE, world_), "MPI_Allgather");
}

void Environment::poke_progress() const {
    int flag = 0;
    check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, world_, &flag, MPI_STATUS_IGNORE), "MPI_Iprobe");
}

bool mpich_family() {
    static const bool mpich = [] {
        char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
        int len = 0;
        check(MPI_Get_library_version(library, &len), "MPI_Get_library_version");
        return std::strstr(library, "Open MPI") == nullptr;
    }();
    return mpich;
}

}  // namespace gasket::mpi
