// tests/gasp/families_test.cpp -- the GASP event families of the second
// step (docs/gasp.md): signals, point-to-point waits and tests, locks,
// collectives (team and active-set forms), teams, contexts and sessions.
// Built twice:
//  - gasket_gasp_families: the recorder (recorder.h) linked in; every test
//    checks the exact sequence of events, types and arguments on every PE,
//    and the results;
//  - gasket_gasp_families_notool: no tool; the same operations on the
//    untraced paths, checking the results only.
#include <gasp.h>
#include <gasp_shmem.h>
#include <shmem.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "expect.hpp"

using namespace gasp_test;

#ifdef GASKET_GASP_RECORDER
#define EXPECT_EVENTS(...) expect_events(__VA_ARGS__)
#define START_CLEAN() start_clean()
#else
#define EXPECT_EVENTS(...) ((void)0)
#define START_CLEAN() shmem_barrier_all()
#endif

namespace {

const uint64_t kWorld = P(SHMEM_TEAM_WORLD);
const uint64_t kNoTeam = P(SHMEM_TEAM_INVALID);

std::vector<Want> barrier_all() {
    return {{GASP_SHMEM_BARRIER_ALL, GASP_START, {kWorld}}, {GASP_SHMEM_BARRIER_ALL, GASP_END, {kWorld}}};
}
std::vector<Want> operator+(std::vector<Want> a, const std::vector<Want>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

}  // namespace

TEST(GaspFamilies, Signals) {
    static long dest[4];
    static uint64_t sig = 0, sig2 = 0;
    long src[4];
    const int me = shmem_my_pe(), n = shmem_n_pes(), peer = (me + 1) % n, from = (me + n - 1) % n;
    for (int i = 0; i < 4; ++i) src[i] = 100 * me + i;
    shmem_ctx_t ctx;
    ASSERT_EQ(shmem_ctx_create(0, &ctx), 0);
    START_CLEAN();
    shmem_long_put_signal(dest, src, 2, &sig, 1, SHMEM_SIGNAL_ADD, peer);
    shmem_ctx_put64_signal_nbi(ctx, dest + 2, src + 2, 2, &sig, 2, SHMEM_SIGNAL_ADD, peer);
    shmem_ctx_quiet(ctx);
    shmem_signal_add(&sig, 4, peer);
    shmem_ctx_signal_set(ctx, &sig2, 9, peer);
    shmem_ctx_quiet(ctx);
    const uint64_t got = shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 7);
    shmem_signal_wait_until(&sig2, SHMEM_CMP_EQ, 9);
    const uint64_t fetched = shmem_signal_fetch(&sig);
    const uint64_t c = P(ctx), s = P(&sig), s2 = P(&sig2);
    EXPECT_EVENTS({
        {GASP_SHMEM_PUT_SIGNAL, GASP_START, {kDefault, I(peer), P(dest), P(src), 16, 1, 1, 16, s, 1, SHMEM_SIGNAL_ADD}},
        {GASP_SHMEM_PUT_SIGNAL, GASP_END, {kDefault, I(peer), P(dest), P(src), 16, 1, 1, 16, s, 1, SHMEM_SIGNAL_ADD}},
        {GASP_SHMEM_PUT_SIGNAL,
         GASP_START,
         {c, I(peer), P(dest + 2), P(src + 2), 16, 1, 1, 16, s, 2, SHMEM_SIGNAL_ADD}},
        {GASP_SHMEM_PUT_SIGNAL, GASP_END, {c, I(peer), P(dest + 2), P(src + 2), 16, 1, 1, 16, s, 2, SHMEM_SIGNAL_ADD}},
        {GASP_SHMEM_QUIET, GASP_START, {c}},
        {GASP_SHMEM_QUIET, GASP_END, {c}},
        {GASP_SHMEM_SIGNAL_UPDATE, GASP_ATOMIC, {kDefault, s, 4, SHMEM_SIGNAL_ADD, I(peer)}},
        {GASP_SHMEM_SIGNAL_UPDATE, GASP_ATOMIC, {c, s2, 9, SHMEM_SIGNAL_SET, I(peer)}},
        {GASP_SHMEM_QUIET, GASP_START, {c}},
        {GASP_SHMEM_QUIET, GASP_END, {c}},
        {GASP_SHMEM_SIGNAL_WAIT_UNTIL, GASP_START, {s, SHMEM_CMP_EQ, 7}},
        {GASP_SHMEM_SIGNAL_WAIT_UNTIL, GASP_END, {s, SHMEM_CMP_EQ, 7}},
        {GASP_SHMEM_SIGNAL_WAIT_UNTIL, GASP_START, {s2, SHMEM_CMP_EQ, 9}},
        {GASP_SHMEM_SIGNAL_WAIT_UNTIL, GASP_END, {s2, SHMEM_CMP_EQ, 9}},
        {GASP_SHMEM_SIGNAL_FETCH, GASP_ATOMIC, {s, 7}},
    });
    EXPECT_EQ(got, 7u);
    EXPECT_EQ(fetched, 7u);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(dest[i], 100 * from + i) << i;
    shmem_barrier_all();  // every PE has read its signals before they are reset
    sig = sig2 = 0;
    shmem_ctx_destroy(ctx);
}

TEST(GaspFamilies, WaitsAndTests) {
    static long flag = 0;
    static long ivars[4];
    static int iv = 0;
    const int me = shmem_my_pe(), n = shmem_n_pes(), peer = (me + 1) % n;
    ivars[0] = 1, ivars[1] = 0, ivars[2] = 3, ivars[3] = 0;
    const int status[4] = {0, 1, 0, 1};
    const long some_values[4] = {1, 9, 3, 9}, all_values[4] = {1, 0, 3, 0};
    size_t indices[4] = {};
    START_CLEAN();
    shmem_long_atomic_set(&flag, 1, peer);
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);  // set by the PE before
    shmem_long_wait_until_all(ivars, 4, status, SHMEM_CMP_NE, 0);
    const size_t any = shmem_long_wait_until_any(ivars, 4, nullptr, SHMEM_CMP_EQ, 3);
    const size_t some = shmem_long_wait_until_some_vector(ivars, 4, indices, nullptr, SHMEM_CMP_EQ, some_values);
    const int t1 = shmem_int_test(&iv, SHMEM_CMP_EQ, 5);
    const int t2 = shmem_long_test_all_vector(ivars, 4, nullptr, SHMEM_CMP_GE, all_values);
    const size_t t3 = shmem_long_test_any(ivars, 4, nullptr, SHMEM_CMP_EQ, 7);
    const size_t t4 = shmem_long_test_some(ivars, 4, indices + 2, nullptr, SHMEM_CMP_GT, 0);
    shmem_long_wait(&flag, 0);  // deprecated: until flag != 0
    const uint64_t f = P(&flag), v = P(ivars);
    EXPECT_EVENTS({
        {GASP_SHMEM_AMO, GASP_ATOMIC, {kDefault, GASP_SHMEM_AMO_SET, GASP_SHMEM_TYPE_INT64, f, I(peer), 0, 0}},
        {GASP_SHMEM_WAIT_UNTIL, GASP_START, {f, 1, SHMEM_CMP_EQ, GASP_SHMEM_TYPE_INT64, GASP_SHMEM_WAIT_SINGLE}},
        {GASP_SHMEM_WAIT_UNTIL, GASP_END, {f, 1, SHMEM_CMP_EQ, GASP_SHMEM_TYPE_INT64, GASP_SHMEM_WAIT_SINGLE}},
        {GASP_SHMEM_WAIT_UNTIL, GASP_START, {v, 4, SHMEM_CMP_NE, GASP_SHMEM_TYPE_INT64, GASP_SHMEM_WAIT_ALL}},
        {GASP_SHMEM_WAIT_UNTIL, GASP_END, {v, 4, SHMEM_CMP_NE, GASP_SHMEM_TYPE_INT64, GASP_SHMEM_WAIT_ALL}},
        {GASP_SHMEM_WAIT_UNTIL, GASP_START, {v, 4, SHMEM_CMP_EQ, GASP_SHMEM_TYPE_INT64, GASP_SHMEM_WAIT_ANY}},
        {GASP_SHMEM_WAIT_UNTIL, GASP_END, {v, 4, SHMEM_CMP_EQ, GASP_SHMEM_TYPE_INT64, GASP_SHMEM_WAIT_ANY}},
        {GASP_SHMEM_WAIT_UNTIL, GASP_START, {v, 4, SHMEM_CMP_EQ, GASP_SHMEM_TYPE_INT64, GASP_SHMEM_WAIT_SOME_VECTOR}},
        {GASP_SHMEM_WAIT_UNTIL, GASP_END, {v, 4, SHMEM_CMP_EQ, GASP_SHMEM_TYPE_INT64, GASP_SHMEM_WAIT_SOME_VECTOR}},
        {GASP_SHMEM_TEST, GASP_ATOMIC, {P(&iv), 1, SHMEM_CMP_EQ, GASP_SHMEM_TYPE_INT32, GASP_SHMEM_WAIT_SINGLE, 0}},
        {GASP_SHMEM_TEST, GASP_ATOMIC, {v, 4, SHMEM_CMP_GE, GASP_SHMEM_TYPE_INT64, GASP_SHMEM_WAIT_ALL_VECTOR, 1}},
        {GASP_SHMEM_TEST, GASP_ATOMIC, {v, 4, SHMEM_CMP_EQ, GASP_SHMEM_TYPE_INT64, GASP_SHMEM_WAIT_ANY, SIZE_MAX}},
        {GASP_SHMEM_TEST, GASP_ATOMIC, {v, 4, SHMEM_CMP_GT, GASP_SHMEM_TYPE_INT64, GASP_SHMEM_WAIT_SOME, 2}},
        {GASP_SHMEM_WAIT_UNTIL, GASP_START, {f, 1, SHMEM_CMP_NE, GASP_SHMEM_TYPE_INT64, GASP_SHMEM_WAIT_SINGLE}},
        {GASP_SHMEM_WAIT_UNTIL, GASP_END, {f, 1, SHMEM_CMP_NE, GASP_SHMEM_TYPE_INT64, GASP_SHMEM_WAIT_SINGLE}},
    });
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(any, 2u);
    EXPECT_EQ(some, 2u);
    EXPECT_EQ(indices[0], 0u);
    EXPECT_EQ(indices[1], 2u);
    EXPECT_EQ(t1, 0);
    EXPECT_EQ(t2, 1);
    EXPECT_EQ(t3, SIZE_MAX);
    EXPECT_EQ(t4, 2u);
    EXPECT_EQ(indices[2], 0u);
    EXPECT_EQ(indices[3], 2u);
    shmem_barrier_all();
    flag = 0;
}

TEST(GaspFamilies, Locks) {
    static long lock = 0;
    static long counter = 0;
    const int me = shmem_my_pe(), n = shmem_n_pes();
    START_CLEAN();
    shmem_set_lock(&lock);
    const long seen = shmem_long_atomic_fetch(&counter, 0);
    shmem_long_atomic_set(&counter, seen + 1, 0);  // a read-modify-write made atomic by the lock
    shmem_quiet();
    shmem_clear_lock(&lock);
    shmem_barrier_all();
    int r0 = -1, r1 = -1;
    if (me == 0) r0 = shmem_test_lock(&lock);  // free: taken
    shmem_barrier_all();
    if (me == 1) r1 = shmem_test_lock(&lock);  // held by PE 0
    shmem_barrier_all();
    if (me == 0) shmem_clear_lock(&lock);
    const uint64_t l = P(&lock), k = P(&counter);
    std::vector<Want> want = {
        {GASP_SHMEM_SET_LOCK, GASP_START, {l}},
        {GASP_SHMEM_SET_LOCK, GASP_END, {l}},
        {GASP_SHMEM_AMO, GASP_START, {kDefault, GASP_SHMEM_AMO_FETCH, GASP_SHMEM_TYPE_INT64, k, 0, 1, 0}},
        {GASP_SHMEM_AMO, GASP_END, {kDefault, GASP_SHMEM_AMO_FETCH, GASP_SHMEM_TYPE_INT64, k, 0, 1, 0}},
        {GASP_SHMEM_AMO, GASP_ATOMIC, {kDefault, GASP_SHMEM_AMO_SET, GASP_SHMEM_TYPE_INT64, k, 0, 0, 0}},
        {GASP_SHMEM_QUIET, GASP_START, {kDefault}},
        {GASP_SHMEM_QUIET, GASP_END, {kDefault}},
        {GASP_SHMEM_CLEAR_LOCK, GASP_START, {l}},
        {GASP_SHMEM_CLEAR_LOCK, GASP_END, {l}},
    };
    want = want + barrier_all();
    if (me == 0)
        want =
            want + std::vector<Want>{{GASP_SHMEM_TEST_LOCK, GASP_START, {l}}, {GASP_SHMEM_TEST_LOCK, GASP_END, {l, 0}}};
    want = want + barrier_all();
    if (me == 1)
        want =
            want + std::vector<Want>{{GASP_SHMEM_TEST_LOCK, GASP_START, {l}}, {GASP_SHMEM_TEST_LOCK, GASP_END, {l, 1}}};
    want = want + barrier_all();
    if (me == 0)
        want =
            want + std::vector<Want>{{GASP_SHMEM_CLEAR_LOCK, GASP_START, {l}}, {GASP_SHMEM_CLEAR_LOCK, GASP_END, {l}}};
    EXPECT_EVENTS(want);
    if (me == 0) EXPECT_EQ(r0, 0);
    if (me == 1) EXPECT_EQ(r1, 1);
    shmem_barrier_all();
    if (me == 0) EXPECT_EQ(counter, n);
    (void)want;
    shmem_barrier_all();
}

TEST(GaspFamilies, TeamCollectives) {
    static long lsrc[8], ldst[64];
    static int isrc[8], idst[64];
    static unsigned char usrc[2], udst[2];
    static double dsrc[2], ddst[2];
    static int64_t qsrc[1], qdst[1];
    static double _Complex csrc[1], cdst[1];
    const int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = 0; i < 8; ++i) lsrc[i] = 10 * me + i, isrc[i] = 10 * me + i;
    usrc[0] = static_cast<unsigned char>(0xF0 | me), usrc[1] = 0xFF;
    dsrc[0] = me + 1, dsrc[1] = 2;
    qsrc[0] = me;
    __real__ csrc[0] = me + 1;
    __imag__ csrc[0] = 1.0;
    START_CLEAN();
    const shmem_team_t w = SHMEM_TEAM_WORLD;
    EXPECT_EQ(shmem_long_broadcast(w, ldst, lsrc, 4, 0), 0);
    EXPECT_EQ(shmem_int_collect(w, idst, isrc, size_t(me + 1)), 0);
    EXPECT_EQ(shmem_long_fcollect(w, ldst + 8, lsrc, 2), 0);
    EXPECT_EQ(shmem_long_alltoall(w, ldst + 16, lsrc, 1), 0);
    EXPECT_EQ(shmem_int_alltoalls(w, idst + 16, isrc, 2, 1, 1), 0);
    EXPECT_EQ(shmem_long_sum_reduce(w, ldst + 32, lsrc, 2), 0);
    EXPECT_EQ(shmem_int64_max_reduce(w, qdst, qsrc, 1), 0);
    EXPECT_EQ(shmem_uchar_and_reduce(w, udst, usrc, 2), 0);
    EXPECT_EQ(shmem_double_prod_reduce(w, ddst, dsrc, 1), 0);
    EXPECT_EQ(shmem_complexd_sum_reduce(w, cdst, csrc, 1), 0);
    EXPECT_EQ(shmem_int_sum_inscan(w, idst + 40, isrc, 1), 0);
    EXPECT_EQ(shmem_int_sum_exscan(w, idst + 41, isrc, 1), 0);
    EXPECT_EQ(shmem_long_broadcast(SHMEM_TEAM_INVALID, ldst, lsrc, 1, 0), 1);  // error, nothing done
    const uint64_t W = kWorld;
    EXPECT_EVENTS({
        {GASP_SHMEM_BROADCAST, GASP_START, {W, P(ldst), P(lsrc), 32, 0}},
        {GASP_SHMEM_BROADCAST, GASP_END, {W, P(ldst), P(lsrc), 32, 0}},
        {GASP_SHMEM_COLLECT, GASP_START, {W, P(idst), P(isrc), uint64_t(4 * (me + 1))}},
        {GASP_SHMEM_COLLECT, GASP_END, {W, P(idst), P(isrc), uint64_t(4 * (me + 1))}},
        {GASP_SHMEM_FCOLLECT, GASP_START, {W, P(ldst + 8), P(lsrc), 16}},
        {GASP_SHMEM_FCOLLECT, GASP_END, {W, P(ldst + 8), P(lsrc), 16}},
        {GASP_SHMEM_ALLTOALL, GASP_START, {W, P(ldst + 16), P(lsrc), 8}},
        {GASP_SHMEM_ALLTOALL, GASP_END, {W, P(ldst + 16), P(lsrc), 8}},
        {GASP_SHMEM_ALLTOALLS, GASP_START, {W, P(idst + 16), P(isrc), 4, 2, 1}},
        {GASP_SHMEM_ALLTOALLS, GASP_END, {W, P(idst + 16), P(isrc), 4, 2, 1}},
        {GASP_SHMEM_REDUCE, GASP_START, {W, P(ldst + 32), P(lsrc), 2, GASP_SHMEM_REDUCE_SUM, GASP_SHMEM_REDUCTION_L}},
        {GASP_SHMEM_REDUCE, GASP_END, {W, P(ldst + 32), P(lsrc), 2, GASP_SHMEM_REDUCE_SUM, GASP_SHMEM_REDUCTION_L}},
        {GASP_SHMEM_REDUCE, GASP_START, {W, P(qdst), P(qsrc), 1, GASP_SHMEM_REDUCE_MAX, GASP_SHMEM_REDUCTION_INT64}},
        {GASP_SHMEM_REDUCE, GASP_END, {W, P(qdst), P(qsrc), 1, GASP_SHMEM_REDUCE_MAX, GASP_SHMEM_REDUCTION_INT64}},
        {GASP_SHMEM_REDUCE, GASP_START, {W, P(udst), P(usrc), 2, GASP_SHMEM_REDUCE_AND, GASP_SHMEM_REDUCTION_UC}},
        {GASP_SHMEM_REDUCE, GASP_END, {W, P(udst), P(usrc), 2, GASP_SHMEM_REDUCE_AND, GASP_SHMEM_REDUCTION_UC}},
        {GASP_SHMEM_REDUCE, GASP_START, {W, P(ddst), P(dsrc), 1, GASP_SHMEM_REDUCE_PROD, GASP_SHMEM_REDUCTION_D}},
        {GASP_SHMEM_REDUCE, GASP_END, {W, P(ddst), P(dsrc), 1, GASP_SHMEM_REDUCE_PROD, GASP_SHMEM_REDUCTION_D}},
        {GASP_SHMEM_REDUCE, GASP_START, {W, P(cdst), P(csrc), 1, GASP_SHMEM_REDUCE_SUM, GASP_SHMEM_REDUCTION_COMPLEXD}},
        {GASP_SHMEM_REDUCE, GASP_END, {W, P(cdst), P(csrc), 1, GASP_SHMEM_REDUCE_SUM, GASP_SHMEM_REDUCTION_COMPLEXD}},
        {GASP_SHMEM_SCAN, GASP_START, {W, P(idst + 40), P(isrc), 1, GASP_SHMEM_REDUCE_SUM, GASP_SHMEM_REDUCTION_I, 0}},
        {GASP_SHMEM_SCAN, GASP_END, {W, P(idst + 40), P(isrc), 1, GASP_SHMEM_REDUCE_SUM, GASP_SHMEM_REDUCTION_I, 0}},
        {GASP_SHMEM_SCAN, GASP_START, {W, P(idst + 41), P(isrc), 1, GASP_SHMEM_REDUCE_SUM, GASP_SHMEM_REDUCTION_I, 1}},
        {GASP_SHMEM_SCAN, GASP_END, {W, P(idst + 41), P(isrc), 1, GASP_SHMEM_REDUCE_SUM, GASP_SHMEM_REDUCTION_I, 1}},
        {GASP_SHMEM_BROADCAST, GASP_START, {kNoTeam, P(ldst), P(lsrc), 8, 0}},
        {GASP_SHMEM_BROADCAST, GASP_END, {kNoTeam, P(ldst), P(lsrc), 8, 0}},
    });
    // The results.
    for (int i = 0; i < 4; ++i) EXPECT_EQ(ldst[i], i) << i;  // PE 0's
    int at = 0;
    for (int pe = 0; pe < n; ++pe)
        for (int i = 0; i <= pe; ++i) EXPECT_EQ(idst[at++], 10 * pe + i) << pe << " " << i;
    for (int pe = 0; pe < n; ++pe) {
        EXPECT_EQ(ldst[8 + 2 * pe], 10 * pe);
        EXPECT_EQ(ldst[8 + 2 * pe + 1], 10 * pe + 1);
    }
    long sum0 = 0, sum1 = 0;
    int prefix = 0;
    double prod = 1;
    unsigned char band = 0xFF;
    for (int pe = 0; pe < n; ++pe) {
        sum0 += 10 * pe, sum1 += 10 * pe + 1, prod *= pe + 1, band &= static_cast<unsigned char>(0xF0 | pe);
        if (pe < me) prefix += 10 * pe;
    }
    EXPECT_EQ(ldst[32], sum0);
    EXPECT_EQ(ldst[33], sum1);
    EXPECT_EQ(qdst[0], n - 1);
    EXPECT_EQ(udst[0], band);
    EXPECT_EQ(udst[1], 0xFF);
    EXPECT_EQ(ddst[0], prod);
    EXPECT_EQ(__real__ cdst[0], n * (n + 1) / 2.0);
    EXPECT_EQ(__imag__ cdst[0], double(n));
    EXPECT_EQ(idst[40], prefix + 10 * me);
    if (me > 0) EXPECT_EQ(idst[41], prefix);
    shmem_barrier_all();
}

TEST(GaspFamilies, ActiveSetCollectives) {
    constexpr std::size_t kSync =
        std::max({std::size_t(SHMEM_BCAST_SYNC_SIZE), std::size_t(SHMEM_COLLECT_SYNC_SIZE),
                  std::size_t(SHMEM_ALLTOALLS_SYNC_SIZE), std::size_t(SHMEM_REDUCE_SYNC_SIZE)});
    static long psync[4][kSync];
    static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
    static int64_t src[8], dst[64];
    static int32_t src32[8], dst32[64];
    static long lsrc[1], ldst[1];
    const int me = shmem_my_pe(), n = shmem_n_pes();
    for (auto& row : psync)
        for (long& p : row) p = SHMEM_SYNC_VALUE;
    for (int i = 0; i < 8; ++i) src[i] = 10 * me + i, src32[i] = 10 * me + i;
    lsrc[0] = me + 1;
    START_CLEAN();
    shmem_broadcast64(dst, src, 2, 0, 0, 0, n, psync[0]);
    shmem_fcollect32(dst32, src32, 1, 0, 0, n, psync[1]);
    shmem_alltoalls64(dst + 8, src, 2, 1, 1, 0, 0, n, psync[2]);
    shmem_long_sum_to_all(ldst, lsrc, 1, 0, 0, n, pwrk, psync[3]);
    EXPECT_EVENTS({
        {GASP_SHMEM_BROADCAST, GASP_START, {kNoTeam, P(dst), P(src), 16, 0}},
        {GASP_SHMEM_BROADCAST, GASP_END, {kNoTeam, P(dst), P(src), 16, 0}},
        {GASP_SHMEM_FCOLLECT, GASP_START, {kNoTeam, P(dst32), P(src32), 4}},
        {GASP_SHMEM_FCOLLECT, GASP_END, {kNoTeam, P(dst32), P(src32), 4}},
        {GASP_SHMEM_ALLTOALLS, GASP_START, {kNoTeam, P(dst + 8), P(src), 8, 2, 1}},
        {GASP_SHMEM_ALLTOALLS, GASP_END, {kNoTeam, P(dst + 8), P(src), 8, 2, 1}},
        {GASP_SHMEM_REDUCE, GASP_START, {kNoTeam, P(ldst), P(lsrc), 1, GASP_SHMEM_REDUCE_SUM, GASP_SHMEM_REDUCTION_L}},
        {GASP_SHMEM_REDUCE, GASP_END, {kNoTeam, P(ldst), P(lsrc), 1, GASP_SHMEM_REDUCE_SUM, GASP_SHMEM_REDUCTION_L}},
    });
    if (me != 0) {  // the root's dest is not written (§9.10.6, active-set form)
        EXPECT_EQ(dst[0], 0);
        EXPECT_EQ(dst[1], 1);
    }
    for (int pe = 0; pe < n; ++pe) {
        EXPECT_EQ(dst32[pe], 10 * pe) << pe;
        EXPECT_EQ(dst[8 + 2 * pe], 10 * pe + me) << pe;  // PE pe's element `me`, at stride 2
    }
    EXPECT_EQ(ldst[0], long(n) * (n + 1) / 2);
    shmem_barrier_all();
}

TEST(GaspFamilies, TeamsContextsSessions) {
    const int n = shmem_n_pes();
    START_CLEAN();
    shmem_team_t t = SHMEM_TEAM_INVALID, x = SHMEM_TEAM_INVALID, y = SHMEM_TEAM_INVALID;
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, nullptr, 0, &t), 0);
    shmem_ctx_t c = SHMEM_CTX_INVALID, c2 = SHMEM_CTX_INVALID;
    ASSERT_EQ(shmem_team_create_ctx(t, 0, &c), 0);
    shmem_ctx_session_start(c, SHMEM_CTX_SESSION_BATCH, nullptr, 0);
    shmem_ctx_session_stop(c);
    ASSERT_EQ(shmem_ctx_create(SHMEM_CTX_PRIVATE, &c2), 0);
    shmem_ctx_destroy(c2);
    ASSERT_EQ(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, nullptr, 0, &x, nullptr, 0, &y), 0);
    const int t_pes = shmem_team_n_pes(t), x_pes = shmem_team_n_pes(x), y_pes = shmem_team_n_pes(y);
    shmem_team_destroy(t);  // with it, its context c
    shmem_team_destroy(y);
    shmem_team_destroy(x);
    shmem_team_destroy(SHMEM_TEAM_INVALID);  // nothing to do: no event
    EXPECT_EVENTS({
        {GASP_SHMEM_TEAM_SPLIT, GASP_START, {kWorld}},
        {GASP_SHMEM_TEAM_SPLIT, GASP_END, {kWorld, P(t), kNoTeam}},
        {GASP_SHMEM_CTX_CREATE, GASP_ATOMIC, {P(c), 0, P(t)}},
        {GASP_SHMEM_SESSION_START, GASP_ATOMIC, {P(c), I(SHMEM_CTX_SESSION_BATCH)}},
        {GASP_SHMEM_SESSION_STOP, GASP_ATOMIC, {P(c)}},
        {GASP_SHMEM_CTX_CREATE, GASP_ATOMIC, {P(c2), I(SHMEM_CTX_PRIVATE), kWorld}},
        {GASP_SHMEM_CTX_DESTROY, GASP_ATOMIC, {P(c2)}},
        {GASP_SHMEM_TEAM_SPLIT, GASP_START, {kWorld}},
        {GASP_SHMEM_TEAM_SPLIT, GASP_END, {kWorld, P(x), P(y)}},
        {GASP_SHMEM_TEAM_DESTROY, GASP_START, {P(t)}},
        {GASP_SHMEM_CTX_DESTROY, GASP_ATOMIC, {P(c)}},
        {GASP_SHMEM_TEAM_DESTROY, GASP_END, {P(t)}},
        {GASP_SHMEM_TEAM_DESTROY, GASP_START, {P(y)}},
        {GASP_SHMEM_TEAM_DESTROY, GASP_END, {P(y)}},
        {GASP_SHMEM_TEAM_DESTROY, GASP_START, {P(x)}},
        {GASP_SHMEM_TEAM_DESTROY, GASP_END, {P(x)}},
    });
    EXPECT_EQ(t_pes, n);
    EXPECT_EQ(x_pes, 2);  // xrange 2 (n is 2 or 4)
    EXPECT_EQ(y_pes, n / 2);
    shmem_barrier_all();
}

#ifdef GASKET_GASP_RECORDER
TEST(GaspFamilies, NoUnknownEvents) {
    EXPECT_EQ(gasp_recorder_unknown(), 0);
    EXPECT_EQ(gasp_recorder_max_depth(), 1);
}
#endif
