// tests/mpi/amo_test.cpp -- §9.7 atomic memory operations, every routine for
// every type of its table, with exact results:
//   extended (Table 7):  fetch, set, swap, fetch_nbi, swap_nbi
//   standard (Table 6):  compare_swap, fetch_inc, inc, fetch_add, add,
//                        compare_swap_nbi, fetch_inc_nbi, fetch_add_nbi
//   bitwise  (Table 8):  fetch_and, and, fetch_or, or, fetch_xor, xor,
//                        fetch_and_nbi, fetch_or_nbi, fetch_xor_nbi
// each as shmem_TYPENAME_atomic_* and shmem_ctx_TYPENAME_atomic_* on
// SHMEM_CTX_DEFAULT, plus the deprecated names of Annex F (shmem_TYPENAME_
// fetch/set/swap for {float, double, int, long, long long}; cswap/finc/inc/
// fadd/add for {int, long, long long}); on a shmem_malloc'd array and on a
// global array; in a ring (PE i operates on PE (i+1)%n) and on itself.
// Fetching _nbi results are checked after shmem_quiet.  Also: many
// outstanding nbi fetches completed by one quiet, every PE fetch_inc'ing one
// counter (each type), and non-fetching AMOs ordered by shmem_fence (with
// puts, both ways) and completed by shmem_barrier_all.
//
// The per-type test lists come from gasket/shmem_type_tables.h: one "row"
// struct per table row binds the row's entry points, and a typed GoogleTest
// runs the same body for every row (as rma_typed_test.cpp does).
//
// Shape of a round (one API flavor, one target):
//   1. every PE fills its own array with init(owner = me, slot);
//   2. barrier; this PE applies the family's operations to `target`'s
//      array, each operation on its own slot (a slot is touched by one
//      operator only: the ring has one left neighbour), checking every
//      returned/fetched value against init(target, slot);
//   3. quiet, then reads every slot of `target` back with shmem_TYPENAME_g
//      and compares with the model (the quiet completed the non-fetching
//      AMOs);
//   4. barrier; the owner compares its own array with the model for the PE
//      that operated on it (left, or itself).
// Values use both halves of 8-byte types (a 4-byte AMO on an 8-byte object
// is caught), negative numbers for signed types, and a carry across bit 32
// (8-byte types) or a wrap at the top (unsigned 4-byte types).
#include <optional>
#include <set>

#include "shmem_test.hpp"

namespace {

using namespace gasket_test;

// ---- values ------------------------------------------------------------------

// The value the owner stores in `slot` before a round.  Different per owner
// and slot; exact in float.
template <class T>
T init_value(int owner, std::size_t slot) {
    if constexpr (std::is_floating_point_v<T>) {
        return T(owner * 32 + int(slot) + 1);
    } else {
        long long v = owner * 32 + static_cast<long long>(slot) + 1;
        if constexpr (sizeof(T) >= 8)
            v += static_cast<long long>(owner + 1) << 40;  // bits in the high half
        else
            v += static_cast<long long>(owner % 4 + 1) << 28;  // <= 2^30 + small: fits int32_t
        if constexpr (std::is_signed_v<T>)
            if (owner % 2) v = -v;
        return static_cast<T>(v);
    }
}

// An operand (set/swap value, addend) from operator `op_pe`: never equal to
// an init value; 8-byte types get bit 33 set.
template <class T>
T operand(int op_pe, std::size_t slot) {
    if constexpr (std::is_floating_point_v<T>) {
        return T(1000 + op_pe * 32 + int(slot));
    } else {
        long long v = 1000 + op_pe * 32 + static_cast<long long>(slot);
        if constexpr (sizeof(T) >= 8) v += 1LL << 33;
        return static_cast<T>(v);
    }
}

// a + b as the AMO computes it (two's complement wrap for integers).
template <class T>
T wrap_add(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    } else {
        return a + b;
    }
}

// Bit patterns for the bitwise family: both halves busy, different per
// owner/operator and slot.
template <class T>
T bit_init(int owner, std::size_t slot) {
    return static_cast<T>(0x9E3779B97F4A7C15ull * static_cast<unsigned long long>(owner * 16 + int(slot) + 1));
}
template <class T>
T bit_mask(int op_pe, std::size_t slot) {
    return static_cast<T>(0xD1B54A32D192ED03ull * static_cast<unsigned long long>(op_pe * 16 + int(slot) + 7));
}

// ---- the entry points of one row, one flavor (plain, ctx, deprecated) -----
// The _nbi members are null for the deprecated names (there are none).

template <class T>
struct ExtOps {
    const char* prefix;
    T (*fetch)(const T*, int);
    void (*set)(T*, T, int);
    T (*swap)(T*, T, int);
    void (*fetch_nbi)(T*, const T*, int);
    void (*swap_nbi)(T*, T*, T, int);
    void (*quiet)();
};

template <class T>
struct StdOps {
    const char* prefix;
    T (*compare_swap)(T*, T, T, int);
    T (*fetch_inc)(T*, int);
    void (*inc)(T*, int);
    T (*fetch_add)(T*, T, int);
    void (*add)(T*, T, int);
    void (*compare_swap_nbi)(T*, T*, T, T, int);
    void (*fetch_inc_nbi)(T*, T*, int);
    void (*fetch_add_nbi)(T*, T*, T, int);
    void (*quiet)();
};

template <class T>
struct BitOps {
    const char* prefix;
    T (*fetch_and)(T*, T, int);
    void (*and_)(T*, T, int);
    T (*fetch_or)(T*, T, int);
    void (*or_)(T*, T, int);
    T (*fetch_xor)(T*, T, int);
    void (*xor_)(T*, T, int);
    void (*fetch_and_nbi)(T*, T*, T, int);
    void (*fetch_or_nbi)(T*, T*, T, int);
    void (*fetch_xor_nbi)(T*, T*, T, int);
    void (*quiet)();
};

// ---- the three families: what a round does, and the model ----------------

#define GASKET_AMO_WHERE ops.prefix << " on PE " << target << " from PE " << me() << ", slot "

// Extended family slots:
//   0 fetch                    4 swap_nbi
//   1 set                      5 swap, swap again (returns the first value)
//   2 swap                     6 set, quiet, fetch (sees the set)
//   3 fetch_nbi                7 untouched
template <class Row>
struct ExtFamily {
    using T = typename Row::T;
    using Ops = ExtOps<T>;
    static constexpr std::size_t kSlots = 8;
    static T init(int owner, std::size_t s) { return init_value<T>(owner, s); }

    static void operate(const Ops& ops, T* sym, int target) {
        auto I = [&](std::size_t s) { return init(target, s); };
        auto O = [&](std::size_t s) { return operand<T>(me(), s); };
        EXPECT_EQ(ops.fetch(&sym[0], target), I(0)) << GASKET_AMO_WHERE << 0 << ": fetch";
        ops.set(&sym[1], O(1), target);
        EXPECT_EQ(ops.swap(&sym[2], O(2), target), I(2)) << GASKET_AMO_WHERE << 2 << ": swap";
        T f3 = sentinel<T>(), f4 = sentinel<T>();
        if (ops.fetch_nbi) ops.fetch_nbi(&f3, &sym[3], target);
        if (ops.swap_nbi) ops.swap_nbi(&f4, &sym[4], O(4), target);
        EXPECT_EQ(ops.swap(&sym[5], O(5), target), I(5)) << GASKET_AMO_WHERE << 5 << ": first swap";
        EXPECT_EQ(ops.swap(&sym[5], O(13), target), O(5)) << GASKET_AMO_WHERE << 5 << ": second swap";
        ops.set(&sym[6], O(6), target);
        ops.quiet();
        if (ops.fetch_nbi) EXPECT_EQ(f3, I(3)) << GASKET_AMO_WHERE << 3 << ": fetch_nbi result after quiet";
        if (ops.swap_nbi) EXPECT_EQ(f4, I(4)) << GASKET_AMO_WHERE << 4 << ": swap_nbi result after quiet";
        EXPECT_EQ(ops.fetch(&sym[6], target), O(6)) << GASKET_AMO_WHERE << 6 << ": fetch after set + quiet";
    }

    static std::vector<T> model(int owner, int from, const Ops& ops) {
        std::vector<T> e(kSlots);
        for (std::size_t s = 0; s < kSlots; ++s) e[s] = init(owner, s);
        e[1] = operand<T>(from, 1);
        e[2] = operand<T>(from, 2);
        if (ops.swap_nbi) e[4] = operand<T>(from, 4);
        e[5] = operand<T>(from, 13);
        e[6] = operand<T>(from, 6);
        return e;
    }
};

// Standard family slots:
//   0 compare_swap, cond != value: no change     6  compare_swap_nbi, succeeds
//   1 compare_swap, cond == value: swapped       7  compare_swap_nbi, fails
//   2 fetch_inc x3 (returns v, v+1, v+2)         8  fetch_inc_nbi
//   3 inc x2                                     9  fetch_add_nbi
//   4 fetch_add x2                               10 fetch_add with a carry out
//   5 add                                           of bit 31 / a wrap
//                                                11 fetch_add of (TYPE)-7
template <class Row>
struct StdFamily {
    using T = typename Row::T;
    using Ops = StdOps<T>;
    static constexpr std::size_t kSlots = 12;
    static T init(int owner, std::size_t s) {
        if (s == 10) {
            if constexpr (sizeof(T) >= 8)
                return static_cast<T>(0xFFFFFFFFull - static_cast<unsigned>(owner));  // + operand carries into bit 32
            else if constexpr (std::is_unsigned_v<T>)
                return static_cast<T>(~static_cast<T>(owner));  // + operand wraps past the top
        }
        return init_value<T>(owner, s);
    }
    static T one() { return T(1); }
    static T minus7() { return static_cast<T>(-7); }  // unsigned: 2^N - 7

    static void operate(const Ops& ops, T* sym, int target) {
        auto I = [&](std::size_t s) { return init(target, s); };
        auto O = [&](std::size_t s) { return operand<T>(me(), s); };
        EXPECT_EQ(ops.compare_swap(&sym[0], wrap_add(I(0), one()), O(0), target), I(0))
            << GASKET_AMO_WHERE << 0 << ": failing compare_swap";
        EXPECT_EQ(ops.compare_swap(&sym[1], I(1), O(1), target), I(1))
            << GASKET_AMO_WHERE << 1 << ": succeeding compare_swap";
        for (int k = 0; k < 3; ++k)
            EXPECT_EQ(ops.fetch_inc(&sym[2], target), wrap_add(I(2), T(k)))
                << GASKET_AMO_WHERE << 2 << ": fetch_inc #" << k;
        ops.inc(&sym[3], target);
        ops.inc(&sym[3], target);
        EXPECT_EQ(ops.fetch_add(&sym[4], O(4), target), I(4)) << GASKET_AMO_WHERE << 4 << ": first fetch_add";
        EXPECT_EQ(ops.fetch_add(&sym[4], O(14), target), wrap_add(I(4), O(4)))
            << GASKET_AMO_WHERE << 4 << ": second fetch_add";
        ops.add(&sym[5], O(5), target);
        T f6 = sentinel<T>(), f7 = sentinel<T>(), f8 = sentinel<T>(), f9 = sentinel<T>();
        if (ops.compare_swap_nbi) {
            ops.compare_swap_nbi(&f6, &sym[6], I(6), O(6), target);
            ops.compare_swap_nbi(&f7, &sym[7], wrap_add(I(7), one()), O(7), target);
            ops.fetch_inc_nbi(&f8, &sym[8], target);
            ops.fetch_add_nbi(&f9, &sym[9], O(9), target);
        }
        EXPECT_EQ(ops.fetch_add(&sym[10], O(10), target), I(10)) << GASKET_AMO_WHERE << 10 << ": carry/wrap fetch_add";
        EXPECT_EQ(ops.fetch_add(&sym[11], minus7(), target), I(11)) << GASKET_AMO_WHERE << 11 << ": fetch_add of -7";
        ops.quiet();
        if (ops.compare_swap_nbi) {
            EXPECT_EQ(f6, I(6)) << GASKET_AMO_WHERE << 6 << ": succeeding compare_swap_nbi result after quiet";
            EXPECT_EQ(f7, I(7)) << GASKET_AMO_WHERE << 7 << ": failing compare_swap_nbi result after quiet";
            EXPECT_EQ(f8, I(8)) << GASKET_AMO_WHERE << 8 << ": fetch_inc_nbi result after quiet";
            EXPECT_EQ(f9, I(9)) << GASKET_AMO_WHERE << 9 << ": fetch_add_nbi result after quiet";
        }
    }

    static std::vector<T> model(int owner, int from, const Ops& ops) {
        std::vector<T> e(kSlots);
        for (std::size_t s = 0; s < kSlots; ++s) e[s] = init(owner, s);
        auto O = [&](std::size_t s) { return operand<T>(from, s); };
        e[1] = O(1);
        e[2] = wrap_add(e[2], T(3));
        e[3] = wrap_add(e[3], T(2));
        e[4] = wrap_add(wrap_add(e[4], O(4)), O(14));
        e[5] = wrap_add(e[5], O(5));
        if (ops.compare_swap_nbi) {
            e[6] = O(6);
            e[8] = wrap_add(e[8], one());
            e[9] = wrap_add(e[9], O(9));
        }
        e[10] = wrap_add(e[10], O(10));
        e[11] = wrap_add(e[11], minus7());
        return e;
    }
};

// Bitwise family slots:
//   0 fetch_and   3 or         6 fetch_and_nbi
//   1 and         4 fetch_xor  7 fetch_or_nbi
//   2 fetch_or    5 xor        8 fetch_xor_nbi
//   9 fetch_xor then xor with the same mask: back to the initial value
template <class Row>
struct BitFamily {
    using T = typename Row::T;
    using Ops = BitOps<T>;
    static constexpr std::size_t kSlots = 10;
    static T init(int owner, std::size_t s) { return bit_init<T>(owner, s); }

    static void operate(const Ops& ops, T* sym, int target) {
        auto I = [&](std::size_t s) { return init(target, s); };
        auto M = [&](std::size_t s) { return bit_mask<T>(me(), s); };
        EXPECT_EQ(ops.fetch_and(&sym[0], M(0), target), I(0)) << GASKET_AMO_WHERE << 0 << ": fetch_and";
        ops.and_(&sym[1], M(1), target);
        EXPECT_EQ(ops.fetch_or(&sym[2], M(2), target), I(2)) << GASKET_AMO_WHERE << 2 << ": fetch_or";
        ops.or_(&sym[3], M(3), target);
        EXPECT_EQ(ops.fetch_xor(&sym[4], M(4), target), I(4)) << GASKET_AMO_WHERE << 4 << ": fetch_xor";
        ops.xor_(&sym[5], M(5), target);
        T f6 = T(0), f7 = T(0), f8 = T(0);
        ops.fetch_and_nbi(&f6, &sym[6], M(6), target);
        ops.fetch_or_nbi(&f7, &sym[7], M(7), target);
        ops.fetch_xor_nbi(&f8, &sym[8], M(8), target);
        EXPECT_EQ(ops.fetch_xor(&sym[9], M(9), target), I(9)) << GASKET_AMO_WHERE << 9 << ": fetch_xor";
        ops.xor_(&sym[9], M(9), target);
        ops.quiet();
        EXPECT_EQ(f6, I(6)) << GASKET_AMO_WHERE << 6 << ": fetch_and_nbi result after quiet";
        EXPECT_EQ(f7, I(7)) << GASKET_AMO_WHERE << 7 << ": fetch_or_nbi result after quiet";
        EXPECT_EQ(f8, I(8)) << GASKET_AMO_WHERE << 8 << ": fetch_xor_nbi result after quiet";
    }

    static std::vector<T> model(int owner, int from, const Ops&) {
        std::vector<T> e(kSlots);
        for (std::size_t s = 0; s < kSlots; ++s) e[s] = init(owner, s);
        auto M = [&](std::size_t s) { return bit_mask<T>(from, s); };
        e[0] = T(e[0] & M(0));
        e[1] = T(e[1] & M(1));
        e[2] = T(e[2] | M(2));
        e[3] = T(e[3] | M(3));
        e[4] = T(e[4] ^ M(4));
        e[5] = T(e[5] ^ M(5));
        e[6] = T(e[6] & M(6));
        e[7] = T(e[7] | M(7));
        e[8] = T(e[8] ^ M(8));
        return e;
    }
};

#undef GASKET_AMO_WHERE

// ---- the round, and the tests' bodies ----------------------------------------

template <class Row, class Fam>
void amo_round(const typename Fam::Ops& ops, typename Fam::T* sym, int target, int from) {
    using T = typename Fam::T;
    for (std::size_t s = 0; s < Fam::kSlots; ++s) sym[s] = Fam::init(me(), s);
    shmem_barrier_all();  // every array initialized before anyone operates

    Fam::operate(ops, sym, target);  // ends with ops.quiet()
    // After the quiet every AMO of this PE is complete at the target.
    const std::vector<T> at_target = Fam::model(target, me(), ops);
    std::vector<T> seen(Fam::kSlots);
    for (std::size_t s = 0; s < Fam::kSlots; ++s) seen[s] = Row::g(&sym[s], target);
    EXPECT_TRUE(ArraysMatch(seen.data(), at_target.data(), Fam::kSlots))
        << ops.prefix << ": PE " << target << "'s array read back with shmem_" << Row::kName
        << "_g after this PE's AMOs and quiet";

    shmem_barrier_all();  // every PE's AMOs complete
    const std::vector<T> want = Fam::model(me(), from, ops);
    EXPECT_TRUE(ArraysMatch(sym, want.data(), Fam::kSlots))
        << ops.prefix << ": this PE's array after the AMOs of PE " << from;
    shmem_barrier_all();  // nobody refills before every PE has checked
}

template <class Row, class Fam>
void run_flavors(const std::vector<typename Fam::Ops>& flavors, typename Fam::T* sym) {
    for (const auto& ops : flavors) {
        SCOPED_TRACE(ops.prefix);
        amo_round<Row, Fam>(ops, sym, right(), left());  // ring
        amo_round<Row, Fam>(ops, sym, me(), me());       // self
    }
}

template <class Row, class Fam>
void heap_test(const std::vector<typename Fam::Ops>& flavors) {
    using T = typename Fam::T;
    T* sym = static_cast<T*>(shmem_malloc(Fam::kSlots * sizeof(T)));
    if (!all_pes(sym != nullptr)) {
        ADD_FAILURE() << "shmem_malloc(" << Fam::kSlots * sizeof(T) << ") returned NULL on some PE";
        shmem_free(sym);
        return;
    }
    run_flavors<Row, Fam>(flavors, sym);
    shmem_free(sym);
}

template <class Row, class Fam>
void global_test(const std::vector<typename Fam::Ops>& flavors, typename Fam::T* global_buf) {
    EXPECT_EQ(shmem_addr_accessible(global_buf, right()), 1);
    run_flavors<Row, Fam>(flavors, global_buf);
}

// ---- rows --------------------------------------------------------------------

constexpr std::size_t kGlobalSlots = 16;  // >= every family's kSlots

#define GASKET_TEST_EXT_ROW(TYPE, NAME)                                                                              \
    struct Ext_##NAME {                                                                                              \
        using T = TYPE;                                                                                              \
        static constexpr const char* kName = #NAME;                                                                  \
        static TYPE global_buf[kGlobalSlots];                                                                        \
        static TYPE g(const TYPE* s, int pe) { return shmem_##NAME##_g(s, pe); }                                     \
        static ExtOps<TYPE> plain() {                                                                                \
            return {"shmem_" #NAME "_atomic_*",                                                                      \
                    shmem_##NAME##_atomic_fetch,                                                                     \
                    shmem_##NAME##_atomic_set,                                                                       \
                    shmem_##NAME##_atomic_swap,                                                                      \
                    shmem_##NAME##_atomic_fetch_nbi,                                                                 \
                    shmem_##NAME##_atomic_swap_nbi,                                                                  \
                    shmem_quiet};                                                                                    \
        }                                                                                                            \
        static ExtOps<TYPE> ctx() {                                                                                  \
            return {                                                                                                 \
                "shmem_ctx_" #NAME "_atomic_* (SHMEM_CTX_DEFAULT)",                                                  \
                [](const TYPE* s, int pe) { return shmem_ctx_##NAME##_atomic_fetch(SHMEM_CTX_DEFAULT, s, pe); },     \
                [](TYPE* d, TYPE v, int pe) { shmem_ctx_##NAME##_atomic_set(SHMEM_CTX_DEFAULT, d, v, pe); },         \
                [](TYPE* d, TYPE v, int pe) { return shmem_ctx_##NAME##_atomic_swap(SHMEM_CTX_DEFAULT, d, v, pe); }, \
                [](TYPE* f, const TYPE* s, int pe) {                                                                 \
                    shmem_ctx_##NAME##_atomic_fetch_nbi(SHMEM_CTX_DEFAULT, f, s, pe);                                \
                },                                                                                                   \
                [](TYPE* f, TYPE* d, TYPE v, int pe) {                                                               \
                    shmem_ctx_##NAME##_atomic_swap_nbi(SHMEM_CTX_DEFAULT, f, d, v, pe);                              \
                },                                                                                                   \
                [] { shmem_ctx_quiet(SHMEM_CTX_DEFAULT); }};                                                         \
        }                                                                                                            \
    };                                                                                                               \
    TYPE Ext_##NAME::global_buf[kGlobalSlots];
GASKET_EXT_AMO_TYPES(GASKET_TEST_EXT_ROW)
#undef GASKET_TEST_EXT_ROW

#define GASKET_TEST_STD_ROW(TYPE, NAME)                                                                            \
    struct Std_##NAME {                                                                                            \
        using T = TYPE;                                                                                            \
        static constexpr const char* kName = #NAME;                                                                \
        static TYPE global_buf[kGlobalSlots];                                                                      \
        static TYPE counter; /* AllPesFetchInc: the one on PE 0 */                                                 \
        static TYPE g(const TYPE* s, int pe) { return shmem_##NAME##_g(s, pe); }                                   \
        static StdOps<TYPE> plain() {                                                                              \
            return {"shmem_" #NAME "_atomic_*",                                                                    \
                    shmem_##NAME##_atomic_compare_swap,                                                            \
                    shmem_##NAME##_atomic_fetch_inc,                                                               \
                    shmem_##NAME##_atomic_inc,                                                                     \
                    shmem_##NAME##_atomic_fetch_add,                                                               \
                    shmem_##NAME##_atomic_add,                                                                     \
                    shmem_##NAME##_atomic_compare_swap_nbi,                                                        \
                    shmem_##NAME##_atomic_fetch_inc_nbi,                                                           \
                    shmem_##NAME##_atomic_fetch_add_nbi,                                                           \
                    shmem_quiet};                                                                                  \
        }                                                                                                          \
        static StdOps<TYPE> ctx() {                                                                                \
            return {"shmem_ctx_" #NAME "_atomic_* (SHMEM_CTX_DEFAULT)",                                            \
                    [](TYPE* d, TYPE c, TYPE v, int pe) {                                                          \
                        return shmem_ctx_##NAME##_atomic_compare_swap(SHMEM_CTX_DEFAULT, d, c, v, pe);             \
                    },                                                                                             \
                    [](TYPE* d, int pe) { return shmem_ctx_##NAME##_atomic_fetch_inc(SHMEM_CTX_DEFAULT, d, pe); }, \
                    [](TYPE* d, int pe) { shmem_ctx_##NAME##_atomic_inc(SHMEM_CTX_DEFAULT, d, pe); },              \
                    [](TYPE* d, TYPE v, int pe) {                                                                  \
                        return shmem_ctx_##NAME##_atomic_fetch_add(SHMEM_CTX_DEFAULT, d, v, pe);                   \
                    },                                                                                             \
                    [](TYPE* d, TYPE v, int pe) { shmem_ctx_##NAME##_atomic_add(SHMEM_CTX_DEFAULT, d, v, pe); },   \
                    [](TYPE* f, TYPE* d, TYPE c, TYPE v, int pe) {                                                 \
                        shmem_ctx_##NAME##_atomic_compare_swap_nbi(SHMEM_CTX_DEFAULT, f, d, c, v, pe);             \
                    },                                                                                             \
                    [](TYPE* f, TYPE* d, int pe) {                                                                 \
                        shmem_ctx_##NAME##_atomic_fetch_inc_nbi(SHMEM_CTX_DEFAULT, f, d, pe);                      \
                    },                                                                                             \
                    [](TYPE* f, TYPE* d, TYPE v, int pe) {                                                         \
                        shmem_ctx_##NAME##_atomic_fetch_add_nbi(SHMEM_CTX_DEFAULT, f, d, v, pe);                   \
                    },                                                                                             \
                    [] { shmem_ctx_quiet(SHMEM_CTX_DEFAULT); }};                                                   \
        }                                                                                                          \
    };                                                                                                             \
    TYPE Std_##NAME::global_buf[kGlobalSlots];                                                                     \
    TYPE Std_##NAME::counter;
GASKET_STD_AMO_TYPES(GASKET_TEST_STD_ROW)
#undef GASKET_TEST_STD_ROW

#define GASKET_TEST_BIT_ROW(TYPE, NAME)                                                                          \
    struct Bit_##NAME {                                                                                          \
        using T = TYPE;                                                                                          \
        static constexpr const char* kName = #NAME;                                                              \
        static TYPE global_buf[kGlobalSlots];                                                                    \
        static TYPE g(const TYPE* s, int pe) { return shmem_##NAME##_g(s, pe); }                                 \
        static BitOps<TYPE> plain() {                                                                            \
            return {"shmem_" #NAME "_atomic_*",                                                                  \
                    shmem_##NAME##_atomic_fetch_and,                                                             \
                    shmem_##NAME##_atomic_and,                                                                   \
                    shmem_##NAME##_atomic_fetch_or,                                                              \
                    shmem_##NAME##_atomic_or,                                                                    \
                    shmem_##NAME##_atomic_fetch_xor,                                                             \
                    shmem_##NAME##_atomic_xor,                                                                   \
                    shmem_##NAME##_atomic_fetch_and_nbi,                                                         \
                    shmem_##NAME##_atomic_fetch_or_nbi,                                                          \
                    shmem_##NAME##_atomic_fetch_xor_nbi,                                                         \
                    shmem_quiet};                                                                                \
        }                                                                                                        \
        static BitOps<TYPE> ctx() {                                                                              \
            return {"shmem_ctx_" #NAME "_atomic_* (SHMEM_CTX_DEFAULT)",                                          \
                    [](TYPE* d, TYPE v, int pe) {                                                                \
                        return shmem_ctx_##NAME##_atomic_fetch_and(SHMEM_CTX_DEFAULT, d, v, pe);                 \
                    },                                                                                           \
                    [](TYPE* d, TYPE v, int pe) { shmem_ctx_##NAME##_atomic_and(SHMEM_CTX_DEFAULT, d, v, pe); }, \
                    [](TYPE* d, TYPE v, int pe) {                                                                \
                        return shmem_ctx_##NAME##_atomic_fetch_or(SHMEM_CTX_DEFAULT, d, v, pe);                  \
                    },                                                                                           \
                    [](TYPE* d, TYPE v, int pe) { shmem_ctx_##NAME##_atomic_or(SHMEM_CTX_DEFAULT, d, v, pe); },  \
                    [](TYPE* d, TYPE v, int pe) {                                                                \
                        return shmem_ctx_##NAME##_atomic_fetch_xor(SHMEM_CTX_DEFAULT, d, v, pe);                 \
                    },                                                                                           \
                    [](TYPE* d, TYPE v, int pe) { shmem_ctx_##NAME##_atomic_xor(SHMEM_CTX_DEFAULT, d, v, pe); }, \
                    [](TYPE* f, TYPE* d, TYPE v, int pe) {                                                       \
                        shmem_ctx_##NAME##_atomic_fetch_and_nbi(SHMEM_CTX_DEFAULT, f, d, v, pe);                 \
                    },                                                                                           \
                    [](TYPE* f, TYPE* d, TYPE v, int pe) {                                                       \
                        shmem_ctx_##NAME##_atomic_fetch_or_nbi(SHMEM_CTX_DEFAULT, f, d, v, pe);                  \
                    },                                                                                           \
                    [](TYPE* f, TYPE* d, TYPE v, int pe) {                                                       \
                        shmem_ctx_##NAME##_atomic_fetch_xor_nbi(SHMEM_CTX_DEFAULT, f, d, v, pe);                 \
                    },                                                                                           \
                    [] { shmem_ctx_quiet(SHMEM_CTX_DEFAULT); }};                                                 \
        }                                                                                                        \
    };                                                                                                           \
    TYPE Bit_##NAME::global_buf[kGlobalSlots];
GASKET_BITWISE_AMO_TYPES(GASKET_TEST_BIT_ROW)
#undef GASKET_TEST_BIT_ROW

// The deprecated names (Annex F), for the rows that have them.
template <class Row>
struct Deprecated {
    static constexpr bool kHas = false;
};
#define GASKET_TEST_OLD_EXT(TYPE, NAME)                            \
    template <>                                                    \
    struct Deprecated<Ext_##NAME> {                                \
        static constexpr bool kHas = true;                         \
        static ExtOps<TYPE> ops() {                                \
            return {"shmem_" #NAME "_fetch/set/swap (deprecated)", \
                    shmem_##NAME##_fetch,                          \
                    shmem_##NAME##_set,                            \
                    shmem_##NAME##_swap,                           \
                    nullptr,                                       \
                    nullptr,                                       \
                    shmem_quiet};                                  \
        }                                                          \
    };
GASKET_DEPRECATED_EXT_AMO_TYPES(GASKET_TEST_OLD_EXT)
#undef GASKET_TEST_OLD_EXT
#define GASKET_TEST_OLD_STD(TYPE, NAME)                                     \
    template <>                                                             \
    struct Deprecated<Std_##NAME> {                                         \
        static constexpr bool kHas = true;                                  \
        static StdOps<TYPE> ops() {                                         \
            return {"shmem_" #NAME "_cswap/finc/inc/fadd/add (deprecated)", \
                    shmem_##NAME##_cswap,                                   \
                    shmem_##NAME##_finc,                                    \
                    shmem_##NAME##_inc,                                     \
                    shmem_##NAME##_fadd,                                    \
                    shmem_##NAME##_add,                                     \
                    nullptr,                                                \
                    nullptr,                                                \
                    nullptr,                                                \
                    shmem_quiet};                                           \
        }                                                                   \
    };
GASKET_DEPRECATED_STD_AMO_TYPES(GASKET_TEST_OLD_STD)
#undef GASKET_TEST_OLD_STD

template <class Row>
auto flavors() {
    std::vector<decltype(Row::plain())> f{Row::plain(), Row::ctx()};
    if constexpr (Deprecated<Row>::kHas) f.push_back(Deprecated<Row>::ops());
    return f;
}

#define GASKET_TEST_ROW_NAME(TYPE, NAME) , Ext_##NAME
using ExtRows = DropFirst<void GASKET_EXT_AMO_TYPES(GASKET_TEST_ROW_NAME)>::type;
#undef GASKET_TEST_ROW_NAME
#define GASKET_TEST_ROW_NAME(TYPE, NAME) , Std_##NAME
using StdRows = DropFirst<void GASKET_STD_AMO_TYPES(GASKET_TEST_ROW_NAME)>::type;
#undef GASKET_TEST_ROW_NAME
#define GASKET_TEST_ROW_NAME(TYPE, NAME) , Bit_##NAME
using BitRows = DropFirst<void GASKET_BITWISE_AMO_TYPES(GASKET_TEST_ROW_NAME)>::type;
#undef GASKET_TEST_ROW_NAME

static_assert(0 GASKET_EXT_AMO_TYPES(GASKET_TEST_COUNT) == 14, "Table 7 has 14 rows");
static_assert(0 GASKET_STD_AMO_TYPES(GASKET_TEST_COUNT) == 12, "Table 6 has 12 rows");
static_assert(0 GASKET_BITWISE_AMO_TYPES(GASKET_TEST_COUNT) == 7, "Table 8 has 7 rows");
// The deprecated names exist for every row, as in other implementations
// (1.6 lists 5 and 3 types).
static_assert(0 GASKET_DEPRECATED_EXT_AMO_TYPES(GASKET_TEST_COUNT) == 14, "fetch/set/swap: Table 7");
static_assert(0 GASKET_DEPRECATED_STD_AMO_TYPES(GASKET_TEST_COUNT) == 12, "cswap/finc/inc/fadd/add: Table 6");

// ---- tests -------------------------------------------------------------------

template <class Row>
class AmoExt : public ::testing::Test {};
TYPED_TEST_SUITE(AmoExt, ExtRows, RowName);
TYPED_TEST(AmoExt, HeapRingAndSelf) { heap_test<TypeParam, ExtFamily<TypeParam>>(flavors<TypeParam>()); }
TYPED_TEST(AmoExt, GlobalRingAndSelf) {
    global_test<TypeParam, ExtFamily<TypeParam>>(flavors<TypeParam>(), TypeParam::global_buf);
}

template <class Row>
class AmoStd : public ::testing::Test {};
TYPED_TEST_SUITE(AmoStd, StdRows, RowName);
TYPED_TEST(AmoStd, HeapRingAndSelf) { heap_test<TypeParam, StdFamily<TypeParam>>(flavors<TypeParam>()); }
TYPED_TEST(AmoStd, GlobalRingAndSelf) {
    global_test<TypeParam, StdFamily<TypeParam>>(flavors<TypeParam>(), TypeParam::global_buf);
}

// Every PE fetch_incs one counter on PE 0 (global) kPerPe times, half plain,
// half ctx: the values returned over all PEs are exactly 0 .. n*kPerPe-1,
// each once, and the counter ends at n*kPerPe.
TYPED_TEST(AmoStd, AllPesFetchIncOneCounter) {
    using T = typename TypeParam::T;
    constexpr int kPerPe = 200;
    const auto plain = TypeParam::plain(), ctx = TypeParam::ctx();
    TypeParam::counter = T(0);
    shmem_barrier_all();
    std::vector<long long> mine;
    for (int k = 0; k < kPerPe; ++k)
        mine.push_back(static_cast<long long>((k % 2 ? ctx : plain).fetch_inc(&TypeParam::counter, 0)));
    shmem_barrier_all();
    const int n = npes();
    std::vector<long long> all(std::size_t(n) * kPerPe);
    MPI_Allgather(mine.data(), kPerPe, MPI_LONG_LONG, all.data(), kPerPe, MPI_LONG_LONG, MPI_COMM_WORLD);
    std::sort(all.begin(), all.end());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < all.size(); ++i)
        if (all[i] != static_cast<long long>(i)) ++bad;
    EXPECT_EQ(bad, 0u) << "the " << all.size() << " values returned by fetch_inc over all PEs are not 0.."
                       << all.size() - 1 << " each once (first sorted values: " << all[0] << ", "
                       << (all.size() > 1 ? all[1] : -1) << ")";
    if (me() == 0) EXPECT_EQ(TypeParam::counter, T(n * kPerPe)) << "the counter on PE 0";
    shmem_barrier_all();
}

template <class Row>
class AmoBitwise : public ::testing::Test {};
TYPED_TEST_SUITE(AmoBitwise, BitRows, RowName);
TYPED_TEST(AmoBitwise, HeapRingAndSelf) { heap_test<TypeParam, BitFamily<TypeParam>>(flavors<TypeParam>()); }
TYPED_TEST(AmoBitwise, GlobalRingAndSelf) {
    global_test<TypeParam, BitFamily<TypeParam>>(flavors<TypeParam>(), TypeParam::global_buf);
}

// Non-fetching AMOs are ordered by shmem_fence like puts, and completed by
// shmem_barrier_all (§9.7, Table 14).  With the fast path off a put and an
// AMO may travel by different means (MPI RMA, Active Message), so the fence
// must order across both:
//  1. put 1 MiB, fence, atomic_set a flag: once the flag is seen, the data
//     is there;
//  2. kAdds atomic_add (plain and ctx), fence, put a flag: once the flag is
//     seen, every add is applied;
//  3. kAdds atomic_inc, then shmem_barrier_all with no quiet: after the
//     barrier every increment is applied.
TEST(AmoOrdering, FenceAndBarrierOrderNonFetchingAmos) {
    constexpr std::size_t kLongs = (std::size_t(1) << 20) / sizeof(long);
    constexpr int kAdds = 1000;
    long* data = static_cast<long*>(shmem_malloc(kLongs * sizeof(long)));
    long* vars = static_cast<long*>(shmem_malloc(4 * sizeof(long)));  // flag1, counter, flag2, counter2
    if (!all_pes(data != nullptr && vars != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(vars);
        shmem_free(data);
        return;
    }
    std::fill(data, data + kLongs, -1L);
    std::fill(vars, vars + 4, 0L);
    std::vector<long> src(kLongs);
    for (std::size_t i = 0; i < kLongs; ++i) src[i] = long(i) * 7 + me();
    shmem_barrier_all();

    shmem_long_put(data, src.data(), kLongs, right());
    shmem_fence();
    shmem_long_atomic_set(&vars[0], 1, right());
    for (int k = 0; k < kAdds; ++k) {
        if (k % 2)
            shmem_ctx_long_atomic_add(SHMEM_CTX_DEFAULT, &vars[1], 3, right());
        else
            shmem_long_atomic_add(&vars[1], 3, right());
    }
    shmem_fence();
    shmem_long_p(&vars[2], 1, right());
    for (int k = 0; k < kAdds; ++k) shmem_long_atomic_inc(&vars[3], right());

    shmem_long_wait_until(&vars[0], SHMEM_CMP_EQ, 1);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < kLongs; ++i)
        if (data[i] != long(i) * 7 + left()) ++bad;
    EXPECT_EQ(bad, 0u) << "longs of PE " << left() << "'s put missing when its fenced atomic_set arrived";
    shmem_long_wait_until(&vars[2], SHMEM_CMP_EQ, 1);
    EXPECT_EQ(vars[1], 3L * kAdds) << "atomic_adds of PE " << left() << " missing when its fenced put arrived";
    shmem_barrier_all();
    EXPECT_EQ(vars[3], long(kAdds)) << "atomic_incs of PE " << left() << " missing after shmem_barrier_all";
    shmem_barrier_all();
    shmem_free(vars);
    shmem_free(data);
}

// Many fetching nbi AMOs outstanding at once, completed by one quiet: this
// PE issues kN fetch_inc_nbi (plain and ctx) and kN fetch_add_nbi of 2^20
// on one long on the target, each fetching into its own local slot, then
// one shmem_quiet.  Whatever order the target applies them in, each
// fetched value is init + a + (b << 20) with a, b <= kN (a increments and
// b adds before it), all 2*kN values are distinct (each operation saw a
// different state), and the long ends at init + kN + (kN << 20).
TEST(AmoNbi, ManyOutstandingFetchesCompleteAtQuiet) {
    constexpr int kN = 500;
    long* var = static_cast<long*>(shmem_malloc(sizeof(long)));
    if (!all_pes(var != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(var);
        return;
    }
    for (const int target : {right(), me()}) {
        *var = 1000000L * (me() + 1);  // this PE's long, as its owner
        const long init = 1000000L * (target + 1);
        shmem_barrier_all();
        std::vector<long> inc_f(kN, -1), add_f(kN, -1);
        for (int k = 0; k < kN; ++k) {
            if (k % 2)
                shmem_ctx_long_atomic_fetch_inc_nbi(SHMEM_CTX_DEFAULT, &inc_f[k], var, target);
            else
                shmem_long_atomic_fetch_inc_nbi(&inc_f[k], var, target);
            shmem_long_atomic_fetch_add_nbi(&add_f[k], var, 1L << 20, target);
        }
        shmem_quiet();
        std::set<long> seen;
        std::size_t malformed = 0;
        for (const auto* v : {&inc_f, &add_f})
            for (long x : *v) {
                seen.insert(x);
                const long d = x - init;
                if (d < 0 || (d & ((1L << 20) - 1)) > kN || (d >> 20) > kN) ++malformed;
            }
        EXPECT_EQ(seen.size(), std::size_t(2 * kN)) << "fetched values not all distinct (target PE " << target << ")";
        EXPECT_EQ(malformed, 0u) << "fetched values not of the form init + a + (b << 20) (target PE " << target << ")";
        EXPECT_EQ(shmem_long_atomic_fetch(var, target), init + kN + (long(kN) << 20)) << "target PE " << target;
        shmem_barrier_all();
    }
    shmem_free(var);
}

}  // namespace
