// tests/bench/gex.cpp -- bench-gex: GASNet-EX's contiguous RMA (8-byte
// latency and throughput, bandwidth of 64 B - 256 KiB), Active Messages and
// remote atomics beside the GASNet-1 call that does the same
// (for an atomic, which GASNet-1 lacks: the AM a GASNet-1 client sends for
// one) and beside raw MPI, in one run (issue 17: GASNet-EX within 1.05x of
// GASNet-1 on both paths); then the same puts, gets and AM round trip to a
// created endpoint through a TM-pair beside the primordial endpoint's
// (issue 18), whose MPI column is MPI on memory it did not allocate (a
// dynamic window with kMadeSegment bytes attached, as Gasket reaches
// created segments): Open MPI reaches an MPI_Win_allocate window between
// node peers by load and store, and other memory by a copy between
// processes (a system call) per access, created window or dynamic alike.
// Run with 2 processes: oshrun -np 2 bench-gex [options].
//
// Process 0 measures against process 1's segment (Gasket) and an
// MPI_Win_allocate window (MPI, MPI_Win_lock_all for the whole run,
// accumulate_ordering=none); process 1 polls both (gasnet_AMPoll and
// MPI_Iprobe) until process 0 puts its "done" word.  Each row's three loops
// run in every round (bench::measure), so they see the same load; ratios
// are medians over rounds of the loops' ratio in one round.
#include <gasnet.h>
#include <gasnet_ratomic.h>
#include <gasnetex.h>
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.hpp"

namespace {

using bench::Clock;
using bench::measure;
using bench::mpi_check;
using bench::Rounds;

struct Options {
    long iters = 20000;  // operations per timed loop
    int reps = 21;
    long nbi_ops = 4096;  // operations per throughput loop
    bool quick = false;
};

constexpr gex_Rank_t kTarget = 1;
constexpr int kEchoTag = 77;  // the raw MPI round trip's tag

// Active Messages: a request handler that replies at once (GASNet-EX's with
// gex_AM_ReplyShort0, GASNet-1's with gasnet_AMReplyShort0), and the reply
// handler both use, which counts.  Handlers may run on the progress thread.
std::atomic<long> g_replies{0};
gex_AM_Index_t h_gex_ping, h_g1_ping, h_pong;
void gex_ping(gex_Token_t t) { gex_AM_ReplyShort0(t, h_pong, 0); }
void g1_ping(gasnet_token_t t) { gasnet_AMReplyShort0(t, h_pong); }
void pong(gex_Token_t) { g_replies.fetch_add(1, std::memory_order_release); }
// A GASNet-1 client's remote fetch-add: a Short request whose handler adds 1
// to process 1's counter and replies with the old value (two arguments).
gex_AM_Index_t h_g1_fadd, h_g1_fadd_reply;
uint64_t* g_g1_counter = nullptr;  // process 1: its own counter
std::atomic<uint64_t> g_g1_fetched{0};
void g1_fadd(gasnet_token_t t) {
    const uint64_t old = __atomic_fetch_add(g_g1_counter, 1, __ATOMIC_ACQ_REL);
    gasnet_AMReplyShort2(t, h_g1_fadd_reply, gasnet_handlerarg_t(uint32_t(old)), gasnet_handlerarg_t(old >> 32));
}
void g1_fadd_reply(gasnet_token_t, gasnet_handlerarg_t lo, gasnet_handlerarg_t hi) {
    g_g1_fetched.store(uint64_t(uint32_t(lo)) | uint64_t(uint32_t(hi)) << 32, std::memory_order_relaxed);
    g_replies.fetch_add(1, std::memory_order_release);
}
constexpr uintptr_t kSegment = uintptr_t(4) << 20;
// Bandwidth: process 1's segment takes the puts at [kBwPut, +kBwMax) and
// serves the gets from [kBwGet, +kBwMax), which it fills with bw_byte();
// MPI's puts and gets use [0, kBwMax) of the window.
constexpr std::size_t kBwMax = 256 * 1024, kBwPut = std::size_t(1) << 20, kBwGet = std::size_t(2) << 20;
inline char bw_byte(std::size_t i) { return char(i * 13 + 5); }
constexpr std::size_t kSlots = 8192;       // 8-byte slots of the throughput loops
constexpr std::size_t kCounters = 10;      // the region of the fetch-add counters (slot 0: EX, 1: GASNet-1)
constexpr MPI_Aint kMpiCounter = 1 << 19;  // MPI's, in the window (past the throughput loops' 64 KiB)
constexpr uintptr_t kMadeSegment = 64 * 1024;

struct Bench {
    Options opt;
    gex_Client_t client{};
    gex_EP_t ep{};
    gex_TM_t tm{};
    gex_Segment_t seg{};
    // A created endpoint on each process with a GASNet-allocated segment of
    // kMadeSegment bytes, published (memory kinds, issue 18), and process
    // 1's as its owner sees it.
    gex_EP_t made_ep{};
    gex_Segment_t made_seg{};
    gex_EP_Index_t made_index = 0;
    char* made_remote = nullptr;
    gex_AD_t ad{};           // U64, GEX_OP_FADD
    char* remote = nullptr;  // process 1's segment (its owner's address)
    MPI_Win win = MPI_WIN_NULL;
    char* win_base = nullptr;
    // The floor for created endpoints: a dynamic window over kMadeSegment
    // bytes of memory MPI did not allocate, and process 1's displacement.
    MPI_Win dyn = MPI_WIN_NULL;
    std::vector<char> dyn_memory = std::vector<char>(kMadeSegment);
    MPI_Aint dyn_remote = 0;
    std::vector<long> src = std::vector<long>(kSlots), got = std::vector<long>(kSlots);
    std::vector<gex_Event_t> events = std::vector<gex_Event_t>(kSlots);
    std::vector<char> bw_src = std::vector<char>(kBwMax), bw_dst = std::vector<char>(3 * kBwMax);
    long failures = 0;

    void check(const char* what, long value, long want) {
        if (value == want) return;
        std::printf("DATA CHECK FAILED: %s: %ld, expected %ld\n", what, value, want);
        ++failures;
    }
    char* slot(std::size_t region, std::size_t i) const { return remote + region * kSlots * 8 + i * 8; }

    template <class Op>
    double us(Op&& op) const {
        return bench::us_per_op(opt.iters, op);
    }
    // n operations then their sync, in million operations per second.
    template <class Op, class Sync>
    double mops(Op&& op, Sync&& sync) const {
        return bench::mops_per_s(opt.nbi_ops, op, sync);
    }

    // One table: for each row, GASNet-EX, GASNet-1 and MPI loops.
    struct Row {
        const char* gex;
        const char* gasnet1;
        const char* mpi;
        bench::Loop g, g1, m;
    };
    // `first`, `second`: the first two columns' names (`short1`, `short2`:
    // in the ratio columns).
    std::vector<std::pair<std::string, double>> table(const char* title, const char* unit, bool rate,
                                                      std::vector<Row> rows, const char* first = "GASNet-EX",
                                                      const char* second = "GASNet-1", const char* short1 = "EX",
                                                      const char* short2 = "GASNet-1") {
        std::vector<bench::Loop> loops;
        for (const Row& r : rows) loops.insert(loops.end(), {r.g, r.g1, r.m});
        const Rounds f = measure(opt.reps, loops);
        std::printf("\n### %s, %s (median of %d loops)\n\n", title, unit, opt.reps);
        std::printf("| %s | %s | %s | %s | MPI | %s | %s / %s | %s / MPI |\n", first, unit, second, unit, unit, short1,
                    short2, short1);
        std::printf("|---|---:|---|---:|---|---:|---:|---:|\n");
        std::vector<std::pair<std::string, double>> slow;  // time ratio EX / GASNet-1
        for (std::size_t k = 0; k < rows.size(); ++k) {
            const std::size_t g = 3 * k, g1 = g + 1, m = g + 2;
            const double q1 = rate ? f.ratio(g1, g) : f.ratio(g, g1), qm = rate ? f.ratio(m, g) : f.ratio(g, m);
            std::printf("| %s | %.4f | %s | %.4f | %s | %.4f | %.3f | %.2f |\n", rows[k].gex, f.median_of(g),
                        rows[k].gasnet1, f.median_of(g1), rows[k].mpi, f.median_of(m), q1, qm);
            slow.emplace_back(rows[k].gex, q1);
        }
        std::printf("\n%s / %s and %s / MPI: time ratios (> 1: %s is slower).\n", short1, short2, short1, first);
        return slow;
    }

    std::vector<std::pair<std::string, double>> latency() {
        const gex_TM_t t = tm;  // lambdas capture the copy, not `this`
        long* s = src.data();
        long* r = got.data();
        const MPI_Win w = win;
        char *p0 = slot(0, 0), *p1 = slot(0, 1), *p2 = slot(0, 2), *p3 = slot(0, 3);
        std::memcpy(win_base + 8 * 4, "abcdefgh", 8);
        const long word = 0x1234;
        gasnet_put(kTarget, p3, const_cast<long*>(&word), 8);
        auto rows = table(
            "8-byte latency", "µs per operation", false,
            {{"gex_RMA_PutBlocking", "gasnet_put", "MPI_Put + MPI_Win_flush",
              [=, this] {
                  return us([=](long i) {
                      *s = i;
                      gex_RMA_PutBlocking(t, kTarget, p0, s, 8, 0);
                  });
              },
              [=, this] {
                  return us([=](long i) {
                      *s = i;
                      gasnet_put(kTarget, p1, s, 8);
                  });
              },
              [=, this] {
                  return us([=](long i) {
                      *s = i;
                      MPI_Put(s, 8, MPI_BYTE, int(kTarget), 0, 8, MPI_BYTE, w);
                      MPI_Win_flush(int(kTarget), w);
                  });
              }},
             {"gex_RMA_PutBlockingVal", "gasnet_put_val", "MPI_Put + MPI_Win_flush",
              [=, this] {
                  return us([=](long i) { gex_RMA_PutBlockingVal(t, kTarget, p2, gex_RMA_Value_t(i), 8, 0); });
              },
              [=, this] { return us([=](long i) { gasnet_put_val(kTarget, p2, gasnet_register_value_t(i), 8); }); },
              [=, this] {
                  return us([=](long i) {
                      *s = i;
                      MPI_Put(s, 8, MPI_BYTE, int(kTarget), 8, 8, MPI_BYTE, w);
                      MPI_Win_flush(int(kTarget), w);
                  });
              }},
             {"gex_RMA_GetBlocking", "gasnet_get", "MPI_Get + MPI_Win_flush",
              [=, this] { return us([=](long) { gex_RMA_GetBlocking(t, r, kTarget, p3, 8, 0); }); },
              [=, this] { return us([=](long) { gasnet_get(r + 1, kTarget, p3, 8); }); },
              [=, this] {
                  return us([=](long) {
                      MPI_Get(r + 2, 8, MPI_BYTE, int(kTarget), 32, 8, MPI_BYTE, w);
                      MPI_Win_flush(int(kTarget), w);
                  });
              }},
             {"gex_RMA_GetBlockingVal", "gasnet_get_val", "MPI_Get + MPI_Win_flush",
              [=, this] { return us([=](long) { r[3] = long(gex_RMA_GetBlockingVal(t, kTarget, p3, 8, 0)); }); },
              [=, this] { return us([=](long) { r[4] = long(gasnet_get_val(kTarget, p3, 8)); }); },
              [=, this] {
                  return us([=](long) {
                      MPI_Get(r + 5, 8, MPI_BYTE, int(kTarget), 32, 8, MPI_BYTE, w);
                      MPI_Win_flush(int(kTarget), w);
                  });
              }}});
        const long last = opt.iters - 1;
        check("gex_RMA_PutBlocking: the target's word", long(gasnet_get_val(kTarget, p0, 8)), last);
        check("gasnet_put: the target's word", long(gasnet_get_val(kTarget, p1, 8)), last);
        check("gex_RMA_PutBlockingVal: the target's word", long(gasnet_get_val(kTarget, p2, 8)), last);
        check("gex_RMA_GetBlocking", r[0], word);
        check("gasnet_get", r[1], word);
        check("gex_RMA_GetBlockingVal", r[3], word);
        check("gasnet_get_val", r[4], word);
        long mpi_word = 0;
        std::memcpy(&mpi_word, "abcdefgh", 8);
        check("MPI_Get", r[2], mpi_word);
        return rows;
    }

    std::vector<std::pair<std::string, double>> throughput() {
        const gex_TM_t t = tm;  // lambdas capture the copy, not `this`
        long* s = src.data();
        long* r = got.data();
        gex_Event_t* ev = events.data();
        const MPI_Win w = win;
        const long n = opt.nbi_ops;
        char *a = slot(1, 0), *b = slot(2, 0), *c = slot(3, 0), *d = slot(4, 0);
        for (long i = 0; i < n; ++i) s[i] = i + 1;
        auto rows =
            table("8-byte throughput, n operations then one sync", "Mops per s", true,
                  {{"gex_RMA_PutNBI (GEX_EVENT_NOW) x n, gex_NBI_Wait", "gasnet_put_nbi x n, gasnet_wait_syncnbi_puts",
                    "MPI_Put x n, MPI_Win_flush",
                    [=, this] {
                        return mops([=](long i) { gex_RMA_PutNBI(t, kTarget, a + 8 * i, s + i, 8, GEX_EVENT_NOW, 0); },
                                    [] { gex_NBI_Wait(GEX_EC_PUT, 0); });
                    },
                    [=, this] {
                        return mops([=](long i) { gasnet_put_nbi(kTarget, b + 8 * i, s + i, 8); },
                                    [] { gasnet_wait_syncnbi_puts(); });
                    },
                    [=, this] {
                        return mops([=](long i) { MPI_Put(s + i, 8, MPI_BYTE, int(kTarget), 8 * i, 8, MPI_BYTE, w); },
                                    [=] { MPI_Win_flush(int(kTarget), w); });
                    }},
                   {"gex_RMA_PutNB (GEX_EVENT_DEFER) x n, gex_Event_WaitAll",
                    "gasnet_put_nb_bulk x n, gasnet_wait_syncnb_all", "MPI_Put x n, MPI_Win_flush",
                    [=, this] {
                        return mops(
                            [=](long i) { ev[i] = gex_RMA_PutNB(t, kTarget, c + 8 * i, s + i, 8, GEX_EVENT_DEFER, 0); },
                            [=] { gex_Event_WaitAll(ev, std::size_t(n), 0); });
                    },
                    [=, this] {
                        return mops([=](long i) { ev[i] = gasnet_put_nb_bulk(kTarget, d + 8 * i, s + i, 8); },
                                    [=] { gasnet_wait_syncnb_all(ev, std::size_t(n)); });
                    },
                    [=, this] {
                        return mops([=](long i) { MPI_Put(s + i, 8, MPI_BYTE, int(kTarget), 8 * i, 8, MPI_BYTE, w); },
                                    [=] { MPI_Win_flush(int(kTarget), w); });
                    }},
                   {"gex_RMA_GetNBI x n, gex_NBI_Wait", "gasnet_get_nbi x n, gasnet_wait_syncnbi_gets",
                    "MPI_Get x n, MPI_Win_flush",
                    [=, this] {
                        return mops([=](long i) { gex_RMA_GetNBI(t, r + i, kTarget, a + 8 * i, 8, 0); },
                                    [] { gex_NBI_Wait(GEX_EC_GET, 0); });
                    },
                    [=, this] {
                        return mops([=](long i) { gasnet_get_nbi(r + i, kTarget, b + 8 * i, 8); },
                                    [] { gasnet_wait_syncnbi_gets(); });
                    },
                    [=, this] {
                        return mops([=](long i) { MPI_Get(r + i, 8, MPI_BYTE, int(kTarget), 8 * i, 8, MPI_BYTE, w); },
                                    [=] { MPI_Win_flush(int(kTarget), w); });
                    }}});
        for (long i : {0L, n / 2, n - 1}) {
            check("gex_RMA_PutNBI: a target slot", long(gasnet_get_val(kTarget, a + 8 * i, 8)), i + 1);
            check("gasnet_put_nbi: a target slot", long(gasnet_get_val(kTarget, b + 8 * i, 8)), i + 1);
            check("gex_RMA_PutNB: a target slot", long(gasnet_get_val(kTarget, c + 8 * i, 8)), i + 1);
        }
        return rows;
    }
    // Bandwidth: blocking contiguous puts and gets of 64 B to 256 KiB, the
    // same destination every time; GASNet-1's bulk forms; MPI's call + flush.
    std::vector<std::pair<std::string, double>> bandwidth() {
        const gex_TM_t t = tm;  // lambdas capture the copy, not `this`
        char* const s = bw_src.data();
        char* const dg = bw_dst.data();
        char* const dg1 = bw_dst.data() + kBwMax;
        char* const dm = bw_dst.data() + 2 * kBwMax;
        char* const put_at = remote + kBwPut;
        char* const get_at = remote + kBwGet;
        const MPI_Win w = win;
        for (std::size_t i = 0; i < kBwMax; ++i) s[i] = char(i * 7 + 1);
        const std::size_t bytes_per_loop = opt.quick ? std::size_t(1) << 20 : std::size_t(16) << 20;
        std::vector<Row> rows;
        std::vector<std::string> names;  // the rows' labels, alive as long as rows
        names.reserve(3 * 2 * 4);
        for (bool put : {true, false}) {
            for (std::size_t size : {std::size_t(64), std::size_t(1024), std::size_t(16384), kBwMax}) {
                const long n = long(std::max<std::size_t>(16, std::min<std::size_t>(bytes_per_loop / size, 20000)));
                const int sz = int(size);
                auto gbps = [n, size](auto op) {
                    const auto t0 = Clock::now();
                    for (long i = 0; i < n; ++i) op();
                    return double(size) * double(n) / bench::seconds_since(t0) / 1e9;
                };
                const std::string label = bench::size_label(size);
                names.push_back((put ? "gex_RMA_PutBlocking " : "gex_RMA_GetBlocking ") + label);
                names.push_back((put ? "gasnet_put_bulk " : "gasnet_get_bulk ") + label);
                names.push_back(std::string(put ? "MPI_Put + MPI_Win_flush " : "MPI_Get + MPI_Win_flush ") + label);
                const char* l[3] = {names[names.size() - 3].c_str(), names[names.size() - 2].c_str(),
                                    names.back().c_str()};
                if (put)
                    rows.push_back({l[0], l[1], l[2],
                                    [=] { return gbps([=] { gex_RMA_PutBlocking(t, kTarget, put_at, s, size, 0); }); },
                                    [=] { return gbps([=] { gasnet_put_bulk(kTarget, put_at, s, size); }); },
                                    [=] {
                                        return gbps([=] {
                                            MPI_Put(s, sz, MPI_BYTE, int(kTarget), 0, sz, MPI_BYTE, w);
                                            MPI_Win_flush(int(kTarget), w);
                                        });
                                    }});
                else
                    rows.push_back({l[0], l[1], l[2],
                                    [=] { return gbps([=] { gex_RMA_GetBlocking(t, dg, kTarget, get_at, size, 0); }); },
                                    [=] { return gbps([=] { gasnet_get_bulk(dg1, kTarget, get_at, size); }); },
                                    [=] {
                                        return gbps([=] {
                                            MPI_Get(dm, sz, MPI_BYTE, int(kTarget), 0, sz, MPI_BYTE, w);
                                            MPI_Win_flush(int(kTarget), w);
                                        });
                                    }});
            }
        }
        auto slow = table("Bandwidth of blocking transfers, the same destination each time", "GB/s", true, rows);
        // The largest put landed whole; the largest gets brought process 1's bytes.
        std::vector<char> back(kBwMax);
        gex_RMA_GetBlocking(t, back.data(), kTarget, put_at, kBwMax, 0);
        long bad_put = 0, bad_ex = 0, bad_g1 = 0;
        for (std::size_t i = 0; i < kBwMax; ++i) {
            bad_put += back[i] != s[i];
            bad_ex += dg[i] != bw_byte(i);
            bad_g1 += dg1[i] != bw_byte(i);
        }
        check("bandwidth puts: bytes differing at the target", bad_put, 0);
        check("gex_RMA_GetBlocking: bytes differing from the source", bad_ex, 0);
        check("gasnet_get_bulk: bytes differing from the source", bad_g1, 0);
        return slow;
    }

    // AM round trips: a Short request, its handler replies Short, the sender
    // waits for the reply (GASNET_BLOCKUNTIL); MPI: MPI_Send of 0 bytes,
    // process 1 echoes it back (its polling loop), MPI_Recv.
    std::vector<std::pair<std::string, double>> am_latency() {
        const long before = g_replies.load();
        gex_TM_t t = tm;
        auto rows =
            table("Active Message round trip", "µs per round trip", false,
                  {{"gex_AM_RequestShort0 + gex_AM_ReplyShort0", "gasnet_AMRequestShort0 + gasnet_AMReplyShort0",
                    "MPI_Send 0 B + MPI_Recv of the echo",
                    [=, this] {
                        return us([=](long) {
                            const long want = g_replies.load() + 1;
                            gex_AM_RequestShort0(t, kTarget, h_gex_ping, 0);
                            GASNET_BLOCKUNTIL(g_replies.load(std::memory_order_acquire) >= want);
                        });
                    },
                    [=, this] {
                        return us([=](long) {
                            const long want = g_replies.load() + 1;
                            gasnet_AMRequestShort0(kTarget, h_g1_ping);
                            GASNET_BLOCKUNTIL(g_replies.load(std::memory_order_acquire) >= want);
                        });
                    },
                    [=, this] {
                        return us([=](long) {
                            MPI_Send(nullptr, 0, MPI_BYTE, int(kTarget), kEchoTag, MPI_COMM_WORLD);
                            MPI_Recv(nullptr, 0, MPI_BYTE, int(kTarget), kEchoTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        });
                    }}});
        // Every request got its reply: 2 loops x (reps + 1 warm-up) x iters.
        check("AM replies received", g_replies.load() - before, 2L * (opt.reps + 1) * opt.iters);
        return rows;
    }
    // Created endpoints (memory kinds): an 8-byte blocking put and get into
    // process 1's created endpoint's segment through the TM-pair of the
    // created endpoints, and an AM round trip between them, beside the same
    // call between the primordial endpoints and raw MPI.
    void endpoints() {
        const gex_TM_t t = tm, pair = gex_TM_Pair(made_ep, made_index);
        long* s = src.data();
        long* r = got.data();
        const MPI_Win w = dyn;
        const MPI_Aint d0 = dyn_remote, d1 = dyn_remote + 8;
        char *p0 = slot(5, 0), *p1 = slot(5, 1), *e0 = made_remote, *e1 = made_remote + 8;
        const long word = 0x5678;
        gex_RMA_PutBlocking(pair, kTarget, e1, &word, 8, 0);
        gasnet_put(kTarget, p1, const_cast<long*>(&word), 8);
        const long before = g_replies.load();
        const gex_AM_Index_t ping = h_gex_ping;
        table("Created endpoints (memory kinds), 8 bytes and AM round trip", "µs per operation", false,
              {{"gex_RMA_PutBlocking (TM-pair of created endpoints)", "gex_RMA_PutBlocking (primordial team)",
                "MPI_Put + MPI_Win_flush, dynamic window",
                [=, this] {
                    return us([=](long i) {
                        *s = i;
                        gex_RMA_PutBlocking(pair, kTarget, e0, s, 8, 0);
                    });
                },
                [=, this] {
                    return us([=](long i) {
                        *s = i;
                        gex_RMA_PutBlocking(t, kTarget, p0, s, 8, 0);
                    });
                },
                [=, this] {
                    return us([=](long i) {
                        *s = i;
                        MPI_Put(s, 8, MPI_BYTE, int(kTarget), d0, 8, MPI_BYTE, w);
                        MPI_Win_flush(int(kTarget), w);
                    });
                }},
               {"gex_RMA_GetBlocking (TM-pair of created endpoints)", "gex_RMA_GetBlocking (primordial team)",
                "MPI_Get + MPI_Win_flush, dynamic window",
                [=, this] { return us([=](long) { gex_RMA_GetBlocking(pair, r, kTarget, e1, 8, 0); }); },
                [=, this] { return us([=](long) { gex_RMA_GetBlocking(t, r + 1, kTarget, p1, 8, 0); }); },
                [=, this] {
                    return us([=](long) {
                        MPI_Get(r + 2, 8, MPI_BYTE, int(kTarget), d1, 8, MPI_BYTE, w);
                        MPI_Win_flush(int(kTarget), w);
                    });
                }},
               {"gex_AM_RequestShort0 + ReplyShort0 (TM-pair of created endpoints)",
                "gex_AM_RequestShort0 + ReplyShort0 (primordial team)", "MPI_Send 0 B + MPI_Recv of the echo",
                [=, this] {
                    return us([=](long) {
                        const long want = g_replies.load() + 1;
                        gex_AM_RequestShort0(pair, kTarget, ping, 0);
                        GASNET_BLOCKUNTIL(g_replies.load(std::memory_order_acquire) >= want);
                    });
                },
                [=, this] {
                    return us([=](long) {
                        const long want = g_replies.load() + 1;
                        gex_AM_RequestShort0(t, kTarget, ping, 0);
                        GASNET_BLOCKUNTIL(g_replies.load(std::memory_order_acquire) >= want);
                    });
                },
                [=, this] {
                    return us([=](long) {
                        MPI_Send(nullptr, 0, MPI_BYTE, int(kTarget), kEchoTag, MPI_COMM_WORLD);
                        MPI_Recv(nullptr, 0, MPI_BYTE, int(kTarget), kEchoTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    });
                }}},
              "created endpoint", "primordial endpoint", "created", "primordial");
        const long last = opt.iters - 1;
        long landed = 0;
        gex_RMA_GetBlocking(pair, &landed, kTarget, e0, 8, 0);
        check("gex_RMA_PutBlocking (created): the target's word", landed, last);
        check("gex_RMA_GetBlocking (created)", r[0], word);
        check("gex_RMA_GetBlocking (primordial)", r[1], word);
        check("MPI_Get (dynamic window)", r[2], 0x1234);
        check("AM replies received (created and primordial)", g_replies.load() - before,
              2L * (opt.reps + 1) * opt.iters);
    }
    // Remote fetch-add of 1 to a 64-bit counter, each waited for: GASNet-EX's
    // gex_AD_OpNB_U64 (GEX_OP_FADD) + gex_Event_Wait; a GASNet-1 client's AM
    // (g1_fadd); MPI_Fetch_and_op + MPI_Win_flush.
    std::vector<std::pair<std::string, double>> fetch_add() {
        const gex_AD_t d = ad;
        uint64_t* counter = reinterpret_cast<uint64_t*>(slot(kCounters, 0));
        const MPI_Win w = win;
        const long before = g_replies.load();
        auto rows = table("Remote atomic fetch-add, 8 bytes", "µs per operation", false,
                          {{"gex_AD_OpNB_U64(GEX_OP_FADD) + gex_Event_Wait",
                            "gasnet_AMRequestShort0 + fetch-add handler's reply", "MPI_Fetch_and_op + MPI_Win_flush",
                            [=, this] {
                                return us([=](long) {
                                    uint64_t old;
                                    gex_Event_Wait(gex_AD_OpNB_U64(d, &old, kTarget, counter, GEX_OP_FADD, 1, 0, 0));
                                });
                            },
                            [=, this] {
                                return us([=](long) {
                                    const long want = g_replies.load() + 1;
                                    gasnet_AMRequestShort0(kTarget, h_g1_fadd);
                                    GASNET_BLOCKUNTIL(g_replies.load(std::memory_order_acquire) >= want);
                                });
                            },
                            [=, this] {
                                return us([=](long) {
                                    const uint64_t one = 1;
                                    uint64_t old;
                                    MPI_Fetch_and_op(&one, &old, MPI_UINT64_T, int(kTarget), kMpiCounter, MPI_SUM, w);
                                    MPI_Win_flush(int(kTarget), w);
                                });
                            }}});
        // Every loop added (reps + 1 warm-up) x iters.
        const long total = long(opt.reps + 1) * opt.iters;
        uint64_t ex = 0;
        gex_Event_Wait(gex_AD_OpNB_U64(d, &ex, kTarget, counter, GEX_OP_FADD, 0, 0, 0));
        check("gex_AD_OpNB_U64: the counter", long(ex), total);
        check("GASNet-1 AM fetch-add: the last old value", long(g_g1_fetched.load()), total - 1);
        check("GASNet-1 AM fetch-add: replies", g_replies.load() - before, total);
        uint64_t m = 0;
        const uint64_t zero = 0;
        MPI_Fetch_and_op(&zero, &m, MPI_UINT64_T, int(kTarget), kMpiCounter, MPI_SUM, w);
        MPI_Win_flush(int(kTarget), w);
        check("MPI_Fetch_and_op: the counter", long(m), total);
        return rows;
    }
};

}  // namespace

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    Bench b;
    po::options_description desc(
        "bench-gex: GASNet-EX contiguous RMA, AMs and remote atomics beside GASNet-1 and raw MPI.\n"
        "Run with 2 processes: oshrun -np 2 bench-gex [options]\nOptions");
    desc.add_options()("help,h", "print this help")("iters", po::value<long>(&b.opt.iters),
                                                    "latency: operations per timed loop (default 20000)")(
        "reps", po::value<int>(&b.opt.reps), "timed loops per figure; the median is reported (default 21)")(
        "nbi-ops", po::value<long>(&b.opt.nbi_ops), "throughput: operations per loop, at most 8192 (default 4096)")(
        "quick", "smoke run: --iters 1000 --reps 3 --nbi-ops 512 unless given");
    po::variables_map vm;
    if (const int rc = bench::parse_command_line("bench-gex", argc, argv, desc, vm)) return rc == 1 ? 0 : rc;
    if (vm.count("quick")) {
        if (!vm.count("iters")) b.opt.iters = 1000;
        if (!vm.count("reps")) b.opt.reps = 3;
        if (!vm.count("nbi-ops")) b.opt.nbi_ops = 512;
    }
    if (b.opt.iters < 1 || b.opt.reps < 1 || b.opt.nbi_ops < 1 || b.opt.nbi_ops > long(kSlots)) {
        std::fprintf(stderr, "bench-gex: --iters, --reps must be >= 1 and --nbi-ops in 1..%zu\n", kSlots);
        return 2;
    }
    if (gex_Client_Init(&b.client, &b.ep, &b.tm, "BENCH_GEX", &argc, &argv, GEX_FLAG_USES_GASNET1) != GASNET_OK)
        return 1;
    gex_AM_Entry_t handlers[] = {
        {0, reinterpret_cast<gex_AM_Fn_t>(&gex_ping), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, nullptr, "gex_ping"},
        {0, reinterpret_cast<gex_AM_Fn_t>(&g1_ping), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, nullptr, "g1_ping"},
        {0, reinterpret_cast<gex_AM_Fn_t>(&pong), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 0, nullptr, "pong"},
        {0, reinterpret_cast<gex_AM_Fn_t>(&g1_fadd), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, nullptr, "g1_fadd"},
        {0, reinterpret_cast<gex_AM_Fn_t>(&g1_fadd_reply), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 2, nullptr,
         "g1_fadd_reply"},
    };
    if (gex_EP_RegisterHandlers(b.ep, handlers, 5) != GASNET_OK) gasnet_exit(1);
    h_gex_ping = handlers[0].gex_index;
    h_g1_ping = handlers[1].gex_index;
    h_pong = handlers[2].gex_index;
    h_g1_fadd = handlers[3].gex_index;
    h_g1_fadd_reply = handlers[4].gex_index;
    if (gex_Segment_Attach(&b.seg, b.tm, kSegment) != GASNET_OK) gasnet_exit(1);
    g_g1_counter =
        reinterpret_cast<uint64_t*>(static_cast<char*>(gex_Segment_QueryAddr(b.seg)) + kCounters * kSlots * 8 + 8);
    gex_AD_Create(&b.ad, b.tm, GEX_DT_U64, GEX_OP_FADD, 0);  // collective
    // The created endpoint, its segment, published (collective), and its
    // handlers: the same ping and pong as the primordial endpoint's.
    if (gex_EP_Create(&b.made_ep, b.client, GEX_EP_CAPABILITY_ALL, 0) != GASNET_OK ||
        gex_Segment_Create(&b.made_seg, b.client, nullptr, kMadeSegment, GEX_MK_HOST, 0) != GASNET_OK ||
        gex_EP_BindSegment(b.made_ep, b.made_seg, 0) != GASNET_OK ||
        gex_EP_PublishBoundSegment(b.tm, &b.made_ep, 1, 0) != GASNET_OK)
        gasnet_exit(1);
    b.made_index = gex_EP_QueryIndex(b.made_ep);
    gex_AM_Entry_t made_handlers[] = {
        {h_gex_ping, reinterpret_cast<gex_AM_Fn_t>(&gex_ping), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, nullptr,
         "gex_ping"},
        {h_pong, reinterpret_cast<gex_AM_Fn_t>(&pong), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 0, nullptr, "pong"},
    };
    if (gex_EP_RegisterHandlers(b.made_ep, made_handlers, 2) != GASNET_OK) gasnet_exit(1);
    const gex_Rank_t me = gex_TM_QueryRank(b.tm);
    if (gex_TM_QuerySize(b.tm) != 2) {
        if (me == 0) std::fprintf(stderr, "bench-gex: run with exactly 2 processes\n");
        gasnet_exit(2);
    }
    void* owner = nullptr;
    gex_Event_Wait(gex_EP_QueryBoundSegmentNB(b.tm, kTarget, &owner, nullptr, nullptr, 0));
    b.remote = static_cast<char*>(owner);
    gex_Event_Wait(
        gex_EP_QueryBoundSegmentNB(gex_TM_Pair(b.made_ep, b.made_index), kTarget, &owner, nullptr, nullptr, 0));
    b.made_remote = static_cast<char*>(owner);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "accumulate_ordering", "none");
    mpi_check(MPI_Win_allocate(1 << 20, 1, info, MPI_COMM_WORLD, &b.win_base, &b.win), "MPI_Win_allocate");
    MPI_Info_free(&info);
    mpi_check(MPI_Win_lock_all(MPI_MODE_NOCHECK, b.win), "MPI_Win_lock_all");
    mpi_check(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &b.dyn), "MPI_Win_create_dynamic");
    mpi_check(MPI_Win_attach(b.dyn, b.dyn_memory.data(), MPI_Aint(kMadeSegment)), "MPI_Win_attach");
    const long dyn_word = 0x1234;  // what the dynamic window's get row reads
    std::memcpy(b.dyn_memory.data() + 8, &dyn_word, 8);
    MPI_Aint dyn_mine = 0;
    MPI_Get_address(b.dyn_memory.data(), &dyn_mine);
    mpi_check(MPI_Sendrecv(&dyn_mine, 1, MPI_AINT, int(1 - me), 0, &b.dyn_remote, 1, MPI_AINT, int(1 - me), 0,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              "MPI_Sendrecv");
    mpi_check(MPI_Win_lock_all(MPI_MODE_NOCHECK, b.dyn), "MPI_Win_lock_all");
    std::memcpy(b.win_base + 32, "abcdefgh", 8);
    std::memset(b.win_base + kMpiCounter, 0, 8);
    std::memset(static_cast<char*>(gex_Segment_QueryAddr(b.seg)) + kCounters * kSlots * 8, 0, 16);
    for (std::size_t i = 0; i < kBwMax; ++i) static_cast<char*>(gex_Segment_QueryAddr(b.seg))[kBwGet + i] = bw_byte(i);
    MPI_Win_sync(b.win);
    MPI_Win_sync(b.dyn);
    MPI_Barrier(MPI_COMM_WORLD);
    // The "done" word: the last 8 bytes of process 1's segment.
    volatile long* done =
        reinterpret_cast<volatile long*>(static_cast<char*>(gex_Segment_QueryAddr(b.seg)) + kSegment - 8);
    int rc = 0;
    if (me == 1) {
        int flag = 0;
        while (*done == 0) {
            gasnet_AMPoll();
            MPI_Iprobe(0, kEchoTag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            if (flag) {  // the raw MPI round trip: echo it
                MPI_Recv(nullptr, 0, MPI_BYTE, 0, kEchoTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(nullptr, 0, MPI_BYTE, 0, kEchoTag, MPI_COMM_WORLD);
            }
        }
    } else {
        const char* fp = std::getenv("GASKET_NODE_FASTPATH");
        std::printf("## bench-gex: 2 processes, jobrank 0 -> jobrank 1\n\n");
        std::printf("- GASKET_NODE_FASTPATH=%s\n- MPI: %s\n", fp ? fp : "(unset: on)", bench::mpi_library().c_str());
        bench::print_machine();
        std::printf("- latency: %ld ops per loop; throughput: %ld ops per loop; %d loops (+1 warm-up), median\n",
                    b.opt.iters, b.opt.nbi_ops, b.opt.reps);
        auto slow = b.latency();
        auto more = b.throughput();
        slow.insert(slow.end(), more.begin(), more.end());
        auto am = b.am_latency();
        slow.insert(slow.end(), am.begin(), am.end());
        auto fadd = b.fetch_add();
        slow.insert(slow.end(), fadd.begin(), fadd.end());
        auto bw = b.bandwidth();
        slow.insert(slow.end(), bw.begin(), bw.end());
        b.endpoints();  // not in the EX / GASNet-1 target
        double worst = 0;
        std::string which;
        for (const auto& [name, q] : slow)
            if (q > worst) worst = q, which = name;
        std::printf("\nRESULT GASNet-EX / GASNet-1, slowest row: %.3f (%s) (target <= 1.05: %s)\n", worst,
                    which.c_str(), worst <= 1.05 ? "met" : "not met");
        std::printf("\nload average at end %s; %s\n", bench::loadavg().c_str(),
                    b.failures ? "DATA CHECKS FAILED" : "all data checks passed");
        const long one = 1;
        gex_RMA_PutBlocking(b.tm, kTarget, b.remote + kSegment - 8, &one, 8, 0);
        rc = b.failures ? 1 : 0;
    }
    MPI_Win_unlock_all(b.dyn);
    MPI_Win_detach(b.dyn, b.dyn_memory.data());
    MPI_Win_free(&b.dyn);
    MPI_Win_unlock_all(b.win);
    MPI_Win_free(&b.win);
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gex_AD_Destroy(b.ad);  // collective, after every operation completed
    gasnet_exit(rc);
}
