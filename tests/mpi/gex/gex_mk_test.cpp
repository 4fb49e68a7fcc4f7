// tests/mpi/gex/gex_mk_test.cpp -- GASNet-EX memory kinds (gasnet_mk.h;
// gasnet-ex-memory-kinds.txt §6.2, §6.3): the host class gives GEX_MK_HOST,
// every bad argument the document's gex_MK_Create can get returns
// GASNET_ERR_BAD_ARG with *kind_p = GEX_MK_INVALID, HIP and ZE are refused,
// and CUDA_UVA either makes a kind (a driver and a device with unified
// addressing: then device segments of it are made, checked and destroyed,
// and the kind destroyed again) or, without a driver, returns
// GASNET_ERR_RESOURCE and the GPU part is skipped, saying why (ctest's
// gex_mk_cuda shows it as Skipped).  With a device, CudaTransfersOnTheNode moves
// checked data between processes' device segments on one node in every
// direction (host<->device, device<->device, put and get, blocking and NBI,
// 8 B to 64 MiB; Long requests and replies, 8 B to 1 MiB + 5), fast path on
// and off, each result
// read back by the test's own driver calls.
#include <dlfcn.h>
#include <gasnet_mk.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gex_test.hpp"

using gex_test::g_job;

namespace {

gex_MK_Create_args_t args_of(gex_MK_Class_t c) {
    gex_MK_Create_args_t a{};
    a.gex_class = c;
    return a;
}

// Whether this machine has a CUDA driver with a device (the test's own
// look, through dlopen: the tests link no CUDA either).
bool cuda_device_here(std::string& why) {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        why = "no CUDA driver (libcuda.so.1) on this machine";
        return false;
    }
    using Init = int (*)(unsigned);
    using Count = int (*)(int*);
    auto init = reinterpret_cast<Init>(dlsym(lib, "cuInit"));
    auto count = reinterpret_cast<Count>(dlsym(lib, "cuDeviceGetCount"));
    int n = 0;
    if (!init || !count || init(0) != 0 || count(&n) != 0 || n == 0) {
        why = "the CUDA driver sees no device";
        return false;
    }
    return true;
}

// CU_POINTER_ATTRIBUTE_MEMORY_TYPE of `p` by the driver itself (2: device
// memory), or -1 when the driver does not know it.
int memory_type(const void* p) {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    using Get = int (*)(void*, int, unsigned long long);
    auto get = lib ? reinterpret_cast<Get>(dlsym(lib, "cuPointerGetAttribute")) : nullptr;
    unsigned type = 0;
    if (!get || get(&type, 2, static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p))) != 0) return -1;
    return int(type);
}

// The test's own look at device memory, independent of Gasket: copies
// between host and device with device 0's primary context current
// (cuMemcpyHtoD / cuMemcpyDtoH through dlopen; the tests link no CUDA).
class DeviceView {
public:
    DeviceView() {
        void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) return;
        retain_ = reinterpret_cast<Retain>(dlsym(lib, "cuDevicePrimaryCtxRetain"));
        push_ = reinterpret_cast<Push>(dlsym(lib, "cuCtxPushCurrent_v2"));
        pop_ = reinterpret_cast<Pop>(dlsym(lib, "cuCtxPopCurrent_v2"));
        to_device_ = reinterpret_cast<HtoD>(dlsym(lib, "cuMemcpyHtoD_v2"));
        to_host_ = reinterpret_cast<DtoH>(dlsym(lib, "cuMemcpyDtoH_v2"));
        if (retain_ && push_ && pop_ && to_device_ && to_host_ && retain_(&ctx_, 0) != 0) ctx_ = nullptr;
    }
    bool usable() const { return ctx_ != nullptr; }
    bool write(void* device, const void* host, std::size_t n) const {
        return within([&] { return to_device_(address(device), host, n); });
    }
    bool read(void* host, const void* device, std::size_t n) const {
        return within([&] { return to_host_(host, address(device), n); });
    }

private:
    using Retain = int (*)(void**, int);
    using Push = int (*)(void*);
    using Pop = int (*)(void**);
    using HtoD = int (*)(unsigned long long, const void*, std::size_t);
    using DtoH = int (*)(void*, unsigned long long, std::size_t);
    static unsigned long long address(const void* p) {
        return static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p));
    }
    template <typename F>
    bool within(F f) const {
        if (!ctx_ || push_(ctx_) != 0) return false;
        const int rc = f();
        void* popped = nullptr;
        pop_(&popped);
        return rc == 0;
    }
    void* ctx_ = nullptr;
    Retain retain_ = nullptr;
    Push push_ = nullptr;
    Pop pop_ = nullptr;
    HtoD to_device_ = nullptr;
    DtoH to_host_ = nullptr;
};

// The bytes a test writes for `writer`, salted per step (the index's high
// bits too: a shift by a multiple of 256 bytes shows).
std::vector<unsigned char> bytes_for(gex_Rank_t writer, std::size_t n, unsigned salt) {
    std::vector<unsigned char> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = gex_test::pattern(writer, i + (i >> 8), salt);
    return v;
}

// Where the first byte differing from `want` is, or -1.
long long first_difference(const std::vector<unsigned char>& got, const std::vector<unsigned char>& want) {
    for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i] != want[i]) return static_cast<long long>(i);
    return -1;
}

TEST(GexMemoryKinds, HostClassIsGexMkHost) {
    gex_MK_t kind = GEX_MK_INVALID;
    const gex_MK_Create_args_t a = args_of(GEX_MK_CLASS_HOST);
    EXPECT_EQ(gex_MK_Create(&kind, g_job.client, &a, 0), GASNET_OK);
    EXPECT_EQ(kind, GEX_MK_HOST);
    EXPECT_NE(GEX_MK_HOST, GEX_MK_INVALID);
    gex_MK_Destroy(kind, 0);  // nothing to release; must not end the job
#if !GASNET_HAVE_MK_CLASS_HOST || !GASNET_HAVE_MK_CLASS_CUDA_UVA || !GASNET_HAVE_MK_CLASS_MULTIPLE
    ADD_FAILURE() << "gasnetex.h must define GASNET_HAVE_MK_CLASS_HOST, _CUDA_UVA and _MULTIPLE to 1";
#endif
}

TEST(GexMemoryKinds, BadArgumentsReturnBadArg) {
    const int old = gex_System_GetVerboseErrors();
    gex_System_SetVerboseErrors(0);  // the error lines are the document's to print, not this test's to read
    gex_MK_t kind = GEX_MK_HOST;
    gex_MK_Create_args_t a = args_of(GEX_MK_CLASS_HOST);
    EXPECT_EQ(gex_MK_Create(&kind, g_job.client, &a, 1), GASNET_ERR_BAD_ARG) << "flags 1";
    EXPECT_EQ(kind, GEX_MK_INVALID);
    a.gex_flags = 4;
    kind = GEX_MK_HOST;
    EXPECT_EQ(gex_MK_Create(&kind, g_job.client, &a, 0), GASNET_ERR_BAD_ARG) << "args->gex_flags 4";
    EXPECT_EQ(kind, GEX_MK_INVALID);
    EXPECT_EQ(gex_MK_Create(nullptr, g_job.client, &a, 0), GASNET_ERR_BAD_ARG) << "kind_p NULL";
    EXPECT_EQ(gex_MK_Create(&kind, g_job.client, nullptr, 0), GASNET_ERR_BAD_ARG) << "args NULL";
    for (int c : {int(GEX_MK_CLASS_HIP), int(GEX_MK_CLASS_ZE), 99}) {
        a = args_of(GEX_MK_CLASS_HOST);
        std::memcpy(&a.gex_class, &c, sizeof c);  // as a C client may store 99 (no enum load of it here)
        kind = GEX_MK_HOST;
        EXPECT_EQ(gex_MK_Create(&kind, g_job.client, &a, 0), GASNET_ERR_BAD_ARG) << "class " << int(c);
        EXPECT_EQ(kind, GEX_MK_INVALID);
    }
    // A device ordinal that names no device: an error code on every machine.
    a = args_of(GEX_MK_CLASS_CUDA_UVA);
    a.gex_args.gex_class_cuda_uva.gex_CUdevice = -1;
    kind = GEX_MK_HOST;
    EXPECT_EQ(gex_MK_Create(&kind, g_job.client, &a, 0), GASNET_ERR_RESOURCE);
    EXPECT_EQ(kind, GEX_MK_INVALID);
    gex_System_SetVerboseErrors(old);
}

TEST(GexMemoryKinds, CudaUvaDevice0) {
    std::string why;
    const bool here = cuda_device_here(why);
    const int old = gex_System_GetVerboseErrors();
    gex_System_SetVerboseErrors(0);
    gex_MK_t kind = GEX_MK_HOST;
    gex_MK_Create_args_t a = args_of(GEX_MK_CLASS_CUDA_UVA);
    a.gex_args.gex_class_cuda_uva.gex_CUdevice = 0;
    const int rc = gex_MK_Create(&kind, g_job.client, &a, 0);
    gex_System_SetVerboseErrors(old);
    if (!here) {
        EXPECT_EQ(rc, GASNET_ERR_RESOURCE) << "without a driver or device gex_MK_Create must return an error code";
        EXPECT_EQ(kind, GEX_MK_INVALID);
        GTEST_SKIP() << "CUDA memory kind not tried: " << why;
    }
    ASSERT_EQ(rc, GASNET_OK) << "a CUDA device is here, but gex_MK_Create refused device 0";
    EXPECT_NE(kind, GEX_MK_INVALID);
    EXPECT_NE(kind, GEX_MK_HOST);
    // A GASNet-allocated device segment (memory kinds §4.2): device memory
    // of exactly the length asked.
    const uintptr_t bytes = uintptr_t(1) << 20;
    gex_Segment_t seg = GEX_SEGMENT_INVALID;
    ASSERT_EQ(gex_Segment_Create(&seg, g_job.client, nullptr, bytes, kind, 0), GASNET_OK);
    char* base = static_cast<char*>(gex_Segment_QueryAddr(seg));
    EXPECT_NE(base, nullptr);
    EXPECT_EQ(gex_Segment_QuerySize(seg), bytes);
    EXPECT_EQ(memory_type(base), 2) << "the segment's memory is not device memory";
    // Client-allocated over device memory (here: part of that allocation),
    // and refusals: host memory, a range running past the allocation.
    gex_Segment_t client_seg = GEX_SEGMENT_INVALID;
    EXPECT_EQ(gex_Segment_Create(&client_seg, g_job.client, base + 4096, 8192, kind, 0), GASNET_OK);
    EXPECT_EQ(gex_Segment_QueryAddr(client_seg), base + 4096);
    gex_System_SetVerboseErrors(0);
    char host[64];
    gex_Segment_t refused = GEX_SEGMENT_INVALID;
    EXPECT_EQ(gex_Segment_Create(&refused, g_job.client, host, sizeof host, kind, 0), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gex_Segment_Create(&refused, g_job.client, base + bytes - 8, 64, kind, 0), GASNET_ERR_BAD_ARG);
    gex_System_SetVerboseErrors(old);
    EXPECT_EQ(refused, GEX_SEGMENT_INVALID);
    // Bound to a created endpoint (not publishable yet: the next step).
    gex_EP_t ep = GEX_EP_INVALID;
    ASSERT_EQ(gex_EP_Create(&ep, g_job.client, GEX_EP_CAPABILITY_RMA, 0), GASNET_OK);
    EXPECT_EQ(gex_EP_BindSegment(ep, seg, 0), GASNET_OK);
    EXPECT_EQ(gex_EP_QuerySegment(ep), seg);
    gex_Segment_Destroy(client_seg, 0);
    gex_Segment_Destroy(seg, 0);  // freed (cuMemFree)
    gex_MK_Destroy(kind, 0);      // no live segment: the context is released
}

// Long Active Messages between device segments (CudaTransfersOnTheNode's last
// part): a request lands in the receiver's device segment, whose handler
// replies with the same bytes from there (a device source) into the
// requester's device segment at the address the request carries.
std::atomic<int> g_device_requests{0}, g_device_replies{0};
std::atomic<void*> g_device_long_at{nullptr};
std::atomic<std::size_t> g_device_long_bytes{0};
gex_AM_Index_t g_device_reply_index = 0;
void device_long_request(gex_Token_t t, void* buf, size_t n, gex_AM_Arg_t hi, gex_AM_Arg_t lo) {
    g_device_long_at = buf;
    g_device_long_bytes = n;
    ++g_device_requests;
    void* back = reinterpret_cast<void*>((std::uintptr_t(std::uint32_t(hi)) << 32) | std::uint32_t(lo));
    gex_AM_ReplyLong0(t, g_device_reply_index, buf, n, back, GEX_EVENT_NOW, 0);
}
void device_long_reply(gex_Token_t, void*, size_t) { ++g_device_replies; }

// RMA between device segments of the processes of one node (memory kinds
// §4.1; CUDA IPC under the node fast path, staged through the segment's
// owner with it off, as between nodes): every process binds a device
// segment of device 0 to a created endpoint and publishes it; its first
// half is the process's local buffer, its second half what peers write.
// For each size, each process (1) puts host bytes into the next process's
// device half, (2) puts from its own device half into it (device to
// device), (3) gets the previous process's device half into host memory
// and (4) into its own device half; each result is read back with the
// test's own driver calls.  NBI forms at 1 MiB.  Then Long requests into
// the next process's device segment whose handlers reply Long from there.
TEST(GexMemoryKinds, CudaTransfersOnTheNode) {
    std::string why;
    if (!cuda_device_here(why)) GTEST_SKIP() << "CUDA memory kind not tried: " << why;
    // Fast path on: peers' device segments mapped by CUDA IPC; off: staged
    // through their owners by Active Messages, as between nodes.
    const DeviceView view;
    ASSERT_TRUE(view.usable()) << "the test cannot open device 0's primary context";
    gex_MK_t kind = GEX_MK_INVALID;
    gex_MK_Create_args_t a = args_of(GEX_MK_CLASS_CUDA_UVA);
    a.gex_args.gex_class_cuda_uva.gex_CUdevice = 0;
    ASSERT_EQ(gex_MK_Create(&kind, g_job.client, &a, 0), GASNET_OK);
    const std::size_t half = std::size_t(64) << 20;
    gex_EP_t ep = GEX_EP_INVALID;
    gex_Segment_t seg = GEX_SEGMENT_INVALID;
    ASSERT_EQ(gex_EP_Create(&ep, g_job.client, GEX_EP_CAPABILITY_RMA, 0), GASNET_OK);
    ASSERT_EQ(gex_Segment_Create(&seg, g_job.client, nullptr, 2 * half, kind, 0), GASNET_OK);
    ASSERT_EQ(gex_EP_BindSegment(ep, seg, 0), GASNET_OK);
    ASSERT_EQ(gex_EP_PublishBoundSegment(g_job.tm, &ep, 1, 0), GASNET_OK);
    const gex_EP_Index_t index = gex_EP_QueryIndex(ep);
    const gex_TM_t pair = gex_TM_Pair(ep, index);  // from this endpoint to the same index of each process
    auto* mine = static_cast<unsigned char*>(gex_Segment_QueryAddr(seg));
    const gex_Rank_t next = (g_job.me + 1) % g_job.n, prev = (g_job.me + g_job.n - 1) % g_job.n;
    void* owner = nullptr;
    void* local = &owner;
    uintptr_t size = 0;
    ASSERT_EQ(gex_Segment_QueryBound(pair, next, &owner, &local, &size), 0);
    EXPECT_EQ(size, 2 * half);
    EXPECT_EQ(local, nullptr) << "a peer's device segment is not loadable by the CPU";
    auto* next_half = static_cast<unsigned char*>(owner) + half;
    ASSERT_EQ(gex_Segment_QueryBound(pair, prev, &owner, nullptr, nullptr), 0);
    auto* prev_half = static_cast<unsigned char*>(owner) + half;
    unsigned salt = 0;
    for (std::size_t n : {std::size_t(8), std::size_t(4096), std::size_t(1) << 20, half}) {
        std::vector<unsigned char> got(n);
        // (1) host -> the next process's device memory
        ++salt;
        std::vector<unsigned char> sent = bytes_for(g_job.me, n, salt);
        gex_RMA_PutBlocking(pair, next, next_half, sent.data(), n, 0);
        gex_test::barrier();
        ASSERT_TRUE(view.read(got.data(), mine + half, n));
        EXPECT_EQ(first_difference(got, bytes_for(prev, n, salt)), -1) << "host->device put, " << n << " bytes";
        gex_test::barrier();
        // (2) this process's device memory -> the next one's
        ++salt;
        ASSERT_TRUE(view.write(mine, bytes_for(g_job.me, n, salt).data(), n));
        if (n == std::size_t(1) << 20) {
            gex_RMA_PutNBI(pair, next, next_half, mine, n, GEX_EVENT_DEFER, 0);
            gex_NBI_Wait(GEX_EC_ALL, 0);
        } else {
            gex_RMA_PutBlocking(pair, next, next_half, mine, n, 0);
        }
        gex_test::barrier();
        ASSERT_TRUE(view.read(got.data(), mine + half, n));
        EXPECT_EQ(first_difference(got, bytes_for(prev, n, salt)), -1) << "device->device put, " << n << " bytes";
        // (3) the previous process's device memory -> host (what it put in (2)
        // is in the next process's; this process's half holds prev's bytes)
        std::fill(got.begin(), got.end(), 0);
        gex_RMA_GetBlocking(pair, got.data(), prev, prev_half, n, 0);
        EXPECT_EQ(first_difference(got, bytes_for(prev == 0 ? g_job.n - 1 : prev - 1, n, salt)), -1)
            << "device->host get, " << n << " bytes";
        // (4) the previous process's device memory -> this one's
        if (n == std::size_t(1) << 20) {
            gex_RMA_GetNBI(pair, mine, prev, prev_half, n, 0);
            gex_NBI_Wait(GEX_EC_ALL, 0);
        } else {
            gex_RMA_GetBlocking(pair, mine, prev, prev_half, n, 0);
        }
        ASSERT_TRUE(view.read(got.data(), mine, n));
        EXPECT_EQ(first_difference(got, bytes_for(prev == 0 ? g_job.n - 1 : prev - 1, n, salt)), -1)
            << "device->device get, " << n << " bytes";
        gex_test::barrier();
    }
    // Long Active Messages: host bytes into the next process's device half;
    // its handler replies with them from there into this process's first half.
    gex_AM_Entry_t table[] = {
        {0, reinterpret_cast<gex_AM_Fn_t>(&device_long_request), GEX_FLAG_AM_LONG | GEX_FLAG_AM_REQUEST, 2, nullptr,
         "device_long_request"},
        {0, reinterpret_cast<gex_AM_Fn_t>(&device_long_reply), GEX_FLAG_AM_LONG | GEX_FLAG_AM_REPLY, 0, nullptr,
         "device_long_reply"},
    };
    ASSERT_EQ(gex_EP_RegisterHandlers(ep, table, 2), GASNET_OK);
    g_device_reply_index = table[1].gex_index;
    gex_test::barrier();  // registered everywhere before anyone sends
    const auto back = std::uintptr_t(mine);
    // A reply from a handler into device memory not mapped here travels in
    // one message up to 64 KiB; a larger one is staged after the handler
    // returns, and its handler runs once it is in place.
    const std::vector<std::size_t> sizes{8, 4096, 65536, 65537, (std::size_t(1) << 20) + 5};
    int round = 0;
    for (std::size_t n : sizes) {
        ++salt;
        ++round;  // this round's request from the previous process may be in already
        const std::vector<unsigned char> sent = bytes_for(g_job.me, n, salt);
        gex_AM_RequestLong2(pair, next, table[0].gex_index, sent.data(), n, next_half, GEX_EVENT_NOW, 0,
                            gex_AM_Arg_t(back >> 32), gex_AM_Arg_t(back & 0xffffffffu));
        GASNET_BLOCKUNTIL(g_device_requests.load() == round && g_device_replies.load() == round);
        EXPECT_EQ(g_device_long_at.load(), mine + half) << "the Long request's payload is not in the device segment";
        EXPECT_EQ(g_device_long_bytes.load(), n);
        std::vector<unsigned char> got(n);
        ASSERT_TRUE(view.read(got.data(), mine + half, n));
        EXPECT_EQ(first_difference(got, bytes_for(prev, n, salt)), -1) << "Long request into device memory, " << n;
        ASSERT_TRUE(view.read(got.data(), mine, n));
        EXPECT_EQ(first_difference(got, sent), -1) << "Long reply from device to device memory, " << n << " bytes";
        gex_test::barrier();
    }
    gex_Segment_Destroy(seg, 0);
    gex_MK_Destroy(kind, 0);
}

}  // namespace
