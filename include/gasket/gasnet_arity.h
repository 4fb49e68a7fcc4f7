/*
 * gasket/gasnet_arity.h -- the argument-count table of GASNet Active
 * Messages (gasnet-1.8-spec.md §2.3.3: every M from 0 to gasnet_AMMaxArgs()).
 *
 * GASKET_AM_ARITIES(X) calls X(M) for M = 0..16.  For each M:
 *   GASKET_AM_PARAMS_M   ", gasnet_handlerarg_t a0, ..., gasnet_handlerarg_t aM-1"
 *   GASKET_AM_VALUES_M   ", a0, ..., aM-1"
 *   GASKET_AM_TYPES_M    ", gasnet_handlerarg_t, ..." (M times)
 *   GASKET_AM_UNPACK_M(v) ", v[0], ..., v[M-1]"
 * The public AM entry points and the handler dispatch are generated from
 * this one table; nothing is written out per argument count by hand.
 */
#ifndef GASKET_GASNET_ARITY_H
#define GASKET_GASNET_ARITY_H

#define GASKET_AM_ARITIES(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16)

#define GASKET_AM_PARAMS_0
#define GASKET_AM_VALUES_0
#define GASKET_AM_TYPES_0
#define GASKET_AM_UNPACK_0(v)
#define GASKET_AM_PARAMS_1 GASKET_AM_PARAMS_0, gasnet_handlerarg_t a0
#define GASKET_AM_VALUES_1 GASKET_AM_VALUES_0, a0
#define GASKET_AM_TYPES_1 GASKET_AM_TYPES_0, gasnet_handlerarg_t
#define GASKET_AM_UNPACK_1(v) GASKET_AM_UNPACK_0(v), v[0]
#define GASKET_AM_PARAMS_2 GASKET_AM_PARAMS_1, gasnet_handlerarg_t a1
#define GASKET_AM_VALUES_2 GASKET_AM_VALUES_1, a1
#define GASKET_AM_TYPES_2 GASKET_AM_TYPES_1, gasnet_handlerarg_t
#define GASKET_AM_UNPACK_2(v) GASKET_AM_UNPACK_1(v), v[1]
#define GASKET_AM_PARAMS_3 GASKET_AM_PARAMS_2, gasnet_handlerarg_t a2
#define GASKET_AM_VALUES_3 GASKET_AM_VALUES_2, a2
#define GASKET_AM_TYPES_3 GASKET_AM_TYPES_2, gasnet_handlerarg_t
#define GASKET_AM_UNPACK_3(v) GASKET_AM_UNPACK_2(v), v[2]
#define GASKET_AM_PARAMS_4 GASKET_AM_PARAMS_3, gasnet_handlerarg_t a3
#define GASKET_AM_VALUES_4 GASKET_AM_VALUES_3, a3
#define GASKET_AM_TYPES_4 GASKET_AM_TYPES_3, gasnet_handlerarg_t
#define GASKET_AM_UNPACK_4(v) GASKET_AM_UNPACK_3(v), v[3]
#define GASKET_AM_PARAMS_5 GASKET_AM_PARAMS_4, gasnet_handlerarg_t a4
#define GASKET_AM_VALUES_5 GASKET_AM_VALUES_4, a4
#define GASKET_AM_TYPES_5 GASKET_AM_TYPES_4, gasnet_handlerarg_t
#define GASKET_AM_UNPACK_5(v) GASKET_AM_UNPACK_4(v), v[4]
#define GASKET_AM_PARAMS_6 GASKET_AM_PARAMS_5, gasnet_handlerarg_t a5
#define GASKET_AM_VALUES_6 GASKET_AM_VALUES_5, a5
#define GASKET_AM_TYPES_6 GASKET_AM_TYPES_5, gasnet_handlerarg_t
#define GASKET_AM_UNPACK_6(v) GASKET_AM_UNPACK_5(v), v[5]
#define GASKET_AM_PARAMS_7 GASKET_AM_PARAMS_6, gasnet_handlerarg_t a6
#define GASKET_AM_VALUES_7 GASKET_AM_VALUES_6, a6
#define GASKET_AM_TYPES_7 GASKET_AM_TYPES_6, gasnet_handlerarg_t
#define GASKET_AM_UNPACK_7(v) GASKET_AM_UNPACK_6(v), v[6]
#define GASKET_AM_PARAMS_8 GASKET_AM_PARAMS_7, gasnet_handlerarg_t a7
#define GASKET_AM_VALUES_8 GASKET_AM_VALUES_7, a7
#define GASKET_AM_TYPES_8 GASKET_AM_TYPES_7, gasnet_handlerarg_t
#define GASKET_AM_UNPACK_8(v) GASKET_AM_UNPACK_7(v), v[7]
#define GASKET_AM_PARAMS_9 GASKET_AM_PARAMS_8, gasnet_handlerarg_t a8
#define GASKET_AM_VALUES_9 GASKET_AM_VALUES_8, a8
#define GASKET_AM_TYPES_9 GASKET_AM_TYPES_8, gasnet_handlerarg_t
#define GASKET_AM_UNPACK_9(v) GASKET_AM_UNPACK_8(v), v[8]
#define GASKET_AM_PARAMS_10 GASKET_AM_PARAMS_9, gasnet_handlerarg_t a9
#define GASKET_AM_VALUES_10 GASKET_AM_VALUES_9, a9
#define GASKET_AM_TYPES_10 GASKET_AM_TYPES_9, gasnet_handlerarg_t
#define GASKET_AM_UNPACK_10(v) GASKET_AM_UNPACK_9(v), v[9]
#define GASKET_AM_PARAMS_11 GASKET_AM_PARAMS_10, gasnet_handlerarg_t a10
#define GASKET_AM_VALUES_11 GASKET_AM_VALUES_10, a10
#define GASKET_AM_TYPES_11 GASKET_AM_TYPES_10, gasnet_handlerarg_t
#define GASKET_AM_UNPACK_11(v) GASKET_AM_UNPACK_10(v), v[10]
#define GASKET_AM_PARAMS_12 GASKET_AM_PARAMS_11, gasnet_handlerarg_t a11
#define GASKET_AM_VALUES_12 GASKET_AM_VALUES_11, a11
#define GASKET_AM_TYPES_12 GASKET_AM_TYPES_11, gasnet_handlerarg_t
#define GASKET_AM_UNPACK_12(v) GASKET_AM_UNPACK_11(v), v[11]
#define GASKET_AM_PARAMS_13 GASKET_AM_PARAMS_12, gasnet_handlerarg_t a12
#define GASKET_AM_VALUES_13 GASKET_AM_VALUES_12, a12
#define GASKET_AM_TYPES_13 GASKET_AM_TYPES_12, gasnet_handlerarg_t
#define GASKET_AM_UNPACK_13(v) GASKET_AM_UNPACK_12(v), v[12]
#define GASKET_AM_PARAMS_14 GASKET_AM_PARAMS_13, gasnet_handlerarg_t a13
#define GASKET_AM_VALUES_14 GASKET_AM_VALUES_13, a13
#define GASKET_AM_TYPES_14 GASKET_AM_TYPES_13, gasnet_handlerarg_t
#define GASKET_AM_UNPACK_14(v) GASKET_AM_UNPACK_13(v), v[13]
#define GASKET_AM_PARAMS_15 GASKET_AM_PARAMS_14, gasnet_handlerarg_t a14
#define GASKET_AM_VALUES_15 GASKET_AM_VALUES_14, a14
#define GASKET_AM_TYPES_15 GASKET_AM_TYPES_14, gasnet_handlerarg_t
#define GASKET_AM_UNPACK_15(v) GASKET_AM_UNPACK_14(v), v[14]
#define GASKET_AM_PARAMS_16 GASKET_AM_PARAMS_15, gasnet_handlerarg_t a15
#define GASKET_AM_VALUES_16 GASKET_AM_VALUES_15, a15
#define GASKET_AM_TYPES_16 GASKET_AM_TYPES_15, gasnet_handlerarg_t
#define GASKET_AM_UNPACK_16(v) GASKET_AM_UNPACK_15(v), v[15]

#endif /* GASKET_GASNET_ARITY_H */
