/* tests/bench/gasp_cost.c -- the hot routines GASP must not slow down,
 * each called a fixed number of times from PE/node 0 to 1 (node fast path
 * as the environment says), for gasp-cost.py, which counts the instructions
 * each call takes under valgrind's callgrind: a count per call that does
 * not depend on the machine's load, so "no cost without a tool" can be
 * checked to the instruction (docs/gasp.md, "Cost").
 *
 *     gasp-cost-ops shmem|gasnet|gex [CALLS]      (2 PEs; CALLS default 10000)
 *
 * `gex` calls the GASNet-EX forms of the `gasnet` routines and then those
 * routines, in one job (issue 17: GASNet-EX within 1.05x of GASNet-1).
 *
 * Prints "ROUTINES name..." (the routines it called CALLS times each) and
 * "CALLS n"; exits 0 when every value read back is the one written. */
#include <gasnet.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long global_target;

static const char* shmem_routines =
    "shmem_getmem shmem_putmem shmem_putmem_nbi shmem_long_p shmem_long_g shmem_long_put shmem_ctx_getmem "
    "shmem_quiet shmem_fence shmem_long_atomic_fetch_add shmem_long_atomic_add";
static const char* gasnet_routines =
    "gasnet_put gasnet_get gasnet_put_nbi gasnet_put_val gasnet_hsl_lock gasnet_hsl_unlock";
static const char* gex_routines =
    "gex_RMA_PutBlocking gex_RMA_GetBlocking gex_RMA_PutNBI gex_RMA_PutBlockingVal gasnet_put gasnet_get "
    "gasnet_put_nbi gasnet_put_val gasnet_hsl_lock gasnet_hsl_unlock";

static int run_shmem(long calls) {
    shmem_init();
    long* remote = shmem_calloc(1, sizeof(long));
    shmem_ctx_t ctx;
    if (shmem_ctx_create(0, &ctx) != 0) {
        fprintf(stderr, "gasp-cost-ops: shmem_ctx_create failed\n");
        return 1;
    }
    int bad = 0;
    if (shmem_my_pe() == 0) {
        long v = 7, got = 0;
        for (long i = 0; i < calls; ++i) shmem_putmem(remote, &v, sizeof v, 1);
        for (long i = 0; i < calls; ++i) shmem_getmem(&got, remote, sizeof got, 1);
        bad |= got != 7;
        for (long i = 0; i < calls; ++i) shmem_putmem_nbi(remote, &v, sizeof v, 1);
        for (long i = 0; i < calls; ++i) shmem_quiet();
        for (long i = 0; i < calls; ++i) shmem_long_p(remote, i, 1);
        for (long i = 0; i < calls; ++i) got = shmem_long_g(remote, 1);
        bad |= got != calls - 1;
        for (long i = 0; i < calls; ++i) shmem_long_put(&global_target, &v, 1, 1);
        for (long i = 0; i < calls; ++i) shmem_ctx_getmem(ctx, &got, remote, sizeof got, 1);
        bad |= got != calls - 1;
        for (long i = 0; i < calls; ++i) shmem_fence();
        shmem_long_p(remote, 0, 1);
        shmem_quiet();
        for (long i = 0; i < calls; ++i) got = shmem_long_atomic_fetch_add(remote, 1, 1);
        bad |= got != calls - 1;
        for (long i = 0; i < calls; ++i) shmem_long_atomic_add(remote, 1, 1);
        shmem_quiet();
        bad |= shmem_long_g(remote, 1) != 2 * calls;
    }
    shmem_barrier_all();
    if (shmem_my_pe() == 1) bad |= global_target != 7;
    shmem_ctx_destroy(ctx);
    shmem_free(remote);
    shmem_finalize();
    return bad;
}

/* gex: the GASNet-EX forms first (then the GASNet-1 ones, below). */
static int run_gex_forms(gex_TM_t tm, long* remote, long calls) {
    long v = 7, got = 0;
    int bad = 0;
    for (long i = 0; i < calls; ++i) gex_RMA_PutBlocking(tm, 1, remote, &v, sizeof v, 0);
    for (long i = 0; i < calls; ++i) gex_RMA_GetBlocking(tm, &got, 1, remote, sizeof got, 0);
    bad |= got != 7;
    for (long i = 0; i < calls; ++i) gex_RMA_PutNBI(tm, 1, remote, &v, sizeof v, GEX_EVENT_NOW, 0);
    gex_NBI_Wait(GEX_EC_PUT, 0);
    for (long i = 0; i < calls; ++i) gex_RMA_PutBlockingVal(tm, 1, remote, (gex_RMA_Value_t)i, sizeof(long), 0);
    gex_RMA_GetBlocking(tm, &got, 1, remote, sizeof got, 0);
    bad |= got != calls - 1;
    return bad;
}

static int run_gasnet(int argc, char** argv, long calls, int gex) {
    gex_Client_t client;
    gex_EP_t ep;
    gex_TM_t tm = GEX_TM_INVALID;
    gex_Segment_t segment;
    if (gex ? gex_Client_Init(&client, &ep, &tm, "GASP_COST", &argc, &argv, GEX_FLAG_USES_GASNET1) != GASNET_OK ||
                  gex_Segment_Attach(&segment, tm, 1 << 16) != GASNET_OK
            : gasnet_init(&argc, &argv) != GASNET_OK || gasnet_attach(NULL, 0, 1 << 16, 0) != GASNET_OK) {
        fprintf(stderr, "gasp-cost-ops: %s failed\n", gex ? "gex_Client_Init/Segment_Attach" : "gasnet_init/attach");
        return 1;
    }
    gasnet_seginfo_t seg[2];
    gasnet_getSegmentInfo(seg, 2);
    int bad = 0;
    if (gasnet_mynode() == 0) {
        long* remote = (long*)seg[1].addr;
        long v = 7, got = 0;
        if (gex) bad |= run_gex_forms(tm, remote, calls);
        for (long i = 0; i < calls; ++i) gasnet_put(1, remote, &v, sizeof v);
        for (long i = 0; i < calls; ++i) gasnet_get(&got, 1, remote, sizeof got);
        bad |= got != 7;
        for (long i = 0; i < calls; ++i) gasnet_put_nbi(1, remote, &v, sizeof v);
        gasnet_wait_syncnbi_all();
        for (long i = 0; i < calls; ++i) gasnet_put_val(1, remote, (gasnet_register_value_t)i, sizeof(long));
        gasnet_get(&got, 1, remote, sizeof got);
        bad |= got != calls - 1;
        static gasnet_hsl_t hsl = GASNET_HSL_INITIALIZER;
        for (long i = 0; i < calls; ++i) {
            gasnet_hsl_lock(&hsl);
            gasnet_hsl_unlock(&hsl);
        }
    }
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_exit(bad);
    return bad;
}

int main(int argc, char** argv) {
    if (argc < 2 || (strcmp(argv[1], "shmem") != 0 && strcmp(argv[1], "gasnet") != 0 && strcmp(argv[1], "gex") != 0)) {
        fprintf(stderr, "usage: gasp-cost-ops shmem|gasnet|gex [CALLS]\n");
        return 2;
    }
    const long calls = argc > 2 ? atol(argv[2]) : 10000;
    if (calls < 1) {
        fprintf(stderr, "gasp-cost-ops: CALLS must be at least 1, got %s\n", argv[2]);
        return 2;
    }
    const int shmem = strcmp(argv[1], "shmem") == 0, gex = strcmp(argv[1], "gex") == 0;
    printf("ROUTINES %s\nCALLS %ld\n", shmem ? shmem_routines : gex ? gex_routines : gasnet_routines, calls);
    fflush(stdout);
    const int bad = shmem ? run_shmem(calls) : run_gasnet(argc, argv, calls, gex);
    if (bad) fprintf(stderr, "gasp-cost-ops: a value read back was wrong\n");
    return bad;
}
