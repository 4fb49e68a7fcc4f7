// src/gex/objects.hpp -- the GASNet-EX objects (gasnet-ex-api.txt): the
// client, its primordial endpoint, team and segment, and the checked
// resolution of the handles that name them.
//
// One client per job (the specification's current rule): the objects are
// one static set, made by gex_Client_Init or by gasnet_init (whose client
// is named "GASNET1" and carries GEX_FLAG_USES_GASNET1), so a handle is
// valid exactly when it is the address of one of them, or of a live team
// made by gex_TM_Split or gex_TM_Create (teams.cpp; a registry under a
// lock).  A TM-pair of the primordial endpoint is that endpoint's team
// address with its low bit set (gex_TM_Pair): it names jobranks, as the
// primordial team does.
#pragma once

#include <gasnetex.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "src/runtime/error.hpp"

namespace gasket::rt {
class Team;
class MemberGroup;
class LocalMeeting;
class NodePages;
class MemoryKind;
}  // namespace gasket::rt

namespace gasket::gex {
// What this process's handles of a team naming several endpoints of one
// process share (teams.cpp makes it).
struct SeveralMembers {
    std::vector<int> jobranks;            // rank -> jobrank, every member
    std::vector<gex_Rank_t> first_ranks;  // per process of the runtime team: its least rank
    int local_members = 0;                // the team's members in this process
    std::atomic<int> live{0};             // this process's handles not yet destroyed (gex_TM_Destroy's last
                                          // one meets the other processes)
    // Their collectives: the members' shares gathered into one collective
    // among the processes.
    std::shared_ptr<rt::MemberGroup> group;
    // Their blocking calls (splits, duplicates, team construction,
    // publication): one thread per member meets the others here, and the
    // last to come makes the process's call.
    std::shared_ptr<rt::LocalMeeting> meeting;
};
}  // namespace gasket::gex

struct gasket_gex_segment {
    void* addr = nullptr;
    std::uintptr_t size = 0;
    const void* cdata = nullptr;
    // A gex_Segment_Create segment (segments.cpp); the attach segment is
    // host memory the job owns.
    gex_MK_t kind = GEX_MK_HOST;
    bool allocated = false;  // GASNet-allocated: freed by gex_Segment_Destroy
    // GASNet-allocated in pages node peers can map (owned; null: private
    // pages or the client's memory, reached by node peers through MPI).
    gasket::rt::NodePages* pages = nullptr;
    bool live = true;  // false once destroyed (the handle then names it as such)
    // Attached to the job's dynamic window (rt::Job::expose) by its first
    // gex_EP_PublishBoundSegment, so other processes reach it by MPI at
    // `disp`; withdrawn by gex_Segment_Destroy.
    bool exposed = false;
    std::intptr_t disp = 0;
};
struct gasket_gex_ep {
    gex_Segment_t segment = GEX_SEGMENT_INVALID;  // gex_Segment_Attach / gasnet_attach / gex_EP_BindSegment
    const void* cdata = nullptr;
    gex_EP_Index_t index = 0;  // 0: the primordial endpoint; gex_EP_Create: 1, 2, ...
    gex_EP_Capabilities_t capabilities = GEX_EP_CAPABILITY_ALL;
    gex_Flags_t flags = 0;  // gex_EP_Create's GEX_FLAG_HINT_ACCEL_* (gex_EP_QueryFlags)
};
struct gasket_gex_tm {
    const void* cdata = nullptr;
    // A team from gex_TM_Split / gex_TM_Create (the primordial team: the
    // job's world team, rank and size the job's, no jobrank table):
    gex_Flags_t flags = 0;             // as the constructor got them (gex_TM_QueryFlags)
    gex_Rank_t rank = 0, size = 0;     // the caller's rank, the number of members
    const int* jobranks = nullptr;     // rank -> jobrank, `size` entries
    gex_Memvec_t scratch{nullptr, 0};  // the scratch space the client granted (length 0: none)
    // A gex_TM_Create team naming endpoints made by gex_EP_Create: rank ->
    // endpoint index (empty: every member is its process's primordial
    // endpoint), and this handle's member (memory kinds §5.3 14: one
    // handle per member of this process).
    std::vector<gex_EP_Index_t> ep_indices;
    gasket_gex_ep* ep = nullptr;  // null: the primordial endpoint
    // The endpoint index of `rank` (< size): 0 unless ep_indices says.
    gex_EP_Index_t ep_index(gex_Rank_t rank) const { return ep_indices.empty() ? 0 : ep_indices[rank]; }
    std::atomic<int> domains{0};  // live atomic domains over the team (gex_AD_Create / Destroy)
    // The member processes and their communicator (`team`: one rank per
    // process; made and deleted in teams.cpp, so this header needs no
    // runtime team, nor MPI, to hold one), shared by this process's
    // handles of the team.  A team naming several endpoints of one process
    // has more ranks than `team`: `several` (the same on every member)
    // holds what this process's handles of it share, `jobranks` points
    // into its table, and this handle's member is local member
    // `local_index` (its place among this process's members, in rank
    // order).
    std::shared_ptr<const gasket::rt::Team> team;
    std::shared_ptr<gasket::gex::SeveralMembers> several;
    int local_index = 0;
};
struct gasket_gex_client {
    std::string name;
    gex_Flags_t flags = 0;
    const void* cdata = nullptr;
    // A GASNET_PAR client: its threads may be inside GASNet at once, so the
    // members of a team in this process can each make a blocking call.
    bool concurrent = false;
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
// and team (no segment bound yet); `concurrent`: a GASNET_PAR client.  Once
// per process (the callers check).
void make_client(const char* name, gex_Flags_t flags, bool concurrent);
// Binds the segment [addr, +size) to the primordial endpoint (size > 0).
void bind_segment(void* addr, std::uintptr_t size);

// The objects a handle names; fatal, naming `routine` and the value, for a
// handle that is not one of them (or a TM-pair where a team is needed).
// tm_of accepts the primordial team and every live made team; ep_of every
// endpoint; segment_of the attach segment and every live gex_Segment_Create
// segment.
gasket_gex_client& client_of(const char* routine, gex_Client_t client);
gasket_gex_ep& ep_of(const char* routine, gex_EP_t ep);
gasket_gex_tm& tm_of(const char* routine, gex_TM_t tm);
gasket_gex_segment& segment_of(const char* routine, gex_Segment_t seg);

// The objects of one kind a gex_ constructor made: owned here, found by
// handle under a lock, never freed, so a handle stays known (and a new
// object never takes a stale handle's address) until the process ends.
template <class T>
class Made {
public:
    // The object made n-th (0 first), or null.
    T* at(std::size_t n) {
        std::lock_guard<std::mutex> hold(lock_);
        return n < made_.size() ? made_[n].get() : nullptr;
    }
    T* find(const void* handle) {
        std::lock_guard<std::mutex> hold(lock_);
        for (const auto& m : made_)
            if (m.get() == handle) return m.get();
        return nullptr;
    }
    // Adds what make(n) returns, n the number made before it (under the
    // lock); null, adding nothing, when make returns null.
    template <class Make>
    T* add(Make&& make) {
        std::lock_guard<std::mutex> hold(lock_);
        std::unique_ptr<T> m = make(made_.size());
        if (!m) return nullptr;
        made_.push_back(std::move(m));
        return made_.back().get();
    }

private:
    std::mutex lock_;
    std::vector<std::unique_ptr<T>> made_;
};

// The endpoints made by gex_EP_Create (endpoints.cpp) and the segments made
// by gex_Segment_Create (segments.cpp): the one `ep` / `seg` names, or null
// (a destroyed segment is found, not live).
gasket_gex_ep* find_created_ep(gex_EP_t ep);
// The created endpoint of index `index` (>= 1), or null when there is none.
gasket_gex_ep* created_ep_at(gex_EP_Index_t index);
gasket_gex_segment* find_created_segment(gex_Segment_t seg);
// A new live host segment: the client's [address, +length) when address is
// not null, else `length` bytes of fresh zeroed pages (length a multiple of
// the page size; null when they cannot be had).  The caller checked both.
gasket_gex_segment* make_host_segment(void* address, std::uintptr_t length);
// A new live segment of device kind `kind` (a live gex_MK_Create kind, not
// GEX_MK_HOST): the client's [address, +length) when address is not null
// (it must be the kind's memory, inside one allocation), else `length`
// bytes the kind allocates.  Null, with `why` set and `code` the error to
// return (GASNET_ERR_BAD_ARG: not the kind's memory; GASNET_ERR_RESOURCE:
// the device refused to allocate).
gasket_gex_segment* make_device_segment(gex_MK_t kind, void* address, std::uintptr_t length, std::string& why,
                                        int& code);

// gex_Segment_Destroy (memory kinds §4.3), in two steps around the
// segment's withdrawal from the node peers that map it
// (src/gasnet/ep_segments.cpp): destroyable_segment checks the call --
// fatal, naming `routine`, for flags other than 0, the attach segment, and
// a handle that names no live created segment -- and returns the segment;
// release_segment (given that segment, `s`) unbinds it from its endpoints
// (a Long payload or AMO sent there later ends the job), withdraws it from
// the job's dynamic window, frees what Gasket allocated and marks the
// handle destroyed.
gasket_gex_segment& destroyable_segment(const char* routine, gex_Segment_t segment, gex_Flags_t flags);
void release_segment(const char* routine, gex_Segment_t segment, gasket_gex_segment& s);

// For a call that may communicate (memory kinds §3.6 6-7: "not valid in
// contexts which prohibit communication, including AM handler context or
// when holding an HSL"; the collective team and segment calls likewise):
// fatal, naming `routine`, inside an Active Message handler or while the
// calling thread holds a handler-safe lock.
void may_communicate(const char* routine);

// gex_System_{Get,Set}VerboseErrors: whether non-fatal errors print.
bool verbose();
void set_verbose(bool on);

// Whether `kind` is GEX_MK_HOST or a live gex_MK_Create kind
// (memory_kinds.cpp).
bool live_kind(gex_MK_t kind);
// The memory kind behind a live gex_MK_Create kind (null for GEX_MK_HOST or
// a handle that is no live kind), and the count of its live segments, which
// gex_MK_Destroy requires to be 0 (memory_kinds.cpp).
rt::MemoryKind* kind_object(gex_MK_t kind);
void count_segment(gex_MK_t kind, int delta);
// Whether this process has a live segment of device memory (of any kind):
// one relaxed load, so transfers that only might involve device memory ask
// this before looking further.  The count is count_segment's.
extern std::atomic<long> g_device_segments;
inline bool any_device_segment() { return g_device_segments.load(std::memory_order_relaxed) != 0; }

// A non-fatal error's line, naming `routine`, unless
// gex_System_SetVerboseErrors(0).
template <typename... Args>
void report(const char* routine, const char* fmt, Args... args) {
    if (verbose()) rt::error(routine, fmt, args...);
}
// A non-fatal error of a call with an error result: report()'s line, then
// `code`, which the call returns.
template <typename... Args>
int refuse(int code, const char* routine, const char* fmt, Args... args) {
    report(routine, fmt, args...);
    return code;
}

// The primordial team, and its TM-pair (gex_TM_Pair of the primordial
// endpoint and index 0): both name jobranks in point-to-point calls.
inline gex_TM_t primordial_tm() { return &g_objects.tm; }
inline gex_TM_t primordial_pair() {
    return reinterpret_cast<gex_TM_t>(reinterpret_cast<std::uintptr_t>(&g_objects.tm) | 1);
}
// Any other TM-pair (memory kinds §5.4) of local endpoint index l and
// remote index r is the address of slot l * GASNET_MAXEPS + r of a static
// table with its low bit set: equal arguments give equal handles, and none
// is a team's address.  make_pair gives the handle (the primordial pair for
// (0, 0)); pair_ends says whether tm is a TM-pair and, if so, its indices.
// Inline: the TM-pair RMA path (gasnet/gex_rma.cpp) asks it first.
gex_TM_t make_pair(gex_EP_Index_t local, gex_EP_Index_t remote);
extern std::uint16_t g_pair_slots[GASNET_MAXEPS * GASNET_MAXEPS];
inline bool pair_ends(gex_TM_t tm, gex_EP_Index_t* local, gex_EP_Index_t* remote) {
    gex_EP_Index_t l = 0, r = 0;
    if (tm != primordial_pair()) {
        const auto v = reinterpret_cast<std::uintptr_t>(tm);
        const auto first = reinterpret_cast<std::uintptr_t>(&g_pair_slots[0]);
        if (!(v & 1) || v - 1 < first || v - 1 >= first + sizeof g_pair_slots) return false;
        const std::size_t n = (v - 1 - first) / sizeof g_pair_slots[0];
        l = gex_EP_Index_t(n / GASNET_MAXEPS);
        r = gex_EP_Index_t(n % GASNET_MAXEPS);
    }
    if (local) *local = l;
    if (remote) *remote = r;
    return true;
}

// The endpoint a point-to-point RMA call names by (tm, rank), as (jobrank,
// endpoint index): a team's member (a made team's rank checked against its
// size) or a TM-pair's remote endpoint on jobrank `rank` (its range left to
// the call's own check).  Fatal, naming `routine`, for a tm that is
// neither.  Out of line: RMA, AMs and VIS reach it from their cold paths
// only (primordial_p2p first).
gex_EP_Location_t p2p_location(const char* routine, gex_TM_t tm, gex_Rank_t rank);

// Whether `tm` is the primordial team or its TM-pair (once a client
// exists): a point-to-point call's rank is then a jobrank of a primordial
// endpoint, sent from the primordial endpoint.
[[gnu::always_inline]] inline bool primordial_p2p(gex_TM_t tm) {
    // A TM-pair is the team | 1: both differ from the team in bit 0 at most.
    const auto differ = reinterpret_cast<std::uintptr_t>(tm) ^ reinterpret_cast<std::uintptr_t>(primordial_tm());
    return differ <= 1 && g_objects.made;
}
// The index of the local endpoint a point-to-point call through `tm` sends
// from: a TM-pair's local endpoint, a team's member of this process (0 for
// the primordial endpoint).  Fatal, naming `routine`, for a tm that is
// neither a team nor a TM-pair.
gex_EP_Index_t local_ep_index(const char* routine, gex_TM_t tm);

// Registers a team made by gex_TM_Split / gex_TM_Create (its handle becomes
// valid) and unregisters one for gex_TM_Destroy (invalid from then on; the
// caller deletes it).  Under the registry's lock.
void register_team(gasket_gex_tm* tm);
void unregister_team(gasket_gex_tm* tm);
// The rank in team `t` of the member of process `jobrank`, the least one
// where the process holds several; GEX_RANK_INVALID when none (for a made
// team, also when jobrank is out of range; the primordial team: jobrank
// itself, unchecked).  Constant time (the runtime team's table).
gex_Rank_t rank_of_jobrank(const gasket_gex_tm& t, gex_Rank_t jobrank);
// The live made team `tm` names, or null (no check that it is one).
gasket_gex_tm* find_team(gex_TM_t tm);
// The runtime team of a team handle (the job's world team for the
// primordial team): one rank per member process, for a call that runs over
// the team's members as one call per process (a collective, a publication,
// a team constructor with it as parent).
const rt::Team& processes(const gasket_gex_tm& tm);
// A blocking call over `tm` by one of its members (gex_TM_Split, gex_TM_Dup,
// gex_TM_Create with tm as parent, gex_EP_PublishBoundSegment): runs
// lead(inputs) once for this process, which makes the process's one call
// over processes(tm) for every member here and writes each member's
// results into its input.  With one member here, at once, inputs holding
// `input` alone; on a team naming several endpoints of this process, once
// every local member has called, each from its own thread (a GASNET_PAR
// client's: fatal, naming `routine`, for any other), by the last to come,
// inputs in local index (rank) order; the others serve Active Messages
// until it is done (rt::LocalMeeting).
void meet(const char* routine, const gasket_gex_tm& tm, void* input,
          const std::function<void(const std::vector<void*>& inputs)>& lead);

}  // namespace gasket::gex
