// tests/bench/gex_coll.cpp -- bench-gex-coll: GASNet-EX collectives
// (gex_Coll_*NB, then gex_Event_Wait) against the raw MPI nonblocking
// collective each stands for (MPI_I*, then MPI_Wait), measured in the same
// run, over the primordial team.
//
//   oshrun -np N bench-gex-coll [--iters N] [--reps R] [--min-size 8]
//                               [--max-size 1M] [--factor 4] [--quick]
//
// Rows (µs per call; every process calls; the figure is the slowest
// process's time per call of a loop, the median over --reps loops):
//  - barrier: gex_Coll_BarrierNB vs MPI_Ibarrier;
//  - broadcast from rank 0: gex_Coll_BroadcastNB vs MPI_Ibcast, both from
//    one buffer at the root (Gasket's in place, src == dst: otherwise the
//    root first copies src to dst, which MPI's single buffer never does);
//  - sum of doubles to all: gex_Coll_ReduceToAllNB(GEX_OP_ADD) vs
//    MPI_Iallreduce(MPI_SUM), and with a client's operator
//    (GEX_OP_USER) vs MPI_Iallreduce with an MPI_Op_create'd one;
//  - sum of doubles to rank 0: gex_Coll_ReduceToOneNB vs MPI_Ireduce;
// for sizes --min-size .. --max-size (x --factor).  MPI runs on a duplicate
// of MPI_COMM_WORLD; both use malloc'd buffers.  The ratio is the median
// over rounds of Gasket/MPI in the same round (< 1: Gasket faster).  After
// the table every process checks the last results of every Gasket
// collective (exit status 1 on a mismatch).
#include <gasnet_coll.h>
#include <gasnetex.h>
#include <mpi.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.hpp"

namespace po = boost::program_options;
using namespace bench;

namespace {

void sum_doubles(const void* in, void* inout, size_t count, const void*) {
    const auto* a = static_cast<const double*>(in);
    auto* b = static_cast<double*>(inout);
    for (size_t i = 0; i < count; ++i) b[i] += a[i];
}
void mpi_sum_doubles(void* in, void* inout, int* len, MPI_Datatype*) { sum_doubles(in, inout, size_t(*len), nullptr); }

struct Bench : CollectiveTimer {
    SweepOptions sweep;
    gex_TM_t tm = GEX_TM_INVALID;
    int n = 1;
};

void mpi_wait(MPI_Request& r) { mpi_check(MPI_Wait(&r, MPI_STATUS_IGNORE), "MPI_Wait"); }

}  // namespace

int main(int argc, char** argv) {
    Bench b;
    po::options_description desc(
        "bench-gex-coll: GASNet-EX collectives on Gasket vs the raw MPI nonblocking collectives.\n"
        "Run with 2 or more processes: oshrun -np 4 bench-gex-coll [options]\nOptions");
    b.sweep.max_text = "1M";
    b.sweep.iters = 2000;
    b.sweep.factor = 4;
    b.sweep.add_to(desc);
    desc.add_options()("quick", "smoke run: --iters 50 --reps 3 --max-size 64K unless given");
    po::variables_map vm;
    if (int rc = parse_command_line("bench-gex-coll", argc, argv, desc, vm)) return rc == 1 ? 0 : 2;
    if (!b.sweep.finish("bench-gex-coll", vm, 50)) return 2;
    b.iters = b.sweep.iters;

    gex_Client_t client;
    gex_EP_t ep;
    if (gex_Client_Init(&client, &ep, &b.tm, "BENCH_GEX_COLL", &argc, &argv, 0) != GASNET_OK) return 1;
    gex_Segment_t seg;
    if (gex_Segment_Attach(&seg, b.tm, 1 << 20) != GASNET_OK) return 1;
    b.me = int(gex_TM_QueryRank(b.tm));
    b.n = int(gex_TM_QuerySize(b.tm));
    mpi_check(MPI_Comm_dup(MPI_COMM_WORLD, &b.comm), "MPI_Comm_dup");
    MPI_Op user_sum;
    mpi_check(MPI_Op_create(&mpi_sum_doubles, 1, &user_sum), "MPI_Op_create");
    const SweepOptions& s = b.sweep;
    std::vector<char> src(s.max_size, 1), dst(s.max_size, 0);

    if (b.me == 0) {
        const char* fp = std::getenv("GASKET_NODE_FASTPATH");
        std::printf("## bench-gex-coll: %d processes\n\n", b.n);
        std::printf("- GASKET_NODE_FASTPATH=%s\n- MPI: %s\n", fp ? fp : "(unset: on)", mpi_library().c_str());
        print_machine();
        std::printf(
            "- %ld calls per loop (fewer above %zu B: at most 64 MiB per process per loop, at least 20), %d loops (+1 "
            "warm-up), median of the slowest process's µs per call\n\n",
            s.iters, (std::size_t(64) << 20) / std::size_t(s.iters), s.reps);
        std::printf("| collective | size | Gasket µs | MPI µs | Gasket/MPI |\n|---|---|---|---|---|\n");
    }

    {
        const Rounds r = measure(s.reps, {b.loop(s.iters, [&](long) { gex_Event_Wait(gex_Coll_BarrierNB(b.tm, 0)); }),
                                          b.loop(s.iters, [&](long) {
                                              MPI_Request q;
                                              mpi_check(MPI_Ibarrier(b.comm, &q), "MPI_Ibarrier");
                                              mpi_wait(q);
                                          })});
        b.row("gex_Coll_BarrierNB / MPI_Ibarrier", "-", r, 0, 1);
    }
    for (std::size_t size : s.sizes()) {
        const long calls = b.calls_for(size * std::size_t(b.n));
        const std::string label = size_label(size);
        const int count = int(std::max<std::size_t>(size / sizeof(double), 1));
        double* sd = reinterpret_cast<double*>(src.data());
        double* dd = reinterpret_cast<double*>(dst.data());
        const Rounds r = measure(
            s.reps,
            {b.loop(calls,
                    [&](long) { gex_Event_Wait(gex_Coll_BroadcastNB(b.tm, 0, dst.data(), dst.data(), size, 0)); }),
             b.loop(calls,
                    [&](long) {
                        MPI_Request q;
                        mpi_check(MPI_Ibcast(dst.data(), int(size), MPI_BYTE, 0, b.comm, &q), "MPI_Ibcast");
                        mpi_wait(q);
                    }),
             b.loop(calls,
                    [&](long) {
                        gex_Event_Wait(gex_Coll_ReduceToAllNB(b.tm, dd, sd, GEX_DT_DBL, 8, std::size_t(count),
                                                              GEX_OP_ADD, nullptr, nullptr, 0));
                    }),
             b.loop(calls,
                    [&](long) {
                        MPI_Request q;
                        mpi_check(MPI_Iallreduce(sd, dd, count, MPI_DOUBLE, MPI_SUM, b.comm, &q), "MPI_Iallreduce");
                        mpi_wait(q);
                    }),
             b.loop(calls,
                    [&](long) {
                        gex_Event_Wait(gex_Coll_ReduceToAllNB(b.tm, dd, sd, GEX_DT_DBL, 8, std::size_t(count),
                                                              GEX_OP_USER, &sum_doubles, nullptr, 0));
                    }),
             b.loop(calls,
                    [&](long) {
                        MPI_Request q;
                        mpi_check(MPI_Iallreduce(sd, dd, count, MPI_DOUBLE, user_sum, b.comm, &q), "MPI_Iallreduce");
                        mpi_wait(q);
                    }),
             b.loop(calls,
                    [&](long) {
                        gex_Event_Wait(gex_Coll_ReduceToOneNB(b.tm, 0, dd, sd, GEX_DT_DBL, 8, std::size_t(count),
                                                              GEX_OP_ADD, nullptr, nullptr, 0));
                    }),
             b.loop(calls, [&](long) {
                 MPI_Request q;
                 mpi_check(MPI_Ireduce(sd, dd, count, MPI_DOUBLE, MPI_SUM, 0, b.comm, &q), "MPI_Ireduce");
                 mpi_wait(q);
             })});
        b.row("gex_Coll_BroadcastNB / MPI_Ibcast", label, r, 0, 1);
        b.row("ReduceToAllNB ADD DBL / MPI_Iallreduce", label, r, 2, 3);
        b.row("ReduceToAllNB USER / MPI_Iallreduce user op", label, r, 4, 5);
        b.row("ReduceToOneNB ADD DBL / MPI_Ireduce", label, r, 6, 7);
    }

    // Check the last results of each Gasket collective, at the largest size.
    int failures = 0;
    const std::size_t size = s.sizes().back();
    const std::size_t count = std::max<std::size_t>(size / sizeof(double), 1);
    for (std::size_t i = 0; i < size; ++i) src[i] = char(b.me * 7 + i % 13);
    gex_Event_Wait(gex_Coll_BroadcastNB(b.tm, 0, dst.data(), src.data(), size, 0));
    for (std::size_t i = 0; i < size; ++i) failures += dst[i] != char(i % 13);
    std::vector<double> in(count, double(b.me + 1)), out(count, 0);
    for (gex_OP_t op : {GEX_OP_ADD, GEX_OP_USER}) {
        gex_Event_Wait(
            gex_Coll_ReduceToAllNB(b.tm, out.data(), in.data(), GEX_DT_DBL, 8, count, op, &sum_doubles, nullptr, 0));
        for (double v : out) failures += v != double(b.n * (b.n + 1) / 2);
    }
    if (failures) std::printf("CHECK FAILED on process %d: %d wrong bytes/elements\n", b.me, failures);
    int all_failures = 0;
    MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, b.comm);
    MPI_Op_free(&user_sum);
    MPI_Comm_free(&b.comm);
    gasnet_exit(all_failures ? 1 : 0);
    return 0;
}
