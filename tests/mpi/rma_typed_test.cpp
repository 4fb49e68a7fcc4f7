// tests/mpi/rma_typed_test.cpp -- §9.6 RMA for every type of the Standard
// RMA table (Table 5) and every sized form (8..128): put, get, p, g, iput,
// iget, ibput, ibget, put_nbi+quiet, get_nbi+quiet, each also as shmem_ctx_
// on SHMEM_CTX_DEFAULT; to a shmem_malloc'd buffer and to a global array;
// in a ring (PE i writes to PE (i+1)%n) and to itself.
//
// The per-type test list is generated from gasket/shmem_type_tables.h: one
// "row" struct per table row binds the row's entry points, and a typed
// GoogleTest runs the same body for every row.
#include <tuple>

#include "shmem_test.hpp"

namespace {

using namespace gasket_test;

constexpr std::size_t kElems = 256;  // symmetric buffer, in elements
constexpr std::size_t kSrc = 64;     // local source array

// The entry points of one row, plain or ctx.  p/g are null for the sized
// forms (the spec has none).
template <class E>
struct Ops {
    const char* prefix;
    void (*put)(E*, const E*, std::size_t, int);
    void (*get)(E*, const E*, std::size_t, int);
    void (*p)(E*, E, int);
    E (*g)(const E*, int);
    void (*iput)(E*, const E*, std::ptrdiff_t, std::ptrdiff_t, std::size_t, int);
    void (*iget)(E*, const E*, std::ptrdiff_t, std::ptrdiff_t, std::size_t, int);
    void (*ibput)(E*, const E*, std::ptrdiff_t, std::ptrdiff_t, std::size_t, std::size_t, int);
    void (*ibget)(E*, const E*, std::ptrdiff_t, std::ptrdiff_t, std::size_t, std::size_t, int);
    void (*put_nbi)(E*, const E*, std::size_t, int);
    void (*get_nbi)(E*, const E*, std::size_t, int);
    void (*quiet)();
};

// ---- the shape of each round, and its reference model ---------------------
//
// Put round, on the target's symmetric buffer (gaps between regions stay
// sentinel, so an operation that moves too much is caught):
//   [0,32)    put      of src[0..32)
//   [36,44)   p        of value(pe, 100+k)
//   48+3j     iput     dst=3 sst=2 nelems=13: src[2j]
//   88+7b+k   ibput    dst=7 sst=4 bsize=3 nblocks=8: src[4b+k]
//   [144,176) put_nbi  of src2[0..32) = value(pe, 300+i)
//   [180,190) zero-length put/iput/ibput/put_nbi: untouched
// Get round, into a local array, from the source PE's buffer holding
// value(pe, i) at index i:
//   loc[0,32)       get      sym[0..32)
//   loc[36+k]       g        sym[36+3k]
//   loc[48+2j]      iget     dst=2 sst=3 nelems=13: sym[48+3j]
//   loc[80+5b+k]    ibget    dst=5 sst=7 bsize=3 nblocks=8: sym[88+7b+k]
//   loc[120,152)    get_nbi  sym[144..176)
//   loc[160,170)    zero-length get/iget/ibget/get_nbi: untouched

template <class E>
std::vector<E> expected_after_puts(int pe, bool with_p) {
    using V = Values<E>;
    std::vector<E> e(kElems, V::none());
    for (std::size_t i = 0; i < 32; ++i) e[i] = V::make(pe, i);
    if (with_p)
        for (std::size_t k = 0; k < 8; ++k) e[36 + k] = V::make(pe, 100 + k);
    for (std::size_t j = 0; j < 13; ++j) e[48 + 3 * j] = V::make(pe, 2 * j);
    for (std::size_t b = 0; b < 8; ++b)
        for (std::size_t k = 0; k < 3; ++k) e[88 + 7 * b + k] = V::make(pe, 4 * b + k);
    for (std::size_t i = 0; i < 32; ++i) e[144 + i] = V::make(pe, 300 + i);
    return e;
}

template <class E>
std::vector<E> expected_after_gets(int pe, bool with_g) {
    using V = Values<E>;
    std::vector<E> e(kElems, V::none());
    for (std::size_t i = 0; i < 32; ++i) e[i] = V::make(pe, i);
    if (with_g)
        for (std::size_t k = 0; k < 8; ++k) e[36 + k] = V::make(pe, 36 + 3 * k);
    for (std::size_t j = 0; j < 13; ++j) e[48 + 2 * j] = V::make(pe, 48 + 3 * j);
    for (std::size_t b = 0; b < 8; ++b)
        for (std::size_t k = 0; k < 3; ++k) e[80 + 5 * b + k] = V::make(pe, 88 + 7 * b + k);
    for (std::size_t i = 0; i < 32; ++i) e[120 + i] = V::make(pe, 144 + i);
    return e;
}

// One put round: this PE writes to `to`; its buffer receives from `from`.
template <class E>
void put_round(const Ops<E>& ops, E* sym, int to, int from) {
    using V = Values<E>;
    std::fill(sym, sym + kElems, V::none());
    shmem_barrier_all();  // every buffer reset before anyone writes

    E src[kSrc], src2[32];
    for (std::size_t i = 0; i < kSrc; ++i) src[i] = V::make(me(), i);
    for (std::size_t i = 0; i < 32; ++i) src2[i] = V::make(me(), 300 + i);

    ops.put(sym, src, 32, to);
    if (ops.p)
        for (std::size_t k = 0; k < 8; ++k) ops.p(&sym[36 + k], V::make(me(), 100 + k), to);
    ops.iput(&sym[48], src, 3, 2, 13, to);
    ops.ibput(&sym[88], src, 7, 4, 3, 8, to);
    // Blocking puts return when the source may be reused.
    std::fill(src, src + kSrc, V::none());
    ops.put_nbi(&sym[144], src2, 32, to);
    // Zero-length transfers: no data moves.
    ops.put(&sym[180], src, 0, to);
    ops.iput(&sym[181], src, 2, 1, 0, to);
    ops.ibput(&sym[183], src, 2, 1, 3, 0, to);
    ops.ibput(&sym[185], src, 2, 1, 0, 4, to);
    ops.put_nbi(&sym[189], src, 0, to);
    ops.quiet();
    std::fill(src2, src2 + 32, V::none());  // nbi source reusable after quiet

    shmem_barrier_all();  // all puts complete and visible
    const std::vector<E> want = expected_after_puts<E>(from, ops.p != nullptr);
    EXPECT_TRUE(ArraysMatch(sym, want.data(), kElems))
        << ops.prefix << " put/p/iput/ibput/put_nbi from PE " << from << " to PE " << me();
}

// One get round: this PE reads from `from`.
template <class E>
void get_round(const Ops<E>& ops, E* sym, int from) {
    using V = Values<E>;
    for (std::size_t i = 0; i < kElems; ++i) sym[i] = V::make(me(), i);
    shmem_barrier_all();  // every buffer filled before anyone reads

    std::vector<E> loc(kElems, V::none());
    ops.get(loc.data(), sym, 32, from);
    if (ops.g)
        for (std::size_t k = 0; k < 8; ++k) loc[36 + k] = ops.g(&sym[36 + 3 * k], from);
    ops.iget(&loc[48], &sym[48], 2, 3, 13, from);
    ops.ibget(&loc[80], &sym[88], 5, 7, 3, 8, from);
    ops.get(&loc[160], sym, 0, from);
    ops.iget(&loc[161], sym, 1, 2, 0, from);
    ops.ibget(&loc[163], sym, 1, 2, 3, 0, from);
    ops.ibget(&loc[165], sym, 1, 2, 0, 4, from);
    ops.get_nbi(&loc[169], sym, 0, from);
    // Blocking gets have their data at return.
    {
        std::vector<E> want = expected_after_gets<E>(from, ops.g != nullptr);
        std::fill(want.begin() + 120, want.begin() + 152, V::none());
        std::vector<E> now(loc.begin(), loc.begin() + 120);
        EXPECT_TRUE(ArraysMatch(now.data(), want.data(), 120))
            << ops.prefix << " get/g/iget/ibget from PE " << from << " on PE " << me();
    }
    ops.get_nbi(&loc[120], &sym[144], 32, from);
    ops.quiet();
    const std::vector<E> want = expected_after_gets<E>(from, ops.g != nullptr);
    EXPECT_TRUE(ArraysMatch(loc.data(), want.data(), kElems))
        << ops.prefix << " get/g/iget/ibget/get_nbi+quiet from PE " << from << " on PE " << me();

    shmem_barrier_all();  // nobody still reading before the buffers change
}

// Both rounds, plain and ctx, in the ring and to self, on `sym`.
template <class Row>
void run_all(typename Row::E* sym) {
    for (const Ops<typename Row::E>& ops : {Row::plain(), Row::ctx()}) {
        SCOPED_TRACE(ops.prefix);
        put_round(ops, sym, right(), left());
        get_round(ops, sym, right());
        put_round(ops, sym, me(), me());  // self
        get_round(ops, sym, me());
    }
}

template <class Row>
void heap_test() {
    using E = typename Row::E;
    E* sym = static_cast<E*>(shmem_malloc(kElems * sizeof(E)));
    if (!all_pes(sym != nullptr)) {  // every PE leaves together
        ADD_FAILURE() << "shmem_malloc(" << kElems * sizeof(E) << ") returned NULL on some PE";
        shmem_free(sym);
        return;
    }
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(sym) % alignof(E), 0u);
    run_all<Row>(sym);
    shmem_free(sym);
}

template <class Row>
void global_test() {
    EXPECT_EQ(shmem_addr_accessible(Row::global_buf, right()), 1);
    run_all<Row>(Row::global_buf);
}

// ---- rows of Table 5 --------------------------------------------------------

#define GASKET_TEST_RMA_ROW(TYPE, NAME)                                                                                \
    struct Row_##NAME {                                                                                                \
        using E = TYPE;                                                                                                \
        static constexpr const char* kName = #NAME;                                                                    \
        static TYPE global_buf[kElems];                                                                                \
        static Ops<TYPE> plain() {                                                                                     \
            return {"shmem_" #NAME "_*",  shmem_##NAME##_put,     shmem_##NAME##_get,     shmem_##NAME##_p,            \
                    shmem_##NAME##_g,     shmem_##NAME##_iput,    shmem_##NAME##_iget,    shmem_##NAME##_ibput,        \
                    shmem_##NAME##_ibget, shmem_##NAME##_put_nbi, shmem_##NAME##_get_nbi, shmem_quiet};                \
        }                                                                                                              \
        static Ops<TYPE> ctx() {                                                                                       \
            return {"shmem_ctx_" #NAME "_* (SHMEM_CTX_DEFAULT)",                                                       \
                    [](TYPE* d, const TYPE* s, std::size_t n, int pe) {                                                \
                        shmem_ctx_##NAME##_put(SHMEM_CTX_DEFAULT, d, s, n, pe);                                        \
                    },                                                                                                 \
                    [](TYPE* d, const TYPE* s, std::size_t n, int pe) {                                                \
                        shmem_ctx_##NAME##_get(SHMEM_CTX_DEFAULT, d, s, n, pe);                                        \
                    },                                                                                                 \
                    [](TYPE* d, TYPE v, int pe) { shmem_ctx_##NAME##_p(SHMEM_CTX_DEFAULT, d, v, pe); },                \
                    [](const TYPE* s, int pe) { return shmem_ctx_##NAME##_g(SHMEM_CTX_DEFAULT, s, pe); },              \
                    [](TYPE* d, const TYPE* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t n, int pe) {        \
                        shmem_ctx_##NAME##_iput(SHMEM_CTX_DEFAULT, d, s, dst, sst, n, pe);                             \
                    },                                                                                                 \
                    [](TYPE* d, const TYPE* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t n, int pe) {        \
                        shmem_ctx_##NAME##_iget(SHMEM_CTX_DEFAULT, d, s, dst, sst, n, pe);                             \
                    },                                                                                                 \
                    [](TYPE* d, const TYPE* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t bs, std::size_t nb, \
                       int pe) { shmem_ctx_##NAME##_ibput(SHMEM_CTX_DEFAULT, d, s, dst, sst, bs, nb, pe); },           \
                    [](TYPE* d, const TYPE* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t bs, std::size_t nb, \
                       int pe) { shmem_ctx_##NAME##_ibget(SHMEM_CTX_DEFAULT, d, s, dst, sst, bs, nb, pe); },           \
                    [](TYPE* d, const TYPE* s, std::size_t n, int pe) {                                                \
                        shmem_ctx_##NAME##_put_nbi(SHMEM_CTX_DEFAULT, d, s, n, pe);                                    \
                    },                                                                                                 \
                    [](TYPE* d, const TYPE* s, std::size_t n, int pe) {                                                \
                        shmem_ctx_##NAME##_get_nbi(SHMEM_CTX_DEFAULT, d, s, n, pe);                                    \
                    },                                                                                                 \
                    [] { shmem_ctx_quiet(SHMEM_CTX_DEFAULT); }};                                                       \
        }                                                                                                              \
    };                                                                                                                 \
    TYPE Row_##NAME::global_buf[kElems];
GASKET_STD_RMA_TYPES(GASKET_TEST_RMA_ROW)
#undef GASKET_TEST_RMA_ROW

// ---- rows of the sized forms (element = SIZE/8 opaque bytes) ---------------

#define GASKET_TEST_SIZED_ROW(BITS, BYTES)                                                                             \
    struct Row_##BITS {                                                                                                \
        using E = Blob<BYTES>;                                                                                         \
        static constexpr const char* kName = "bits" #BITS;                                                             \
        static E global_buf[kElems];                                                                                   \
        static Ops<E> plain() {                                                                                        \
            return {"shmem_*" #BITS,                                                                                   \
                    [](E* d, const E* s, std::size_t n, int pe) { shmem_put##BITS(d, s, n, pe); },                     \
                    [](E* d, const E* s, std::size_t n, int pe) { shmem_get##BITS(d, s, n, pe); },                     \
                    nullptr,                                                                                           \
                    nullptr,                                                                                           \
                    [](E* d, const E* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t n, int pe) {              \
                        shmem_iput##BITS(d, s, dst, sst, n, pe);                                                       \
                    },                                                                                                 \
                    [](E* d, const E* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t n, int pe) {              \
                        shmem_iget##BITS(d, s, dst, sst, n, pe);                                                       \
                    },                                                                                                 \
                    [](E* d, const E* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t bs, std::size_t nb,       \
                       int pe) { shmem_ibput##BITS(d, s, dst, sst, bs, nb, pe); },                                     \
                    [](E* d, const E* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t bs, std::size_t nb,       \
                       int pe) { shmem_ibget##BITS(d, s, dst, sst, bs, nb, pe); },                                     \
                    [](E* d, const E* s, std::size_t n, int pe) { shmem_put##BITS##_nbi(d, s, n, pe); },               \
                    [](E* d, const E* s, std::size_t n, int pe) { shmem_get##BITS##_nbi(d, s, n, pe); },               \
                    shmem_quiet};                                                                                      \
        }                                                                                                              \
        static Ops<E> ctx() {                                                                                          \
            return {                                                                                                   \
                "shmem_ctx_*" #BITS " (SHMEM_CTX_DEFAULT)",                                                            \
                [](E* d, const E* s, std::size_t n, int pe) { shmem_ctx_put##BITS(SHMEM_CTX_DEFAULT, d, s, n, pe); },  \
                [](E* d, const E* s, std::size_t n, int pe) { shmem_ctx_get##BITS(SHMEM_CTX_DEFAULT, d, s, n, pe); },  \
                nullptr,                                                                                               \
                nullptr,                                                                                               \
                [](E* d, const E* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t n, int pe) {                  \
                    shmem_ctx_iput##BITS(SHMEM_CTX_DEFAULT, d, s, dst, sst, n, pe);                                    \
                },                                                                                                     \
                [](E* d, const E* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t n, int pe) {                  \
                    shmem_ctx_iget##BITS(SHMEM_CTX_DEFAULT, d, s, dst, sst, n, pe);                                    \
                },                                                                                                     \
                [](E* d, const E* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t bs, std::size_t nb, int pe) { \
                    shmem_ctx_ibput##BITS(SHMEM_CTX_DEFAULT, d, s, dst, sst, bs, nb, pe);                              \
                },                                                                                                     \
                [](E* d, const E* s, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t bs, std::size_t nb, int pe) { \
                    shmem_ctx_ibget##BITS(SHMEM_CTX_DEFAULT, d, s, dst, sst, bs, nb, pe);                              \
                },                                                                                                     \
                [](E* d, const E* s, std::size_t n, int pe) {                                                          \
                    shmem_ctx_put##BITS##_nbi(SHMEM_CTX_DEFAULT, d, s, n, pe);                                         \
                },                                                                                                     \
                [](E* d, const E* s, std::size_t n, int pe) {                                                          \
                    shmem_ctx_get##BITS##_nbi(SHMEM_CTX_DEFAULT, d, s, n, pe);                                         \
                },                                                                                                     \
                [] { shmem_ctx_quiet(SHMEM_CTX_DEFAULT); }};                                                           \
        }                                                                                                              \
    };                                                                                                                 \
    Blob<BYTES> Row_##BITS::global_buf[kElems];
GASKET_RMA_SIZES(GASKET_TEST_SIZED_ROW)
#undef GASKET_TEST_SIZED_ROW

// ::testing::Types<rows...> from an X-macro list (each entry ", Row_x").
#define GASKET_TEST_ROW_NAME(TYPE, NAME) , Row_##NAME
using TypedRows = DropFirst<void GASKET_STD_RMA_TYPES(GASKET_TEST_ROW_NAME)>::type;
#undef GASKET_TEST_ROW_NAME
#define GASKET_TEST_ROW_NAME(BITS, BYTES) , Row_##BITS
using SizedRows = DropFirst<void GASKET_RMA_SIZES(GASKET_TEST_ROW_NAME)>::type;
#undef GASKET_TEST_ROW_NAME

// Count the rows so a table that grows is noticed here too.
static_assert(0 GASKET_STD_RMA_TYPES(GASKET_TEST_COUNT) == 24, "Table 5 has 24 rows");
static_assert(0 GASKET_RMA_SIZES(GASKET_TEST_COUNT) == 5, "sizes 8, 16, 32, 64, 128");

template <class Row>
class RmaTyped : public ::testing::Test {};
TYPED_TEST_SUITE(RmaTyped, TypedRows, RowName);

TYPED_TEST(RmaTyped, HeapRingAndSelf) { heap_test<TypeParam>(); }
TYPED_TEST(RmaTyped, GlobalRingAndSelf) { global_test<TypeParam>(); }

template <class Row>
class RmaSized : public ::testing::Test {};
TYPED_TEST_SUITE(RmaSized, SizedRows, RowName);

TYPED_TEST(RmaSized, HeapRingAndSelf) { heap_test<TypeParam>(); }
TYPED_TEST(RmaSized, GlobalRingAndSelf) { global_test<TypeParam>(); }

}  // namespace
