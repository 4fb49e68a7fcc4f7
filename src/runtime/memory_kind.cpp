// src/runtime/memory_kind.cpp -- the CUDA memory kind (memory_kind.hpp).
#include "memory_kind.hpp"

#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

#include "error.hpp"
#include "mpi-bridge/cuda_driver.hpp"

namespace gasket::rt {

namespace {

class CudaUvaKind final : public MemoryKind {
public:
    CudaUvaKind(int ordinal, std::string name, void* context)
        : ordinal_(ordinal), name_(std::move(name)), context_(context) {}
    ~CudaUvaKind() override { mpi::CudaDriver::get().release_primary_context(ordinal_); }
    CudaUvaKind(const CudaUvaKind&) = delete;
    CudaUvaKind& operator=(const CudaUvaKind&) = delete;

    KindClass kind_class() const override { return KindClass::cuda_uva; }
    std::string describe() const override { return "CUDA_UVA device " + std::to_string(ordinal_) + " (" + name_ + ")"; }
    void* allocate(std::size_t bytes, std::string& why) override {
        return mpi::CudaDriver::get().allocate(context_, bytes, why);
    }
    bool release(void* p, std::string& why) override { return mpi::CudaDriver::get().free(context_, p, why); }
    bool holds(const void* p, std::size_t bytes, std::string& why) const override {
        return mpi::CudaDriver::get().is_device_range(p, bytes, ordinal_, why);
    }
    bool export_range(const void* p, DeviceExport& out, std::string& why) const override {
        const mpi::CudaDriver& driver = mpi::CudaDriver::get();
        mpi::CudaDriver::Uuid id{};
        mpi::CudaDriver::IpcHandle handle{};
        std::size_t offset = 0;
        if (!driver.uuid(ordinal_, id, why) || !driver.ipc_export(context_, p, handle, offset, why)) return false;
        static_assert(sizeof out.device_uuid == sizeof id.bytes && sizeof out.ipc_handle == sizeof handle.bytes);
        std::memcpy(out.device_uuid, id.bytes, sizeof id.bytes);
        std::memcpy(out.ipc_handle, handle.bytes, sizeof handle.bytes);
        out.offset = offset;
        return true;
    }
    void* copy_context() const override { return context_; }

private:
    int ordinal_;
    std::string name_;
    void* context_;  // the device's primary context (retained)
};

// The primary context of device `ordinal`, retained on first use and kept
// for the process (the mappings made in it live as long); null, with `why`
// set, when the driver refuses.
void* retained_context(int ordinal, std::string& why) {
    static std::mutex lock;
    static std::vector<std::pair<int, void*>> retained;
    std::lock_guard<std::mutex> hold(lock);
    for (const auto& [o, ctx] : retained)
        if (o == ordinal) return ctx;
    void* ctx = mpi::CudaDriver::get().retain_primary_context(ordinal, why);
    if (ctx) retained.emplace_back(ordinal, ctx);
    return ctx;
}

}  // namespace

DeviceMapping import_device(const DeviceExport& e, std::string& why) {
    const mpi::CudaDriver& driver = mpi::CudaDriver::get();
    if (!driver.usable()) {
        why = driver.why();
        return {};
    }
    mpi::CudaDriver::Uuid id{};
    std::memcpy(id.bytes, e.device_uuid, sizeof id.bytes);
    const int ordinal = driver.ordinal_of(id);
    if (ordinal < 0) {
        why = "its device is not visible to this process (CUDA_VISIBLE_DEVICES?)";
        return {};
    }
    void* ctx = retained_context(ordinal, why);
    if (!ctx) return {};
    mpi::CudaDriver::IpcHandle handle{};
    std::memcpy(handle.bytes, e.ipc_handle, sizeof handle.bytes);
    auto* base = static_cast<char*>(driver.ipc_open(ctx, handle, why));
    if (!base) return {};
    return DeviceMapping{base + e.offset, base, ctx};
}

void close_device(const DeviceMapping& m) {
    std::string why;
    if (m.base) mpi::CudaDriver::get().ipc_close(m.ctx, m.base, why);  // nothing to do if refused
}

bool device_copy(void* ctx, void* dst, const void* src, std::size_t bytes, std::string& why) {
    return mpi::CudaDriver::get().copy(ctx, dst, src, bytes, why);
}

void copy_out_to_send(const char* routine, void* ctx, void* dst, const void* src, std::size_t bytes) {
    if (std::string why; !device_copy(ctx, dst, src, bytes, why))
        fatal(routine, "copying %zu bytes out of device memory to send them: %s", bytes, why.c_str());
}

std::unique_ptr<MemoryKind> open_cuda_uva(int ordinal, std::string& why) {
    const mpi::CudaDriver& driver = mpi::CudaDriver::get();
    if (!driver.usable()) {
        why = driver.why();
        return nullptr;
    }
    if (ordinal < 0 || ordinal >= driver.device_count()) {
        why = "device " + std::to_string(ordinal) + " does not exist: the driver sees " +
              std::to_string(driver.device_count()) + " device(s)";
        return nullptr;
    }
    std::string name;
    bool unified = false;
    if (!driver.describe(ordinal, name, unified, why)) return nullptr;
    if (!unified) {
        why = "device " + std::to_string(ordinal) + " (" + name +
              ") lacks unified addressing (CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING is 0)";
        return nullptr;
    }
    void* context = driver.retain_primary_context(ordinal, why);
    if (!context) return nullptr;
    return std::make_unique<CudaUvaKind>(ordinal, name, context);
}

}  // namespace gasket::rt
