// src/runtime/memory_kind.cpp -- the CUDA memory kind (memory_kind.hpp).
#include "memory_kind.hpp"

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

private:
    int ordinal_;
    std::string name_;
    void* context_;  // the device's primary context (retained)
};

}  // namespace

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
