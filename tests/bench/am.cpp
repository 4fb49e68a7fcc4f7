// tests/bench/am.cpp -- bench-am: GASNet 1.8 Active Messages on Gasket
// against raw MPI two-sided messages measured in the same run.
//
//   oshrun -np 2 bench-am [--iters N] [--reps R] [--stream N] [--rate-window W] [--tables LIST] [--quick]
//   oshrun -np 2 bench-am --compute-only [--compute-iters N] [--compute-reps R]
//
// Default mode.  Node 0 measures against node 1; node 1 (and any further
// node) waits in GASNET_BLOCKUNTIL for a command, so it serves Active
// Messages by polling (and, when it runs, by Gasket's progress thread).  A
// raw MPI loop is started by a command AM (untimed; a 0-byte MPI handshake
// follows, so node 1 is inside its MPI loop before the clock starts) and
// runs MPI_Send/MPI_Recv on a duplicate of MPI_COMM_WORLD.  Node 0 prints
// Markdown tables:
//  - round-trip latency, µs: Short0 request -> handler replies Short0 ->
//    reply handler counts; Medium request of S bytes -> reply Short0; Long
//    request of S bytes into node 1's segment -> reply Short0.  Raw MPI:
//    MPI_Send of S bytes (0 for Short) then MPI_Recv of a 0-byte reply.
//    Ratio = Gasket time / MPI time (> 1: Gasket is slower).
//  - throughput, messages/s: a stream of N Short1 (the argument is N) or
//    Medium1 8 B requests whose handler only counts; the handler that
//    counts the N-th message replies Short0, which ends the timed loop.  Raw MPI: N MPI_Sends of 0 or 8 bytes received by an
//    MPI_Recv loop, then a 0-byte acknowledgement.  Ratio = Gasket rate /
//    MPI rate (< 1: Gasket is slower).
//  - message rate, messages/s: the same stream of Medium2 requests of 8 B,
//    64 B, 512 B and 4 KiB (the arguments are N and the size; the handler
//    checks the length); raw MPI: MPI_Isend x N in windows of W (MPI_Waitall
//    per window), node 1 posting W MPI_Irecv at a time (MPI_Waitall per
//    window, each into its own buffer), then a 0-byte acknowledgement; and
//    the same raw MPI loop with messages of the request's size on the wire
//    (payload + header and arguments, kMedium2Wire).
// Every figure is the median over --reps timed loops after one untimed
// warm-up loop; the loops of a row run interleaved, round by round (as in
// bench-rma), and each ratio is the median over rounds of the ratio of the
// two loops of one round.  Handlers check the payload's first and last
// bytes (the MPI receiver checks the same); a mismatch is counted and
// reported, and the exit status is 1.  Nothing asserts on speed.
//
// --compute-only mode: the progress thread's cost to a compute loop.  See
// tests/bench/README.md and progress-cost.py, which runs this mode with
// GASKET_PROGRESS_THREAD=off and =on alternately and compares.
#include <gasnet.h>
#include <mpi.h>

#include <boost/program_options.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "bench_util.hpp"

namespace po = boost::program_options;

namespace {

using namespace bench;

constexpr gasnet_node_t kOrigin = 0;
constexpr gasnet_node_t kTarget = 1;
constexpr int kTag = 7;
// Message-rate table: the payload sizes (bytes), as the issue names them.
constexpr std::array<std::size_t, 4> kRateSizes = {8, 64, 512, 4096};
// What a Medium2 request adds to its payload on the wire through MPI: the
// transport's 16-byte head and two 4-byte arguments padded to 16
// (mpi-bridge/am_transport.hpp).  The rate table's last columns run raw MPI
// at payload + this: the floor for a message carrying the request.
constexpr std::size_t kMedium2Wire = 16 + 16;

struct Options {
    long iters = 20000;                                   // latency: round trips per timed loop (small sizes)
    int reps = 21;                                        // timed loops per figure (median)
    std::size_t lat_bytes = 32 << 20;                     // latency: payload bytes per timed loop, at most
    std::size_t max_long = 4 << 20;                       // largest Long payload
    long stream = 100000;                                 // throughput: messages per timed loop
    int rate_window = 64;                                 // message rate: raw MPI's MPI_Isend/MPI_Irecv window
    bool latency = true, throughput = true, rate = true;  // --tables
    bool quick = false;
    bool fresh_payload = false;  // every loop writes each message's whole payload just before sending it
    // --compute-only
    bool compute_only = false;
    long compute_iters = 100000000;  // compute loop: mixing steps
    int compute_reps = 7;
    long tick_us = 1000;  // loaded compute: one request every tick_us
};

// Returns 0 to run, 1 to exit successfully (--help), 2 on a bad option.
int parse_options(int argc, char** argv, Options& o) {
    std::string lat_bytes = "32M", max_long = "4M", tables = "latency,throughput,rate";
    po::options_description desc(
        "bench-am: GASNet Active Message latency/throughput on Gasket vs raw MPI send/recv.\n"
        "Run with 2 nodes: oshrun -np 2 bench-am [options]\nOptions");
    desc.add_options()("help,h", "print this help")("iters", po::value<long>(&o.iters),
                                                    "latency: round trips per timed loop (default 20000)")(
        "reps", po::value<int>(&o.reps), "timed loops per figure; the median is reported (default 21)")(
        "lat-bytes", po::value<std::string>(&lat_bytes),
        "latency: payload bytes per timed loop, at most (fewer round trips for big sizes; default 32M)")(
        "max-long", po::value<std::string>(&max_long), "largest Long payload, K/M suffix (default 4M)")(
        "stream", po::value<long>(&o.stream), "throughput: messages per timed loop (default 100000)")(
        "rate-window", po::value<int>(&o.rate_window),
        "message rate: raw MPI's MPI_Isend/MPI_Irecv posted per MPI_Waitall (default 64)")(
        "fresh-payload",
        "latency and message rate: every loop, Gasket's and raw MPI's, writes each message's whole payload just "
        "before sending it, as a program sends data it has just produced (default: the payload is written once, "
        "and a round trip changes only its first and last bytes)")(
        "tables", po::value<std::string>(&tables),
        "default mode: the tables to measure, a comma-separated subset of latency,throughput,rate (default all)")(
        "quick",
        "smoke run: --iters 200 --reps 3 --lat-bytes 1M --stream 2000 --compute-iters 2000000 "
        "--compute-reps 2 unless given (figures not meaningful)")(
        "compute-only",
        "measure only a compute loop on every node, idle and under one request per "
        "--tick-us (see README; progress-cost.py runs it with the progress thread off and on)")(
        "compute-iters", po::value<long>(&o.compute_iters), "compute loop: mixing steps (default 100000000)")(
        "compute-reps", po::value<int>(&o.compute_reps), "compute loop: timed loops per figure (default 7)")(
        "tick-us", po::value<long>(&o.tick_us), "loaded compute: µs between requests (default 1000)");
    po::variables_map vm;
    if (int rc = parse_command_line("bench-am", argc, argv, desc, vm)) return rc;
    o.quick = vm.count("quick") > 0;
    o.compute_only = vm.count("compute-only") > 0;
    o.fresh_payload = vm.count("fresh-payload") > 0;
    if (o.quick) {
        if (!vm.count("iters")) o.iters = 200;
        if (!vm.count("reps")) o.reps = 3;
        if (!vm.count("lat-bytes")) lat_bytes = "1M";
        if (!vm.count("stream")) o.stream = 2000;
        if (!vm.count("compute-iters")) o.compute_iters = 2000000;
        if (!vm.count("compute-reps")) o.compute_reps = 2;
    }
    auto lb = parse_size(lat_bytes), ml = parse_size(max_long);
    if (!lb || !ml || *lb == 0 || *ml == 0 || *ml > gasnet_AMMaxLongRequest()) {
        std::cerr << "bench-am: bad size in --lat-bytes/--max-long\n";
        return 2;
    }
    if (o.iters < 1 || o.reps < 1 || o.stream < 1 || o.stream > INT32_MAX || o.compute_iters < 1 ||
        o.compute_reps < 1 || o.tick_us < 1 || o.rate_window < 1) {
        std::cerr << "bench-am: --iters, --reps, --stream, --rate-window, --compute-iters, --compute-reps, --tick-us "
                     "must be >= 1\n";
        return 2;
    }
    o.latency = o.throughput = o.rate = false;
    for (std::size_t at = 0; at <= tables.size();) {
        std::size_t end = std::min(tables.find(',', at), tables.size());
        const std::string t = tables.substr(at, end - at);
        if (t == "latency")
            o.latency = true;
        else if (t == "throughput")
            o.throughput = true;
        else if (t == "rate")
            o.rate = true;
        else {
            std::cerr << "bench-am: --tables: unknown table '" << t << "' (latency, throughput, rate)\n";
            return 2;
        }
        at = end + 1;
    }
    o.lat_bytes = *lb;
    o.max_long = *ml;
    return 0;
}

void am_check(int rc, const char* what) {
    if (rc != GASNET_OK) {
        std::fprintf(stderr, "bench-am: node %u: %s returned %s\n", gasnet_mynode(), what, gasnet_ErrorName(rc));
        gasnet_exit(1);
    }
}

double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(q * double(v.size() - 1) + 0.5))];
}

// ---- handlers --------------------------------------------------------
// Handlers run inside polls on the main thread and on Gasket's progress
// thread, so everything they share with the main thread is atomic.

enum : gasnet_handler_t {
    H_PING_SHORT = 128,  // node 1: reply Short0 to H_PONG
    H_PING_MEDIUM,       // node 1: check payload, reply Short0 to H_PONG
    H_PING_LONG,         // node 1: check payload in segment, reply Short0 to H_PONG
    H_PONG,              // node 0: count a round trip
    H_STREAM_SHORT,      // node 1: count; the N-th replies H_STREAM_DONE
    H_STREAM_MEDIUM,     // node 1: as above, Medium 8 B
    H_RATE_MEDIUM,       // node 1: as above, Medium of the size its second argument gives
    H_STREAM_DONE,       // node 0: a stream was counted
    H_COMMAND,           // nodes >= 1: run a raw MPI loop / quit
    H_ARRIVE,            // node 0: a node arrived at the barrier (adds its value)
    H_RELEASE,           // nodes >= 1: barrier release (carries the sum), replies H_RELEASE_ACK
    H_RELEASE_ACK,       // node 0: count release acknowledgements
    H_TICK,              // compute-only: a request while the target computes
    H_COMPUTE_DONE,      // compute-only: node 1 finished computing (carries ticks served meanwhile)
};

std::atomic<long> g_pongs{0};
std::atomic<long> g_stream_count{0};
std::atomic<long> g_streams_done{0};
std::atomic<long> g_failures{0};
std::atomic<bool> g_failure_noted{false};
char g_failure_text[200];

// Records a failed check (the first one's description is kept).
void note_failure(const char* what, long got, long want) {
    g_failures.fetch_add(1, std::memory_order_relaxed);
    bool expected = false;
    if (g_failure_noted.compare_exchange_strong(expected, true))
        std::snprintf(g_failure_text, sizeof g_failure_text, "%s: got %ld, expected %ld", what, got, want);
}

// The pattern byte node 0 writes at both ends of payload number i.
unsigned char pattern(long i) { return static_cast<unsigned char>(0x5a ^ (i & 0xff)); }

// A round trip's payload before sending: the whole of it with --fresh-payload
// (data just produced: its lines are dirty in the sender's cache, as for a
// real program), else its first and last bytes, which the receiver checks.
void write_payload(unsigned char* s, std::size_t size, unsigned char p, bool fresh) {
    if (fresh)
        std::memset(s, p, size);
    else
        s[0] = s[size - 1] = p;
}

void check_payload(const char* what, const void* buf, std::size_t nbytes, long want_bytes, long pat) {
    if (long(nbytes) != want_bytes) note_failure(what, long(nbytes), want_bytes);
    if (nbytes == 0) return;
    const auto* b = static_cast<const unsigned char*>(buf);
    if (b[0] != pat) note_failure(what, b[0], pat);
    if (b[nbytes - 1] != pat) note_failure(what, b[nbytes - 1], pat);
}

void* g_my_segment = nullptr;

void ping_short(gasnet_token_t token) { gasnet_AMReplyShort0(token, H_PONG); }

void ping_medium(gasnet_token_t token, void* buf, std::size_t nbytes, gasnet_handlerarg_t want,
                 gasnet_handlerarg_t pat) {
    check_payload("Medium payload", buf, nbytes, want, pat);
    gasnet_AMReplyShort0(token, H_PONG);
}

void ping_long(gasnet_token_t token, void* buf, std::size_t nbytes, gasnet_handlerarg_t want, gasnet_handlerarg_t pat) {
    if (buf != g_my_segment)
        note_failure("Long payload address - segment base", long((char*)buf - (char*)g_my_segment), 0);
    check_payload("Long payload", buf, nbytes, want, pat);
    gasnet_AMReplyShort0(token, H_PONG);
}

void pong(gasnet_token_t) { g_pongs.fetch_add(1, std::memory_order_release); }

// Counts; the handler that counts the n-th message of a stream resets the
// count (every message of this stream has been counted, and the next stream
// starts only after the reply) and replies.
void stream_count(gasnet_token_t token, long n) {
    if (g_stream_count.fetch_add(1, std::memory_order_acq_rel) + 1 == n) {
        g_stream_count.store(0, std::memory_order_relaxed);
        gasnet_AMReplyShort0(token, H_STREAM_DONE);
    }
}
void stream_short(gasnet_token_t token, gasnet_handlerarg_t n) { stream_count(token, n); }
void stream_medium(gasnet_token_t token, void* buf, std::size_t nbytes, gasnet_handlerarg_t n) {
    if (nbytes != 8) note_failure("stream Medium nbytes", long(nbytes), 8);
    (void)buf;
    stream_count(token, n);
}
void rate_medium(gasnet_token_t token, void* buf, std::size_t nbytes, gasnet_handlerarg_t n, gasnet_handlerarg_t size) {
    if (long(nbytes) != size) note_failure("rate Medium nbytes", long(nbytes), size);
    (void)buf;
    stream_count(token, n);
}
void stream_done(gasnet_token_t) { g_streams_done.fetch_add(1, std::memory_order_release); }

// Commands to nodes >= 1 (set by H_COMMAND, taken by the main loop).
enum Command : int { CMD_MPI_PINGPONG = 1, CMD_MPI_STREAM = 2, CMD_QUIT = 3, CMD_MPI_RATE = 4 };
std::atomic<int> g_cmd_kind{0};
std::atomic<long> g_cmd_size{0}, g_cmd_n{0};
std::atomic<bool> g_cmd_ready{false};

void command(gasnet_token_t, gasnet_handlerarg_t kind, gasnet_handlerarg_t size, gasnet_handlerarg_t n) {
    if (g_cmd_ready.load(std::memory_order_acquire)) note_failure("command while one is pending", kind, 0);
    g_cmd_kind.store(kind, std::memory_order_relaxed);
    g_cmd_size.store(size, std::memory_order_relaxed);
    g_cmd_n.store(n, std::memory_order_relaxed);
    g_cmd_ready.store(true, std::memory_order_release);
}

// A barrier that also sums one int over all nodes, made of AMs: every node
// but 0 sends H_ARRIVE (with its value) to node 0; node 0 waits for all,
// then sends H_RELEASE (with the sum) to each, and waits for each to
// acknowledge, so on return from the last barrier no message is in flight.
// Counts are cumulative over epochs, so nothing needs resetting.
std::atomic<long> g_arrived{0}, g_arrived_sum{0};
std::atomic<long> g_released_epoch{0}, g_released_value{0};
std::atomic<long> g_release_acks{0};
long g_epoch = 0;     // barriers done by this node
long g_sum_seen = 0;  // node 0: g_arrived_sum at the previous barrier

void arrive(gasnet_token_t, gasnet_handlerarg_t value) {
    g_arrived_sum.fetch_add(value, std::memory_order_relaxed);
    g_arrived.fetch_add(1, std::memory_order_release);
}
void release(gasnet_token_t token, gasnet_handlerarg_t epoch, gasnet_handlerarg_t sum) {
    g_released_value.store(sum, std::memory_order_relaxed);
    g_released_epoch.store(epoch, std::memory_order_release);
    gasnet_AMReplyShort0(token, H_RELEASE_ACK);
}
void release_ack(gasnet_token_t) { g_release_acks.fetch_add(1, std::memory_order_release); }

long am_allreduce_sum(long value) {
    const long epoch = ++g_epoch;
    const gasnet_node_t nodes = gasnet_nodes();
    if (gasnet_mynode() != 0) {
        am_check(gasnet_AMRequestShort1(0, H_ARRIVE, gasnet_handlerarg_t(value)), "gasnet_AMRequestShort1");
        GASNET_BLOCKUNTIL(g_released_epoch.load(std::memory_order_acquire) >= epoch);
        return g_released_value.load(std::memory_order_relaxed);
    }
    GASNET_BLOCKUNTIL(g_arrived.load(std::memory_order_acquire) >= long(nodes - 1) * epoch);
    const long cumulative = g_arrived_sum.load(std::memory_order_relaxed);
    const long sum = value + cumulative - g_sum_seen;
    g_sum_seen = cumulative;
    for (gasnet_node_t n = 1; n < nodes; ++n)
        am_check(gasnet_AMRequestShort2(n, H_RELEASE, gasnet_handlerarg_t(epoch), gasnet_handlerarg_t(sum)),
                 "gasnet_AMRequestShort2");
    GASNET_BLOCKUNTIL(g_release_acks.load(std::memory_order_acquire) >= long(nodes - 1) * epoch);
    return sum;
}

// compute-only: H_TICK carries its send time (steady_clock ns, split in two
// 32-bit halves; processes on one host share CLOCK_MONOTONIC), so the
// computing node records how long each request waited for a handler.
std::atomic<long> g_ticks_served{0};
std::atomic<long> g_ticks_recorded{0};  // slots of g_tick_delay_us taken
std::vector<double> g_tick_delay_us;    // node 1: each request's wait, in arrival order
std::atomic<bool> g_compute_done{false};

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

void tick(gasnet_token_t, gasnet_handlerarg_t seq, gasnet_handlerarg_t hi, gasnet_handlerarg_t lo) {
    (void)seq;
    const std::int64_t sent = (std::int64_t(std::uint32_t(hi)) << 32) | std::uint32_t(lo);
    const double delay_us = double(now_ns() - sent) / 1e3;
    const long k = g_ticks_recorded.fetch_add(1, std::memory_order_relaxed);
    if (std::size_t(k) < g_tick_delay_us.size()) g_tick_delay_us[std::size_t(k)] = delay_us;
    g_ticks_served.fetch_add(1, std::memory_order_release);
}
void compute_done(gasnet_token_t) { g_compute_done.store(true, std::memory_order_release); }

template <class F>
void (*fn(F* f))() {
    return reinterpret_cast<void (*)()>(f);
}

gasnet_handlerentry_t g_handlers[] = {
    {H_PING_SHORT, fn(&ping_short)},
    {H_PING_MEDIUM, fn(&ping_medium)},
    {H_PING_LONG, fn(&ping_long)},
    {H_PONG, fn(&pong)},
    {H_STREAM_SHORT, fn(&stream_short)},
    {H_STREAM_MEDIUM, fn(&stream_medium)},
    {H_RATE_MEDIUM, fn(&rate_medium)},
    {H_STREAM_DONE, fn(&stream_done)},
    {H_COMMAND, fn(&command)},
    {H_ARRIVE, fn(&arrive)},
    {H_RELEASE, fn(&release)},
    {H_RELEASE_ACK, fn(&release_ack)},
    {H_TICK, fn(&tick)},
    {H_COMPUTE_DONE, fn(&compute_done)},
};
constexpr int kHandlers = int(sizeof g_handlers / sizeof g_handlers[0]);

// ---- the compute loop ------------------------------------------------
// A chain of dependent integer mixing steps: nothing to vectorize, no
// memory traffic, no closed form; the result goes to a volatile sink.
volatile std::uint64_t g_sink;

double compute_seconds(long iters, int rank) {
    const auto t0 = Clock::now();
    std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ std::uint64_t(rank);
    for (long i = 0; i < iters; ++i) {
        h ^= h >> 29;
        h *= 0xbf58476d1ce4e5b9ULL;
        h += std::uint64_t(i);
    }
    g_sink = h;
    return seconds_since(t0);
}

const char* env_or(const char* name, const char* fallback) {
    const char* v = gasnet_getenv(name);
    return v ? v : fallback;
}

void print_environment(const char* what) {
    std::printf("## bench-am%s: %u nodes, node %u <-> node %u\n\n", what, gasnet_nodes(), kOrigin, kTarget);
    std::printf("- GASKET_NODE_FASTPATH=%s, GASKET_PROGRESS_THREAD=%s\n", env_or("GASKET_NODE_FASTPATH", "(unset)"),
                env_or("GASKET_PROGRESS_THREAD", "(unset)"));
    std::printf("- %s\n", GASNET_CONFIG_STRING);
    std::printf("- MPI: %s\n", mpi_library().c_str());
    print_machine();
}

// ---- default mode ----------------------------------------------------

struct Bench {
    Options opt;
    MPI_Comm comm = MPI_COMM_NULL;  // raw MPI's communicator (a duplicate of MPI_COMM_WORLD)
    void* peer_segment = nullptr;   // node 1's segment base (in node 1's address space)
    std::size_t max_long = 0;
    std::vector<unsigned char> src, dst;  // payload buffers (page-aligned data)
    std::vector<unsigned char> rate_dst;  // node 1: one receive buffer per window slot (message rate)
    std::vector<unsigned char> rate_src;  // node 0, --fresh-payload: one send buffer per window slot (message rate)

    long round_trips(std::size_t size) const {
        if (size == 0) return opt.iters;
        return std::max<long>(1, std::min<long>(opt.iters, long(opt.lat_bytes / size)));
    }

    // Tells node 1 to run a raw MPI loop, then waits for its 0-byte "ready"
    // so the timed loop starts with node 1 inside it.
    void start_mpi(Command kind, std::size_t size, long n) const {
        am_check(gasnet_AMRequestShort3(kTarget, H_COMMAND, kind, gasnet_handlerarg_t(size), gasnet_handlerarg_t(n)),
                 "gasnet_AMRequestShort3");
        mpi_check(MPI_Recv(nullptr, 0, MPI_BYTE, int(kTarget), kTag, comm, MPI_STATUS_IGNORE), "MPI_Recv");
    }

    // ---- round-trip loops (µs per round trip) ----
    Loop am_short_rtt() {
        const long n = round_trips(0);
        return [n] {
            const long base = g_pongs.load(std::memory_order_acquire);
            const auto t0 = Clock::now();
            for (long i = 0; i < n; ++i) {
                am_check(gasnet_AMRequestShort0(kTarget, H_PING_SHORT), "gasnet_AMRequestShort0");
                GASNET_BLOCKUNTIL(g_pongs.load(std::memory_order_acquire) > base + i);
            }
            return seconds_since(t0) / double(n) * 1e6;
        };
    }
    Loop am_payload_rtt(std::size_t size, bool is_long) {
        const long n = round_trips(size);
        unsigned char* s = src.data();
        void* dest = peer_segment;
        const bool fresh = opt.fresh_payload;
        return [=] {
            const long base = g_pongs.load(std::memory_order_acquire);
            const auto t0 = Clock::now();
            for (long i = 0; i < n; ++i) {
                const unsigned char p = pattern(i);
                write_payload(s, size, p, fresh);
                if (is_long)
                    am_check(gasnet_AMRequestLong2(kTarget, H_PING_LONG, s, size, dest, gasnet_handlerarg_t(size), p),
                             "gasnet_AMRequestLong2");
                else
                    am_check(gasnet_AMRequestMedium2(kTarget, H_PING_MEDIUM, s, size, gasnet_handlerarg_t(size), p),
                             "gasnet_AMRequestMedium2");
                GASNET_BLOCKUNTIL(g_pongs.load(std::memory_order_acquire) > base + i);
            }
            return seconds_since(t0) / double(n) * 1e6;
        };
    }
    Loop mpi_rtt(std::size_t size) {
        const long n = round_trips(size);
        unsigned char* s = src.data();
        const MPI_Comm c = comm;
        const bool fresh = opt.fresh_payload;
        return [=, this] {
            start_mpi(CMD_MPI_PINGPONG, size, n);
            const auto t0 = Clock::now();
            for (long i = 0; i < n; ++i) {
                if (size) write_payload(s, size, pattern(i), fresh);
                MPI_Send(s, int(size), MPI_BYTE, int(kTarget), kTag, c);
                MPI_Recv(nullptr, 0, MPI_BYTE, int(kTarget), kTag, c, MPI_STATUS_IGNORE);
            }
            return seconds_since(t0) / double(n) * 1e6;
        };
    }

    // ---- stream loops (messages per second) ----
    Loop am_stream(bool medium) {
        const long n = opt.stream;
        unsigned char* s = src.data();
        return [=] {
            const long done = g_streams_done.load(std::memory_order_acquire);
            std::memset(s, 0x33, 8);
            const auto t0 = Clock::now();
            for (long i = 0; i < n; ++i) {
                if (medium)
                    am_check(gasnet_AMRequestMedium1(kTarget, H_STREAM_MEDIUM, s, 8, gasnet_handlerarg_t(n)),
                             "gasnet_AMRequestMedium1");
                else
                    am_check(gasnet_AMRequestShort1(kTarget, H_STREAM_SHORT, gasnet_handlerarg_t(n)),
                             "gasnet_AMRequestShort1");
            }
            GASNET_BLOCKUNTIL(g_streams_done.load(std::memory_order_acquire) > done);
            return double(n) / seconds_since(t0);
        };
    }
    Loop mpi_stream(std::size_t size) {
        const long n = opt.stream;
        unsigned char* s = src.data();
        const MPI_Comm c = comm;
        return [=, this] {
            start_mpi(CMD_MPI_STREAM, size, n);
            const auto t0 = Clock::now();
            for (long i = 0; i < n; ++i) MPI_Send(s, int(size), MPI_BYTE, int(kTarget), kTag, c);
            MPI_Recv(nullptr, 0, MPI_BYTE, int(kTarget), kTag, c, MPI_STATUS_IGNORE);
            return double(n) / seconds_since(t0);
        };
    }

    // ---- message-rate loops (messages per second) ----
    Loop am_rate(std::size_t size) {
        const long n = opt.stream;
        unsigned char* s = src.data();
        const bool fresh = opt.fresh_payload;
        return [=] {
            const long done = g_streams_done.load(std::memory_order_acquire);
            std::memset(s, 0x44, size);
            const auto t0 = Clock::now();
            for (long i = 0; i < n; ++i) {
                if (fresh) std::memset(s, pattern(i), size);
                am_check(gasnet_AMRequestMedium2(kTarget, H_RATE_MEDIUM, s, size, gasnet_handlerarg_t(n),
                                                 gasnet_handlerarg_t(size)),
                         "gasnet_AMRequestMedium2");
            }
            GASNET_BLOCKUNTIL(g_streams_done.load(std::memory_order_acquire) > done);
            return double(n) / seconds_since(t0);
        };
    }
    // MPI_Isend x n in windows of opt.rate_window, MPI_Waitall per window
    // (--fresh-payload: each message of a window from its own buffer,
    // written just before its MPI_Isend).
    Loop mpi_rate(std::size_t size) {
        const long n = opt.stream;
        const int w = opt.rate_window;
        unsigned char* s = src.data();
        unsigned char* fresh = opt.fresh_payload ? rate_src.data() : nullptr;
        const MPI_Comm c = comm;
        return [=, this] {
            std::vector<MPI_Request> req(std::size_t(w), MPI_REQUEST_NULL);
            start_mpi(CMD_MPI_RATE, size, n);
            const auto t0 = Clock::now();
            for (long i = 0; i < n; i += w) {
                const int k = int(std::min<long>(w, n - i));
                for (int j = 0; j < k; ++j) {
                    unsigned char* out = s;
                    if (fresh) {
                        out = fresh + std::size_t(j) * size;
                        std::memset(out, pattern(i + j), size);
                    }
                    MPI_Isend(out, int(size), MPI_BYTE, int(kTarget), kTag, c, &req[std::size_t(j)]);
                }
                MPI_Waitall(k, req.data(), MPI_STATUSES_IGNORE);
            }
            MPI_Recv(nullptr, 0, MPI_BYTE, int(kTarget), kTag, c, MPI_STATUS_IGNORE);
            return double(n) / seconds_since(t0);
        };
    }

    // ---- node 1's side of the raw MPI loops ----
    void serve_mpi(int kind, std::size_t size, long n) {
        MPI_Send(nullptr, 0, MPI_BYTE, int(kOrigin), kTag, comm);  // ready
        unsigned char* d = dst.data();
        if (kind == CMD_MPI_PINGPONG) {
            for (long i = 0; i < n; ++i) {
                MPI_Recv(d, int(size), MPI_BYTE, int(kOrigin), kTag, comm, MPI_STATUS_IGNORE);
                if (size) {
                    const unsigned char p = pattern(i);
                    if (d[0] != p || d[size - 1] != p) note_failure("MPI ping payload", d[0], p);
                }
                MPI_Send(nullptr, 0, MPI_BYTE, int(kOrigin), kTag, comm);
            }
        } else if (kind == CMD_MPI_RATE) {
            // opt.rate_window receives posted at a time, each into its own
            // buffer; the window's last buffer is checked for its length.
            const int w = opt.rate_window;
            std::vector<MPI_Request> req(std::size_t(w), MPI_REQUEST_NULL);
            std::vector<MPI_Status> st(std::size_t(w), MPI_Status{});
            for (long i = 0; i < n; i += w) {
                const int k = int(std::min<long>(w, n - i));
                for (int j = 0; j < k; ++j)
                    MPI_Irecv(rate_dst.data() + std::size_t(j) * size, int(size), MPI_BYTE, int(kOrigin), kTag, comm,
                              &req[std::size_t(j)]);
                MPI_Waitall(k, req.data(), st.data());
                int count = 0;
                MPI_Get_count(&st[std::size_t(k - 1)], MPI_BYTE, &count);
                if (count != int(size)) note_failure("MPI rate message bytes", count, long(size));
            }
            MPI_Send(nullptr, 0, MPI_BYTE, int(kOrigin), kTag, comm);
        } else {
            for (long i = 0; i < n; ++i) MPI_Recv(d, int(size), MPI_BYTE, int(kOrigin), kTag, comm, MPI_STATUS_IGNORE);
            MPI_Send(nullptr, 0, MPI_BYTE, int(kOrigin), kTag, comm);
        }
    }

    // Nodes >= 1: serve AMs (polling in GASNET_BLOCKUNTIL) until a command.
    void serve() {
        for (;;) {
            GASNET_BLOCKUNTIL(g_cmd_ready.load(std::memory_order_acquire));
            const int kind = g_cmd_kind.load(std::memory_order_relaxed);
            const long size = g_cmd_size.load(std::memory_order_relaxed);
            const long n = g_cmd_n.load(std::memory_order_relaxed);
            g_cmd_ready.store(false, std::memory_order_release);
            if (kind == CMD_QUIT) return;
            serve_mpi(kind, std::size_t(size), n);
        }
    }

    // ---- tables (node 0) ----
    void latency_table() {
        struct Row {
            std::string message, payload;
            long trips;
            double gasket, mpi, ratio;
        };
        std::vector<Row> rows;
        auto add = [&](const std::string& message, std::size_t size, Loop am) {
            const Rounds f = measure(opt.reps, {std::move(am), mpi_rtt(size)});
            rows.push_back(
                {message, size_label(size), round_trips(size), f.median_of(0), f.median_of(1), f.ratio(0, 1)});
        };
        add("Short0", 0, am_short_rtt());
        std::vector<std::size_t> medium = {8, 64, 512, 4096, 16384};
        if (gasnet_AMMaxMedium() > 16384) medium.push_back(gasnet_AMMaxMedium());
        for (std::size_t s : medium) add("Medium2", s, am_payload_rtt(s, false));
        std::vector<std::size_t> longs;
        for (std::size_t s : {8, 64, 512, 4096, 16384, 65536, 262144, 1048576, 4194304})
            if (s < max_long) longs.push_back(s);
        longs.push_back(max_long);
        for (std::size_t s : longs) add("Long2", s, am_payload_rtt(s, true));

        std::printf("\n### Round-trip latency, µs (median of %d loops)\n\n", opt.reps);
        std::printf("| request | payload | round trips/loop | Gasket µs | MPI µs | Gasket/MPI |\n");
        std::printf("|---|---:|---:|---:|---:|---:|\n");
        for (const Row& r : rows)
            std::printf("| %s | %s | %ld | %.3f | %.3f | %.2f |\n", r.message.c_str(), r.payload.c_str(), r.trips,
                        r.gasket, r.mpi, r.ratio);
        std::printf(
            "\nGasket: gasnet_AMRequest{Short0,Medium2,Long2} node 0 -> node 1 (Long: into node 1's segment), the\n"
            "request handler replies gasnet_AMReplyShort0, the reply handler counts; node 0 waits in\n"
            "GASNET_BLOCKUNTIL.  MPI: MPI_Send of the payload (0 B for Short), MPI_Recv of a 0-byte reply, on a\n"
            "duplicate of MPI_COMM_WORLD.  Gasket/MPI: median over rounds of the ratio of the two loops run side\n"
            "by side (> 1: Gasket is slower).\n");
    }

    void throughput_table() {
        enum { am_short, mpi_short, am_medium, mpi_medium };
        const Rounds f = measure(opt.reps, {am_stream(false), mpi_stream(0), am_stream(true), mpi_stream(8)});
        std::printf("\n### Throughput, million messages/s (median of %d loops of %ld messages)\n\n", opt.reps,
                    opt.stream);
        std::printf("| request | payload | Gasket Mmsg per s | MPI Mmsg per s | Gasket/MPI |\n");
        std::printf("|---|---:|---:|---:|---:|\n");
        std::printf("| Short1 | 0 B | %.3f | %.3f | %.2f |\n", f.median_of(am_short) / 1e6,
                    f.median_of(mpi_short) / 1e6, f.ratio(am_short, mpi_short));
        std::printf("| Medium1 | 8 B | %.3f | %.3f | %.2f |\n", f.median_of(am_medium) / 1e6,
                    f.median_of(mpi_medium) / 1e6, f.ratio(am_medium, mpi_medium));
        std::printf(
            "\nGasket: node 0 issues the requests back to back (no reply per message); node 1's handler counts,\n"
            "and the one counting the last message replies Short0, which ends the loop.  MPI: MPI_Send x n of\n"
            "0 B / 8 B, node 1 in an MPI_Recv loop, then a 0-byte acknowledgement.  Gasket/MPI < 1: Gasket is\n"
            "slower.\n");
    }

    void rate_table() {
        std::vector<Loop> loops;
        for (std::size_t s : kRateSizes) {
            loops.push_back(am_rate(s));
            loops.push_back(mpi_rate(s));
            loops.push_back(mpi_rate(s + kMedium2Wire));
        }
        const Rounds f = measure(opt.reps, loops);
        std::printf(
            "\n### Message rate against MPI_Isend/MPI_Irecv, million messages/s (median of %d loops of %ld "
            "messages)\n\n",
            opt.reps, opt.stream);
        std::printf(
            "| request | payload | Gasket Mmsg per s | MPI Mmsg per s | Gasket/MPI | wire bytes | MPI at wire bytes, "
            "Mmsg per s | Gasket/MPI at wire bytes |\n");
        std::printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (std::size_t k = 0; k < kRateSizes.size(); ++k)
            std::printf("| Medium2 | %s | %.3f | %.3f | %.2f | %zu | %.3f | %.2f |\n",
                        size_label(kRateSizes[k]).c_str(), f.median_of(3 * k) / 1e6, f.median_of(3 * k + 1) / 1e6,
                        f.ratio(3 * k, 3 * k + 1), kRateSizes[k] + kMedium2Wire, f.median_of(3 * k + 2) / 1e6,
                        f.ratio(3 * k, 3 * k + 2));
        std::printf(
            "\nGasket: node 0 issues gasnet_AMRequestMedium2 back to back (no reply per message); node 1's handler\n"
            "checks the length and counts, and the one counting the last message replies Short0.  MPI: MPI_Isend x\n"
            "n in windows of %d (MPI_Waitall per window); node 1 posts %d MPI_Irecv at a time (MPI_Waitall per\n"
            "window), then a 0-byte acknowledgement; \"at wire bytes\": the same with messages of the request's size\n"
            "through MPI (payload + %zu bytes of header and arguments).  Gasket/MPI < 1: Gasket is slower.\n",
            opt.rate_window, opt.rate_window, kMedium2Wire);
    }
};

int run_bench(Options& opt, int argc, char** argv) {
    am_check(gasnet_init(&argc, &argv), "gasnet_init");
    const gasnet_node_t me = gasnet_mynode(), nodes = gasnet_nodes();
    if (nodes < 2) {
        std::fprintf(stderr, "bench-am: needs at least 2 nodes (oshrun -np 2 bench-am)\n");
        gasnet_exit(1);
    }
    // Segment: node 1 receives Long payloads of up to --max-long bytes.
    const uintptr_t page = GASNET_PAGESIZE;
    uintptr_t want = (opt.max_long + page - 1) / page * page;
    const uintptr_t global_max = gasnet_getMaxGlobalSegmentSize();
    if (want > global_max) {
        if (me == 0)
            std::fprintf(stderr, "bench-am: segment of %zu bytes not available (max %zu): Long sizes cut\n",
                         std::size_t(want), std::size_t(global_max));
        want = global_max;
    }
    am_check(gasnet_attach(g_handlers, kHandlers, want, 0), "gasnet_attach");

    Bench b;
    b.opt = opt;
    std::vector<gasnet_seginfo_t> seg(nodes);
    am_check(gasnet_getSegmentInfo(seg.data(), int(nodes)), "gasnet_getSegmentInfo");
    g_my_segment = seg[me].addr;
    b.peer_segment = seg[kTarget].addr;
    b.max_long = std::min<std::size_t>(opt.max_long, seg[kTarget].size);
    const std::size_t buf_bytes = std::max<std::size_t>({b.max_long, gasnet_AMMaxMedium(), 64});
    b.src.assign(buf_bytes, 0x11);
    b.dst.assign(buf_bytes, 0x22);
    b.rate_dst.assign(std::size_t(opt.rate_window) * (kRateSizes.back() + kMedium2Wire), 0x22);
    if (opt.fresh_payload) b.rate_src.assign(std::size_t(opt.rate_window) * (kRateSizes.back() + kMedium2Wire), 0x11);
    // gasnet_init has initialized MPI (MPI_THREAD_MULTIPLE); raw MPI gets
    // its own communicator.
    mpi_check(MPI_Comm_dup(MPI_COMM_WORLD, &b.comm), "MPI_Comm_dup");
    (void)am_allreduce_sum(0);

    if (me == kOrigin) {
        print_environment(opt.quick ? " (--quick: smoke run, figures not meaningful)" : "");
        std::printf(
            "- latency: %ld round trips per loop (fewer above %s: at most %s of payload per loop), %d loops "
            "(+1 warm-up), median; throughput: %ld messages per loop; Long into node 1's segment of %s\n",
            opt.iters, size_label(std::max<std::size_t>(1, opt.lat_bytes / std::size_t(opt.iters))).c_str(),
            size_label(opt.lat_bytes).c_str(), opt.reps, opt.stream,
            size_label(std::size_t(seg[kTarget].size)).c_str());
        std::printf("- payload: %s\n", opt.fresh_payload
                                           ? "every loop writes each message's whole payload just before sending it "
                                             "(--fresh-payload)"
                                           : "written once; a round trip changes its first and last bytes");
        std::fflush(stdout);
        const auto t0 = Clock::now();
        if (opt.latency) b.latency_table();
        std::fflush(stdout);
        if (opt.throughput) b.throughput_table();
        std::fflush(stdout);
        if (opt.rate) b.rate_table();
        std::printf("\nload average at end %s; %.1f s measuring\n", loadavg().c_str(), seconds_since(t0));
        std::fflush(stdout);
        for (gasnet_node_t n = 1; n < nodes; ++n)
            am_check(gasnet_AMRequestShort3(n, H_COMMAND, CMD_QUIT, 0, 0), "gasnet_AMRequestShort3");
    } else {
        b.serve();
    }
    // Every node's failed checks, summed on node 0 (and returned to all).
    if (g_failures.load() && me != 0) std::printf("CHECK FAILED on node %u: %s\n", me, g_failure_text);
    const long failures = am_allreduce_sum(g_failures.load());
    if (me == 0) {
        if (g_failures.load()) std::printf("CHECK FAILED on node 0: %s\n", g_failure_text);
        std::printf("%s\n", failures ? "DATA CHECKS FAILED" : "all data checks passed");
        std::fflush(stdout);
    }
    mpi_check(MPI_Comm_free(&b.comm), "MPI_Comm_free");
    gasnet_exit(failures ? 1 : 0);
    return 0;
}

// ---- --compute-only mode ---------------------------------------------
//
// Every node runs the compute loop, all at once (after an MPI_Barrier),
// --compute-reps times in each of three phases:
//  1. before gasnet_init (MPI is initialized by the benchmark itself), so no
//     Gasket thread exists yet: the same run's no-Gasket reference;
//  2. after gasnet_attach, no communication ("idle");
//  3. after gasnet_attach, node 1 computes while node 0 sends it an H_TICK
//     request every --tick-us ("loaded"); other nodes wait.
// Node 0 prints the per-phase medians (idle phases: the slowest node of each
// round) and one RESULT line for progress-cost.py.

int run_compute(Options& opt, int argc, char** argv) {
    int provided = 0;
    mpi_check(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
    MPI_Comm comm = MPI_COMM_NULL;
    mpi_check(MPI_Comm_dup(MPI_COMM_WORLD, &comm), "MPI_Comm_dup");
    int rank = 0, size = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const int reps = opt.compute_reps;

    std::vector<double> pre, idle, loaded;
    (void)compute_seconds(opt.compute_iters / 4, rank);  // warm-up
    for (int r = 0; r < reps; ++r) {
        mpi_check(MPI_Barrier(comm), "MPI_Barrier");
        pre.push_back(compute_seconds(opt.compute_iters, rank));
    }

    am_check(gasnet_init(&argc, &argv), "gasnet_init");
    am_check(gasnet_attach(g_handlers, kHandlers, 0, 0), "gasnet_attach");
    if (gasnet_nodes() < 2) {
        std::fprintf(stderr, "bench-am: needs at least 2 nodes (oshrun -np 2 bench-am --compute-only)\n");
        gasnet_exit(1);
    }
    const gasnet_node_t me = gasnet_mynode();

    for (int r = 0; r < reps; ++r) {
        mpi_check(MPI_Barrier(comm), "MPI_Barrier");
        idle.push_back(compute_seconds(opt.compute_iters, rank));
    }

    // Loaded: node 0 ticks until node 1 reports it is done computing.
    const double per_loop_s = median(idle);
    const std::size_t max_ticks = std::size_t(per_loop_s * 4e6 / double(opt.tick_us)) + 1000;
    g_tick_delay_us.assign(2 * max_ticks * std::size_t(reps), -1.0);  // node 1's view of max_ticks may differ
    long sent_total = 0, served_during = 0;
    std::vector<double> served_frac;
    for (int r = 0; r < reps; ++r) {
        mpi_check(MPI_Barrier(comm), "MPI_Barrier");
        if (me == kTarget) {
            const long before = g_ticks_served.load(std::memory_order_acquire);
            loaded.push_back(compute_seconds(opt.compute_iters, rank));
            const long during = g_ticks_served.load(std::memory_order_acquire) - before;
            served_during += during;
            am_check(gasnet_AMRequestShort0(kOrigin, H_COMPUTE_DONE), "gasnet_AMRequestShort0");
        } else if (me == kOrigin) {
            g_compute_done.store(false);
            const auto tick = std::chrono::microseconds(opt.tick_us);
            auto next = Clock::now();
            long sent = 0;
            while (!g_compute_done.load(std::memory_order_acquire)) {
                const long seq = long(std::size_t(r) * max_ticks) + sent;
                if (std::size_t(sent) < max_ticks) {
                    const std::int64_t t = now_ns();
                    am_check(gasnet_AMRequestShort3(kTarget, H_TICK, gasnet_handlerarg_t(seq),
                                                    gasnet_handlerarg_t(std::uint32_t(std::uint64_t(t) >> 32)),
                                                    gasnet_handlerarg_t(std::uint32_t(t))),
                             "gasnet_AMRequestShort3");
                    ++sent;
                }
                next += tick;
                std::this_thread::sleep_until(next);
                gasnet_AMPoll();
            }
            sent_total += sent;
        }
        // Node 1 serves what is left (with the progress thread off, every
        // tick) until it has served all node 0 sent.
        const long total = am_allreduce_sum(me == kOrigin ? sent_total : 0);
        if (me == kTarget) GASNET_BLOCKUNTIL(g_ticks_served.load(std::memory_order_acquire) >= total);
        (void)am_allreduce_sum(0);
    }

    // Node 0 gathers every node's per-round times.
    std::vector<double> all_pre(std::size_t(size * reps)), all_idle(std::size_t(size * reps));
    mpi_check(MPI_Gather(pre.data(), reps, MPI_DOUBLE, all_pre.data(), reps, MPI_DOUBLE, 0, comm), "MPI_Gather");
    mpi_check(MPI_Gather(idle.data(), reps, MPI_DOUBLE, all_idle.data(), reps, MPI_DOUBLE, 0, comm), "MPI_Gather");
    // Node 1's loaded results to node 0.
    std::vector<double> delays;
    for (double d : g_tick_delay_us)
        if (d >= 0) delays.push_back(d);
    double target_stats[5] = {median(loaded), double(served_during), median(delays), quantile(delays, 0.99),
                              delays.empty() ? 0.0 : *std::max_element(delays.begin(), delays.end())};
    if (me == kTarget) mpi_check(MPI_Send(target_stats, 5, MPI_DOUBLE, 0, kTag, comm), "MPI_Send");
    if (me == kOrigin) {
        mpi_check(MPI_Recv(target_stats, 5, MPI_DOUBLE, int(kTarget), kTag, comm, MPI_STATUS_IGNORE), "MPI_Recv");
        // Slowest node of each round, then the median over rounds.
        auto slowest = [&](const std::vector<double>& all) {
            std::vector<double> worst(std::size_t(reps), 0.0);
            for (int n = 0; n < size; ++n)
                for (int r = 0; r < reps; ++r)
                    worst[std::size_t(r)] = std::max(worst[std::size_t(r)], all[std::size_t(n * reps + r)]);
            return median(worst);
        };
        auto node_median = [&](const std::vector<double>& all, int n) {
            return median(std::vector<double>(all.begin() + n * reps, all.begin() + (n + 1) * reps));
        };
        const double pre_ms = slowest(all_pre) * 1e3, idle_ms = slowest(all_idle) * 1e3;
        const double loaded_ms = target_stats[0] * 1e3;
        print_environment(" --compute-only");
        std::printf("- compute loop: %ld mixing steps, %d timed loops per phase (median)%s\n\n", opt.compute_iters,
                    reps, opt.quick ? " (--quick: figures not meaningful)" : "");
        std::printf("| phase | what runs | compute loop ms | per node ms |\n|---|---|---:|---|\n");
        std::string pre_nodes, idle_nodes;
        for (int n = 0; n < size; ++n) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%s%.1f", n ? ", " : "", node_median(all_pre, n) * 1e3);
            pre_nodes += buf;
            std::snprintf(buf, sizeof buf, "%s%.1f", n ? ", " : "", node_median(all_idle, n) * 1e3);
            idle_nodes += buf;
        }
        std::printf("| before gasnet_init | every node computes, no Gasket | %.1f | %s |\n", pre_ms, pre_nodes.c_str());
        std::printf("| idle | every node computes after gasnet_attach | %.1f | %s |\n", idle_ms, idle_nodes.c_str());
        std::printf("| loaded | node 1 computes, node 0 sends it a Short3 every %ld µs | %.1f | node 1 |\n",
                    opt.tick_us, loaded_ms);
        std::printf(
            "\nidle/before gasnet_init = %.3f (same run).  Loaded: %ld requests sent, %.0f handled while "
            "node 1 computed;\nrequest-to-handler delay on node 1: median %.1f µs, p99 %.1f µs, max %.1f "
            "µs.\n",
            idle_ms / pre_ms, sent_total, target_stats[1], target_stats[2], target_stats[3], target_stats[4]);
        std::printf(
            "RESULT progress_thread=%s pre_ms=%.3f idle_ms=%.3f loaded_ms=%.3f sent=%ld served_during=%.0f "
            "delay_med_us=%.1f delay_p99_us=%.1f\n",
            env_or("GASKET_PROGRESS_THREAD", "unset"), pre_ms, idle_ms, loaded_ms, sent_total, target_stats[1],
            target_stats[2], target_stats[3]);
        std::fflush(stdout);
    }
    mpi_check(MPI_Comm_free(&comm), "MPI_Comm_free");
    (void)am_allreduce_sum(0);
    gasnet_exit(0);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    if (int rc = parse_options(argc, argv, opt)) return rc == 1 ? 0 : 2;
    return opt.compute_only ? run_compute(opt, argc, argv) : run_bench(opt, argc, argv);
}
