// tests/mpi/threads_test.cpp -- §9.2 thread support at
// SHMEM_THREAD_MULTIPLE: the library initialised by
// shmem_init_thread(SHMEM_THREAD_MULTIPLE) (shmem_test_main.cpp built with
// GASKET_TEST_THREAD_MULTIPLE), then kThreads threads per PE calling
// OpenSHMEM at once (on the default context unless said otherwise):
//  - ThreadLevel: init_thread's return value and *provided, query_thread
//    from every thread, nested init calls that cannot change the level,
//    a requested level that is not a SHMEM_THREAD_* value;
//  - EveryThreadPutsGetsAndAmos: each thread puts its own region of a
//    buffer on the right neighbour (blocking and nbi, sizes on both sides
//    of the window's 256-byte bounce limit), fetch_adds one counter on
//    PE 0, adds to a counter on the right neighbour, fetch_inc_nbi's a
//    counter on the left neighbour, quiets, then reads its region back and
//    reads the left neighbour's source; after the join and a barrier every
//    byte and every counter is checked, and the fetched values must be
//    exactly 0..N-1, each once (no AMO lost or applied twice);
//  - PrivateContextPerThread (§9.5): the same with each thread on its own
//    SHMEM_CTX_PRIVATE context (shmem_ctx_ forms, shmem_ctx_quiet),
//    created and destroyed by that thread;
//  - BlockedThreadDoesNotStopOthers (§9.2 rule 3): thread 0 of every PE
//    waits (shmem_long_wait_until) for a flag that the left neighbour's
//    other threads raise one by one, each after putting its region and
//    quieting; while it is blocked this PE's other threads must go on
//    communicating (or the right neighbour never wakes), and each
//    thread's quiet must have completed its own puts before its flag.
// Threads record what they saw; only the main thread asserts.  Run under
// ThreadSanitizer by the TSan build (tests/tsan/README.md).
#include <atomic>
#include <thread>

#include "shmem_test.hpp"

namespace gasket_test {
extern int init_thread_rc, init_thread_provided;  // shmem_test_main.cpp
}

namespace {

using namespace gasket_test;

constexpr int kThreads = 4;
constexpr std::size_t kRegion = 24 * 1024;  // bytes each thread puts
constexpr int kAmoIters = 1000;             // fetch_adds per thread
// Put sizes, cycled: around the window's bounce limit (256 B), odd sizes,
// a few KiB.
constexpr std::size_t kChunks[] = {1, 7, 64, 255, 256, 257, 1000, 4096, 3};

// Byte i of thread t's region as PE pe writes it.
unsigned char byte_of(int pe, int t, std::size_t i) { return pattern_byte(pe * kThreads + t, i); }

std::vector<unsigned char> region_pattern(int pe, int t) {
    std::vector<unsigned char> v(kRegion);
    for (std::size_t i = 0; i < kRegion; ++i) v[i] = byte_of(pe, t, i);
    return v;
}

// Mismatches of a kRegion-byte region against byte_of(pe, t, ...).
struct Mismatch {
    std::size_t count = 0, first = 0;
    int got = 0, want = 0;
    void check(const unsigned char* got_bytes, int pe, int t) {
        for (std::size_t i = 0; i < kRegion; ++i) {
            const unsigned char want_byte = byte_of(pe, t, i);
            if (got_bytes[i] == want_byte) continue;
            if (count++ == 0) first = i, got = got_bytes[i], want = want_byte;
        }
    }
};
::testing::AssertionResult Clean(const Mismatch& m, const char* what, int t) {
    if (m.count == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "PE " << me() << " thread " << t << ": " << what << ": " << m.count
                                         << " of " << kRegion << " bytes differ, first at byte " << m.first << " (got "
                                         << m.got << ", want " << m.want << ")";
}

// Runs body(t) on kThreads threads and joins them.
template <class Body>
void run_threads(Body body) {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) threads.emplace_back(body, t);
    for (std::thread& th : threads) th.join();
}

long g_counter;  // global (data segment): fetch_add target on PE 0

// Variables that AMOs update are set and read here with AMOs on this PE:
// an AMO from a PE whose memory is not mapped here is applied by a handler
// on another thread of this process (the progress thread, say), and the
// barrier orders it before our read only through MPI and the other PEs,
// which ThreadSanitizer cannot see (tests/tsan/README.md).
void atomic_zero(long* x) { shmem_long_atomic_set(x, 0, me()); }
long atomic_read(long* x) { return shmem_long_atomic_fetch(x, me()); }

TEST(ThreadLevel, InitThreadProvidesMultiple) {
    EXPECT_EQ(init_thread_rc, 0);
    EXPECT_EQ(init_thread_provided, SHMEM_THREAD_MULTIPLE);
    int provided = -1;
    shmem_query_thread(&provided);
    EXPECT_EQ(provided, SHMEM_THREAD_MULTIPLE);
    // From other threads, all at once.
    std::atomic<int> wrong{0};
    run_threads([&](int) {
        int p = -1;
        shmem_query_thread(&p);
        if (p != SHMEM_THREAD_MULTIPLE) wrong.fetch_add(1);
    });
    EXPECT_EQ(wrong.load(), 0) << "threads whose shmem_query_thread was not SHMEM_THREAD_MULTIPLE";
    // The levels are ordered (§9.2).
    static_assert(SHMEM_THREAD_SINGLE < SHMEM_THREAD_FUNNELED && SHMEM_THREAD_FUNNELED < SHMEM_THREAD_SERIALIZED &&
                  SHMEM_THREAD_SERIALIZED < SHMEM_THREAD_MULTIPLE);
}

TEST(ThreadLevel, NestedInitKeepsTheLevel) {
    // A second initialisation asks for less: the library stays at the level
    // it provides (each init is matched by a shmem_finalize; collective).
    int provided = -1;
    EXPECT_EQ(shmem_init_thread(SHMEM_THREAD_SINGLE, &provided), 0);
    EXPECT_EQ(provided, SHMEM_THREAD_MULTIPLE);
    shmem_init();
    int queried = -1;
    shmem_query_thread(&queried);
    EXPECT_EQ(queried, SHMEM_THREAD_MULTIPLE);
    shmem_finalize();
    shmem_finalize();
    int initialized = 0;
    shmem_query_initialized(&initialized);
    EXPECT_EQ(initialized, 1) << "the outermost shmem_init_thread is not finalized yet";
    queried = -1;
    shmem_query_thread(&queried);
    EXPECT_EQ(queried, SHMEM_THREAD_MULTIPLE);
}

TEST(ThreadLevel, BadRequestedLevelFails) {
    int provided = -7;
    EXPECT_NE(shmem_init_thread(SHMEM_THREAD_MULTIPLE + 99, &provided), 0);
    EXPECT_EQ(provided, -7) << "*provided is written only on success";
    int queried = -1;
    shmem_query_thread(&queried);
    EXPECT_EQ(queried, SHMEM_THREAD_MULTIPLE);
}

// The calls one thread makes: the plain routines (default context), or the
// shmem_ctx_ forms on a SHMEM_CTX_PRIVATE context the thread created.
class ThreadOps {
public:
    explicit ThreadOps(bool private_context) {
        if (private_context) create_rc_ = shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx_);
    }
    ~ThreadOps() {
        if (ctx_ != SHMEM_CTX_DEFAULT && ctx_ != SHMEM_CTX_INVALID) shmem_ctx_destroy(ctx_);  // by its creator
    }
    bool plain() const { return ctx_ == SHMEM_CTX_DEFAULT; }
    int create_rc() const { return create_rc_; }
    bool usable() const { return create_rc_ == 0 && ctx_ != SHMEM_CTX_INVALID; }

    void putmem(void* d, const void* s, std::size_t n, int pe) const {
        plain() ? shmem_putmem(d, s, n, pe) : shmem_ctx_putmem(ctx_, d, s, n, pe);
    }
    void putmem_nbi(void* d, const void* s, std::size_t n, int pe) const {
        plain() ? shmem_putmem_nbi(d, s, n, pe) : shmem_ctx_putmem_nbi(ctx_, d, s, n, pe);
    }
    void getmem(void* d, const void* s, std::size_t n, int pe) const {
        plain() ? shmem_getmem(d, s, n, pe) : shmem_ctx_getmem(ctx_, d, s, n, pe);
    }
    void getmem_nbi(void* d, const void* s, std::size_t n, int pe) const {
        plain() ? shmem_getmem_nbi(d, s, n, pe) : shmem_ctx_getmem_nbi(ctx_, d, s, n, pe);
    }
    void add(long* d, long v, int pe) const {
        plain() ? shmem_long_atomic_add(d, v, pe) : shmem_ctx_long_atomic_add(ctx_, d, v, pe);
    }
    long fetch_add(long* d, long v, int pe) const {
        return plain() ? shmem_long_atomic_fetch_add(d, v, pe) : shmem_ctx_long_atomic_fetch_add(ctx_, d, v, pe);
    }
    void fetch_inc_nbi(long* fetch, long* d, int pe) const {
        plain() ? shmem_long_atomic_fetch_inc_nbi(fetch, d, pe)
                : shmem_ctx_long_atomic_fetch_inc_nbi(ctx_, fetch, d, pe);
    }
    void quiet() const { plain() ? shmem_quiet() : shmem_ctx_quiet(ctx_); }

private:
    shmem_ctx_t ctx_ = SHMEM_CTX_DEFAULT;
    int create_rc_ = 0;
};

// What one thread of puts_gets_amos saw.
struct ThreadRecord {
    int create_rc = 0;              // shmem_ctx_create's result (private contexts)
    bool usable = false;            // the thread had a context to work on
    Mismatch read_back;             // its region on the right neighbour, after its quiet
    Mismatch left_source;           // the left neighbour's source region
    std::vector<long> fetched;      // fetch_add results on PE 0's counter, in order
    std::vector<long> fetched_nbi;  // fetch_inc_nbi results on the left neighbour's counter
    int adds = 0;
};

// One thread: puts its region to the right neighbour interleaved with AMOs,
// quiets, reads the region back and the left neighbour's source.
void puts_gets_amos(const ThreadOps& ops, int t, ThreadRecord& r, unsigned char* dst, const unsigned char* src,
                    long* counters) {
    const std::vector<unsigned char> mine = region_pattern(me(), t);  // unchanged until the quiet (nbi)
    unsigned char* remote = dst + t * kRegion;
    r.fetched_nbi.assign(kAmoIters / 4, -1);
    std::size_t offset = 0;
    for (int step = 0; offset < kRegion || step < kAmoIters; ++step) {
        if (offset < kRegion) {
            const std::size_t n = std::min(kChunks[step % std::size(kChunks)], kRegion - offset);
            if (step % 3 == 0)
                ops.putmem_nbi(remote + offset, mine.data() + offset, n, right());
            else
                ops.putmem(remote + offset, mine.data() + offset, n, right());
            offset += n;
            ops.add(&counters[0], 1, right());
            ++r.adds;
        }
        if (step < kAmoIters) {
            r.fetched.push_back(ops.fetch_add(&g_counter, 1, 0));
            if (step % 4 == 0) ops.fetch_inc_nbi(&r.fetched_nbi[step / 4], &counters[1], left());
        }
    }
    ops.quiet();
    // This thread's quiet completed its puts: read them back (half
    // blocking, half nbi + quiet).
    std::vector<unsigned char> back(kRegion, kSentinelByte);
    ops.getmem(back.data(), remote, kRegion / 2, right());
    ops.getmem_nbi(back.data() + kRegion / 2, remote + kRegion / 2, kRegion - kRegion / 2, right());
    ops.quiet();
    r.read_back.check(back.data(), me(), t);
    // The left neighbour's source, written before the barrier.
    std::vector<unsigned char> theirs(kRegion, kSentinelByte);
    for (std::size_t off = 0, k = 0; off < kRegion; ++k) {
        const std::size_t n = std::min(kChunks[k % std::size(kChunks)] * 3, kRegion - off);
        ops.getmem(theirs.data() + off, src + t * kRegion + off, n, left());
        off += n;
    }
    r.left_source.check(theirs.data(), left(), t);
}

// kThreads threads run puts_gets_amos at once, on the default context or
// each on its own private context; then every byte and counter is checked.
void every_thread_puts_gets_amos(bool private_contexts) {
    const std::size_t bytes = kThreads * kRegion;
    auto* dst = static_cast<unsigned char*>(shmem_malloc(bytes));
    auto* src = static_cast<unsigned char*>(shmem_malloc(bytes));
    auto* counters = static_cast<long*>(shmem_malloc(2 * sizeof(long)));  // [0] add target, [1] fetch_inc_nbi target
    ASSERT_TRUE(all_pes(dst && src && counters));
    std::memset(dst, kSentinelByte, bytes);
    for (int t = 0; t < kThreads; ++t)
        for (std::size_t i = 0; i < kRegion; ++i) src[t * kRegion + i] = byte_of(me(), t, i);
    atomic_zero(&counters[0]);
    atomic_zero(&counters[1]);
    atomic_zero(&g_counter);
    shmem_barrier_all();

    std::vector<ThreadRecord> records(kThreads);
    run_threads([&](int t) {
        const ThreadOps ops(private_contexts);
        records[t].create_rc = ops.create_rc();
        records[t].usable = ops.usable();
        if (ops.usable()) puts_gets_amos(ops, t, records[t], dst, src, counters);
    });
    // A thread without a context did nothing: the checks below fail for it
    // on this PE and its neighbours (no PE waits for it).
    for (int t = 0; t < kThreads; ++t)
        EXPECT_TRUE(records[t].usable) << "PE " << me() << " thread " << t << ": shmem_ctx_create(SHMEM_CTX_PRIVATE) "
                                       << "returned " << records[t].create_rc;

    long fetch_inc_total = 0;
    for (int t = 0; t < kThreads; ++t) {
        const ThreadRecord& r = records[t];
        EXPECT_TRUE(Clean(r.read_back, "its region read back from the right neighbour after its quiet", t));
        EXPECT_TRUE(Clean(r.left_source, "the left neighbour's source", t));
        EXPECT_EQ(r.fetched.size(), std::size_t(kAmoIters));
        // One thread's fetch_adds are ordered: each returns more than the last.
        for (std::size_t k = 1; k < r.fetched.size(); ++k)
            if (r.fetched[k] <= r.fetched[k - 1]) {
                ADD_FAILURE() << "PE " << me() << " thread " << t << ": fetch_add " << k << " returned " << r.fetched[k]
                              << " after " << r.fetched[k - 1];
                break;
            }
        fetch_inc_total += long(r.fetched_nbi.size());
    }
    // This PE's threads are the only ones incrementing counters[1] on the
    // left neighbour: together they fetched 0..fetch_inc_total-1, once each.
    std::vector<long> nbi;
    for (const ThreadRecord& r : records) nbi.insert(nbi.end(), r.fetched_nbi.begin(), r.fetched_nbi.end());
    std::sort(nbi.begin(), nbi.end());
    for (long k = 0; k < long(nbi.size()); ++k)
        if (nbi[k] != k) {
            ADD_FAILURE() << "PE " << me() << ": the sorted fetch_inc_nbi results have " << nbi[k] << " at " << k;
            break;
        }

    shmem_barrier_all();
    // Every byte of every thread's region, from the left neighbour.
    for (int t = 0; t < kThreads; ++t) {
        Mismatch m;
        m.check(dst + t * kRegion, left(), t);
        EXPECT_TRUE(Clean(m, "the region the left neighbour's thread put here", t));
    }
    // counters[0] here took the left neighbour's atomic_adds (its threads
    // run the same loop as ours: as many adds), counters[1] the right
    // neighbour's fetch_inc_nbi's (as many as ours).
    long adds = 0;
    for (const ThreadRecord& r : records) adds += r.adds;
    EXPECT_EQ(atomic_read(&counters[0]), adds) << "PE " << me() << ": atomic_adds from the left PE";
    EXPECT_EQ(atomic_read(&counters[1]), fetch_inc_total) << "PE " << me() << ": fetch_inc_nbi's from the right PE";
    if (me() == 0)
        EXPECT_EQ(atomic_read(&g_counter), long(npes()) * kThreads * kAmoIters) << "fetch_adds on PE 0's counter";
    // Every PE's fetch_add results: together exactly 0..N-1, each once.
    std::vector<long> mine_all;
    for (const ThreadRecord& r : records) mine_all.insert(mine_all.end(), r.fetched.begin(), r.fetched.end());
    mine_all.resize(std::size_t(kThreads) * kAmoIters, -1);
    std::vector<long> all(mine_all.size() * std::size_t(npes()));
    MPI_Allgather(mine_all.data(), int(mine_all.size()), MPI_LONG, all.data(), int(mine_all.size()), MPI_LONG,
                  MPI_COMM_WORLD);
    std::sort(all.begin(), all.end());
    for (long k = 0; k < long(all.size()); ++k)
        if (all[k] != k) {
            ADD_FAILURE() << "PE " << me() << ": the sorted fetch_add results of all PEs have " << all[k] << " at " << k
                          << " (an AMO lost or applied twice)";
            break;
        }
    shmem_free(counters);
    shmem_free(src);
    shmem_free(dst);
}

TEST(Threads, EveryThreadPutsGetsAndAmos) { every_thread_puts_gets_amos(false); }

// §9.5: each thread creates a SHMEM_CTX_PRIVATE context, works on it,
// completes with shmem_ctx_quiet and destroys it itself.
TEST(Threads, PrivateContextPerThread) { every_thread_puts_gets_amos(true); }

TEST(Threads, BlockedThreadDoesNotStopOthers) {
    auto* dst = static_cast<unsigned char*>(shmem_malloc(kThreads * kRegion));
    auto* flag = static_cast<long*>(shmem_malloc(sizeof(long)));
    ASSERT_TRUE(all_pes(dst && flag));
    std::memset(dst, kSentinelByte, kThreads * kRegion);
    atomic_zero(flag);
    shmem_barrier_all();

    std::vector<Mismatch> seen(kThreads);
    run_threads([&](int t) {
        if (t == 0) {
            // Blocks until every other thread of the left neighbour is done.
            shmem_long_wait_until(flag, SHMEM_CMP_EQ, kThreads - 1);
            for (int u = 1; u < kThreads; ++u) seen[u].check(dst + u * kRegion, left(), u);
            return;
        }
        const std::vector<unsigned char> mine = region_pattern(me(), t);
        for (std::size_t off = 0, k = 0; off < kRegion; ++k) {
            const std::size_t n = std::min(kChunks[(k + t) % std::size(kChunks)], kRegion - off);
            if (k % 2)
                shmem_putmem_nbi(dst + t * kRegion + off, mine.data() + off, n, right());
            else
                shmem_putmem(dst + t * kRegion + off, mine.data() + off, n, right());
            off += n;
        }
        shmem_quiet();                            // this thread's puts are complete...
        shmem_long_atomic_add(flag, 1, right());  // ...before its part of the flag
    });
    for (int u = 1; u < kThreads; ++u)
        EXPECT_TRUE(Clean(seen[u], "a region whose thread had quieted before raising the flag", u));
    shmem_barrier_all();
    EXPECT_EQ(atomic_read(flag), kThreads - 1);
    shmem_free(flag);
    shmem_free(dst);
}

}  // namespace
