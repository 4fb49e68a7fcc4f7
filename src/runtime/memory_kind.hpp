// src/runtime/memory_kind.hpp -- memory kinds (gasnet-ex-memory-kinds.txt
// §4.1, §6): what kind of memory a segment lives in, and how Gasket reaches
// it.  Host memory is one kind, always there; each GPU device is another,
// opened on request.  The kind is an interface so that a device family
// (CUDA now; HIP or Level Zero later) is one more implementation in one
// more file.
//
// What a kind does today: names itself, holds what its device needs open
// (CUDA: the device's primary context, retained for the kind's life), and
// allocates, frees and recognizes its memory (gex_Segment_Create of a
// device segment).  Export to node peers, copy and synchronize come with
// communication to device segments (issue 18's next step).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace gasket::rt {

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
};

// A kind of CUDA device memory with unified addressing, device `ordinal`
// (a CUdevice ordinal), over its primary context (§6.5).  Null, with `why`
// set, when the driver cannot be loaded or initialized, the ordinal names
// no device, the device lacks unified addressing, or its primary context
// cannot be retained.
std::unique_ptr<MemoryKind> open_cuda_uva(int ordinal, std::string& why);

}  // namespace gasket::rt
