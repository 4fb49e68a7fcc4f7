// tests/mpi/shmem_test.hpp -- helpers shared by the multi-process SHMEM
// tests (run under oshrun with 2 and 4 PEs, fast path on and off).
//
// Rules every test here follows, so that a failure on one PE can never leave
// the others stuck in a collective:
//  - only EXPECT_* (never ASSERT_*) before a collective call (barrier,
//    malloc/free, wait on a value another PE sends): every PE reaches every
//    collective whatever its assertions say;
//  - a wait on a value from another PE is only posted when that PE is
//    certain to send it (the sender's path never depends on an assertion);
//  - cross-PE checks use MPI on MPI_COMM_WORLD (independent of the library
//    under test), through the helpers below.
// The ctest TIMEOUT is the last resort.
#pragma once

#include <mpi.h>
#include <shmem.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace gasket_test {

inline int me() { return shmem_my_pe(); }
inline int npes() { return shmem_n_pes(); }
// Ring neighbours: PE i writes to right() = (i+1)%n and reads what left() wrote.
inline int right() { return (me() + 1) % npes(); }
inline int left() { return (me() + npes() - 1) % npes(); }

// A switch variable as Gasket parses it (on unless 0/off/no/false).
inline bool env_switch(const char* name, bool default_value) {
    const char* v = std::getenv(name);
    if (!v || !*v) return default_value;
    std::string t(v);
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (t == "0" || t == "off" || t == "no" || t == "false") return false;
    return true;
}
// GASKET_NODE_FASTPATH: node peers reached by load/store (default on).
inline bool fastpath_on() { return env_switch("GASKET_NODE_FASTPATH", true); }
// GASKET_SHARED_DATA: globals moved onto shared memory (default on).
inline bool shared_data_on() { return env_switch("GASKET_SHARED_DATA", true); }

// ---- cross-PE reductions through MPI (not through the library under test)

// true on every PE iff `ok` is true on every PE.
inline bool all_pes(bool ok) {
    int mine = ok ? 1 : 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all != 0;
}
// true on every PE iff `cond` is true on at least one PE.
inline bool any_pe(bool cond) { return !all_pes(!cond); }

// Every PE's `v`, indexed by PE (trivially copyable T).
template <class T>
std::vector<T> allgather(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::size_t n = static_cast<std::size_t>(npes());
    std::vector<unsigned char> raw(n * sizeof(T));
    MPI_Allgather(&v, int(sizeof(T)), MPI_BYTE, raw.data(), int(sizeof(T)), MPI_BYTE, MPI_COMM_WORLD);
    std::vector<T> all(n);
    for (std::size_t i = 0; i < n; ++i) {
        T x;
        std::memcpy(&x, raw.data() + i * sizeof(T), sizeof(T));
        all[i] = x;
    }
    return all;
}
template <class T>
bool same_on_all_pes(const T& v) {
    for (const T& x : allgather(v))
        if (!(x == v)) return false;
    return true;
}

// ---- values -------------------------------------------------------------

// A value of arithmetic type T for element i written by PE pe: small
// positive integers (exact in every type, even signed char and float),
// different for different PEs (mod 6) and for neighbouring i.  Never equal
// to sentinel<T>().
template <class T>
T value(int pe, std::size_t i) {
    return static_cast<T>((pe % 6) * 20 + int(i % 19) + 1);
}
template <class T>
T sentinel() {
    return static_cast<T>(127);
}

// An element of `Bytes` bytes (the sized RMA forms): compared bytewise.
template <std::size_t Bytes>
struct Blob {
    unsigned char b[Bytes];
    friend bool operator==(const Blob& x, const Blob& y) { return std::memcmp(x.b, y.b, Bytes) == 0; }
};
template <std::size_t Bytes>
void PrintTo(const Blob<Bytes>& x, std::ostream* os) {
    *os << "{";
    for (std::size_t k = 0; k < Bytes; ++k) *os << (k ? " " : "") << int(x.b[k]);
    *os << "}";
}

// A pattern byte for byte i written by PE pe (high bit clear).
inline unsigned char pattern_byte(int pe, std::size_t i) {
    return static_cast<unsigned char>((i * 131 + (i >> 9) * 7 + std::size_t(pe) * 37 + 1) & 0x7f);
}
constexpr unsigned char kSentinelByte = 0xee;  // high bit set: never a pattern byte

template <class E>
struct Values {  // arithmetic E
    static E make(int pe, std::size_t i) { return value<E>(pe, i); }
    static E none() { return sentinel<E>(); }
};
template <std::size_t Bytes>
struct Values<Blob<Bytes>> {
    static Blob<Bytes> make(int pe, std::size_t i) {
        Blob<Bytes> x;
        for (std::size_t k = 0; k < Bytes; ++k) x.b[k] = pattern_byte(pe, i * Bytes + k);
        return x;
    }
    static Blob<Bytes> none() {
        Blob<Bytes> x;
        std::memset(x.b, kSentinelByte, Bytes);
        return x;
    }
};

// ---- checks -----------------------------------------------------------------

// Printable form of an element for failure messages.
template <class E>
std::string show(const E& x) {
    if constexpr (std::is_floating_point_v<E>)
        return std::to_string(static_cast<long double>(x));
    else if constexpr (std::is_integral_v<E>)
        return std::to_string(static_cast<long long>(x));
    else
        return ::testing::PrintToString(x);
}

// Compares n elements with the expected array; on mismatch reports the count
// and the first few differing indices (one failure, not n).
template <class E>
::testing::AssertionResult ArraysMatch(const E* actual, const E* expected, std::size_t n) {
    std::size_t bad = 0;
    std::string where;
    for (std::size_t i = 0; i < n; ++i) {
        if (actual[i] == expected[i]) continue;
        if (++bad <= 4)
            where += " [" + std::to_string(i) + "] got " + show(actual[i]) + " want " + show(expected[i]) + ";";
    }
    if (bad == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "PE " << me() << ": " << bad << " of " << n << " elements differ:" << where;
}

// Compares n bytes with pattern_byte(pe, first + i).
inline ::testing::AssertionResult BytesMatchPattern(const unsigned char* actual, std::size_t n, int pe,
                                                    std::size_t first = 0) {
    std::size_t bad = 0, first_bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (actual[i] == pattern_byte(pe, first + i)) continue;
        if (bad++ == 0) first_bad = i;
    }
    if (bad == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "PE " << me() << ": " << bad << " of " << n << " bytes differ from PE "
                                         << pe << "'s pattern; first at byte " << first_bad << " (got "
                                         << int(actual[first_bad]) << ", want "
                                         << int(pattern_byte(pe, first + first_bad)) << ")";
}

inline ::testing::AssertionResult BytesAre(const unsigned char* actual, std::size_t n, unsigned char want) {
    for (std::size_t i = 0; i < n; ++i)
        if (actual[i] != want)
            return ::testing::AssertionFailure() << "PE " << me() << ": byte " << i << " of " << n << " is "
                                                 << int(actual[i]) << ", want " << int(want);
    return ::testing::AssertionSuccess();
}

}  // namespace gasket_test

// ---- typed-test plumbing shared by the per-table suites ----------------
// DropFirst<void, A, B...>::type is ::testing::Types<A, B...>: lets an
// X-macro emit ", Row_x" for every table row after a leading `void`.
template <class First, class... Rows>
struct DropFirst {
    using type = ::testing::Types<Rows...>;
};

// Names each typed test after its table row (Row::kName).
struct RowName {
    template <class Row>
    static std::string GetName(int) {
        return Row::kName;
    }
};

// Counts an X-macro table's rows: 0 TABLE(GASKET_TEST_COUNT).
#define GASKET_TEST_COUNT(A, B) +1
