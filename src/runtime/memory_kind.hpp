// src/runtime/memory_kind.hpp -- memory kinds (gasnet-ex-memory-kinds.txt
// §4.1, §6): what kind of memory a segment lives in, and how Gasket reaches
// it.  Host memory is one kind, always there; each GPU device is another,
// opened on request.  The kind is an interface so that a device family
// (CUDA now; HIP or Level Zero later) is one more implementation in one
// more file.
//
// What a kind does: names itself, holds what its device needs open (CUDA:
// the device's primary context, retained for the kind's life), allocates,
// frees and recognizes its memory (gex_Segment_Create of a device segment),
// and exports a range of it to the processes of its node (CUDA IPC), which
// map it (import_device) and copy to and from it (device_copy).  Transfers
// through MPI (between nodes) come next (issue 18).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace gasket::rt {

// A range of device memory as another process of the node maps it: the
// device (by UUID, whatever its ordinal there), the allocation (an IPC
// handle) and the range's offset in it, in bytes.  Plain bytes: it travels
// in a gather.
struct DeviceExport {
    std::uint8_t device_uuid[16];
    std::uint8_t ipc_handle[64];
    std::uint64_t offset;
};

enum class KindClass { host, cuda_uva, hip, ze };

class MemoryKind {
public:
    virtual ~MemoryKind() = default;
    virtual KindClass kind_class() const = 0;
    // One line for messages and gasket-info, e.g. "CUDA_UVA device 0 (NVIDIA H100)".
    virtual std::string describe() const = 0;
    // `bytes` bytes of this kind's memory (a GASNet-allocated segment's);
    // null, with `why` set, when the device refuses.
    virtual void* allocate(std::size_t bytes, std::string& why) = 0;
    // Frees what allocate returned; false, with `why` set, when refused.
    virtual bool release(void* p, std::string& why) = 0;
    // Whether [p, +bytes) is memory of this kind, inside one allocation (a
    // client-allocated segment's); false, with `why` saying what it is.
    virtual bool holds(const void* p, std::size_t bytes, std::string& why) const = 0;
    // What another process of the node needs to map [p, ...) of this kind's
    // memory (import_device); false, with `why` set, when the driver
    // refuses to export it.
    virtual bool export_range(const void* p, DeviceExport& out, std::string& why) const = 0;
    // The context device_copy uses with this kind's memory (CUDA: the
    // device's primary context).
    virtual void* copy_context() const = 0;
};

// Another process's device memory mapped here: `at` is the exported range's
// first byte, `base` the allocation's (what close_device unmaps), `ctx` the
// context device_copy uses with it.  All null: not mapped.
struct DeviceMapping {
    char* at = nullptr;
    char* base = nullptr;
    void* ctx = nullptr;
};

// Maps `e` (made by export_range in another process of this node) here,
// in the primary context of the same device (retained for the process);
// nothing mapped, with `why` set, when this process does not see that
// device or the driver refuses the handle.
DeviceMapping import_device(const DeviceExport& e, std::string& why);
// Unmaps what import_device mapped (nothing for an unmapped one).
void close_device(const DeviceMapping& m);
// Copies `bytes` bytes from `src` to `dst`, each host memory or device
// memory of the unified address space (one of them mapped by import_device
// or a kind's own), with context `ctx` (a kind's copy_context or a
// mapping's ctx).  Synchronous: the bytes are in place, visible to the
// device, on return.  False, with `why` set, when the driver refuses.
bool device_copy(void* ctx, void* dst, const void* src, std::size_t bytes, std::string& why);
// device_copy of `bytes` bytes out of device memory at `src` (context
// `ctx`) into the host buffer `dst`, to send them: fatal, naming `routine`
// and the driver's reason, when the driver refuses.
void copy_out_to_send(const char* routine, void* ctx, void* dst, const void* src, std::size_t bytes);

// A kind of CUDA device memory with unified addressing, device `ordinal`
// (a CUdevice ordinal), over its primary context (§6.5).  Null, with `why`
// set, when the driver cannot be loaded or initialized, the ordinal names
// no device, the device lacks unified addressing, or its primary context
// cannot be retained.
std::unique_ptr<MemoryKind> open_cuda_uva(int ordinal, std::string& why);

}  // namespace gasket::rt
