// src/gex/objects.hpp -- the GASNet-EX objects (gasnet-ex-api.txt): the
// client, its primordial endpoint, team and segment, and the checked
// resolution of the handles that name them.
//
// One client per job (the specification's current rule): the objects are
// one static set, made by gex_Client_Init or by gasnet_init (whose client
// is named "GASNET1" and carries GEX_FLAG_USES_GASNET1), so a handle is
// valid exactly when it is the address of one of them.  A TM-pair of the
// primordial endpoint is that endpoint's team address with its low bit set
// (gex_TM_Pair): it names jobranks, as the primordial team does.
#pragma once

#include <gasnetex.h>

#include <cstdint>
#include <string>

struct gasket_gex_segment {
    void* addr = nullptr;
    std::uintptr_t size = 0;
    const void* cdata = nullptr;
};
struct gasket_gex_ep {
    gex_Segment_t segment = GEX_SEGMENT_INVALID;  // after gex_Segment_Attach / gasnet_attach
    const void* cdata = nullptr;
};
struct gasket_gex_tm {
    const void* cdata = nullptr;
};
struct gasket_gex_client {
    std::string name;
    gex_Flags_t flags = 0;
    const void* cdata = nullptr;
};

namespace gasket::gex {

// The one client and its primordial objects; `made` once a client exists.
struct Objects {
    gasket_gex_tm tm;  // first: its address is the symbol's, one instruction in every RMA call's check
    bool made = false;
    gasket_gex_client client;
    gasket_gex_ep ep;
    gasket_gex_segment segment;
};
extern Objects g_objects;

// Makes the client named `name` with `flags` and its primordial endpoint
// and team (no segment bound yet).  Once per process (the callers check).
void make_client(const char* name, gex_Flags_t flags);
// Binds the segment [addr, +size) to the primordial endpoint (size > 0).
void bind_segment(void* addr, std::uintptr_t size);

// The objects a handle names; fatal, naming `routine` and the value, for a
// handle that is not one of them (or a TM-pair where a team is needed).
gasket_gex_client& client_of(const char* routine, gex_Client_t client);
gasket_gex_ep& ep_of(const char* routine, gex_EP_t ep);
gasket_gex_tm& tm_of(const char* routine, gex_TM_t tm);
gasket_gex_segment& segment_of(const char* routine, gex_Segment_t seg);

// The primordial team, and its TM-pair (gex_TM_Pair of the primordial
// endpoint and index 0): both name jobranks in point-to-point calls.
inline gex_TM_t primordial_tm() { return &g_objects.tm; }
inline gex_TM_t primordial_pair() {
    return reinterpret_cast<gex_TM_t>(reinterpret_cast<std::uintptr_t>(&g_objects.tm) | 1);
}
// Fatal, naming `routine`, unless `tm` is the primordial team or its TM-pair
// (the teams a point-to-point call may name).
void check_p2p_tm(const char* routine, gex_TM_t tm);

// gex_System_{Get,Set}VerboseErrors: whether non-fatal errors print.
bool verbose();
void set_verbose(bool on);

}  // namespace gasket::gex
