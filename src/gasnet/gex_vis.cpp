// src/gasnet/gex_vis.cpp -- GASNet-EX non-contiguous RMA (gasnet_vis.h;
// gasnet-ex-api.txt "Vector/Indexed/Strided (VIS)"): each description is
// walked as a byte stream on both sides, and every run contiguous on both
// sides is one contiguous transfer on the transfer path of gex_RMA_* and
// gasnet_put/get (transfer.hpp), which checks each remote piece against the
// peer's segment and completes it as the call's mode says.
#include <gasnet_vis.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "gex_am.hpp"
#include "src/gex/objects.hpp"
#include "transfer.hpp"

namespace gasket::gasnet {

namespace {

enum class Dir { put, get };
enum class Mode { blocking, nb, nbi };

[[noreturn, gnu::cold]] void bad_flags(const char* routine, gex_Flags_t flags, Dir dir) {
    rt::fatal(routine, "flags 0x%x: only GEX_FLAG_IMMEDIATE%s is accepted", unsigned(flags),
              dir == Dir::put ? " and GEX_FLAG_ENABLE_LEAF_LC" : "");
}

// The endpoint (tm, rank) names, as (jobrank, endpoint index: 0 for the
// primordial endpoint, else a created one's, memory kinds §5), checking the
// team and the flags; the ranges are checked by each transfer.
gex_EP_Location_t location_of(const char* routine, gex_TM_t tm, gex_Rank_t rank, gex_Flags_t flags, Dir dir) {
    const gex_EP_Location_t at =
        gex::primordial_p2p(tm) ? gex_EP_Location_t{rank, 0} : gex::p2p_location(routine, tm, rank);
    const gex_Flags_t accepted = GEX_FLAG_IMMEDIATE | (dir == Dir::put ? GEX_FLAG_ENABLE_LEAF_LC : 0);
    if (flags & ~accepted) bad_flags(routine, flags, dir);
    if (g_routes.nodes == 0) rt::fatal(routine, "called before a segment is attached (gex_Segment_Attach)");
    if (at.gex_rank >= g_routes.nodes)
        rt::fatal(routine, "rank %u is out of range (the team has %u ranks)", unsigned(rank), unsigned(g_routes.nodes));
    return at;
}

// The calling thread's armed peer completion (gex_VIS_SetPeerCompletionHandler):
// handler 0 when disarmed; the payload is copied at arming.
struct PeerCompletion {
    gex_AM_Index_t handler = 0;
    std::size_t nbytes = 0;
    unsigned char payload[GEX_VIS_MAX_PEERCOMPLETION];
};
thread_local PeerCompletion t_peer_completion;

[[noreturn, gnu::cold]] void armed_misuse(const char* routine, const char* why) {
    rt::fatal(routine, "a peer completion handler (index %u) is armed by gex_VIS_SetPeerCompletionHandler, %s",
              unsigned(t_peer_completion.handler), why);
}

// Whether the calling thread is armed: then a put must not pass
// GEX_FLAG_IMMEDIATE and a get may not come (fatal, naming `routine`).
inline bool armed(const char* routine, Dir dir, gex_Flags_t flags) {
    if (t_peer_completion.handler == 0) [[likely]]
        return false;
    if (dir == Dir::get) armed_misuse(routine, "which only VIS puts take (disarm it with handler 0 first)");
    if (flags & GEX_FLAG_IMMEDIATE) armed_misuse(routine, "and the put it binds may not pass GEX_FLAG_IMMEDIATE");
    return true;
}

// Issues the pieces of one operation: a piece that continues the previous
// one on both sides joins it; each run becomes one transfer.
class Mover {
public:
    // A put bound to an armed peer completion completes in the call (as
    // Blocking), then notifies the peer (finish()).
    Mover(const char* routine, gex_EP_Location_t at, Dir dir, Mode mode, gex_Flags_t flags)
        : routine_(routine),
          node_(gasnet_node_t(at.gex_rank)),
          index_(at.gex_ep_index),
          dir_(dir),
          notify_(armed(routine, dir, flags)),
          mode_(notify_ ? Mode::blocking : mode),
          sync_(mode_ == Mode::nbi ? Sync::implicit : Sync::explicit_handle),
          // Local completion waits for completion unless the client asked for it at return.
          bulk_(!(flags & GEX_FLAG_ENABLE_LEAF_LC)) {}

    // `len` bytes between `remote` (the peer's segment) and `local`.
    void piece(char* remote, char* local, std::size_t len) {
        if (len == 0) return;
        if (n_ && remote == remote_ + n_ && local == local_ + n_) {
            n_ += len;
            return;
        }
        issue();
        remote_ = remote;
        local_ = local;
        n_ = len;
    }

    // Issues what is left; the operation's event (Blocking: completed, so
    // GEX_EVENT_INVALID).
    gex_Event_t finish() {
        issue();
        if (mode_ != Mode::blocking) return handle_;
        complete(handle_);
        if (notify_) {
            PeerCompletion& pc = t_peer_completion;
            const gex_AM_Index_t handler = pc.handler;
            pc.handler = 0;  // disarmed before the send: one put, one notification
            gex_peer_notice(routine_, node_, index_, handler, pc.payload, pc.nbytes);
        }
        return GEX_EVENT_INVALID;
    }

private:
    void issue() {
        if (!n_) return;
        gasnet_handle_t h = GASNET_INVALID_HANDLE;
        if (index_ != 0)  // a created endpoint's segment
            h = dir_ == Dir::put ? put_ep(routine_, node_, index_, remote_, local_, n_, mode(sync_, bulk_))
                                 : get_ep(routine_, local_, node_, index_, remote_, n_, sync_);
        else
            h = dir_ == Dir::put ? put(routine_, node_, remote_, local_, n_, sync_, bulk_)
                                 : get(routine_, local_, node_, remote_, n_, sync_);
        n_ = 0;
        if (!h || h == handle_) return;
        handle_ = handle_ ? all_handle() : h;  // pieces with different handles: complete everything
    }

    const char* routine_;
    gasnet_node_t node_;
    gex_EP_Index_t index_;
    Dir dir_;
    bool notify_;
    Mode mode_;
    Sync sync_;
    bool bulk_;
    char* remote_ = nullptr;
    char* local_ = nullptr;
    std::size_t n_ = 0;
    gasnet_handle_t handle_ = GASNET_INVALID_HANDLE;
};

[[noreturn, gnu::cold]] void null_list(const char* routine, const char* which, std::size_t count) {
    rt::fatal(routine, "%s is NULL with a count of %zu", which, count);
}

[[noreturn, gnu::cold]] void sizes_differ(const char* routine, std::size_t dst, std::size_t src) {
    rt::fatal(routine, "the destination holds %zu bytes and the source %zu: they must be equal", dst, src);
}

// The total bytes of a vector list (fatal when the sum overflows).
std::size_t vector_bytes(const char* routine, const char* which, const gex_Memvec_t* list, std::size_t count) {
    if (count && !list) null_list(routine, which, count);
    std::size_t total = 0;
    for (std::size_t i = 0; i < count; ++i)
        if (__builtin_add_overflow(total, list[i].gex_len, &total))
            rt::fatal(routine, "%s: the lengths of its %zu entries add up to more than SIZE_MAX", which, count);
    return total;
}

// One side of a vector or indexed transfer, read as a stream of pieces.
struct Stream {
    const gex_Memvec_t* vec = nullptr;  // vector form
    void* const* index = nullptr;       // indexed form: each piece `len` bytes
    std::size_t len = 0;
    std::size_t count = 0;
    std::size_t i = 0, used = 0;  // the current piece, and the bytes of it already moved

    char* addr() const { return static_cast<char*>(vec ? vec[i].gex_addr : index[i]) + used; }
    std::size_t left() const { return (vec ? vec[i].gex_len : len) - used; }
    void skip_empty() {
        while (i < count && left() == 0) ++i, used = 0;
    }
};

// Moves the bytes of `src` into `dst` (equal totals, checked by the caller).
void walk(Mover& m, Dir dir, Stream dst, Stream src) {
    dst.skip_empty();
    src.skip_empty();
    while (dst.i < dst.count && src.i < src.count) {
        const std::size_t n = std::min(dst.left(), src.left());
        if (dir == Dir::put)
            m.piece(dst.addr(), src.addr(), n);
        else
            m.piece(src.addr(), dst.addr(), n);
        dst.used += n;
        src.used += n;
        dst.skip_empty();
        src.skip_empty();
    }
}

gex_Event_t vector(const char* routine, Dir dir, Mode mode, gex_TM_t tm, gex_Rank_t rank, std::size_t dstcount,
                   const gex_Memvec_t* dstlist, std::size_t srccount, const gex_Memvec_t* srclist, gex_Flags_t flags) {
    const gex_EP_Location_t at = location_of(routine, tm, rank, flags, dir);
    const std::size_t d = vector_bytes(routine, "dstlist", dstlist, dstcount);
    const std::size_t s = vector_bytes(routine, "srclist", srclist, srccount);
    if (d != s) sizes_differ(routine, d, s);
    Mover m(routine, at, dir, mode, flags);
    walk(m, dir, Stream{dstlist, nullptr, 0, dstcount}, Stream{srclist, nullptr, 0, srccount});
    return m.finish();
}

gex_Event_t indexed(const char* routine, Dir dir, Mode mode, gex_TM_t tm, gex_Rank_t rank, std::size_t dstcount,
                    void* const* dstlist, std::size_t dstlen, std::size_t srccount, void* const* srclist,
                    std::size_t srclen, gex_Flags_t flags) {
    const gex_EP_Location_t at = location_of(routine, tm, rank, flags, dir);
    if (dstcount && dstlen && !dstlist) null_list(routine, "dstlist", dstcount);
    if (srccount && srclen && !srclist) null_list(routine, "srclist", srccount);
    const std::size_t d = rt::checked_bytes(routine, "dstcount x dstlen", dstcount, dstlen);
    const std::size_t s = rt::checked_bytes(routine, "srccount x srclen", srccount, srclen);
    if (d != s) sizes_differ(routine, d, s);
    Mover m(routine, at, dir, mode, flags);
    if (d) walk(m, dir, Stream{nullptr, dstlist, dstlen, dstcount}, Stream{nullptr, srclist, srclen, srccount});
    return m.finish();
}

gex_Event_t strided(const char* routine, Dir dir, Mode mode, gex_TM_t tm, gex_Rank_t rank, void* dstaddr,
                    const ptrdiff_t* dststrides, void* srcaddr, const ptrdiff_t* srcstrides, std::size_t elemsz,
                    const std::size_t* count, std::size_t levels, gex_Flags_t flags) {
    // The specification's no-ops ignore the team, rank and addresses.
    if (elemsz == 0) return GEX_EVENT_INVALID;  // every other argument ignored too
    if (levels && (!count || !dststrides || !srcstrides))
        rt::fatal(routine, "count, dststrides or srcstrides is NULL with stridelevels %zu", levels);
    std::size_t chunks = 1;
    for (std::size_t k = 0; k < levels; ++k) {
        if (count[k] == 0) return GEX_EVENT_INVALID;
        chunks = rt::checked_bytes(routine, "the product of count[]", chunks, count[k]);
    }
    rt::checked_bytes(routine, "elemsz x the chunks", chunks, elemsz);
    const gex_EP_Location_t at = location_of(routine, tm, rank, flags, dir);
    Mover m(routine, at, dir, mode, flags);
    // An odometer over (i_0 .. i_{L-1}); the addresses move by whole strides.
    std::vector<std::size_t> i(levels, 0);
    char* dst = static_cast<char*>(dstaddr);
    char* src = static_cast<char*>(srcaddr);
    for (std::size_t c = 0; c < chunks; ++c) {
        if (dir == Dir::put)
            m.piece(dst, src, elemsz);
        else
            m.piece(src, dst, elemsz);
        for (std::size_t k = 0; k < levels; ++k) {
            if (++i[k] < count[k]) {
                dst += dststrides[k];
                src += srcstrides[k];
                break;
            }
            // wrap level k: back to its start
            dst -= dststrides[k] * ptrdiff_t(count[k] - 1);
            src -= srcstrides[k] * ptrdiff_t(count[k] - 1);
            i[k] = 0;
        }
    }
    return m.finish();
}

}  // namespace

}  // namespace gasket::gasnet

using namespace gasket;

void gex_VIS_SetPeerCompletionHandler(gex_AM_Index_t handler, const void* source_addr, size_t nbytes,
                                      gex_Flags_t flags) noexcept {
    const char* routine = "gex_VIS_SetPeerCompletionHandler";
    if (flags) rt::fatal(routine, "flags 0x%x: must be 0", unsigned(flags));
    gasnet::PeerCompletion& pc = gasnet::t_peer_completion;
    if (handler == 0) {
        pc.handler = 0;
        return;
    }
    if (nbytes > GEX_VIS_MAX_PEERCOMPLETION)
        rt::fatal(routine, "nbytes %zu is above GEX_VIS_MAX_PEERCOMPLETION (%zu)", nbytes,
                  size_t(GEX_VIS_MAX_PEERCOMPLETION));
    if (nbytes && !source_addr) rt::fatal(routine, "source_addr is NULL with nbytes %zu", nbytes);
    gasnet::check_peer_completion_handler(routine, handler);
    if (nbytes) std::memcpy(pc.payload, source_addr, nbytes);
    pc.nbytes = nbytes;
    pc.handler = handler;
}
using gasnet::Dir;
using gasnet::Mode;

extern "C" {

// One Blocking, NB and NBI entry point per shape and direction, from one table.
#define GASKET_GEX_VIS_DEFINE(C, RET, MODE, RESULT)                                                                    \
    RET gex_VIS_VectorGet##C(gex_TM_t tm, size_t dstcount, gex_Memvec_t const dstlist[], gex_Rank_t srcrank,           \
                             size_t srccount, gex_Memvec_t const srclist[], gex_Flags_t flags) noexcept {              \
        const gex_Event_t e = gasnet::vector("gex_VIS_VectorGet" #C, Dir::get, MODE, tm, srcrank, dstcount, dstlist,   \
                                             srccount, srclist, flags);                                                \
        return RESULT;                                                                                                 \
    }                                                                                                                  \
    RET gex_VIS_VectorPut##C(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount, gex_Memvec_t const dstlist[],           \
                             size_t srccount, gex_Memvec_t const srclist[], gex_Flags_t flags) noexcept {              \
        const gex_Event_t e = gasnet::vector("gex_VIS_VectorPut" #C, Dir::put, MODE, tm, dstrank, dstcount, dstlist,   \
                                             srccount, srclist, flags);                                                \
        return RESULT;                                                                                                 \
    }                                                                                                                  \
    RET gex_VIS_IndexedGet##C(gex_TM_t tm, size_t dstcount, void* const dstlist[], size_t dstlen, gex_Rank_t srcrank,  \
                              size_t srccount, void* const srclist[], size_t srclen, gex_Flags_t flags) noexcept {     \
        const gex_Event_t e = gasnet::indexed("gex_VIS_IndexedGet" #C, Dir::get, MODE, tm, srcrank, dstcount, dstlist, \
                                              dstlen, srccount, srclist, srclen, flags);                               \
        return RESULT;                                                                                                 \
    }                                                                                                                  \
    RET gex_VIS_IndexedPut##C(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount, void* const dstlist[], size_t dstlen,  \
                              size_t srccount, void* const srclist[], size_t srclen, gex_Flags_t flags) noexcept {     \
        const gex_Event_t e = gasnet::indexed("gex_VIS_IndexedPut" #C, Dir::put, MODE, tm, dstrank, dstcount, dstlist, \
                                              dstlen, srccount, srclist, srclen, flags);                               \
        return RESULT;                                                                                                 \
    }                                                                                                                  \
    RET gex_VIS_StridedGet##C(gex_TM_t tm, void* dstaddr, const ptrdiff_t dststrides[], gex_Rank_t srcrank,            \
                              void* srcaddr, const ptrdiff_t srcstrides[], size_t elemsz, const size_t count[],        \
                              size_t stridelevels, gex_Flags_t flags) noexcept {                                       \
        const gex_Event_t e = gasnet::strided("gex_VIS_StridedGet" #C, Dir::get, MODE, tm, srcrank, dstaddr,           \
                                              dststrides, srcaddr, srcstrides, elemsz, count, stridelevels, flags);    \
        return RESULT;                                                                                                 \
    }                                                                                                                  \
    RET gex_VIS_StridedPut##C(gex_TM_t tm, gex_Rank_t dstrank, void* dstaddr, const ptrdiff_t dststrides[],            \
                              void* srcaddr, const ptrdiff_t srcstrides[], size_t elemsz, const size_t count[],        \
                              size_t stridelevels, gex_Flags_t flags) noexcept {                                       \
        const gex_Event_t e = gasnet::strided("gex_VIS_StridedPut" #C, Dir::put, MODE, tm, dstrank, dstaddr,           \
                                              dststrides, srcaddr, srcstrides, elemsz, count, stridelevels, flags);    \
        return RESULT;                                                                                                 \
    }
GASKET_GEX_VIS_DEFINE(NB, gex_Event_t, Mode::nb, e)
GASKET_GEX_VIS_DEFINE(NBI, int, Mode::nbi, ((void)e, 0))
GASKET_GEX_VIS_DEFINE(Blocking, int, Mode::blocking, ((void)e, 0))
#undef GASKET_GEX_VIS_DEFINE

}  // extern "C"
