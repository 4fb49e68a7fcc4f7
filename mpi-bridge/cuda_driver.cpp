// mpi-bridge/cuda_driver.cpp -- loading the CUDA driver API (cuda_driver.hpp).
#include "cuda_driver.hpp"

#include <dlfcn.h>

#include <cstdint>
#include <cstring>

namespace gasket::mpi {

namespace {

constexpr int kSuccess = 0;                 // CUDA_SUCCESS
constexpr int kUnifiedAddressingAttr = 41;  // CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING
// CUpointer_attribute values, and CU_MEMORYTYPE_DEVICE.
constexpr int kPointerMemoryType = 2, kPointerDeviceOrdinal = 9, kPointerRangeStart = 11, kPointerRangeSize = 12;
constexpr unsigned kMemoryTypeDevice = 2;
constexpr unsigned kIpcLazyEnablePeerAccess = 1;  // CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS
constexpr unsigned kStreamNonBlocking = 1;        // CU_STREAM_NON_BLOCKING

unsigned long long device_address(const void* p) {
    return static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p));
}

// The entry point `name` (or, when the driver versions it, `name_v2`).
template <typename Fn>
bool find(void* lib, const char* name, const char* versioned, Fn& fn, std::string& why) {
    void* p = versioned ? dlsym(lib, versioned) : nullptr;
    if (!p) p = dlsym(lib, name);
    if (!p) {
        why = std::string("libcuda.so.1 has no ") + name;
        return false;
    }
    fn = reinterpret_cast<Fn>(p);
    return true;
}

}  // namespace

CudaDriver& CudaDriver::get() {
    static CudaDriver driver;  // initialized once, thread-safe (C++11 statics)
    return driver;
}

CudaDriver::CudaDriver() {
    // Never closed: the driver stays loaded for the process's life.
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char* e = dlerror();
        why_ = std::string("the CUDA driver cannot be loaded: ") + (e ? e : "dlopen(\"libcuda.so.1\") failed");
        return;
    }
    if (!find(lib, "cuInit", nullptr, init_, why_) ||
        !find(lib, "cuDriverGetVersion", nullptr, driver_get_version_, why_) ||
        !find(lib, "cuDeviceGetCount", nullptr, device_get_count_, why_) ||
        !find(lib, "cuDeviceGet", nullptr, device_get_, why_) ||
        !find(lib, "cuDeviceGetAttribute", nullptr, device_get_attribute_, why_) ||
        !find(lib, "cuDeviceGetName", nullptr, device_get_name_, why_) ||
        !find(lib, "cuDevicePrimaryCtxRetain", nullptr, primary_ctx_retain_, why_) ||
        !find(lib, "cuDevicePrimaryCtxRelease", "cuDevicePrimaryCtxRelease_v2", primary_ctx_release_, why_) ||
        !find(lib, "cuGetErrorString", nullptr, get_error_string_, why_) ||
        !find(lib, "cuCtxPushCurrent", "cuCtxPushCurrent_v2", ctx_push_current_, why_) ||
        !find(lib, "cuCtxPopCurrent", "cuCtxPopCurrent_v2", ctx_pop_current_, why_) ||
        !find(lib, "cuMemAlloc", "cuMemAlloc_v2", mem_alloc_, why_) ||
        !find(lib, "cuMemFree", "cuMemFree_v2", mem_free_, why_) ||
        !find(lib, "cuPointerGetAttribute", nullptr, pointer_get_attribute_, why_) ||
        !find(lib, "cuDeviceGetUuid", "cuDeviceGetUuid_v2", device_get_uuid_, why_) ||
        !find(lib, "cuIpcGetMemHandle", nullptr, ipc_get_mem_handle_, why_) ||
        !find(lib, "cuIpcOpenMemHandle", "cuIpcOpenMemHandle_v2", ipc_open_mem_handle_, why_) ||
        !find(lib, "cuIpcCloseMemHandle", nullptr, ipc_close_mem_handle_, why_) ||
        !find(lib, "cuStreamCreate", nullptr, stream_create_, why_) ||
        !find(lib, "cuStreamSynchronize", nullptr, stream_synchronize_, why_) ||
        !find(lib, "cuMemcpyAsync", nullptr, memcpy_async_, why_))
        return;
    if (int rc = init_(0); rc != kSuccess) {
        why_ = "cuInit failed: " + error_text(rc);
        return;
    }
    if (int rc = driver_get_version_(&version_); rc != kSuccess) {
        why_ = "cuDriverGetVersion failed: " + error_text(rc);
        return;
    }
    if (int rc = device_get_count_(&device_count_); rc != kSuccess) {
        why_ = "cuDeviceGetCount failed: " + error_text(rc);
        device_count_ = 0;
        return;
    }
    usable_ = true;
}

std::string CudaDriver::error_text(int result) const {
    const char* s = nullptr;
    if (get_error_string_ && get_error_string_(result, &s) == kSuccess && s) return s;
    return "CUresult " + std::to_string(result);
}

bool CudaDriver::device_of(int ordinal, int& device, std::string& why) const {
    if (!usable_) {
        why = why_;
        return false;
    }
    if (int rc = device_get_(&device, ordinal); rc != kSuccess) {
        why = "cuDeviceGet(" + std::to_string(ordinal) + ") failed: " + error_text(rc);
        return false;
    }
    return true;
}

bool CudaDriver::describe(int ordinal, std::string& name, bool& unified, std::string& why) const {
    int device = 0, attr = 0;
    char text[256] = {};
    if (!device_of(ordinal, device, why)) return false;
    if (int rc = device_get_name_(text, int(sizeof text), device); rc != kSuccess) {
        why = "cuDeviceGetName failed: " + error_text(rc);
        return false;
    }
    if (int rc = device_get_attribute_(&attr, kUnifiedAddressingAttr, device); rc != kSuccess) {
        why = "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING) failed: " + error_text(rc);
        return false;
    }
    name = text;
    unified = attr != 0;
    return true;
}

void* CudaDriver::retain_primary_context(int ordinal, std::string& why) const {
    int device = 0;
    if (!device_of(ordinal, device, why)) return nullptr;
    void* ctx = nullptr;
    if (int rc = primary_ctx_retain_(&ctx, device); rc != kSuccess || !ctx) {
        why = "cuDevicePrimaryCtxRetain failed: " + error_text(rc);
        return nullptr;
    }
    return ctx;
}

void CudaDriver::release_primary_context(int ordinal) const {
    int device = 0;
    std::string why;
    if (device_of(ordinal, device, why)) primary_ctx_release_(device);
}

template <typename Call>
bool CudaDriver::in_context(void* ctx, const char* what, Call call, std::string& why) const {
    if (!usable_) {
        why = why_;
        return false;
    }
    if (int rc = ctx_push_current_(ctx); rc != kSuccess) {
        why = "cuCtxPushCurrent failed: " + error_text(rc);
        return false;
    }
    const int rc = call();
    void* popped = nullptr;
    ctx_pop_current_(&popped);
    if (rc != kSuccess) why = std::string(what) + " failed: " + error_text(rc);
    return rc == kSuccess;
}

void* CudaDriver::allocate(void* ctx, std::size_t bytes, std::string& why) const {
    unsigned long long p = 0;
    if (!in_context(
            ctx, "cuMemAlloc", [&] { return mem_alloc_(&p, bytes); }, why))
        return nullptr;
    return reinterpret_cast<void*>(static_cast<std::uintptr_t>(p));
}

bool CudaDriver::free(void* ctx, void* p, std::string& why) const {
    const auto at = static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p));
    return in_context(
        ctx, "cuMemFree", [&] { return mem_free_(at); }, why);
}

bool CudaDriver::is_device_range(const void* p, std::size_t bytes, int ordinal, std::string& why) const {
    if (!usable_) {
        why = why_;
        return false;
    }
    const auto at = static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p));
    unsigned type = 0;
    if (int rc = pointer_get_attribute_(&type, kPointerMemoryType, at); rc != kSuccess) {
        why = "it is not memory the CUDA driver knows (cuPointerGetAttribute: " + error_text(rc) + ")";
        return false;
    }
    if (type != kMemoryTypeDevice) {
        why = "it is not device memory (CU_POINTER_ATTRIBUTE_MEMORY_TYPE " + std::to_string(type) + ")";
        return false;
    }
    int device = -1;
    unsigned long long start = 0;
    std::size_t size = 0;
    if (pointer_get_attribute_(&device, kPointerDeviceOrdinal, at) != kSuccess ||
        pointer_get_attribute_(&start, kPointerRangeStart, at) != kSuccess ||
        pointer_get_attribute_(&size, kPointerRangeSize, at) != kSuccess) {
        why = "cuPointerGetAttribute cannot say which device and allocation it is in";
        return false;
    }
    if (device != ordinal) {
        why = "it is memory of device " + std::to_string(device) + ", not of device " + std::to_string(ordinal);
        return false;
    }
    if (at - start > size || bytes > size - (at - start)) {
        why = "it runs past the end of its allocation (" + std::to_string(size) + " bytes from " +
              std::to_string(start) + ")";
        return false;
    }
    return true;
}

bool CudaDriver::uuid(int ordinal, Uuid& out, std::string& why) const {
    int device = 0;
    if (!device_of(ordinal, device, why)) return false;
    if (int rc = device_get_uuid_(&out, device); rc != kSuccess) {
        why = "cuDeviceGetUuid failed: " + error_text(rc);
        return false;
    }
    return true;
}

int CudaDriver::ordinal_of(const Uuid& id) const {
    for (int d = 0; d < device_count_; ++d) {
        Uuid u{};
        std::string why;
        if (uuid(d, u, why) && std::memcmp(u.bytes, id.bytes, sizeof u.bytes) == 0) return d;
    }
    return -1;
}

bool CudaDriver::ipc_export(void* ctx, const void* p, IpcHandle& handle, std::size_t& offset, std::string& why) const {
    unsigned long long start = 0;
    return in_context(
        ctx, "cuIpcGetMemHandle",
        [&] {
            if (int rc = pointer_get_attribute_(&start, kPointerRangeStart, device_address(p)); rc != kSuccess)
                return rc;
            offset = std::size_t(device_address(p) - start);
            return ipc_get_mem_handle_(&handle, start);
        },
        why);
}

void* CudaDriver::ipc_open(void* ctx, const IpcHandle& handle, std::string& why) const {
    unsigned long long base = 0;
    if (!in_context(
            ctx, "cuIpcOpenMemHandle", [&] { return ipc_open_mem_handle_(&base, handle, kIpcLazyEnablePeerAccess); },
            why))
        return nullptr;
    return reinterpret_cast<void*>(static_cast<std::uintptr_t>(base));
}

bool CudaDriver::ipc_close(void* ctx, void* base, std::string& why) const {
    return in_context(
        ctx, "cuIpcCloseMemHandle", [&] { return ipc_close_mem_handle_(device_address(base)); }, why);
}

void* CudaDriver::stream_of(void* ctx, std::string& why) const {
    std::lock_guard<std::mutex> hold(streams_lock_);
    for (const auto& [c, s] : streams_)
        if (c == ctx) return s;
    void* s = nullptr;
    if (int rc = stream_create_(&s, kStreamNonBlocking); rc != kSuccess) {
        why = "cuStreamCreate failed: " + error_text(rc);
        return nullptr;
    }
    streams_.emplace_back(ctx, s);
    return s;
}

bool CudaDriver::copy(void* ctx, void* dst, const void* src, std::size_t bytes, std::string& why) const {
    std::string stream_why;
    const bool done = in_context(
        ctx, "cuMemcpyAsync",
        [&] {
            void* s = stream_of(ctx, stream_why);
            if (!s) return -1;
            if (int rc = memcpy_async_(device_address(dst), device_address(src), bytes, s); rc != kSuccess) return rc;
            return stream_synchronize_(s);
        },
        why);
    if (!stream_why.empty()) why = stream_why;
    return done;
}

}  // namespace gasket::mpi
