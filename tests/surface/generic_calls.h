/*
 * tests/surface/generic_calls.h -- one test of the generic names, compiled
 * both as C11 (generic_c11.c: the _Generic macros) and as C++
 * (generic_cxx.cpp: the overloads), with the same source text.
 *
 * Every routine below is called by its generic name -- shmem_put(dest,
 * source, nelems, pe), shmem_put(ctx, dest, ...), shmem_atomic_fetch_add,
 * shmem_wait_until ... -- for every distinct C type of its table (expanded
 * from gasket/shmem_type_tables.h), and every PE checks the data that
 * arrived: a wrong selection (wrong element size) or a lost transfer fails.
 * Ring pattern: PE me writes to right = me+1 and reads from it; AMO counters
 * live on PE 0.  Runs with any number of PEs up to MAX_PES.
 */
/* Generic calls laid out by hand as tables. */
/* clang-format off */
#include <shmem.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_PES 16

/* Expanding a type table into functions that call generic names: in C11 a
 * generic macro expands through the same type-table macros
 * (GASKET_SELECT_IN(GASKET_STD_RMA_DISTINCT_TYPES, ...)), and a macro is not
 * expanded again inside its own expansion.  FOR_ROWS(TABLE, M) therefore
 * lets TABLE finish first, leaving "M (T, N)" unexpanded (M_ROW defers M),
 * and expands those afterwards (EXPAND), outside TABLE. */
#define EMPTY()
#define DEFER(m) m EMPTY()
#define EXPAND(...) __VA_ARGS__
#define FOR_ROWS(TABLE, M) EXPAND(TABLE(M##_ROW))

static int g_me, g_n, g_right, g_left;
static long g_checks;

static void check_failed(const char *file, int line, const char *type, const char *what) {
    fprintf(stderr, "PE %d: %s:%d: [%s] check failed: %s\n", g_me, file, line, type, what);
    fflush(stderr);
    shmem_global_exit(1);
}
#define CHECK(type, cond)                                                     \
    do {                                                                      \
        ++g_checks;                                                           \
        if (!(cond)) check_failed(__FILE__, __LINE__, type, #cond);           \
    } while (0)

/* The value element i of PE pe holds: small and positive, exact in every
 * type of the tables (char included). */
#define VAL(T, pe, i) ((T)((pe) * 16 + (i) + 1))

/* ---- §9.6 RMA and §9.8 put-with-signal: every Table 5 type ------------- */
#define RMA_TEST(T, N)                                                                                   \
    static void rma_##N(void) {                                                                          \
        T *src = (T *)shmem_malloc(16 * sizeof(T));                                                      \
        T *dst = (T *)shmem_malloc(40 * sizeof(T));                                                      \
        uint64_t *sig = (uint64_t *)shmem_malloc(sizeof(uint64_t));                                      \
        T local[16];                                                                                     \
        int i;                                                                                           \
        for (i = 0; i < 16; i++) src[i] = VAL(T, g_me, i);                                               \
        for (i = 0; i < 40; i++) dst[i] = (T)0;                                                          \
        *sig = 0;                                                                                        \
        shmem_barrier_all();                                                                             \
        /* puts into the right neighbour */                                                              \
        shmem_put(dst, src, 8, g_right);                                          /* dst[0..7]   */     \
        shmem_put(SHMEM_CTX_DEFAULT, dst + 8, src + 8, 8, g_right);               /* dst[8..15]  */     \
        shmem_put_nbi(dst + 16, src, 4, g_right);                                 /* dst[16..19] */     \
        shmem_put_nbi(SHMEM_CTX_DEFAULT, dst + 20, src + 4, 4, g_right);          /* dst[20..23] */     \
        shmem_iput(dst + 24, src, 2, 3, 2, g_right);                   /* dst[24], [26] = src[0], [3] */ \
        shmem_iput(SHMEM_CTX_DEFAULT, dst + 25, src + 1, 2, 3, 2, g_right); /* [25], [27] = [1], [4] */  \
        shmem_ibput(dst + 28, src, 4, 8, 2, 2, g_right);      /* [28..29], [32..33] = [0..1], [8..9] */  \
        shmem_ibput(SHMEM_CTX_DEFAULT, dst + 30, src + 2, 4, 8, 2, 2, g_right); /* [30..31], [34..35] */ \
        shmem_p(dst + 36, VAL(T, g_me, 5), g_right);                                                     \
        shmem_p(SHMEM_CTX_DEFAULT, dst + 37, VAL(T, g_me, 6), g_right);                                  \
        shmem_barrier_all();                                                                             \
        for (i = 0; i < 16; i++) CHECK(#T, dst[i] == VAL(T, g_left, i));                                 \
        for (i = 0; i < 8; i++) CHECK(#T, dst[16 + i] == VAL(T, g_left, i));                             \
        CHECK(#T, dst[24] == VAL(T, g_left, 0) && dst[26] == VAL(T, g_left, 3));                         \
        CHECK(#T, dst[25] == VAL(T, g_left, 1) && dst[27] == VAL(T, g_left, 4));                         \
        for (i = 0; i < 4; i++) CHECK(#T, dst[28 + i] == VAL(T, g_left, i));                             \
        for (i = 0; i < 4; i++) CHECK(#T, dst[32 + i] == VAL(T, g_left, 8 + i));                         \
        CHECK(#T, dst[36] == VAL(T, g_left, 5) && dst[37] == VAL(T, g_left, 6));                         \
        /* gets from the right neighbour */                                                              \
        shmem_get(local, src, 8, g_right);                                                               \
        shmem_get(SHMEM_CTX_DEFAULT, local + 8, src + 8, 8, g_right);                                    \
        for (i = 0; i < 16; i++) CHECK(#T, local[i] == VAL(T, g_right, i));                              \
        shmem_get_nbi(local, src + 4, 4, g_left);                                                        \
        shmem_get_nbi(SHMEM_CTX_DEFAULT, local + 4, src, 4, g_left);                                     \
        shmem_quiet();                                                                                   \
        for (i = 0; i < 4; i++) CHECK(#T, local[i] == VAL(T, g_left, 4 + i));                            \
        for (i = 0; i < 4; i++) CHECK(#T, local[4 + i] == VAL(T, g_left, i));                            \
        CHECK(#T, shmem_g(src + 3, g_right) == VAL(T, g_right, 3));                                      \
        CHECK(#T, shmem_g(SHMEM_CTX_DEFAULT, src + 9, g_left) == VAL(T, g_left, 9));                     \
        shmem_iget(local, src, 1, 2, 4, g_right);                      /* local[i] = src[2i] */         \
        shmem_iget(SHMEM_CTX_DEFAULT, local + 4, src + 1, 1, 2, 4, g_right); /* local[4+i] = src[2i+1] */ \
        for (i = 0; i < 4; i++) CHECK(#T, local[i] == VAL(T, g_right, 2 * i));                           \
        for (i = 0; i < 4; i++) CHECK(#T, local[4 + i] == VAL(T, g_right, 2 * i + 1));                   \
        shmem_ibget(local, src, 2, 4, 2, 2, g_right);          /* local[0..1], [2..3] = src[0..1], [4..5] */ \
        shmem_ibget(SHMEM_CTX_DEFAULT, local + 4, src + 8, 2, 4, 2, 2, g_right); /* [4..7] = [8,9,12,13] */ \
        CHECK(#T, local[0] == VAL(T, g_right, 0) && local[1] == VAL(T, g_right, 1));                     \
        CHECK(#T, local[2] == VAL(T, g_right, 4) && local[3] == VAL(T, g_right, 5));                     \
        CHECK(#T, local[4] == VAL(T, g_right, 8) && local[5] == VAL(T, g_right, 9));                     \
        CHECK(#T, local[6] == VAL(T, g_right, 12) && local[7] == VAL(T, g_right, 13));                   \
        /* put-with-signal: the signal's arrival implies the data's */                                   \
        shmem_barrier_all();                                                                             \
        for (i = 0; i < 40; i++) dst[i] = (T)0;                                                          \
        shmem_barrier_all();                                                                             \
        shmem_put_signal(dst, src, 8, sig, 1, SHMEM_SIGNAL_ADD, g_right);                                \
        shmem_put_signal(SHMEM_CTX_DEFAULT, dst + 8, src + 8, 8, sig, 1, SHMEM_SIGNAL_ADD, g_right);     \
        shmem_put_signal_nbi(dst + 16, src, 4, sig, 1, SHMEM_SIGNAL_ADD, g_right);                       \
        shmem_put_signal_nbi(SHMEM_CTX_DEFAULT, dst + 20, src + 4, 4, sig, 1, SHMEM_SIGNAL_ADD, g_right); \
        CHECK(#T, shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 4) == 4);                                   \
        for (i = 0; i < 16; i++) CHECK(#T, dst[i] == VAL(T, g_left, i));                                 \
        for (i = 0; i < 8; i++) CHECK(#T, dst[16 + i] == VAL(T, g_left, i));                             \
        shmem_quiet();                                                                                   \
        shmem_barrier_all();                                                                             \
        shmem_free(sig);                                                                                 \
        shmem_free(dst);                                                                                 \
        shmem_free(src);                                                                                 \
    }
#define RMA_TEST_ROW(T, N) DEFER(RMA_TEST)(T, N)
FOR_ROWS(GASKET_STD_RMA_DISTINCT_TYPES, RMA_TEST)

/* ---- §9.7 fetch, set, swap (+ nbi): every Table 7 type ----------------- */
#define AMO_EXT_TEST(T, N)                                                                            \
    static void amo_ext_##N(void) {                                                                   \
        T *x = (T *)shmem_malloc(2 * sizeof(T));                                                      \
        T got = (T)0;                                                                                 \
        x[0] = (T)0;                                                                                  \
        x[1] = (T)0;                                                                                  \
        shmem_barrier_all();                                                                          \
        /* x[0] on the right neighbour belongs to this PE */                                          \
        shmem_atomic_set(x, VAL(T, g_me, 1), g_right);                                                \
        CHECK(#T, shmem_atomic_fetch(x, g_right) == VAL(T, g_me, 1));                                 \
        CHECK(#T, shmem_atomic_swap(x, VAL(T, g_me, 2), g_right) == VAL(T, g_me, 1));                 \
        CHECK(#T, shmem_atomic_swap(SHMEM_CTX_DEFAULT, x, VAL(T, g_me, 3), g_right) == VAL(T, g_me, 2)); \
        shmem_atomic_set(SHMEM_CTX_DEFAULT, x + 1, VAL(T, g_me, 4), g_right);                         \
        CHECK(#T, shmem_atomic_fetch(SHMEM_CTX_DEFAULT, x + 1, g_right) == VAL(T, g_me, 4));          \
        shmem_atomic_fetch_nbi(&got, x, g_right);                                                     \
        shmem_quiet();                                                                                \
        CHECK(#T, got == VAL(T, g_me, 3));                                                            \
        shmem_atomic_swap_nbi(&got, x, VAL(T, g_me, 5), g_right);                                     \
        shmem_quiet();                                                                                \
        CHECK(#T, got == VAL(T, g_me, 3));                                                            \
        shmem_atomic_swap_nbi(SHMEM_CTX_DEFAULT, &got, x + 1, VAL(T, g_me, 6), g_right);              \
        shmem_quiet();                                                                                \
        CHECK(#T, got == VAL(T, g_me, 4));                                                            \
        shmem_atomic_fetch_nbi(SHMEM_CTX_DEFAULT, &got, x, g_right);                                  \
        shmem_quiet();                                                                                \
        CHECK(#T, got == VAL(T, g_me, 5));                                                            \
        shmem_barrier_all();                                                                          \
        CHECK(#T, x[0] == VAL(T, g_left, 5) && x[1] == VAL(T, g_left, 6));                            \
        shmem_barrier_all();                                                                          \
        shmem_free(x);                                                                                \
    }
#define AMO_EXT_TEST_ROW(T, N) DEFER(AMO_EXT_TEST)(T, N)
FOR_ROWS(GASKET_EXT_AMO_DISTINCT_TYPES, AMO_EXT_TEST)

/* ---- §9.7 compare_swap, fetch_inc, inc, fetch_add, add (+ nbi): every
 * Table 6 type; counters on PE 0 --------------------------------------- */
#define AMO_STD_TEST(T, N)                                                                              \
    static void amo_std_##N(void) {                                                                     \
        T *x = (T *)shmem_malloc(4 * sizeof(T));                                                        \
        T got = (T)0, got2 = (T)0;                                                                      \
        const long n = g_n, sum = (long)g_n * (g_n + 1) / 2;                                            \
        int i;                                                                                          \
        for (i = 0; i < 4; i++) x[i] = (T)0;                                                            \
        shmem_barrier_all();                                                                            \
        CHECK(#T, shmem_atomic_fetch_add(x, (T)(g_me + 1), 0) < (T)(sum + n));                          \
        shmem_atomic_add(SHMEM_CTX_DEFAULT, x, (T)1, 0);                                                \
        shmem_atomic_add(x + 1, (T)2, 0);                                                               \
        CHECK(#T, shmem_atomic_fetch_add(SHMEM_CTX_DEFAULT, x + 1, (T)1, 0) < (T)(3 * n));              \
        shmem_atomic_inc(x + 2, 0);                                                                     \
        shmem_atomic_inc(SHMEM_CTX_DEFAULT, x + 2, 0);                                                  \
        CHECK(#T, shmem_atomic_fetch_inc(x + 2, 0) < (T)(4 * n));                                       \
        CHECK(#T, shmem_atomic_fetch_inc(SHMEM_CTX_DEFAULT, x + 2, 0) < (T)(4 * n));                    \
        shmem_atomic_fetch_add_nbi(&got, x + 3, (T)3, 0);                                               \
        shmem_atomic_fetch_add_nbi(SHMEM_CTX_DEFAULT, &got2, x + 3, (T)1, 0);                           \
        shmem_quiet();                                                                                  \
        CHECK(#T, got < (T)(6 * n) && got2 < (T)(6 * n));                                               \
        shmem_atomic_fetch_inc_nbi(&got, x + 3, 0);                                                     \
        shmem_atomic_fetch_inc_nbi(SHMEM_CTX_DEFAULT, &got2, x + 3, 0);                                 \
        shmem_quiet();                                                                                  \
        CHECK(#T, got < (T)(6 * n) && got2 < (T)(6 * n));                                               \
        shmem_barrier_all();                                                                            \
        CHECK(#T, shmem_atomic_fetch(x, 0) == (T)(sum + n));                                            \
        CHECK(#T, shmem_atomic_fetch(x + 1, 0) == (T)(3 * n));                                          \
        CHECK(#T, shmem_atomic_fetch(x + 2, 0) == (T)(4 * n));                                          \
        CHECK(#T, shmem_atomic_fetch(x + 3, 0) == (T)(6 * n));                                          \
        shmem_barrier_all();                                                                            \
        /* compare_swap on the right neighbour's x[0], which only this PE touches now */                \
        shmem_atomic_set(x, VAL(T, g_me, 1), g_right);                                                  \
        CHECK(#T, shmem_atomic_compare_swap(x, VAL(T, g_me, 9), VAL(T, g_me, 2), g_right) ==            \
                      VAL(T, g_me, 1)); /* no swap: cond differs */                                     \
        CHECK(#T, shmem_atomic_compare_swap(x, VAL(T, g_me, 1), VAL(T, g_me, 2), g_right) ==            \
                      VAL(T, g_me, 1));                                                                 \
        CHECK(#T, shmem_atomic_compare_swap(SHMEM_CTX_DEFAULT, x, VAL(T, g_me, 2), VAL(T, g_me, 3),     \
                                            g_right) == VAL(T, g_me, 2));                               \
        shmem_atomic_compare_swap_nbi(&got, x, VAL(T, g_me, 3), VAL(T, g_me, 4), g_right);              \
        shmem_quiet();                                                                                  \
        CHECK(#T, got == VAL(T, g_me, 3));                                                              \
        shmem_atomic_compare_swap_nbi(SHMEM_CTX_DEFAULT, &got, x, VAL(T, g_me, 4), VAL(T, g_me, 5),     \
                                      g_right);                                                         \
        shmem_quiet();                                                                                  \
        CHECK(#T, got == VAL(T, g_me, 4));                                                              \
        shmem_barrier_all();                                                                            \
        CHECK(#T, x[0] == VAL(T, g_left, 5));                                                           \
        shmem_barrier_all();                                                                            \
        shmem_free(x);                                                                                  \
    }
#define AMO_STD_TEST_ROW(T, N) DEFER(AMO_STD_TEST)(T, N)
FOR_ROWS(GASKET_STD_AMO_DISTINCT_TYPES, AMO_STD_TEST)

/* ---- §9.7 and, or, xor (fetching, non-fetching, nbi): every Table 8 type;
 * each PE owns bit `me` of three words on PE 0 ------------------------- */
#define AMO_BIT_TEST(T, N)                                                                        \
    static void amo_bit_##N(void) {                                                               \
        T *x = (T *)shmem_malloc(6 * sizeof(T));                                                  \
        const T bit = (T)((T)1 << g_me), all = (T)(((T)1 << g_n) - 1);                            \
        T got = (T)0;                                                                             \
        int i;                                                                                    \
        for (i = 0; i < 6; i++) x[i] = (i % 2) ? (T)~(T)0 : (T)0;                                 \
        shmem_barrier_all();                                                                      \
        shmem_atomic_or(x, bit, 0);                                                               \
        CHECK(#T, (shmem_atomic_fetch_or(SHMEM_CTX_DEFAULT, x + 2, bit, 0) & bit) == 0);          \
        shmem_atomic_and(x + 1, (T)~bit, 0);                                                      \
        CHECK(#T, (shmem_atomic_fetch_and(x + 3, (T)~bit, 0) & bit) == bit);                      \
        shmem_atomic_xor(SHMEM_CTX_DEFAULT, x + 4, bit, 0);                                       \
        CHECK(#T, (shmem_atomic_fetch_xor(x + 5, bit, 0) & bit) == bit);                          \
        shmem_barrier_all();                                                                      \
        CHECK(#T, shmem_atomic_fetch(x, 0) == all);                                               \
        CHECK(#T, shmem_atomic_fetch(x + 1, 0) == (T)~all);                                       \
        CHECK(#T, shmem_atomic_fetch(x + 2, 0) == all);                                           \
        CHECK(#T, shmem_atomic_fetch(x + 3, 0) == (T)~all);                                       \
        CHECK(#T, shmem_atomic_fetch(x + 4, 0) == all);                                           \
        CHECK(#T, shmem_atomic_fetch(x + 5, 0) == (T)~all);                                       \
        shmem_barrier_all();                                                                      \
        /* the nbi forms and the remaining ctx forms undo it, bit by bit */                       \
        shmem_atomic_fetch_or_nbi(&got, x + 1, bit, 0);                                           \
        shmem_quiet();                                                                            \
        CHECK(#T, (got & bit) == 0);                                                              \
        shmem_atomic_fetch_and_nbi(SHMEM_CTX_DEFAULT, &got, x, (T)~bit, 0);                       \
        shmem_quiet();                                                                            \
        CHECK(#T, (got & bit) == bit);                                                            \
        shmem_atomic_fetch_xor_nbi(&got, x + 4, bit, 0);                                          \
        shmem_quiet();                                                                            \
        CHECK(#T, (got & bit) == bit);                                                            \
        shmem_atomic_fetch_or_nbi(SHMEM_CTX_DEFAULT, &got, x + 3, bit, 0);                        \
        shmem_atomic_fetch_xor_nbi(SHMEM_CTX_DEFAULT, &got, x + 5, bit, 0);                       \
        shmem_quiet();                                                                            \
        shmem_atomic_and(SHMEM_CTX_DEFAULT, x + 2, (T)~bit, 0);                                   \
        shmem_quiet();                                                                            \
        shmem_atomic_fetch_and_nbi(&got, x + 2, (T)~(T)0, 0);                                     \
        shmem_quiet();                                                                            \
        CHECK(#T, (got & bit) == 0);                                                              \
        CHECK(#T, (shmem_atomic_fetch_or(x + 2, (T)0, 0) & bit) == 0);                            \
        CHECK(#T, (shmem_atomic_fetch_xor(SHMEM_CTX_DEFAULT, x + 2, (T)0, 0) & bit) == 0);        \
        CHECK(#T, (shmem_atomic_fetch_and(SHMEM_CTX_DEFAULT, x + 2, (T)~(T)0, 0) & bit) == 0);    \
        shmem_atomic_or(SHMEM_CTX_DEFAULT, x + 2, (T)0, 0);                                       \
        shmem_barrier_all();                                                                      \
        if (g_me == 0) {                                                                          \
            CHECK(#T, x[0] == (T)0);                                                              \
            CHECK(#T, x[1] == (T)~(T)0 && x[3] == (T)~(T)0 && x[5] == (T)~(T)0);                  \
            CHECK(#T, x[2] == (T)0 && x[4] == (T)0);                                              \
        }                                                                                         \
        shmem_barrier_all();                                                                      \
        shmem_free(x);                                                                            \
    }
#define AMO_BIT_TEST_ROW(T, N) DEFER(AMO_BIT_TEST)(T, N)
FOR_ROWS(GASKET_BITWISE_AMO_DISTINCT_TYPES, AMO_BIT_TEST)

/* ---- Annex F.2.12 deprecated generic AMO names -------------------------- */
#define AMO_OLD_EXT_TEST(T, N)                                                          \
    static void amo_old_ext_##N(void) {                                                 \
        T *x = (T *)shmem_malloc(sizeof(T));                                            \
        *x = (T)0;                                                                      \
        shmem_barrier_all();                                                            \
        shmem_set(x, VAL(T, g_me, 1), g_right);                                         \
        CHECK(#T, shmem_fetch(x, g_right) == VAL(T, g_me, 1));                          \
        CHECK(#T, shmem_swap(x, VAL(T, g_me, 2), g_right) == VAL(T, g_me, 1));          \
        shmem_barrier_all();                                                            \
        CHECK(#T, *x == VAL(T, g_left, 2));                                             \
        shmem_barrier_all();                                                            \
        shmem_free(x);                                                                  \
    }
#define AMO_OLD_EXT_TEST_ROW(T, N) DEFER(AMO_OLD_EXT_TEST)(T, N)
FOR_ROWS(GASKET_DEPRECATED_EXT_AMO_DISTINCT_TYPES, AMO_OLD_EXT_TEST)
#define AMO_OLD_STD_TEST(T, N)                                                                  \
    static void amo_old_std_##N(void) {                                                         \
        T *x = (T *)shmem_malloc(2 * sizeof(T));                                                \
        x[0] = (T)0;                                                                            \
        x[1] = (T)0;                                                                            \
        shmem_barrier_all();                                                                    \
        CHECK(#T, shmem_fadd(x, (T)2, 0) < (T)(5 * g_n));                                       \
        shmem_add(x, (T)1, 0);                                                                  \
        CHECK(#T, shmem_finc(x, 0) < (T)(5 * g_n));                                             \
        shmem_inc(x, 0);                                                                        \
        shmem_barrier_all();                                                                    \
        CHECK(#T, shmem_fetch(x, 0) == (T)(5 * g_n));                                           \
        CHECK(#T, shmem_cswap(x + 1, (T)0, VAL(T, g_me, 1), g_right) == (T)0);                  \
        CHECK(#T, shmem_cswap(x + 1, (T)0, VAL(T, g_me, 2), g_right) == VAL(T, g_me, 1));       \
        shmem_barrier_all();                                                                    \
        CHECK(#T, x[1] == VAL(T, g_left, 1));                                                   \
        shmem_barrier_all();                                                                    \
        shmem_free(x);                                                                          \
    }
#define AMO_OLD_STD_TEST_ROW(T, N) DEFER(AMO_OLD_STD_TEST)(T, N)
FOR_ROWS(GASKET_DEPRECATED_STD_AMO_DISTINCT_TYPES, AMO_OLD_STD_TEST)

/* ---- §9.11 wait_until and test (Table 6, and short/unsigned short) ----- */
#define P2P_TEST(T, N)                                                                \
    static void p2p_##N(void) {                                                       \
        T *flags = (T *)shmem_malloc(MAX_PES * sizeof(T));                            \
        int pe;                                                                       \
        for (pe = 0; pe < MAX_PES; pe++) flags[pe] = (T)0;                            \
        shmem_barrier_all();                                                          \
        for (pe = 0; pe < g_n; pe++) shmem_p(flags + g_me, (T)(g_me + 1), pe);        \
        shmem_quiet();                                                                \
        shmem_wait_until(flags + g_left, SHMEM_CMP_EQ, (T)(g_left + 1));              \
        shmem_wait_until(flags + g_right, SHMEM_CMP_GE, g_right + 1);                 \
        CHECK(#T, shmem_test(flags + g_left, SHMEM_CMP_EQ, (T)(g_left + 1)) == 1);    \
        CHECK(#T, shmem_test(flags + g_left, SHMEM_CMP_LT, (T)(g_left + 1)) == 0);    \
        CHECK(#T, flags[g_left] == (T)(g_left + 1));                                  \
        shmem_barrier_all();                                                          \
        shmem_free(flags);                                                            \
    }
#define P2P_TEST_ROW(T, N) DEFER(P2P_TEST)(T, N)
FOR_ROWS(GASKET_STD_AMO_DISTINCT_TYPES, P2P_TEST)
FOR_ROWS(GASKET_P2P_SYNC_DEPRECATED_TYPES, P2P_TEST)

/* ---- §9.11.2-14 the set forms: every Table 6 type, short, ushort ------- */
#define P2P_SET_TEST(T, N)                                                                       \
    static void p2p_set_##N(void) {                                                              \
        T *flags = (T *)shmem_malloc(MAX_PES * sizeof(T));                                       \
        T want[MAX_PES];                                                                         \
        int status[MAX_PES];                                                                     \
        size_t idx[MAX_PES], k;                                                                  \
        const size_t n = (size_t)g_n;                                                            \
        int pe;                                                                                  \
        for (pe = 0; pe < MAX_PES; pe++) {                                                       \
            flags[pe] = (T)0;                                                                    \
            want[pe] = (T)(pe + 1);                                                              \
            status[pe] = 0;                                                                      \
        }                                                                                        \
        shmem_barrier_all();                                                                     \
        for (pe = 0; pe < g_n; pe++) shmem_p(flags + g_me, (T)(g_me + 1), pe); /* short: no AMO */ \
        shmem_quiet();                                                                           \
        shmem_wait_until_all(flags, n, NULL, SHMEM_CMP_GT, (T)0);                                \
        shmem_wait_until_all_vector(flags, n, NULL, SHMEM_CMP_EQ, want);                         \
        k = shmem_wait_until_any(flags, n, NULL, SHMEM_CMP_EQ, (T)(g_left + 1));                 \
        CHECK(#T, k == (size_t)g_left);                                                          \
        k = shmem_wait_until_any_vector(flags, n, NULL, SHMEM_CMP_EQ, want);                     \
        CHECK(#T, k < n);                                                                        \
        CHECK(#T, shmem_wait_until_some(flags, n, idx, NULL, SHMEM_CMP_GE, (T)1) == n);          \
        CHECK(#T, shmem_wait_until_some_vector(flags, n, idx, NULL, SHMEM_CMP_EQ, want) == n);   \
        CHECK(#T, shmem_test_all(flags, n, NULL, SHMEM_CMP_LE, (T)g_n) == 1);                    \
        CHECK(#T, shmem_test_all_vector(flags, n, NULL, SHMEM_CMP_EQ, want) == 1);               \
        CHECK(#T, shmem_test_any(flags, n, NULL, SHMEM_CMP_GT, (T)g_n) == SIZE_MAX);             \
        CHECK(#T, shmem_test_any_vector(flags, n, NULL, SHMEM_CMP_NE, want) == SIZE_MAX);        \
        status[g_me] = 1; /* exclude this PE's own flag */                                       \
        CHECK(#T, shmem_test_some(flags, n, idx, status, SHMEM_CMP_GT, (T)0) == n - 1);          \
        CHECK(#T, shmem_test_some_vector(flags, n, idx, status, SHMEM_CMP_EQ, want) == n - 1);   \
        for (k = 0; k + 1 < n; k++) CHECK(#T, idx[k] != (size_t)g_me);                           \
        shmem_barrier_all();                                                                     \
        shmem_free(flags);                                                                       \
    }
#define P2P_SET_TEST_ROW(T, N) DEFER(P2P_SET_TEST)(T, N)
FOR_ROWS(GASKET_P2P_SET_DISTINCT_TYPES, P2P_SET_TEST)

/* ---- §9.8.5, §9.8.7 signal_add / signal_set, with and without ctx ------ */
static void signals(void) {
    uint64_t *sig = (uint64_t *)shmem_malloc(2 * sizeof(uint64_t));
    sig[0] = 0;
    sig[1] = 0;
    shmem_barrier_all();
    shmem_signal_add(sig, 1, g_right);
    shmem_signal_add(SHMEM_CTX_DEFAULT, sig, 2, g_right);
    shmem_signal_set(SHMEM_CTX_DEFAULT, sig + 1, (uint64_t)(g_me + 7), g_right);
    CHECK("uint64_t", shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 3) == 3);
    CHECK("uint64_t", shmem_signal_wait_until(sig + 1, SHMEM_CMP_EQ, (uint64_t)(g_left + 7)) ==
                          (uint64_t)(g_left + 7));
    shmem_barrier_all();
    shmem_signal_set(sig, 11, g_left);
    shmem_barrier_all();
    CHECK("uint64_t", shmem_signal_fetch(sig) == 11);
    shmem_barrier_all();
    shmem_free(sig);
}

#define CALL(T, N) rma_##N();
#define CALL_EXT(T, N) amo_ext_##N();
#define CALL_STD(T, N) amo_std_##N();
#define CALL_BIT(T, N) amo_bit_##N();
#define CALL_OLD_EXT(T, N) amo_old_ext_##N();
#define CALL_OLD_STD(T, N) amo_old_std_##N();
#define CALL_P2P(T, N) p2p_##N();
#define CALL_P2P_SET(T, N) p2p_set_##N();

/* Runs every test above; returns the number of checks this PE passed. */
static long run_generic_calls(void) {
    g_me = shmem_my_pe();
    g_n = shmem_n_pes();
    if (g_n > MAX_PES) {
        if (g_me == 0) fprintf(stderr, "at most %d PEs\n", MAX_PES);
        shmem_global_exit(2);
    }
    g_right = (g_me + 1) % g_n;
    g_left = (g_me + g_n - 1) % g_n;
    GASKET_STD_RMA_DISTINCT_TYPES(CALL)
    GASKET_EXT_AMO_DISTINCT_TYPES(CALL_EXT)
    GASKET_STD_AMO_DISTINCT_TYPES(CALL_STD)
    GASKET_BITWISE_AMO_DISTINCT_TYPES(CALL_BIT)
    GASKET_DEPRECATED_EXT_AMO_DISTINCT_TYPES(CALL_OLD_EXT)
    GASKET_DEPRECATED_STD_AMO_DISTINCT_TYPES(CALL_OLD_STD)
    GASKET_STD_AMO_DISTINCT_TYPES(CALL_P2P)
    GASKET_P2P_SYNC_DEPRECATED_TYPES(CALL_P2P)
    GASKET_P2P_SET_DISTINCT_TYPES(CALL_P2P_SET)
    signals();
    return g_checks;
}
