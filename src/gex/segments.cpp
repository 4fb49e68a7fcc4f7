// src/gex/segments.cpp -- segments beyond the attach segment
// (gasnet-ex-memory-kinds.txt §4.2, §4.3): the registry that makes a
// gex_Segment_Create segment's handle valid (src/gasnet/gex_client.cpp
// checks the call's arguments and calls make_host_segment or, for a device
// kind, make_device_segment), and what gex_Segment_Destroy
// (src/gasnet/ep_segments.cpp) checks and releases.
#include <sys/mman.h>

#include <string>

#include "objects.hpp"
#include "src/runtime/am.hpp"
#include "src/runtime/memory_kind.hpp"
#include "src/runtime/job.hpp"
#include "src/runtime/node_pages.hpp"

namespace gasket::gex {

namespace {

// Every created segment, destroyed ones too (not live): a stale handle is
// then named as destroyed.
Made<gasket_gex_segment>& segments() {
    static auto* s = new Made<gasket_gex_segment>;
    return *s;
}

}  // namespace

gasket_gex_segment* find_created_segment(gex_Segment_t seg) { return segments().find(seg); }

gasket_gex_segment* make_host_segment(void* address, std::uintptr_t length) {
    auto seg = std::make_unique<gasket_gex_segment>();
    seg->kind = GEX_MK_HOST;
    if (address) {
        seg->addr = address;
        seg->size = length;
    } else {
        // Zeroed, page-aligned pages (the caller rounded length) that node
        // peers can map once the segment is published; private anonymous
        // pages where such memory cannot be had (then peers use MPI).
        auto pages = std::make_unique<rt::NodePages>(length);
        if (pages->ok()) {
            seg->addr = pages->base();
            seg->pages = pages.release();
        } else {
            void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) return nullptr;
            seg->addr = p;
        }
        seg->size = length;
        seg->allocated = true;
    }
    return segments().add([&](std::size_t) { return std::move(seg); });
}

gasket_gex_segment* make_device_segment(gex_MK_t kind, void* address, std::uintptr_t length, std::string& why,
                                        int& code) {
    rt::MemoryKind* mk = kind_object(kind);
    if (!mk) {
        why = "the kind is not a live device kind";
        code = GASNET_ERR_BAD_ARG;
        return nullptr;
    }
    auto seg = std::make_unique<gasket_gex_segment>();
    seg->kind = kind;
    seg->size = length;
    if (address) {
        if (!mk->holds(address, length, why)) {
            why = "[" + std::to_string(reinterpret_cast<std::uintptr_t>(address)) + ", +" + std::to_string(length) +
                  ") is not memory of " + mk->describe() + ": " + why;
            code = GASNET_ERR_BAD_ARG;
            return nullptr;
        }
        seg->addr = address;
    } else {
        seg->addr = mk->allocate(length, why);
        if (!seg->addr) {
            why = mk->describe() + ": " + why;
            code = GASNET_ERR_RESOURCE;
            return nullptr;
        }
        seg->allocated = true;
    }
    count_segment(kind, 1);
    return segments().add([&](std::size_t) { return std::move(seg); });
}

gasket_gex_segment& destroyable_segment(const char* routine, gex_Segment_t segment, gex_Flags_t flags) {
    if (flags) rt::fatal(routine, "flags 0x%x: must be 0", unsigned(flags));
    if (segment == &g_objects.segment && g_objects.ep.segment)
        rt::fatal(routine,
                  "segment %p is the gex_Segment_Attach (or gasnet_attach) segment, which may not be "
                  "destroyed (§4.3)",
                  static_cast<void*>(segment));
    return segment_of(routine, segment);  // fatal for a destroyed or foreign one
}

void release_segment(const char* routine, gex_Segment_t segment, gasket_gex_segment& s) {
    if (rt::g_job && rt::g_job->am) rt::g_job->am->unbind_endpoint_segments(static_cast<char*>(s.addr));
    if (s.exposed && rt::g_job && rt::g_job->dynamic_window) {  // published: withdrawn from the dynamic window
        rt::g_job->withdraw(s.addr);
        s.exposed = false;
    }
    if (s.kind != GEX_MK_HOST) {  // device memory: the kind frees what it allocated
        std::string why;
        if (s.allocated && !kind_object(s.kind)->release(s.addr, why))
            rt::fatal(routine, "freeing segment %p's device memory failed: %s", static_cast<void*>(segment),
                      why.c_str());
        count_segment(s.kind, -1);
    } else if (s.pages) {
        delete s.pages;  // unmapped here (node peers unmapped theirs when it was withdrawn from them)
        s.pages = nullptr;
    } else if (s.allocated && munmap(s.addr, s.size) != 0)
        rt::fatal(routine, "munmap of segment %p's %ju bytes at %p failed", static_cast<void*>(segment),
                  uintmax_t(s.size), s.addr);
    s.live = false;
}

}  // namespace gasket::gex
