/*
 * histogram.c -- a distributed histogram with the GASNet 1.8 extended API.
 *
 *   oshcc -std=c11 -O2 -o histogram histogram.c
 *   oshrun -np 4 ./histogram [keys-per-node [bins [seed]]]
 *
 * Every node draws `keys-per-node` random keys in [0, bins).  Bin k belongs
 * to node k % nodes (its "owner"), which keeps it as local bin k / nodes.
 * What it shows (gasnet-1.8-spec.md chapter 3):
 *  1. one-sided puts into per-source slots: each node counts its keys
 *     privately, then puts its counts for each owner's bins into a row of
 *     the owner's segment reserved for this source node
 *     (gasnet_put_nbi_bulk), so no two nodes ever write the same bytes and
 *     no remote read-modify-write is needed;
 *  2. implicit-handle synchronization: gasnet_wait_syncnbi_puts, after which
 *     every one of our puts is at its destination;
 *  3. a split-phase barrier: gasnet_barrier_notify, then local work that
 *     needs nobody else's data (here: computing the expected counts of our
 *     own bins), then gasnet_barrier_wait -- the barrier's latency hides
 *     behind the work;
 *  4. a blocking value put (gasnet_put_val) and explicit-handle gets
 *     (gasnet_get_nb_bulk + gasnet_wait_syncnb_all);
 *  5. a barrier that agrees on failure: a node whose check failed notifies
 *     with GASNET_BARRIERFLAG_MISMATCH, which makes gasnet_barrier_wait
 *     return GASNET_ERR_BARRIER_MISMATCH on every node, so all nodes call
 *     gasnet_exit with the same status.
 *
 * The check needs no reduction: the keys come from a generator seeded with
 * (seed, node), so any node can regenerate every node's keys and count the
 * ones that fall into its own bins.  Node 0 prints
 * "total: <sum of all bins> expected <nodes * keys-per-node> OK"; the exit
 * status is 0 only if every bin on every node matched.
 *
 * No handlers are registered: everything here is one-sided, and no node
 * needs to call into GASNet for another node's puts and gets to complete.
 */
#include <gasnet.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GASNet calls with a result return GASNET_OK or an error code: check them.
 * (Errors in the extended API's transfers are fatal, so those return
 * nothing to check.) */
#define CHECK(call)                                                                                         \
    do {                                                                                                    \
        int rc_ = (call);                                                                                   \
        if (rc_ != GASNET_OK) {                                                                             \
            fprintf(stderr, "node %u: %s failed: %s (%s)\n", gasnet_mynode(), #call, gasnet_ErrorName(rc_), \
                    gasnet_ErrorDesc(rc_));                                                                 \
            gasnet_exit(1); /* ends the whole job */                                                        \
        }                                                                                                   \
    } while (0)

/* ---- the keys ----------------------------------------------------------- */
/* splitmix64: a small, fast generator; the same seed gives the same stream
 * on every node. */
static uint64_t next_random(uint64_t* state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Node `node`'s key stream. */
static uint64_t stream_for(uint64_t seed, gasnet_node_t node) { return seed * 0x100000001b3u + node; }

/* One key in [0, bins): the mean of two uniform draws, so the histogram is
 * a triangle (most keys near the middle) rather than flat. */
static uint64_t next_key(uint64_t* state, uint64_t bins) {
    uint64_t a = next_random(state) % bins, b = next_random(state) % bins;
    return (a + b) / 2;
}

int main(int argc, char** argv) {
    /* gasnet_init comes first, before looking at argv. */
    if (gasnet_init(&argc, &argv) != GASNET_OK) {
        fprintf(stderr, "gasnet_init failed\n");
        return 1;
    }
    gasnet_node_t me = gasnet_mynode(), nodes = gasnet_nodes();
    long keys = argc > 1 ? atol(argv[1]) : 100000;
    long bins_arg = argc > 2 ? atol(argv[2]) : 1000;
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 2024;
    if (keys < 1 || keys > 100000000 || bins_arg < 1 || bins_arg > (1L << 24)) {
        if (me == 0) fprintf(stderr, "usage: histogram [keys per node, 1..1e8 [bins, 1..2^24 [seed]]]\n");
        gasnet_exit(2);
    }
    uint64_t bins = (uint64_t)bins_arg;

    /* Bin k lives on node k % nodes as local bin k / nodes, so each node
     * owns at most `mine` bins (some nodes one fewer). */
    size_t mine = (size_t)((bins + nodes - 1) / nodes);
    size_t row_bytes = mine * sizeof(uint64_t);

    /* The segment, the same layout on every node:
     *   slots[src][b]  counts of local bin b contributed by node src
     *                  (one row per source node: nobody else writes it)
     *   total[b]       the owner's sums of its rows, for node 0 to read
     *   report[n]      node 0 only: node n's count of wrong bins
     * Sizes must be a multiple of GASNET_PAGESIZE. */
    size_t slots_bytes = (size_t)nodes * row_bytes;
    size_t total_off = slots_bytes, report_off = total_off + row_bytes;
    size_t used = report_off + (size_t)nodes * sizeof(uint64_t);
    uintptr_t segsize = (used + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
    if (segsize > gasnet_getMaxGlobalSegmentSize()) { /* collective: every node asks */
        if (me == 0) fprintf(stderr, "histogram: a segment of %zu bytes is too large\n", (size_t)segsize);
        gasnet_exit(2);
    }
    CHECK(gasnet_attach(NULL, 0, segsize, 0)); /* no handlers; a barrier */

    /* Every node's segment address (each in its own node's address space). */
    gasnet_seginfo_t* seg = calloc(nodes, sizeof *seg);
    if (!seg) gasnet_exit(1);
    CHECK(gasnet_getSegmentInfo(seg, (int)nodes));
    /* Our own segment is ordinary memory: we read it directly.  A fresh
     * segment's contents are unspecified, but every byte we read is written
     * first (every row by its source node, total[] and report[] by us or by
     * put_val before a barrier). */
    char* my_seg = seg[me].addr;
    uint64_t* my_slots = (uint64_t*)my_seg;
    uint64_t* my_total = (uint64_t*)(my_seg + total_off);
    uint64_t* my_report = (uint64_t*)(my_seg + report_off);

    /* 1. Count our keys privately: counts[owner][local bin]. */
    uint64_t* counts = calloc((size_t)nodes * mine, sizeof *counts);
    if (!counts) gasnet_exit(1);
    uint64_t state = stream_for(seed, me);
    for (long i = 0; i < keys; ++i) {
        uint64_t k = next_key(&state, bins);
        counts[(k % nodes) * mine + k / nodes]++;
    }

    /* 2. Put our counts for each owner's bins into our row of its segment.
     *    All puts are in flight at once (implicit handles); _bulk because
     *    we do not touch `counts` until they are synchronized.  The put to
     *    ourselves is legal too (GASNet calls it loopback). */
    for (gasnet_node_t owner = 0; owner < nodes; ++owner) {
        char* row = (char*)seg[owner].addr + (size_t)me * row_bytes; /* address on `owner` */
        gasnet_put_nbi_bulk(owner, row, counts + (size_t)owner * mine, row_bytes);
    }
    gasnet_wait_syncnbi_puts(); /* every put above is now in its owner's segment */

    /* 3. Split-phase barrier: tell everyone our puts are done, ... */
    gasnet_barrier_notify(1, 0); /* named barrier, id 1 */

    /*    ... do work that needs nobody else's data meanwhile: the expected
     *    count of each of our bins, from every node's regenerated keys ... */
    uint64_t* expected = calloc(mine, sizeof *expected);
    if (!expected) gasnet_exit(1);
    for (gasnet_node_t src = 0; src < nodes; ++src) {
        uint64_t s = stream_for(seed, src);
        for (long i = 0; i < keys; ++i) {
            uint64_t k = next_key(&s, bins);
            if (k % nodes == me) expected[k / nodes]++;
        }
    }

    /*    ... and wait until every node has notified, i.e. every row of our
     *    slots has been written. */
    CHECK(gasnet_barrier_wait(1, 0));

    /* 4. Sum our rows and compare with what we expect.  (A node with one
     *    bin fewer than `mine` has an unused last entry: no key counts
     *    there and none is expected, so it sums to 0 and checks out.) */
    uint64_t wrong = 0;
    for (size_t b = 0; b < mine; ++b) {
        uint64_t sum = 0;
        for (gasnet_node_t src = 0; src < nodes; ++src) sum += my_slots[(size_t)src * mine + b];
        my_total[b] = sum;
        if (sum != expected[b]) {
            if (wrong == 0) { /* the first wrong bin only */
                printf("node %u: bin %" PRIu64 " holds %" PRIu64 ", expected %" PRIu64 "\n", me,
                       (uint64_t)me + (uint64_t)nodes * b, sum, expected[b]);
                fflush(stdout);
            }
            wrong++;
        }
    }
    /* Report our number of wrong bins to node 0: a blocking value put, into
     * our own slot of node 0's report[] (complete when the call returns). */
    gasnet_put_val(0, (char*)seg[0].addr + report_off + (size_t)me * sizeof(uint64_t), wrong, sizeof(uint64_t));

    /* 5. A barrier that carries "something is wrong": MISMATCH on any node
     *    makes every node's wait return GASNET_ERR_BARRIER_MISMATCH.  It
     *    also orders every total[] and report[] write before node 0 reads. */
    int flags = wrong ? GASNET_BARRIERFLAG_MISMATCH : 0;
    gasnet_barrier_notify(2, flags);
    int failed = gasnet_barrier_wait(2, flags) != GASNET_OK;

    /* 6. Node 0 fetches every owner's totals (explicit handles, all in
     *    flight at once), puts the histogram together and prints it. */
    if (me == 0) {
        uint64_t* global = calloc((size_t)nodes * mine, sizeof *global);
        gasnet_handle_t* handles = calloc(nodes, sizeof *handles);
        if (!global || !handles) gasnet_exit(1);
        for (gasnet_node_t owner = 0; owner < nodes; ++owner)
            handles[owner] =
                gasnet_get_nb_bulk(global + (size_t)owner * mine, owner, (char*)seg[owner].addr + total_off, row_bytes);
        gasnet_wait_syncnb_all(handles, nodes);

        uint64_t total = 0, lo = UINT64_MAX, hi = 0;
        for (uint64_t k = 0; k < bins; ++k) {
            uint64_t c = global[(k % nodes) * mine + k / nodes];
            total += c;
            if (c < lo) lo = c;
            if (c > hi) hi = c;
        }
        uint64_t want = (uint64_t)keys * nodes;
        printf("histogram: %u nodes, %ld keys per node, %" PRIu64 " bins (seed %" PRIu64 ")\n", nodes, keys, bins,
               seed);
        printf("total: %" PRIu64 " expected %" PRIu64 " %s\n", total, want, total == want ? "OK" : "MISMATCH");
        printf("bins hold %" PRIu64 "..%" PRIu64 " keys\n", lo, hi);
        /* Ten coarse buckets of the histogram, as a bar chart. */
        int parts = bins < 10 ? (int)bins : 10;
        for (int p = 0; p < parts; ++p) {
            uint64_t from = bins * (uint64_t)p / (uint64_t)parts, to = bins * (uint64_t)(p + 1) / (uint64_t)parts;
            uint64_t c = 0;
            for (uint64_t k = from; k < to; ++k) c += global[(k % nodes) * mine + k / nodes];
            int bar = want ? (int)(c * 200 / want) : 0;
            printf("  [%6" PRIu64 ", %6" PRIu64 ") %9" PRIu64 " %.*s\n", from, to, c, bar,
                   "##################################################");
        }
        for (gasnet_node_t n = 0; n < nodes; ++n) printf("node %u: %" PRIu64 " wrong bins\n", n, my_report[n]);
        if (total != want) failed = 1;
        free(handles);
        free(global);
    }

    /* 7. Exit together.  Node 0's own verdict (the total) reaches the others
     *    through one more MISMATCH barrier, so every node calls gasnet_exit
     *    with the same status (gasnet_exit never returns). */
    flags = failed ? GASNET_BARRIERFLAG_MISMATCH : 0;
    gasnet_barrier_notify(3, flags);
    failed = gasnet_barrier_wait(3, flags) != GASNET_OK;
    if (me == 0) printf("%s\n", failed ? "FAILED" : "all checks passed");
    free(expected);
    free(counts);
    free(seg);
    gasnet_exit(failed ? 1 : 0);
    return 0;
}
