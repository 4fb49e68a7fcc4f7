// tests/bench/coll.cpp -- bench-coll: OpenSHMEM collectives (§9.10) on
// Gasket against the raw MPI collective they stand for, measured in the
// same run, over all PEs.
//
//   oshrun -np N bench-coll [--iters N] [--reps R] [--min-size 8] [--max-size 1M]
//                           [--factor 2] [--quick]
//
// Rows (µs per call; every PE calls; the figure is the slowest PE's time
// per call of a loop, the median over --reps loops):
//  - barrier: shmem_barrier_all and shmem_sync_all beside MPI_Barrier on a
//    duplicate of MPI_COMM_WORLD, and beside a minimal barrier in node-shared
//    memory (a counter and a generation word in MPI_Win_allocate_shared
//    memory, spinning then yielding), when every PE is on one node: does a
//    shared-memory barrier beat MPI_Barrier here?
//  - broadcast: shmem_broadcastmem(SHMEM_TEAM_WORLD, ..., root 0) vs MPI_Bcast;
//  - reduce: shmem_double_sum_reduce vs MPI_Allreduce(MPI_DOUBLE, MPI_SUM)
//    (size = bytes of doubles per PE);
//  - fcollect: shmem_fcollectmem vs MPI_Allgather (size = bytes per PE);
//  - alltoall: shmem_alltoallmem vs MPI_Alltoall (size = bytes per PE pair);
// for sizes --min-size .. --max-size (x --factor).  Gasket's buffers are on
// the symmetric heap, MPI's are malloc'd; each Gasket loop runs beside its MPI
// loop, round by round (bench_util.hpp), and the ratio is the median over
// rounds of Gasket/MPI in the same round (< 1: Gasket faster).  A loop runs
// --iters calls, fewer for large sizes (at most 64 MiB moved per PE per
// loop, at least 20 calls).  After the table every PE checks the last
// results of every Gasket collective (exit status 1 on a mismatch).
#include <mpi.h>
#include <shmem.h>
#include <sched.h>

#include <atomic>
#include <boost/program_options.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "bench_util.hpp"

namespace po = boost::program_options;
using namespace bench;

namespace {

struct Options {
    SweepOptions sweep;
};

int parse_options(int argc, char** argv, Options& o) {
    po::options_description desc(
        "bench-coll: OpenSHMEM collectives on Gasket vs the raw MPI collectives.\n"
        "Run with 2 or more PEs: oshrun -np 4 bench-coll [options]\nOptions");
    o.sweep.max_text = "1M";
    o.sweep.iters = 2000;
    o.sweep.add_to(desc);
    desc.add_options()("quick", "smoke run: --iters 50 --reps 3 --max-size 64K unless given");
    po::variables_map vm;
    if (int rc = parse_command_line("bench-coll", argc, argv, desc, vm)) return rc;
    if (!o.sweep.finish("bench-coll", vm, 50)) return 2;
    return 0;
}

// A minimal barrier in node-shared memory: the last to arrive resets the
// count and bumps the generation; the others spin on the generation.
class ShmBarrier {
public:
    explicit ShmBarrier(MPI_Comm node) {
        int rank = 0;
        MPI_Comm_rank(node, &rank);
        MPI_Comm_size(node, &size_);
        void* base = nullptr;
        // MPI gives no alignment (Open MPI: 264 bytes into a page), and
        // Shared needs 64: allocate the slack and round up (every process
        // maps the segment at the same offset within a page).
        mpi_check(MPI_Win_allocate_shared(rank == 0 ? sizeof(Shared) + alignof(Shared) : 0, 1, MPI_INFO_NULL, node,
                                          &base, &win_),
                  "MPI_Win_allocate_shared");
        MPI_Aint bytes = 0;
        int unit = 0;
        mpi_check(MPI_Win_shared_query(win_, 0, &bytes, &unit, &base), "MPI_Win_shared_query");
        const auto at = reinterpret_cast<std::uintptr_t>(base);
        s_ = reinterpret_cast<Shared*>((at + alignof(Shared) - 1) & ~std::uintptr_t(alignof(Shared) - 1));
        if (rank == 0) {
            s_->count.store(0);
            s_->gen.store(0);
        }
        MPI_Barrier(node);
    }
    ~ShmBarrier() { MPI_Win_free(&win_); }
    void wait() {
        const unsigned long g = s_->gen.load(std::memory_order_acquire);
        if (s_->count.fetch_add(1, std::memory_order_acq_rel) == (unsigned long)(size_ - 1)) {
            s_->count.store(0, std::memory_order_relaxed);
            s_->gen.store(g + 1, std::memory_order_release);
            return;
        }
        for (unsigned spins = 0; s_->gen.load(std::memory_order_acquire) == g;)
            if (++spins > 256) sched_yield();
    }

private:
    struct Shared {
        alignas(64) std::atomic<unsigned long> count;
        alignas(64) std::atomic<unsigned long> gen;
    };
    MPI_Win win_ = MPI_WIN_NULL;
    Shared* s_ = nullptr;
    int size_ = 1;
};

struct Bench : CollectiveTimer {
    Options opt;
    int npes = 1;
    char *g_src = nullptr, *g_dst = nullptr;  // symmetric heap
    char *m_src = nullptr, *m_dst = nullptr;  // malloc'd, for MPI
};

}  // namespace

int main(int argc, char** argv) {
    Bench b;
    if (int rc = parse_options(argc, argv, b.opt)) return rc == 1 ? 0 : 2;
    b.iters = b.opt.sweep.iters;
    shmem_init();
    b.me = shmem_my_pe();
    b.npes = shmem_n_pes();
    mpi_check(MPI_Comm_dup(MPI_COMM_WORLD, &b.comm), "MPI_Comm_dup");
    const SweepOptions& s = b.opt.sweep;
    const std::size_t region = s.max_size * std::size_t(b.npes);
    b.g_src = static_cast<char*>(shmem_malloc(region));
    b.g_dst = static_cast<char*>(shmem_malloc(region));
    if (!b.g_src || !b.g_dst) {
        if (b.me == 0)
            std::fprintf(stderr, "bench-coll: shmem_malloc(%zu) failed: raise SHMEM_SYMMETRIC_SIZE\n", region);
        shmem_global_exit(1);
    }
    b.m_src = static_cast<char*>(std::malloc(region));
    b.m_dst = static_cast<char*>(std::malloc(region));
    std::memset(b.g_src, 1, region);
    std::memset(b.m_src, 1, region);
    std::memset(b.g_dst, 0, region);
    std::memset(b.m_dst, 0, region);

    MPI_Comm node = MPI_COMM_NULL;
    mpi_check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
              "MPI_Comm_split_type");
    int node_size = 0;
    MPI_Comm_size(node, &node_size);
    const bool one_node = node_size == b.npes;

    if (b.me == 0) {
        const char* fp = std::getenv("GASKET_NODE_FASTPATH");
        const char* pt = std::getenv("GASKET_PROGRESS_THREAD");
        std::printf("## bench-coll: %d PEs%s\n\n", b.npes, one_node ? ", one node" : "");
        std::printf("- GASKET_NODE_FASTPATH=%s, GASKET_PROGRESS_THREAD=%s; shmem_ptr to PE %d: %s\n",
                    fp ? fp : "(unset: on)", pt ? pt : "(unset: auto)", b.npes - 1,
                    shmem_ptr(b.g_src, b.npes - 1) ? "mapped" : "NULL");
        std::printf("- MPI: %s\n", mpi_library().c_str());
        print_machine();
        std::printf(
            "- %ld calls per loop (fewer above %zu B: at most 64 MiB per PE per loop, at least 20), %d "
            "loops (+1 warm-up), median of the slowest PE's µs per call\n\n",
            s.iters, (std::size_t(64) << 20) / std::size_t(s.iters), s.reps);
        std::printf("| collective | size | Gasket µs | MPI µs | Gasket/MPI |\n|---|---|---|---|---|\n");
    }

    // Barriers.
    {
        const long n = s.iters;
        std::vector<Loop> loops{b.loop(n, [](long) { shmem_barrier_all(); }), b.loop(n, [](long) { shmem_sync_all(); }),
                                b.loop(n, [&](long) { MPI_Barrier(b.comm); })};
        std::unique_ptr<ShmBarrier> shm;
        if (one_node) {
            shm = std::make_unique<ShmBarrier>(node);
            loops.push_back(b.loop(n, [&](long) { shm->wait(); }));
        }
        const Rounds r = measure(s.reps, loops);
        b.row("shmem_barrier_all / MPI_Barrier", "-", r, 0, 2);
        b.row("shmem_sync_all / MPI_Barrier", "-", r, 1, 2);
        if (one_node) b.row("shared-memory barrier / MPI_Barrier", "-", r, 3, 2);
    }

    for (std::size_t size : s.sizes()) {
        const long n = b.calls_for(size * std::size_t(b.npes));
        const std::string label = size_label(size);
        const std::size_t doubles = std::max<std::size_t>(size / sizeof(double), 1);
        const int isize = int(size);
        const Rounds r = measure(
            s.reps,
            {b.loop(n, [&](long) { shmem_broadcastmem(SHMEM_TEAM_WORLD, b.g_dst, b.g_src, size, 0); }),
             b.loop(n, [&](long) { MPI_Bcast(b.m_dst, isize, MPI_BYTE, 0, b.comm); }),
             b.loop(n,
                    [&](long) {
                        shmem_double_sum_reduce(SHMEM_TEAM_WORLD, reinterpret_cast<double*>(b.g_dst),
                                                reinterpret_cast<double*>(b.g_src), doubles);
                    }),
             b.loop(n, [&](long) { MPI_Allreduce(b.m_src, b.m_dst, int(doubles), MPI_DOUBLE, MPI_SUM, b.comm); }),
             b.loop(n, [&](long) { shmem_fcollectmem(SHMEM_TEAM_WORLD, b.g_dst, b.g_src, size); }),
             b.loop(n, [&](long) { MPI_Allgather(b.m_src, isize, MPI_BYTE, b.m_dst, isize, MPI_BYTE, b.comm); }),
             b.loop(n, [&](long) { shmem_alltoallmem(SHMEM_TEAM_WORLD, b.g_dst, b.g_src, size); }),
             b.loop(n, [&](long) { MPI_Alltoall(b.m_src, isize, MPI_BYTE, b.m_dst, isize, MPI_BYTE, b.comm); })});
        b.row("broadcast / MPI_Bcast", label, r, 0, 1);
        b.row("double sum reduce / MPI_Allreduce", label, r, 2, 3);
        b.row("fcollect / MPI_Allgather", label, r, 4, 5);
        b.row("alltoall / MPI_Alltoall", label, r, 6, 7);
    }

    // Check the last results of each Gasket collective, at the largest size.
    int failures = 0;
    const std::size_t size = s.sizes().back();
    std::memset(b.g_dst, 0, region);
    for (std::size_t i = 0; i < region; ++i) b.g_src[i] = char(b.me * 7 + i % 13);
    shmem_barrier_all();
    shmem_broadcastmem(SHMEM_TEAM_WORLD, b.g_dst, b.g_src, size, 0);
    for (std::size_t i = 0; i < size; ++i) failures += b.g_dst[i] != char(i % 13);
    shmem_fcollectmem(SHMEM_TEAM_WORLD, b.g_dst, b.g_src, size);
    for (int q = 0; q < b.npes; ++q)
        for (std::size_t i = 0; i < size; ++i) failures += b.g_dst[q * size + i] != char(q * 7 + i % 13);
    shmem_alltoallmem(SHMEM_TEAM_WORLD, b.g_dst, b.g_src, size);
    for (int q = 0; q < b.npes; ++q)
        for (std::size_t i = 0; i < size; ++i)
            failures += b.g_dst[q * size + i] != char(q * 7 + (b.me * size + i) % 13);
    double* d = reinterpret_cast<double*>(b.g_src);
    for (std::size_t i = 0; i < size / sizeof(double); ++i) d[i] = double(b.me + 1);
    shmem_double_sum_reduce(SHMEM_TEAM_WORLD, reinterpret_cast<double*>(b.g_dst), d, size / sizeof(double));
    for (std::size_t i = 0; i < size / sizeof(double); ++i)
        failures += reinterpret_cast<double*>(b.g_dst)[i] != double(b.npes * (b.npes + 1) / 2);
    if (failures) std::printf("CHECK FAILED on PE %d: %d wrong bytes/elements\n", b.me, failures);
    int all_failures = 0;
    MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, b.comm);

    MPI_Comm_free(&node);
    MPI_Comm_free(&b.comm);
    shmem_free(b.g_src);
    shmem_free(b.g_dst);
    std::free(b.m_src);
    std::free(b.m_dst);
    shmem_finalize();
    return all_failures ? 1 : 0;
}
