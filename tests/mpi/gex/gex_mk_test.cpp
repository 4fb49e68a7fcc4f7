// tests/mpi/gex/gex_mk_test.cpp -- GASNet-EX memory kinds (gasnet_mk.h;
// gasnet-ex-memory-kinds.txt §6.2, §6.3): the host class gives GEX_MK_HOST,
// every bad argument the document's gex_MK_Create can get returns
// GASNET_ERR_BAD_ARG with *kind_p = GEX_MK_INVALID, HIP and ZE are refused,
// and CUDA_UVA either makes a kind (a driver and a device with unified
// addressing: then device segments of it are made, checked and destroyed,
// and the kind destroyed again) or, without a driver, returns
// GASNET_ERR_RESOURCE and the GPU part is skipped, saying why (ctest's
// gex_mk_cuda shows it as Skipped).
#include <dlfcn.h>
#include <gasnet_mk.h>

#include <cstdint>
#include <cstring>

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

}  // namespace
