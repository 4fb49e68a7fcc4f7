// tests/mpi/rma_bytes_test.cpp -- §9.6 byte forms (putmem/getmem, blocking,
// nbi and ctx) with odd byte counts and odd alignments, strided transfers
// over many shapes (including bsize > 1 and zero-element no-ops), joined
// nbi runs, scattered batches and bounce-ring refills, and large transfers
// checked byte for byte.  Heap and global (static) memory.
#include "shmem_test.hpp"

namespace {

using namespace gasket_test;

constexpr std::size_t kMiB = std::size_t(1) << 20;
constexpr std::size_t kGuard = 16;                      // sentinel bytes checked around each transfer
constexpr std::size_t kMemBuf = kMiB + 3 + 2 * kGuard;  // largest odd size + guards
unsigned char g_mem[kMemBuf];                           // global (static) symmetric buffer

using PutFn = void (*)(void*, const void*, std::size_t, int);

struct MemApi {
    const char* name;
    PutFn put;  // a put or a get, completed by `complete` (quiet for nbi)
    void (*complete)();
};
void nothing() {}
void ctx_quiet() { shmem_ctx_quiet(SHMEM_CTX_DEFAULT); }

const MemApi kPutApis[] = {
    {"shmem_putmem", shmem_putmem, nothing},
    {"shmem_ctx_putmem",
     [](void* d, const void* s, std::size_t n, int pe) { shmem_ctx_putmem(SHMEM_CTX_DEFAULT, d, s, n, pe); }, nothing},
    {"shmem_putmem_nbi+shmem_quiet", shmem_putmem_nbi, shmem_quiet},
    {"shmem_ctx_putmem_nbi+shmem_ctx_quiet",
     [](void* d, const void* s, std::size_t n, int pe) { shmem_ctx_putmem_nbi(SHMEM_CTX_DEFAULT, d, s, n, pe); },
     ctx_quiet},
};
const MemApi kGetApis[] = {
    {"shmem_getmem", [](void* d, const void* s, std::size_t n, int pe) { shmem_getmem(d, s, n, pe); }, nothing},
    {"shmem_ctx_getmem",
     [](void* d, const void* s, std::size_t n, int pe) { shmem_ctx_getmem(SHMEM_CTX_DEFAULT, d, s, n, pe); }, nothing},
    {"shmem_getmem_nbi+shmem_quiet",
     [](void* d, const void* s, std::size_t n, int pe) { shmem_getmem_nbi(d, s, n, pe); }, shmem_quiet},
    {"shmem_ctx_getmem_nbi+shmem_ctx_quiet",
     [](void* d, const void* s, std::size_t n, int pe) { shmem_ctx_getmem_nbi(SHMEM_CTX_DEFAULT, d, s, n, pe); },
     ctx_quiet},
};

// putmem/getmem of `size` bytes at symmetric offset 1 (unaligned), from a
// local source at offset 3, to/from `to`/`from`; guard bytes around the
// target range must be untouched.
void mem_rounds(unsigned char* sym, std::size_t size, int to, int from) {
    // --- puts
    for (std::size_t k = 0; k < std::size(kPutApis); ++k) {
        const MemApi& api = kPutApis[k];
        const std::size_t tag = k + 4 * (size % 5);  // a different pattern per api
        std::memset(sym, kSentinelByte, size + 2 * kGuard);
        shmem_barrier_all();
        std::vector<unsigned char> src(size + 3);
        for (std::size_t i = 0; i < size; ++i) src[3 + i] = pattern_byte(me(), tag * 977 + i);
        api.put(sym + kGuard, src.data() + 3, size, to);
        api.complete();
        std::fill(src.begin(), src.end(), 0);  // source reusable
        shmem_barrier_all();
        EXPECT_TRUE(BytesAre(sym, kGuard, kSentinelByte)) << api.name << " size " << size << ": before the range";
        EXPECT_TRUE(BytesMatchPattern(sym + kGuard, size, from, tag * 977))
            << api.name << " of " << size << " bytes from PE " << from << " to PE " << me();
        EXPECT_TRUE(BytesAre(sym + kGuard + size, kGuard, kSentinelByte))
            << api.name << " size " << size << ": after the range";
    }
    // --- gets: every PE's buffer holds its own pattern
    shmem_barrier_all();
    for (std::size_t i = 0; i < size + 2 * kGuard; ++i) sym[i] = pattern_byte(me(), i);
    shmem_barrier_all();
    for (const MemApi& api : kGetApis) {
        std::vector<unsigned char> loc(size + 3 + kGuard, kSentinelByte);
        api.put(loc.data() + 3, sym + kGuard, size, from);
        api.complete();
        EXPECT_TRUE(BytesAre(loc.data(), 3, kSentinelByte)) << api.name << " size " << size;
        EXPECT_TRUE(BytesMatchPattern(loc.data() + 3, size, from, kGuard))
            << api.name << " of " << size << " bytes from PE " << from << " on PE " << me();
        EXPECT_TRUE(BytesAre(loc.data() + 3 + size, kGuard, kSentinelByte)) << api.name << " size " << size;
    }
    shmem_barrier_all();
}

const std::size_t kOddSizes[] = {1, 7, 4097, kMiB + 3};

TEST(RmaMem, OddSizesHeap) {
    auto* sym = static_cast<unsigned char*>(shmem_malloc(kMemBuf));
    if (!all_pes(sym != nullptr)) {
        ADD_FAILURE() << "shmem_malloc(" << kMemBuf << ") returned NULL";
        shmem_free(sym);
        return;
    }
    for (std::size_t size : kOddSizes) {
        SCOPED_TRACE("size " + std::to_string(size));
        mem_rounds(sym, size, right(), left());
        mem_rounds(sym, size, me(), me());  // self
    }
    shmem_free(sym);
}

TEST(RmaMem, OddSizesGlobal) {
    for (std::size_t size : kOddSizes) {
        SCOPED_TRACE("size " + std::to_string(size));
        mem_rounds(g_mem, size, right(), left());
        mem_rounds(g_mem, size, me(), me());  // self
    }
}

TEST(RmaMem, ZeroBytesIsNoOp) {
    auto* sym = static_cast<unsigned char*>(shmem_malloc(64));
    std::memset(sym, kSentinelByte, 64);
    shmem_barrier_all();
    unsigned char src[8] = {1, 2, 3, 4, 5, 6, 7, 8}, loc[8];
    std::memset(loc, kSentinelByte, sizeof loc);
    shmem_putmem(sym, src, 0, right());
    shmem_putmem_nbi(sym + 8, src, 0, right());
    shmem_getmem(loc, sym, 0, right());
    shmem_getmem_nbi(loc, sym, 0, right());
    shmem_putmem(g_mem, src, 0, right());
    shmem_quiet();
    shmem_barrier_all();
    EXPECT_TRUE(BytesAre(sym, 64, kSentinelByte));
    EXPECT_TRUE(BytesAre(loc, sizeof loc, kSentinelByte));
    shmem_free(sym);
}

// ---- strided: many shapes, typed long and sized 32 -------------------------

struct Shape {
    std::ptrdiff_t dst, sst;  // element strides of dest and source
    std::size_t bsize, nblocks;
};
void PrintTo(const Shape& s, std::ostream* os) {
    *os << "dst=" << s.dst << " sst=" << s.sst << " bsize=" << s.bsize << " nblocks=" << s.nblocks;
}

constexpr std::size_t kStrideElems = 4096;
long g_stride[kStrideElems];

// Elements a shape touches on the side with stride `stride`.
std::size_t extent(const Shape& s, std::ptrdiff_t stride) {
    if (s.nblocks == 0 || s.bsize == 0) return 0;
    return std::size_t(std::ptrdiff_t(s.nblocks - 1) * stride) + s.bsize;
}

class Strided : public ::testing::TestWithParam<Shape> {};

// What a strided transfer of shape `s` leaves in an n-element array that
// held V::none(): block b, element k at b*to_stride + k holds the value
// PE `pe` had at b*from_stride + k.
template <class E>
std::vector<E> strided_expected(std::size_t n, const Shape& s, std::ptrdiff_t to_stride, std::ptrdiff_t from_stride,
                                int pe) {
    std::vector<E> want(n, Values<E>::none());
    for (std::size_t b = 0; b < (s.bsize ? s.nblocks : 0); ++b)
        for (std::size_t k = 0; k < s.bsize; ++k)
            want[std::size_t(std::ptrdiff_t(b) * to_stride) + k] =
                Values<E>::make(pe, std::size_t(std::ptrdiff_t(b) * from_stride) + k);
    return want;
}

// ibput (and iput when bsize == 1) of `s` into `sym` of the right neighbour.
void strided_put_rounds(long* sym, const Shape& s) {
    using V = Values<long>;
    for (int form = 0; form < (s.bsize == 1 ? 2 : 1); ++form) {
        const char* name = form == 0 ? "shmem_long_ibput" : "shmem_long_iput";
        std::fill(sym, sym + kStrideElems, V::none());
        shmem_barrier_all();
        std::vector<long> src(extent(s, s.sst) + 1);
        for (std::size_t i = 0; i < src.size(); ++i) src[i] = V::make(me(), i);
        if (form == 0)
            shmem_long_ibput(sym, src.data(), s.dst, s.sst, s.bsize, s.nblocks, right());
        else
            shmem_long_iput(sym, src.data(), s.dst, s.sst, s.nblocks, right());
        shmem_barrier_all();
        const std::vector<long> want = strided_expected<long>(kStrideElems, s, s.dst, s.sst, left());
        EXPECT_TRUE(ArraysMatch(sym, want.data(), kStrideElems)) << name << " from PE " << left();
    }
}

// ibget (and iget) of `s` from `sym` of the right neighbour.
void strided_get_rounds(long* sym, const Shape& s) {
    using V = Values<long>;
    shmem_barrier_all();
    for (std::size_t i = 0; i < kStrideElems; ++i) sym[i] = V::make(me(), i);
    shmem_barrier_all();
    for (int form = 0; form < (s.bsize == 1 ? 2 : 1); ++form) {
        const char* name = form == 0 ? "shmem_long_ibget" : "shmem_long_iget";
        const std::size_t n = extent(s, s.dst) + 8;
        std::vector<long> loc(n, V::none());
        if (form == 0)
            shmem_long_ibget(loc.data(), sym, s.dst, s.sst, s.bsize, s.nblocks, right());
        else
            shmem_long_iget(loc.data(), sym, s.dst, s.sst, s.nblocks, right());
        const std::vector<long> want = strided_expected<long>(n, s, s.dst, s.sst, right());
        EXPECT_TRUE(ArraysMatch(loc.data(), want.data(), n)) << name << " from PE " << right();
    }
    shmem_barrier_all();
}

// The sized form with 4-byte elements over the same shape (strides in
// elements, not bytes).
void strided_sized_round(unsigned char* sym_bytes, const Shape& s) {
    using E = Blob<4>;
    using V = Values<E>;
    E* sym = reinterpret_cast<E*>(sym_bytes);
    std::fill(sym, sym + kStrideElems, V::none());
    shmem_barrier_all();
    std::vector<E> src(extent(s, s.sst) + 1);
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = V::make(me(), i);
    shmem_ibput32(sym, src.data(), s.dst, s.sst, s.bsize, s.nblocks, right());
    shmem_barrier_all();
    const std::vector<E> want = strided_expected<E>(kStrideElems, s, s.dst, s.sst, left());
    EXPECT_TRUE(ArraysMatch(sym, want.data(), kStrideElems)) << "shmem_ibput32 from PE " << left();
    shmem_barrier_all();
}

TEST_P(Strided, Heap) {
    const Shape s = GetParam();
    long* sym = static_cast<long*>(shmem_malloc(kStrideElems * sizeof(long)));
    if (!all_pes(sym != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(sym);
        return;
    }
    strided_put_rounds(sym, s);
    strided_get_rounds(sym, s);
    strided_sized_round(reinterpret_cast<unsigned char*>(sym), s);
    shmem_free(sym);
}

TEST_P(Strided, Global) {
    const Shape s = GetParam();
    strided_put_rounds(g_stride, s);
    strided_get_rounds(g_stride, s);
}

INSTANTIATE_TEST_SUITE_P(Shapes, Strided,
                         ::testing::Values(Shape{1, 1, 1, 16},                       // contiguous
                                           Shape{2, 1, 1, 16},                       // spread on the target
                                           Shape{1, 3, 1, 16},                       // gather from the source
                                           Shape{5, 5, 5, 8},                        // blocks back to back
                                           Shape{8, 3, 3, 10},                       // bsize > 1, strides differ
                                           Shape{3, 8, 2, 10}, Shape{16, 16, 1, 1},  // one element
                                           Shape{7, 9, 4, 1},                        // one block
                                           Shape{1000, 2, 2, 4},                     // long target stride
                                           Shape{4, 4, 1, 0},                        // nblocks/nelems 0: no-op
                                           Shape{4, 4, 0, 5}),                       // bsize 0: no-op
                         [](const ::testing::TestParamInfo<Shape>& i) {
                             const Shape& s = i.param;
                             return "dst" + std::to_string(s.dst) + "_sst" + std::to_string(s.sst) + "_b" +
                                    std::to_string(s.bsize) + "_n" + std::to_string(s.nblocks);
                         });

// ---- runs and the bounce ring (src/runtime/bounce.hpp) ---------------------------

constexpr std::size_t kRunElems = 20000;  // 160 KB of 8-byte puts: more than the 64 KiB ring
long g_run[kRunElems];

// Adjacent put_nbi join into runs; a put to another window (global data vs
// heap), to another PE or to non-adjacent bytes breaks the run; quiet sends
// what is left.  Blocking puts of 8 bytes go from ring copies, more than the
// ring holds, so it refills.  Every element is checked on every PE.
TEST(RmaRuns, JoinedNbiAndRingCopiesArriveWhole) {
    auto* heap = static_cast<long*>(shmem_malloc(kRunElems * sizeof(long)));
    ASSERT_TRUE(all_pes(heap != nullptr));
    std::fill(heap, heap + kRunElems, -1L);
    std::fill(g_run, g_run + kRunElems, -1L);
    shmem_barrier_all();
    std::vector<long> src(kRunElems);
    for (std::size_t i = 0; i < kRunElems; ++i) src[i] = long(i) * 16 + me();
    const int far = (me() + 2) % npes();  // another PE when npes > 2
    for (std::size_t i = 0; i < kRunElems; ++i) {
        if (i % 7 == 3) {
            shmem_long_p(&g_run[i], src[i], right());  // blocking, global data window, from a ring copy
        } else if (i % 11 == 5) {
            shmem_long_put_nbi(&g_run[i], &src[i], 1, far);  // other PE (or the same one at 2 PEs)
            shmem_long_put_nbi(&heap[i], &src[i], 1, right());
        } else {
            shmem_long_put_nbi(&heap[i], &src[i], 1, right());  // adjacent: joins the run
        }
    }
    shmem_quiet();
    shmem_barrier_all();
    std::size_t bad_heap = 0, bad_global = 0;
    for (std::size_t i = 0; i < kRunElems; ++i) {
        const long from_left = long(i) * 16 + left();
        if (i % 7 != 3 && heap[i] != from_left) ++bad_heap;
        if (i % 7 == 3 && g_run[i] != from_left) ++bad_global;
        if (i % 7 != 3 && i % 11 == 5) {
            const int writer = (me() + npes() - 2) % npes();  // the PE whose `far` is this one
            if (g_run[i] != long(i) * 16 + writer) ++bad_global;
        }
    }
    EXPECT_EQ(bad_heap, 0u) << "joined shmem_long_put_nbi elements from PE " << left() << " missing or wrong";
    EXPECT_EQ(bad_global, 0u) << "global-data puts (ring copies, run breaks) missing or wrong";
    shmem_barrier_all();
    shmem_free(heap);
}

// ---- scattered batches (bounce.hpp: GASKET_NBI_BATCH, on by default on MPICH) --

long g_scatter[kRunElems];

// Slot i of an array of n longs in the order 97 k mod n (97 and n coprime:
// every slot once).
std::size_t scattered(std::size_t k, std::size_t n) { return (97 * k) % n; }

// Non-blocking puts scattered over the target, which a context's ring sends
// one PE up to 256 at a time in one MPI_Put (where scattered batches are
// on): every slot arrives whole, through quiet and through fence.  Puts
// overlap earlier ones of the same batch with the same bytes (blocks of 3
// and of 128 and 129 elements over single ones), so the slots' values do
// not depend on the order; they change window (global data), PE (at 4 PEs),
// mix with blocking puts (ring copies that end a batch) and empty puts, and
// outgrow the 64 KiB ring.  Every slot is checked on every PE.
TEST(RmaRuns, ScatteredNbiPutsArriveWhole) {
    constexpr std::size_t n = kRunElems;
    auto* heap = static_cast<long*>(shmem_malloc(n * sizeof(long)));
    auto* heap_far = static_cast<long*>(shmem_malloc(n * sizeof(long)));
    ASSERT_TRUE(all_pes(heap != nullptr && heap_far != nullptr));
    std::fill(heap, heap + n, -1L);
    std::fill(heap_far, heap_far + n, -1L);
    std::fill(g_scatter, g_scatter + n, -1L);
    shmem_barrier_all();
    const auto value = [](std::size_t i, int pe) { return long(i) * 16 + pe; };
    std::vector<long> src(n);
    for (std::size_t i = 0; i < n; ++i) src[i] = value(i, me());
    const int far = (me() + 2) % npes();
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = scattered(k, n);
        if (k % 17 == 4) {
            shmem_long_put_nbi(&g_scatter[i], &src[i], 1, right());  // the global data window
        } else if (k % 19 == 7) {
            shmem_long_put_nbi(&heap_far[i], &src[i], 1, far);  // another PE at 4 PEs
        } else if (k % 23 == 9) {
            shmem_long_p(&heap[i], src[i], right());  // blocking: a ring copy
        } else if (k % 13 == 2 && i + 3 <= n) {
            shmem_long_put_nbi(&heap[i], &src[i], 3, right());  // overlaps single puts, same bytes
        } else if (k == n / 2 && i + 129 <= n) {
            shmem_long_put_nbi(&heap[i], &src[i], 128, right());  // 1 KiB, the largest joined
            shmem_long_put_nbi(&heap[i], &src[i], 129, right());  // past it: its own MPI_Put
        } else {
            shmem_long_put_nbi(&heap[i], &src[i], 1, right());
            if (k % 29 == 11) shmem_putmem_nbi(&heap[(i + 5) % n], &src[i], 0, right());  // moves nothing
        }
    }
    // Slots that only the k % 17 == 4 or k % 19 == 7 puts wrote in the heap
    // are written there too, so every heap slot is checked.
    for (std::size_t k = 0; k < n; ++k)
        if (k % 17 == 4 || k % 19 == 7) shmem_long_put_nbi(&heap[scattered(k, n)], &src[scattered(k, n)], 1, right());
    shmem_quiet();
    shmem_barrier_all();
    const int writer_far = (me() + npes() - 2) % npes();  // the PE whose `far` is this one
    std::size_t bad_heap = 0, bad_global = 0, bad_far = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = scattered(k, n);
        if (heap[i] != value(i, left())) ++bad_heap;
        if (k % 17 == 4 && g_scatter[i] != value(i, left())) ++bad_global;
        if (k % 19 == 7 && k % 17 != 4 && heap_far[i] != value(i, writer_far)) ++bad_far;
    }
    EXPECT_EQ(bad_heap, 0u) << "scattered shmem_long_put_nbi to the heap from PE " << left();
    EXPECT_EQ(bad_global, 0u) << "scattered shmem_long_put_nbi to global data from PE " << left();
    EXPECT_EQ(bad_far, 0u) << "scattered shmem_long_put_nbi from PE " << writer_far;
    shmem_barrier_all();

    // Fence: every slot put twice, 0..n-1 then again with new values after
    // a shmem_fence; the second must win.  Without a fence between them (the
    // second half of the slots), either put may land last, but whole.
    std::vector<long> second(n);
    for (std::size_t i = 0; i < n; ++i) second[i] = -value(i, me());
    for (std::size_t k = 0; k < n; ++k) shmem_long_put_nbi(&heap[scattered(k, n)], &src[scattered(k, n)], 1, right());
    shmem_fence();
    for (std::size_t k = 0; k < n / 2; ++k)
        shmem_long_put_nbi(&heap[scattered(k, n)], &second[scattered(k, n)], 1, right());
    for (std::size_t k = n / 2; k < n; ++k) {
        const std::size_t i = scattered(k, n);
        shmem_long_put_nbi(&heap[i], &src[i], 1, right());
        shmem_long_put_nbi(&heap[i], &second[i], 1, right());  // overlaps the batch: issued apart
    }
    shmem_quiet();
    shmem_barrier_all();
    std::size_t not_fenced = 0, torn = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = scattered(k, n);
        if (k < n / 2 && heap[i] != -value(i, left())) ++not_fenced;
        if (k >= n / 2 && heap[i] != value(i, left()) && heap[i] != -value(i, left())) ++torn;
    }
    EXPECT_EQ(not_fenced, 0u) << "puts after shmem_fence did not land last";
    EXPECT_EQ(torn, 0u) << "slots put twice without a fence hold neither value";
    shmem_barrier_all();

    // A created context's own ring: its batches complete at shmem_ctx_destroy
    // (which quiets the context); after shmem_pe_quiet, an atomic flag.
    shmem_ctx_t ctx;
    ASSERT_EQ(shmem_ctx_create(0, &ctx), 0);
    for (std::size_t k = 0; k < n; ++k)
        shmem_ctx_long_put_nbi(ctx, &heap[scattered(k, n)], &second[scattered(k, n)], 1, right());
    shmem_ctx_destroy(ctx);
    static long flag = 0;
    for (std::size_t k = 0; k < n; ++k)
        shmem_long_put_nbi(&heap_far[scattered(k, n)], &src[scattered(k, n)], 1, right());
    const int target = right();
    shmem_pe_quiet(&target, 1);
    shmem_long_atomic_set(&flag, 1, right());
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
    std::size_t bad_ctx = 0, bad_pe_quiet = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (heap_far[i] != value(i, left())) ++bad_pe_quiet;
    }
    shmem_barrier_all();
    for (std::size_t i = 0; i < n; ++i)
        if (heap[i] != -value(i, left())) ++bad_ctx;
    EXPECT_EQ(bad_ctx, 0u) << "scattered shmem_ctx_long_put_nbi not complete after shmem_ctx_destroy";
    EXPECT_EQ(bad_pe_quiet, 0u) << "scattered puts not complete at the target after shmem_pe_quiet";
    shmem_barrier_all();
    flag = 0;
    shmem_barrier_all();
    shmem_free(heap_far);
    shmem_free(heap);
}

// ---- large transfers ----------------------------------------------------------

constexpr std::size_t kLarge = 8 * kMiB;
long g_large[kLarge / sizeof(long)];

TEST(RmaLarge, PutmemGetmem8MiBHeap) {
    auto* sym = static_cast<unsigned char*>(shmem_malloc(kLarge));
    if (!all_pes(sym != nullptr)) {
        ADD_FAILURE() << "shmem_malloc(8 MiB) returned NULL";
        shmem_free(sym);
        return;
    }
    std::vector<unsigned char> src(kLarge), loc(kLarge);
    // Blocking put, then nbi put, each checked byte for byte on the target.
    for (int round = 0; round < 2; ++round) {
        std::memset(sym, 0, kLarge);
        shmem_barrier_all();
        const int tag = me() + 8 * round;
        for (std::size_t i = 0; i < kLarge; ++i) src[i] = pattern_byte(tag, i);
        if (round == 0) {
            shmem_putmem(sym, src.data(), kLarge, right());
        } else {
            shmem_putmem_nbi(sym, src.data(), kLarge, right());
            shmem_quiet();
        }
        shmem_barrier_all();
        EXPECT_TRUE(BytesMatchPattern(sym, kLarge, left() + 8 * round))
            << (round ? "shmem_putmem_nbi" : "shmem_putmem") << " of 8 MiB from PE " << left();
    }
    // The right neighbour's buffer now holds this PE's round-1 pattern.
    shmem_getmem(loc.data(), sym, kLarge, right());
    EXPECT_TRUE(BytesMatchPattern(loc.data(), kLarge, me() + 8)) << "shmem_getmem of 8 MiB from PE " << right();
    std::fill(loc.begin(), loc.end(), 0);
    shmem_getmem_nbi(loc.data(), sym, kLarge, right());
    shmem_quiet();
    EXPECT_TRUE(BytesMatchPattern(loc.data(), kLarge, me() + 8)) << "shmem_getmem_nbi of 8 MiB from PE " << right();
    shmem_barrier_all();
    shmem_free(sym);
}

TEST(RmaLarge, LongPutGet8MiBGlobal) {
    constexpr std::size_t n = kLarge / sizeof(long);
    std::fill(g_large, g_large + n, -1L);
    shmem_barrier_all();
    std::vector<long> src(n), loc(n, -1L);
    for (std::size_t i = 0; i < n; ++i) src[i] = long(i) * 4 + me();
    shmem_long_put(g_large, src.data(), n, right());
    shmem_barrier_all();
    std::vector<long> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = long(i) * 4 + left();
    EXPECT_TRUE(ArraysMatch(g_large, want.data(), n)) << "shmem_long_put of 8 MiB from PE " << left();
    shmem_long_get(loc.data(), g_large, n, right());
    for (std::size_t i = 0; i < n; ++i) want[i] = long(i) * 4 + me();
    EXPECT_TRUE(ArraysMatch(loc.data(), want.data(), n)) << "shmem_long_get of 8 MiB from PE " << right();
    shmem_barrier_all();
}

}  // namespace
