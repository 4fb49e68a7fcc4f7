// tests/bench/amo.cpp -- bench-amo: OpenSHMEM atomic memory operations
// (§9.7) and signals (§9.8) on Gasket against raw MPI-3 atomics and a raw
// MPI two-sided round trip, measured in the same run.
//
//   oshrun -np 2 bench-amo [--iters N] [--reps R] [--quick] [--mpi-cas64]
//
// PE 0 is the origin and measures; PE 1 is the target.  Every operation
// acts on a symmetric-heap long/uint64_t of PE 1 (raw MPI: a long/int32 in
// an MPI_Win_allocate window of PE 1).  PE 0 prints one Markdown table, µs
// per operation:
//  - shmem_long_atomic_fetch_add, shmem_long_atomic_compare_swap (always
//    succeeding), shmem_long_atomic_add + shmem_quiet, shmem_signal_add +
//    shmem_quiet, shmem_putmem_signal of 8 B (SHMEM_SIGNAL_ADD) +
//    shmem_quiet: completed operations, one at a time;
//  - shmem_long_atomic_add x n, then one shmem_quiet: a throughput figure;
//  - shmem_long_atomic_fetch_add again while PE 1 waits in a barrier
//    (shmem_team_sync) and while it waits in a reduction
//    (shmem_long_sum_reduce of one long), both on a team of PEs 0 and 1
//    that PE 0 joins after its loop: a PE busy in a collective must still
//    serve AMOs (issue 15: the reduction must be within 1.2x the barrier);
// each beside its raw MPI counterpart (MPI_Fetch_and_op(MPI_SUM, MPI_LONG),
// MPI_Compare_and_swap on MPI_INT32_T -- Open MPI's osc/rdma segfaults on
// 64-bit compare-and-swap on MPI_Win_allocate windows --, MPI_Accumulate
// (MPI_SUM), MPI_Put + flush + MPI_Accumulate, each + MPI_Win_flush; the
// throughput row: MPI_Accumulate x n, one MPI_Win_flush) and beside a raw
// MPI two-sided round trip (MPI_Send 8 B, MPI_Recv 8 B back; PE 1 echoes in
// an MPI_Recv/MPI_Send loop).
//
// The target must take part: Gasket's AMOs off the node fast path are
// Active Messages that PE 1 serves when it polls, and Open MPI's osc/rdma
// atomics progress only when PE 1 calls MPI.  So PE 1 runs a small server:
// it waits for PE 0's next command in an MPI_Irecv/MPI_Test loop (which is
// also where it sits during raw MPI RMA loops), answers each command with a
// 0-byte "ready" message, and then, for a Gasket loop, waits in
// shmem_long_wait_until on a symmetric flag that PE 0 sets (shmem_long_p +
// shmem_quiet) when the loop is done, or, for a two-sided loop, echoes n
// messages.  The handshake is outside the timed part; PE 1 is inside its
// wait when the clock starts.
//
// Every figure is the median over --reps timed loops, after one untimed
// warm-up loop; all loops of the table run interleaved, round by round, so
// changes in the machine's load hit Gasket and MPI alike; each ratio is the
// median over rounds of the ratio of two loops of the same round.  After
// the table PE 0 checks every counter, signal and datum on PE 1 and every
// fetched value (exit status 1 on a mismatch); nothing asserts on speed.
#include <mpi.h>
#include <shmem.h>

#include <boost/program_options.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

#include "bench_util.hpp"

namespace po = boost::program_options;

namespace {

using namespace bench;

constexpr int kOrigin = 0;
constexpr int kTarget = 1;

// Raw MPI messages on the benchmark's own communicator (a dup of
// MPI_COMM_WORLD).
constexpr int kTagCmd = 11;    // PE 0 -> PE 1: {mode, argument}
constexpr int kTagReady = 12;  // PE 1 -> PE 0: 0 bytes, "in the mode now"
constexpr int kTagPing = 13;   // the two-sided round trip, both ways
constexpr int kTagStats = 14;  // PE 1 -> PE 0 at the end: its failures

// What PE 1 does after a command.
enum Mode : long {
    kQuit = 0,
    kMpi = 1,       // wait for the next command in MPI_Test (serves MPI RMA)
    kShmem = 2,     // shmem_long_wait_until(stop flag >= argument)
    kPingPong = 3,  // echo `argument` 8-byte messages
    kBarrier = 4,   // shmem_team_sync on the pair team (PE 0 joins after its loop)
    kReduce = 5,    // shmem_long_sum_reduce of 1 long on the pair team (likewise)
};

// The objects on PE 1, one 64-byte line apart (kStride longs).  Gasket:
// longs on the symmetric heap (g_*) and uint64_t signals (sig_*); raw MPI:
// the same layout in an MPI_Win_allocate window (m_*).
constexpr int kStride = 8;
enum GasketSlot { g_fadd, g_cas, g_add, g_add_tput, g_put_data, g_fadd_barrier, g_fadd_reduce, g_slots };
enum SignalSlot { sig_add, sig_put, sig_slots };
enum MpiSlot { m_fop, m_cas, m_acc, m_acc_tput, m_put_data, m_put_sig, m_slots };

struct Options {
    long iters = 20000;  // operations per timed loop
    int reps = 21;       // timed loops per figure (median)
    bool quick = false;
    bool mpi_cas64 = false;  // raw MPI compare-and-swap on MPI_INT64_T
};

// Returns 0 to run, 1 to exit successfully (--help), 2 on a bad option.
int parse_options(int argc, char** argv, Options& o) {
    po::options_description desc(
        "bench-amo: OpenSHMEM AMOs and signals on Gasket vs raw MPI atomics and a raw MPI\n"
        "two-sided round trip.  Run with 2 PEs: oshrun -np 2 bench-amo [options]\nOptions");
    desc.add_options()("help,h", "print this help")("iters", po::value<long>(&o.iters),
                                                    "operations per timed loop (default 20000)")(
        "reps", po::value<int>(&o.reps), "timed loops per figure; the median is reported (default 21)")(
        "quick", "smoke run: --iters 1000 --reps 3 unless given")(
        "mpi-cas64",
        "raw MPI compare-and-swap on MPI_INT64_T instead of MPI_INT32_T "
        "(segfaults with Open MPI's osc/rdma)");
    po::variables_map vm;
    if (int rc = parse_command_line("bench-amo", argc, argv, desc, vm)) return rc;
    o.quick = vm.count("quick") > 0;
    o.mpi_cas64 = vm.count("mpi-cas64") > 0;
    if (o.quick) {
        if (!vm.count("iters")) o.iters = 1000;
        if (!vm.count("reps")) o.reps = 3;
    }
    if (o.iters < 1 || o.reps < 1) {
        std::cerr << "bench-amo: --iters and --reps must be >= 1\n";
        return 2;
    }
    return 0;
}

struct Bench {
    Options opt;
    MPI_Comm comm = MPI_COMM_NULL;  // raw MPI's communicator (dup of MPI_COMM_WORLD)
    int failures = 0;

    // Gasket objects (symmetric heap).
    long* heap = nullptr;                    // g_slots * kStride longs
    std::uint64_t* sig = nullptr;            // sig_slots * kStride signals
    long* stop = nullptr;                    // PE 1 leaves a Gasket loop when *stop >= epoch
    long* red = nullptr;                     // 2 longs: the collective rows' reduction source and dest
    shmem_team_t pair = SHMEM_TEAM_INVALID;  // PEs 0 and 1
    long epoch = 0;
    long* src = nullptr;  // PE 0's private 8-byte put source

    // Raw MPI window: m_slots * kStride longs from byte `shift` of PE 1's
    // window (its usable block starts on a 64-byte boundary).
    MPI_Win win = MPI_WIN_NULL;
    long* win_base = nullptr;
    MPI_Aint shift = 0;
    MPI_Aint disp(int slot) const { return shift + MPI_Aint(slot) * kStride * MPI_Aint(sizeof(long)); }

    // What the loops saw (checked after the table).
    long fadd_last = -1, fop_last = -1;   // the last fetched values
    long coll_fadd_last[2] = {-1, -1};    // the collective rows' (barrier, reduction)
    long cas_next = 0, mpi_cas_next = 0;  // the value each CAS chain expects next
    long cas_fail = 0, mpi_cas_fail = 0, pong_fail = 0;

    long* g(int slot) const { return heap + slot * kStride; }
    std::uint64_t* s(int slot) const { return sig + slot * kStride; }

    void check(const char* what, long got, long want) {
        if (got == want) return;
        std::printf("CHECK FAILED: %s: %ld, expected %ld\n", what, got, want);
        ++failures;
    }

    // ---- PE 0: phases ------------------------------------------------------
    // Puts PE 1 into `mode` and waits until it is there.
    void enter(Mode mode, long arg) {
        long cmd[2] = {mode, arg};
        mpi_check(MPI_Send(cmd, 2, MPI_LONG, kTarget, kTagCmd, comm), "MPI_Send (command)");
        if (mode != kQuit)
            mpi_check(MPI_Recv(nullptr, 0, MPI_BYTE, kTarget, kTagReady, comm, MPI_STATUS_IGNORE), "MPI_Recv (ready)");
    }
    // A Gasket loop: PE 1 polls in shmem_long_wait_until until the flag.
    template <class Timed>
    Loop shmem_phase(Timed timed) {
        return [this, timed]() mutable {
            enter(kShmem, ++epoch);
            const double us = timed();
            shmem_long_p(stop, epoch, kTarget);
            shmem_quiet();
            return us;
        };
    }
    // PE 0's side of a collective row: PE 1 waits in the collective
    // (`mode`) while the loop runs; PE 0 joins it afterwards, untimed.
    void join(Mode mode) {
        if (mode == kBarrier)
            shmem_team_sync(pair);
        else
            shmem_long_sum_reduce(pair, red + 1, red, 1);
    }
    template <class Timed>
    Loop collective_phase(Mode mode, Timed timed) {
        return [this, mode, timed]() mutable {
            enter(mode, 0);
            const double us = timed();
            join(mode);
            return us;
        };
    }
    // A raw MPI RMA loop: PE 1 calls MPI_Test until the next command.
    template <class Timed>
    Loop mpi_phase(Timed timed) {
        return [this, timed]() mutable {
            enter(kMpi, 0);
            return timed();
        };
    }
    // n = opt.iters calls of op(i), timed; µs per call.
    template <class Op>
    double per_op(Op&& op) const {
        return us_per_op(opt.iters, op);
    }

    // Raw MPI compare-and-swap + flush on `Int` (the chain of expected
    // values, as for Gasket's): 32-bit by default, since Open MPI's osc/rdma
    // segfaults on 64-bit.
    template <class Int>
    Loop mpi_cas_loop(MPI_Datatype type, MPI_Win w) {
        return mpi_phase([=, this] {
            long v = mpi_cas_next, bad = 0;
            const MPI_Aint at = disp(m_cas);
            const double us = per_op([&](long) {
                const Int cmp = Int(v), nv = Int(v + 1);
                Int old = 0;
                MPI_Compare_and_swap(&nv, &cmp, &old, type, kTarget, at, w);
                MPI_Win_flush(kTarget, w);
                if (old == cmp) [[likely]]
                    ++v;
                else {
                    ++bad;
                    v = long(old);
                }
            });
            mpi_cas_next = v;
            mpi_cas_fail += bad;
            return us;
        });
    }

    void table() {
        long* const fadd_p = g(g_fadd);
        long* const cas_p = g(g_cas);
        long* const add_p = g(g_add);
        long* const tput_p = g(g_add_tput);
        long* const bar_p = g(g_fadd_barrier);
        long* const red_p = g(g_fadd_reduce);
        long* const data_p = g(g_put_data);
        std::uint64_t* const sig_add_p = s(sig_add);
        std::uint64_t* const sig_put_p = s(sig_put);
        long* const srcp = src;
        const MPI_Win w = win;
        const long n = opt.iters;
        static const long one = 1;

        std::vector<Loop> loops;
        // Order within a round: each Gasket loop next to its MPI counterpart.
        enum {
            l_g_fadd,
            l_m_fop,
            l_g_cas,
            l_m_cas,
            l_g_add,
            l_m_acc,
            l_g_sig,
            l_g_put_sig,
            l_m_put_acc,
            l_g_tput,
            l_m_tput,
            l_rtt,
            l_g_fadd_barrier,
            l_g_fadd_reduce
        };
        loops.push_back(shmem_phase([=, this] {
            long last = 0;
            const double us = per_op([&](long) { last = shmem_long_atomic_fetch_add(fadd_p, 1, kTarget); });
            fadd_last = last;
            return us;
        }));
        loops.push_back(mpi_phase([=, this] {
            long last = 0;
            const MPI_Aint at = disp(m_fop);
            const double us = per_op([&](long) {
                MPI_Fetch_and_op(&one, &last, MPI_LONG, kTarget, at, MPI_SUM, w);
                MPI_Win_flush(kTarget, w);
            });
            fop_last = last;
            return us;
        }));
        loops.push_back(shmem_phase([=, this] {
            long v = cas_next, bad = 0;
            const double us = per_op([&](long) {
                const long old = shmem_long_atomic_compare_swap(cas_p, v, v + 1, kTarget);
                if (old == v) [[likely]]
                    ++v;
                else {
                    ++bad;
                    v = old;
                }
            });
            cas_next = v;
            cas_fail += bad;
            return us;
        }));
        loops.push_back(opt.mpi_cas64 ? mpi_cas_loop<std::int64_t>(MPI_INT64_T, w)
                                      : mpi_cas_loop<std::int32_t>(MPI_INT32_T, w));
        loops.push_back(shmem_phase([=, this] {
            return per_op([&](long) {
                shmem_long_atomic_add(add_p, 1, kTarget);
                shmem_quiet();
            });
        }));
        loops.push_back(mpi_phase([=, this] {
            const MPI_Aint at = disp(m_acc);
            return per_op([&](long) {
                MPI_Accumulate(&one, 1, MPI_LONG, kTarget, at, 1, MPI_LONG, MPI_SUM, w);
                MPI_Win_flush(kTarget, w);
            });
        }));
        loops.push_back(shmem_phase([=, this] {
            return per_op([&](long) {
                shmem_signal_add(sig_add_p, 1, kTarget);
                shmem_quiet();
            });
        }));
        loops.push_back(shmem_phase([=, this] {
            return per_op([&](long i) {
                *srcp = i;
                shmem_putmem_signal(data_p, srcp, 8, sig_put_p, 1, SHMEM_SIGNAL_ADD, kTarget);
                shmem_quiet();
            });
        }));
        loops.push_back(mpi_phase([=, this] {
            const MPI_Aint data_at = disp(m_put_data), sig_at = disp(m_put_sig);
            return per_op([&](long i) {
                *srcp = i;
                MPI_Put(srcp, 8, MPI_BYTE, kTarget, data_at, 8, MPI_BYTE, w);
                MPI_Win_flush(kTarget, w);
                MPI_Accumulate(&one, 1, MPI_LONG, kTarget, sig_at, 1, MPI_LONG, MPI_SUM, w);
                MPI_Win_flush(kTarget, w);
            });
        }));
        loops.push_back(shmem_phase([=, this] {
            const auto t0 = Clock::now();
            for (long i = 0; i < n; ++i) shmem_long_atomic_add(tput_p, 1, kTarget);
            shmem_quiet();
            return seconds_since(t0) / double(n) * 1e6;
        }));
        loops.push_back(mpi_phase([=, this] {
            const MPI_Aint at = disp(m_acc_tput);
            const auto t0 = Clock::now();
            for (long i = 0; i < n; ++i) MPI_Accumulate(&one, 1, MPI_LONG, kTarget, at, 1, MPI_LONG, MPI_SUM, w);
            MPI_Win_flush(kTarget, w);
            return seconds_since(t0) / double(n) * 1e6;
        }));
        loops.push_back([=, this] {
            enter(kPingPong, n);
            long bad = 0;
            const double us = per_op([&](long i) {
                long v = i, back = -1;
                MPI_Send(&v, 1, MPI_LONG, kTarget, kTagPing, comm);
                MPI_Recv(&back, 1, MPI_LONG, kTarget, kTagPing, comm, MPI_STATUS_IGNORE);
                if (back != i) [[unlikely]]
                    ++bad;
            });
            pong_fail += bad;
            return us;
        });

        for (int k = 0; k < 2; ++k) {
            const Mode mode = k == 0 ? kBarrier : kReduce;
            long* const p = k == 0 ? bar_p : red_p;
            loops.push_back(collective_phase(mode, [=, this] {
                long last = 0;
                const double us = per_op([&](long) { last = shmem_long_atomic_fetch_add(p, 1, kTarget); });
                coll_fadd_last[k] = last;
                return us;
            }));
        }

        const Rounds f = measure(opt.reps, loops);

        // ---- checks: every loop ran reps + 1 times (with the warm-up) ----
        enter(kMpi, 0);  // PE 1 in MPI while PE 0 reads its memory
        const long total = long(opt.reps + 1) * n;
        auto gread = [](const void* p) {
            long v = 0;
            shmem_getmem(&v, p, 8, kTarget);
            return v;
        };
        auto mread = [&](int slot) {
            long v = 0;
            MPI_Get(&v, 8, MPI_BYTE, kTarget, disp(slot), 8, MPI_BYTE, win);
            MPI_Win_flush(kTarget, win);
            return v;
        };
        check("shmem_long_atomic_fetch_add: counter on PE 1", gread(fadd_p), total);
        check("shmem_long_atomic_fetch_add: last value fetched", fadd_last, total - 1);
        check("shmem_long_atomic_compare_swap: counter on PE 1", gread(cas_p), total);
        check("shmem_long_atomic_compare_swap: failed swaps", cas_fail, 0);
        check("shmem_long_atomic_add + quiet: counter on PE 1", gread(add_p), total);
        check("shmem_long_atomic_add x n: counter on PE 1", gread(tput_p), total);
        check("fetch_add, target in a barrier: counter on PE 1", gread(bar_p), total);
        check("fetch_add, target in a barrier: last value fetched", coll_fadd_last[0], total - 1);
        check("fetch_add, target in a reduction: counter on PE 1", gread(red_p), total);
        check("fetch_add, target in a reduction: last value fetched", coll_fadd_last[1], total - 1);
        check("the collective rows' reductions: sum on PE 0", red[1], 1 + 1);
        check("shmem_signal_add: signal on PE 1", gread(sig_add_p), total);
        check("shmem_putmem_signal: signal on PE 1", gread(sig_put_p), total);
        check("shmem_putmem_signal: data on PE 1", gread(data_p), n - 1);
        check("MPI_Fetch_and_op: counter on PE 1", mread(m_fop), total);
        check("MPI_Fetch_and_op: last value fetched", fop_last, total - 1);
        if (opt.mpi_cas64)
            check("MPI_Compare_and_swap: counter on PE 1", mread(m_cas), total);
        else  // a 32-bit counter (the slot's first 4 bytes, little-endian), modulo 2^32
            check("MPI_Compare_and_swap: counter on PE 1", long(std::int32_t(mread(m_cas) & 0xffffffffL)),
                  long(std::int32_t(total & 0xffffffffL)));
        check("MPI_Compare_and_swap: failed swaps", mpi_cas_fail, 0);
        check("MPI_Accumulate + flush: counter on PE 1", mread(m_acc), total);
        check("MPI_Accumulate x n: counter on PE 1", mread(m_acc_tput), total);
        check("MPI_Put + MPI_Accumulate: signal on PE 1", mread(m_put_sig), total);
        check("MPI_Put + MPI_Accumulate: data on PE 1", mread(m_put_data), n - 1);
        check("MPI two-sided round trip: echoed values", pong_fail, 0);

        struct Row {
            const char* op;
            std::size_t gasket, mpi;
            const char* mpi_op;
            bool completed;  // a completed-op latency (compared with the round trip)
        };
        const char* cas_mpi =
            opt.mpi_cas64 ? "MPI_Compare_and_swap 64-bit + flush" : "MPI_Compare_and_swap 32-bit + flush";
        const Row rows[] = {
            {"shmem_long_atomic_fetch_add", l_g_fadd, l_m_fop, "MPI_Fetch_and_op SUM + flush", true},
            {"shmem_long_atomic_compare_swap", l_g_cas, l_m_cas, cas_mpi, true},
            {"shmem_long_atomic_add + shmem_quiet", l_g_add, l_m_acc, "MPI_Accumulate SUM + flush", true},
            {"shmem_signal_add + shmem_quiet", l_g_sig, l_m_acc, "MPI_Accumulate SUM + flush", true},
            {"shmem_putmem_signal 8 B + shmem_quiet", l_g_put_sig, l_m_put_acc,
             "MPI_Put + flush + MPI_Accumulate + flush", true},
            {"shmem_long_atomic_add x n, one shmem_quiet (throughput)", l_g_tput, l_m_tput,
             "MPI_Accumulate x n, one flush", false},
            {"shmem_long_atomic_fetch_add, target in a barrier (shmem_team_sync)", l_g_fadd_barrier, l_m_fop,
             "MPI_Fetch_and_op SUM + flush", true},
            {"shmem_long_atomic_fetch_add, target in a reduction (shmem_long_sum_reduce)", l_g_fadd_reduce, l_m_fop,
             "MPI_Fetch_and_op SUM + flush", true},
        };
        std::printf("\n### AMO latency, µs per operation (median of %d loops of %ld ops)\n\n", opt.reps, n);
        std::printf(
            "| operation | Gasket µs | raw MPI counterpart | MPI µs | Gasket/MPI | MPI round trip µs | "
            "Gasket/round trip |\n");
        std::printf("|---|---:|---|---:|---:|---:|---:|\n");
        for (const Row& r : rows) {
            std::printf("| %s | %.4f | %s | %.4f | %.2f | %.4f | ", r.op, f.median_of(r.gasket), r.mpi_op,
                        f.median_of(r.mpi), f.ratio(r.gasket, r.mpi), f.median_of(l_rtt));
            if (r.completed)
                std::printf("%.2f |\n", f.ratio(r.gasket, l_rtt));
            else
                std::printf("— |\n");
        }
        std::printf(
            "\nAll on a long / uint64_t of PE 1 (Gasket: symmetric heap; MPI: an MPI_Win_allocate window, "
            "MPI_Win_lock_all\n"
            "for the whole run, accumulate_ordering=none).  compare_swap always succeeds (a chain v -> v+1).\n"
            "putmem_signal uses SHMEM_SIGNAL_ADD.  MPI round trip: MPI_Send 8 B + MPI_Recv 8 B back (PE 1 "
            "echoes in\n"
            "MPI_Recv/MPI_Send), on a dup of MPI_COMM_WORLD.  During Gasket loops PE 1 waits in "
            "shmem_long_wait_until\n"
            "(the collective rows: in the collective, which PE 0 joins after its loop), during MPI RMA loops in "
            "MPI_Test.  Ratios: median over rounds of the ratio of the two loops run in "
            "one\n"
            "round (Gasket/MPI < 1: Gasket is faster).  The throughput row: loop time / n, n = %ld.%s\n",
            n,
            opt.mpi_cas64 ? ""
                          : "\nMPI compare-and-swap is 32-bit (MPI_INT32_T): Open MPI's osc/rdma segfaults on 64-bit "
                            "MPI_Compare_and_swap\non MPI_Win_allocate windows (--mpi-cas64 tries it).");

        const double fadd = f.median_of(l_g_fadd);
        const double fadd_rtt = f.ratio(l_g_fadd, l_rtt);
        double worst = 0;
        const char* worst_op = "";
        for (const Row& r : rows)
            if (r.completed && f.ratio(r.gasket, l_rtt) > worst) {
                worst = f.ratio(r.gasket, l_rtt);
                worst_op = r.op;
            }
        const double coll_ratio = f.ratio(l_g_fadd_reduce, l_g_fadd_barrier);
        std::printf(
            "\nRESULT target in a collective: fetch_add with PE 1 in a reduction %.4f µs, in a barrier %.4f µs: "
            "%.2fx (target <= 1.2x: %s)\n",
            f.median_of(l_g_fadd_reduce), f.median_of(l_g_fadd_barrier), coll_ratio,
            coll_ratio <= 1.2 ? "met" : "NOT met");
        const bool direct = shmem_ptr(fadd_p, kTarget) != nullptr;
        if (direct)
            std::printf("\nRESULT node fast path: shmem_long_atomic_fetch_add %.4f µs (target < 0.2 µs: %s)\n", fadd,
                        fadd < 0.2 ? "met" : "NOT met");
        else
            std::printf(
                "\nRESULT MPI path: shmem_long_atomic_fetch_add %.2fx a raw MPI two-sided round trip (target "
                "<= 2x: %s); slowest completed op %s %.2fx\n",
                fadd_rtt, fadd_rtt <= 2.0 ? "met" : "NOT met", worst_op, worst);
    }

    // ---- PE 1: the server ---------------------------------------------------
    void serve() {
        for (;;) {
            long cmd[2] = {kQuit, 0};
            MPI_Request rq = MPI_REQUEST_NULL;
            mpi_check(MPI_Irecv(cmd, 2, MPI_LONG, kOrigin, kTagCmd, comm, &rq), "MPI_Irecv (command)");
            int done = 0;
            while (!done) mpi_check(MPI_Test(&rq, &done, MPI_STATUS_IGNORE), "MPI_Test");  // progresses MPI RMA
            if (cmd[0] == kQuit) break;
            mpi_check(MPI_Send(nullptr, 0, MPI_BYTE, kOrigin, kTagReady, comm), "MPI_Send (ready)");
            if (cmd[0] == kShmem) {
                shmem_long_wait_until(stop, SHMEM_CMP_GE, cmd[1]);
            } else if (cmd[0] == kBarrier || cmd[0] == kReduce) {
                join(Mode(cmd[0]));
            } else if (cmd[0] == kPingPong) {
                for (long i = 0; i < cmd[1]; ++i) {
                    long v = -1;
                    MPI_Recv(&v, 1, MPI_LONG, kOrigin, kTagPing, comm, MPI_STATUS_IGNORE);
                    if (v != i) [[unlikely]]
                        ++pong_fail;
                    MPI_Send(&v, 1, MPI_LONG, kOrigin, kTagPing, comm);
                }
            }
        }
        long stats = pong_fail;
        mpi_check(MPI_Send(&stats, 1, MPI_LONG, kOrigin, kTagStats, comm), "MPI_Send (stats)");
    }
};

}  // namespace

int main(int argc, char** argv) {
    Bench b;
    if (int rc = parse_options(argc, argv, b.opt)) return rc == 1 ? 0 : 2;

    shmem_init();  // initializes MPI (MPI_THREAD_MULTIPLE)
    const int me = shmem_my_pe();
    const int npes = shmem_n_pes();
    if (npes < 2) {
        if (me == 0) std::fprintf(stderr, "bench-amo: needs at least 2 PEs (oshrun -np 2 bench-amo)\n");
        shmem_finalize();
        return 1;
    }
    mpi_check(MPI_Comm_dup(MPI_COMM_WORLD, &b.comm), "MPI_Comm_dup");

    // Gasket objects, each slot on its own 64-byte line.
    b.heap = static_cast<long*>(shmem_align(64, g_slots * kStride * sizeof(long)));
    b.sig = static_cast<std::uint64_t*>(shmem_align(64, sig_slots * kStride * sizeof(std::uint64_t)));
    b.stop = static_cast<long*>(shmem_align(64, kStride * sizeof(long)));
    b.red = static_cast<long*>(shmem_align(64, 2 * sizeof(long)));
    if (!b.heap || !b.sig || !b.stop || !b.red) {
        if (me == 0) std::fprintf(stderr, "bench-amo: shmem_align failed\n");
        shmem_global_exit(1);
    }
    for (int i = 0; i < g_slots * kStride; ++i) b.heap[i] = 0;
    for (int i = 0; i < sig_slots * kStride; ++i) b.sig[i] = 0;
    for (int i = 0; i < kStride; ++i) b.stop[i] = 0;
    b.red[0] = 1;
    b.red[1] = 0;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 2, nullptr, 0, &b.pair);  // PEs 0 and 1
    alignas(64) static long put_source[kStride];
    b.src = put_source;

    // Raw MPI window: usable block from the first 64-byte boundary.
    {
        MPI_Info info;
        mpi_check(MPI_Info_create(&info), "MPI_Info_create");
        mpi_check(MPI_Info_set(info, "accumulate_ordering", "none"), "MPI_Info_set");
        const MPI_Aint bytes = MPI_Aint(m_slots * kStride * sizeof(long) + 64);
        char* raw = nullptr;
        mpi_check(MPI_Win_allocate(bytes, 1, info, b.comm, &raw, &b.win), "MPI_Win_allocate");
        MPI_Info_free(&info);
        const auto a = reinterpret_cast<std::uintptr_t>(raw);
        const MPI_Aint pad = MPI_Aint(((a + 63) & ~std::uintptr_t(63)) - a);
        b.win_base = reinterpret_cast<long*>(raw + pad);
        for (int i = 0; i < m_slots * kStride; ++i) b.win_base[i] = 0;
        std::vector<MPI_Aint> pads(std::size_t(npes), 0);
        mpi_check(MPI_Allgather(&pad, 1, MPI_AINT, pads.data(), 1, MPI_AINT, b.comm), "MPI_Allgather");
        b.shift = pads[kTarget];
        mpi_check(MPI_Win_lock_all(MPI_MODE_NOCHECK, b.win), "MPI_Win_lock_all");
        MPI_Win_sync(b.win);
    }
    shmem_barrier_all();
    MPI_Barrier(b.comm);

    if (me == kOrigin) {
        const char* fp_env = std::getenv("GASKET_NODE_FASTPATH");
        const char* pt_env = std::getenv("GASKET_PROGRESS_THREAD");
        const bool direct = shmem_ptr(b.heap, kTarget) != nullptr;
        std::printf("## bench-amo: %d PEs, origin PE %d -> target PE %d%s\n\n", npes, kOrigin, kTarget,
                    b.opt.quick ? " (--quick: smoke run, figures not meaningful)" : "");
        std::printf("- node fast path: GASKET_NODE_FASTPATH=%s -> PE 1's heap %s\n", fp_env ? fp_env : "(unset: on)",
                    direct ? "mapped: AMOs are CPU atomics on shared memory"
                           : "not mapped: AMOs are Active Messages through MPI");
        std::printf("- GASKET_PROGRESS_THREAD=%s\n", pt_env ? pt_env : "(unset: auto)");
        std::printf("- MPI: %s\n", mpi_library().c_str());
        print_machine();
        std::printf("- %ld ops per loop, %d loops (+1 warm-up), median\n", b.opt.iters, b.opt.reps);
        std::fflush(stdout);
        const auto t0 = Clock::now();
        b.table();
        b.enter(kQuit, 0);
        long target_fail = 0;
        mpi_check(MPI_Recv(&target_fail, 1, MPI_LONG, kTarget, kTagStats, b.comm, MPI_STATUS_IGNORE),
                  "MPI_Recv (stats)");
        b.check("PE 1: round-trip messages received out of sequence", target_fail, 0);
        std::printf("\nload average at end %s; %.1f s measuring; %s\n", loadavg().c_str(), seconds_since(t0),
                    b.failures ? "DATA CHECKS FAILED" : "all data checks passed");
        std::fflush(stdout);
    } else if (me == kTarget) {
        b.serve();
    }
    shmem_barrier_all();

    int failures = b.failures;
    MPI_Bcast(&failures, 1, MPI_INT, kOrigin, b.comm);
    MPI_Win_unlock_all(b.win);
    MPI_Win_free(&b.win);
    MPI_Comm_free(&b.comm);
    if (b.pair != SHMEM_TEAM_INVALID) shmem_team_destroy(b.pair);
    shmem_free(b.red);
    shmem_free(b.stop);
    shmem_free(b.sig);
    shmem_free(b.heap);
    shmem_finalize();
    return failures ? 1 : 0;
}
