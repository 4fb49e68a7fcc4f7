/*
 * gasket/shmem_type_tables.h -- the OpenSHMEM 1.6 typed-family tables, once.
 *
 * Every typed C entry point (shmem_long_put, shmem_int_wait_until, ...) is
 * generated from these X-macro tables: declared in gasket/shmem_typed.h,
 * which cmake/shmem_typed_header.py writes from them (run it with --write
 * after changing a table; the test surface.typed_header fails until then),
 * and defined in shmem/ by expanding them.  Rows are in the
 * specification's order (openshmem-1.6-type-tables.md).  Each row is
 * X(TYPE, TYPENAME).
 *
 * To find where `shmem_long_put` comes from: the row `X(long, long)` of
 * GASKET_STD_RMA_TYPES, written out as a prototype in gasket/shmem_typed.h
 * and defined by GASKET_RMA_TYPED in shmem/rma.cpp.
 */
#ifndef GASKET_SHMEM_TYPE_TABLES_H
#define GASKET_SHMEM_TYPE_TABLES_H

/* Rows shared by several tables: the standard signed and unsigned integer
 * types and the floating types (each table below lists which it uses). */
#define GASKET_SIGNED_INTEGER_TYPES(X) \
    X(char, char)                      \
    X(signed char, schar)              \
    X(short, short)                    \
    X(int, int)                        \
    X(long, long)                      \
    X(long long, longlong)
#define GASKET_UNSIGNED_INTEGER_TYPES(X) \
    X(unsigned char, uchar)              \
    X(unsigned short, ushort)            \
    X(unsigned int, uint)                \
    X(unsigned long, ulong)              \
    X(unsigned long long, ulonglong)
#define GASKET_FLOATING_TYPES(X) \
    X(float, float)              \
    X(double, double)            \
    X(long double, longdouble)

/* Table 5: Standard RMA Types and Names (§9.6, §9.8, §9.10), in two parts:
 * the distinct C types (what a C11 _Generic selection may list) and the
 * exact-width/size rows, which are typedefs of those. */
#define GASKET_STD_RMA_DISTINCT_TYPES(X) \
    GASKET_FLOATING_TYPES(X)             \
    GASKET_SIGNED_INTEGER_TYPES(X)       \
    GASKET_UNSIGNED_INTEGER_TYPES(X)
#define GASKET_STD_RMA_ALIAS_TYPES(X) \
    X(int8_t, int8)                   \
    X(int16_t, int16)                 \
    X(int32_t, int32)                 \
    X(int64_t, int64)                 \
    X(uint8_t, uint8)                 \
    X(uint16_t, uint16)               \
    X(uint32_t, uint32)               \
    X(uint64_t, uint64)               \
    X(size_t, size)                   \
    X(ptrdiff_t, ptrdiff)
#define GASKET_STD_RMA_TYPES(X)      \
    GASKET_STD_RMA_DISTINCT_TYPES(X) \
    GASKET_STD_RMA_ALIAS_TYPES(X)

/* Sized RMA (§9.6): X(SIZE-in-bits, element size in bytes). */
#define GASKET_RMA_SIZES(X) \
    X(8, 1)                 \
    X(16, 2)                \
    X(32, 4)                \
    X(64, 8)                \
    X(128, 16)

/* Table 6: Standard AMO Types and Names; also the point-to-point
 * synchronization types of §9.11.  Distinct C types, then typedef rows. */
#define GASKET_STD_AMO_DISTINCT_TYPES(X) \
    X(int, int)                          \
    X(long, long)                        \
    X(long long, longlong)               \
    X(unsigned int, uint)                \
    X(unsigned long, ulong)              \
    X(unsigned long long, ulonglong)
#define GASKET_STD_AMO_ALIAS_TYPES(X) \
    X(int32_t, int32)                 \
    X(int64_t, int64)                 \
    X(uint32_t, uint32)               \
    X(uint64_t, uint64)               \
    X(size_t, size)                   \
    X(ptrdiff_t, ptrdiff)
#define GASKET_STD_AMO_TYPES(X)      \
    GASKET_STD_AMO_DISTINCT_TYPES(X) \
    GASKET_STD_AMO_ALIAS_TYPES(X)

/* Table 7: Extended AMO Types and Names (fetch, set, swap): Table 6 plus
 * float and double, in the spec's row order. */
#define GASKET_EXT_AMO_TYPES(X) \
    X(float, float)             \
    X(double, double)           \
    GASKET_STD_AMO_TYPES(X)
#define GASKET_EXT_AMO_DISTINCT_TYPES(X) \
    X(float, float)                      \
    X(double, double)                    \
    GASKET_STD_AMO_DISTINCT_TYPES(X)

/* Table 8: Bitwise AMO Types and Names (and, or, xor).  The distinct C
 * types include int32_t and int64_t: int and long (LP64) appear in no
 * other row, so a C11/C++ generic call on an int or long selects them. */
#define GASKET_BITWISE_AMO_DISTINCT_TYPES(X) \
    X(unsigned int, uint)                    \
    X(unsigned long, ulong)                  \
    X(unsigned long long, ulonglong)         \
    X(int32_t, int32)                        \
    X(int64_t, int64)
#define GASKET_BITWISE_AMO_TYPES(X)      \
    GASKET_BITWISE_AMO_DISTINCT_TYPES(X) \
    X(uint32_t, uint32)                  \
    X(uint64_t, uint64)
/* Table 8's operations: F(TYPE, NAME, op, runtime operation) for each. */
#define GASKET_AMO_BITWISE_OPS(F, TYPE, NAME) \
    F(TYPE, NAME, and, fetch_and) F(TYPE, NAME, or, fetch_or) F(TYPE, NAME, xor, fetch_xor)

/* Deprecated AMO names (Annex F): shmem_TYPENAME_fetch/set/swap and
 * cswap/finc/inc/fadd/add.  1.6 lists them for {float, double, int, long,
 * long long} and {int, long, long long}; the other implementations accept
 * them for every row of Tables 7 and 6 (unsigned int/long/long long,
 * size_t, ptrdiff_t, int32_t ... uint64_t), and programs written for them
 * use those names, so Gasket gives them for the same rows.  The DISTINCT
 * tables are for C11 _Generic and C++ overloads. */
#define GASKET_DEPRECATED_EXT_AMO_TYPES(X) GASKET_EXT_AMO_TYPES(X)
#define GASKET_DEPRECATED_EXT_AMO_DISTINCT_TYPES(X) GASKET_EXT_AMO_DISTINCT_TYPES(X)
#define GASKET_DEPRECATED_STD_AMO_TYPES(X) GASKET_STD_AMO_TYPES(X)
#define GASKET_DEPRECATED_STD_AMO_DISTINCT_TYPES(X) GASKET_STD_AMO_DISTINCT_TYPES(X)

/* Point-to-point synchronization types (§9.11): Table 6 plus the deprecated
 * short/unsigned short rows that Table 12 keeps for wait_until and test. */
#define GASKET_P2P_SYNC_DEPRECATED_TYPES(X) \
    X(short, short)                         \
    X(unsigned short, ushort)
#define GASKET_P2P_SYNC_TYPES(X) \
    GASKET_STD_AMO_TYPES(X)      \
    GASKET_P2P_SYNC_DEPRECATED_TYPES(X)

/* The wait and test routines over arrays (§9.11.2-7, 9-14:
 * the all, any and some forms and their _vector forms): Table 6, plus short and
 * unsigned short as the other implementations accept them (programs
 * written for them call shmem_wait_until_any on a short array). */
#define GASKET_P2P_SET_TYPES(X) GASKET_P2P_SYNC_TYPES(X)
#define GASKET_P2P_SET_DISTINCT_TYPES(X) \
    GASKET_STD_AMO_DISTINCT_TYPES(X)     \
    GASKET_P2P_SYNC_DEPRECATED_TYPES(X)

/* Deprecated shmem_TYPENAME_wait (§9.11.1): TYPE in {short, int, long, long long}. */
#define GASKET_DEPRECATED_WAIT_TYPES(X) \
    X(short, short)                     \
    X(int, int)                         \
    X(long, long)                       \
    X(long long, longlong)

/* Table 10: Reduction Types, Names, and Supporting Operations for
 * Team-Based Reductions (§9.10.9, §9.10.10), by operation column, rows in
 * the spec's order.  AND/OR/XOR: GASKET_TEAM_REDUCE_BITWISE_TYPES (14
 * rows); MAX/MIN: GASKET_TEAM_REDUCE_MINMAX_TYPES (24); SUM/PROD and the
 * scans: GASKET_TEAM_REDUCE_ARITH_TYPES (26).  The complex rows exist when
 * the compiler has complex types (C99 without __STDC_NO_COMPLEX__, or GNU
 * C++), as §9.10.9 allows. */
#if (defined(__cplusplus) && defined(__GNUC__)) || (!defined(__cplusplus) && defined(__STDC_VERSION__) && \
                                                    __STDC_VERSION__ >= 199901L && !defined(__STDC_NO_COMPLEX__))
#define GASKET_HAVE_COMPLEX 1
#define GASKET_REDUCE_COMPLEX_TYPES(X) \
    X(double _Complex, complexd)       \
    X(float _Complex, complexf)
#else
#define GASKET_REDUCE_COMPLEX_TYPES(X)
#endif
#define GASKET_TEAM_REDUCE_SIGNED_TYPES(X) \
    GASKET_SIGNED_INTEGER_TYPES(X)         \
    X(ptrdiff_t, ptrdiff)
#define GASKET_TEAM_REDUCE_BITWISE_TYPES(X)      \
    GASKET_TEAM_REDUCE_BITWISE_DISTINCT_TYPES(X) \
    X(uint8_t, uint8)                            \
    X(uint16_t, uint16)                          \
    X(uint32_t, uint32)                          \
    X(uint64_t, uint64)                          \
    X(size_t, size)
#define GASKET_REDUCE_FLOAT_TYPES(X) GASKET_FLOATING_TYPES(X)
#define GASKET_TEAM_REDUCE_MINMAX_TYPES(X) \
    GASKET_TEAM_REDUCE_SIGNED_TYPES(X)     \
    GASKET_TEAM_REDUCE_BITWISE_TYPES(X)    \
    GASKET_REDUCE_FLOAT_TYPES(X)
#define GASKET_TEAM_REDUCE_ARITH_TYPES(X) \
    GASKET_TEAM_REDUCE_MINMAX_TYPES(X)    \
    GASKET_REDUCE_COMPLEX_TYPES(X)

/* The distinct C types of each Table 10 column, for C11 _Generic and C++
 * overloads (a type may appear once): the exact-width and size rows are
 * typedefs of rows already listed, except that int8_t..int64_t (signed
 * char, short, int, long on LP64) are the only signed rows of the bitwise
 * column. */
#define GASKET_TEAM_REDUCE_BITWISE_DISTINCT_TYPES(X) \
    GASKET_UNSIGNED_INTEGER_TYPES(X)                 \
    X(int8_t, int8)                                  \
    X(int16_t, int16)                                \
    X(int32_t, int32)                                \
    X(int64_t, int64)
#define GASKET_TEAM_REDUCE_MINMAX_DISTINCT_TYPES(X) \
    GASKET_SIGNED_INTEGER_TYPES(X)                  \
    GASKET_UNSIGNED_INTEGER_TYPES(X)                \
    GASKET_FLOATING_TYPES(X)
#define GASKET_TEAM_REDUCE_ARITH_DISTINCT_TYPES(X) \
    GASKET_TEAM_REDUCE_MINMAX_DISTINCT_TYPES(X)    \
    GASKET_REDUCE_COMPLEX_TYPES(X)

/* The operator columns of Tables 10 and 11: F(TYPE, NAME, OP, ENUM) for
 * each operator OP of the column (ENUM: the library's rt::ReduceOp name).
 * A type row of column C expands GASKET_REDUCE_C_OPS(F, TYPE, NAME). */
#define GASKET_REDUCE_BITWISE_OPS(F, TYPE, NAME) \
    F(TYPE, NAME, and, band) F(TYPE, NAME, or, bor) F(TYPE, NAME, xor, bxor)
#define GASKET_REDUCE_MINMAX_OPS(F, TYPE, NAME) F(TYPE, NAME, max, max) F(TYPE, NAME, min, min)
#define GASKET_REDUCE_ARITH_OPS(F, TYPE, NAME) F(TYPE, NAME, sum, sum) F(TYPE, NAME, prod, prod)

/* Table 11: Reduction Types, Names and Supporting Operations for
 * Active-Set-Based Reductions: the deprecated shmem_TYPENAME_OP_to_all.
 * AND/OR/XOR: 4 rows; MAX/MIN: 7; SUM/PROD: 9. */
#define GASKET_TO_ALL_BITWISE_TYPES(X) \
    X(short, short)                    \
    X(int, int)                        \
    X(long, long)                      \
    X(long long, longlong)
#define GASKET_TO_ALL_MINMAX_TYPES(X) \
    GASKET_TO_ALL_BITWISE_TYPES(X)    \
    GASKET_REDUCE_FLOAT_TYPES(X)
#define GASKET_TO_ALL_ARITH_TYPES(X) \
    GASKET_TO_ALL_MINMAX_TYPES(X)    \
    GASKET_REDUCE_COMPLEX_TYPES(X)

/* Deprecated sized active-set collectives (§9.10.5-8): alltoall32/64,
 * alltoalls32/64, broadcast32/64, collect32/64, fcollect32/64.
 * X(SIZE-in-bits, element size in bytes). */
#define GASKET_COLL_SIZES(X) \
    X(32, 4)                 \
    X(64, 8)

#endif /* GASKET_SHMEM_TYPE_TABLES_H */
