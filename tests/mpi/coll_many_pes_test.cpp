// tests/mpi/coll_many_pes_test.cpp -- collectives that Open MPI 4.1.4 gets
// wrong when used naively, run at 16 PEs (oversubscribed) as well as at 2
// and 4 (issue 14 items 19 and 20):
//  - §9.10.6 strided alltoalls for every Table 5 type (every element width,
//    1 to 16 bytes) and alltoallsmem, with dst and sst strides
//    1, 2 and 3 in every combination but (1, 1): at 16 ranks Open MPI
//    4.1.4 picks its modified Bruck alltoall, which is wrong when the send
//    and receive datatypes differ;
//  - §9.10.9-10 sums, products and scans of every integer row of Table 10
//    that overflow: the results must wrap (two's complement, the bits of
//    the unsigned sum), where Open MPI's vectorized MPI_SUM on 8- and 16-bit
//    integers saturates.  256 elements per call, so that the vector code
//    runs.
#include <type_traits>

#include "shmem_test.hpp"

namespace {

using namespace gasket_test;

// ---- alltoalls ------------------------------------------------------------------

// Element i of the block PE `from` sends to PE `to`: distinct for every
// (from, to, i) in the low 7 bits, so even a 1-byte type tells them apart
// at 16 PEs and 3 elements.
template <class T>
T a2a_value(int from, int to, std::size_t i) {
    const unsigned v = (unsigned(from) * 5 + unsigned(to) * 3 + unsigned(i) * 41 + 1) & 0x7f;
    if constexpr (std::is_arithmetic_v<T>) {
        return static_cast<T>(v);
    } else {
        T x{};
        std::memset(&x, 0, sizeof x);
        std::memcpy(&x, &v, 1);
        return x;
    }
}

template <class T>
T a2a_poison() {
    if constexpr (std::is_arithmetic_v<T>) {
        return static_cast<T>(-3);
    } else {
        T x;
        std::memset(&x, 0xee, sizeof x);
        return x;
    }
}

// Values compare as values (long double has padding bytes); other
// elements bytewise.
template <class T>
bool same(const T& a, const T& b) {
    if constexpr (std::is_arithmetic_v<T>)
        return a == b;
    else
        return std::memcmp(&a, &b, sizeof(T)) == 0;
}

constexpr std::size_t kA2aN = 3;  // elements per PE pair

// One alltoalls call through `call(dest, source, dst, sst, nelems)`;
// every PE checks every element of dest (slots between the strided ones
// untouched).
template <class T, class Call>
void check_alltoalls(const char* name, Call call, std::ptrdiff_t dst, std::ptrdiff_t sst) {
    const int p = me(), n = npes();
    const std::size_t all = kA2aN * std::size_t(n);
    const std::size_t src_len = all * std::size_t(sst), dst_len = all * std::size_t(dst);
    T* source = static_cast<T*>(shmem_malloc(src_len * sizeof(T)));
    T* dest = static_cast<T*>(shmem_malloc(dst_len * sizeof(T)));
    if (!all_pes(source && dest)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(dest);
        shmem_free(source);
        return;
    }
    for (std::size_t e = 0; e < src_len; ++e) source[e] = a2a_poison<T>();
    for (std::size_t e = 0; e < all; ++e) source[std::size_t(sst) * e] = a2a_value<T>(p, int(e / kA2aN), e % kA2aN);
    for (std::size_t e = 0; e < dst_len; ++e) dest[e] = a2a_poison<T>();
    EXPECT_EQ(call(dest, source, dst, sst, kA2aN), 0) << name;
    std::size_t bad = 0;
    std::string first;
    for (std::size_t e = 0; e < dst_len; ++e) {
        const bool slot = e % std::size_t(dst) == 0;
        const std::size_t k = e / std::size_t(dst);
        const T want = slot ? a2a_value<T>(int(k / kA2aN), p, k % kA2aN) : a2a_poison<T>();
        if (same(dest[e], want)) continue;
        if (bad++ == 0) first = "first at dest element " + std::to_string(e);
    }
    EXPECT_EQ(bad, 0u) << name << " dst " << dst << " sst " << sst << " on PE " << p << " of " << n << ": " << bad
                       << " of " << dst_len << " elements wrong, " << first;
    shmem_free(dest);
    shmem_free(source);
}

template <class T, class Call>
void check_alltoalls_strides(const char* name, Call call) {
    for (std::ptrdiff_t dst = 1; dst <= 3; ++dst)
        for (std::ptrdiff_t sst = 1; sst <= 3; ++sst)
            if (dst != 1 || sst != 1) check_alltoalls<T>(name, call, dst, sst);
}

TEST(ManyPes, AlltoallsEveryType) {
#define GASKET_CHECK_A2A(TYPE, NAME)                                                                                  \
    check_alltoalls_strides<TYPE>("shmem_" #NAME "_alltoalls",                                                        \
                                  [](TYPE* d, const TYPE* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t n) { \
                                      return shmem_##NAME##_alltoalls(SHMEM_TEAM_WORLD, d, s, dst, sst, n);           \
                                  });
    GASKET_STD_RMA_TYPES(GASKET_CHECK_A2A)
#undef GASKET_CHECK_A2A
}

TEST(ManyPes, Alltoallsmem) {
    check_alltoalls_strides<unsigned char>(
        "shmem_alltoallsmem", [](unsigned char* d, const unsigned char* s, std::ptrdiff_t dst, std::ptrdiff_t sst,
                                 std::size_t n) { return shmem_alltoallsmem(SHMEM_TEAM_WORLD, d, s, dst, sst, n); });
}

// ---- overflowing integer reductions -----------------------------------------------

constexpr std::size_t kRedN = 256;

// The unsigned type of T's width (char, signed char -> unsigned char).
template <class T>
using U = std::make_unsigned_t<T>;

// PE pe's element i: near the top of T's range (signed: near its maximum;
// unsigned: near 2^width - 1), so that sums overflow from 2 PEs on.
template <class T>
T big_value(int pe, std::size_t i) {
    const U<T> top = std::is_signed_v<T> ? U<T>(U<T>(~U<T>(0)) >> 1) : U<T>(~U<T>(0));
    return static_cast<T>(U<T>(top - U<T>(pe * 3 + int(i % 5))));
}
// PE pe's element i for products: 3..10, so a product over 16 PEs
// overflows every width below 64 bits (3^16 > 2^25) and most of 64.
template <class T>
T factor(int pe, std::size_t i) {
    return static_cast<T>(3 + (pe + int(i)) % 8);
}

// The wrapped result: the sum (or product) in U<T>, whose bits are the
// two's-complement result in T.
template <class T, class Value>
U<T> wrapped(bool product, int first_pe, int last_pe, std::size_t i, Value v) {
    U<T> r = product ? U<T>(1) : U<T>(0);
    for (int pe = first_pe; pe <= last_pe; ++pe) r = product ? U<T>(r * U<T>(v(pe, i))) : U<T>(r + U<T>(v(pe, i)));
    return r;
}

enum class Kind { sum, prod, inscan, exscan };

template <class T>
void check_reduction(const char* name, Kind kind, int (*fn)(shmem_team_t, T*, const T*, size_t)) {
    const int p = me(), n = npes();
    const bool product = kind == Kind::prod;
    T* source = static_cast<T*>(shmem_malloc(kRedN * sizeof(T)));
    T* dest = static_cast<T*>(shmem_malloc(kRedN * sizeof(T)));
    if (!all_pes(source && dest)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(dest);
        shmem_free(source);
        return;
    }
    auto v = product ? factor<T> : big_value<T>;
    for (std::size_t i = 0; i < kRedN; ++i) source[i] = v(p, i);
    EXPECT_EQ(fn(SHMEM_TEAM_WORLD, dest, source, kRedN), 0) << name;
    const int last = kind == Kind::inscan ? p : kind == Kind::exscan ? p - 1 : n - 1;
    std::size_t bad = 0;
    std::string first;
    for (std::size_t i = 0; i < kRedN; ++i) {
        const U<T> want = wrapped<T>(product, 0, last, i, v);
        const U<T> got = static_cast<U<T>>(dest[i]);
        if (got == want) continue;
        if (bad++ == 0)
            first = "first at [" + std::to_string(i) + "]: got " + std::to_string(+got) + ", want " +
                    std::to_string(+want) + " (as unsigned)";
    }
    EXPECT_EQ(bad, 0u) << name << " on PE " << p << " of " << n << ": " << bad << " of " << kRedN
                       << " elements do not wrap, " << first;
    shmem_free(dest);
    shmem_free(source);
}

TEST(ManyPes, OverflowingIntegerReductionsWrap) {
#define GASKET_CHECK_WRAP(TYPE, NAME)                                                             \
    check_reduction<TYPE>("shmem_" #NAME "_sum_reduce", Kind::sum, shmem_##NAME##_sum_reduce);    \
    check_reduction<TYPE>("shmem_" #NAME "_prod_reduce", Kind::prod, shmem_##NAME##_prod_reduce); \
    check_reduction<TYPE>("shmem_" #NAME "_sum_inscan", Kind::inscan, shmem_##NAME##_sum_inscan); \
    check_reduction<TYPE>("shmem_" #NAME "_sum_exscan", Kind::exscan, shmem_##NAME##_sum_exscan);
    GASKET_TEAM_REDUCE_SIGNED_TYPES(GASKET_CHECK_WRAP)
    GASKET_TEAM_REDUCE_BITWISE_TYPES(GASKET_CHECK_WRAP)
#undef GASKET_CHECK_WRAP
}

}  // namespace
