// tests/bench/gex_mk.cpp -- bench-gex-mk: GASNet-EX RMA between device
// segments of two processes on one GPU (memory kinds, issue 18) beside the
// floor, the driver's own device-to-device copy in one process
// (cuMemcpyDtoD, then cuCtxSynchronize, so the bytes are in place as
// Gasket's are when its put returns), and beside Gasket's host-to-host put
// of the same size.  Run with 2 processes on a node with a CUDA device:
// oshrun -np 2 bench-gex-mk [options].  Without a driver or a device it
// says so and measures nothing (exit 0: CI's smoke run).
//
// Process 0 puts from its device segment into process 1's (a TM-pair of
// the created endpoints), blocking, `n` times per timed loop; the floor
// copies between the two halves of its own device segment.  Process 1
// only serves (the barrier that ends each loop polls: with the node fast
// path off the puts are staged through it).  Rows: size, µs per put for
// each, Gasket/floor (median over rounds of the per-round ratio), and the
// bandwidths (bytes counted once).
#include <dlfcn.h>
#include <gasnet_mk.h>
#include <gasnetex.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_util.hpp"

namespace {

// The few driver calls of the floor, through dlopen (no CUDA toolkit).
struct Driver {
    int (*retain)(void**, int) = nullptr;
    int (*push)(void*) = nullptr;
    int (*copy)(unsigned long long, unsigned long long, std::size_t) = nullptr;
    int (*sync)() = nullptr;
    bool open() {
        void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) return false;
        retain = reinterpret_cast<int (*)(void**, int)>(dlsym(lib, "cuDevicePrimaryCtxRetain"));
        push = reinterpret_cast<int (*)(void*)>(dlsym(lib, "cuCtxPushCurrent_v2"));
        copy = reinterpret_cast<int (*)(unsigned long long, unsigned long long, std::size_t)>(
            dlsym(lib, "cuMemcpyDtoD_v2"));
        sync = reinterpret_cast<int (*)()>(dlsym(lib, "cuCtxSynchronize"));
        void* ctx = nullptr;
        return retain && push && copy && sync && retain(&ctx, 0) == 0 && push(ctx) == 0;
    }
};

unsigned long long address(const void* p) {
    return static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p));
}

void barrier(gex_TM_t tm) { gex_Event_Wait(gex_Coll_BarrierNB(tm, 0)); }

}  // namespace

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    int reps = 11;
    std::string max_text = "64M";
    po::options_description desc(
        "bench-gex-mk: GASNet-EX puts between device segments of two processes on one GPU, beside cuMemcpyDtoD in "
        "one process and beside host-to-host puts.\nRun with 2 processes: oshrun -np 2 bench-gex-mk [options]\n"
        "Options");
    desc.add_options()("help,h", "print this help")("reps", po::value<int>(&reps),
                                                    "timed loops per figure; the median is reported (default 11)")(
        "max-size", po::value<std::string>(&max_text), "largest put, K/M suffix (default 64M; sizes 8 B x 8 up to it)")(
        "quick", "smoke run: --reps 3 --max-size 1M unless given");
    po::variables_map vm;
    if (const int rc = bench::parse_command_line("bench-gex-mk", argc, argv, desc, vm)) return rc == 1 ? 0 : rc;
    if (vm.count("quick")) {
        if (!vm.count("reps")) reps = 3;
        if (!vm.count("max-size")) max_text = "1M";
    }
    const auto max_size = bench::parse_size(max_text);
    if (reps < 1 || !max_size || *max_size < 8 || *max_size > (std::size_t(1) << 30)) {
        std::fprintf(stderr, "bench-gex-mk: --reps must be >= 1 and --max-size in 8..1G\n");
        return 2;
    }
    gex_Client_t client{};
    gex_EP_t ep0{};
    gex_TM_t tm{};
    if (gex_Client_Init(&client, &ep0, &tm, "BENCH_GEX_MK", &argc, &argv, 0) != GASNET_OK) return 1;
    const gex_Rank_t me = gex_TM_QueryRank(tm);
    if (gex_TM_QuerySize(tm) != 2) {
        if (me == 0) std::fprintf(stderr, "bench-gex-mk: run with 2 processes\n");
        gasnet_exit(2);
    }
    gex_Segment_t host_seg{};
    if (gex_Segment_Attach(&host_seg, tm, 2 * *max_size) != GASNET_OK) gasnet_exit(1);
    // The CUDA memory kind of device 0, where there is one (every process
    // decides alike: same machine, same driver).
    gex_MK_Create_args_t args{};
    args.gex_class = GEX_MK_CLASS_CUDA_UVA;
    args.gex_args.gex_class_cuda_uva.gex_CUdevice = 0;
    gex_MK_t kind = GEX_MK_INVALID;
    gex_System_SetVerboseErrors(0);
    const int made = gex_MK_Create(&kind, client, &args, 0);
    gex_System_SetVerboseErrors(1);
    Driver driver;
    if (made != GASNET_OK || !driver.open()) {
        if (me == 0)
            std::printf("bench-gex-mk: no CUDA device here (gex_MK_Create: %s): nothing measured\n",
                        made == GASNET_OK ? "made, but the benchmark's own driver calls failed" : "refused");
        barrier(tm);
        gasnet_exit(0);
    }
    gex_EP_t ep{};
    gex_Segment_t dev_seg{};
    if (gex_EP_Create(&ep, client, GEX_EP_CAPABILITY_RMA, 0) != GASNET_OK ||
        gex_Segment_Create(&dev_seg, client, nullptr, 2 * *max_size, kind, 0) != GASNET_OK ||
        gex_EP_BindSegment(ep, dev_seg, 0) != GASNET_OK || gex_EP_PublishBoundSegment(tm, &ep, 1, 0) != GASNET_OK)
        gasnet_exit(1);
    const gex_TM_t pair = gex_TM_Pair(ep, gex_EP_QueryIndex(ep));
    auto* dev = static_cast<char*>(gex_Segment_QueryAddr(dev_seg));
    void* owner = nullptr;
    gex_Segment_QueryBound(pair, 1, &owner, nullptr, nullptr);
    char* peer_dev = static_cast<char*>(owner);
    gex_Segment_QueryBound(tm, 1, &owner, nullptr, nullptr);
    char* peer_host = static_cast<char*>(owner);
    std::vector<char> host_src(*max_size, 1);

    if (me == 0) {
        const char* fp = std::getenv("GASKET_NODE_FASTPATH");
        std::printf("## bench-gex-mk: device-to-device puts between 2 processes on one GPU\n\n");
        bench::print_machine();
        std::printf("- %s; node fast path %s; %d timed loops per figure (median)\n\n", bench::mpi_library().c_str(),
                    fp ? fp : "on", reps);
        std::printf(
            "| size | Gasket D->D put µs | cuMemcpyDtoD µs | Gasket/floor | Gasket GB/s | floor GB/s | "
            "Gasket H->H put µs |\n|---|---|---|---|---|---|---|\n");
    }
    for (std::size_t n = 8; n <= *max_size; n *= 8) {
        // Puts per loop: about 256 MiB moved, between 4 and 2000.
        const long k = std::max<long>(4, std::min<long>(2000, long((std::size_t(256) << 20) / n)));
        auto timed = [&](auto op) {
            return [&, op]() {
                double us = 0;
                if (me == 0) us = bench::us_per_op(k, op);
                barrier(tm);  // process 1 serves here (staged puts)
                return us;
            };
        };
        const bench::Rounds r = bench::measure(
            reps,
            {timed([&](long) { gex_RMA_PutBlocking(pair, 1, peer_dev + *max_size, dev, n, 0); }), timed([&](long) {
                 driver.copy(address(dev + *max_size), address(dev), n);
                 driver.sync();
             }),
             timed([&](long) { gex_RMA_PutBlocking(tm, 1, peer_host + *max_size, host_src.data(), n, 0); })});
        if (me == 0) {
            const double g = r.median_of(0), f = r.median_of(1);
            std::printf("| %s | %.2f | %.2f | %.2f | %.1f | %.1f | %.2f |\n", bench::size_label(n).c_str(), g, f,
                        r.ratio(0, 1), double(n) / g / 1e3, double(n) / f / 1e3, r.median_of(2));
        }
        if (n > *max_size / 8) break;
    }
    barrier(tm);
    gex_Segment_Destroy(dev_seg, 0);
    gex_MK_Destroy(kind, 0);
    gasnet_exit(0);
}
