// src/gex/memory_kinds.cpp -- gex_MK_Create and gex_MK_Destroy
// (gasnet_mk.h; gasnet-ex-memory-kinds.txt §6.3): a device kind is an
// rt::MemoryKind (src/runtime/memory_kind.hpp) behind a handle this process
// keeps a list of, so a stale or foreign handle is named, not followed.
#include <gasnet_mk.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <type_traits>

#include "objects.hpp"
#include "src/runtime/error.hpp"
#include "src/runtime/memory_kind.hpp"

struct gasket_gex_mk {
    std::unique_ptr<gasket::rt::MemoryKind> kind;
    std::atomic<int> segments{0};  // live gex_Segment_Create segments of this kind
};

namespace gasket::gex {

namespace {

// The live kinds (never destroyed: it may be read at exit).
struct Kinds {
    std::mutex lock;
    std::set<gasket_gex_mk*> live;
};
Kinds& kinds() {
    static Kinds* k = new Kinds;
    return *k;
}

const char* class_name(gex_MK_Class_t c) {
    switch (c) {
        case GEX_MK_CLASS_HOST: return "GEX_MK_CLASS_HOST";
        case GEX_MK_CLASS_CUDA_UVA: return "GEX_MK_CLASS_CUDA_UVA";
        case GEX_MK_CLASS_HIP: return "GEX_MK_CLASS_HIP";
        case GEX_MK_CLASS_ZE: return "GEX_MK_CLASS_ZE";
    }
    return "an unknown class";
}

}  // namespace

bool live_kind(gex_MK_t kind) {
    if (kind == GEX_MK_HOST) return true;
    std::lock_guard<std::mutex> hold(kinds().lock);
    return kinds().live.count(kind) > 0;
}

rt::MemoryKind* kind_object(gex_MK_t kind) {
    if (kind == GEX_MK_HOST) return nullptr;
    std::lock_guard<std::mutex> hold(kinds().lock);
    return kinds().live.count(kind) ? kind->kind.get() : nullptr;
}

std::atomic<long> g_device_segments{0};  // live segments of every device kind

void count_segment(gex_MK_t kind, int delta) {
    if (kind == GEX_MK_HOST) return;
    kind->segments.fetch_add(delta, std::memory_order_relaxed);
    g_device_segments.fetch_add(delta, std::memory_order_relaxed);
}

}  // namespace gasket::gex

using namespace gasket;

int gex_MK_Create(gex_MK_t* kind_p, gex_Client_t client, const gex_MK_Create_args_t* args, gex_Flags_t flags) noexcept {
    const char* routine = "gex_MK_Create";
    gex::client_of(routine, client);
    if (!kind_p || !args) {
        gex::report(routine, "%s is NULL", !kind_p ? "kind_p" : "args");
        return GASNET_ERR_BAD_ARG;
    }
    *kind_p = GEX_MK_INVALID;
    if (flags || args->gex_flags) {
        gex::report(routine, "%s 0x%llx: must be 0", flags ? "flags" : "args->gex_flags",
                    static_cast<unsigned long long>(flags ? flags : args->gex_flags));
        return GASNET_ERR_BAD_ARG;
    }
    // The class as stored: a C client may store any int there, which a C++
    // load of the enum must not assume is one of its values.
    std::underlying_type_t<gex_MK_Class_t> cls;
    std::memcpy(&cls, &args->gex_class, sizeof cls);
    switch (cls) {
        case GEX_MK_CLASS_HOST: *kind_p = GEX_MK_HOST; return GASNET_OK;
        case GEX_MK_CLASS_CUDA_UVA: break;
        case GEX_MK_CLASS_HIP:
        case GEX_MK_CLASS_ZE:
            gex::report(routine, "%s is not supported by Gasket (no machine to test it on); GEX_MK_CLASS_CUDA_UVA is",
                        gex::class_name(gex_MK_Class_t(cls)));
            return GASNET_ERR_BAD_ARG;
        default:
            gex::report(routine, "args->gex_class %d is not a memory kind class of gasnet_mk.h", int(cls));
            return GASNET_ERR_BAD_ARG;
    }
    const int device = args->gex_args.gex_class_cuda_uva.gex_CUdevice;
    std::string why;
    std::unique_ptr<rt::MemoryKind> kind = rt::open_cuda_uva(device, why);
    if (!kind) {
        gex::report(routine, "GEX_MK_CLASS_CUDA_UVA device %d: %s", device, why.c_str());
        return GASNET_ERR_RESOURCE;
    }
    auto* mk = new gasket_gex_mk{std::move(kind)};
    {
        std::lock_guard<std::mutex> hold(gex::kinds().lock);
        gex::kinds().live.insert(mk);
    }
    *kind_p = mk;
    return GASNET_OK;
}

void gex_MK_Destroy(gex_MK_t kind, gex_Flags_t flags) noexcept {
    const char* routine = "gex_MK_Destroy";
    if (flags) rt::fatal(routine, "flags 0x%llx: must be 0", static_cast<unsigned long long>(flags));
    if (kind == GEX_MK_HOST) return;
    gex::Kinds& k = gex::kinds();
    {
        std::lock_guard<std::mutex> hold(k.lock);
        if (!k.live.count(kind))
            rt::fatal(routine, "kind %p is not a live memory kind of this process (gex_MK_Create)",
                      static_cast<void*>(kind));
        if (const int n = kind->segments.load(std::memory_order_relaxed); n > 0)
            rt::fatal(routine,
                      "kind %p (%s) still has %d live segment(s): gex_Segment_Destroy them first (the kind holds "
                      "the device context their memory lives in)",
                      static_cast<void*>(kind), kind->kind->describe().c_str(), n);
        k.live.erase(kind);
    }
    delete kind;
}
