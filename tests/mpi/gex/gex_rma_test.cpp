// tests/mpi/gex/gex_rma_test.cpp -- GASNet-EX contiguous RMA, events and NBI
// synchronization (gasnet-ex-api.txt, "RMA", "Event test/wait operations",
// "NBI Access regions"): every form moves the right bytes to and from every
// other process, in each local-completion mode; events and GASNet-1 handles
// interoperate.
//
// Each process writes into its right neighbour's segment (rank + 1 mod n)
// and reads from its left neighbour's; the offsets below are per test.
#include <array>
#include <cstring>
#include <vector>

#include "gex_test.hpp"

using gex_test::barrier;
using gex_test::g_job;
using gex_test::pattern;

namespace {

gex_Rank_t right() { return (g_job.me + 1) % g_job.n; }
gex_Rank_t left() { return (g_job.me + g_job.n - 1) % g_job.n; }

// Where [offset, +n) of rank r's segment is (its owner's address).
unsigned char* remote(gex_Rank_t r, std::size_t offset) {
    void* owner = nullptr;
    gex_Event_t e = gex_EP_QueryBoundSegmentNB(g_job.tm, r, &owner, nullptr, nullptr, 0);
    gex_Event_Wait(e);
    return static_cast<unsigned char*>(owner) + offset;
}

std::vector<unsigned char> filled(std::size_t n, gex_Rank_t writer, unsigned salt) {
    std::vector<unsigned char> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = pattern(writer, i, salt);
    return v;
}

// Checks that [offset, +n) of this process's segment holds what the left
// neighbour wrote with `salt`, then clears it.
void expect_from_left(std::size_t offset, std::size_t n, unsigned salt, const char* what) {
    std::size_t bad = 0, first = n;
    for (std::size_t i = 0; i < n; ++i)
        if (g_job.base[offset + i] != pattern(left(), i, salt)) {
            ++bad;
            if (first == n) first = i;
        }
    EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << n << " bytes wrong, first at " << first;
    std::memset(g_job.base + offset, 0, n);
}

// The sizes: below and above the bounce ring's limit (1 KiB) and the lean
// copy, and a large one.
constexpr std::array<std::size_t, 6> kSizes = {1, 8, 100, 1024, 5000, 1 << 20};

// A put form: puts n bytes of `src` at `dst` of rank `r`, returning once it
// is synchronized as the form requires.
template <class Put>
void put_round(unsigned salt, const char* what, Put put) {
    std::size_t offset = 0;
    for (std::size_t n : kSizes) {
        const std::vector<unsigned char> src = filled(n, g_job.me, salt + unsigned(n));
        put(remote(right(), offset), src.data(), n);
        offset += n;
    }
    barrier();
    offset = 0;
    for (std::size_t n : kSizes) {
        expect_from_left(offset, n, salt + unsigned(n), what);
        offset += n;
    }
    barrier();
}

// Each process fills [offset, +n) of its own segment for its right
// neighbour to read; `get` reads n bytes from rank r's `src` into `dst`.
template <class Get>
void get_round(unsigned salt, const char* what, Get get) {
    std::size_t offset = 0;
    for (std::size_t n : kSizes) {
        const std::vector<unsigned char> mine = filled(n, g_job.me, salt + unsigned(n));
        std::memcpy(g_job.base + offset, mine.data(), n);
        offset += n;
    }
    barrier();
    offset = 0;
    for (std::size_t n : kSizes) {
        std::vector<unsigned char> got(n, 0);
        get(got.data(), remote(left(), offset), n);
        const std::vector<unsigned char> want = filled(n, left(), salt + unsigned(n));
        EXPECT_EQ(got, want) << what << ", " << n << " bytes";
        offset += n;
    }
    barrier();
    std::memset(g_job.base, 0, offset);
    barrier();
}

}  // namespace

TEST(GexRma, PutBlocking) {
    put_round(1, "gex_RMA_PutBlocking", [](void* dst, const void* src, std::size_t n) {
        EXPECT_EQ(gex_RMA_PutBlocking(g_job.tm, right(), dst, src, n, 0), 0);
    });
}

TEST(GexRma, PutNbiEveryLocalCompletionMode) {
    gex_Event_t* modes[] = {GEX_EVENT_NOW, GEX_EVENT_DEFER, GEX_EVENT_GROUP};
    unsigned salt = 10;
    for (gex_Event_t* lc : modes) {
        std::vector<std::vector<unsigned char>> keep;  // DEFER: sources live until the sync
        put_round(salt++, "gex_RMA_PutNBI", [&](void* dst, const void* src, std::size_t n) {
            keep.emplace_back(static_cast<const unsigned char*>(src), static_cast<const unsigned char*>(src) + n);
            EXPECT_EQ(gex_RMA_PutNBI(g_job.tm, right(), dst, keep.back().data(), n, lc, GEX_FLAG_IMMEDIATE), 0);
            if (lc == GEX_EVENT_GROUP) gex_NBI_Wait(GEX_EC_LC, 0);
            gex_NBI_Wait(GEX_EC_PUT, 0);
        });
    }
}

TEST(GexRma, PutNbiSourceReusableWithNow) {
    // NOW: the source may change at once; the target must see the old bytes.
    std::vector<unsigned char> src = filled(512, g_job.me, 77);
    gex_RMA_PutNBI(g_job.tm, right(), remote(right(), 0), src.data(), src.size(), GEX_EVENT_NOW, 0);
    std::memset(src.data(), 0xee, src.size());
    EXPECT_EQ(gex_NBI_Test(GEX_EC_ALL, 0), GASNET_OK);
    barrier();
    expect_from_left(0, 512, 77, "gex_RMA_PutNBI(GEX_EVENT_NOW), source overwritten after the call");
    barrier();
}

TEST(GexRma, PutNbEveryLocalCompletionMode) {
    unsigned salt = 20;
    for (int mode = 0; mode < 3; ++mode) {
        put_round(salt++, "gex_RMA_PutNB", [&](void* dst, const void* src, std::size_t n) {
            gex_Event_t lc = reinterpret_cast<gex_Event_t>(5);  // must be overwritten
            gex_Event_t* lc_opt = mode == 0 ? GEX_EVENT_NOW : mode == 1 ? GEX_EVENT_DEFER : &lc;
            gex_Event_t e = gex_RMA_PutNB(g_job.tm, right(), dst, src, n, lc_opt, 0);
            if (mode == 2) {
                EXPECT_EQ(lc, GEX_EVENT_INVALID) << "the local completion event is complete on return";
                gex_Event_Wait(lc);
            }
            gex_Event_Wait(e);
        });
    }
}

TEST(GexRma, PutThroughTmPair) {
    put_round(30, "gex_RMA_PutBlocking (TM-pair)", [](void* dst, const void* src, std::size_t n) {
        gex_RMA_PutBlocking(gex_TM_Pair(g_job.ep, 0), right(), dst, src, n, g_job.n > 1 ? GEX_FLAG_PEER_NEVER_SELF : 0);
    });
}

TEST(GexRma, GetEveryForm) {
    get_round(40, "gex_RMA_GetBlocking", [](void* dst, void* src, std::size_t n) {
        EXPECT_EQ(gex_RMA_GetBlocking(g_job.tm, dst, left(), src, n, 0), 0);
    });
    get_round(41, "gex_RMA_GetNB + gex_Event_Wait", [](void* dst, void* src, std::size_t n) {
        gex_Event_Wait(gex_RMA_GetNB(g_job.tm, dst, left(), src, n, 0));
    });
    get_round(42, "gex_RMA_GetNB + gex_Event_Test", [](void* dst, void* src, std::size_t n) {
        EXPECT_EQ(gex_Event_Test(gex_RMA_GetNB(g_job.tm, dst, left(), src, n, 0)), GASNET_OK);
    });
    get_round(43, "gex_RMA_GetNBI + gex_NBI_Wait", [](void* dst, void* src, std::size_t n) {
        EXPECT_EQ(gex_RMA_GetNBI(g_job.tm, dst, left(), src, n, 0), 0);
        gex_NBI_Wait(GEX_EC_GET, 0);
    });
    get_round(44, "gex_RMA_GetNBI (TM-pair) + gex_NBI_Test", [](void* dst, void* src, std::size_t n) {
        gex_RMA_GetNBI(gex_TM_Pair(g_job.ep, 0), dst, left(), src, n, 0);
        EXPECT_EQ(gex_NBI_Test(GEX_EC_ALL, 0), GASNET_OK);
    });
}

// gasnetex.h makes the six contiguous calls inline forms that check lc_opt
// and flags at the call site (folded away when they are constants, as
// above) and, on the primordial team, call the gasket_gex_primordial_* entry
// points; on other teams, the functions.  The functions of the
// same names, reached by writing the name in parentheses or through a
// pointer (another language's binding, dlsym), must move the same bytes.
TEST(GexRma, FunctionsBehindTheInlineForms) {
    int (*put_nbi)(gex_TM_t, gex_Rank_t, void*, const void*, size_t, gex_Event_t*, gex_Flags_t) = &gex_RMA_PutNBI;
    unsigned salt = 50;
    for (gex_Event_t* lc : {GEX_EVENT_NOW, GEX_EVENT_DEFER}) {
        put_round(salt++, "(gex_RMA_PutBlocking)", [](void* dst, const void* src, std::size_t n) {
            EXPECT_EQ((gex_RMA_PutBlocking)(g_job.tm, right(), dst, src, n, GEX_FLAG_IMMEDIATE), 0);
        });
        put_round(salt++, "&gex_RMA_PutNBI", [&](void* dst, const void* src, std::size_t n) {
            EXPECT_EQ(put_nbi(g_job.tm, right(), dst, src, n, lc, 0), 0);
            gex_NBI_Wait(GEX_EC_PUT, 0);
        });
        put_round(salt++, "(gex_RMA_PutNB)", [&](void* dst, const void* src, std::size_t n) {
            gex_Event_Wait((gex_RMA_PutNB)(g_job.tm, right(), dst, src, n, lc, GEX_FLAG_PEER_NEVER_NBRHD));
        });
    }
    get_round(salt++, "(gex_RMA_GetBlocking)", [](void* dst, void* src, std::size_t n) {
        EXPECT_EQ((gex_RMA_GetBlocking)(g_job.tm, dst, left(), src, n, 0), 0);
    });
    get_round(salt++, "(gex_RMA_GetNBI)", [](void* dst, void* src, std::size_t n) {
        EXPECT_EQ((gex_RMA_GetNBI)(g_job.tm, dst, left(), src, n, GEX_FLAG_IMMEDIATE), 0);
        gex_NBI_Wait(GEX_EC_GET, 0);
    });
    get_round(salt++, "(gex_RMA_GetNB)", [](void* dst, void* src, std::size_t n) {
        gex_Event_Wait((gex_RMA_GetNB)(gex_TM_Pair(g_job.ep, 0), dst, left(), src, n, 0));
    });
    // The value forms, through the functions: 3 bytes into each of 3 slots.
    unsigned char* dst = remote(right(), 0);
    const gex_RMA_Value_t v = 0xa1b2c3u ^ g_job.me;
    (gex_RMA_PutBlockingVal)(g_job.tm, right(), dst, v, 3, 0);
    (gex_RMA_PutNBIVal)(g_job.tm, right(), dst + 16, v, 3, GEX_FLAG_IMMEDIATE);
    gex_Event_Wait((gex_RMA_PutNBVal)(g_job.tm, right(), dst + 32, v, 3, 0));
    gex_NBI_Wait(GEX_EC_PUT, 0);
    barrier();
    const gex_RMA_Value_t from_left = (0xa1b2c3u ^ left()) & 0xffffff;
    for (int slot = 0; slot < 3; ++slot) {
        gex_RMA_Value_t got = 0;
        std::memcpy(&got, g_job.base + slot * 16, 3);
        EXPECT_EQ(got, from_left) << "value form, slot " << slot;
    }
    const gex_Rank_t l = left();
    const gex_RMA_Value_t want = (0xa1b2c3u ^ ((l + g_job.n - 1) % g_job.n)) & 0xffffff;
    EXPECT_EQ((gex_RMA_GetBlockingVal)(g_job.tm, l, remote(l, 16), 3, 0), want);
    barrier();
    std::memset(g_job.base, 0, 48);
    barrier();
}

TEST(GexRma, ValueForms) {
    unsigned char* dst = remote(right(), 0);
    for (std::size_t n = 1; n <= SIZEOF_GEX_RMA_VALUE_T; ++n) {
        const gex_RMA_Value_t v = 0x1122334455667788ull ^ (gex_RMA_Value_t(g_job.me) << 8) ^ n;
        gex_RMA_PutBlockingVal(g_job.tm, right(), dst + 0 * 16, v, n, 0);
        gex_RMA_PutNBIVal(g_job.tm, right(), dst + 1 * 16, v, n, 0);
        gex_Event_Wait(gex_RMA_PutNBVal(g_job.tm, right(), dst + 2 * 16, v, n, 0));
        gex_NBI_Wait(GEX_EC_PUT, 0);
        barrier();
        const gex_RMA_Value_t from_left = 0x1122334455667788ull ^ (gex_RMA_Value_t(left()) << 8) ^ n;
        const gex_RMA_Value_t mask = n == 8 ? ~gex_RMA_Value_t(0) : (gex_RMA_Value_t(1) << (8 * n)) - 1;
        for (int slot = 0; slot < 3; ++slot) {
            gex_RMA_Value_t got = 0;
            std::memcpy(&got, g_job.base + slot * 16, n);
            EXPECT_EQ(got, from_left & mask) << "slot " << slot << ", " << n << " bytes";
        }
        // GetBlockingVal reads the left neighbour's first slot (written by its left).
        const gex_Rank_t l = left(), ll = (left() + g_job.n - 1) % g_job.n;
        const gex_RMA_Value_t want = (0x1122334455667788ull ^ (gex_RMA_Value_t(ll) << 8) ^ n) & mask;
        EXPECT_EQ(gex_RMA_GetBlockingVal(g_job.tm, l, remote(l, 0), n, 0), want) << n << " bytes";
        barrier();
        std::memset(g_job.base, 0, 48);
        barrier();
    }
}

TEST(GexEvents, ArraysAccessRegionsAndLeaves) {
    // An access region's NBI puts, completed by its event.
    const std::size_t n = 64;
    const std::vector<unsigned char> src = filled(n * 4, g_job.me, 50);
    gex_NBI_BeginAccessRegion(0);
    for (int i = 0; i < 4; ++i)
        gex_RMA_PutNBI(g_job.tm, right(), remote(right(), i * n), src.data() + i * n, n, GEX_EVENT_DEFER, 0);
    gex_Event_t region = gex_NBI_EndAccessRegion(0);
    EXPECT_EQ(gex_Event_QueryLeaf(region, GEX_EC_LC), GEX_EVENT_INVALID);
    gex_Event_Wait(region);
    barrier();
    expect_from_left(0, 4 * n, 50, "access region");
    barrier();
    // An empty region has nothing to complete.
    gex_NBI_BeginAccessRegion(0);
    EXPECT_EQ(gex_NBI_EndAccessRegion(0), GEX_EVENT_INVALID);

    // Arrays: TestAll/WaitSome complete every event and invalidate them.
    std::array<gex_Event_t, 6> events{};
    for (std::size_t i = 0; i < events.size(); ++i)
        events[i] = i % 2 ? GEX_EVENT_INVALID
                          : gex_RMA_PutNB(g_job.tm, right(), remote(right(), 1024 + i * 8), src.data() + i * 8, 8,
                                          GEX_EVENT_NOW, 0);
    EXPECT_EQ(gex_Event_TestAll(events.data(), events.size(), 0), GASNET_OK);
    for (gex_Event_t e : events) EXPECT_EQ(e, GEX_EVENT_INVALID);
    for (std::size_t i = 0; i < events.size(); ++i)
        events[i] = gex_RMA_GetNB(g_job.tm, g_job.base + 3000 + i, left(), remote(left(), 2000 + i), 1, 0);
    gex_Event_WaitSome(events.data(), events.size(), 0);
    gex_Event_WaitAll(events.data(), events.size(), 0);
    EXPECT_EQ(gex_Event_TestSome(events.data(), events.size(), 0), GASNET_OK);  // all invalid: success
    for (gex_Event_t e : events) EXPECT_EQ(e, GEX_EVENT_INVALID);
    barrier();
    expect_from_left(1024, 8, 50, "gex_RMA_PutNB + gex_Event_TestAll (first event)");
    std::memset(g_job.base, 0, 4096);
    barrier();
}

TEST(GexEvents, EventsAndGasnetHandlesInteroperate) {
    const std::vector<unsigned char> src = filled(256, g_job.me, 60);
    // A GASNet-EX event completed by GASNet-1's sync, and a GASNet-1 handle by gex_Event_Wait.
    gex_Event_t e = gex_RMA_PutNB(g_job.tm, right(), remote(right(), 0), src.data(), 128, GEX_EVENT_NOW, 0);
    gasnet_wait_syncnb(e);
    gasnet_handle_t h =
        gasnet_put_nb_bulk(right(), remote(right(), 128), const_cast<unsigned char*>(src.data()) + 128, 128);
    gex_Event_Wait(h);
    // NBI from both APIs, one sync each way.
    gasnet_put_nbi(right(), remote(right(), 256), const_cast<unsigned char*>(src.data()), 8);
    gex_NBI_Wait(GEX_EC_ALL, 0);
    gex_RMA_PutNBI(g_job.tm, right(), remote(right(), 264), src.data() + 8, 8, GEX_EVENT_NOW, 0);
    gasnet_wait_syncnbi_all();
    barrier();
    expect_from_left(0, 256, 60, "PutNB/put_nb_bulk mixed");
    expect_from_left(256, 16, 60, "put_nbi/PutNBI mixed");
    barrier();
}

TEST(GexRma, ZeroBytesMoveNothing) {
    EXPECT_EQ(gex_RMA_PutBlocking(g_job.tm, right(), remote(right(), 0), nullptr, 0, 0), 0);
    EXPECT_EQ(gex_RMA_GetBlocking(g_job.tm, nullptr, left(), remote(left(), 0), 0, 0), 0);
    EXPECT_EQ(gex_RMA_PutNB(g_job.tm, right(), remote(right(), 0), nullptr, 0, GEX_EVENT_NOW, 0), GEX_EVENT_INVALID);
    barrier();
}
