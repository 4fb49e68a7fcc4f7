// tests/mpi/bad_input_test.cpp -- inputs at the edge that the spec defines
// and that must work (their fatal counterparts are in bad_input_cases.cpp):
// zero-length transfers at null and non-symmetric addresses (1.6 Annex C),
// shmem_align for every power of two, unknown malloc hints (§9.3.5), and
// sizes so large that they used to wrap (shmem_realloc).
#include <cstdint>
#include <vector>

#include "shmem_test.hpp"

using namespace gasket_test;

namespace {

long g_target[4];
std::uint64_t g_signal;

// Every contiguous put/get form family with length 0, at `addr` (null or
// not symmetric): each must return without touching anything.
void zero_length_every_form(void* addr, int pe, shmem_ctx_t ctx) {
    long local[1] = {7};
    auto* l = static_cast<long*>(addr);
    shmem_putmem(addr, local, 0, pe);
    shmem_getmem(addr, local, 0, pe);
    shmem_getmem(local, addr, 0, pe);
    shmem_putmem_nbi(addr, local, 0, pe);
    shmem_getmem_nbi(local, addr, 0, pe);
    shmem_ctx_putmem(ctx, addr, local, 0, pe);
    shmem_ctx_getmem(ctx, local, addr, 0, pe);
    shmem_ctx_putmem_nbi(ctx, addr, local, 0, pe);
    shmem_ctx_getmem_nbi(ctx, local, addr, 0, pe);
    shmem_long_put(l, local, 0, pe);
    shmem_long_get(local, l, 0, pe);
    shmem_long_put_nbi(l, local, 0, pe);
    shmem_long_get_nbi(local, l, 0, pe);
    shmem_ctx_long_put(ctx, l, local, 0, pe);
    shmem_ctx_long_get(ctx, local, l, 0, pe);
    shmem_ctx_long_put_nbi(ctx, l, local, 0, pe);
    shmem_ctx_long_get_nbi(ctx, local, l, 0, pe);
    shmem_put64(addr, local, 0, pe);
    shmem_get64(local, addr, 0, pe);
    shmem_put32_nbi(addr, local, 0, pe);
    shmem_get128_nbi(local, addr, 0, pe);
    shmem_ctx_put8(ctx, addr, local, 0, pe);
    shmem_ctx_get16(ctx, local, addr, 0, pe);
    shmem_ctx_put64_nbi(ctx, addr, local, 0, pe);
    shmem_ctx_get64_nbi(ctx, local, addr, 0, pe);
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    EXPECT_EQ(local[0], 7);
}

}  // namespace

TEST(ZeroLength, NullAndNonSymmetricAddressesAreNoOps) {
    g_target[0] = 100 + me();
    shmem_barrier_all();
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
    EXPECT_EQ(shmem_ctx_create(0, &ctx), 0);
    long on_stack[2] = {1, 2};
    for (int pe : {me(), right()}) {
        zero_length_every_form(nullptr, pe, ctx);
        zero_length_every_form(on_stack, pe, ctx);
        zero_length_every_form(g_target, pe, SHMEM_CTX_DEFAULT);  // symmetric, length 0
    }
    shmem_ctx_destroy(ctx);
    shmem_barrier_all();
    EXPECT_EQ(g_target[0], 100 + me());  // nothing arrived
    EXPECT_EQ(on_stack[0], 1);
    EXPECT_EQ(on_stack[1], 2);
}

// putmem_signal with no data at a null dest still delivers the signal (the
// signal is not a zero-length transfer).
TEST(ZeroLength, PutSignalWithNoDataStillSignals) {
    g_signal = 0;
    shmem_barrier_all();
    long local = 0;
    shmem_putmem_signal(nullptr, &local, 0, &g_signal, 5, SHMEM_SIGNAL_SET, right());
    shmem_long_put_signal_nbi(nullptr, &local, 0, &g_signal, 1, SHMEM_SIGNAL_ADD, right());
    shmem_ctx_putmem_signal(SHMEM_CTX_DEFAULT, &local, &local, 0, &g_signal, 1, SHMEM_SIGNAL_ADD, right());
    shmem_quiet();
    shmem_signal_wait_until(&g_signal, SHMEM_CMP_EQ, 7);
    EXPECT_EQ(shmem_signal_fetch(&g_signal), 7u);
    shmem_barrier_all();
}

// Every power of two from 1 byte to 64 MiB: the block's address is a
// multiple of the alignment on every PE, and it is symmetric (a put to the
// right neighbour's copy lands there).
TEST(Align, EveryPowerOfTwoIsHonoured) {
    for (std::size_t alignment = 1; alignment <= (std::size_t(64) << 20); alignment *= 2) {
        auto* p = static_cast<long*>(shmem_align(alignment, 3 * sizeof(long)));
        EXPECT_NE(p, nullptr) << "alignment " << alignment;
        EXPECT_TRUE(all_pes(p != nullptr)) << "alignment " << alignment;
        if (!all_pes(p != nullptr)) {
            shmem_free(p);
            continue;
        }
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignment, 0u) << "alignment " << alignment;
        const long mine = long(alignment) * 10 + me();
        shmem_long_p(p, mine, right());
        shmem_barrier_all();
        EXPECT_EQ(*p, long(alignment) * 10 + left()) << "alignment " << alignment;
        shmem_free(p);
    }
}

// Unknown hint bits are hints: the call behaves as shmem_malloc.
TEST(MallocWithHints, UnknownBitsBehaveAsMalloc) {
    auto* p = static_cast<long*>(shmem_malloc_with_hints(4 * sizeof(long), 1L << 20 | SHMEM_MALLOC_ATOMICS_REMOTE));
    EXPECT_TRUE(all_pes(p != nullptr));
    if (all_pes(p != nullptr)) {
        shmem_long_p(p, me() + 1, right());
        shmem_barrier_all();
        EXPECT_EQ(*p, left() + 1);
    }
    shmem_free(p);
}

// shmem_realloc to a size past the heap (SIZE_MAX - 8 used to wrap to a
// tiny size and leave the block both live and free) returns NULL and leaves
// the block as it was; the next allocation is a different block.
TEST(Realloc, HugeSizeReturnsNullAndKeepsTheBlock) {
    auto* p = static_cast<long*>(shmem_malloc(4 * sizeof(long)));
    EXPECT_TRUE(all_pes(p != nullptr));
    if (!all_pes(p != nullptr)) return;
    for (int i = 0; i < 4; ++i) p[i] = 1000 * me() + i;
    for (std::size_t size : {SIZE_MAX - 8, SIZE_MAX, SIZE_MAX / 2 + 1}) {
        void* q = shmem_realloc(p, size);
        EXPECT_EQ(q, nullptr) << size;
    }
    auto* other = static_cast<long*>(shmem_malloc(4 * sizeof(long)));
    EXPECT_NE(other, p);
    EXPECT_NE(other, nullptr);
    if (other) {
        for (int i = 0; i < 4; ++i) other[i] = -1;
    }
    for (int i = 0; i < 4; ++i) EXPECT_EQ(p[i], 1000 * me() + i);
    shmem_free(other);
    shmem_free(p);
}
