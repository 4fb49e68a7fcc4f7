// tests/bench/gasnet.cpp -- bench-gasnet: the GASNet 1.8 extended API
// (gasnet-1.8-spec.md chapter 3) on Gasket against raw MPI-3 RMA and
// MPI_Barrier measured in the same run.
//
//   oshrun -np 2 bench-gasnet [--iters N] [--reps R] [--max-size 4M] [--quick]
//
// Node 0 is the origin and measures; every transfer goes to or from node 1's
// segment (gasnet_getSegmentInfo).  Raw MPI uses an MPI_Win_allocate window
// with the same layout on a duplicate of MPI_COMM_WORLD (gasnet_init has
// initialized MPI with MPI_THREAD_MULTIPLE), locked once with
// MPI_Win_lock_all(MPI_MODE_NOCHECK), accumulate_ordering=none.
//
// Node 1 (and any further node) runs a small server driven by node 0 over
// MPI, as in bench-amo: between loops and during every raw MPI loop it
// waits for node 0's next command in an MPI_Irecv + MPI_Test loop (inside
// MPI, so MPI progresses); for a Gasket loop it answers "ready" and waits in
// GASNET_BLOCKUNTIL (serving Active Messages, as a waiting GASNet client
// does) until node 0, after the timed loop, ends the phase with an Active
// Message; for a barrier loop it runs the same barriers as node 0.  Node 0
// prints Markdown tables:
//  - 8-byte latency, µs: gasnet_put, gasnet_put_val, gasnet_get,
//    gasnet_get_val against MPI_Put/MPI_Get + MPI_Win_flush.
//  - bandwidth, GB/s: blocking gasnet_put_bulk / gasnet_get_bulk of 8 B ..
//    --max-size against MPI_Put/MPI_Get + MPI_Win_flush of the same size,
//    and memcpy of that size within node 0.
//  - throughput, million operations/s: n x gasnet_put_nbi 8 B +
//    gasnet_wait_syncnbi_puts (to adjacent slots, and scattered over them),
//    n x gasnet_put_nb 8 B + gasnet_wait_syncnb_all,
//    n x gasnet_get_nbi 8 B + gasnet_wait_syncnbi_gets, against n x
//    MPI_Put/MPI_Get + one MPI_Win_flush.
//  - barrier latency, µs: gasnet_barrier_notify + gasnet_barrier_wait
//    (anonymous and named) against MPI_Barrier.
// Every figure is the median of --reps timed loops after one untimed
// warm-up loop; the loops of a table (bandwidth: of a row) run interleaved,
// round by round, and each ratio is the median over rounds of the ratio of
// two loops of one round (bench_util.hpp).  Node 0 checks what every loop
// moved (exit status 1 on a mismatch); a RESULT line compares the ratios
// with the targets.  Nothing asserts on speed.
#include <gasnet.h>
#include <mpi.h>

#include <boost/program_options.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

#include "bench_util.hpp"

namespace po = boost::program_options;

namespace {

using namespace bench;

constexpr gasnet_node_t kOrigin = 0;
constexpr gasnet_node_t kTarget = 1;

// Raw MPI messages on the benchmark's communicator (a dup of MPI_COMM_WORLD).
constexpr int kTagCmd = 21;    // node 0 -> others: {mode, argument, flags}
constexpr int kTagReady = 22;  // others -> node 0: 0 bytes, "in the mode now"

// What nodes >= 1 do after a command.
enum Mode : long {
    kQuit = 0,
    kMpi = 1,            // wait for the next command in MPI_Test (MPI progresses)
    kGasket = 2,         // GASNET_BLOCKUNTIL(phase end >= argument), serving AMs
    kGasnetBarrier = 3,  // `argument` gasnet barriers with `flags`
    kMpiBarrier = 4,     // `argument` MPI_Barriers
};

// What the target's get sources hold: a value per 8-byte word, from its
// offset in the segment (the window's usable block has the same layout).
long value_at(std::size_t offset) { return 0x5eed000000L + long(offset / 8); }

struct Options : SweepOptions {
    long nbi_ops = 8192;                                        // throughput: operations per timed loop
    long barriers = 10000;                                      // barrier: barriers per timed loop
    std::string tables = "latency,put,get,throughput,barrier";  // which tables to run
    bool runs(const char* table) const {
        return ("," + tables + ",").find("," + std::string(table) + ",") != std::string::npos;
    }
};

// Returns 0 to run, 1 to exit successfully (--help), 2 on a bad option.
int parse_options(int argc, char** argv, Options& o) {
    po::options_description desc(
        "bench-gasnet: the GASNet extended API (put/get, nb/nbi, barriers) on Gasket vs raw MPI RMA\n"
        "and MPI_Barrier.  Run with 2 nodes: oshrun -np 2 bench-gasnet [options]\nOptions");
    o.add_to(desc);
    desc.add_options()("nbi-ops", po::value<long>(&o.nbi_ops),
                       "throughput: 8-byte operations per timed loop, 1..65535 (default 8192)")(
        "barriers", po::value<long>(&o.barriers), "barrier: barriers per timed loop (default 10000)")(
        "tables", po::value<std::string>(&o.tables),
        "comma-separated tables to run, of latency,put,get,throughput,barrier (default: all)")(
        "quick",
        "smoke run: --iters 500 --reps 3 --max-size 64K --bw-bytes 1M --nbi-ops 1000 --barriers 500 "
        "unless given (figures not meaningful)");
    po::variables_map vm;
    if (int rc = parse_command_line("bench-gasnet", argc, argv, desc, vm)) return rc;
    if (!o.finish("bench-gasnet", vm, 500)) return 2;
    if (o.quick) {
        if (!vm.count("nbi-ops")) o.nbi_ops = 1000;
        if (!vm.count("barriers")) o.barriers = 500;
    }
    for (std::size_t at = 0; at <= o.tables.size();) {
        const std::size_t end = std::min(o.tables.find(',', at), o.tables.size());
        const std::string t = o.tables.substr(at, end - at);
        if (t != "latency" && t != "put" && t != "get" && t != "throughput" && t != "barrier") {
            std::cerr << "bench-gasnet: --tables: unknown table '" << t
                      << "' (known: latency,put,get,throughput,barrier)\n";
            return 2;
        }
        at = end + 1;
    }
    if (o.barriers < 1) {
        std::cerr << "bench-gasnet: --barriers must be >= 1\n";
        return 2;
    }
    if (o.nbi_ops < 1 || o.nbi_ops > 65535) {
        std::cerr << "bench-gasnet: --nbi-ops must be 1..65535 (what GASNet must allow in flight)\n";
        return 2;
    }
    return 0;
}

void gasnet_check(int rc, const char* what) {
    if (rc != GASNET_OK) {
        std::fprintf(stderr, "bench-gasnet: node %u: %s returned %s\n", gasnet_mynode(), what, gasnet_ErrorName(rc));
        gasnet_exit(1);
    }
}

const char* env_or(const char* name, const char* fallback) {
    const char* v = gasnet_getenv(name);
    return v ? v : fallback;
}

// Keeps the compiler from dropping or merging repeated memcpys.
inline void clobber() { asm volatile("" ::: "memory"); }

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

// ---- handler -----------------------------------------------------------
// A table row pairing a Gasket loop with its raw MPI counterpart (indices
// into one measure() call's loops).
struct PairRow {
    const char* op;
    int gasket, mpi;
};

// MPI_Put one out-of-line call down, as from any library over MPI: the
// throughput table's floor row.  noipa: the compiler may neither inline it
// nor specialize it for its caller.
[[gnu::noipa]] void wrapped_put(const void* src, int bytes, int target, MPI_Aint disp, MPI_Win win) {
    mpi_check(MPI_Put(src, bytes, MPI_BYTE, target, disp, bytes, MPI_BYTE, win), "MPI_Put");
}

// Node 0 ends a Gasket phase on nodes >= 1 with H_PHASE_END(phase).  The
// handler may run on Gasket's progress thread, hence the atomic.
constexpr gasnet_handler_t H_PHASE_END = 200;
std::atomic<long> g_phase_end{0};

void phase_end(gasnet_token_t, gasnet_handlerarg_t phase) { g_phase_end.store(phase, std::memory_order_release); }

gasnet_handlerentry_t g_handlers[] = {
    {H_PHASE_END, reinterpret_cast<void (*)()>(&phase_end)},
};

// Where things are in node 1's segment and, at the same offsets, in the
// usable block of its raw MPI window.
struct Layout {
    static constexpr std::size_t lat_put = 0;       // gasnet_put / MPI_Put 8 B
    static constexpr std::size_t lat_put_val = 64;  // gasnet_put_val 8 B
    static constexpr std::size_t lat_get = 128;     // get source (gasnet_get, _val, MPI_Get)
    std::size_t thr_put_nbi = 0;                    // n 8-byte put_nbi slots (MPI_Put x n: the same in the window)
    std::size_t thr_put_nb = 0;                     // n 8-byte put_nb slots
    std::size_t thr_get = 0;                        // n 8-byte get sources
    std::size_t bw_put = 0;                         // bandwidth put destination, max_size bytes
    std::size_t bw_get = 0;                         // bandwidth get source, max_size bytes
    std::size_t total = 0;                          // a multiple of GASNET_PAGESIZE

    Layout(std::size_t ops, std::size_t max_size) {
        const std::size_t thr = round_up(ops * 8, 64);
        thr_put_nbi = 4096;
        thr_put_nb = thr_put_nbi + thr;
        thr_get = thr_put_nb + thr;
        bw_put = round_up(thr_get + thr, GASNET_PAGESIZE);
        bw_get = bw_put + round_up(max_size, GASNET_PAGESIZE);
        total = bw_get + round_up(max_size, GASNET_PAGESIZE);
    }
};

struct Bench {
    Options opt;
    Layout lay{1, 8};
    gasnet_node_t nodes = 0;
    MPI_Comm comm = MPI_COMM_NULL;  // raw MPI's communicator
    long failures = 0;

    // Node 1's segment (an address in node 1's address space) and this
    // node's own.
    char* peer = nullptr;
    char* mine = nullptr;
    // Raw MPI window: its usable block starts on a page boundary; `shift`
    // is where node 1's starts in node 1's window.
    MPI_Win win = MPI_WIN_NULL;
    char* win_base = nullptr;
    MPI_Aint shift = 0;

    // Node 0's private buffers (page-aligned): bandwidth source, Gasket and
    // MPI get destinations, memcpy destination; throughput sources and get
    // destinations; latency source and get slots.
    char *src = nullptr, *dst_g = nullptr, *dst_m = nullptr, *mem_dst = nullptr;
    std::vector<long> thr_src, thr_dst_g, thr_dst_m;
    std::vector<gasnet_handle_t> handles;
    alignas(64) long lat_src[8] = {};
    alignas(64) long lat_got[8] = {};                                 // [0] gasnet_get, [1] gasnet_get_val, [2] MPI_Get
    long phase = 0;                                                   // Gasket phases so far
    long stamp_nbi = 0, stamp_nb = 0, stamp_mpi = 0, stamp_scat = 0;  // throughput put loops run so far

    char* at(std::size_t offset) const { return peer + offset; }
    MPI_Aint disp(std::size_t offset) const { return shift + MPI_Aint(offset); }

    void check(const char* what, long got, long want) {
        if (got == want) return;
        std::printf("CHECK FAILED: %s: %ld (0x%lx), expected %ld (0x%lx)\n", what, got, got, want, want);
        ++failures;
    }

    // ---- node 0: phases ------------------------------------------------
    // Puts every other node into `mode` and waits until all are there.
    void enter(Mode mode, long arg = 0, long flags = 0) {
        long cmd[3] = {mode, arg, flags};
        for (gasnet_node_t n = 1; n < nodes; ++n)
            mpi_check(MPI_Send(cmd, 3, MPI_LONG, int(n), kTagCmd, comm), "MPI_Send (command)");
        if (mode == kQuit) return;
        for (gasnet_node_t n = 1; n < nodes; ++n)
            mpi_check(MPI_Recv(nullptr, 0, MPI_BYTE, int(n), kTagReady, comm, MPI_STATUS_IGNORE), "MPI_Recv (ready)");
    }
    void begin_gasket() { enter(kGasket, ++phase); }
    void end_gasket() {
        for (gasnet_node_t n = 1; n < nodes; ++n)
            gasnet_check(gasnet_AMRequestShort1(n, H_PHASE_END, gasnet_handlerarg_t(phase)), "gasnet_AMRequestShort1");
    }
    // A Gasket loop: the others wait in GASNET_BLOCKUNTIL while it runs.
    template <class Timed>
    Loop gasket_phase(Timed timed) {
        return [this, timed]() mutable {
            begin_gasket();
            const double figure = timed();
            end_gasket();
            return figure;
        };
    }
    // A raw MPI loop: the others wait in MPI_Test while it runs.
    template <class Timed>
    Loop mpi_phase(Timed timed) {
        return [this, timed]() mutable {
            enter(kMpi);
            return timed();
        };
    }

    // opt.iters calls of op(i), timed; µs per call.
    template <class Op>
    double per_op(Op&& op) const {
        return us_per_op(opt.iters, op);
    }

    // ---- latency -----------------------------------------------------------
    std::vector<double> latency_table() {
        long* const s = lat_src;
        long* const got = lat_got;
        char* const put_dst = at(Layout::lat_put);
        char* const put_val_dst = at(Layout::lat_put_val);
        char* const get_src = at(Layout::lat_get);
        const MPI_Win w = win;
        const MPI_Aint put_disp = disp(Layout::lat_put), get_disp = disp(Layout::lat_get);
        for (int k = 0; k < 8; ++k) got[k] = 0;
        enum { g_put, m_put, g_put_val, g_get, m_get, g_get_val };
        const Rounds f = measure(
            opt.reps,
            {gasket_phase([=, this] {
                 return per_op([=](long i) {
                     *s = i;
                     gasnet_put(kTarget, put_dst, s, 8);
                 });
             }),
             mpi_phase([=, this] {
                 return per_op([=](long i) {
                     *s = i;
                     MPI_Put(s, 8, MPI_BYTE, int(kTarget), put_disp, 8, MPI_BYTE, w);
                     MPI_Win_flush(int(kTarget), w);
                 });
             }),
             gasket_phase([=, this] {
                 return per_op([=](long i) { gasnet_put_val(kTarget, put_val_dst, gasnet_register_value_t(i), 8); });
             }),
             gasket_phase([=, this] { return per_op([=](long) { gasnet_get(&got[0], kTarget, get_src, 8); }); }),
             mpi_phase([=, this] {
                 return per_op([=](long) {
                     MPI_Get(&got[2], 8, MPI_BYTE, int(kTarget), get_disp, 8, MPI_BYTE, w);
                     MPI_Win_flush(int(kTarget), w);
                 });
             }),
             gasket_phase(
                 [=, this] { return per_op([=](long) { got[1] = long(gasnet_get_val(kTarget, get_src, 8)); }); })});

        // Did the data move?  Every put loop ends by writing iters-1.
        const long last = opt.iters - 1;
        begin_gasket();
        check("gasnet_put 8 B: node 1's segment", long(gasnet_get_val(kTarget, put_dst, 8)), last);
        check("gasnet_put_val 8 B: node 1's segment", long(gasnet_get_val(kTarget, put_val_dst, 8)), last);
        end_gasket();
        enter(kMpi);
        check("MPI_Put 8 B: node 1's window", mpi_read(Layout::lat_put), last);
        check("gasnet_get 8 B", got[0], value_at(Layout::lat_get));
        check("gasnet_get_val 8 B", got[1], value_at(Layout::lat_get));
        check("MPI_Get 8 B", got[2], value_at(Layout::lat_get));

        const PairRow rows[] = {
            {"gasnet_put 8 B (blocking)", g_put, m_put},
            {"gasnet_put_val 8 B", g_put_val, m_put},
            {"gasnet_get 8 B", g_get, m_get},
            {"gasnet_get_val 8 B", g_get_val, m_get},
        };
        std::printf("\n### 8-byte latency, µs per operation (median of %d loops of %ld ops)\n\n", opt.reps, opt.iters);
        std::printf("| operation | Gasket µs | raw MPI counterpart | MPI µs | Gasket/MPI |\n");
        std::printf("|---|---:|---|---:|---:|\n");
        std::vector<double> time_ratios;
        for (const PairRow& r : rows) {
            const double q = f.ratio(r.gasket, r.mpi);
            time_ratios.push_back(q);
            std::printf("| %s | %.4f | %s | %.4f | %.2f |\n", r.op, f.median_of(r.gasket),
                        r.mpi == m_put ? "MPI_Put 8 B + MPI_Win_flush" : "MPI_Get 8 B + MPI_Win_flush",
                        f.median_of(r.mpi), q);
        }
        std::printf(
            "\nNode 0 -> node 1's segment.  While a Gasket loop runs node 1 waits in GASNET_BLOCKUNTIL (serving\n"
            "Active Messages); while an MPI loop runs it waits in MPI_Test.  Each put/put_val loop writes its\n"
            "loop index, each get lands in its own slot; all are checked.  Gasket/MPI: median over rounds of\n"
            "the ratio of the two loops run in one round (< 1: Gasket is faster).\n");
        return time_ratios;
    }
    long mpi_read(std::size_t offset) {
        long v = 0;
        mpi_check(MPI_Get(&v, 8, MPI_BYTE, int(kTarget), disp(offset), 8, MPI_BYTE, win), "MPI_Get");
        mpi_check(MPI_Win_flush(int(kTarget), win), "MPI_Win_flush");
        return v;
    }

    // ---- bandwidth -----------------------------------------------------
    std::vector<std::size_t> sizes() const { return opt.sizes(); }
    long msgs_for(std::size_t size) const { return opt.msgs_for(size); }
    // msgs_for(size) calls of op(), timed; GB/s.
    template <class Op>
    double gbps(std::size_t size, Op&& op) const {
        const long n = msgs_for(size);
        const auto t0 = Clock::now();
        for (long i = 0; i < n; ++i) op();
        return double(size) * double(n) / seconds_since(t0) / 1e9;
    }

    // Returns Gasket/MPI rate ratios per size.
    std::vector<double> bandwidth_table(bool put) {
        struct Row {
            std::size_t size;
            long msgs;
            double gasket, mpi, mem, vs_mpi, vs_mem;
        };
        std::vector<Row> rows;
        char* const s = src;
        char* const dg = dst_g;
        char* const dm = dst_m;
        char* const md = mem_dst;
        char* const remote = at(put ? lay.bw_put : lay.bw_get);
        const MPI_Aint d = disp(put ? lay.bw_put : lay.bw_get);
        const MPI_Win w = win;
        for (std::size_t size : sizes()) {
            const int n = int(size);
            // Round order: MPI, Gasket, memcpy.
            enum { mpi, gasket, mem };
            std::vector<Loop> loops;
            if (put) {
                loops.push_back(mpi_phase([=, this] {
                    return gbps(size, [=] {
                        MPI_Put(s, n, MPI_BYTE, int(kTarget), d, n, MPI_BYTE, w);
                        MPI_Win_flush(int(kTarget), w);
                    });
                }));
                loops.push_back(
                    gasket_phase([=, this] { return gbps(size, [=] { gasnet_put_bulk(kTarget, remote, s, size); }); }));
            } else {
                loops.push_back(mpi_phase([=, this] {
                    return gbps(size, [=] {
                        MPI_Get(dm, n, MPI_BYTE, int(kTarget), d, n, MPI_BYTE, w);
                        MPI_Win_flush(int(kTarget), w);
                    });
                }));
                loops.push_back(gasket_phase(
                    [=, this] { return gbps(size, [=] { gasnet_get_bulk(dg, kTarget, remote, size); }); }));
            }
            loops.push_back([=, this] {
                return gbps(size, [=] {
                    std::memcpy(md, s, size);
                    clobber();
                });
            });
            const Rounds f = measure(opt.reps, loops);
            rows.push_back({size, msgs_for(size), f.median_of(gasket), f.median_of(mpi), f.median_of(mem),
                            f.ratio(gasket, mpi), f.ratio(gasket, mem)});
        }
        check_bandwidth(put);

        const char* kind = put ? "put" : "get";
        std::printf("\n### %s bandwidth, GB/s (1e9 B/s; median of %d loops)\n\n", kind, opt.reps);
        std::printf("| size | transfers/loop | Gasket | MPI | Gasket/MPI | memcpy | Gasket/memcpy |\n");
        std::printf("|---:|---:|---:|---:|---:|---:|---:|\n");
        std::vector<double> time_ratios;
        for (const Row& r : rows) {
            time_ratios.push_back(1.0 / r.vs_mpi);
            std::printf("| %s | %ld | %.3f | %.3f | %.2f | %.3f | %.0f%% |\n", size_label(r.size).c_str(), r.msgs,
                        r.gasket, r.mpi, r.vs_mpi, r.mem, 100.0 * r.vs_mem);
        }
        if (put)
            std::printf(
                "\nGasket: gasnet_put_bulk (blocking) x transfers.  MPI: (MPI_Put + MPI_Win_flush) x transfers.\n"
                "memcpy: node 0 copies between two private buffers.  Every transfer of a loop goes to the same\n"
                "destination.  Gasket/MPI > 1: Gasket is faster.\n");
        else
            std::printf(
                "\nGasket: gasnet_get_bulk (blocking) x transfers.  MPI: (MPI_Get + MPI_Win_flush) x transfers.\n"
                "memcpy as above.  Gasket/MPI > 1: Gasket is faster.\n");
        return time_ratios;
    }
    // After a bandwidth table: the largest put landed whole (read back),
    // the largest get brought the source's values.
    void check_bandwidth(bool put) {
        const std::size_t size = sizes().back();
        const std::size_t words = size / 8;
        std::vector<long> back(words + 1, 0);
        if (put) {
            begin_gasket();
            gasnet_get_bulk(back.data(), kTarget, at(lay.bw_put), words * 8);
            end_gasket();
            if (std::memcmp(back.data(), src, words * 8) != 0) check("gasnet_put_bulk: bytes that differ", 1, 0);
            enter(kMpi);
            mpi_check(MPI_Get(back.data(), int(words * 8), MPI_BYTE, int(kTarget), disp(lay.bw_put), int(words * 8),
                              MPI_BYTE, win),
                      "MPI_Get");
            mpi_check(MPI_Win_flush(int(kTarget), win), "MPI_Win_flush");
            if (std::memcmp(back.data(), src, words * 8) != 0) check("MPI_Put: bytes that differ", 1, 0);
        } else {
            const long* g = reinterpret_cast<const long*>(dst_g);
            const long* m = reinterpret_cast<const long*>(dst_m);
            for (std::size_t i : {std::size_t(0), words / 2, words ? words - 1 : 0}) {
                if (i >= words) continue;
                check("gasnet_get_bulk: a word got", g[i], value_at(lay.bw_get + 8 * i));
                check("MPI_Get: a word got", m[i], value_at(lay.bw_get + 8 * i));
            }
        }
    }

    // ---- throughput ------------------------------------------------------
    // n 8-byte operations, each to its own slot, then one synchronization;
    // million operations/s.  Put sources hold (loop number << 32) + i,
    // filled before the clock starts.
    template <class Op, class Sync>
    double mops(Op&& op, Sync&& sync) const {
        return bench::mops_per_s(opt.nbi_ops, op, sync);
    }
    void fill_sources(long stamp) {
        for (std::size_t i = 0; i < thr_src.size(); ++i) thr_src[i] = (stamp << 32) + long(i);
    }

    std::vector<double> throughput_table() {
        long* const ts = thr_src.data();
        long* const tg = thr_dst_g.data();
        long* const tm = thr_dst_m.data();
        gasnet_handle_t* const h = handles.data();
        const long n = opt.nbi_ops;
        auto* const nbi_dst = reinterpret_cast<long*>(at(lay.thr_put_nbi));
        auto* const nb_dst = reinterpret_cast<long*>(at(lay.thr_put_nb));
        auto* const get_src = reinterpret_cast<long*>(at(lay.thr_get));
        const MPI_Aint put_disp = disp(lay.thr_put_nbi), get_disp = disp(lay.thr_get);
        const MPI_Win w = win;
        enum { g_scat, m_scat, w_scat, g_scat_bulk, g_nbi, m_put, g_nb_bulk, g_nb, g_get, m_get };
        // Scattered: slot (97 i) mod n, a permutation when n is odd or a
        // power of 2 (no two consecutive puts touch adjacent bytes, so
        // Gasket cannot join them).  They run before the adjacent loops of
        // each round, whose values the checks below then find.
        const auto scattered = [n](long i) { return (97 * i) % n; };
        const Rounds f = measure(
            opt.reps,
            {gasket_phase([=, this] {
                 fill_sources(++stamp_scat);
                 return mops([=](long i) { gasnet_put_nbi(kTarget, nbi_dst + scattered(i), ts + i, 8); },
                             [] { gasnet_wait_syncnbi_puts(); });
             }),
             mpi_phase([=, this] {
                 fill_sources(++stamp_scat);
                 return mops(
                     [=](long i) {
                         MPI_Put(ts + i, 8, MPI_BYTE, int(kTarget), put_disp + 8 * scattered(i), 8, MPI_BYTE, w);
                     },
                     [=] { MPI_Win_flush(int(kTarget), w); });
             }),
             mpi_phase([=, this] {  // the floor of any layer: MPI_Put one call down
                 fill_sources(++stamp_scat);
                 return mops([=](long i) { wrapped_put(ts + i, 8, int(kTarget), put_disp + 8 * scattered(i), w); },
                             [=] { MPI_Win_flush(int(kTarget), w); });
             }),
             gasket_phase([=, this] {  // overwritten by the adjacent loop below
                 fill_sources(++stamp_scat);
                 return mops([=](long i) { gasnet_put_nbi_bulk(kTarget, nbi_dst + scattered(i), ts + i, 8); },
                             [] { gasnet_wait_syncnbi_puts(); });
             }),
             gasket_phase([=, this] {
                 fill_sources(++stamp_nbi);
                 return mops([=](long i) { gasnet_put_nbi(kTarget, nbi_dst + i, ts + i, 8); },
                             [] { gasnet_wait_syncnbi_puts(); });
             }),
             mpi_phase([=, this] {
                 fill_sources(++stamp_mpi);
                 return mops(
                     [=](long i) { MPI_Put(ts + i, 8, MPI_BYTE, int(kTarget), put_disp + 8 * i, 8, MPI_BYTE, w); },
                     [=] { MPI_Win_flush(int(kTarget), w); });
             }),
             gasket_phase([=, this] {  // overwritten by the put_nb loop below
                 fill_sources(++stamp_nb);
                 return mops([=](long i) { h[i] = gasnet_put_nb_bulk(kTarget, nb_dst + i, ts + i, 8); },
                             [=] { gasnet_wait_syncnb_all(h, std::size_t(n)); });
             }),
             gasket_phase([=, this] {
                 fill_sources(++stamp_nb);
                 return mops([=](long i) { h[i] = gasnet_put_nb(kTarget, nb_dst + i, ts + i, 8); },
                             [=] { gasnet_wait_syncnb_all(h, std::size_t(n)); });
             }),
             gasket_phase([=, this] {
                 std::memset(tg, 0, std::size_t(n) * 8);
                 return mops([=](long i) { gasnet_get_nbi(tg + i, kTarget, get_src + i, 8); },
                             [] { gasnet_wait_syncnbi_gets(); });
             }),
             mpi_phase([=, this] {
                 std::memset(tm, 0, std::size_t(n) * 8);
                 return mops(
                     [=](long i) { MPI_Get(tm + i, 8, MPI_BYTE, int(kTarget), get_disp + 8 * i, 8, MPI_BYTE, w); },
                     [=] { MPI_Win_flush(int(kTarget), w); });
             })});

        // Checks: every slot holds what the last loop of its kind wrote;
        // every get brought its source's value; every handle was cleared.
        std::vector<long> back(std::size_t(n), 0);
        auto check_slots = [&](const char* what, long stamp) {
            for (long i = 0; i < n; ++i)
                if (back[std::size_t(i)] != (stamp << 32) + i) {
                    check(what, back[std::size_t(i)], (stamp << 32) + i);
                    return;
                }
        };
        begin_gasket();
        gasnet_get_bulk(back.data(), kTarget, nbi_dst, std::size_t(n) * 8);
        check_slots("gasnet_put_nbi slot", stamp_nbi);
        gasnet_get_bulk(back.data(), kTarget, nb_dst, std::size_t(n) * 8);
        check_slots("gasnet_put_nb slot", stamp_nb);
        end_gasket();
        enter(kMpi);
        mpi_check(MPI_Get(back.data(), int(n * 8), MPI_BYTE, int(kTarget), put_disp, int(n * 8), MPI_BYTE, win),
                  "MPI_Get");
        mpi_check(MPI_Win_flush(int(kTarget), win), "MPI_Win_flush");
        check_slots("MPI_Put slot", stamp_mpi);
        for (long i = 0; i < n; ++i) {
            if (tg[i] != value_at(lay.thr_get + 8 * std::size_t(i))) {
                check("gasnet_get_nbi slot", tg[i], value_at(lay.thr_get + 8 * std::size_t(i)));
                break;
            }
            if (tm[i] != value_at(lay.thr_get + 8 * std::size_t(i))) {
                check("MPI_Get slot", tm[i], value_at(lay.thr_get + 8 * std::size_t(i)));
                break;
            }
        }
        for (long i = 0; i < n; ++i)
            if (h[i] != GASNET_INVALID_HANDLE) {
                check("gasnet_wait_syncnb_all left a handle valid, index", i, -1);
                break;
            }

        const PairRow rows[] = {
            {"gasnet_put_nbi 8 B x n, gasnet_wait_syncnbi_puts", g_nbi, m_put},
            {"gasnet_put_nbi 8 B x n scattered (slot 97i mod n), gasnet_wait_syncnbi_puts", g_scat, m_scat},
            {"gasnet_put_nbi_bulk 8 B x n scattered, gasnet_wait_syncnbi_puts", g_scat_bulk, m_scat},
            {"(floor) MPI_Put 8 B x n scattered called through one out-of-line function", w_scat, m_scat},
            {"gasnet_put_nb 8 B x n, gasnet_wait_syncnb_all", g_nb, m_put},
            {"gasnet_put_nb_bulk 8 B x n, gasnet_wait_syncnb_all", g_nb_bulk, m_put},
            {"gasnet_get_nbi 8 B x n, gasnet_wait_syncnbi_gets", g_get, m_get},
        };
        std::printf("\n### Throughput, million operations/s (median of %d loops of n = %ld ops)\n\n", opt.reps, n);
        std::printf("| operations | Gasket Mops per s | raw MPI counterpart | MPI Mops per s | Gasket/MPI |\n");
        std::printf("|---|---:|---|---:|---:|\n");
        std::vector<double> time_ratios;
        for (const PairRow& r : rows) {
            const double q = f.ratio(r.gasket, r.mpi);
            if (r.gasket != w_scat) time_ratios.push_back(1.0 / q);  // the floor row is no Gasket figure
            std::printf("| %s | %.3f | %s | %.3f | %.2f |\n", r.op, f.median_of(r.gasket),
                        r.mpi == m_put    ? "MPI_Put 8 B x n, one MPI_Win_flush"
                        : r.mpi == m_scat ? "MPI_Put 8 B x n scattered, one MPI_Win_flush"
                                          : "MPI_Get 8 B x n, one MPI_Win_flush",
                        f.median_of(r.mpi), q);
        }
        std::printf(
            "\nEvery operation of a loop has its own 8-byte slot; put sources are an array filled before the clock\n"
            "starts (the same array for Gasket and MPI).  Adjacent small nbi puts join into one MPI_Put in Gasket;\n"
            "the scattered row is the rate without that.  Gasket/MPI > 1: Gasket is faster.\n");
        return time_ratios;
    }

    // ---- barriers ----------------------------------------------------------
    double gasnet_barriers(long n, int flags) {
        long bad = 0;
        const auto t0 = Clock::now();
        for (long i = 0; i < n; ++i) {
            gasnet_barrier_notify(int(i), flags);
            if (gasnet_barrier_wait(int(i), flags) != GASNET_OK) ++bad;
        }
        const double us = seconds_since(t0) / double(n) * 1e6;
        if (bad) check("gasnet_barrier_wait results not GASNET_OK", bad, 0);
        return us;
    }
    double mpi_barriers(long n) {
        const auto t0 = Clock::now();
        for (long i = 0; i < n; ++i) mpi_check(MPI_Barrier(comm), "MPI_Barrier");
        return seconds_since(t0) / double(n) * 1e6;
    }

    std::vector<double> barrier_table() {
        const long n = opt.barriers;
        enum { g_anon, m_bar, g_named };
        const Rounds f = measure(opt.reps, {[=, this] {
                                                enter(kGasnetBarrier, n, GASNET_BARRIERFLAG_ANONYMOUS);
                                                return gasnet_barriers(n, GASNET_BARRIERFLAG_ANONYMOUS);
                                            },
                                            [=, this] {
                                                enter(kMpiBarrier, n);
                                                return mpi_barriers(n);
                                            },
                                            [=, this] {
                                                enter(kGasnetBarrier, n, 0);
                                                return gasnet_barriers(n, 0);
                                            }});
        std::printf("\n### Barrier latency, µs per barrier (median of %d loops of %ld barriers, %u nodes)\n\n",
                    opt.reps, n, nodes);
        std::printf("| barrier | Gasket µs | MPI µs | Gasket/MPI |\n|---|---:|---:|---:|\n");
        const double qa = f.ratio(g_anon, m_bar), qn = f.ratio(g_named, m_bar);
        std::printf("| gasnet_barrier_notify + wait, anonymous | %.3f | %.3f | %.2f |\n", f.median_of(g_anon),
                    f.median_of(m_bar), qa);
        std::printf("| gasnet_barrier_notify + wait, named (id = loop index) | %.3f | %.3f | %.2f |\n",
                    f.median_of(g_named), f.median_of(m_bar), qn);
        std::printf(
            "\nEvery node runs the same barriers back to back.  MPI: MPI_Barrier on a duplicate of\n"
            "MPI_COMM_WORLD.  Gasket/MPI < 1: Gasket is faster.\n");
        return {qa, qn};
    }

    // ---- nodes >= 1: the server -------------------------------------------
    void serve() {
        for (;;) {
            long cmd[3] = {kQuit, 0, 0};
            MPI_Request rq = MPI_REQUEST_NULL;
            mpi_check(MPI_Irecv(cmd, 3, MPI_LONG, int(kOrigin), kTagCmd, comm, &rq), "MPI_Irecv (command)");
            int done = 0;
            while (!done) mpi_check(MPI_Test(&rq, &done, MPI_STATUS_IGNORE), "MPI_Test");  // inside MPI
            if (cmd[0] == kQuit) return;
            mpi_check(MPI_Send(nullptr, 0, MPI_BYTE, int(kOrigin), kTagReady, comm), "MPI_Send (ready)");
            if (cmd[0] == kGasket)
                GASNET_BLOCKUNTIL(g_phase_end.load(std::memory_order_acquire) >= cmd[1]);
            else if (cmd[0] == kGasnetBarrier)
                (void)gasnet_barriers(cmd[1], int(cmd[2]));
            else if (cmd[0] == kMpiBarrier)
                (void)mpi_barriers(cmd[1]);
        }
    }
};

void print_header(const Bench& b, const Options& opt) {
    auto mod64 = [](const void* q) { return unsigned(reinterpret_cast<std::uintptr_t>(q) % 64); };
    std::printf("## bench-gasnet: %u nodes, node %u -> node %u's segment%s\n\n", b.nodes, kOrigin, kTarget,
                opt.quick ? " (--quick: smoke run, figures not meaningful)" : "");
    std::printf("- GASKET_NODE_FASTPATH=%s, GASKET_PROGRESS_THREAD=%s\n", env_or("GASKET_NODE_FASTPATH", "(unset: on)"),
                env_or("GASKET_PROGRESS_THREAD", "(unset: auto)"));
    std::printf("- %s\n", GASNET_CONFIG_STRING);
    std::printf("- MPI: %s\n", mpi_library().c_str());
    std::printf("- segment %s per node; node 1's segment base mod 64 = %u, raw MPI window's usable block mod 64 = %u\n",
                size_label(b.lay.total).c_str(), mod64(b.peer), mod64(b.win_base));
    print_machine();
    std::printf(
        "- latency: %ld ops per loop; bandwidth: sizes %s..%s x%u, at most %s or %ld transfers per loop; "
        "throughput: %ld ops per loop; barrier: %ld per loop; %d loops (+1 warm-up) per figure, median\n",
        opt.iters, size_label(opt.min_size).c_str(), size_label(opt.max_size).c_str(), opt.factor,
        size_label(opt.bw_bytes).c_str(), opt.bw_max_msgs, opt.nbi_ops, opt.barriers, opt.reps);
    std::fflush(stdout);
}

// The path that ran: the node fast path unless GASKET_NODE_FASTPATH says off.
bool fast_path_requested() {
    const char* v = gasnet_getenv("GASKET_NODE_FASTPATH");
    if (!v) return true;
    const std::string s(v);
    return !(s == "off" || s == "0" || s == "no" || s == "false");
}

// One line for the targets: on the MPI path every Gasket time within
// 1.1x of raw MPI's; on the node fast path every Gasket time below raw MPI's.
// Ratios are in time (Gasket time / MPI time; rates inverted).
void print_result(const std::vector<std::pair<std::string, double>>& ratios) {
    const bool fast = fast_path_requested();
    const double limit = fast ? 1.0 : 1.1;
    auto worst = ratios.front();
    int missed = 0;
    for (const auto& r : ratios) {
        if (r.second > worst.second) worst = r;
        if (fast ? r.second >= limit : r.second > limit) ++missed;
    }
    std::printf("\nRESULT %s: slowest Gasket/MPI time ratio %.2f (%s); target %s: %s (%d of %zu rows miss)\n",
                fast ? "node fast path" : "MPI path", worst.second, worst.first.c_str(),
                fast ? "< 1 on every row" : "<= 1.10 on every row", missed ? "NOT met" : "met", missed, ratios.size());
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    if (int rc = parse_options(argc, argv, opt)) return rc == 1 ? 0 : 2;

    gasnet_check(gasnet_init(&argc, &argv), "gasnet_init");  // initializes MPI (MPI_THREAD_MULTIPLE)
    Bench b;
    b.opt = opt;
    b.nodes = gasnet_nodes();
    const gasnet_node_t me = gasnet_mynode();
    if (b.nodes < 2) {
        std::fprintf(stderr, "bench-gasnet: needs at least 2 nodes (oshrun -np 2 bench-gasnet)\n");
        gasnet_exit(1);
    }
    b.lay = Layout(std::size_t(opt.nbi_ops), opt.max_size);
    const uintptr_t max_seg = gasnet_getMaxGlobalSegmentSize();  // collective
    if (b.lay.total > max_seg) {
        if (me == 0)
            std::fprintf(stderr,
                         "bench-gasnet: needs a segment of %zu bytes, at most %zu available: lower --max-size\n",
                         b.lay.total, std::size_t(max_seg));
        gasnet_exit(1);
    }
    gasnet_check(gasnet_attach(g_handlers, int(sizeof g_handlers / sizeof g_handlers[0]), b.lay.total, 0),
                 "gasnet_attach");
    std::vector<gasnet_seginfo_t> seg(b.nodes);
    gasnet_check(gasnet_getSegmentInfo(seg.data(), int(b.nodes)), "gasnet_getSegmentInfo");
    b.peer = static_cast<char*>(seg[kTarget].addr);
    b.mine = static_cast<char*>(seg[me].addr);
    mpi_check(MPI_Comm_dup(MPI_COMM_WORLD, &b.comm), "MPI_Comm_dup");

    // Raw MPI window, the segment's layout from the first page boundary.
    {
        constexpr std::size_t kPage = 4096;
        MPI_Info info;
        mpi_check(MPI_Info_create(&info), "MPI_Info_create");
        mpi_check(MPI_Info_set(info, "accumulate_ordering", "none"), "MPI_Info_set");
        char* raw = nullptr;
        mpi_check(MPI_Win_allocate(MPI_Aint(b.lay.total + kPage), 1, info, b.comm, &raw, &b.win), "MPI_Win_allocate");
        MPI_Info_free(&info);
        const auto a = reinterpret_cast<std::uintptr_t>(raw);
        const MPI_Aint pad = MPI_Aint(((a + kPage - 1) & ~std::uintptr_t(kPage - 1)) - a);
        b.win_base = raw + pad;
        std::vector<MPI_Aint> pads(b.nodes, 0);
        mpi_check(MPI_Allgather(&pad, 1, MPI_AINT, pads.data(), 1, MPI_AINT, b.comm), "MPI_Allgather");
        b.shift = pads[kTarget];
        mpi_check(MPI_Win_lock_all(MPI_MODE_NOCHECK, b.win), "MPI_Win_lock_all");
    }

    // Every node fills its own segment and window: put areas 0, get sources
    // value_at(offset).
    for (char* base : {b.mine, b.win_base}) {
        std::memset(base, 0, b.lay.total);
        long* words = reinterpret_cast<long*>(base);
        for (std::size_t off : {std::size_t(Layout::lat_get)}) words[off / 8] = value_at(off);
        for (std::size_t off = b.lay.thr_get; off < b.lay.thr_get + std::size_t(opt.nbi_ops) * 8; off += 8)
            words[off / 8] = value_at(off);
        for (std::size_t off = b.lay.bw_get; off < b.lay.bw_get + opt.max_size; off += 8)
            words[off / 8] = value_at(off);
    }
    mpi_check(MPI_Win_sync(b.win), "MPI_Win_sync");
    mpi_check(MPI_Barrier(b.comm), "MPI_Barrier");

    if (me == kOrigin) {
        void* p = nullptr;
        for (char** buf : {&b.src, &b.dst_g, &b.dst_m, &b.mem_dst}) {
            if (posix_memalign(&p, 4096, opt.max_size)) gasnet_exit(1);
            *buf = static_cast<char*>(p);
        }
        for (std::size_t i = 0; i < opt.max_size; ++i) b.src[i] = char(i * 7 + 1);
        std::memset(b.dst_g, 0x22, opt.max_size);
        std::memset(b.dst_m, 0x33, opt.max_size);
        std::memset(b.mem_dst, 0x44, opt.max_size);
        b.thr_src.assign(std::size_t(opt.nbi_ops), 0);
        b.thr_dst_g.assign(std::size_t(opt.nbi_ops), 0);
        b.thr_dst_m.assign(std::size_t(opt.nbi_ops), 0);
        b.handles.assign(std::size_t(opt.nbi_ops), GASNET_INVALID_HANDLE);

        print_header(b, opt);
        const auto t0 = Clock::now();
        std::vector<std::pair<std::string, double>> ratios;
        auto add = [&](const char* table, const std::vector<double>& r, const std::vector<std::string>& names) {
            for (std::size_t k = 0; k < r.size(); ++k) ratios.push_back({std::string(table) + " " + names[k], r[k]});
        };
        if (opt.runs("latency"))
            add("latency", b.latency_table(), {"gasnet_put", "gasnet_put_val", "gasnet_get", "gasnet_get_val"});
        std::fflush(stdout);
        std::vector<std::string> size_names;
        for (std::size_t s : b.sizes()) size_names.push_back(size_label(s));
        if (opt.runs("put")) add("bandwidth put", b.bandwidth_table(true), size_names);
        std::fflush(stdout);
        if (opt.runs("get")) add("bandwidth get", b.bandwidth_table(false), size_names);
        std::fflush(stdout);
        if (opt.runs("throughput"))
            add("throughput", b.throughput_table(),
                {"put_nbi", "put_nbi scattered", "put_nbi_bulk scattered", "put_nb", "put_nb_bulk", "get_nbi"});
        std::fflush(stdout);
        if (opt.runs("barrier")) add("barrier", b.barrier_table(), {"anonymous", "named"});
        print_result(ratios);
        b.enter(kQuit);
        std::printf("\nload average at end %s; %.1f s measuring\n", loadavg().c_str(), seconds_since(t0));
        std::fflush(stdout);
    } else {
        b.serve();
    }

    // Every node's failed checks (nodes >= 1: barrier results), summed.
    long failures = 0;
    mpi_check(MPI_Allreduce(&b.failures, &failures, 1, MPI_LONG, MPI_SUM, b.comm), "MPI_Allreduce");
    if (me == kOrigin) {
        std::printf("%s\n", failures ? "DATA CHECKS FAILED" : "all data checks passed");
        std::fflush(stdout);
    }
    mpi_check(MPI_Win_unlock_all(b.win), "MPI_Win_unlock_all");
    mpi_check(MPI_Win_free(&b.win), "MPI_Win_free");
    mpi_check(MPI_Comm_free(&b.comm), "MPI_Comm_free");
    std::free(b.src);
    std::free(b.dst_g);
    std::free(b.dst_m);
    std::free(b.mem_dst);
    gasnet_exit(failures ? 1 : 0);  // collective: every node exits with the same status
    return 0;
}
