// src/gex/endpoints.cpp -- endpoints beyond the primordial one and the
// binding of segments to endpoints (gasnet-ex-memory-kinds.txt §3.1-§3.4,
// §3.7): gex_EP_Create, gex_EP_BindSegment, and the registry that makes a
// created endpoint's handle valid.
#include "objects.hpp"

namespace gasket::gex {

namespace {

// The created endpoints (there is no gex_EP_Destroy).
Made<gasket_gex_ep>& endpoints() {
    static auto* e = new Made<gasket_gex_ep>;
    return *e;
}

}  // namespace

gasket_gex_ep* find_created_ep(gex_EP_t ep) { return endpoints().find(ep); }
gasket_gex_ep* created_ep_at(gex_EP_Index_t index) {
    return index == 0 ? nullptr : endpoints().at(std::size_t(index) - 1);
}

}  // namespace gasket::gex

using namespace gasket;

extern "C" {

int gex_EP_Create(gex_EP_t* ep_p, gex_Client_t client, gex_EP_Capabilities_t capabilities, gex_Flags_t flags) noexcept {
    const char* routine = "gex_EP_Create";
    gex::client_of(routine, client);
    if (!ep_p) {
        gex::report(routine, "ep_p is NULL");
        return GASNET_ERR_BAD_ARG;
    }
    if (capabilities == 0 || (capabilities & ~GEX_EP_CAPABILITY_ALL)) {
        gex::report(routine,
                    "capabilities 0x%x is not a nonzero OR of GEX_EP_CAPABILITY_* (GEX_EP_CAPABILITY_ALL = 0x%x)",
                    unsigned(capabilities), unsigned(GEX_EP_CAPABILITY_ALL));
        return GASNET_ERR_BAD_ARG;
    }
    if (flags & ~GEX_FLAG_HINT_ACCEL_ALL) {
        gex::report(routine, "flags 0x%x: only GEX_FLAG_HINT_ACCEL_* (0x%x) are accepted", unsigned(flags),
                    unsigned(GEX_FLAG_HINT_ACCEL_ALL));
        return GASNET_ERR_BAD_ARG;
    }
    // Index 1, 2, ... in order of creation (the specification's first
    // candidate rule, "monotonically increasing"), never reused.
    gasket_gex_ep* ep = gex::endpoints().add([&](std::size_t before) -> std::unique_ptr<gasket_gex_ep> {
        if (before + 1 >= GASNET_MAXEPS) return nullptr;
        auto made = std::make_unique<gasket_gex_ep>();
        made->index = gex_EP_Index_t(before + 1);
        made->capabilities = capabilities;
        made->flags = flags;
        return made;
    });
    if (!ep) {
        gex::report(routine, "this process has %d endpoints already, GASNET_MAXEPS", GASNET_MAXEPS);
        return GASNET_ERR_RESOURCE;
    }
    *ep_p = ep;
    return GASNET_OK;
}

int gex_EP_BindSegment(gex_EP_t ep, gex_Segment_t segment, gex_Flags_t flags) noexcept {
    const char* routine = "gex_EP_BindSegment";
    if (flags) rt::fatal(routine, "flags 0x%x: must be 0", unsigned(flags));
    if (ep == GEX_EP_INVALID) rt::fatal(routine, "ep is GEX_EP_INVALID");
    if (segment == GEX_SEGMENT_INVALID) rt::fatal(routine, "segment is GEX_SEGMENT_INVALID");
    gasket_gex_ep& e = gex::ep_of(routine, ep);
    const gasket_gex_segment& s = gex::segment_of(routine, segment);
    if (e.segment)
        rt::fatal(routine, "endpoint %p (index %u) has a bound segment already (%p)", static_cast<void*>(ep),
                  unsigned(e.index), static_cast<void*>(e.segment));
    if (e.index == 0) {
        if (s.kind != GEX_MK_HOST)
            rt::fatal(routine, "segment %p is device memory, which the primordial endpoint cannot bind (§3.7)",
                      static_cast<void*>(segment));
        rt::fatal(routine,
                  "the primordial endpoint's segment comes from gex_Segment_Attach (or gasnet_attach) in Gasket: "
                  "binding a created segment to it is issue 18's next step (docs/memory-kinds.md)");
    }
    e.segment = segment;
    return GASNET_OK;
}

}  // extern "C"
