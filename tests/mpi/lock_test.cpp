// tests/mpi/lock_test.cpp -- §9.13 distributed locks: shmem_set_lock,
// shmem_test_lock, shmem_clear_lock, on a global (static) long and on a
// heap long:
//  - mutual exclusion: a counter that is NOT updated atomically (get,
//    increment, put, quiet inside the lock) and incremented 10 000 times by
//    every PE (global lock; 1 000 with a heap lock, and when the node has
//    fewer cores than PEs) ends exactly at n times that, on both paths and
//    every MPI; an occupancy count (atomic
//    fetch_inc on entry, decrement on exit) never sees a second holder;
//  - test_lock returns 0 when it takes a free lock and 1, without waiting,
//    while another PE holds it (taken with set_lock or test_lock);
//  - set_lock waits while another PE holds the lock, and then sees what the
//    holder stored before clear_lock;
//  - first-come, first-served: PEs that call set_lock 100 ms apart get the
//    lock in that order;
//  - two locks are independent.
// A test_lock that wrongly succeeds is undone (clear_lock), so that one
// failure does not leave the lock held and hang the rest.
#include <chrono>
#include <thread>

#include "shmem_test.hpp"

namespace {

using namespace gasket_test;

long g_lock;        // a lock in the data segment
long g_lock2;       // a second one
long g_counter;     // a protected counter (the copy on its home PE counts)
long g_inside;      // occupancy of the critical section (on PE 0)
long g_overlaps;    // entries that found another PE inside (on PE 0)
long g_released;    // stored by the holder just before it releases
long g_ticket;      // FIFO test: next position (on PE 0)
long g_order[256];  // FIFO test: position -> PE (on PE 0)

constexpr int kIters = 10000;     // critical sections per PE, global lock
constexpr int kHeapIters = 1000;  // heap lock (same code; kept short)

// Critical sections per PE for the global lock: kIters when every PE has
// a core, else kHeapIters.  Oversubscribed, a FIFO lock hands over to a
// PE that may not be running, so each handover can cost a time slice (4
// PEs on 2 cores under MPICH: about 1 ms each), not a fault of the lock.
int global_iters() {
    const unsigned cores = std::thread::hardware_concurrency();
    return cores == 0 || unsigned(npes()) <= cores ? kIters : kHeapIters;
}

// Allocates one zeroed symmetric long per PE (a lock must be 0 before first
// use), or reports and returns nullptr on every PE.
long* heap_long() {
    long* p = static_cast<long*>(shmem_calloc(1, sizeof(long)));
    if (!all_pes(p != nullptr)) {
        ADD_FAILURE() << "shmem_calloc returned NULL";
        shmem_free(p);
        return nullptr;
    }
    return p;
}

// `iters` times: take the lock, read the counter on `home`, add one, write
// it back, complete the write, release.  The occupancy count on PE 0 must
// be 0 on every entry.
void counter_test(long* lock, long* counter, int home, int iters) {
    *counter = 0;
    g_inside = 0;
    g_overlaps = 0;
    shmem_barrier_all();
    for (int i = 0; i < iters; ++i) {
        shmem_set_lock(lock);
        if (shmem_long_atomic_fetch_inc(&g_inside, 0) != 0) shmem_long_atomic_inc(&g_overlaps, 0);
        const long v = shmem_long_g(counter, home);
        if (i % 4 == 0) std::this_thread::yield();  // widen the window a broken lock would leave open
        shmem_long_p(counter, v + 1, home);
        shmem_quiet();
        shmem_long_atomic_add(&g_inside, -1, 0);
        shmem_clear_lock(lock);  // completes the put and the AMOs first
    }
    shmem_barrier_all();
    if (me() == home) EXPECT_EQ(*counter, long(npes()) * iters) << "the lock-protected counter on PE " << home;
    if (me() == 0) {
        EXPECT_EQ(g_overlaps, 0) << "entries into the critical section while another PE was inside";
        EXPECT_EQ(g_inside, 0);
    }
    shmem_barrier_all();
}

TEST(Lock, CounterGlobalLockCounterOnPe0) { counter_test(&g_lock, &g_counter, 0, global_iters()); }

TEST(Lock, CounterHeapLockCounterOnLastPe) {
    long* lock = heap_long();
    long* counter = heap_long();
    if (lock && counter) counter_test(lock, counter, npes() - 1, kHeapIters);
    shmem_free(counter);
    shmem_free(lock);
}

// Each PE in turn takes the lock (with test_lock, then with set_lock);
// meanwhile every other PE's test_lock returns 1; after clear_lock the
// lock is free again.
void test_lock_semantics(long* lock) {
    for (int holder = 0; holder < npes(); ++holder)
        for (bool by_set : {false, true}) {
            const char* how = by_set ? "shmem_set_lock" : "shmem_test_lock";
            if (me() == holder) {
                if (by_set)
                    shmem_set_lock(lock);
                else
                    EXPECT_EQ(shmem_test_lock(lock), 0) << "test_lock on a free lock";
            }
            shmem_barrier_all();
            if (me() != holder) {
                const int r = shmem_test_lock(lock);
                EXPECT_EQ(r, 1) << "test_lock while PE " << holder << " holds the lock (taken with " << how << ")";
                if (r == 0) shmem_clear_lock(lock);  // undo a wrong success
            }
            shmem_barrier_all();
            if (me() == holder) shmem_clear_lock(lock);
            shmem_barrier_all();
        }
    // Free at the end: every PE takes it once more, in turn.
    for (int pe = 0; pe < npes(); ++pe) {
        if (me() == pe) {
            const int r = shmem_test_lock(lock);
            EXPECT_EQ(r, 0) << "test_lock on the lock every PE released";
            if (r == 0) shmem_clear_lock(lock);
        }
        shmem_barrier_all();
    }
}

TEST(Lock, TestLockGlobal) { test_lock_semantics(&g_lock); }

TEST(Lock, TestLockHeap) {
    if (long* lock = heap_long()) {
        test_lock_semantics(lock);
        shmem_free(lock);
    }
}

// `holder` takes the lock; every other PE then blocks in set_lock; the
// holder waits 100 ms, stores 1 into every PE's g_released, releases.  Each
// waiter, once it has the lock, must see g_released == 1.
void set_lock_waits(long* lock, int holder) {
    g_released = 0;
    if (me() == holder) shmem_set_lock(lock);
    shmem_barrier_all();
    if (me() == holder) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        for (int pe = 0; pe < npes(); ++pe) shmem_long_p(&g_released, 1, pe);
        shmem_clear_lock(lock);  // quiet first: the stores are complete
    } else {
        shmem_set_lock(lock);
        EXPECT_EQ(g_released, 1) << "set_lock returned before PE " << holder << " released the lock";
        shmem_clear_lock(lock);
    }
    shmem_barrier_all();
}

TEST(Lock, SetLockWaitsForHolder) {
    set_lock_waits(&g_lock, 0);
    if (long* lock = heap_long()) {
        set_lock_waits(lock, npes() - 1);
        shmem_free(lock);
    }
}

// PE 0 holds the lock; PEs 1..n-1 call set_lock at 100 ms intervals (PE k
// after k * 100 ms); PE 0 releases once all have asked.  Each takes a
// position on PE 0 when it gets the lock: the positions follow the PEs.
TEST(Lock, FirstComeFirstServed) {
    const int n = npes();
    if (!all_pes(n <= 256)) GTEST_SKIP() << "more than 256 PEs";
    g_ticket = 0;
    std::fill(std::begin(g_order), std::end(g_order), -1L);
    if (me() == 0) shmem_set_lock(&g_lock);
    shmem_barrier_all();
    if (me() == 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100 * n + 100));
        shmem_clear_lock(&g_lock);
    } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(100 * me()));
        shmem_set_lock(&g_lock);
        const long pos = shmem_long_atomic_fetch_inc(&g_ticket, 0);
        if (pos >= 0 && pos < 256) shmem_long_p(&g_order[pos], me(), 0);
        shmem_clear_lock(&g_lock);
    }
    shmem_barrier_all();
    if (me() == 0) {
        EXPECT_EQ(g_ticket, n - 1);
        for (int k = 0; k + 1 < n; ++k)
            EXPECT_EQ(g_order[k], k + 1) << "position " << k << " (PE " << k + 1 << " asked " << k + 1
                                         << "th, 100 ms after the PE before it)";
    }
    shmem_barrier_all();
}

// Holding one lock does not hold another.
TEST(Lock, TwoLocksIndependent) {
    const int other = npes() - 1;
    if (me() == 0) shmem_set_lock(&g_lock);
    shmem_barrier_all();
    if (me() == other && other != 0) {
        const int r = shmem_test_lock(&g_lock2);
        EXPECT_EQ(r, 0) << "test_lock on a second lock while PE 0 holds the first";
        if (r == 0) shmem_clear_lock(&g_lock2);
    }
    shmem_barrier_all();
    if (me() == 0) {
        const int r = shmem_test_lock(&g_lock2);
        EXPECT_EQ(r, 0) << "test_lock on a second lock by the holder of the first";
        if (r == 0) shmem_clear_lock(&g_lock2);
        shmem_clear_lock(&g_lock);
    }
    shmem_barrier_all();
}

}  // namespace
