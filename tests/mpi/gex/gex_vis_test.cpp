// tests/mpi/gex/gex_vis_test.cpp -- GASNet-EX non-contiguous RMA
// (gasnet_vis.h; gasnet-ex-api.txt "Vector/Indexed/Strided (VIS)"): every
// vector, indexed and strided put and get, Blocking, NB and NBI, against the
// same movement done element by element with gex_RMA_*Blocking: puts into
// the right neighbour's segment, gets from the left neighbour's.  Shapes:
// pieces split differently on each side, empty entries, transposes and
// reflections (negative strides), rows contiguous on both sides (joined),
// the no-op forms; GEX_FLAG_ENABLE_LEAF_LC with the source overwritten at
// once.  Peer completion (gex_VIS_SetPeerCompletionHandler): the handler
// runs once per armed put, at the peer, as a reply handler, with the
// payload, after the put's data; disarming with handler 0.
//
// Region: [kRegion, +kRegionBytes) of every segment: the first half is
// where VIS puts land, the second where the element-by-element reference
// lands; the source pattern for gets sits at kPattern.
#include <gasnet_vis.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "gex_test.hpp"

using gex_test::barrier;
using gex_test::g_job;
using gex_test::pattern;

namespace {

constexpr std::size_t kRegion = std::size_t(2) << 20;
constexpr std::size_t kHalf = 64 << 10;  // VIS at kRegion, reference at kRegion + kHalf
constexpr std::size_t kPattern = kRegion + 2 * kHalf;

gex_Rank_t right() { return (g_job.me + 1) % g_job.n; }
gex_Rank_t left() { return (g_job.me + g_job.n - 1) % g_job.n; }

char* remote_base(gex_Rank_t r) {
    void* owner = nullptr;
    gex_Event_Wait(gex_EP_QueryBoundSegmentNB(g_job.tm, r, &owner, nullptr, nullptr, 0));
    return static_cast<char*>(owner);
}

enum class Mode { blocking, nb, nbi };
const char* name(Mode m) { return m == Mode::blocking ? "Blocking" : m == Mode::nb ? "NB" : "NBI"; }

// Completes what a VIS call of mode m started (its event, or the NBI ops).
void sync(Mode m, gex_Event_t e) {
    if (m == Mode::nb) gex_Event_Wait(e);
    if (m == Mode::nbi) gex_NBI_Wait(GEX_EC_ALL, 0);
}

// One element-by-element move: `len` bytes between byte `remote` of the
// peer's area and byte `local` of the local buffer.
struct Elem {
    std::ptrdiff_t remote, local;
    std::size_t len;
};

// A put shape: `vis(peer_area, src, mode)` moves src into the peer's area
// with one VIS call; `elems` says the same movement piece by piece.
// Every process puts into its right neighbour; each then compares the VIS
// half of its own region with the reference half.
void check_put(const char* what, const std::function<gex_Event_t(char*, char*, Mode)>& vis,
               const std::vector<Elem>& elems, std::ptrdiff_t area_start) {
    for (Mode m : {Mode::blocking, Mode::nb, Mode::nbi}) {
        std::vector<char> src(16 << 10);
        for (std::size_t i = 0; i < src.size(); ++i) src[i] = char(pattern(g_job.me, i, unsigned(m) + 1));
        char* peer = remote_base(right()) + kRegion + area_start;
        sync(m, vis(peer, src.data(), m));
        for (const Elem& e : elems)
            gex_RMA_PutBlocking(g_job.tm, right(), peer + kHalf + e.remote, src.data() + e.local, e.len, 0);
        barrier();
        const unsigned char* mine = g_job.base + kRegion;
        std::size_t bad = 0, first = kHalf;
        for (std::size_t i = 0; i < kHalf; ++i)
            if (mine[i] != mine[kHalf + i]) {
                ++bad;
                if (first == kHalf) first = i;
            }
        EXPECT_EQ(bad, 0u) << what << " (" << name(m) << "): " << bad << " bytes differ from the reference, first at "
                           << first;
        barrier();
        std::memset(g_job.base + kRegion, 0, 2 * kHalf);
        barrier();
    }
}

// A get shape: `vis(dst, peer_pattern, mode)` reads the left neighbour's
// pattern area into dst; compared with the same read piece by piece.
void check_get(const char* what, const std::function<gex_Event_t(char*, char*, Mode)>& vis,
               const std::vector<Elem>& elems, std::ptrdiff_t area_start) {
    char* peer = remote_base(left()) + kPattern + area_start;
    for (Mode m : {Mode::blocking, Mode::nb, Mode::nbi}) {
        std::vector<char> got(16 << 10, 0), want(16 << 10, 0);
        sync(m, vis(got.data(), peer, m));
        for (const Elem& e : elems)
            gex_RMA_GetBlocking(g_job.tm, want.data() + e.local, left(), peer + e.remote, e.len, 0);
        EXPECT_EQ(got, want) << what << " (" << name(m) << ")";
        std::size_t moved = 0;
        for (const Elem& e : elems) moved += e.len;
        EXPECT_GT(moved, 0u);
    }
}

// The pieces of a strided move, by nested loops (level L-1 outermost).
void strided_elems(std::vector<Elem>& out, std::ptrdiff_t remote, const std::ptrdiff_t* rstrides, std::ptrdiff_t local,
                   const std::ptrdiff_t* lstrides, std::size_t elemsz, const std::size_t* count, std::size_t level) {
    if (level == 0) {
        out.push_back({remote, local, elemsz});
        return;
    }
    for (std::size_t i = 0; i < count[level - 1]; ++i)
        strided_elems(out, remote + std::ptrdiff_t(i) * rstrides[level - 1], rstrides,
                      local + std::ptrdiff_t(i) * lstrides[level - 1], lstrides, elemsz, count, level - 1);
}

class GexVis : public ::testing::Test {
protected:
    void SetUp() override {
        // Every process's pattern area, for its right neighbour's gets.
        for (std::size_t i = 0; i < 32 << 10; ++i) g_job.base[kPattern + i] = pattern(g_job.me, i, 99);
        barrier();
    }
    void TearDown() override {
        barrier();
        std::memset(g_job.base + kRegion, 0, 2 * kHalf + (32 << 10));
        barrier();
    }
};

// Strided shapes: a 3-D box (4 x 5 x 6 elements of 8 bytes) with different
// row pitches on each side; its transpose (levels swapped on one side); a
// reflection (negative strides, starting at the far corner); rows
// contiguous on both sides (the transfers join).
struct Shape {
    const char* what;
    std::size_t elemsz;
    std::vector<std::size_t> count;
    std::vector<std::ptrdiff_t> rstrides, lstrides;
    std::ptrdiff_t rstart, lstart;  // byte offsets of chunk (0, .., 0)
};
std::vector<Shape> shapes() {
    return {
        {"box", 8, {6, 5, 4}, {8, 64, 512}, {8, 48, 240}, 0, 0},
        {"transpose", 8, {6, 5}, {8, 48}, {40, 8}, 0, 0},
        {"reflection", 8, {6, 5, 4}, {-8, -64, -512}, {8, 48, 240}, 8 * 5 + 64 * 4 + 512 * 3, 0},
        {"rows joined", 24, {7, 3}, {24, 168}, {24, 168}, 16, 8},
        {"one chunk", 100, {}, {}, {}, 3, 5},
    };
}

TEST_F(GexVis, StridedPut) {
    for (const Shape& s : shapes()) {
        std::vector<Elem> elems;
        strided_elems(elems, 0, s.rstrides.data(), s.lstart, s.lstrides.data(), s.elemsz, s.count.data(),
                      s.count.size());
        auto vis = [&](char* peer, char* src, Mode m) -> gex_Event_t {
            void* dst = peer;
            void* from = src + s.lstart;
            const std::size_t L = s.count.size();
            if (m == Mode::blocking)
                return gex_VIS_StridedPutBlocking(g_job.tm, right(), dst, s.rstrides.data(), from, s.lstrides.data(),
                                                  s.elemsz, s.count.data(), L, 0),
                       GEX_EVENT_INVALID;
            if (m == Mode::nb)
                return gex_VIS_StridedPutNB(g_job.tm, right(), dst, s.rstrides.data(), from, s.lstrides.data(),
                                            s.elemsz, s.count.data(), L, 0);
            return gex_VIS_StridedPutNBI(g_job.tm, right(), dst, s.rstrides.data(), from, s.lstrides.data(), s.elemsz,
                                         s.count.data(), L, 0),
                   GEX_EVENT_INVALID;
        };
        check_put(s.what, vis, elems, s.rstart);
    }
}

TEST_F(GexVis, StridedGet) {
    for (const Shape& s : shapes()) {
        std::vector<Elem> elems;  // remote: the pattern side; local: the buffer
        strided_elems(elems, s.rstart, s.rstrides.data(), s.lstart, s.lstrides.data(), s.elemsz, s.count.data(),
                      s.count.size());
        auto vis = [&](char* dst, char* peer, Mode m) -> gex_Event_t {
            void* to = dst + s.lstart;
            void* from = peer + s.rstart;
            const std::size_t L = s.count.size();
            if (m == Mode::blocking)
                return gex_VIS_StridedGetBlocking(g_job.tm, to, s.lstrides.data(), left(), from, s.rstrides.data(),
                                                  s.elemsz, s.count.data(), L, 0),
                       GEX_EVENT_INVALID;
            if (m == Mode::nb)
                return gex_VIS_StridedGetNB(g_job.tm, to, s.lstrides.data(), left(), from, s.rstrides.data(), s.elemsz,
                                            s.count.data(), L, 0);
            return gex_VIS_StridedGetNBI(g_job.tm, to, s.lstrides.data(), left(), from, s.rstrides.data(), s.elemsz,
                                         s.count.data(), L, 0),
                   GEX_EVENT_INVALID;
        };
        check_get(s.what, vis, elems, 0);
    }
}

// Vector: the destination in pieces of 8, 0, 100, 3, 1000 bytes; the source
// in 555, 0, 556 (the same 1111 bytes, split elsewhere), scattered.
TEST_F(GexVis, VectorPutAndGet) {
    const std::size_t rlen[] = {8, 0, 100, 3, 1000};
    const std::ptrdiff_t roff[] = {4000, 0, 16, 200, 9000};
    const std::size_t llen[] = {555, 0, 556};
    const std::ptrdiff_t loff[] = {700, 50, 3000};
    // The reference: walk both lists as streams.
    std::vector<Elem> elems;
    {
        std::size_t i = 0, j = 0, ui = 0, uj = 0;
        while (i < 5 && j < 3) {
            if (rlen[i] == ui) {
                ++i, ui = 0;
                continue;
            }
            if (llen[j] == uj) {
                ++j, uj = 0;
                continue;
            }
            const std::size_t n = std::min(rlen[i] - ui, llen[j] - uj);
            elems.push_back({roff[i] + std::ptrdiff_t(ui), loff[j] + std::ptrdiff_t(uj), n});
            ui += n, uj += n;
        }
    }
    auto lists = [&](char* remote, char* local, std::vector<gex_Memvec_t>& r, std::vector<gex_Memvec_t>& l) {
        for (int k = 0; k < 5; ++k) r.push_back({remote + roff[k], rlen[k]});
        for (int k = 0; k < 3; ++k) l.push_back({local + loff[k], llen[k]});
    };
    check_put(
        "vector put",
        [&](char* peer, char* src, Mode m) -> gex_Event_t {
            std::vector<gex_Memvec_t> r, l;
            lists(peer, src, r, l);
            if (m == Mode::blocking)
                return gex_VIS_VectorPutBlocking(g_job.tm, right(), 5, r.data(), 3, l.data(), 0), GEX_EVENT_INVALID;
            if (m == Mode::nb) {
                const gex_Event_t e = gex_VIS_VectorPutNB(g_job.tm, right(), 5, r.data(), 3, l.data(), 0);
                gex_Event_Wait(e);  // the lists must live until completion
                return GEX_EVENT_INVALID;
            }
            gex_VIS_VectorPutNBI(g_job.tm, right(), 5, r.data(), 3, l.data(), 0);
            gex_NBI_Wait(GEX_EC_ALL, 0);
            return GEX_EVENT_INVALID;
        },
        elems, 0);
    check_get(
        "vector get",
        [&](char* dst, char* peer, Mode m) -> gex_Event_t {
            std::vector<gex_Memvec_t> r, l;
            lists(peer, dst, r, l);
            if (m == Mode::blocking)
                return gex_VIS_VectorGetBlocking(g_job.tm, 3, l.data(), left(), 5, r.data(), 0), GEX_EVENT_INVALID;
            if (m == Mode::nb) {
                gex_Event_Wait(gex_VIS_VectorGetNB(g_job.tm, 3, l.data(), left(), 5, r.data(), 0));
                return GEX_EVENT_INVALID;
            }
            gex_VIS_VectorGetNBI(g_job.tm, 3, l.data(), left(), 5, r.data(), 0);
            gex_NBI_Wait(GEX_EC_ALL, 0);
            return GEX_EVENT_INVALID;
        },
        elems, 0);
}

// Indexed: 12 remote pieces of 8 bytes from 4 local pieces of 24.
TEST_F(GexVis, IndexedPutAndGet) {
    std::vector<Elem> elems;
    for (std::size_t k = 0; k < 12; ++k)
        elems.push_back({std::ptrdiff_t(1000 + 40 * k), std::ptrdiff_t(100 * (k / 3) + 8 * (k % 3)), 8});
    auto lists = [&](char* remote, char* local, std::vector<void*>& r, std::vector<void*>& l) {
        for (std::size_t k = 0; k < 12; ++k) r.push_back(remote + 1000 + 40 * k);
        for (std::size_t k = 0; k < 4; ++k) l.push_back(local + 100 * k);
    };
    check_put(
        "indexed put",
        [&](char* peer, char* src, Mode m) -> gex_Event_t {
            std::vector<void*> r, l;
            lists(peer, src, r, l);
            if (m == Mode::blocking)
                gex_VIS_IndexedPutBlocking(g_job.tm, right(), 12, r.data(), 8, 4, l.data(), 24, 0);
            else if (m == Mode::nb)
                gex_Event_Wait(gex_VIS_IndexedPutNB(g_job.tm, right(), 12, r.data(), 8, 4, l.data(), 24, 0));
            else {
                gex_VIS_IndexedPutNBI(g_job.tm, right(), 12, r.data(), 8, 4, l.data(), 24, 0);
                gex_NBI_Wait(GEX_EC_ALL, 0);
            }
            return GEX_EVENT_INVALID;
        },
        elems, 0);
    check_get(
        "indexed get",
        [&](char* dst, char* peer, Mode m) -> gex_Event_t {
            std::vector<void*> r, l;
            lists(peer, dst, r, l);
            if (m == Mode::blocking)
                gex_VIS_IndexedGetBlocking(g_job.tm, 4, l.data(), 24, left(), 12, r.data(), 8, 0);
            else if (m == Mode::nb)
                gex_Event_Wait(gex_VIS_IndexedGetNB(g_job.tm, 4, l.data(), 24, left(), 12, r.data(), 8, 0));
            else {
                gex_VIS_IndexedGetNBI(g_job.tm, 4, l.data(), 24, left(), 12, r.data(), 8, 0);
                gex_NBI_Wait(GEX_EC_ALL, 0);
            }
            return GEX_EVENT_INVALID;
        },
        elems, 0);
}

// GEX_FLAG_ENABLE_LEAF_LC: the source may change once the call returns (the
// leaf event is complete); the no-op forms ignore what they may ignore.
TEST_F(GexVis, LeafLocalCompletionAndNoOps) {
    char* peer = remote_base(right()) + kRegion;
    std::vector<char> src(4096);
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = char(pattern(g_job.me, i, 7));
    const std::ptrdiff_t strides[] = {64};
    const std::size_t count[] = {32};  // 32 rows of 48 bytes, pitch 64 on both sides
    const gex_Event_t root = gex_VIS_StridedPutNB(g_job.tm, right(), peer, strides, src.data(), strides, 48, count, 1,
                                                  GEX_FLAG_ENABLE_LEAF_LC);
    EXPECT_EQ(gex_Event_QueryLeaf(root, GEX_EC_LC), GEX_EVENT_INVALID);
    std::memset(src.data(), 0x5a, src.size());  // locally complete: may be overwritten now
    gex_Event_Wait(root);
    gex_VIS_StridedPutNBI(g_job.tm, right(), peer + 4096, strides, src.data(), strides, 48, count, 1,
                          GEX_FLAG_ENABLE_LEAF_LC | GEX_FLAG_IMMEDIATE);
    std::memset(src.data(), 0x33, src.size());
    gex_NBI_Wait(GEX_EC_ALL, 0);
    // No-ops: elemsz 0 and a zero count ignore the team and addresses.
    const std::size_t zero[] = {0};
    EXPECT_EQ(gex_VIS_StridedPutNB(reinterpret_cast<gex_TM_t>(0x1000), 99, nullptr, strides, nullptr, strides, 0, count,
                                   1, 0),
              GEX_EVENT_INVALID);
    EXPECT_EQ(gex_VIS_StridedGetBlocking(reinterpret_cast<gex_TM_t>(0x1000), nullptr, strides, 99, nullptr, strides, 8,
                                         zero, 1, 0),
              0);
    EXPECT_EQ(gex_VIS_VectorPutNB(g_job.tm, right(), 0, nullptr, 0, nullptr, 0), GEX_EVENT_INVALID);
    barrier();
    const unsigned char* mine = g_job.base + kRegion;
    std::size_t bad = 0;
    for (std::size_t row = 0; row < 32; ++row)
        for (std::size_t b = 0; b < 48; ++b) {
            const std::size_t at = row * 64 + b;
            bad += mine[at] != pattern(left(), at, 7);
            bad += mine[4096 + at] != 0x5a;
        }
    EXPECT_EQ(bad, 0u);
}

// Peer completion: what this process's handler saw (it runs here, for the
// left neighbour's armed puts into this process's region).
struct PeerSeen {
    std::atomic<int> calls{0};
    int src = -1, is_req = -1;
    std::size_t bad_bytes = 0;  // region bytes not yet the put's data when the handler ran
    std::string payload;
};
PeerSeen g_peer_seen;
unsigned g_peer_salt = 0;                                              // the salt of the put under way
constexpr std::size_t kPeerRows = 32, kPeerRow = 48, kPeerPitch = 64;  // the put: 32 rows of 48 bytes
constexpr gex_AM_Index_t kPeerIndex = 172;

void on_peer_completion(gex_Token_t token, void* buf, size_t nbytes) {
    gex_Token_Info_t info;
    gex_Token_Info(token, &info, GEX_TI_SRCRANK | GEX_TI_IS_REQ);
    g_peer_seen.src = int(info.gex_srcrank);
    g_peer_seen.is_req = info.gex_is_req;
    const unsigned char* mine = g_job.base + kRegion;
    std::size_t bad = 0;
    for (std::size_t row = 0; row < kPeerRows; ++row)
        for (std::size_t b = 0; b < kPeerRow; ++b)
            bad += mine[row * kPeerPitch + b] != pattern(left(), row * kPeerPitch + b, g_peer_salt);
    g_peer_seen.bad_bytes = bad;
    g_peer_seen.payload.assign(static_cast<const char*>(buf), nbytes);
    g_peer_seen.calls.fetch_add(1, std::memory_order_release);
}

// Each process arms, puts 32 rows into its right neighbour (strided
// Blocking, vector NB, indexed NBI in turn) and waits for the notice of its
// left neighbour's put: it must come once, from the left neighbour, as a
// reply (not a request), with that neighbour's payload, after its data.
TEST_F(GexVis, PeerCompletion) {
    static bool registered = false;
    if (!registered) {
        gex_AM_Entry_t entry{kPeerIndex,
                             reinterpret_cast<gex_AM_Fn_t>(&on_peer_completion),
                             GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY,
                             0,
                             nullptr,
                             "vis_peer_completion"};
        ASSERT_EQ(gex_EP_RegisterHandlers(g_job.ep, &entry, 1), GASNET_OK);
        registered = true;
    }
    barrier();
    char* peer = remote_base(right()) + kRegion;
    std::vector<char> src(kPeerRows * kPeerPitch);
    const std::ptrdiff_t strides[] = {std::ptrdiff_t(kPeerPitch)};
    const std::size_t count[] = {kPeerRows};
    for (Mode m : {Mode::blocking, Mode::nb, Mode::nbi}) {
        g_peer_salt = 40 + unsigned(m);
        for (std::size_t i = 0; i < src.size(); ++i) src[i] = char(pattern(g_job.me, i, g_peer_salt));
        const int before = g_peer_seen.calls.load();
        barrier();
        const std::string note = "done by " + std::to_string(g_job.me) + " in " + name(m);
        gex_VIS_SetPeerCompletionHandler(kPeerIndex, note.data(), note.size(), 0);
        std::vector<gex_Memvec_t> dst(kPeerRows), from(kPeerRows);
        std::vector<void*> dsti(kPeerRows), fromi(kPeerRows);
        for (std::size_t r = 0; r < kPeerRows; ++r) {
            dst[r] = {peer + r * kPeerPitch, kPeerRow};
            from[r] = {src.data() + r * kPeerPitch, kPeerRow};
            dsti[r] = dst[r].gex_addr;
            fromi[r] = from[r].gex_addr;
        }
        if (m == Mode::blocking) {
            EXPECT_EQ(gex_VIS_StridedPutBlocking(g_job.tm, right(), peer, strides, src.data(), strides, kPeerRow, count,
                                                 1, 0),
                      0);
        } else if (m == Mode::nb) {
            // Bound to a peer completion, the put completes in the call.
            EXPECT_EQ(gex_VIS_VectorPutNB(g_job.tm, right(), kPeerRows, dst.data(), kPeerRows, from.data(), 0),
                      GEX_EVENT_INVALID);
        } else {
            EXPECT_EQ(gex_VIS_IndexedPutNBI(g_job.tm, right(), kPeerRows, dsti.data(), kPeerRow, kPeerRows,
                                            fromi.data(), kPeerRow, 0),
                      0);
            gex_NBI_Wait(GEX_EC_ALL, 0);
        }
        while (g_peer_seen.calls.load(std::memory_order_acquire) == before) gasnet_AMPoll();
        EXPECT_EQ(g_peer_seen.calls.load(), before + 1) << name(m);
        EXPECT_EQ(g_peer_seen.src, int(left())) << name(m);
        EXPECT_EQ(g_peer_seen.is_req, 0) << name(m) << ": a peer completion handler runs as a reply handler";
        EXPECT_EQ(g_peer_seen.bad_bytes, 0u) << name(m) << ": the handler ran before the put's data was there";
        EXPECT_EQ(g_peer_seen.payload, "done by " + std::to_string(left()) + " in " + name(m));
        barrier();
        std::memset(g_job.base + kRegion, 0, kPeerRows * kPeerPitch);
        barrier();
    }
    // Disarmed (handler 0): the next put notifies nobody; a put is bound
    // only once (the second put after one arming notifies nobody either).
    const int before = g_peer_seen.calls.load();
    barrier();  // no notice of the left neighbour's can arrive before `before` was read
    gex_VIS_SetPeerCompletionHandler(kPeerIndex, nullptr, 0, 0);
    gex_VIS_SetPeerCompletionHandler(0, nullptr, 0, 0);
    gex_VIS_StridedPutBlocking(g_job.tm, right(), peer, strides, src.data(), strides, kPeerRow, count, 1, 0);
    gex_VIS_SetPeerCompletionHandler(kPeerIndex, nullptr, 0, 0);
    gex_VIS_StridedPutBlocking(g_job.tm, right(), peer, strides, src.data(), strides, kPeerRow, count, 1, 0);
    gex_VIS_StridedPutBlocking(g_job.tm, right(), peer, strides, src.data(), strides, kPeerRow, count, 1, 0);
    while (g_peer_seen.calls.load(std::memory_order_acquire) == before) gasnet_AMPoll();
    barrier();  // every notice sent was sent before it; polls served the rest
    for (int i = 0; i < 1000; ++i) gasnet_AMPoll();
    EXPECT_EQ(g_peer_seen.calls.load(), before + 1) << "one notice for one arming, none after disarming";
    EXPECT_EQ(g_peer_seen.payload, "");
}

}  // namespace
