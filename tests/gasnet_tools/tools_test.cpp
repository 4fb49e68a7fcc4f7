// tests/gasnet_tools/tools_test.cpp -- the GASNet tools (gasnet_tools.h), one
// process: results against std::chrono, sysconf, gethostname and serial
// references; threads for the atomics and locks; death tests for the fatal
// errors (each message names the call and the bad value).
#include <gasnet_tools.h>

#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 4;

template <class F>
void on_threads(F f) {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) threads.emplace_back(f, t);
    for (auto& th : threads) th.join();
}

// ---- Timers and sleep -------------------------------------------------
TEST(GasnetTools, TicksAreMonotonicNanoseconds) {
    gasnett_tick_t last = gasnett_ticks_now();
    for (int i = 0; i < 100000; i++) {
        const gasnett_tick_t now = gasnett_ticks_now();
        ASSERT_GE(now, last);
        last = now;
    }
    // A 50 ms sleep, timed inside a std::chrono::steady_clock interval.
    const auto c0 = std::chrono::steady_clock::now();
    const gasnett_tick_t t0 = gasnett_ticks_now();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const gasnett_tick_t t1 = gasnett_ticks_now();
    const auto c1 = std::chrono::steady_clock::now();
    const auto chrono_ns = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(c1 - c0).count());
    EXPECT_GE(gasnett_ticks_to_ns(t1 - t0), 50000000u);
    EXPECT_LE(gasnett_ticks_to_ns(t1 - t0), chrono_ns);
    EXPECT_EQ(gasnett_ticks_to_us(t1 - t0), gasnett_ticks_to_ns(t1 - t0) / 1000);
    EXPECT_LT(GASNETT_TICK_MIN, GASNETT_TICK_MAX);
    EXPECT_EQ(GASNETT_TICK_MAX, UINT64_MAX);
}

TEST(GasnetTools, GranularityAndOverheadAreMicroseconds) {
    const double g = gasnett_tick_granularityus(), o = gasnett_tick_overheadus();
    EXPECT_GT(g, 0.0);
    EXPECT_LT(g, 10.0);  // CLOCK_MONOTONIC resolves far below 10 us
    EXPECT_GT(o, 0.0);
    EXPECT_LT(o, 10.0);
    EXPECT_EQ(g, gasnett_tick_granularityus());  // measured once
}

TEST(GasnetTools, NsleepSleepsAtLeastTheDelay) {
    EXPECT_EQ(gasnett_nsleep(0), 0);
    const auto c0 = std::chrono::steady_clock::now();
    EXPECT_EQ(gasnett_nsleep(20000000), 0);
    EXPECT_GE(std::chrono::steady_clock::now() - c0, std::chrono::milliseconds(20));
}

void on_usr1(int) {}

TEST(GasnetTools, NsleepReturnsEintrWhenASignalArrives) {
    const gasnett_sighandlerfn_t old = gasnett_reghandler(SIGUSR1, on_usr1);
    EXPECT_EQ(gasnett_reghandler(SIGUSR1, on_usr1), &on_usr1);
    // Signals every 20 ms until the sleep ends, so one lands inside it even
    // when this thread is slow to reach gasnett_nsleep.
    const pthread_t self = pthread_self();
    std::atomic<bool> done{false};
    std::thread poker([&] {
        while (!done) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            if (!done) pthread_kill(self, SIGUSR1);
        }
    });
    const auto c0 = std::chrono::steady_clock::now();
    errno = 0;
    const int rc = gasnett_nsleep(5000000000ull);
    const int err = errno;
    done = true;
    poker.join();
    EXPECT_EQ(rc, -1);
    EXPECT_EQ(err, EINTR);
    EXPECT_LT(std::chrono::steady_clock::now() - c0, std::chrono::seconds(4));
    EXPECT_EQ(gasnett_reghandler(SIGUSR1, old), &on_usr1);
}

// ---- Atomics ----------------------------------------------------------
// One family's operations against plain arithmetic on V, from a random
// sequence (a serial reference), with every fence flag in turn.
#define SERIAL_REFERENCE(prefix, T, V, init)                                                    \
    TEST(GasnetToolsAtomics, prefix##_serial) {                                                 \
        const int flags[] = {GASNETT_ATOMIC_NONE,                                               \
                             GASNETT_ATOMIC_RMB_PRE,                                            \
                             GASNETT_ATOMIC_WMB_PRE,                                            \
                             GASNETT_ATOMIC_MB_PRE,                                             \
                             GASNETT_ATOMIC_RMB_POST,                                           \
                             GASNETT_ATOMIC_WMB_POST,                                           \
                             GASNETT_ATOMIC_MB_POST,                                            \
                             GASNETT_ATOMIC_RMB_POST_IF_TRUE,                                   \
                             GASNETT_ATOMIC_RMB_POST_IF_FALSE,                                  \
                             GASNETT_ATOMIC_REL | GASNETT_ATOMIC_ACQ};                          \
        T a = init(0);                                                                          \
        V ref = 0;                                                                              \
        std::mt19937_64 rng(42);                                                                \
        for (int i = 0; i < 20000; i++) {                                                       \
            const int f = flags[i % 10];                                                        \
            const V x = static_cast<V>(rng() % 4 == 0 ? rng() : rng() % 8);                     \
            switch (rng() % 9) {                                                                \
                case 0:                                                                         \
                    gasnett_##prefix##_set(&a, x, f);                                           \
                    ref = x;                                                                    \
                    break;                                                                      \
                case 1:                                                                         \
                    ASSERT_EQ(gasnett_##prefix##_add(&a, x, f), static_cast<V>(ref + x));       \
                    ref = static_cast<V>(ref + x);                                              \
                    break;                                                                      \
                case 2:                                                                         \
                    ASSERT_EQ(gasnett_##prefix##_subtract(&a, x, f), static_cast<V>(ref - x));  \
                    ref = static_cast<V>(ref - x);                                              \
                    break;                                                                      \
                case 3:                                                                         \
                    gasnett_##prefix##_increment(&a, f);                                        \
                    ref = static_cast<V>(ref + 1);                                              \
                    break;                                                                      \
                case 4:                                                                         \
                    gasnett_##prefix##_decrement(&a, f);                                        \
                    ref = static_cast<V>(ref - 1);                                              \
                    break;                                                                      \
                case 5:                                                                         \
                    ref = static_cast<V>(ref - 1);                                              \
                    ASSERT_EQ(gasnett_##prefix##_decrement_and_test(&a, f) != 0, ref == 0);     \
                    break;                                                                      \
                case 6: {                                                                       \
                    const V expect = rng() % 2 ? ref : x;                                       \
                    const bool hit = expect == ref;                                             \
                    ASSERT_EQ(gasnett_##prefix##_compare_and_swap(&a, expect, x, f) != 0, hit); \
                    if (hit) ref = x;                                                           \
                    break;                                                                      \
                }                                                                               \
                case 7:                                                                         \
                    ASSERT_EQ(gasnett_##prefix##_swap(&a, x, f), ref);                          \
                    ref = x;                                                                    \
                    break;                                                                      \
                default: break;                                                                 \
            }                                                                                   \
            ASSERT_EQ(gasnett_##prefix##_read(&a, f), ref);                                     \
        }                                                                                       \
    }
SERIAL_REFERENCE(atomic, gasnett_atomic_t, gasnett_atomic_val_t, gasnett_atomic_init)
SERIAL_REFERENCE(atomic32, gasnett_atomic32_t, uint32_t, gasnett_atomic32_init)
SERIAL_REFERENCE(atomic64, gasnett_atomic64_t, uint64_t, gasnett_atomic64_init)
SERIAL_REFERENCE(strongatomic, gasnett_strongatomic_t, gasnett_strongatomic_val_t, gasnett_strongatomic_init)
SERIAL_REFERENCE(strongatomic32, gasnett_strongatomic32_t, uint32_t, gasnett_strongatomic32_init)
SERIAL_REFERENCE(strongatomic64, gasnett_strongatomic64_t, uint64_t, gasnett_strongatomic64_init)

// Under 4 threads: increments, adds, subtracts, CAS loops and swaps
// leave exact counts; exactly one decrement_and_test sees zero.
#define THREADED(prefix, T, V, init)                                                              \
    TEST(GasnetToolsAtomics, prefix##_threads) {                                                  \
        constexpr int n = 50000;                                                                  \
        T inc = init(0), add = init(0), cas = init(0), dec = init(kThreads * n);                  \
        T token = init(1);                                                                        \
        std::atomic<int> zeros{0}, tokens{0};                                                     \
        on_threads([&](int) {                                                                     \
            for (int i = 0; i < n; i++) {                                                         \
                gasnett_##prefix##_increment(&inc, 0);                                            \
                gasnett_##prefix##_add(&add, 3, GASNETT_ATOMIC_REL);                              \
                gasnett_##prefix##_subtract(&add, 1, GASNETT_ATOMIC_ACQ);                         \
                V old;                                                                            \
                do old = gasnett_##prefix##_read(&cas, 0);                                        \
                while (!gasnett_##prefix##_compare_and_swap(&cas, old, static_cast<V>(old + 1),   \
                                                            GASNETT_ATOMIC_ACQ_IF_TRUE));         \
                if (gasnett_##prefix##_decrement_and_test(&dec, GASNETT_ATOMIC_MB_POST)) zeros++; \
                if (gasnett_##prefix##_swap(&token, 0, GASNETT_ATOMIC_ACQ) == 1) {                \
                    tokens++;                                                                     \
                    gasnett_##prefix##_set(&token, 1, GASNETT_ATOMIC_REL);                        \
                }                                                                                 \
            }                                                                                     \
        });                                                                                       \
        EXPECT_EQ(gasnett_##prefix##_read(&inc, 0), static_cast<V>(kThreads * n));                \
        EXPECT_EQ(gasnett_##prefix##_read(&add, 0), static_cast<V>(2 * kThreads * n));            \
        EXPECT_EQ(gasnett_##prefix##_read(&cas, 0), static_cast<V>(kThreads * n));                \
        EXPECT_EQ(gasnett_##prefix##_read(&dec, 0), static_cast<V>(0));                           \
        EXPECT_EQ(zeros.load(), 1);                                                               \
        EXPECT_GT(tokens.load(), 0);                                                              \
        EXPECT_EQ(gasnett_##prefix##_read(&token, 0), static_cast<V>(1));                         \
    }
THREADED(atomic, gasnett_atomic_t, gasnett_atomic_val_t, gasnett_atomic_init)
THREADED(atomic32, gasnett_atomic32_t, uint32_t, gasnett_atomic32_init)
THREADED(atomic64, gasnett_atomic64_t, uint64_t, gasnett_atomic64_init)
THREADED(strongatomic, gasnett_strongatomic_t, gasnett_strongatomic_val_t, gasnett_strongatomic_init)
THREADED(strongatomic32, gasnett_strongatomic32_t, uint32_t, gasnett_strongatomic32_init)
THREADED(strongatomic64, gasnett_strongatomic64_t, uint64_t, gasnett_strongatomic64_init)

TEST(GasnetToolsAtomics, RangeWrapsAndSigns) {
    EXPECT_EQ(GASNETT_ATOMIC_MAX, 0xFFFFFFFFu);
    EXPECT_EQ(GASNETT_ATOMIC_SIGNED_MIN, INT32_MIN);
    EXPECT_EQ(GASNETT_ATOMIC_SIGNED_MAX, INT32_MAX);
    gasnett_atomic_t a = gasnett_atomic_init(-1);  // wrapped, not clipped
    EXPECT_EQ(gasnett_atomic_read(&a, 0), GASNETT_ATOMIC_MAX);
    EXPECT_EQ(gasnett_atomic_signed(gasnett_atomic_read(&a, 0)), -1);
    EXPECT_EQ(gasnett_atomic_add(&a, 2, 0), 1u);
    EXPECT_TRUE(gasnett_atomic_compare_and_swap(&a, static_cast<gasnett_atomic_val_t>(-1 + 2),
                                                static_cast<gasnett_atomic_val_t>(-5), 0));
    EXPECT_EQ(gasnett_atomic_signed(gasnett_atomic_read(&a, 0)), -5);
    EXPECT_EQ(sizeof(gasnett_atomic32_t), 4u);
    EXPECT_EQ(sizeof(gasnett_atomic64_t), 8u);
    EXPECT_EQ(sizeof(gasnett_strongatomic64_t), 8u);
}

TEST(GasnetToolsAtomics, FixedWidthOnOtherScalarTypes) {
    int64_t i64 = 40;
    EXPECT_EQ(gasnett_atomic64_add(reinterpret_cast<gasnett_atomic64_t*>(&i64), 2, 0), 42u);
    EXPECT_EQ(i64, 42);
    union {
        float f;
        uint32_t u;
    } x;
    x.f = 1.0f;
    const uint32_t bits = x.u;
    EXPECT_EQ(gasnett_atomic32_swap(reinterpret_cast<gasnett_atomic32_t*>(&x), 0, 0), bits);
    EXPECT_EQ(x.u, 0u);
}

// ---- Memory barriers: a message passed with release/acquire fences -----
TEST(GasnetTools, BarriersPublishData) {
    for (int round = 0; round < 200; round++) {
        int data[16] = {};
        gasnett_atomic_t flag = gasnett_atomic_init(0);
        std::thread writer([&] {
            for (int i = 0; i < 16; i++) data[i] = round + i;
            gasnett_local_wmb();
            gasnett_atomic_set(&flag, 1, 0);
        });
        while (gasnett_atomic_read(&flag, 0) == 0) gasnett_spinloop_hint();
        gasnett_local_rmb();
        for (int i = 0; i < 16; i++) ASSERT_EQ(data[i], round + i);
        writer.join();
        gasnett_local_mb();
        gasnett_weak_mb();
        gasnett_compiler_fence();
    }
}

// ---- Mutexes, condition variables, rwlocks -----------------------------
TEST(GasnetToolsLocks, MutexExcludes) {
    static gasnett_mutex_t m = GASNETT_MUTEX_INITIALIZER;
    long counter = 0;  // plain: only the mutex protects it
    int inside = 0;
    bool overlap = false;
    on_threads([&](int) {
        for (int i = 0; i < 100000; i++) {
            if (i % 2)
                gasnett_mutex_lock(&m);
            else
                while (gasnett_mutex_trylock(&m) != 0) gasnett_sched_yield();
            gasnett_mutex_assertlocked(&m);
            if (++inside != 1) overlap = true;
            counter++;
            --inside;
            gasnett_mutex_unlock(&m);
            gasnett_mutex_assertunlocked(&m);
        }
    });
    EXPECT_EQ(counter, 400000);
    EXPECT_FALSE(overlap);
}

TEST(GasnetToolsLocks, TrylockIsBusyWhileAnotherThreadHolds) {
    gasnett_mutex_t m;
    gasnett_mutex_init(&m);
    gasnett_mutex_lock(&m);
    int rc = -1;
    std::thread([&] {
        rc = gasnett_mutex_trylock(&m);
        gasnett_mutex_assertunlocked(&m);  // held, but not by this thread
    }).join();
    EXPECT_EQ(rc, EBUSY);
    gasnett_mutex_unlock(&m);
    EXPECT_NE(gasnett_mutex_destroy_ignoreerr(&m), -1);
}

TEST(GasnetToolsLocks, CondWaitSeesTheSignalledCondition) {
    gasnett_mutex_t m = GASNETT_MUTEX_INITIALIZER;
    gasnett_cond_t c;
    gasnett_cond_init(&c);
    int stage = 0;
    std::thread consumer([&] {
        gasnett_mutex_lock(&m);
        while (stage == 0) gasnett_cond_wait(&c, &m);
        gasnett_mutex_assertlocked(&m);  // reacquired
        stage = 2;
        gasnett_cond_broadcast(&c);
        gasnett_mutex_unlock(&m);
    });
    gasnett_mutex_lock(&m);
    stage = 1;
    gasnett_cond_signal(&c);
    while (stage != 2) gasnett_cond_wait(&c, &m);
    gasnett_mutex_unlock(&m);
    consumer.join();
    EXPECT_EQ(stage, 2);
    gasnett_cond_destroy(&c);
    gasnett_mutex_destroy(&m);
}

TEST(GasnetToolsLocks, RwlockExcludesWritersAndSharesReaders) {
    static gasnett_rwlock_t l = GASNETT_RWLOCK_INITIALIZER;
    long a = 0, b = 0;  // writers keep a == b
    std::atomic<bool> torn{false};
    on_threads([&](int t) {
        for (int i = 0; i < 20000; i++) {
            if ((i + t) % 4 == 0) {
                gasnett_rwlock_wrlock(&l);
                a++;
                b++;
                gasnett_rwlock_unlock(&l);
            } else {
                gasnett_rwlock_rdlock(&l);
                if (a != b) torn = true;
                gasnett_rwlock_unlock(&l);
            }
        }
    });
    EXPECT_FALSE(torn.load());
    EXPECT_EQ(a, 4 * 5000);
    EXPECT_EQ(b, a);
    // Two readers at once; a writer is refused meanwhile.
    gasnett_rwlock_rdlock(&l);
    int rd = -1, wr = -1;
    std::thread([&] {
        rd = gasnett_rwlock_tryrdlock(&l);
        wr = gasnett_rwlock_trywrlock(&l);
        if (rd == 0) gasnett_rwlock_unlock(&l);
    }).join();
    gasnett_rwlock_unlock(&l);
    EXPECT_EQ(rd, 0);
    EXPECT_TRUE(wr == EBUSY || wr == EAGAIN);
    EXPECT_EQ(gasnett_rwlock_trywrlock(&l), 0);
    gasnett_rwlock_unlock(&l);
}

TEST(GasnetToolsLocks, RwlockInitializerIsPthreads) {
    // GASNETT_RWLOCK_INITIALIZER is all-zero storage: it must equal
    // PTHREAD_RWLOCK_INITIALIZER's bytes.
    const pthread_rwlock_t init = PTHREAD_RWLOCK_INITIALIZER;
    const unsigned char zero[sizeof init] = {};
    EXPECT_EQ(std::memcmp(&init, zero, sizeof init), 0);
    EXPECT_LE(sizeof(pthread_rwlock_t), sizeof(gasnett_rwlock_t));
}

class GasnetToolsDeath : public ::testing::Test {
protected:
    void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

void lock_twice() {
    gasnett_mutex_t m = GASNETT_MUTEX_INITIALIZER;
    gasnett_mutex_lock(&m);
    gasnett_mutex_lock(&m);
}
void unlock_unheld() {
    gasnett_mutex_t m = GASNETT_MUTEX_INITIALIZER;
    gasnett_mutex_unlock(&m);
}
void assert_unheld_locked() {
    gasnett_mutex_t m = GASNETT_MUTEX_INITIALIZER;
    gasnett_mutex_assertlocked(&m);
}
void wrlock_twice() {
    gasnett_rwlock_t l = GASNETT_RWLOCK_INITIALIZER;
    gasnett_rwlock_wrlock(&l);
    gasnett_rwlock_wrlock(&l);
}

TEST_F(GasnetToolsDeath, RecursiveMutexLockIsFatal) {
    EXPECT_DEATH(lock_twice(), "gasnett: gasnett_mutex_lock: recursive lock");
}

TEST_F(GasnetToolsDeath, UnlockOfAMutexNotHeldIsFatal) {
    EXPECT_DEATH(unlock_unheld(), "gasnett: gasnett_mutex_unlock: the calling thread does not hold the mutex");
    EXPECT_DEATH(assert_unheld_locked(), "gasnett_mutex_assertlocked: the calling thread does not hold the mutex");
}

TEST_F(GasnetToolsDeath, RecursiveWriteLockIsFatal) {
    EXPECT_DEATH(wrlock_twice(), "gasnett: gasnett_rwlock_wrlock: Resource deadlock avoided");
}

// ---- Thread-specific data ----------------------------------------------
GASNETT_THREADKEY_DECLARE(test_key);
GASNETT_THREADKEY_DEFINE(test_key);

TEST(GasnetTools, ThreadKeysArePerThread) {
    int slots[kThreads];
    std::atomic<int> wrong{0};
    gasnett_threadkey_set(test_key, nullptr);
    on_threads([&](int t) {
        if (gasnett_threadkey_get(test_key) != nullptr) wrong++;  // starts empty in each thread
        gasnett_threadkey_init(test_key);
        gasnett_threadkey_set_noinit(test_key, &slots[t]);
        for (int i = 0; i < 1000; i++) {
            gasnett_sched_yield();
            if (gasnett_threadkey_get_noinit(test_key) != &slots[t]) wrong++;
        }
    });
    EXPECT_EQ(wrong.load(), 0);
    EXPECT_EQ(gasnett_threadkey_get(test_key), nullptr);
}

// ---- Environment utilities ---------------------------------------------
TEST(GasnetToolsEnv, SetGetUnset) {
    gasnett_setenv("GASKET_TT_VAR", "hello");
    EXPECT_STREQ(gasnett_getenv("GASKET_TT_VAR"), "hello");
    EXPECT_STREQ(std::getenv("GASKET_TT_VAR"), "hello");
    EXPECT_STREQ(gasnett_getenv_withdefault("GASKET_TT_VAR", "dflt"), "hello");
    gasnett_unsetenv("GASKET_TT_VAR");
    EXPECT_EQ(gasnett_getenv("GASKET_TT_VAR"), nullptr);
    EXPECT_STREQ(gasnett_getenv_withdefault("GASKET_TT_VAR", "dflt"), "dflt");
}

TEST(GasnetToolsEnv, YesNo) {
    for (const char* yes : {"Y", "YES", "y", "yes", "1", "Yes"}) {
        gasnett_setenv("GASKET_TT_YN", yes);
        EXPECT_EQ(gasnett_getenv_yesno_withdefault("GASKET_TT_YN", 0), 1) << yes;
    }
    for (const char* no : {"N", "NO", "n", "no", "0"}) {
        gasnett_setenv("GASKET_TT_YN", no);
        EXPECT_EQ(gasnett_getenv_yesno_withdefault("GASKET_TT_YN", 1), 0) << no;
    }
    gasnett_unsetenv("GASKET_TT_YN");
    EXPECT_EQ(gasnett_getenv_yesno_withdefault("GASKET_TT_YN", 1), 1);
    EXPECT_EQ(gasnett_getenv_yesno_withdefault("GASKET_TT_YN", 0), 0);
}

TEST(GasnetToolsEnv, ParseIntAndFormatNumber) {
    EXPECT_EQ(gasnett_parse_int("42", 0), 42);
    EXPECT_EQ(gasnett_parse_int("-42", 0), -42);
    EXPECT_EQ(gasnett_parse_int("0x1F", 0), 31);
    EXPECT_EQ(gasnett_parse_int("010", 0), 10);  // decimal, not octal
    EXPECT_EQ(gasnett_parse_int("9223372036854775807", 0), INT64_MAX);
    EXPECT_EQ(gasnett_parse_int("2", 1024), 2048);  // the default unit
    EXPECT_EQ(gasnett_parse_int("2", 1), 2);
    EXPECT_EQ(gasnett_parse_int("1.5K", 1), 1536);
    EXPECT_EQ(gasnett_parse_int("1.5kb", 1), 1536);
    EXPECT_EQ(gasnett_parse_int("3MB", 1), 3 << 20);
    EXPECT_EQ(gasnett_parse_int("2G", 1), int64_t{2} << 30);
    EXPECT_EQ(gasnett_parse_int("1TB", 1), int64_t{1} << 40);
    EXPECT_EQ(gasnett_parse_int("100B", 1024), 100);
    char buf[32];
    EXPECT_STREQ(gasnett_format_number(123456, buf, sizeof buf, 0), "123456");
    EXPECT_STREQ(gasnett_format_number(-7, buf, sizeof buf, 0), "-7");
    EXPECT_STREQ(gasnett_format_number(1536, buf, sizeof buf, 1), "1536B");
    EXPECT_STREQ(gasnett_format_number(1536 * 1024, buf, sizeof buf, 1), "1536KB");
    EXPECT_STREQ(gasnett_format_number(int64_t{3} << 30, buf, sizeof buf, 1), "3GB");
    for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{1000}, int64_t{4096}, int64_t{5} << 20, int64_t{7} << 40,
                      int64_t{-1024}, INT64_MAX}) {
        EXPECT_EQ(gasnett_parse_int(gasnett_format_number(v, buf, sizeof buf, 1), 1), v) << buf;
        EXPECT_EQ(gasnett_parse_int(gasnett_format_number(v, buf, sizeof buf, 0), 0), v) << buf;
    }
}

TEST(GasnetToolsEnv, IntAndDoubleWithDefault) {
    gasnett_setenv("GASKET_TT_INT", "0x20");
    EXPECT_EQ(gasnett_getenv_int_withdefault("GASKET_TT_INT", 5, 0), 32);
    gasnett_setenv("GASKET_TT_INT", "4");
    EXPECT_EQ(gasnett_getenv_int_withdefault("GASKET_TT_INT", 5, 1024 * 1024), 4 << 20);
    gasnett_unsetenv("GASKET_TT_INT");
    EXPECT_EQ(gasnett_getenv_int_withdefault("GASKET_TT_INT", -5, 0), -5);
    gasnett_setenv("GASKET_TT_DBL", "3/8");
    EXPECT_DOUBLE_EQ(gasnett_getenv_dbl_withdefault("GASKET_TT_DBL", 1.0), 0.375);
    gasnett_setenv("GASKET_TT_DBL", "-1e4");
    EXPECT_DOUBLE_EQ(gasnett_getenv_dbl_withdefault("GASKET_TT_DBL", 1.0), -1e4);
    gasnett_unsetenv("GASKET_TT_DBL");
    EXPECT_DOUBLE_EQ(gasnett_getenv_dbl_withdefault("GASKET_TT_DBL", 2.5), 2.5);
}

TEST(GasnetToolsEnv, VerboseEnvReportsEachKeyOnce) {
    for (const char* v : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"}) unsetenv(v);
    gasnett_unsetenv("GASNET_VERBOSEENV");
    EXPECT_EQ(gasnett_verboseenv(), 0);
    testing::internal::CaptureStderr();
    gasnett_getenv_withdefault("GASKET_TT_QUIET", "x");
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    gasnett_setenv("GASNET_VERBOSEENV", "1");
    EXPECT_EQ(gasnett_verboseenv(), 1);
    gasnett_setenv("GASKET_TT_LOUD", "2M");
    testing::internal::CaptureStderr();
    EXPECT_EQ(gasnett_getenv_int_withdefault("GASKET_TT_LOUD", 0, 1), 2 << 20);
    EXPECT_EQ(gasnett_getenv_int_withdefault("GASKET_TT_LOUD", 0, 1), 2 << 20);
    gasnett_getenv_withdefault("GASKET_TT_UNSET", "dflt");
    const std::string out = testing::internal::GetCapturedStderr();
    EXPECT_EQ(out, "ENV parameter: GASKET_TT_LOUD = 2MB\nENV parameter: GASKET_TT_UNSET = dflt   (default)\n");
    setenv("PMI_RANK", "3", 1);  // under a launcher only rank 0 reports
    EXPECT_EQ(gasnett_verboseenv(), 0);
    unsetenv("PMI_RANK");
    gasnett_unsetenv("GASNET_VERBOSEENV");
    gasnett_unsetenv("GASKET_TT_LOUD");
}

TEST_F(GasnetToolsDeath, BadEnvironmentValuesAreFatalNamingKeyAndValue) {
    EXPECT_DEATH(
        {
            gasnett_setenv("GASKET_TT_BAD", "maybe");
            gasnett_getenv_yesno_withdefault("GASKET_TT_BAD", 0);
        },
        "gasnett_getenv_yesno_withdefault: GASKET_TT_BAD='maybe' is not yes or no");
    EXPECT_DEATH(
        {
            gasnett_setenv("GASKET_TT_BAD", "12abc");
            gasnett_getenv_int_withdefault("GASKET_TT_BAD", 0, 0);
        },
        "gasnett_getenv_int_withdefault: GASKET_TT_BAD='12abc' is not an integer");
    EXPECT_DEATH(
        {
            gasnett_setenv("GASKET_TT_BAD", "3QB");
            gasnett_getenv_int_withdefault("GASKET_TT_BAD", 0, 1);
        },
        "GASKET_TT_BAD='3QB' is not a memory size");
    EXPECT_DEATH(
        {
            gasnett_setenv("GASKET_TT_BAD", "1/0");
            gasnett_getenv_dbl_withdefault("GASKET_TT_BAD", 0);
        },
        "gasnett_getenv_dbl_withdefault: GASKET_TT_BAD='1/0' is not a number");
    EXPECT_DEATH(gasnett_parse_int("99999999999999999999", 0), "gasnett_parse_int: '99999999999999999999' is not");
    EXPECT_DEATH(gasnett_parse_int("16EB", 1), "gasnett_parse_int: '16EB' is not a memory size");
    EXPECT_DEATH(gasnett_setenv("A=B", "x"), "gasnett_setenv: bad arguments \\(key 'A=B'");
}

// ---- System properties ---------------------------------------------------
TEST(GasnetTools, SystemQueriesMatchTheSystem) {
    EXPECT_EQ(gasnett_cpu_count(), sysconf(_SC_NPROCESSORS_ONLN));
    EXPECT_EQ(gasnett_getPhysMemSz(1),
              static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)));
    char host[256] = {};
    ASSERT_EQ(gethostname(host, sizeof host - 1), 0);
    std::string lower(host);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_EQ(std::string(gasnett_gethostname()), lower);
    EXPECT_EQ(GASNETT_PAGESIZE, sysconf(_SC_PAGESIZE));
    EXPECT_EQ(1 << GASNETT_PAGESHIFT, GASNETT_PAGESIZE);
    const long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
    if (line > 0) EXPECT_GE(GASNETT_CACHE_LINE_BYTES, line);
    const std::string exe = gasnett_exe_name();
    EXPECT_EQ(exe.substr(exe.rfind('/') + 1), "gasnet-tools-test");
    EXPECT_EQ(gasnett_isLittleEndian(), __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? 1 : 0);
    EXPECT_NE(std::string(GASNETT_SYSTEM_TUPLE).find("linux"), std::string::npos);
    EXPECT_STREQ(gasnett_release_version_str(), "2026.11.0");
    EXPECT_EQ(gasnett_release_version(), 20261100u);
    EXPECT_STREQ(gasnett_performance_warning_str(), "");
    EXPECT_EQ(GASNETT_SPEC_VERSION_MAJOR, 1);
    EXPECT_EQ(GASNETT_SPEC_VERSION_MINOR, 20);
}

// ---- Miscellaneous tools -----------------------------------------------
TEST(GasnetTools, CountZerosAndChecksum) {
    std::mt19937 rng(7);
    std::vector<unsigned char> src(4099), dst(4099);
    for (auto& b : src) b = static_cast<unsigned char>(rng() % 3 == 0 ? 0 : rng());
    const auto zeros = static_cast<size_t>(std::count(src.begin(), src.end(), 0));
    EXPECT_EQ(gasnett_count0s(src.data(), src.size()), zeros);
    EXPECT_EQ(gasnett_count0s_copy(dst.data(), src.data(), src.size()), zeros);
    EXPECT_EQ(dst, src);
    EXPECT_EQ(gasnett_count0s_uint32_t(0x00FF00FFu), 2);
    EXPECT_EQ(gasnett_count0s_uint32_t(0u), 4);
    EXPECT_EQ(gasnett_count0s_uint64_t(0x0100000000000001ull), 6);
    EXPECT_EQ(gasnett_count0s_uintptr_t(~uintptr_t{0}), 0);
    EXPECT_EQ(gasnett_checksum(src.data(), 4099), gasnett_checksum(dst.data(), 4099));
    dst[100] ^= 1;
    EXPECT_NE(gasnett_checksum(src.data(), 4099), gasnett_checksum(dst.data(), 4099));
    EXPECT_EQ(gasnett_checksum(src.data(), 0), 0u);
}

TEST(GasnetTools, MaximizeRlimitRaisesTheSoftLimit) {
    rlimit lim;
    ASSERT_EQ(getrlimit(RLIMIT_CPU, &lim), 0);
    if (lim.rlim_max == 0) GTEST_SKIP() << "hard CPU limit 0";
    rlimit lower = lim;
    lower.rlim_cur = lim.rlim_max == RLIM_INFINITY ? 1000000 : lim.rlim_max - 1;
    ASSERT_EQ(setrlimit(RLIMIT_CPU, &lower), 0);
    gasnett_setenv("GASNET_MAXIMIZE_RLIMIT_CPU", "0");  // suppressed, still success
    EXPECT_NE(gasnett_maximize_rlimit(RLIMIT_CPU, "RLIMIT_CPU"), 0);
    rlimit now;
    ASSERT_EQ(getrlimit(RLIMIT_CPU, &now), 0);
    EXPECT_EQ(now.rlim_cur, lower.rlim_cur);
    gasnett_unsetenv("GASNET_MAXIMIZE_RLIMIT_CPU");
    EXPECT_NE(gasnett_maximize_rlimits(), 0);
    ASSERT_EQ(getrlimit(RLIMIT_CPU, &now), 0);
    EXPECT_EQ(now.rlim_cur, lim.rlim_max);
}

TEST(GasnetTools, BacktraceAndFreeze) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    EXPECT_EQ(gasnett_print_backtrace(fds[1]), 0);
    close(fds[1]);
    char buf[8192];
    const ssize_t n = read(fds[0], buf, sizeof buf - 1);
    close(fds[0]);
    ASSERT_GT(n, 0);
    EXPECT_NE(std::string(buf, static_cast<size_t>(n)).find("libgasket.so"), std::string::npos);
    volatile int frozen = 1;
    std::thread thaw([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        frozen = 0;
    });
    const auto c0 = std::chrono::steady_clock::now();
    testing::internal::CaptureStderr();
    gasnett_freezeForDebuggerNow(&frozen, "frozen");
    const std::string msg = testing::internal::GetCapturedStderr();
    thaw.join();
    EXPECT_GE(std::chrono::steady_clock::now() - c0, std::chrono::milliseconds(50));
    EXPECT_NE(msg.find("set frozen = 0"), std::string::npos) << msg;
    EXPECT_NE(gasnett_set_affinity(0), 0);  // not supported: GASNETT_SET_AFFINITY_SUPPORT undefined
#ifdef GASNETT_SET_AFFINITY_SUPPORT
    ADD_FAILURE() << "GASNETT_SET_AFFINITY_SUPPORT is defined";
#endif
}

TEST(GasnetTools, CurrentLocationNamesTheFunctionFileAndLine) {
    char* loc = gasnett_current_loc;
    const std::string text = loc;
    std::free(loc);
    EXPECT_NE(text.find("TestBody"), std::string::npos) << text;
    EXPECT_NE(text.find("tools_test.cpp:"), std::string::npos) << text;
    EXPECT_STREQ(GASNETT_CURRENT_FUNCTION, "TestBody");
}

TEST_F(GasnetToolsDeath, FatalErrorsAbortWithTheMessage) {
    EXPECT_DEATH(gasnett_fatalerror("bad value %d", 17),
                 "gasnett: FATAL ERROR in TestBody at .*tools_test.cpp:[0-9]+: bad value 17");
    EXPECT_DEATH(gasnett_fatalerror_nopos("plain %s", "text"), "gasnett: FATAL ERROR: plain text");
    EXPECT_DEATH(
        {
            gasnett_setenv("GASNET_BACKTRACE", "1");
            gasnett_fatalerror_nopos("with trace");
        },
        "with trace(.|\n)*libgasket.so");
    EXPECT_EXIT(gasnett_killmyprocess(7), testing::ExitedWithCode(7), "");
}

TEST(GasnetTools, AnnotationsAndArgumentEvaluation) {
    int evaluated = 0;
    GASNETT_UNUSED_ARGS3(evaluated++, evaluated++, evaluated++);
    EXPECT_EQ(evaluated, 3);
    EXPECT_EQ(GASNETT_PREDICT_TRUE(7), 1);
    EXPECT_EQ(GASNETT_PREDICT_FALSE(0), 0);
    EXPECT_EQ(gasnett_constant_p(3), 1);
    int taken = 0;
    if_pf(evaluated == 3) taken = 1;
    EXPECT_EQ(taken, 1);
    EXPECT_EQ(GASNETT_TRACE_ENABLED, 0);
    EXPECT_STREQ(GASNETT_TRACE_GETMASK(), "");
}

}  // namespace
