// tests/mpi/coll_reduce_test.cpp -- §9.10.9 reductions and §9.10.10 scans:
// every operator for every type of its Table 10 column
// (shmem_TYPENAME_{and,or,xor,max,min,sum,prod}_reduce,
// shmem_TYPENAME_sum_{inscan,exscan}), and the deprecated
// shmem_TYPENAME_OP_to_all of Table 11 on active sets, each against a
// serial computation of the same values on every PE.
//
// Every PE knows every other PE's contribution (value(p, i) is a pure
// function of the team PE p and the element i), so each PE computes the
// expected result alone, in team PE order.  Values keep every result exact
// and inside the type: bit patterns across the whole width for AND/OR/XOR,
// negative and positive values for MAX/MIN, small magnitudes for SUM (so
// int8_t cannot overflow) and factors from {1, 2, 3} or {-1, 1, 2} for
// PROD; floating and complex values are small integers, so the order MPI
// combines them in does not matter.
//
// Teams: SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED and the splits of
// coll_teams.hpp (even PEs, odd PEs, PEs 1..n-1, all PEs reversed, so team
// PE numbers differ from world PE numbers); the deprecated forms on
// the whole job, on the even PEs (logPE_stride 1) and on PE 1..n-1.  Each
// routine runs on 7 elements (in a symmetric-heap array, dest != source),
// then in place (dest == source) on 5 elements, then with nreduce 0 (dest
// untouched); a few large counts (50000 elements) on the global data.
#include <functional>
#include <string>

#include "coll_teams.hpp"
#include "shmem_test.hpp"

namespace {

using namespace gasket_test;

enum class Op { band, bor, bxor, max, min, sum, prod };

template <class T>
constexpr bool is_complex_v = std::is_same_v<T, _Complex float> || std::is_same_v<T, _Complex double>;

// The contribution of team PE `p` to element `i` for `op`.
template <class T>
T value(Op op, int p, std::size_t i) {
    const long k = long(i);
    if constexpr (is_complex_v<T>) {
        T v = 0;
        if (op == Op::prod) {
            __real__ v = (p + k) % 3 == 0 ? 1 : -1;
            __imag__ v = (p + k) % 2;
        } else {
            __real__ v = double(p * 3 + k);
            __imag__ v = double(k - p);
        }
        return v;
    } else if constexpr (std::is_floating_point_v<T>) {
        switch (op) {
            case Op::prod: return T((p + k) % 3 == 0 ? -1.5 : 2.0);
            case Op::max:
            case Op::min: return T(((p * 7 + k * 5) % 11) - 5) + T(0.25) * T(p);
            default: return T(p * 3 + k) - T(4);
        }
    } else {
        constexpr bool sign = std::is_signed_v<T>;
        switch (op) {
            case Op::band:
            case Op::bor:
            case Op::bxor: {
                // Spread over all bits of T, different per PE and element.
                const std::uint64_t x = 0x9E3779B97F4A7C15ull * std::uint64_t(p * 131 + k + 1);
                return T(x >> (64 - 8 * sizeof(T)) ^ (x & 0xff));
            }
            case Op::max:
            case Op::min: return T(((p * 7 + k * 5) % 23) - (sign ? 11 : 0));
            case Op::sum: return T((p + 1) * (k % 5 + 1) - (sign && (p + k) % 2 ? 7 : 0));
            case Op::prod:
                if constexpr (sign)
                    return T((p + k) % 3 == 0 ? -1 : (p + k) % 3 == 1 ? 1 : 2);
                else
                    return T((p + k) % 3 + 1);
        }
        return T(0);
    }
}

template <class T>
T combine(Op op, T a, T b) {
    switch (op) {
        case Op::sum: return T(a + b);
        case Op::prod: return T(a * b);
        default: break;
    }
    if constexpr (!is_complex_v<T>) {
        switch (op) {
            case Op::max: return a < b ? b : a;
            case Op::min: return b < a ? b : a;
            default: break;
        }
        if constexpr (std::is_integral_v<T>) {
            switch (op) {
                case Op::band: return T(a & b);
                case Op::bor: return T(a | b);
                case Op::bxor: return T(a ^ b);
                default: break;
            }
        }
    }
    ADD_FAILURE() << "operator not valid for this type";
    return a;
}

// The reduction of element i over team PEs 0..last.
template <class T>
T expected(Op op, int last, std::size_t i) {
    T acc = value<T>(op, 0, i);
    for (int p = 1; p <= last; ++p) acc = combine(op, acc, value<T>(op, p, i));
    return acc;
}

template <class T>
bool equal(T a, T b) {
    if constexpr (is_complex_v<T>)
        return __real__ a == __real__ b && __imag__ a == __imag__ b;
    else
        return a == b;
}

template <class T>
std::string show(T v) {
    if constexpr (is_complex_v<T>)
        return "(" + std::to_string(double(__real__ v)) + ", " + std::to_string(double(__imag__ v)) + ")";
    else if constexpr (std::is_floating_point_v<T>)
        return std::to_string(double(v));
    else if constexpr (std::is_signed_v<T>)
        return std::to_string((long long)v);
    else
        return std::to_string((unsigned long long)v);
}

// Large counts on the global data.
alignas(64) long double g_big_src[50000];
alignas(64) long double g_big_dst[50000];

template <class T>
using ReduceFn = int (*)(shmem_team_t, T*, const T*, size_t);

// Runs `fn` (reduction `op`) on `team`: 7 elements, in place on 5, and 0.
template <class T>
void check_reduce(const char* name, ReduceFn<T> fn, Op op, shmem_team_t team) {
    coll_buffers();
    const int p = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
    T* src = static_cast<T*>(coll_buffers().a);
    T* dst = static_cast<T*>(coll_buffers().b);
    constexpr std::size_t kN = 7, kInPlace = 5;
    for (std::size_t i = 0; i < kN; ++i) {
        src[i] = value<T>(op, p, i);
        dst[i] = T(99);
    }
    EXPECT_EQ(fn(team, dst, src, kN), 0) << name;
    for (std::size_t i = 0; i < kN; ++i) {
        EXPECT_TRUE(equal(dst[i], expected<T>(op, n - 1, i)))
            << name << " element " << i << " on team PE " << p << " of " << n << ": got " << show(dst[i])
            << ", expected " << show(expected<T>(op, n - 1, i));
        EXPECT_TRUE(equal(src[i], value<T>(op, p, i))) << name << ": source changed";
    }
    // In place.
    for (std::size_t i = 0; i < kInPlace; ++i) src[i] = value<T>(op, p, i);
    EXPECT_EQ(fn(team, src, src, kInPlace), 0) << name;
    for (std::size_t i = 0; i < kInPlace; ++i)
        EXPECT_TRUE(equal(src[i], expected<T>(op, n - 1, i))) << name << " in place, element " << i;
    // nreduce 0: nothing written.
    dst[0] = T(42);
    EXPECT_EQ(fn(team, dst, src, 0), 0) << name;
    EXPECT_TRUE(equal(dst[0], T(42))) << name << ": nreduce 0 wrote dest";
}

template <class T>
void check_scan(const char* name, ReduceFn<T> fn, bool inclusive, shmem_team_t team) {
    coll_buffers();
    const int p = shmem_team_my_pe(team);
    T* src = static_cast<T*>(coll_buffers().a);
    T* dst = static_cast<T*>(coll_buffers().b);
    constexpr std::size_t kN = 6;
    for (std::size_t i = 0; i < kN; ++i) {
        src[i] = value<T>(Op::sum, p, i);
        dst[i] = T(99);
    }
    auto want = [&](std::size_t i) {
        if (inclusive) return expected<T>(Op::sum, p, i);
        return p == 0 ? T(0) : expected<T>(Op::sum, p - 1, i);
    };
    EXPECT_EQ(fn(team, dst, src, kN), 0) << name;
    for (std::size_t i = 0; i < kN; ++i)
        EXPECT_TRUE(equal(dst[i], want(i))) << name << " element " << i << " on team PE " << p << ": got "
                                            << show(dst[i]) << ", expected " << show(want(i));
    // In place.
    for (std::size_t i = 0; i < kN; ++i) src[i] = value<T>(Op::sum, p, i);
    EXPECT_EQ(fn(team, src, src, kN), 0) << name;
    for (std::size_t i = 0; i < kN; ++i) EXPECT_TRUE(equal(src[i], want(i))) << name << " in place, element " << i;
}

// The operator columns come from the type tables (GASKET_REDUCE_*_OPS):
// (TYPE, NAME, op, Op enumerator).
#define CHECK_REDUCE(TYPE, NAME, OP, ENUM) \
    for (shmem_team_t t : my_coll_teams()) \
        check_reduce<TYPE>("shmem_" #NAME "_" #OP "_reduce", shmem_##NAME##_##OP##_reduce, Op::ENUM, t);
#define CHECK_BITWISE(TYPE, NAME) GASKET_REDUCE_BITWISE_OPS(CHECK_REDUCE, TYPE, NAME)
#define CHECK_MINMAX(TYPE, NAME) GASKET_REDUCE_MINMAX_OPS(CHECK_REDUCE, TYPE, NAME)
#define CHECK_ARITH(TYPE, NAME) GASKET_REDUCE_ARITH_OPS(CHECK_REDUCE, TYPE, NAME)
#define CHECK_SCANS(TYPE, NAME)                                                              \
    for (shmem_team_t t : my_coll_teams()) {                                                 \
        check_scan<TYPE>("shmem_" #NAME "_sum_inscan", shmem_##NAME##_sum_inscan, true, t);  \
        check_scan<TYPE>("shmem_" #NAME "_sum_exscan", shmem_##NAME##_sum_exscan, false, t); \
    }

TEST(CollReduce, BitwiseEveryType){GASKET_TEAM_REDUCE_BITWISE_TYPES(CHECK_BITWISE)} TEST(CollReduce, MaxMinEveryType){
    GASKET_TEAM_REDUCE_MINMAX_TYPES(CHECK_MINMAX)} TEST(CollReduce, SumProdEveryType){
    GASKET_TEAM_REDUCE_ARITH_TYPES(CHECK_ARITH)} TEST(CollScan, InscanExscanEveryType){
    GASKET_TEAM_REDUCE_ARITH_TYPES(CHECK_SCANS)}

// The C++ overloads of the generic names pick the typed routine.
TEST(CollReduce, GenericNames) {
    coll_buffers();
    const int p = me(), n = npes();
    long* src = static_cast<long*>(coll_buffers().a);
    long* dst = static_cast<long*>(coll_buffers().b);
    src[0] = p + 1;
    EXPECT_EQ(shmem_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 1), 0);
    EXPECT_EQ(dst[0], long(n) * (n + 1) / 2);
    EXPECT_EQ(shmem_max_reduce(SHMEM_TEAM_WORLD, dst, src, 1), 0);
    EXPECT_EQ(dst[0], long(n));
    EXPECT_EQ(shmem_sum_exscan(SHMEM_TEAM_WORLD, dst, src, 1), 0);
    EXPECT_EQ(dst[0], long(p) * (p + 1) / 2);
    unsigned* usrc = static_cast<unsigned*>(coll_buffers().a);
    unsigned* udst = static_cast<unsigned*>(coll_buffers().b);
    usrc[0] = 1u << p;
    EXPECT_EQ(shmem_or_reduce(SHMEM_TEAM_WORLD, udst, usrc, 1), 0);
    EXPECT_EQ(udst[0], (1u << n) - 1);
    double* dsrc = static_cast<double*>(coll_buffers().a);
    double* ddst = static_cast<double*>(coll_buffers().b);
    dsrc[0] = 0.5 * (p + 1);
    EXPECT_EQ(shmem_sum_inscan(SHMEM_TEAM_WORLD, ddst, dsrc, 1), 0);
    EXPECT_EQ(ddst[0], 0.25 * (p + 1) * (p + 2));
}

// Many elements (more than one MPI message's worth), on global data.
TEST(CollReduce, LargeCountOnGlobals) {
    const int n = npes(), p = me();
    constexpr std::size_t kN = sizeof g_big_src / sizeof g_big_src[0];
    for (std::size_t i = 0; i < kN; ++i) g_big_src[i] = (long double)(p + 1) * (long double)(i % 1000);
    EXPECT_EQ(shmem_longdouble_sum_reduce(SHMEM_TEAM_WORLD, g_big_dst, g_big_src, kN), 0);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < kN; ++i)
        if (g_big_dst[i] != (long double)(n * (n + 1) / 2) * (long double)(i % 1000)) ++bad;
    EXPECT_EQ(bad, 0u) << "long double sum over " << kN << " elements";
    long long* s = reinterpret_cast<long long*>(g_big_src);
    long long* d = reinterpret_cast<long long*>(g_big_dst);
    for (std::size_t i = 0; i < kN; ++i) s[i] = (long long)(i * 7919 % 10007) - 5000 + p;
    EXPECT_EQ(shmem_longlong_min_reduce(SHMEM_TEAM_WORLD, d, s, kN), 0);
    bad = 0;
    for (std::size_t i = 0; i < kN; ++i)
        if (d[i] != (long long)(i * 7919 % 10007) - 5000) ++bad;
    EXPECT_EQ(bad, 0u) << "long long min over " << kN << " elements";
}

// ---- deprecated active-set reductions (Table 11) -------------------------

long g_psync[SHMEM_REDUCE_SYNC_SIZE];
alignas(64) unsigned char g_pwrk[4096];

template <class T>
using ToAllFn = void (*)(T*, const T*, int, int, int, int, T*, long*);

template <class T>
void check_to_all(const char* name, ToAllFn<T> fn, Op op) {
    coll_buffers();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) g_psync[i] = SHMEM_SYNC_VALUE;
    for (const ActiveSet& s : active_sets()) {
        const int k = set_index(s, me());
        if (k >= 0) {
            T* src = static_cast<T*>(coll_buffers().a);
            T* dst = static_cast<T*>(coll_buffers().b);
            constexpr int kN = 5;
            for (int i = 0; i < kN; ++i) {
                src[i] = value<T>(op, k, std::size_t(i));
                dst[i] = T(99);
            }
            fn(dst, src, kN, s.start, s.log_stride, s.size, reinterpret_cast<T*>(g_pwrk), g_psync);
            for (int i = 0; i < kN; ++i)
                EXPECT_TRUE(equal(dst[i], expected<T>(op, s.size - 1, std::size_t(i))))
                    << name << " on active set (" << s.start << ", " << s.log_stride << ", " << s.size << ") element "
                    << i << ": got " << show(dst[i]);
            for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i)
                EXPECT_EQ(g_psync[i], SHMEM_SYNC_VALUE) << name << ": pSync not restored";
        }
        shmem_barrier_all();  // the next set may reuse pSync
    }
}

#define CHECK_TO_ALL(TYPE, NAME, OP, ENUM) \
    check_to_all<TYPE>("shmem_" #NAME "_" #OP "_to_all", shmem_##NAME##_##OP##_to_all, Op::ENUM);
#define CHECK_TO_ALL_BITWISE(TYPE, NAME) GASKET_REDUCE_BITWISE_OPS(CHECK_TO_ALL, TYPE, NAME)
#define CHECK_TO_ALL_MINMAX(TYPE, NAME) GASKET_REDUCE_MINMAX_OPS(CHECK_TO_ALL, TYPE, NAME)
#define CHECK_TO_ALL_ARITH(TYPE, NAME) GASKET_REDUCE_ARITH_OPS(CHECK_TO_ALL, TYPE, NAME)

TEST(CollToAll, BitwiseEveryType){GASKET_TO_ALL_BITWISE_TYPES(CHECK_TO_ALL_BITWISE)} TEST(CollToAll, MaxMinEveryType){
    GASKET_TO_ALL_MINMAX_TYPES(CHECK_TO_ALL_MINMAX)} TEST(CollToAll, SumProdEveryType) {
    GASKET_TO_ALL_ARITH_TYPES(CHECK_TO_ALL_ARITH)
}

}  // namespace
