// tests/mpi/coll_data_test.cpp -- §9.10.1-8: barriers and syncs (their
// completion rules), broadcast, collect, fcollect, alltoall and alltoalls
// for every Table 5 type and the *mem forms, on SHMEM_TEAM_WORLD,
// SHMEM_TEAM_SHARED and the splits of coll_teams.hpp (even, odd, PEs
// 1..n-1, reversed: team PE numbers differ from world ones); the deprecated active-set forms (broadcast32/64,
// collect32/64, fcollect32/64, alltoall32/64, alltoalls32/64, shmem_barrier,
// shmem_sync) on the whole job, the even PEs and PEs 1..n-1; the error
// returns of the team forms; and AMOs issued before a collective, a team
// split, a team's first barrier or an active set's first collective while
// the target already waits in it (served, not deadlocked: with the node
// fast path off the AMOs are Active Messages).
//
// Every PE knows what every PE contributes (value(p, i) depends only on the
// team PE p and the index), so each checks its own dest completely,
// including the elements a routine must not touch.
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "coll_teams.hpp"
#include "shmem_test.hpp"

namespace {

using namespace gasket_test;

// Distinct for p < 4 and i < 24, and exact in every Table 5 type.
template <class T>
T value(int p, std::size_t i) {
    return T((p * 37 + long(i) * 3 + 1) % 127);
}
template <class T>
T poison() {
    return T(-3);
}

template <class T>
using BcastFn = int (*)(shmem_team_t, T*, const T*, size_t, int);
template <class T>
using GatherFn = int (*)(shmem_team_t, T*, const T*, size_t);
template <class T>
using StridedFn = int (*)(shmem_team_t, T*, const T*, ptrdiff_t, ptrdiff_t, size_t);

template <class T>
void check_broadcast(const char* name, BcastFn<T> fn, shmem_team_t team) {
    coll_buffers();
    const int p = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
    T* src = static_cast<T*>(coll_buffers().a);
    T* dst = static_cast<T*>(coll_buffers().b);
    constexpr std::size_t kN = 5;
    for (int root = 0; root < n; ++root) {
        for (std::size_t i = 0; i < kN + 1; ++i) {
            src[i] = value<T>(p, i);
            dst[i] = poison<T>();
        }
        EXPECT_EQ(fn(team, dst, src, kN, root), 0) << name;
        for (std::size_t i = 0; i < kN; ++i)
            EXPECT_EQ(dst[i], value<T>(root, i)) << name << " root " << root << " element " << i << " on PE " << p;
        EXPECT_EQ(dst[kN], poison<T>()) << name << ": wrote past nelems";
        EXPECT_EQ(src[0], value<T>(p, 0)) << name << ": source changed";
        // dest == source: the root's data stays, the others receive it.
        for (std::size_t i = 0; i < kN; ++i) src[i] = value<T>(p, i);
        EXPECT_EQ(fn(team, src, src, kN, root), 0) << name;
        for (std::size_t i = 0; i < kN; ++i) EXPECT_EQ(src[i], value<T>(root, i)) << name << " in place";
    }
}

template <class T>
void check_collect(const char* name, GatherFn<T> fn, bool fixed, shmem_team_t team) {
    coll_buffers();
    const int p = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
    T* src = static_cast<T*>(coll_buffers().a);
    T* dst = static_cast<T*>(coll_buffers().b);
    // collect: PE q contributes q + 1 elements (PE 0 one); fcollect: 3 each.
    auto count = [&](int q) { return fixed ? std::size_t(3) : std::size_t(q) + 1; };
    std::size_t total = 0;
    for (int q = 0; q < n; ++q) total += count(q);
    for (std::size_t i = 0; i < count(p); ++i) src[i] = value<T>(p, i);
    for (std::size_t i = 0; i < total + 1; ++i) dst[i] = poison<T>();
    EXPECT_EQ(fn(team, dst, src, count(p)), 0) << name;
    std::size_t at = 0;
    for (int q = 0; q < n; ++q)
        for (std::size_t i = 0; i < count(q); ++i, ++at)
            EXPECT_EQ(dst[at], value<T>(q, i)) << name << " block of PE " << q << " element " << i << " on PE " << p;
    EXPECT_EQ(dst[total], poison<T>()) << name << ": wrote past the total";
    // nelems 0 everywhere: nothing moves.
    dst[0] = poison<T>();
    EXPECT_EQ(fn(team, dst, src, 0), 0) << name;
    EXPECT_EQ(dst[0], poison<T>()) << name << ": nelems 0 wrote dest";
}

template <class T>
void check_alltoall(const char* name, GatherFn<T> fn, shmem_team_t team) {
    coll_buffers();
    const int p = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
    T* src = static_cast<T*>(coll_buffers().a);
    T* dst = static_cast<T*>(coll_buffers().b);
    constexpr std::size_t kN = 3;
    // Block j of PE p's source holds value(p, j * kN + i): sender and target.
    for (int j = 0; j < n; ++j)
        for (std::size_t i = 0; i < kN; ++i) src[std::size_t(j) * kN + i] = value<T>(p, std::size_t(j) * kN + i);
    for (std::size_t i = 0; i < kN * std::size_t(n) + 1; ++i) dst[i] = poison<T>();
    EXPECT_EQ(fn(team, dst, src, kN), 0) << name;
    for (int q = 0; q < n; ++q)
        for (std::size_t i = 0; i < kN; ++i)
            EXPECT_EQ(dst[std::size_t(q) * kN + i], value<T>(q, std::size_t(p) * kN + i))
                << name << " block from PE " << q << " element " << i << " on PE " << p;
    EXPECT_EQ(dst[kN * std::size_t(n)], poison<T>()) << name << ": wrote past the blocks";
}

template <class T>
void check_alltoalls(const char* name, StridedFn<T> fn, shmem_team_t team, std::ptrdiff_t dst_stride,
                     std::ptrdiff_t sst) {
    coll_buffers();
    const int p = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
    T* src = static_cast<T*>(coll_buffers().a);
    T* dst = static_cast<T*>(coll_buffers().b);
    constexpr std::size_t kN = 2;
    const std::size_t all = kN * std::size_t(n);
    for (std::size_t e = 0; e < all * std::size_t(sst); ++e) src[e] = poison<T>();
    for (std::size_t e = 0; e < all; ++e) src[std::size_t(sst) * e] = value<T>(p, e);
    const std::size_t dst_len = all * std::size_t(dst_stride);
    for (std::size_t e = 0; e < dst_len; ++e) dst[e] = poison<T>();
    EXPECT_EQ(fn(team, dst, src, dst_stride, sst, kN), 0) << name;
    for (std::size_t e = 0; e < dst_len; ++e) {
        const bool slot = e % std::size_t(dst_stride) == 0;
        const std::size_t k = e / std::size_t(dst_stride);  // element index in dest
        const int q = int(k / kN);                          // the sender
        const T want = slot ? value<T>(q, std::size_t(p) * kN + k % kN) : poison<T>();
        EXPECT_EQ(dst[e], want) << name << " dst " << dst_stride << " sst " << sst << ": dest element " << e
                                << " on PE " << p;
    }
}

// The split teams are what the tests assume (team PE numbers included).
TEST(CollTeams, Shapes) {
    const std::vector<shmem_team_t>& t = coll_teams();
    const int p = me(), n = npes();
    ASSERT_EQ(t.size(), 6u);
    EXPECT_EQ(shmem_team_my_pe(t[2]), p % 2 == 0 ? p / 2 : -1);
    EXPECT_EQ(shmem_team_my_pe(t[3]), p % 2 == 1 ? p / 2 : -1);
    EXPECT_EQ(shmem_team_my_pe(t[4]), p >= 1 ? p - 1 : -1);
    EXPECT_EQ(shmem_team_my_pe(t[5]), n - 1 - p);
    EXPECT_EQ(shmem_team_n_pes(t[5]), n);
}

#define CHECK_DATA(TYPE, NAME)                                                                 \
    for (shmem_team_t t : my_coll_teams()) {                                                   \
        check_broadcast<TYPE>("shmem_" #NAME "_broadcast", shmem_##NAME##_broadcast, t);       \
        check_collect<TYPE>("shmem_" #NAME "_collect", shmem_##NAME##_collect, false, t);      \
        check_collect<TYPE>("shmem_" #NAME "_fcollect", shmem_##NAME##_fcollect, true, t);     \
        check_alltoall<TYPE>("shmem_" #NAME "_alltoall", shmem_##NAME##_alltoall, t);          \
        check_alltoalls<TYPE>("shmem_" #NAME "_alltoalls", shmem_##NAME##_alltoalls, t, 2, 3); \
    }

TEST(CollData, EveryTable5Type){GASKET_STD_RMA_TYPES(CHECK_DATA)}

TEST(CollData, AlltoallsStrides) {
    const std::ptrdiff_t strides[][2] = {{1, 1}, {1, 4}, {3, 1}, {5, 2}};
    for (shmem_team_t t : my_coll_teams())
        for (auto& s : strides) {
            check_alltoalls<long>("shmem_long_alltoalls", shmem_long_alltoalls, t, s[0], s[1]);
            check_alltoalls<short>("shmem_short_alltoalls", shmem_short_alltoalls, t, s[0], s[1]);
        }
}

// The *mem forms count bytes; odd sizes.
TEST(CollData, MemForms) {
    coll_buffers();
    const int p = me(), n = npes();
    unsigned char* a = static_cast<unsigned char*>(coll_buffers().a);
    unsigned char* b = static_cast<unsigned char*>(coll_buffers().b);
    for (int i = 0; i < 13; ++i) a[i] = (unsigned char)(p * 50 + i);
    EXPECT_EQ(shmem_broadcastmem(SHMEM_TEAM_WORLD, b, a, 13, n - 1), 0);
    for (int i = 0; i < 13; ++i) EXPECT_EQ(b[i], (unsigned char)((n - 1) * 50 + i));
    EXPECT_EQ(shmem_fcollectmem(SHMEM_TEAM_WORLD, b, a, 7), 0);
    for (int q = 0; q < n; ++q)
        for (int i = 0; i < 7; ++i) EXPECT_EQ(b[q * 7 + i], (unsigned char)(q * 50 + i));
    EXPECT_EQ(shmem_collectmem(SHMEM_TEAM_WORLD, b, a, std::size_t(p) + 2), 0);
    for (int q = 0, at = 0; q < n; ++q)
        for (int i = 0; i < q + 2; ++i, ++at) EXPECT_EQ(b[at], (unsigned char)(q * 50 + i));
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < 5; ++i) a[j * 5 + i] = (unsigned char)(p * 50 + j * 5 + i);
    EXPECT_EQ(shmem_alltoallmem(SHMEM_TEAM_WORLD, b, a, 5), 0);
    for (int q = 0; q < n; ++q)
        for (int i = 0; i < 5; ++i) EXPECT_EQ(b[q * 5 + i], (unsigned char)(q * 50 + p * 5 + i));
    EXPECT_EQ(shmem_alltoallsmem(SHMEM_TEAM_WORLD, b, a, 1, 1, 5), 0);
    for (int q = 0; q < n; ++q)
        for (int i = 0; i < 5; ++i) EXPECT_EQ(b[q * 5 + i], (unsigned char)(q * 50 + p * 5 + i));
}

// fcollect with source already in place in dest (dest + me * bytes).
TEST(CollData, FcollectInPlace) {
    coll_buffers();
    const int p = me(), n = npes();
    int* d = static_cast<int*>(coll_buffers().b);
    for (int i = 0; i < 4 * n; ++i) d[i] = -1;
    for (int i = 0; i < 4; ++i) d[p * 4 + i] = p * 10 + i;
    EXPECT_EQ(shmem_int_fcollect(SHMEM_TEAM_WORLD, d, d + p * 4, 4), 0);
    for (int q = 0; q < n; ++q)
        for (int i = 0; i < 4; ++i) EXPECT_EQ(d[q * 4 + i], q * 10 + i);
}

// A broadcast of 1 MiB: a large message, checked whole.
TEST(CollData, LargeBroadcast) {
    const std::size_t n = std::size_t(1) << 17;  // longs
    long* buf = static_cast<long*>(shmem_malloc(n * sizeof(long)));
    for (std::size_t i = 0; i < n; ++i) buf[i] = me() == 1 % npes() ? long(i * 3 + 1) : -1;
    EXPECT_EQ(shmem_long_broadcast(SHMEM_TEAM_WORLD, buf, buf, n, 1 % npes()), 0);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) bad += buf[i] != long(i * 3 + 1);
    EXPECT_EQ(bad, 0u);
    shmem_free(buf);
}

// broadcastmem at sizes around the node broadcast's thresholds (0, odd
// sizes, the 1 KiB inline limit, sizes above the 128 KiB copy chunk), from
// every root, on every team of coll_teams (strided and reversed teams: team
// PE numbers differ from world ones).  Checks the whole dest and the bytes
// after it on every PE, and that the root's source is unchanged.  Then the
// root's dest overlapping its source (shifted by 3 bytes).
TEST(CollData, BroadcastSizesRootsTeams) {
    const std::size_t sizes[] = {0, 1, 3, 8, 1023, 1024, 1025, 4099, 65537, (std::size_t(1) << 18) + 5};
    constexpr std::size_t kMax = (std::size_t(1) << 18) + 5, kTail = 16;
    auto* src = static_cast<unsigned char*>(shmem_malloc(kMax + kTail));
    auto* dst = static_cast<unsigned char*>(shmem_malloc(kMax + kTail));
    ASSERT_NE(src, nullptr);
    ASSERT_NE(dst, nullptr);
    auto byte = [](int pe, std::size_t size, std::size_t i) { return (unsigned char)((pe * 53 + size + i * 7) % 251); };
    for (shmem_team_t team : my_coll_teams()) {
        const int p = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
        for (std::size_t size : sizes)
            for (int root = 0; root < n; ++root) {
                for (std::size_t i = 0; i < size + kTail; ++i) src[i] = byte(p, size, i);
                std::memset(dst, 0xEE, size + kTail);
                ASSERT_EQ(shmem_broadcastmem(team, dst, src, size, root), 0);
                std::size_t bad = 0, tail = 0, changed = 0;
                for (std::size_t i = 0; i < size; ++i) bad += dst[i] != byte(root, size, i);
                for (std::size_t i = size; i < size + kTail; ++i) tail += dst[i] != 0xEE;
                for (std::size_t i = 0; i < size + kTail; ++i) changed += src[i] != byte(p, size, i);
                EXPECT_EQ(bad, 0u) << size << " B from team PE " << root << " on team PE " << p << " of " << n;
                EXPECT_EQ(tail, 0u) << size << " B: wrote past the end";
                EXPECT_EQ(changed, 0u) << size << " B: source changed";
                // The root's dest overlaps its source: the others get the
                // source as it was, the root its copy.
                for (std::size_t i = 0; i < size + kTail; ++i) src[i] = byte(p, size, i);
                ASSERT_EQ(shmem_broadcastmem(team, src + 3, src, size, root), 0);
                bad = 0;
                for (std::size_t i = 0; i < size; ++i) bad += src[3 + i] != byte(root, size, i);
                EXPECT_EQ(bad, 0u) << size << " B overlapping, from team PE " << root << " on team PE " << p;
            }
        shmem_team_sync(team);
    }
    shmem_free(src);
    shmem_free(dst);
}

// Many small broadcasts back to back, the root changing its source right
// after each returns and the root moving every few calls: a root that may
// run ahead of the others must never let them see a later source or a
// later broadcast's data.
TEST(CollData, BroadcastBackToBack) {
    coll_buffers();
    long* src = static_cast<long*>(coll_buffers().a);
    long* dst = static_cast<long*>(coll_buffers().b);
    const int n = npes();
    std::size_t bad = 0;
    for (long k = 0; k < 2000; ++k) {
        const int root = int(k / 3 % n);
        const std::size_t count = 1 + std::size_t(k % 7) * 19;  // 8..1008 bytes, within the inline limit
        for (std::size_t i = 0; i < count; ++i) src[i] = k * 1000 + long(i) + me() * 1000000;
        ASSERT_EQ(shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, count, root), 0);
        for (std::size_t i = 0; i < count; ++i) src[i] = -1;  // reused at once
        for (std::size_t i = 0; i < count; ++i) bad += dst[i] != k * 1000 + long(i) + root * 1000000;
    }
    EXPECT_EQ(bad, 0u);
    shmem_barrier_all();
}

// The error returns: nothing is done and no PE waits.
TEST(CollData, ErrorReturns) {
    coll_buffers();
    long* a = static_cast<long*>(coll_buffers().a);
    long* b = static_cast<long*>(coll_buffers().b);
    b[0] = 7;
    EXPECT_NE(shmem_team_sync(SHMEM_TEAM_INVALID), 0);
    EXPECT_NE(shmem_long_broadcast(SHMEM_TEAM_INVALID, b, a, 1, 0), 0);
    EXPECT_NE(shmem_long_sum_reduce(SHMEM_TEAM_INVALID, b, a, 1), 0);
    EXPECT_NE(shmem_long_broadcast(SHMEM_TEAM_WORLD, b, a, 1, npes()), 0);
    EXPECT_NE(shmem_long_broadcast(SHMEM_TEAM_WORLD, b, a, 1, -1), 0);
    EXPECT_NE(shmem_long_alltoalls(SHMEM_TEAM_WORLD, b, a, 0, 1, 1), 0);
    EXPECT_EQ(b[0], 7);
    shmem_barrier_all();
}

// ---- barriers and syncs ------------------------------------------------------

long g_flag;
long g_slots[64];

// shmem_barrier_all completes puts issued before it (nbi ones too).
TEST(CollSync, BarrierAllCompletesPuts) {
    for (int round = 0; round < 20; ++round) {
        const long v = round * 100 + me();
        shmem_long_put_nbi(&g_slots[me()], &v, 1, right());
        shmem_barrier_all();
        EXPECT_EQ(g_slots[left()], round * 100 + left()) << "round " << round;
        shmem_barrier_all();
    }
}

// The network barrier synchronizes the MPI windows only when some member
// issued or completed MPI RMA since its previous barrier on that team: puts
// issued before one barrier (here on another team, or on the same one) and
// completed only after it (shmem_quiet, shmem_pe_quiet) must still be seen
// after the next barrier_all / sync_all.
TEST(CollSync, PutsCompletedBetweenBarriers) {
    const int n = npes();
    shmem_team_t evens = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, nullptr, 0, &evens);
    for (int round = 0; round < 30; ++round) {
        const long v = round * 1000 + me() + 7;
        shmem_long_put_nbi(&g_slots[me()], &v, 1, right());
        if (round % 3 == 0) {
            if (evens != SHMEM_TEAM_INVALID) EXPECT_EQ(shmem_team_sync(evens), 0);
        } else if (round % 3 == 1) {
            shmem_sync_all();  // the put is not complete yet
        }
        if (round % 2)
            shmem_quiet();
        else {
            const int to = right();
            shmem_pe_quiet(&to, 1);
        }
        if (round % 4 < 2)
            shmem_sync_all();
        else
            shmem_barrier_all();
        EXPECT_EQ(g_slots[left()], round * 1000 + left() + 7) << "round " << round;
        shmem_barrier_all();
    }
    if (evens != SHMEM_TEAM_INVALID) shmem_team_destroy(evens);
}

// shmem_quiet + shmem_team_sync / shmem_sync(team) / shmem_sync_all order
// puts before the other PEs' later reads.
TEST(CollSync, QuietThenSync) {
    for (int round = 0; round < 20; ++round) {
        const long v = round * 100 + me() + 1;
        shmem_long_p(&g_slots[me()], v, right());
        shmem_quiet();
        if (round % 3 == 0)
            EXPECT_EQ(shmem_team_sync(SHMEM_TEAM_WORLD), 0);
        else if (round % 3 == 1)
            EXPECT_EQ(shmem_sync(SHMEM_TEAM_WORLD), 0);
        else
            shmem_sync_all();
        EXPECT_EQ(g_slots[left()], round * 100 + left() + 1) << "round " << round;
        shmem_sync_all();
    }
}

int set_pe(const ActiveSet& s, int k) { return s.start + (k << s.log_stride); }

long g_psync[SHMEM_SYNC_SIZE];

void reset_psync() {
    for (long& x : g_psync) x = SHMEM_SYNC_VALUE;
}
void expect_psync_restored(const char* name) {
    for (long x : g_psync) EXPECT_EQ(x, SHMEM_SYNC_VALUE) << name << ": pSync changed";
}

// shmem_barrier completes puts to the set's members; shmem_sync (active
// set) orders them after a quiet.
TEST(CollSync, ActiveSetBarrierAndSync) {
    reset_psync();
    for (const ActiveSet& s : active_sets()) {
        const int k = set_index(s, me());
        if (k >= 0) {
            const int next = set_pe(s, (k + 1) % s.size), prev = set_pe(s, (k + s.size - 1) % s.size);
            for (int round = 0; round < 5; ++round) {
                shmem_long_p(&g_slots[me()], 1000 * round + me(), next);
                if (round % 2) {
                    shmem_quiet();
                    shmem_sync(s.start, s.log_stride, s.size, g_psync);
                } else {
                    shmem_barrier(s.start, s.log_stride, s.size, g_psync);
                }
                EXPECT_EQ(g_slots[prev], 1000 * round + prev)
                    << "set (" << s.start << "," << s.log_stride << "," << s.size << ") round " << round;
                shmem_barrier(s.start, s.log_stride, s.size, g_psync);
            }
            expect_psync_restored("shmem_barrier/shmem_sync");
        }
        shmem_barrier_all();
    }
}

// ---- deprecated sized active-set forms -----------------------------------

template <class T>
void check_sized(const char* bits, void (*bcast)(void*, const void*, size_t, int, int, int, int, long*),
                 void (*collect)(void*, const void*, size_t, int, int, int, long*),
                 void (*fcollect)(void*, const void*, size_t, int, int, int, long*),
                 void (*alltoall)(void*, const void*, size_t, int, int, int, long*),
                 void (*alltoalls)(void*, const void*, ptrdiff_t, ptrdiff_t, size_t, int, int, int, long*)) {
    coll_buffers();
    reset_psync();
    T* src = static_cast<T*>(coll_buffers().a);
    T* dst = static_cast<T*>(coll_buffers().b);
    for (const ActiveSet& s : active_sets()) {
        const int k = set_index(s, me());
        if (k >= 0) {
            const int n = s.size;
            // broadcast: dest untouched on the root.
            for (int root = 0; root < n; ++root) {
                for (std::size_t i = 0; i < 4; ++i) {
                    src[i] = value<T>(k, i);
                    dst[i] = poison<T>();
                }
                bcast(dst, src, 4, root, s.start, s.log_stride, s.size, g_psync);
                for (std::size_t i = 0; i < 4; ++i)
                    EXPECT_EQ(dst[i], k == root ? poison<T>() : value<T>(root, i))
                        << "shmem_broadcast" << bits << " root " << root << " element " << i;
            }
            // collect (k + 1 elements) and fcollect (2).
            for (std::size_t i = 0; i < 4; ++i) src[i] = value<T>(k, i);
            collect(dst, src, std::size_t(k) + 1, s.start, s.log_stride, s.size, g_psync);
            for (int q = 0, at = 0; q < n; ++q)
                for (int i = 0; i <= q; ++i, ++at)
                    EXPECT_EQ(dst[at], value<T>(q, std::size_t(i))) << "shmem_collect" << bits;
            fcollect(dst, src, 2, s.start, s.log_stride, s.size, g_psync);
            for (int q = 0; q < n; ++q)
                for (int i = 0; i < 2; ++i)
                    EXPECT_EQ(dst[q * 2 + i], value<T>(q, std::size_t(i))) << "shmem_fcollect" << bits;
            // alltoall (2 per PE) and alltoalls (dst 2, sst 3).
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < 2; ++i) src[j * 2 + i] = value<T>(k, std::size_t(j * 2 + i));
            alltoall(dst, src, 2, s.start, s.log_stride, s.size, g_psync);
            for (int q = 0; q < n; ++q)
                for (int i = 0; i < 2; ++i)
                    EXPECT_EQ(dst[q * 2 + i], value<T>(q, std::size_t(k * 2 + i))) << "shmem_alltoall" << bits;
            for (int e = 0; e < 2 * n; ++e) src[3 * e] = value<T>(k, std::size_t(e));
            for (int e = 0; e < 4 * n; ++e) dst[e] = poison<T>();
            alltoalls(dst, src, 2, 3, 2, s.start, s.log_stride, s.size, g_psync);
            for (int e = 0; e < 4 * n; ++e) {
                const int q = (e / 2) / 2, i = (e / 2) % 2;
                EXPECT_EQ(dst[e], e % 2 ? poison<T>() : value<T>(q, std::size_t(k * 2 + i)))
                    << "shmem_alltoalls" << bits << " element " << e;
            }
            expect_psync_restored("sized collectives");
        }
        shmem_barrier_all();
    }
}

TEST(CollDeprecated, Sized32And64) {
    check_sized<std::int32_t>("32", shmem_broadcast32, shmem_collect32, shmem_fcollect32, shmem_alltoall32,
                              shmem_alltoalls32);
    check_sized<std::int64_t>("64", shmem_broadcast64, shmem_collect64, shmem_fcollect64, shmem_alltoall64,
                              shmem_alltoalls64);
}

// ---- serving AMOs while waiting in a collective ----------------------------

long g_counter;

// Each PE sends fetch-adds to its right neighbour and then enters a
// collective; a neighbour that is already inside it must serve them.  PE 0
// enters late, so the others wait inside the collective while its AMOs (and
// theirs to each other) are outstanding.
TEST(CollServe, AmosBeforeCollectives) {
    g_counter = 0;
    shmem_barrier_all();
    constexpr int kAmos = 200;
    if (me() == 0) usleep(100 * 1000);  // the others reach the collective first
    long fetched_sum = 0;
    for (int i = 0; i < kAmos; ++i) fetched_sum += shmem_long_atomic_fetch_add(&g_counter, 1, right());
    EXPECT_EQ(fetched_sum, long(kAmos) * (kAmos - 1) / 2);
    coll_buffers();
    long* src = static_cast<long*>(coll_buffers().a);
    long* dst = static_cast<long*>(coll_buffers().b);
    for (int round = 0; round < 10; ++round) {
        for (int i = 0; i < 20; ++i) shmem_long_atomic_add(&g_counter, 1, right());
        src[0] = 1;
        EXPECT_EQ(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 1), 0);
        EXPECT_EQ(dst[0], npes());
        EXPECT_EQ(shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 1, round % npes()), 0);
        EXPECT_EQ(shmem_team_sync(SHMEM_TEAM_WORLD), 0);
    }
    shmem_barrier_all();  // completes the adds
    EXPECT_EQ(g_counter, kAmos + 10 * 20);
}

// Team creation waits too: every PE but 0 sends AMOs to PE 0 (and waits for
// each) before joining a team split that PE 0 entered first.  Without a
// progress thread (shmem_coll_data_nothread), PE 0 blocked in the split's
// agreement (an MPI_Allreduce) deadlocked: nobody served the AMOs, so the
// others never reached the split.
TEST(CollServe, AmosBeforeTeamSplit) {
    g_counter = 0;
    shmem_barrier_all();
    constexpr int kAmos = 200;
    long fetched_sum = 0;
    if (me() != 0) {
        usleep(50 * 1000);  // PE 0 is in the split meanwhile
        for (int i = 0; i < kAmos; ++i) fetched_sum += shmem_long_atomic_fetch_add(&g_counter, 1, 0);
        EXPECT_GE(fetched_sum, long(kAmos) * (kAmos - 1) / 2);
    }
    shmem_team_t evens = SHMEM_TEAM_INVALID;
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes() + 1) / 2, nullptr, 0, &evens), 0);
    EXPECT_EQ(evens != SHMEM_TEAM_INVALID, me() % 2 == 0);
    shmem_team_t rows = SHMEM_TEAM_INVALID, columns = SHMEM_TEAM_INVALID;
    if (me() != 0)
        for (int i = 0; i < kAmos; ++i) shmem_long_atomic_fetch_add(&g_counter, 1, 0);
    ASSERT_EQ(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, nullptr, 0, &rows, nullptr, 0, &columns), 0);
    EXPECT_EQ(shmem_team_n_pes(rows), std::min(2, npes() - me() / 2 * 2));  // PE p sits in row p / 2
    shmem_barrier_all();
    if (me() == 0) EXPECT_EQ(g_counter, 2L * kAmos * (npes() - 1));
    shmem_team_destroy(rows);
    shmem_team_destroy(columns);
    if (evens != SHMEM_TEAM_INVALID) shmem_team_destroy(evens);
}

// A team's first barrier: every PE but 0 sends AMOs to PE 0 (and waits for
// each) before its first shmem_team_sync on a team made just before, which
// PE 0 entered first.  Without a progress thread
// (shmem_coll_data_nothread), PE 0 made the team's barrier there, in a
// blocking MPI_Comm_dup, and deadlocked: nobody served the AMOs, so the
// others never reached the barrier.
TEST(CollServe, AmosBeforeFirstBarrierOfATeam) {
    g_counter = 0;
    shmem_team_t all = SHMEM_TEAM_INVALID, rows = SHMEM_TEAM_INVALID, columns = SHMEM_TEAM_INVALID;
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes(), nullptr, 0, &all), 0);
    ASSERT_EQ(shmem_team_split_2d(SHMEM_TEAM_WORLD, npes(), nullptr, 0, &rows, nullptr, 0, &columns), 0);
    shmem_barrier_all();
    constexpr int kAmos = 200;
    for (shmem_team_t team : {all, rows}) {  // rows: one row of every PE, made by the 2-D split
        if (me() != 0) {
            usleep(50 * 1000);  // PE 0 is in the team's first barrier meanwhile
            long fetched_sum = 0;
            for (int i = 0; i < kAmos; ++i) fetched_sum += shmem_long_atomic_fetch_add(&g_counter, 1, 0);
            EXPECT_GE(fetched_sum, long(kAmos) * (kAmos - 1) / 2);
        }
        EXPECT_EQ(shmem_team_sync(team), 0);
    }
    shmem_barrier_all();
    if (me() == 0) EXPECT_EQ(g_counter, 2L * kAmos * (npes() - 1));
    shmem_team_destroy(columns);
    shmem_team_destroy(rows);
    shmem_team_destroy(all);
}

// An active set's first collective makes its communicator (collective over
// the set's PEs only): PE 1 enters shmem_barrier on the set {0, 1} first,
// and PE 0 sends AMOs to PE 1 before entering it.  Without a progress
// thread PE 1 blocked in MPI_Comm_create_group and deadlocked.  The set
// must be new to this process (no other test here uses {0, 1}), and at 2
// PEs it is the whole job, which is the world team: 3 PEs or more.
TEST(CollServe, AmosBeforeFirstCollectiveOfAnActiveSet) {
    if (npes() < 3) GTEST_SKIP() << "needs 3 PEs (at 2 the set {0, 1} is the world team, made at start)";
    g_counter = 0;
    reset_psync();
    shmem_barrier_all();
    constexpr int kAmos = 200;
    if (me() == 0) {
        usleep(50 * 1000);  // PE 1 is in the set's first barrier meanwhile
        long fetched_sum = 0;
        for (int i = 0; i < kAmos; ++i) fetched_sum += shmem_long_atomic_fetch_add(&g_counter, 1, 1);
        EXPECT_EQ(fetched_sum, long(kAmos) * (kAmos - 1) / 2);
    }
    if (me() < 2) {
        shmem_barrier(0, 0, 2, g_psync);
        expect_psync_restored("shmem_barrier on the set {0, 1}");
    }
    shmem_barrier_all();
    if (me() == 1) EXPECT_EQ(g_counter, kAmos);
}

}  // namespace
