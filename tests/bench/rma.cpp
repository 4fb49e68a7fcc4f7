// tests/bench/rma.cpp -- bench-rma: OpenSHMEM RMA latency and bandwidth on
// Gasket against raw MPI-3 RMA measured in the same run.
//
//   oshrun -np 2 bench-rma [--iters N] [--reps R] [--max-size 4M] [--quick]
//
// PE 0 is the origin and does all the measuring; PE 1 is the target and
// waits in shmem_barrier_all (inside MPI_Barrier, so MPI makes progress)
// until PE 0 is done.  PE 0 prints Markdown tables:
//  - 8-byte latency, µs per operation: Gasket (shmem_putmem + shmem_quiet,
//    shmem_getmem, shmem_long_p + shmem_quiet, shmem_long_g) against
//    MPI_Put/MPI_Get + MPI_Win_flush on (a) an MPI_Win_create window (over
//    MPI_Win_allocate_shared memory, base rounded up to 2 MiB, for the heap
//    rows -- how Gasket makes its heap window when the node fast path is
//    on; over the executable's data, as Gasket's data window, for the
//    global rows, which reach a static array) and (b) an MPI_Win_allocate window (how Gasket makes its
//    heap window when the fast path is off, from commit 87f2a4f on).  Ratio =
//    Gasket time / MPI time (< 1: Gasket is faster).
//  - put and get bandwidth, GB/s (1e9 bytes/s), for sizes min..max: a loop
//    of shmem_putmem_nbi/shmem_getmem_nbi then one shmem_quiet, against a
//    loop of MPI_Put/MPI_Get then one MPI_Win_flush, and memcpy of the same
//    size within PE 0 for reference.  Ratio = Gasket rate / MPI rate (> 1:
//    Gasket is faster).
//  - 8-byte non-blocking throughput, million operations/s: n (8192)
//    shmem_putmem_nbi / shmem_getmem_nbi of 8 bytes to adjacent slots of
//    the target (each continuing the previous on both sides: what Gasket
//    joins into one MPI_Put) and scattered over them (slot 97 i mod n:
//    nothing to join), then one shmem_quiet, against MPI_Put/MPI_Get to
//    the same slots of an MPI_Win_allocate window then one MPI_Win_flush.
//    Ratio = Gasket rate / MPI rate (> 1: Gasket is faster).
// Every figure is the median over --reps timed loops, after one untimed
// warm-up loop; the loops of one table row (latency: the whole table) run
// interleaved, round by round, so changes in the machine's load hit Gasket,
// MPI and memcpy alike; each ratio is the median over rounds of the ratio of
// two loops of the same round (paired under the same load), not the ratio
// of the two medians.  The latency tests end with a check that the data
// arrived (exit status 1 if not); nothing asserts on speed.
#include <mpi.h>
#include <shmem.h>

#include <boost/program_options.hpp>

#include <algorithm>
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
#include <link.h>
#include <unistd.h>
#include <vector>

#include "bench_util.hpp"

namespace po = boost::program_options;

namespace {

using namespace bench;

constexpr int kOrigin = 0;
constexpr int kTarget = 1;
constexpr long kPattern = 0x5eed0000L;    // what the target's get sources hold
constexpr std::size_t kLatencySlots = 8;  // longs of local_dst the latency table's get loops land in (6 used)

// Symmetric globals (the executable's data segment): Gasket's "global"
// destination/source.
long g_put_dst[8];
long g_get_src[8];
// Raw MPI's counterpart: a static array reached through a window created
// over the executable's data, as Gasket's data window is (RawWindow::
// create_over_data).  [0..8) put target, [8..16) get source.
long g_mpi_static[16];

// The executable's writable data past RELRO: the bytes Gasket's data window
// exposes (the rule of mpi-bridge/data_segment.cpp's executable_data, which
// the benchmark cannot call).  Null when not found.
struct DataSegment {
    char* begin = nullptr;
    std::size_t bytes = 0;
};
int find_data(struct dl_phdr_info* info, std::size_t, void* out) {
    std::uintptr_t begin = 0, end = 0, relro_begin = 0, relro_end = 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        const std::uintptr_t at = info->dlpi_addr + ph.p_vaddr;
        if (ph.p_type == PT_LOAD && (ph.p_flags & PF_W) && begin == 0) {
            begin = at;
            end = at + ph.p_memsz;
        } else if (ph.p_type == PT_GNU_RELRO) {
            relro_begin = at;
            relro_end = at + ph.p_memsz;
        }
    }
    if (relro_end > begin && relro_begin < end) begin = std::max(begin, relro_end);
    if (begin != 0 && begin < end) *static_cast<DataSegment*>(out) = {reinterpret_cast<char*>(begin), end - begin};
    return 1;  // the first object reported is the executable
}

struct Options : SweepOptions {};

// Returns 0 to run, 1 to exit successfully (--help), 2 on a bad option.
int parse_options(int argc, char** argv, Options& o) {
    po::options_description desc(
        "bench-rma: OpenSHMEM RMA latency/bandwidth on Gasket vs raw MPI RMA.\n"
        "Run with 2 PEs: oshrun -np 2 bench-rma [options]\nOptions");
    o.add_to(desc);
    desc.add_options()("quick", "smoke run: --iters 1000 --reps 3 --max-size 64K --bw-bytes 1M unless given");
    po::variables_map vm;
    if (int rc = parse_command_line("bench-rma", argc, argv, desc, vm)) return rc;
    return o.finish("bench-rma", vm, 1000) ? 0 : 2;
}

// A raw MPI window, locked for its whole life like Gasket's.
struct RawWindow {
    MPI_Win win = MPI_WIN_NULL;
    MPI_Win shared = MPI_WIN_NULL;  // the allocate_shared window under a "create over shared" window
    char* base = nullptr;           // this process's usable (aligned) block
    MPI_Aint shift = 0;             // where the target's usable block starts in its window

    // Target displacement of byte `offset` of the target's usable block.
    MPI_Aint at(MPI_Aint offset) const { return shift + offset; }

    static MPI_Info ordering_info() {
        MPI_Info info;
        mpi_check(MPI_Info_create(&info), "MPI_Info_create");
        mpi_check(MPI_Info_set(info, "accumulate_ordering", "none"), "MPI_Info_set");
        return info;
    }
    // The way Gasket makes its heap window: node memory from
    // MPI_Win_allocate_shared (alloc_shared_noncontig), its start rounded up
    // to kHeapAlign as Gasket rounds its heap base (Open MPI returns a base
    // 0x108 bytes into a page), then a world window over it with
    // MPI_Win_create.
    static constexpr std::size_t kHeapAlign = std::size_t(2) << 20;
    void create_over_shared(std::size_t bytes, MPI_Comm node) {
        MPI_Info info;
        mpi_check(MPI_Info_create(&info), "MPI_Info_create");
        mpi_check(MPI_Info_set(info, "alloc_shared_noncontig", "true"), "MPI_Info_set");
        char* raw = nullptr;
        mpi_check(MPI_Win_allocate_shared(MPI_Aint(bytes + kHeapAlign), 1, info, node, &raw, &shared),
                  "MPI_Win_allocate_shared");
        MPI_Info_free(&info);
        const auto a = reinterpret_cast<std::uintptr_t>(raw);
        create_over(raw + (((a + kHeapAlign - 1) & ~std::uintptr_t(kHeapAlign - 1)) - a), bytes);
    }
    // MPI_Win_create over existing memory (e.g. a static array).
    void create_over(void* memory, std::size_t bytes) {
        base = static_cast<char*>(memory);
        MPI_Info info = ordering_info();
        mpi_check(MPI_Win_create(memory, MPI_Aint(bytes), 1, info, MPI_COMM_WORLD, &win), "MPI_Win_create");
        MPI_Info_free(&info);
        mpi_check(MPI_Win_lock_all(MPI_MODE_NOCHECK, win), "MPI_Win_lock_all");
    }
    // A window created over the executable's data, exactly the bytes
    // Gasket's data window exposes, whose usable block is `array` (a static
    // array: the same offset in every process).  Not a window over the
    // array alone: MPICH 4.0.2 with UCX directs the RMA of a window created
    // inside memory an earlier window already exposes to that earlier
    // window's base (the displacement then counts from there), so a window
    // over a static array, created after shmem_init, reads and writes other
    // globals (docs/cluster-path.md, "The last known failures").  One over the same bytes as
    // Gasket's is served right, and is what Gasket's global rows use.
    void create_over_data(void* array) {
        DataSegment seg;
        dl_iterate_phdr(find_data, &seg);
        char* a = static_cast<char*>(array);
        if (!seg.begin || a < seg.begin || a >= seg.begin + seg.bytes) {
            std::fprintf(stderr, "bench-rma: cannot find the executable's data segment\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        create_over(seg.begin, seg.bytes);
        base = a;
        shift = MPI_Aint(a - seg.begin);
    }
    // MPI_Win_allocate; the usable block starts at the first page boundary
    // (Open MPI's base is 8 mod 64 here), so copies are as aligned as the
    // other windows' and the memcpy reference's.
    void allocate(std::size_t bytes) {
        constexpr std::size_t kPage = 4096;
        MPI_Info info = ordering_info();
        char* raw = nullptr;
        mpi_check(MPI_Win_allocate(MPI_Aint(bytes + kPage), 1, info, MPI_COMM_WORLD, &raw, &win), "MPI_Win_allocate");
        MPI_Info_free(&info);
        const auto a = reinterpret_cast<std::uintptr_t>(raw);
        const MPI_Aint pad = MPI_Aint(((a + kPage - 1) & ~std::uintptr_t(kPage - 1)) - a);
        base = raw + pad;
        int n = 0;
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        std::vector<MPI_Aint> pads(std::size_t(n), 0);
        mpi_check(MPI_Allgather(&pad, 1, MPI_AINT, pads.data(), 1, MPI_AINT, MPI_COMM_WORLD), "MPI_Allgather");
        shift = pads[kTarget];
        mpi_check(MPI_Win_lock_all(MPI_MODE_NOCHECK, win), "MPI_Win_lock_all");
    }
    void free() {
        if (win != MPI_WIN_NULL) {
            MPI_Win_unlock_all(win);
            MPI_Win_free(&win);
        }
        if (shared != MPI_WIN_NULL) MPI_Win_free(&shared);
    }
};

// Keeps the compiler from dropping or merging repeated memcpys.
inline void clobber() { asm volatile("" ::: "memory"); }

struct Bench {
    Options opt;
    int failures = 0;

    // Gasket buffers: symmetric heap (put target, get source) and PE 0's
    // private source/destination for transfers.
    char* heap_put = nullptr;
    char* heap_get = nullptr;
    char* local_src = nullptr;
    char* local_dst = nullptr;
    // Raw MPI windows: [0, region) put target, [region, 2*region) get source.
    RawWindow mpi_shared, mpi_alloc, mpi_static;
    std::size_t region = 0;  // max transfer size = offset of the get half

    void check(const char* what, long got, long want) {
        if (got == want) return;
        std::printf("CHECK FAILED: %s: read back %ld, expected %ld\n", what, got, want);
        ++failures;
    }

    // ---- latency (µs per op) ------------------------------------------
    // A loop of opt.iters calls of op(i), inlined; returns µs per op.
    template <class Op>
    Loop lat(Op op) const {
        const long n = opt.iters;
        return [n, op]() mutable { return us_per_op(n, op); };
    }
    // Put loops store i into the source first, so the target ends with iters-1.
    Loop shmem_put_lat(void* dst) {
        long* src = reinterpret_cast<long*>(local_src);
        return lat([=](long i) {
            *src = i;
            shmem_putmem(dst, src, 8, kTarget);
            shmem_quiet();
        });
    }
    Loop shmem_p_lat(long* dst) {
        return lat([=](long i) {
            shmem_long_p(dst, i, kTarget);
            shmem_quiet();
        });
    }
    // Get loops each land in their own slot of local_dst (checked after).
    Loop shmem_get_lat(const void* src, int slot) {
        long* dst = reinterpret_cast<long*>(local_dst) + slot;
        return lat([=](long) { shmem_getmem(dst, src, 8, kTarget); });
    }
    Loop shmem_g_lat(const long* src, int slot) {
        long* dst = reinterpret_cast<long*>(local_dst) + slot;
        return lat([=](long) { *dst = shmem_long_g(src, kTarget); });
    }
    Loop mpi_put_lat(const RawWindow& w, MPI_Aint offset) {
        const MPI_Win win = w.win;
        const MPI_Aint disp = w.at(offset);
        long* src = reinterpret_cast<long*>(local_src);
        return lat([=](long i) {
            *src = i;
            MPI_Put(src, 8, MPI_BYTE, kTarget, disp, 8, MPI_BYTE, win);
            MPI_Win_flush(kTarget, win);
        });
    }
    Loop mpi_get_lat(const RawWindow& w, MPI_Aint offset, int slot) {
        const MPI_Win win = w.win;
        const MPI_Aint disp = w.at(offset);
        long* dst = reinterpret_cast<long*>(local_dst) + slot;
        return lat([=](long) {
            MPI_Get(dst, 8, MPI_BYTE, kTarget, disp, 8, MPI_BYTE, win);
            MPI_Win_flush(kTarget, win);
        });
    }
    long mpi_read(const RawWindow& w, MPI_Aint offset) {
        long v = 0;
        MPI_Get(&v, 8, MPI_BYTE, kTarget, w.at(offset), 8, MPI_BYTE, w.win);
        MPI_Win_flush(kTarget, w.win);
        return v;
    }

    void latency_table() {
        const MPI_Aint put_at = 0, get_at = MPI_Aint(region);
        const MPI_Aint static_put_at = 0, static_get_at = 8 * sizeof(long);
        long* slots = reinterpret_cast<long*>(local_dst);
        for (std::size_t s = 0; s < kLatencySlots; ++s) slots[s] = 0;
        // Order within a round: each Gasket loop next to the MPI loops it
        // is compared with.
        enum {
            g_put_heap,
            m_put_shared,
            g_p,
            m_put_alloc,
            g_put_global,
            m_put_static,
            g_get_heap,
            m_get_shared,
            g_g,
            m_get_alloc,
            g_get_global,
            m_get_static
        };
        const Rounds f = measure(
            opt.reps,
            {shmem_put_lat(heap_put), mpi_put_lat(mpi_shared, put_at), shmem_p_lat(reinterpret_cast<long*>(heap_put)),
             mpi_put_lat(mpi_alloc, put_at), shmem_put_lat(g_put_dst), mpi_put_lat(mpi_static, static_put_at),
             shmem_get_lat(heap_get, 0), mpi_get_lat(mpi_shared, get_at, 3),
             shmem_g_lat(reinterpret_cast<const long*>(heap_get), 2), mpi_get_lat(mpi_alloc, get_at, 4),
             shmem_get_lat(g_get_src, 1), mpi_get_lat(mpi_static, static_get_at, 5)});

        // Did the data move?  Every put loop ends by writing iters-1.
        const long last = opt.iters - 1;
        long v = 0;
        shmem_getmem(&v, heap_put, 8, kTarget);
        check("shmem_putmem/shmem_long_p to the heap", v, last);
        shmem_getmem(&v, g_put_dst, 8, kTarget);
        check("shmem_putmem to a global", v, last);
        check("MPI_Put, create over shared", mpi_read(mpi_shared, put_at), last);
        check("MPI_Put, Win_allocate", mpi_read(mpi_alloc, put_at), last);
        check("MPI_Put, create over static", mpi_read(mpi_static, static_put_at), last);
        const char* got[] = {"shmem_getmem heap",           "shmem_getmem global",   "shmem_long_g",
                             "MPI_Get, create over shared", "MPI_Get, Win_allocate", "MPI_Get, create over static"};
        for (int s = 0; s < 6; ++s) check(got[s], slots[s], kPattern);

        struct Row {
            const char* op;
            std::size_t gasket, mpi_equiv, mpi_alloc;  // loop indices
        };
        const Row rows[] = {
            {"put 8 B + quiet, heap dest (shmem_putmem)", g_put_heap, m_put_shared, m_put_alloc},
            {"put 8 B + quiet, global dest (shmem_putmem)", g_put_global, m_put_static, m_put_alloc},
            {"shmem_long_p + quiet, heap dest", g_p, m_put_shared, m_put_alloc},
            {"get 8 B, heap source (shmem_getmem)", g_get_heap, m_get_shared, m_get_alloc},
            {"get 8 B, global source (shmem_getmem)", g_get_global, m_get_static, m_get_alloc},
            {"shmem_long_g, heap source", g_g, m_get_shared, m_get_alloc},
        };
        std::printf("\n### 8-byte latency, µs per operation (median of %d loops of %ld ops)\n\n", opt.reps, opt.iters);
        std::printf(
            "| operation | Gasket µs | MPI µs, Win_create | Gasket/MPI | MPI µs, Win_allocate | "
            "Gasket/MPI |\n");
        std::printf("|---|---:|---:|---:|---:|---:|\n");
        for (const Row& r : rows)
            std::printf("| %s | %.4f | %.4f | %.2f | %.4f | %.2f |\n", r.op, f.median_of(r.gasket),
                        f.median_of(r.mpi_equiv), f.ratio(r.gasket, r.mpi_equiv), f.median_of(r.mpi_alloc),
                        f.ratio(r.gasket, r.mpi_alloc));
        std::printf(
            "\nMPI puts: MPI_Put 8 B + MPI_Win_flush.  MPI gets: MPI_Get 8 B + MPI_Win_flush (not flush_local).\n"
            "Win_create: heap rows = MPI_Win_create over MPI_Win_allocate_shared memory (base rounded up to\n"
            "2 MiB), global rows = MPI_Win_create over the executable's data (as Gasket's data window), reaching a\n"
            "static array.  Win_allocate: an MPI_Win_allocate window\n"
            "(usable block page-aligned).  All windows: MPI_Win_lock_all for the whole run,\n"
            "accumulate_ordering=none.  Gasket/MPI: median over rounds of the ratio of the two loops run\n"
            "side by side in one round (< 1: Gasket is faster).\n");
    }

    // ---- 8-byte non-blocking throughput (million operations/s) ----------
    // Puts and gets of 8 bytes to n slots of the target, adjacent (slot i)
    // or scattered (slot 97 i mod n, a permutation of the n slots when n is
    // a power of 2: no two consecutive transfers touch adjacent bytes, so
    // Gasket cannot join them), then one completion.  n is a power of 2:
    // 8192, or fewer so that Gasket's and MPI's gets each fit half of
    // local_dst; 0 (no table) below 16 bytes of --max-size.
    long nbi_ops() const {
        long n = 1;
        while (n < 8192 && std::size_t(2 * n) * 16 <= region) n *= 2;
        return std::size_t(n) * 16 <= region ? n : 0;
    }
    // A loop of n calls of issue(i), then complete(); million ops per s.
    // Before the clock starts, local source slot i holds (tag << 32) + i
    // and the n slots of a get loop's destination `zeroed` hold 0.
    template <class Issue, class Complete>
    Loop mops(long n, long tag, long* zeroed, Issue issue, Complete complete) const {
        long* const source = reinterpret_cast<long*>(local_src);
        return [=]() mutable {
            for (long i = 0; i < n; ++i) source[i] = (tag << 32) + i;
            if (zeroed) std::fill(zeroed, zeroed + n, 0L);
            const auto t0 = Clock::now();
            for (long i = 0; i < n; ++i) issue(i);
            complete();
            return double(n) / seconds_since(t0) / 1e6;
        };
    }

    void nbi_throughput_table() {
        const long n = nbi_ops();
        if (n == 0) return;
        const RawWindow& w = mpi_alloc;
        const MPI_Win win = w.win;
        const MPI_Aint put_at = w.at(0), get_at = w.at(MPI_Aint(region));
        long* const src = reinterpret_cast<long*>(local_src);
        long* const g_dst = reinterpret_cast<long*>(local_dst);  // Gasket's gets land in [0, n)
        long* const m_dst = g_dst + n;                           // MPI's in [n, 2n)
        long* const hput = reinterpret_cast<long*>(heap_put);
        const long* const hget = reinterpret_cast<const long*>(heap_get);
        const auto scattered = [n](long i) { return (97 * i) % n; };
        // Tags of the put loops' sources; in each round the adjacent loops
        // run after the scattered ones, so the target ends with theirs.
        enum : long { t_g_scat = 1, t_m_scat, t_g_adj, t_m_adj, t_get };
        enum { g_put_scat, m_put_scat, g_put_adj, m_put_adj, g_get_scat, m_get_scat, g_get_adj, m_get_adj };
        const Rounds f = measure(
            opt.reps,
            {mops(
                 n, t_g_scat, nullptr,
                 [=](long i) { shmem_putmem_nbi(hput + scattered(i), src + scattered(i), 8, kTarget); },
                 [] { shmem_quiet(); }),
             mops(
                 n, t_m_scat, nullptr,
                 [=](long i) {
                     MPI_Put(src + scattered(i), 8, MPI_BYTE, kTarget, put_at + 8 * scattered(i), 8, MPI_BYTE, win);
                 },
                 [=] { MPI_Win_flush(kTarget, win); }),
             mops(
                 n, t_g_adj, nullptr, [=](long i) { shmem_putmem_nbi(hput + i, src + i, 8, kTarget); },
                 [] { shmem_quiet(); }),
             mops(
                 n, t_m_adj, nullptr,
                 [=](long i) { MPI_Put(src + i, 8, MPI_BYTE, kTarget, put_at + 8 * i, 8, MPI_BYTE, win); },
                 [=] { MPI_Win_flush(kTarget, win); }),
             mops(
                 n, t_get, g_dst,
                 [=](long i) { shmem_getmem_nbi(g_dst + scattered(i), hget + scattered(i), 8, kTarget); },
                 [] { shmem_quiet(); }),
             mops(
                 n, t_get, m_dst,
                 [=](long i) {
                     MPI_Get(m_dst + scattered(i), 8, MPI_BYTE, kTarget, get_at + 8 * scattered(i), 8, MPI_BYTE, win);
                 },
                 [=] { MPI_Win_flush(kTarget, win); }),
             mops(
                 n, t_get, g_dst, [=](long i) { shmem_getmem_nbi(g_dst + i, hget + i, 8, kTarget); },
                 [] { shmem_quiet(); }),
             mops(
                 n, t_get, m_dst,
                 [=](long i) { MPI_Get(m_dst + i, 8, MPI_BYTE, kTarget, get_at + 8 * i, 8, MPI_BYTE, win); },
                 [=] { MPI_Win_flush(kTarget, win); })});

        // Did the data move?  Every get slot holds the target's pattern;
        // the target holds the adjacent put loops' sources.
        auto first_wrong = [n](const long* v, auto want) {
            for (long i = 0; i < n; ++i)
                if (v[i] != want(i)) return i;
            return -1L;
        };
        const auto pattern = [](long) { return kPattern; };
        check("shmem_getmem_nbi, first wrong slot (-1: none)", first_wrong(g_dst, pattern), -1);
        check("MPI_Get, first wrong slot (-1: none)", first_wrong(m_dst, pattern), -1);
        shmem_getmem(g_dst, hput, std::size_t(n) * 8, kTarget);
        MPI_Get(m_dst, int(n), MPI_LONG, kTarget, put_at, int(n), MPI_LONG, win);
        MPI_Win_flush(kTarget, win);
        check("shmem_putmem_nbi adjacent, first wrong slot (-1: none)",
              first_wrong(g_dst, [](long i) { return (long(t_g_adj) << 32) + i; }), -1);
        check("MPI_Put adjacent, first wrong slot (-1: none)",
              first_wrong(m_dst, [](long i) { return (long(t_m_adj) << 32) + i; }), -1);

        struct Row {
            const char* gasket;
            const char* mpi;
            int g, m;  // loop indices
        };
        const Row rows[] = {
            {"shmem_putmem_nbi 8 B x n adjacent, shmem_quiet", "MPI_Put 8 B x n adjacent, MPI_Win_flush", g_put_adj,
             m_put_adj},
            {"shmem_putmem_nbi 8 B x n scattered, shmem_quiet", "MPI_Put 8 B x n scattered, MPI_Win_flush", g_put_scat,
             m_put_scat},
            {"shmem_getmem_nbi 8 B x n adjacent, shmem_quiet", "MPI_Get 8 B x n adjacent, MPI_Win_flush", g_get_adj,
             m_get_adj},
            {"shmem_getmem_nbi 8 B x n scattered, shmem_quiet", "MPI_Get 8 B x n scattered, MPI_Win_flush", g_get_scat,
             m_get_scat},
        };
        std::printf(
            "\n### 8-byte non-blocking throughput, million operations/s (median of %d loops of n = %ld ops)\n\n",
            opt.reps, n);
        std::printf("| operation | Gasket Mops per s | MPI, Win_allocate | MPI Mops per s | Gasket/MPI |\n");
        std::printf("|---|---:|---|---:|---:|\n");
        for (const Row& r : rows)
            std::printf("| %s | %.2f | %s | %.2f | %.2f |\n", r.gasket, f.median_of(std::size_t(r.g)), r.mpi,
                        f.median_of(std::size_t(r.m)), f.ratio(std::size_t(r.g), std::size_t(r.m)));
        std::printf(
            "\nn transfers of 8 bytes to (put) or from (get) n slots of PE 1's buffer, then one completion.\n"
            "Adjacent: transfer i reaches slot i from local slot i, so each continues the previous one on\n"
            "both sides (Gasket joins such puts into one MPI_Put when they go through MPI); scattered:\n"
            "slot 97 i mod n, on both sides, which nothing can join.  MPI: an MPI_Win_allocate window,\n"
            "as Gasket's heap window with the fast path off.  Gasket/MPI > 1: Gasket is faster.\n");
    }

    // ---- bandwidth (GB/s) ------------------------------------------------
    std::vector<std::size_t> sizes() const { return opt.sizes(); }
    long msgs_for(std::size_t size) const { return opt.msgs_for(size); }
    // A loop of msgs_for(size) calls of issue(), then complete(); GB/s.
    template <class Issue, class Complete>
    Loop bw(std::size_t size, Issue issue, Complete complete) const {
        const long n = msgs_for(size);
        return [=]() mutable {
            const auto t0 = Clock::now();
            for (long i = 0; i < n; ++i) issue();
            complete();
            return double(size) * double(n) / seconds_since(t0) / 1e9;
        };
    }

    void bandwidth_table(bool put) {
        struct Row {
            std::size_t size;
            long msgs;
            double gasket, mpi_equiv, mpi_alloc, mem;  // GB/s
            double vs_equiv, vs_alloc, vs_mem;         // per-round ratios
        };
        std::vector<Row> rows;
        char* const src = local_src;
        char* const dst = local_dst;
        char* const hput = heap_put;
        char* const hget = heap_get;
        const MPI_Aint offset = put ? 0 : MPI_Aint(region);
        for (std::size_t size : sizes()) {
            const int n = int(size);
            auto mpi_loop = [&](const RawWindow& w) {
                const MPI_Win win = w.win;
                const MPI_Aint at = w.at(offset);
                if (put)
                    return bw(
                        size, [=] { MPI_Put(src, n, MPI_BYTE, kTarget, at, n, MPI_BYTE, win); },
                        [=] { MPI_Win_flush(kTarget, win); });
                return bw(
                    size, [=] { MPI_Get(dst, n, MPI_BYTE, kTarget, at, n, MPI_BYTE, win); },
                    [=] { MPI_Win_flush(kTarget, win); });
            };
            // Round order: MPI create, Gasket, MPI allocate, memcpy (Gasket
            // next to each figure it is compared with).
            enum { m_equiv, gasket, m_alloc, mem };
            std::vector<Loop> loops;
            loops.push_back(mpi_loop(mpi_shared));
            if (put)
                loops.push_back(bw(
                    size, [=] { shmem_putmem_nbi(hput, src, size, kTarget); }, [] { shmem_quiet(); }));
            else
                loops.push_back(bw(
                    size, [=] { shmem_getmem_nbi(dst, hget, size, kTarget); }, [] { shmem_quiet(); }));
            loops.push_back(mpi_loop(mpi_alloc));
            loops.push_back(bw(
                size,
                [=] {
                    std::memcpy(dst, src, size);
                    clobber();
                },
                [] {}));
            const Rounds f = measure(opt.reps, loops);
            rows.push_back({size, msgs_for(size), f.median_of(gasket), f.median_of(m_equiv), f.median_of(m_alloc),
                            f.median_of(mem), f.ratio(gasket, m_equiv), f.ratio(gasket, m_alloc),
                            f.ratio(gasket, mem)});
        }
        const char* kind = put ? "put" : "get";
        std::printf("\n### %s bandwidth, GB/s (1e9 B/s; median of %d loops)\n\n", kind, opt.reps);
        std::printf(
            "| size | transfers/loop | Gasket | MPI, Win_create | Gasket/MPI | MPI, Win_allocate | "
            "Gasket/MPI | memcpy | Gasket/memcpy |\n");
        std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (const Row& r : rows)
            std::printf("| %s | %ld | %.3f | %.3f | %.2f | %.3f | %.2f | %.3f | %.0f%% |\n", size_label(r.size).c_str(),
                        r.msgs, r.gasket, r.mpi_equiv, r.vs_equiv, r.mpi_alloc, r.vs_alloc, r.mem, 100.0 * r.vs_mem);
        if (put)
            std::printf(
                "\nGasket: shmem_putmem_nbi x transfers, then one shmem_quiet.  MPI: MPI_Put x transfers, then\n"
                "one MPI_Win_flush.  memcpy: PE 0 copies between two private buffers.  Every transfer of a\n"
                "loop goes to the same destination.  Ratios: median over rounds of the ratio of loops run\n"
                "side by side in one round (Gasket/MPI > 1: Gasket is faster).\n");
        else
            std::printf(
                "\nGasket: shmem_getmem_nbi x transfers, then one shmem_quiet.  MPI: MPI_Get x transfers, then\n"
                "one MPI_Win_flush.  memcpy as above.  Gasket/MPI > 1: Gasket is faster.\n");
    }
};

}  // namespace

int main(int argc, char** argv) {
    Bench b;
    if (int rc = parse_options(argc, argv, b.opt)) return rc == 1 ? 0 : 2;

    shmem_init();
    const int me = shmem_my_pe();
    const int npes = shmem_n_pes();
    if (npes < 2) {
        if (me == 0) std::fprintf(stderr, "bench-rma: needs at least 2 PEs (oshrun -np 2 bench-rma)\n");
        shmem_finalize();
        return 1;
    }

    // Buffers.  Heap: put target and get source of the largest size.
    const std::size_t region = b.opt.max_size;
    b.region = region;
    b.heap_put = static_cast<char*>(shmem_malloc(region));
    b.heap_get = static_cast<char*>(shmem_malloc(region));
    if (!b.heap_put || !b.heap_get) {
        if (me == 0)
            std::fprintf(stderr,
                         "bench-rma: shmem_malloc(%zu) failed: raise SHMEM_SYMMETRIC_SIZE or lower --max-size\n",
                         region);
        shmem_global_exit(1);
    }
    // Local buffers: the largest transfer, and at least the latency
    // table's 8 one-long get slots (with --max-size 8 the slots overran an
    // 8-byte local_dst, corrupting the heap: the PEs then freed different
    // windows and hung in MPI_Win_free).
    const std::size_t local_bytes = std::max(region, kLatencySlots * sizeof(long));
    void* p = nullptr;
    if (posix_memalign(&p, 4096, local_bytes)) shmem_global_exit(1);
    b.local_src = static_cast<char*>(p);
    if (posix_memalign(&p, 4096, local_bytes)) shmem_global_exit(1);
    b.local_dst = static_cast<char*>(p);
    std::memset(b.local_src, 0x11, local_bytes);
    std::memset(b.local_dst, 0x22, local_bytes);

    // Raw MPI windows of 2*region bytes: [0, region) put target,
    // [region, 2*region) get source.  MPI is initialized by shmem_init.
    MPI_Comm node = MPI_COMM_NULL;
    mpi_check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
              "MPI_Comm_split_type");
    b.mpi_shared.create_over_shared(2 * region, node);
    b.mpi_alloc.allocate(2 * region);
    b.mpi_static.create_over_data(g_mpi_static);

    // Every PE's sources hold the pattern (the origin checks what it gets).
    auto fill = [](void* where, std::size_t bytes) {
        long* l = static_cast<long*>(where);
        for (std::size_t i = 0; i < bytes / sizeof(long); ++i) l[i] = kPattern;
    };
    fill(b.heap_get, region);
    fill(b.heap_put, region);
    fill(g_get_src, sizeof g_get_src);
    fill(b.mpi_shared.base + region, region);
    fill(b.mpi_alloc.base + region, region);
    fill(&g_mpi_static[8], 8 * sizeof(long));
    for (RawWindow* w : {&b.mpi_shared, &b.mpi_alloc, &b.mpi_static}) MPI_Win_sync(w->win);
    shmem_barrier_all();
    MPI_Barrier(MPI_COMM_WORLD);

    if (me == kOrigin) {
        const char* fp_env = std::getenv("GASKET_NODE_FASTPATH");
        const char* sd_env = std::getenv("GASKET_SHARED_DATA");
        const bool heap_direct = shmem_ptr(b.heap_put, kTarget) != nullptr;
        const bool data_direct = shmem_ptr(g_put_dst, kTarget) != nullptr;
        std::printf("## bench-rma: %d PEs, origin PE %d -> target PE %d%s\n\n", npes, kOrigin, kTarget,
                    b.opt.quick ? " (--quick: smoke run, figures not meaningful)" : "");
        std::printf("- node fast path: GASKET_NODE_FASTPATH=%s -> heap %s, global data %s (GASKET_SHARED_DATA=%s)\n",
                    fp_env ? fp_env : "(unset: on)", heap_direct ? "direct load/store" : "through MPI RMA",
                    data_direct ? "direct load/store" : "through MPI RMA", sd_env ? sd_env : "(unset: on)");
        std::printf("- MPI: %s\n", mpi_library().c_str());
        // Copies run fastest from/to cache-line-aligned addresses; the
        // memcpy buffers are page-aligned.
        auto mod64 = [](const void* q) { return std::size_t(reinterpret_cast<std::uintptr_t>(q) % 64); };
        std::printf(
            "- buffer addresses mod 64: Gasket heap (shmem_malloc) %zu and %zu; MPI windows: create over "
            "shared %zu, Win_allocate %zu\n",
            mod64(b.heap_put), mod64(b.heap_get), mod64(b.mpi_shared.base), mod64(b.mpi_alloc.base));
        print_machine();
        std::printf(
            "- latency: %ld ops per loop, %d loops (+1 warm-up), median; bandwidth: sizes %s..%s x%u, at most "
            "%s or %ld transfers per loop\n",
            b.opt.iters, b.opt.reps, size_label(b.opt.min_size).c_str(), size_label(b.opt.max_size).c_str(),
            b.opt.factor, size_label(b.opt.bw_bytes).c_str(), b.opt.bw_max_msgs);
        std::fflush(stdout);
        const auto t0 = Clock::now();
        b.latency_table();
        std::fflush(stdout);
        b.bandwidth_table(true);
        std::fflush(stdout);
        b.bandwidth_table(false);
        std::fflush(stdout);
        b.nbi_throughput_table();
        std::printf("\nload average at end %s; %.1f s measuring; %s\n", loadavg().c_str(), seconds_since(t0),
                    b.failures ? "DATA CHECKS FAILED" : "all data checks passed");
        std::fflush(stdout);
    }
    // The target waits here (inside MPI_Barrier, so MPI progresses) while
    // the origin measures.
    shmem_barrier_all();

    int failures = b.failures;
    MPI_Bcast(&failures, 1, MPI_INT, kOrigin, MPI_COMM_WORLD);
    b.mpi_static.free();
    b.mpi_alloc.free();
    b.mpi_shared.free();
    MPI_Comm_free(&node);
    shmem_free(b.heap_get);
    shmem_free(b.heap_put);
    std::free(b.local_src);
    std::free(b.local_dst);
    shmem_finalize();
    return failures ? 1 : 0;
}
