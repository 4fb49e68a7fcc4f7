/* tests/gasnet_tools/tools_c.c -- gasnet_tools.h from C (built as C99 and
 * C11, in both threading modes) and, compiled with -x c++, from C++98 to
 * C++20 (syntax only).  Run: every check prints what failed and the
 * program exits 1; "tools_c: PASS" and 0 otherwise.  It calls every
 * out-of-line function once (the fatal-error ones excepted: the death
 * tests of tools_test.cpp run them), so a name the library does not export
 * fails the link.  Built once with GASNET_DEBUG, where gasnett_assume
 * checks its condition. */
#include <gasnet_tools.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static int failures = 0;
#define CHECK(cond)                                                             \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "tools_c:%d: CHECK failed: %s\n", __LINE__, #cond); \
            failures++;                                                         \
        }                                                                       \
    } while (0)

GASNETT_IDENT(tools_c_ident, "$GasketToolsTest: tools_c $");
GASNETT_THREADKEY_DEFINE(tools_c_key);

GASNETT_INLINE(twice)
int twice(int x) { return 2 * x; }

GASNETT_NEVER_INLINE(thrice, int thrice(int x)) { return 3 * x; }

GASNETT_FORMAT_PRINTF(say, 1, 2, static int say(const char* fmt, ...));
static int say(const char* fmt, ...) { return fmt != 0; }

GASNETT_MALLOC static void* get_block(void) { return malloc(8); }
GASNETT_PURE static int pure_add(int a, int b) { return a + b; }
GASNETT_CONST static int const_mul(int a, int b) { return a * b; }
GASNETT_HOT static int hot_fn(void) { return 1; }
GASNETT_COLD static int cold_fn(void) { return 2; }
GASNETT_WARN_UNUSED_RESULT static int must_use(void) { return 3; }
GASNETT_USED static int used_fn(void) { return 4; }

static int fall(int k) {
    int r = 0;
    switch (k) {
        case 1: r += 1; GASNETT_FALLTHROUGH
        case 2: r += 2; break;
        default: break;
    }
    return r;
}

static int evaluated = 0;
static int bump(void) { return ++evaluated; }

/* One atomic family, serially: each operation's result against plain
 * arithmetic of type V. */
#define CHECK_FAMILY(prefix, T, V, init_macro)                                                                         \
    do {                                                                                                               \
        T a = init_macro(5);                                                                                           \
        V ref = 5;                                                                                                     \
        CHECK(gasnett_##prefix##_read(&a, 0) == ref);                                                                  \
        gasnett_##prefix##_set(&a, (V)-3, GASNETT_ATOMIC_REL);                                                         \
        ref = (V)-3;                                                                                                   \
        CHECK(gasnett_##prefix##_read(&a, GASNETT_ATOMIC_ACQ) == ref);                                                 \
        CHECK(gasnett_##prefix##_add(&a, 10, GASNETT_ATOMIC_MB_PRE) == (V)(ref + 10));                                 \
        ref = (V)(ref + 10);                                                                                           \
        CHECK(gasnett_##prefix##_subtract(&a, 20, GASNETT_ATOMIC_MB_POST) == (V)(ref - 20));                           \
        ref = (V)(ref - 20);                                                                                           \
        gasnett_##prefix##_increment(&a, 0);                                                                           \
        gasnett_##prefix##_decrement(&a, 0);                                                                           \
        gasnett_##prefix##_decrement(&a, 0);                                                                           \
        ref = (V)(ref - 1);                                                                                            \
        CHECK(gasnett_##prefix##_read(&a, 0) == ref);                                                                  \
        CHECK(gasnett_##prefix##_swap(&a, 1, 0) == ref);                                                               \
        CHECK(gasnett_##prefix##_decrement_and_test(&a, GASNETT_ATOMIC_ACQ_IF_TRUE) != 0);                             \
        CHECK(gasnett_##prefix##_decrement_and_test(&a, GASNETT_ATOMIC_ACQ_IF_FALSE) == 0);                            \
        CHECK(gasnett_##prefix##_read(&a, 0) == (V)-1);                                                                \
        CHECK(gasnett_##prefix##_compare_and_swap(&a, 7, 8, 0) == 0);                                                  \
        CHECK(gasnett_##prefix##_compare_and_swap(&a, (V)-1, 8, GASNETT_ATOMIC_MB_PRE | GASNETT_ATOMIC_MB_POST) != 0); \
        CHECK(gasnett_##prefix##_read(&a, 0) == 8);                                                                    \
    } while (0)

static void atomics(void) {
    CHECK_FAMILY(atomic, gasnett_atomic_t, gasnett_atomic_val_t, gasnett_atomic_init);
    CHECK_FAMILY(atomic32, gasnett_atomic32_t, uint32_t, gasnett_atomic32_init);
    CHECK_FAMILY(atomic64, gasnett_atomic64_t, uint64_t, gasnett_atomic64_init);
    CHECK_FAMILY(strongatomic, gasnett_strongatomic_t, gasnett_strongatomic_val_t, gasnett_strongatomic_init);
    CHECK_FAMILY(strongatomic32, gasnett_strongatomic32_t, uint32_t, gasnett_strongatomic32_init);
    CHECK_FAMILY(strongatomic64, gasnett_strongatomic64_t, uint64_t, gasnett_strongatomic64_init);
    {
        gasnett_atomic_t a = gasnett_atomic_init(0);
        gasnett_atomic_set(&a, (gasnett_atomic_val_t)GASNETT_ATOMIC_SIGNED_MIN, 0);
        CHECK(gasnett_atomic_signed(gasnett_atomic_read(&a, 0)) == GASNETT_ATOMIC_SIGNED_MIN);
        CHECK(gasnett_atomic_signed(gasnett_atomic_subtract(&a, 1, 0)) == GASNETT_ATOMIC_SIGNED_MAX);
        gasnett_atomic_set(&a, GASNETT_ATOMIC_MAX, 0);
        CHECK(gasnett_atomic_add(&a, 1, 0) == 0); /* wraps */
    }
    {
        union {
            double d;
            uint64_t u;
        } x;
        x.d = 1.5;
        gasnett_atomic64_set((gasnett_atomic64_t*)&x, 0, 0);
        CHECK(x.u == 0);
    }
}

static void locks(void) {
    static gasnett_mutex_t m = GASNETT_MUTEX_INITIALIZER;
    static gasnett_cond_t c = GASNETT_COND_INITIALIZER;
    static gasnett_rwlock_t rw = GASNETT_RWLOCK_INITIALIZER;
    gasnett_mutex_t m2;
    gasnett_cond_t c2;
    gasnett_rwlock_t rw2;
    gasnett_mutex_lock(&m);
    gasnett_mutex_assertlocked(&m);
    gasnett_cond_signal(&c);
    gasnett_cond_broadcast(&c);
    gasnett_mutex_unlock(&m);
    gasnett_mutex_assertunlocked(&m);
    CHECK(gasnett_mutex_trylock(&m) == 0);
    gasnett_mutex_unlock(&m);
    gasnett_mutex_init(&m2);
    gasnett_mutex_lock(&m2);
    gasnett_mutex_unlock(&m2);
    gasnett_mutex_destroy(&m2);
    CHECK(gasnett_mutex_destroy_ignoreerr(&m) == 0);
    gasnett_cond_init(&c2);
    gasnett_cond_destroy(&c2);
    gasnett_rwlock_rdlock(&rw);
    CHECK(gasnett_rwlock_tryrdlock(&rw) == 0);
    gasnett_rwlock_assertrdlocked(&rw);
    gasnett_rwlock_assertlocked(&rw);
    CHECK(gasnett_rwlock_trywrlock(&rw) != 0);
    gasnett_rwlock_unlock(&rw);
    gasnett_rwlock_unlock(&rw);
    gasnett_rwlock_assertunlocked(&rw);
    gasnett_rwlock_init(&rw2);
    gasnett_rwlock_wrlock(&rw2);
    gasnett_rwlock_assertwrlocked(&rw2);
    CHECK(gasnett_rwlock_tryrdlock(&rw2) != 0);
    gasnett_rwlock_unlock(&rw2);
    CHECK(gasnett_rwlock_trywrlock(&rw2) == 0);
    gasnett_rwlock_unlock(&rw2);
    gasnett_rwlock_destroy(&rw2);
}

static void environment(void) {
    char buf[32];
    gasnett_setenv("GASKET_TOOLS_C_X", "0x10");
    CHECK(strcmp(gasnett_getenv("GASKET_TOOLS_C_X"), "0x10") == 0);
    CHECK(gasnett_getenv_int_withdefault("GASKET_TOOLS_C_X", 3, 0) == 16);
    gasnett_unsetenv("GASKET_TOOLS_C_X");
    CHECK(gasnett_getenv("GASKET_TOOLS_C_X") == NULL);
    CHECK(gasnett_getenv_int_withdefault("GASKET_TOOLS_C_X", 3, 0) == 3);
    CHECK(strcmp(gasnett_getenv_withdefault("GASKET_TOOLS_C_X", "dflt"), "dflt") == 0);
    CHECK(gasnett_getenv_yesno_withdefault("GASKET_TOOLS_C_X", 1) == 1);
    CHECK(gasnett_getenv_dbl_withdefault("GASKET_TOOLS_C_X", 2.5) == 2.5);
    CHECK(strcmp(gasnett_format_number(3 << 20, buf, sizeof buf, 1), "3MB") == 0);
    CHECK(gasnett_parse_int("3MB", 1) == (3 << 20));
    CHECK(gasnett_verboseenv() == 0 || gasnett_verboseenv() == 1);
    gasnett_envint_display("GASKET_TOOLS_C_I", 1, 1, 0);
    gasnett_envstr_display("GASKET_TOOLS_C_S", "s", 1);
    gasnett_envdbl_display("GASKET_TOOLS_C_D", 1.0, 1);
}

static void handler(int sig) { (void)sig; }

static void misc(void) {
    gasnett_tick_t t0 = gasnett_ticks_now(), t1;
    unsigned char src[16] = {0, 1, 0, 2}, dst[16];
    volatile int frozen = 0;
    int slot = 0;
    char* loc;
    CHECK(gasnett_nsleep(1000000) == 0);
    t1 = gasnett_ticks_now();
    CHECK(gasnett_ticks_to_ns(t1 - t0) >= 1000000u);
    CHECK(gasnett_ticks_to_us(t1 - t0) >= 1000u);
    CHECK(gasnett_tick_granularityus() > 0.0 && gasnett_tick_overheadus() > 0.0);
    CHECK(GASNETT_TICK_MIN < GASNETT_TICK_MAX);
    CHECK(gasnett_cpu_count() > 0);
    CHECK(gasnett_getPhysMemSz(1) > 0);
    CHECK(gasnett_gethostname()[0] != '\0');
    CHECK(strstr(gasnett_exe_name(), "gasnet-tools-c") != NULL);
    CHECK(gasnett_isLittleEndian() == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__));
    CHECK(gasnett_performance_warning_str()[0] == '\0');
    CHECK(strcmp(gasnett_release_version_str(), "2026.11.0") == 0);
    CHECK(gasnett_release_version() == 20261100u);
    CHECK(GASNETT_SPEC_VERSION_MAJOR == 1 && GASNETT_SPEC_VERSION_MINOR == 20);
    CHECK(GASNETT_RELEASE_VERSION_MAJOR == 2026 && GASNETT_RELEASE_VERSION_MINOR == 11 &&
          GASNETT_RELEASE_VERSION_PATCH == 0);
    CHECK((1 << GASNETT_PAGESHIFT) == GASNETT_PAGESIZE && GASNETT_CACHE_LINE_BYTES >= 64);
    CHECK(strlen(GASNETT_SYSTEM_TUPLE) > 0);
    gasnett_sched_yield();
    gasnett_flush_streams();
    CHECK(gasnett_count0s(src, sizeof src) == 14);
    CHECK(gasnett_count0s_copy(dst, src, sizeof src) == 14 && memcmp(dst, src, sizeof src) == 0);
    CHECK(gasnett_count0s_uint32_t(0x00FF00FFu) == 2 && gasnett_count0s_uint64_t(0) == 8);
    CHECK(gasnett_count0s_uintptr_t((uintptr_t)1) == (int)sizeof(uintptr_t) - 1);
    CHECK(gasnett_checksum(src, 16) == gasnett_checksum(dst, 16) &&
          gasnett_checksum(src, 16) != gasnett_checksum(src, 4));
    CHECK(gasnett_maximize_rlimits() != 0);
    CHECK(gasnett_maximize_rlimit(RLIMIT_STACK, "RLIMIT_STACK") != 0);
    CHECK(gasnett_set_affinity(0) != 0);
    CHECK(gasnett_reghandler(SIGUSR1, handler) == SIG_DFL);
    CHECK(gasnett_reghandler(SIGUSR1, SIG_DFL) == handler);
    gasnett_backtrace_init("tools_c");
    CHECK(gasnett_print_backtrace_ifenabled != NULL);
    gasnett_freezeForDebuggerNow(&frozen, "frozen");
    gasnett_freezeForDebuggerErr();
    loc = gasnett_current_loc;
    CHECK(loc && strstr(loc, "misc") && strstr(loc, "tools_c.c"));
    free(loc);
    CHECK(strcmp(GASNETT_CURRENT_FUNCTION, "misc") == 0);
    gasnett_threadkey_init(tools_c_key);
    gasnett_threadkey_set(tools_c_key, &slot);
    CHECK(gasnett_threadkey_get(tools_c_key) == (void*)&slot);
    gasnett_threadkey_set_noinit(tools_c_key, 0);
    CHECK(gasnett_threadkey_get_noinit(tools_c_key) == 0);
    gasnett_local_wmb();
    gasnett_local_rmb();
    gasnett_local_mb();
    gasnett_weak_wmb();
    gasnett_weak_rmb();
    gasnett_weak_mb();
    gasnett_compiler_fence();
    gasnett_spinloop_hint();
    CHECK(strcmp(GASNETT_TRACE_GETMASK(), "") == 0 && strcmp(GASNETT_STATS_GETMASK(), "") == 0);
    GASNETT_TRACE_SETMASK("H");
    GASNETT_STATS_SETMASK("H");
    CHECK(!GASNETT_TRACE_ENABLED);
    GASNETT_TRACE_PRINTF("x %d", 1);
    GASNETT_TRACE_PRINTF_FORCE("x %d", 1);
    GASNETT_STATS_PRINTF("x %d", 1);
    GASNETT_STATS_PRINTF_FORCE("x %d", 1);
    GASNETT_STATS_DUMP(0);
}

static void annotations(void) {
    void* p = get_block();
    int n = 0;
    CHECK(twice(2) == 4 && thrice(2) == 6 && say("%d", 1));
    CHECK(pure_add(1, 2) == 3 && const_mul(2, 3) == 6 && hot_fn() + cold_fn() == 3 && must_use() == 3);
    CHECK(used_fn() == 4 && fall(1) == 3 && fall(2) == 2);
    CHECK(GASNETT_PREDICT_TRUE(5) == 1 && GASNETT_PREDICT_FALSE(0) == 0);
    if_pf(n != 0) n = 100;
    if_pt(n == 0) n = 1;
    CHECK(n == 1);
    CHECK(gasnett_constant_p(3) == 1);
    gasnett_assume(n == 1);
    evaluated = 0;
    GASNETT_UNUSED_ARGS8(bump(), bump(), bump(), bump(), bump(), bump(), bump(), bump());
    CHECK(evaluated == 8);
    GASNETT_UNUSED_ARGS1(bump());
    GASNETT_UNUSED_ARGS2(bump(), bump());
    GASNETT_UNUSED_ARGS3(bump(), bump(), bump());
    GASNETT_UNUSED_ARGS4(bump(), bump(), bump(), bump());
    GASNETT_UNUSED_ARGS5(bump(), bump(), bump(), bump(), bump());
    GASNETT_UNUSED_ARGS6(bump(), bump(), bump(), bump(), bump(), bump());
    GASNETT_UNUSED_ARGS7(bump(), bump(), bump(), bump(), bump(), bump(), bump());
    CHECK(evaluated == 8 + 28);
    CHECK(strlen(tools_c_ident) > 0);
    free(p);
}

#if defined(GASNETT_THREAD_SAFE)
#define MODE_NAME "GASNETT_THREAD_SAFE"
#else
#define MODE_NAME "GASNETT_THREAD_SINGLE"
#endif

int main(int argc, char** argv) {
    (void)argc;
    (void)argv;
#if defined(GASNETT_THREAD_SAFE) == defined(GASNETT_THREAD_SINGLE)
    CHECK(!"exactly one of GASNETT_THREAD_SAFE and GASNETT_THREAD_SINGLE is defined");
#endif
#if defined(EXPECT_THREAD_SINGLE) && !defined(GASNETT_THREAD_SINGLE)
    CHECK(!"-DGASNETT_THREAD_SINGLE was honoured");
#endif
#if !defined(EXPECT_THREAD_SINGLE) && !defined(GASNETT_THREAD_SAFE)
    CHECK(!"GASNETT_THREAD_SAFE is the default");
#endif
    atomics();
    locks();
    environment();
    misc();
    annotations();
    printf("tools_c: %s (%s)\n", failures ? "FAIL" : "PASS", MODE_NAME);
    /* The last two tools: close_streams flushes stdout (killmyprocess is
     * _exit, which does not), and the exit status must come through. */
    gasnett_close_streams();
    gasnett_killmyprocess(failures ? 1 : 0);
}
