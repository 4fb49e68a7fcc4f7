// tests/bench/bench_util.hpp -- what the benchmarks share: size options,
// labels, timing, medians and the interleaved measurement rounds (each
// Gasket loop runs beside its raw MPI loop, round by round, so both see the
// same machine load), and the machine's load average for the header.
#pragma once

#include <mpi.h>

#include <boost/program_options.hpp>

#include <algorithm>
#include <cerrno>
#include <iostream>
#include <unistd.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bench {

using Clock = std::chrono::steady_clock;
using Loop = std::function<double()>;  // runs one timed loop, returns its figure

// "4M", "64K", "1G", "4096" -> bytes (suffixes are powers of 2).
inline std::optional<std::size_t> parse_size(const std::string& text) {
    if (text.empty()) return std::nullopt;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (end == text.c_str()) return std::nullopt;
    std::size_t mult = 1;
    std::string suffix(end);
    if (suffix == "" || suffix == "B" || suffix == "b")
        mult = 1;
    else if (suffix == "K" || suffix == "k" || suffix == "KiB")
        mult = std::size_t(1) << 10;
    else if (suffix == "M" || suffix == "m" || suffix == "MiB")
        mult = std::size_t(1) << 20;
    else if (suffix == "G" || suffix == "g" || suffix == "GiB")
        mult = std::size_t(1) << 30;
    else
        return std::nullopt;
    return std::size_t(v) * mult;
}

inline std::string size_label(std::size_t bytes) {
    char buf[32];
    if (bytes >= (std::size_t(1) << 20) && bytes % (std::size_t(1) << 20) == 0)
        std::snprintf(buf, sizeof buf, "%zu MiB", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        std::snprintf(buf, sizeof buf, "%zu KiB", bytes >> 10);
    else
        std::snprintf(buf, sizeof buf, "%zu B", bytes);
    return buf;
}

inline double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The median of `v`; 0 for none.
inline double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Stack placement.  A loop of nanosecond operations can run at one of two
// speeds depending only on where its stack frames fall within a 64-byte
// cache line: before src/runtime/fence.hpp, bench-gex's value rows took
// 6.0 or 7.6 ns per call as the size of the environment moved the stack in
// 16-byte steps, the same binary and library, ASLR off (docs/performance.md,
// "A full fence off the stack pointer").  Where the stack falls is set by
// the environment and ASLR, not by the code under test, so one process's
// figure for such a row is one draw of two, and a ratio of two rows can be
// off by 25% either way.  measure() runs rounds 2j and 2j + 1 with the
// stack moved down by 16 * (j % 4) bytes more, the four placements covering
// one cache line whatever the process's own, and each figure is the mean
// over placements of the median over that placement's rounds.
inline constexpr int kPlacements = 4;
inline constexpr std::size_t kPlacementStep = 16;  // bytes: the stack's alignment
inline int placement_of_round(int round) { return round / 2 % kPlacements; }

// Runs `loop` with the stack `bytes` lower (rounded up to 16) than a plain
// call would.
[[gnu::noinline]] inline double run_placed(const Loop& loop, std::size_t bytes) {
    char* pad = static_cast<char*>(__builtin_alloca(bytes + 1));
    asm volatile("" : : "r"(pad) : "memory");  // keeps the pad
    const double figure = loop();
    asm volatile("" : : "r"(pad) : "memory");
    return figure;
}

// The mean over placements of the median of each placement's values
// (v[r] measured in round r); 0 for none.
inline double placed_median(const std::vector<double>& v) {
    double sum = 0;
    int placements = 0;
    for (int j = 0; j < kPlacements; ++j) {
        std::vector<double> at;
        for (std::size_t r = 0; r < v.size(); ++r)
            if (placement_of_round(int(r)) == j) at.push_back(v[r]);
        if (at.empty()) continue;
        sum += median(std::move(at));
        ++placements;
    }
    return placements ? sum / placements : 0;
}

// Figures of several loops measured round by round: figure[k][r] is loop
// k's figure in round r.
struct Rounds {
    std::vector<std::vector<double>> figure;
    // Loop k's figure: the mean over stack placements of its median.
    double median_of(std::size_t k) const { return placed_median(figure[k]); }
    // Loop a's figure / loop b's, from the ratios of the same round: the
    // loops of one round run back to back at one stack placement, so this
    // pairs measurements taken under the same load and placement (mean over
    // placements of the median ratio).
    double ratio(std::size_t a, std::size_t b) const {
        std::vector<double> q;
        for (std::size_t r = 0; r < figure[a].size(); ++r) q.push_back(figure[a][r] / figure[b][r]);
        return placed_median(q);
    }
};

// Runs every loop once per round: one untimed warm-up round, then `reps`
// timed rounds, so drifts in the machine's load hit all loops of a row
// alike.  Odd rounds run the loops in reverse order: a loop's figure
// depends a little on what the loop before it left in the caches, and
// alternating gives each loop both neighbours.  Each pair of rounds runs
// at the next stack placement (above).
inline Rounds measure(int reps, const std::vector<Loop>& loops) {
    for (const Loop& l : loops) (void)l();
    Rounds out;
    out.figure.resize(loops.size());
    for (int r = 0; r < reps; ++r) {
        const std::size_t pad = kPlacementStep * std::size_t(placement_of_round(r));
        for (std::size_t i = 0; i < loops.size(); ++i) {
            const std::size_t k = r % 2 ? loops.size() - 1 - i : i;
            out.figure[k].push_back(run_placed(loops[k], pad));
        }
    }
    return out;
}

inline std::string first_line(const char* text) {
    std::string s(text);
    const auto cut = s.find_first_of("\n,");
    return cut == std::string::npos ? s : s.substr(0, cut);
}

inline std::string loadavg() {
    std::ifstream f("/proc/loadavg");
    std::string a, b, c;
    if (!(f >> a >> b >> c)) return "unknown";
    return a + " " + b + " " + c;
}

// The MPI library's version line, for the benchmark's header.
inline std::string mpi_library() {
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int len = 0;
    MPI_Get_library_version(lib, &len);
    return first_line(lib);
}

// Prints the header lines: the machine (host, CPUs, load average) and how
// figures combine stack placements.
inline void print_machine() {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    std::printf("- host %s, %ld online CPUs, load average at start %s\n", host, sysconf(_SC_NPROCESSORS_ONLN),
                loadavg().c_str());
    std::printf(
        "- a loop's median, a ratio's median: the median of each stack placement's rounds, averaged over %d "
        "placements %zu bytes apart (tests/bench/README.md, \"Stack placement\")\n",
        kPlacements, kPlacementStep);
}

// Runs op(i) for i = 0..n-1; returns µs per call.
template <class Op>
double us_per_op(long n, Op&& op) {
    const auto t0 = Clock::now();
    for (long i = 0; i < n; ++i) op(i);
    return seconds_since(t0) / double(n) * 1e6;
}

// Runs op(i) for i = 0..n-1, then sync(); returns million operations per
// second.
template <class Op, class Sync>
double mops_per_s(long n, Op&& op, Sync&& sync) {
    const auto t0 = Clock::now();
    for (long i = 0; i < n; ++i) op(i);
    sync();
    return double(n) / seconds_since(t0) / 1e6;
}
// Ends the job (MPI_Abort) when an MPI call of the benchmark failed.
inline void mpi_check(int rc, const char* what) {
    if (rc != MPI_SUCCESS) {
        std::fprintf(stderr, "%s: %s failed (%d)\n", program_invocation_short_name, what, rc);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

// Parses the command line against `desc` (which must hold "help"): 0 to
// run (vm filled), 1 after printing --help, 2 after printing a bad option.
inline int parse_command_line(const char* program, int argc, char** argv,
                              const boost::program_options::options_description& desc,
                              boost::program_options::variables_map& vm) {
    namespace po = boost::program_options;
    try {
        po::store(po::parse_command_line(argc, argv, desc), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << program << ": " << e.what() << "\n" << desc << "\n";
        return 2;
    }
    if (vm.count("help")) {
        std::cout << desc << "\n";
        return 1;
    }
    return 0;
}

// The options of a latency + bandwidth sweep (bench-rma, bench-gasnet):
// operations per latency loop, repetitions, and the sizes of the bandwidth
// rows.  add_to() declares them; finish() applies --quick (for options not
// given) and parses and checks the sizes.
struct SweepOptions {
    long iters = 20000;               // latency: operations per timed loop
    int reps = 21;                    // timed loops per figure (median)
    std::size_t min_size = 8;         // bandwidth: smallest transfer, bytes
    std::size_t max_size = 4 << 20;   // bandwidth: largest transfer
    unsigned factor = 2;              // bandwidth: size step (multiplier)
    std::size_t bw_bytes = 64 << 20;  // bandwidth: bytes per timed loop, at most
    long bw_max_msgs = 8192;          // bandwidth: transfers per timed loop, at most
    bool quick = false;
    std::string min_text = "8", max_text = "4M", bw_text = "64M";

    void add_to(boost::program_options::options_description& desc) {
        namespace po = boost::program_options;
        desc.add_options()("help,h", "print this help")("iters", po::value<long>(&iters),
                                                        "latency: operations per timed loop (default 20000)")(
            "reps", po::value<int>(&reps), "timed loops per figure; the median is reported (default 21)")(
            "min-size", po::value<std::string>(&min_text), "bandwidth: smallest size, bytes, K/M suffix (default 8)")(
            "max-size", po::value<std::string>(&max_text), "bandwidth: largest size (default 4M)")(
            "factor", po::value<unsigned>(&factor), "bandwidth: size multiplier between rows, e.g. 2 or 4 (default 2)")(
            "bw-bytes", po::value<std::string>(&bw_text),
            "bandwidth: bytes moved per timed loop, at most (default 64M)")(
            "bw-max-msgs", po::value<long>(&bw_max_msgs),
            "bandwidth: transfers per timed loop, at most (default 8192)");
    }

    // The bandwidth rows: min_size, min_size*factor, ... up to max_size.
    std::vector<std::size_t> sizes() const {
        std::vector<std::size_t> v;
        for (std::size_t s = min_size; s <= max_size; s *= factor) {
            v.push_back(s);
            if (s > max_size / factor) break;
        }
        return v;
    }
    // Transfers of `size` bytes per timed bandwidth loop.
    long msgs_for(std::size_t size) const {
        return std::max<long>(1, std::min<long>(bw_max_msgs, long(bw_bytes / size)));
    }

    // False (after printing why, naming `program`) on a bad value.
    bool finish(const char* program, const boost::program_options::variables_map& vm, long quick_iters) {
        quick = vm.count("quick") > 0;
        if (quick) {
            if (!vm.count("iters")) iters = quick_iters;
            if (!vm.count("reps")) reps = 3;
            if (!vm.count("max-size")) max_text = "64K";
            if (!vm.count("bw-bytes")) bw_text = "1M";
        }
        auto mn = parse_size(min_text), mx = parse_size(max_text), bw = parse_size(bw_text);
        if (!mn || !mx || !bw || *mn == 0 || *mx < *mn || *bw == 0 || *mx > (std::size_t(1) << 30)) {
            std::cerr << program << ": bad size in --min-size/--max-size/--bw-bytes (max-size at most 1G)\n";
            return false;
        }
        if (iters < 1 || reps < 1 || factor < 2 || bw_max_msgs < 1) {
            std::cerr << program << ": --iters, --reps, --bw-max-msgs must be >= 1 and --factor >= 2\n";
            return false;
        }
        min_size = *mn;
        max_size = *mx;
        bw_bytes = *bw;
        return true;
    }
};

// What the collective benchmarks share (bench-coll, bench-gex-coll): every
// process calls in every loop; a loop's figure is the slowest process's µs
// per call (MPI_MAX over `comm`); a row prints Gasket's and raw MPI's
// medians and the median of their per-round ratio.
struct CollectiveTimer {
    MPI_Comm comm = MPI_COMM_NULL;  // raw MPI's communicator, also the timing's
    int me = 0;
    long iters = 2000;  // calls per loop, at most

    // Calls of one loop moving `bytes` per call and process: at most 64 MiB
    // per loop, at least 20.
    long calls_for(std::size_t bytes) const {
        const long by_volume = long((std::size_t(64) << 20) / std::max<std::size_t>(bytes, 1));
        return std::max<long>(20, std::min<long>(iters, by_volume));
    }
    template <class Op>
    Loop loop(long n, Op op) {
        return [this, n, op]() mutable {
            MPI_Barrier(comm);
            const double mine = us_per_op(n, op);
            double slowest = 0;
            MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
            return slowest;
        };
    }
    void row(const char* what, const std::string& size, const Rounds& r, std::size_t gasket, std::size_t mpi) const {
        if (me == 0)
            std::printf("| %s | %s | %.2f | %.2f | %.2f |\n", what, size.c_str(), r.median_of(gasket), r.median_of(mpi),
                        r.ratio(gasket, mpi));
    }
};

}  // namespace bench
