/* examples/gex-ring/ring.c -- a token travels around a ring of processes
 * with GASNet-EX RMA (gasnetex.h, docs/gasnet-ex.md).
 *
 * Every process owns an inbox in its segment.  Each round it puts its value
 * plus one into its right neighbour's inbox (an explicit-event put, waited
 * for), the processes meet in a barrier, and each takes the value that
 * arrived.  After ROUNDS rounds process p holds ((p - ROUNDS) mod n) +
 * ROUNDS; each process also reads its left neighbour's inbox with a
 * blocking get to check it saw the same.  Prints one line per process and
 * exits 0 when every process got what it expected.
 *
 *     oshcc -o gex-ring ring.c && oshrun -np 4 ./gex-ring 100
 */
#include <gasnetex.h>
#include <gasnet.h> /* gasnet_barrier_*, gasnet_exit: still GASNet-1's */

#include <stdio.h>
#include <stdlib.h>

static void barrier(void) {
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
}

int main(int argc, char** argv) {
    gex_Client_t client;
    gex_EP_t ep;
    gex_TM_t team;
    gex_Segment_t segment;
    if (gex_Client_Init(&client, &ep, &team, "GEX_RING", &argc, &argv, GEX_FLAG_USES_GASNET1) != GASNET_OK) return 1;
    if (gex_Segment_Attach(&segment, team, GASNET_PAGESIZE) != GASNET_OK) gasnet_exit(1);
    const long rounds = argc > 1 ? atol(argv[1]) : 10;
    const gex_Rank_t me = gex_TM_QueryRank(team), n = gex_TM_QuerySize(team);
    const gex_Rank_t right = (me + 1) % n, left = (me + n - 1) % n;

    /* Where the neighbours' inboxes are: their segments' base addresses. */
    volatile long* inbox = gex_Segment_QueryAddr(segment);
    void *right_base, *left_base;
    gex_Event_Wait(gex_EP_QueryBoundSegmentNB(team, right, &right_base, NULL, NULL, 0));
    gex_Event_Wait(gex_EP_QueryBoundSegmentNB(team, left, &left_base, NULL, NULL, 0));

    long value = me;
    int ok = 1;
    for (long r = 0; r < rounds; ++r) {
        const long next = value + 1;
        gex_Event_t done = gex_RMA_PutNB(team, right, right_base, &next, sizeof next, GEX_EVENT_NOW, 0);
        gex_Event_Wait(done); /* at the neighbour now */
        barrier();            /* every inbox is written */
        value = *inbox;
        long seen_left; /* what the left neighbour received, read from its inbox */
        gex_RMA_GetBlocking(team, &seen_left, left, left_base, sizeof seen_left, 0);
        const long want_left = ((long)left - r - 1) % (long)n;
        if (seen_left != (want_left < 0 ? want_left + (long)n : want_left) + r + 1) ok = 0;
        barrier(); /* every inbox is read before the next round writes it */
    }
    long start = ((long)me - rounds) % (long)n;
    if (start < 0) start += n;
    const long expected = start + rounds;
    ok = ok && value == expected;
    printf("ring: rank %u value %ld expected %ld %s\n", me, value, expected, ok ? "OK" : "WRONG");
    fflush(stdout);
    barrier(); /* every line is out before anyone exits */
    gasnet_exit(ok ? 0 : 1);
    return 0;
}
