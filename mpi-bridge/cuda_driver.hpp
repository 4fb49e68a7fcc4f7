// mpi-bridge/cuda_driver.hpp -- the CUDA driver API, loaded at run time
// with dlopen("libcuda.so.1"): no CUDA toolkit is needed to build Gasket,
// and a machine without a driver or a device runs everything else
// (gasnet-ex-memory-kinds.txt §6.3, §6.5; DESIGN.md "GPU memory kinds").
// Only the entry points Gasket uses are declared, with the driver's C types
// reduced to plain ones (CUresult int, CUdevice int, CUcontext void*).
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace gasket::mpi {

class CudaDriver {
public:
    // The process's driver, loaded and initialized (cuInit(0)) on first use;
    // thread-safe.  Never null: see usable().
    static CudaDriver& get();

    // False when libcuda.so.1 cannot be loaded, lacks an entry point, or
    // cuInit fails (no device, no permission): then why() says so.
    bool usable() const { return usable_; }
    const std::string& why() const { return why_; }

    // The driver's version as major * 1000 + minor * 10 (cuDriverGetVersion).
    int version() const { return version_; }
    // Devices the driver sees (cuDeviceGetCount); 0 when not usable.
    int device_count() const { return device_count_; }

    // Device `ordinal`'s name and whether it has unified addressing
    // (CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING).  False, with `why` set
    // (the driver's error string), for an ordinal the driver refuses.
    bool describe(int ordinal, std::string& name, bool& unified, std::string& why) const;

    // Retains device `ordinal`'s primary context (cuDevicePrimaryCtxRetain):
    // the context every operation on that device's memory kind uses.  Null,
    // with `why` set, when the driver refuses.
    void* retain_primary_context(int ordinal, std::string& why) const;
    // Releases what retain_primary_context returned (cuDevicePrimaryCtxRelease).
    void release_primary_context(int ordinal) const;

    // `bytes` bytes of device memory in context `ctx` (retain_primary_context's;
    // cuMemAlloc with ctx current), as an address of the unified address
    // space; null, with `why` set (the driver's error string), when the
    // driver refuses (out of memory, for one).
    void* allocate(void* ctx, std::size_t bytes, std::string& why) const;
    // Frees what allocate returned (cuMemFree with ctx current); false, with
    // `why` set, when the driver refuses.
    bool free(void* ctx, void* p, std::string& why) const;
    // Whether [p, +bytes) lies inside one allocation of device memory on
    // device `ordinal` (cuPointerGetAttribute: memory type, device ordinal,
    // allocation range); false, with `why` saying what it is instead.
    bool is_device_range(const void* p, std::size_t bytes, int ordinal, std::string& why) const;

    // A device's UUID (cuDeviceGetUuid): the same device has the same UUID
    // in every process of a node whatever its ordinal there
    // (CUDA_VISIBLE_DEVICES may renumber devices per process).
    struct Uuid {
        unsigned char bytes[16];
    };
    // Device `ordinal`'s UUID; false, with `why` set, when the driver refuses.
    bool uuid(int ordinal, Uuid& out, std::string& why) const;
    // The ordinal, in this process, of the device with UUID `id`; -1 when
    // this process does not see it.
    int ordinal_of(const Uuid& id) const;

    // A CUDA IPC handle (CUipcMemHandle, 64 opaque bytes): names one
    // allocation of device memory to other processes of the node.
    struct IpcHandle {
        unsigned char bytes[64];
    };
    // The IPC handle of the allocation holding device address `p` (made
    // with `ctx` current; cuIpcGetMemHandle of the allocation's start) and
    // `p`'s offset in that allocation, in bytes; false, with `why` set, when
    // the driver refuses (memory not made by cuMemAlloc/cudaMalloc, for one).
    bool ipc_export(void* ctx, const void* p, IpcHandle& handle, std::size_t& offset, std::string& why) const;
    // Maps another process's allocation into this one, in context `ctx`
    // (cuIpcOpenMemHandle with CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS): the
    // allocation's start here; null, with `why` set, when refused (a handle
    // of this process, another node's, or a device this one cannot reach).
    void* ipc_open(void* ctx, const IpcHandle& handle, std::string& why) const;
    // Unmaps what ipc_open returned (cuIpcCloseMemHandle); false, with `why`.
    bool ipc_close(void* ctx, void* base, std::string& why) const;

    // Copies `bytes` bytes from `src` to `dst`, either or both device
    // memory of the unified address space or host memory (cuMemcpyAsync on
    // a stream of `ctx` that Gasket owns, then cuStreamSynchronize: the data
    // is in place, visible to the device and to the host, on return, and
    // the client's own streams are not waited for).  False, with `why`
    // set, when the driver refuses.
    bool copy(void* ctx, void* dst, const void* src, std::size_t bytes, std::string& why) const;

    CudaDriver(const CudaDriver&) = delete;
    CudaDriver& operator=(const CudaDriver&) = delete;

private:
    CudaDriver();
    std::string error_text(int result) const;  // cuGetErrorString, or the number
    // The CUdevice of `ordinal` (cuDeviceGet); false, with `why` set, when
    // the driver is not usable or refuses the ordinal.
    bool device_of(int ordinal, int& device, std::string& why) const;
    // Runs `call` (a driver call's CUresult) with context `ctx` current;
    // false, with `why` naming `what` and the driver's error, when the
    // driver is not usable, the context cannot be made current or the call
    // fails.
    template <typename Call>
    bool in_context(void* ctx, const char* what, Call call, std::string& why) const;

    bool usable_ = false;
    std::string why_;
    int version_ = 0;
    int device_count_ = 0;
    // Entry points (types as the driver's, with its enums and handles as
    // int and void*).
    int (*init_)(unsigned) = nullptr;
    int (*driver_get_version_)(int*) = nullptr;
    int (*device_get_count_)(int*) = nullptr;
    int (*device_get_)(int*, int) = nullptr;
    int (*device_get_attribute_)(int*, int, int) = nullptr;
    int (*device_get_name_)(char*, int, int) = nullptr;
    int (*primary_ctx_retain_)(void**, int) = nullptr;
    int (*primary_ctx_release_)(int) = nullptr;
    int (*get_error_string_)(int, const char**) = nullptr;
    int (*ctx_push_current_)(void*) = nullptr;
    int (*ctx_pop_current_)(void**) = nullptr;
    int (*mem_alloc_)(unsigned long long*, std::size_t) = nullptr;
    int (*mem_free_)(unsigned long long) = nullptr;
    int (*pointer_get_attribute_)(void*, int, unsigned long long) = nullptr;
    int (*device_get_uuid_)(Uuid*, int) = nullptr;
    int (*ipc_get_mem_handle_)(IpcHandle*, unsigned long long) = nullptr;
    int (*ipc_open_mem_handle_)(unsigned long long*, IpcHandle, unsigned) = nullptr;
    int (*ipc_close_mem_handle_)(unsigned long long) = nullptr;
    int (*stream_create_)(void**, unsigned) = nullptr;
    int (*stream_synchronize_)(void*) = nullptr;
    int (*memcpy_async_)(unsigned long long, unsigned long long, std::size_t, void*) = nullptr;
    // The stream of each context copy() has used (made on first use, kept
    // for the process); guarded by streams_lock_.
    mutable std::mutex streams_lock_;
    mutable std::vector<std::pair<void*, void*>> streams_;
    void* stream_of(void* ctx, std::string& why) const;  // with ctx current
};

}  // namespace gasket::mpi
