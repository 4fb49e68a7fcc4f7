// tests/mpi/signal_test.cpp -- §9.8 signaling operations and §9.11.15
// shmem_signal_wait_until:
//  - put-with-signal, blocking and _nbi, for every Table 5 type, every
//    sized form (8..128) and putmem, plain and ctx (SHMEM_CTX_DEFAULT),
//    with SHMEM_SIGNAL_SET and SHMEM_SIGNAL_ADD, in a ring and to self: the
//    receiver waits with shmem_signal_wait_until and then checks every byte
//    of a 1 MiB payload (the signal must not be visible before the data);
//    the value returned by the wait and by shmem_signal_fetch is exact
//    (SET stores, ADD adds to a nonzero starting value);
//  - signal on a global variable and on the heap, payload on the heap and
//    in a global array;
//  - shmem_signal_set / shmem_signal_add (plain and ctx), shmem_signal_fetch;
//  - many PEs adding to one signal (signal_add and put_signal ADD);
//  - signal_wait_until with every SHMEM_CMP_*, unsigned 64-bit comparison.
#include <chrono>
#include <thread>

#include "shmem_test.hpp"

namespace {

using namespace gasket_test;

constexpr std::size_t kPayload = std::size_t(1) << 20;  // bytes per transfer

std::uint64_t g_sig;                // a signal in the data segment
unsigned char g_payload[kPayload];  // a payload in the data segment

// One put-with-signal entry point, element-count based; `elem` is the
// element size in bytes (1 for putmem).
using PutSignalFn = void (*)(void*, const void*, std::size_t, std::uint64_t*, std::uint64_t, int, int);
struct PsOps {
    const char* prefix;
    std::size_t elem;
    PutSignalFn put_signal;
    PutSignalFn put_signal_nbi;
};

// ---- rows: Table 5, the sized forms, putmem -------------------------------------

#define GASKET_TEST_PS_ROW(TYPE, NAME)                                                                               \
    struct Ps_##NAME {                                                                                               \
        static constexpr const char* kName = #NAME;                                                                  \
        static PsOps plain() {                                                                                       \
            return {"shmem_" #NAME "_put_signal[_nbi]", sizeof(TYPE),                                                \
                    [](void* d, const void* s, std::size_t n, std::uint64_t* sig, std::uint64_t v, int op, int pe) { \
                        shmem_##NAME##_put_signal(static_cast<TYPE*>(d), static_cast<const TYPE*>(s), n, sig, v, op, \
                                                  pe);                                                               \
                    },                                                                                               \
                    [](void* d, const void* s, std::size_t n, std::uint64_t* sig, std::uint64_t v, int op, int pe) { \
                        shmem_##NAME##_put_signal_nbi(static_cast<TYPE*>(d), static_cast<const TYPE*>(s), n, sig, v, \
                                                      op, pe);                                                       \
                    }};                                                                                              \
        }                                                                                                            \
        static PsOps ctx() {                                                                                         \
            return {"shmem_ctx_" #NAME "_put_signal[_nbi] (SHMEM_CTX_DEFAULT)", sizeof(TYPE),                        \
                    [](void* d, const void* s, std::size_t n, std::uint64_t* sig, std::uint64_t v, int op, int pe) { \
                        shmem_ctx_##NAME##_put_signal(SHMEM_CTX_DEFAULT, static_cast<TYPE*>(d),                      \
                                                      static_cast<const TYPE*>(s), n, sig, v, op, pe);               \
                    },                                                                                               \
                    [](void* d, const void* s, std::size_t n, std::uint64_t* sig, std::uint64_t v, int op, int pe) { \
                        shmem_ctx_##NAME##_put_signal_nbi(SHMEM_CTX_DEFAULT, static_cast<TYPE*>(d),                  \
                                                          static_cast<const TYPE*>(s), n, sig, v, op, pe);           \
                    }};                                                                                              \
        }                                                                                                            \
    };
GASKET_STD_RMA_TYPES(GASKET_TEST_PS_ROW)
#undef GASKET_TEST_PS_ROW

#define GASKET_TEST_PS_SIZED_ROW(BITS, BYTES)                                                                          \
    struct Ps_##BITS {                                                                                                 \
        static constexpr const char* kName = "bits" #BITS;                                                             \
        static PsOps plain() {                                                                                         \
            return {"shmem_put" #BITS "_signal[_nbi]", BYTES, shmem_put##BITS##_signal, shmem_put##BITS##_signal_nbi}; \
        }                                                                                                              \
        static PsOps ctx() {                                                                                           \
            return {"shmem_ctx_put" #BITS "_signal[_nbi] (SHMEM_CTX_DEFAULT)", BYTES,                                  \
                    [](void* d, const void* s, std::size_t n, std::uint64_t* sig, std::uint64_t v, int op, int pe) {   \
                        shmem_ctx_put##BITS##_signal(SHMEM_CTX_DEFAULT, d, s, n, sig, v, op, pe);                      \
                    },                                                                                                 \
                    [](void* d, const void* s, std::size_t n, std::uint64_t* sig, std::uint64_t v, int op, int pe) {   \
                        shmem_ctx_put##BITS##_signal_nbi(SHMEM_CTX_DEFAULT, d, s, n, sig, v, op, pe);                  \
                    }};                                                                                                \
        }                                                                                                              \
    };
GASKET_RMA_SIZES(GASKET_TEST_PS_SIZED_ROW)
#undef GASKET_TEST_PS_SIZED_ROW

struct Ps_mem {
    static constexpr const char* kName = "mem";
    static PsOps plain() { return {"shmem_putmem_signal[_nbi]", 1, shmem_putmem_signal, shmem_putmem_signal_nbi}; }
    static PsOps ctx() {
        return {"shmem_ctx_putmem_signal[_nbi] (SHMEM_CTX_DEFAULT)", 1,
                [](void* d, const void* s, std::size_t n, std::uint64_t* sig, std::uint64_t v, int op, int pe) {
                    shmem_ctx_putmem_signal(SHMEM_CTX_DEFAULT, d, s, n, sig, v, op, pe);
                },
                [](void* d, const void* s, std::size_t n, std::uint64_t* sig, std::uint64_t v, int op, int pe) {
                    shmem_ctx_putmem_signal_nbi(SHMEM_CTX_DEFAULT, d, s, n, sig, v, op, pe);
                }};
    }
};

#define GASKET_TEST_ROW_NAME(TYPE, NAME) , Ps_##NAME
#define GASKET_TEST_SIZED_NAME(BITS, BYTES) , Ps_##BITS
using PsRows =
    DropFirst<void GASKET_STD_RMA_TYPES(GASKET_TEST_ROW_NAME) GASKET_RMA_SIZES(GASKET_TEST_SIZED_NAME), Ps_mem>::type;
#undef GASKET_TEST_ROW_NAME
#undef GASKET_TEST_SIZED_NAME

static_assert(0 GASKET_STD_RMA_TYPES(GASKET_TEST_COUNT) == 24, "Table 5 has 24 rows");

// Waits until *sig `cmp` value, as shmem_signal_wait_until would, but gives
// up (reporting a failure) after kPollLimit, so an update that never comes
// fails the test instead of hanging it: polls with shmem_uint64_test (which
// accesses the signal atomically, §9.8.1), then returns what
// shmem_signal_wait_until returns once the condition holds.
constexpr auto kPollLimit = std::chrono::seconds(30);
std::uint64_t bounded_signal_wait(std::uint64_t* sig, int cmp, std::uint64_t value) {
    const auto deadline = std::chrono::steady_clock::now() + kPollLimit;
    while (!shmem_uint64_test(sig, cmp, value))
        if (std::chrono::steady_clock::now() > deadline) {
            ADD_FAILURE() << "the signal never satisfied the condition in " << kPollLimit.count() << " s; it holds "
                          << shmem_signal_fetch(sig) << ", waiting for cmp " << cmp << " " << value;
            return shmem_signal_fetch(sig);
        }
    return shmem_signal_wait_until(sig, cmp, value);
}

// ---- one put-with-signal round -------------------------------------------------

// The payload pattern of `sender` in round `round` (differs between rounds,
// so data left from an earlier round is caught).
int pattern_id(int sender, int round) { return sender + npes() * round; }

// The receiver's signal starts at `base`; the sender's `value` is chosen so
// that SET and ADD give different results, both != base.
std::uint64_t base_of(int round) { return 0x5000 + std::uint64_t(round); }
std::uint64_t value_of(int round, int sig_op) {
    return sig_op == SHMEM_SIGNAL_SET ? 0xABCD00000000ull + std::uint64_t(round) : (1ull << 36) + std::uint64_t(round);
}

// This PE puts kPayload bytes with `fn` to `dest` on `target` and signals
// `sig` there; it receives the same from `from` and checks them.  `dest`
// and `sig` are symmetric (heap or global).
void put_signal_round(const PsOps& ops, bool nbi, int sig_op, unsigned char* dest, std::uint64_t* sig, int target,
                      int from, int round, std::vector<unsigned char>& src) {
    const std::uint64_t base = base_of(round);
    shmem_signal_set(sig, base, me());  // this PE's own signal: its starting value
    shmem_quiet();
    std::memset(dest, kSentinelByte, kPayload);
    shmem_barrier_all();  // every receiver ready

    for (std::size_t i = 0; i < kPayload; ++i) src[i] = pattern_byte(pattern_id(me(), round), i);
    const std::uint64_t v = value_of(round, sig_op);
    (nbi ? ops.put_signal_nbi : ops.put_signal)(dest, src.data(), kPayload / ops.elem, sig, v, sig_op, target);
    if (nbi) shmem_quiet();  // before the source may change

    const std::uint64_t want = sig_op == SHMEM_SIGNAL_SET ? v : base + v;
    const char* what = sig_op == SHMEM_SIGNAL_SET ? "SHMEM_SIGNAL_SET" : "SHMEM_SIGNAL_ADD";
    const std::uint64_t got = shmem_signal_wait_until(sig, SHMEM_CMP_NE, base);
    EXPECT_EQ(got, want) << ops.prefix << (nbi ? " nbi" : "") << " " << what
                         << ": shmem_signal_wait_until's return (signal started at " << base << ", sent " << v
                         << " from PE " << from << ")";
    EXPECT_EQ(shmem_signal_fetch(sig), want) << ops.prefix << (nbi ? " nbi" : "") << " " << what << ": signal_fetch";
    EXPECT_TRUE(BytesMatchPattern(dest, kPayload, pattern_id(from, round)))
        << ops.prefix << (nbi ? " nbi" : "") << " " << what << " from PE " << from
        << ": the payload once the signal was seen";
    shmem_barrier_all();  // every check done before the buffers are reused
}

template <class Row>
void put_signal_all(unsigned char* dest) {
    std::uint64_t* heap_sig = static_cast<std::uint64_t*>(shmem_malloc(sizeof(std::uint64_t)));
    if (!all_pes(heap_sig != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(heap_sig);
        return;
    }
    std::vector<unsigned char> src(kPayload);
    int round = 0;
    for (const PsOps& ops : {Row::plain(), Row::ctx()})
        for (bool nbi : {false, true})
            for (int sig_op : {SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD})
                for (bool self : {false, true}) {
                    // Alternate the signal between the heap and the data segment.
                    std::uint64_t* sig = (round % 2) ? &g_sig : heap_sig;
                    put_signal_round(ops, nbi, sig_op, dest, sig, self ? me() : right(), self ? me() : left(), round,
                                     src);
                    ++round;
                }
    shmem_free(heap_sig);
}

template <class Row>
class PutSignal : public ::testing::Test {};
TYPED_TEST_SUITE(PutSignal, PsRows, RowName);

TYPED_TEST(PutSignal, HeapPayloadRingAndSelf) {
    unsigned char* dest = static_cast<unsigned char*>(shmem_malloc(kPayload));
    if (!all_pes(dest != nullptr)) {
        ADD_FAILURE() << "shmem_malloc(" << kPayload << ") returned NULL";
        shmem_free(dest);
        return;
    }
    put_signal_all<TypeParam>(dest);
    shmem_free(dest);
}

// The payload in the data segment: once for each kind of entry point.
TEST(PutSignalMisc, GlobalPayloadRingAndSelf) {
    put_signal_all<Ps_long>(g_payload);
    put_signal_all<Ps_64>(g_payload);
    put_signal_all<Ps_mem>(g_payload);
}

// ---- signal_set / signal_add / signal_fetch ---------------------------------------

TEST(Signal, SetAddFetchRingAndSelf) {
    std::uint64_t* sig = static_cast<std::uint64_t*>(shmem_malloc(sizeof(std::uint64_t)));
    if (!all_pes(sig != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(sig);
        return;
    }
    for (std::uint64_t* s : {sig, &g_sig})
        for (bool self : {false, true})
            for (bool use_ctx : {false, true}) {
                const int target = self ? me() : right(), from = self ? me() : left();
                const char* api = use_ctx ? "shmem_ctx_signal_" : "shmem_signal_";
                const std::uint64_t base = 0x100000000ull + 77;  // bits in both halves
                shmem_signal_set(s, 0, me());
                shmem_quiet();
                EXPECT_EQ(shmem_signal_fetch(s), 0u);
                shmem_barrier_all();

                // set: the receiver sees exactly the value stored
                const std::uint64_t setv = base + 1000 * std::uint64_t(me());
                if (use_ctx)
                    shmem_ctx_signal_set(SHMEM_CTX_DEFAULT, s, setv, target);
                else
                    shmem_signal_set(s, setv, target);
                shmem_quiet();
                EXPECT_EQ(shmem_signal_wait_until(s, SHMEM_CMP_NE, 0), base + 1000 * std::uint64_t(from))
                    << api << "set from PE " << from;
                EXPECT_EQ(shmem_signal_fetch(s), base + 1000 * std::uint64_t(from)) << api << "set: fetch";
                shmem_barrier_all();

                // add: twice, the second carrying into the high half
                const std::uint64_t add1 = 5 + std::uint64_t(me()), add2 = 0xFFFFFFFFull;
                if (use_ctx) {
                    shmem_ctx_signal_add(SHMEM_CTX_DEFAULT, s, add1, target);
                    shmem_ctx_signal_add(SHMEM_CTX_DEFAULT, s, add2, target);
                } else {
                    shmem_signal_add(s, add1, target);
                    shmem_signal_add(s, add2, target);
                }
                shmem_quiet();
                const std::uint64_t want = base + 1000 * std::uint64_t(from) + 5 + std::uint64_t(from) + add2;
                EXPECT_EQ(bounded_signal_wait(s, SHMEM_CMP_EQ, want), want) << api << "add from PE " << from;
                EXPECT_EQ(shmem_signal_fetch(s), want) << api << "add: fetch";
                shmem_barrier_all();
            }
    shmem_free(sig);
}

// Every PE adds to one signal on PE 0 and on PE n-1, kAdds times each, half
// plain and half ctx: the target's wait returns once the sum is complete,
// and the signal holds exactly the sum.
TEST(Signal, ManyPesAddToOneSignal) {
    constexpr int kAdds = 1000;
    std::uint64_t* sig = static_cast<std::uint64_t*>(shmem_malloc(sizeof(std::uint64_t)));
    if (!all_pes(sig != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(sig);
        return;
    }
    const int n = npes();
    std::uint64_t total = 0;
    for (int pe = 0; pe < n; ++pe) total += std::uint64_t(kAdds) * ((std::uint64_t(pe) << 32) + std::uint64_t(pe) + 1);
    for (const int target : {0, n - 1}) {
        shmem_signal_set(sig, 0, me());
        shmem_quiet();
        shmem_barrier_all();
        const std::uint64_t mine = (std::uint64_t(me()) << 32) + std::uint64_t(me()) + 1;
        for (int k = 0; k < kAdds; ++k) {
            if (k % 2)
                shmem_ctx_signal_add(SHMEM_CTX_DEFAULT, sig, mine, target);
            else
                shmem_signal_add(sig, mine, target);
        }
        shmem_quiet();
        if (me() == target) {
            EXPECT_EQ(bounded_signal_wait(sig, SHMEM_CMP_GE, total), total) << "signal on PE " << target;
        }
        shmem_barrier_all();
        if (me() == target) EXPECT_EQ(shmem_signal_fetch(sig), total) << "after the barrier, PE " << target;
        shmem_barrier_all();
    }
    shmem_free(sig);
}

// Every PE put_signals its own 1 MiB chunk into PE 0's (then PE n-1's)
// buffer and adds 1 to one signal there (even PEs blocking, odd PEs nbi):
// when the signal reaches n, every chunk is there.
TEST(Signal, ManyPesPutSignalAddToOnePe) {
    const int n = npes();
    unsigned char* buf = static_cast<unsigned char*>(shmem_malloc(kPayload * std::size_t(n)));
    std::uint64_t* sig = static_cast<std::uint64_t*>(shmem_malloc(sizeof(std::uint64_t)));
    if (!all_pes(buf != nullptr && sig != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(sig);
        shmem_free(buf);
        return;
    }
    std::vector<unsigned char> src(kPayload);
    for (std::size_t i = 0; i < kPayload; ++i) src[i] = pattern_byte(me(), i);
    for (const int target : {0, n - 1}) {
        shmem_signal_set(sig, 0, me());
        shmem_quiet();
        std::memset(buf, kSentinelByte, kPayload * std::size_t(n));
        shmem_barrier_all();
        unsigned char* chunk = buf + kPayload * std::size_t(me());
        if (me() % 2)
            shmem_putmem_signal_nbi(chunk, src.data(), kPayload, sig, 1, SHMEM_SIGNAL_ADD, target);
        else
            shmem_putmem_signal(chunk, src.data(), kPayload, sig, 1, SHMEM_SIGNAL_ADD, target);
        shmem_quiet();
        if (me() == target) {
            EXPECT_EQ(bounded_signal_wait(sig, SHMEM_CMP_GE, std::uint64_t(n)), std::uint64_t(n));
            for (int pe = 0; pe < n; ++pe)
                EXPECT_TRUE(BytesMatchPattern(buf + kPayload * std::size_t(pe), kPayload, pe))
                    << "chunk of PE " << pe << " on PE " << target << " once the signal reached " << n;
        }
        shmem_barrier_all();
    }
    shmem_free(sig);
    shmem_free(buf);
}

// shmem_signal_wait_until with every comparison: the signal starts at
// `init` (condition false); the left neighbour sets `mid` (still false),
// pauses, then sets `last` (true, after a fence).  The wait returns `last`.
// The values use the whole unsigned 64-bit range: a signed or 32-bit
// comparison gets some of them wrong.
TEST(Signal, WaitUntilEveryComparison) {
    struct Case {
        int cmp;
        const char* name;
        std::uint64_t init, value, mid, last;
    };
    constexpr std::uint64_t kHi = 1ull << 40, kTop = 1ull << 63;
    const Case cases[] = {
        {SHMEM_CMP_EQ, "EQ", 0, kHi + 5, 5, kHi + 5},
        {SHMEM_CMP_NE, "NE", kHi + 5, kHi + 5, kHi + 5, 5},
        {SHMEM_CMP_GT, "GT", 5, kHi, kHi - 1, kTop + 1},  // kTop + 1 > kHi only unsigned
        {SHMEM_CMP_GE, "GE", 4, kHi + 5, 5, kHi + 5},
        {SHMEM_CMP_LT, "LT", kTop + 9, kTop, kTop + 1, 7},  // 7 < kTop only unsigned
        {SHMEM_CMP_LE, "LE", kHi + 6, kHi + 5, kTop, kHi + 5},
    };
    constexpr std::size_t kCases = std::size(cases);
    std::uint64_t* sigs = static_cast<std::uint64_t*>(shmem_malloc(kCases * sizeof(std::uint64_t)));
    if (!all_pes(sigs != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(sigs);
        return;
    }
    for (std::size_t c = 0; c < kCases; ++c) shmem_signal_set(&sigs[c], cases[c].init, me());
    shmem_quiet();
    shmem_barrier_all();
    for (std::size_t c = 0; c < kCases; ++c) shmem_signal_set(&sigs[c], cases[c].mid, right());
    shmem_fence();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // let the waiter see `mid` first
    for (std::size_t c = 0; c < kCases; ++c) shmem_signal_set(&sigs[c], cases[c].last, right());
    shmem_quiet();
    for (std::size_t c = 0; c < kCases; ++c) {
        const Case& k = cases[c];
        EXPECT_EQ(shmem_signal_wait_until(&sigs[c], k.cmp, k.value), k.last)
            << "shmem_signal_wait_until(SHMEM_CMP_" << k.name << ", " << k.value << ") returned before "
            << "the satisfying update (or returned a wrong value)";
    }
    shmem_barrier_all();
    shmem_free(sigs);
}

}  // namespace
