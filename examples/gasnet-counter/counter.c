/*
 * counter.c -- a distributed counter with GASNet 1.8 Active Messages.
 *
 *   oshcc -std=c11 -O2 -o counter counter.c
 *   oshrun -np 4 ./counter [increments-per-node]
 *
 * What it shows (gasnet-1.8-spec.md chapter 2):
 *  1. gasnet_init / gasnet_attach with a handler table and a segment;
 *  2. Short requests and replies: every node (node 0 too) sends
 *     INCREMENTS requests "add k" to node 0; node 0's handler updates the
 *     counter under a handler-safe lock (gasnet_hsl_t) and replies with the
 *     new value;
 *  3. Long requests: every node puts a block of bytes straight into its
 *     right neighbour's segment (address from gasnet_getSegmentInfo); the
 *     neighbour's handler runs once the bytes are there and replies with a
 *     checksum;
 *  4. Medium requests: every node sends node 0 a line of text, which node 0
 *     prints in node order;
 *  5. a barrier built from Active Messages (GASNet's core API has none),
 *     and a collective gasnet_exit with a status every node agrees on.
 *
 * Node 0 prints "counter: <value> expected <value> OK" (MISMATCH when they
 * differ); the exit status is 0 only if every check on every node passed.
 *
 * Handlers run while the program polls (GASNET_BLOCKUNTIL, gasnet_AMPoll,
 * any request call) and may also run on Gasket's progress thread, i.e. at
 * the same time as main().  Everything a handler shares with main() is
 * therefore read and written under the handler-safe lock `lock`.
 */
#include <gasnet.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Handler indices: clients own 128..255.  The same table on every node. */
enum {
    H_INCREMENT = 200, /* request, node 0: counter += a0; reply H_INCREMENT_DONE */
    H_INCREMENT_DONE,  /* reply: a0 = counter value after our increment */
    H_BLOCK_ARRIVED,   /* Long request: block landed in our segment; reply H_BLOCK_SUM */
    H_BLOCK_SUM,       /* reply: a0 = checksum of the block as it landed */
    H_REPORT,          /* Medium request, node 0: a line of text from node a0 */
    H_ARRIVE,          /* request, node 0: a node reached the barrier (a1 = its failures) */
    H_RELEASE,         /* request from node 0: barrier a0 is complete (a1 = total failures) */
};

#define BLOCK_BYTES 4096 /* bytes each node puts into its neighbour's segment */
#define MAX_LINE 128     /* a report line, bytes */

/* ---- state shared by handlers and main(), all under `lock` ---------- */
static gasnet_hsl_t lock = GASNET_HSL_INITIALIZER;
static long counter;                   /* node 0: the distributed counter */
static long increments_done;           /* replies to our increments received */
static long largest_value_seen;        /* largest counter value a reply told us */
static int block_arrived;              /* a neighbour's block is in our segment */
static long block_sum_reply = -1;      /* checksum our neighbour computed of our block */
static long barrier_arrived;           /* node 0: arrivals so far, all barriers */
static long barrier_failures;          /* node 0: failures reported at the current barrier */
static long barrier_released;          /* the last barrier node 0 released */
static long barrier_total;             /* total failures node 0 announced with it */
static char (*report_lines)[MAX_LINE]; /* node 0: one line per node */
static int reports_received;

/* Reads a shared long under the lock (for GASNET_BLOCKUNTIL conditions). */
static long locked_read(const long* p) {
    gasnet_hsl_lock(&lock);
    long v = *p;
    gasnet_hsl_unlock(&lock);
    return v;
}
static int locked_read_int(const int* p) {
    gasnet_hsl_lock(&lock);
    int v = *p;
    gasnet_hsl_unlock(&lock);
    return v;
}

/* A byte pattern that depends on the sending node, and its checksum. */
static unsigned char block_byte(gasnet_node_t node, size_t i) { return (unsigned char)(node * 31 + i * 7); }
static long checksum(const unsigned char* p, size_t n) {
    long s = 0;
    for (size_t i = 0; i < n; ++i) s = (s * 131 + p[i]) % 1000000007L;
    return s;
}

/* ---- handlers ------------------------------------------------------- */
/* A request handler may reply once (to the sender), must not block, poll
 * or send requests, and must release every HSL before it replies. */

static void increment_handler(gasnet_token_t token, gasnet_handlerarg_t amount) {
    gasnet_hsl_lock(&lock);
    counter += amount;
    long value = counter;
    gasnet_hsl_unlock(&lock); /* unlock before replying */
    gasnet_AMReplyShort1(token, H_INCREMENT_DONE, (gasnet_handlerarg_t)value);
}

static void increment_done_handler(gasnet_token_t token, gasnet_handlerarg_t value) {
    (void)token;
    gasnet_hsl_lock(&lock);
    increments_done++;
    if (value > largest_value_seen) largest_value_seen = value;
    gasnet_hsl_unlock(&lock);
}

/* Long: `buf` points into this node's segment, where the bytes already are. */
static void block_arrived_handler(gasnet_token_t token, void* buf, size_t nbytes) {
    long sum = checksum(buf, nbytes);
    gasnet_hsl_lock(&lock);
    block_arrived = 1;
    gasnet_hsl_unlock(&lock);
    gasnet_AMReplyShort1(token, H_BLOCK_SUM, (gasnet_handlerarg_t)sum);
}

static void block_sum_handler(gasnet_token_t token, gasnet_handlerarg_t sum) {
    (void)token;
    gasnet_hsl_lock(&lock);
    block_sum_reply = sum;
    gasnet_hsl_unlock(&lock);
}

/* Medium: `buf` is a temporary copy that disappears when the handler
 * returns, so copy out what is needed.  No reply: none is required. */
static void report_handler(gasnet_token_t token, void* buf, size_t nbytes, gasnet_handlerarg_t from) {
    (void)token;
    if (nbytes >= MAX_LINE) nbytes = MAX_LINE - 1;
    gasnet_hsl_lock(&lock);
    memcpy(report_lines[from], buf, nbytes);
    report_lines[from][nbytes] = '\0';
    reports_received++;
    gasnet_hsl_unlock(&lock);
}

static void arrive_handler(gasnet_token_t token, gasnet_handlerarg_t epoch, gasnet_handlerarg_t failures) {
    (void)token;
    (void)epoch;
    gasnet_hsl_lock(&lock);
    barrier_arrived++;
    barrier_failures += failures;
    gasnet_hsl_unlock(&lock);
}

static void release_handler(gasnet_token_t token, gasnet_handlerarg_t epoch, gasnet_handlerarg_t total) {
    (void)token;
    gasnet_hsl_lock(&lock);
    barrier_total = total;
    barrier_released = epoch;
    gasnet_hsl_unlock(&lock);
}

/* ---- a barrier made of Active Messages ------------------------------ */
/* Every node tells node 0 it has arrived (with a count of its failed
 * checks); node 0 waits for all, then releases each node with the total.
 * Returns the total failures of all nodes.  Counts are cumulative over
 * barriers, so nothing is reset between them. */
static long barrier(long my_failures) {
    static long epoch = 0; /* barriers done so far */
    ++epoch;
    gasnet_node_t nodes = gasnet_nodes();
    /* node 0 arrives at its own handler too (a loopback request) */
    gasnet_AMRequestShort2(0, H_ARRIVE, (gasnet_handlerarg_t)epoch, (gasnet_handlerarg_t)my_failures);
    if (gasnet_mynode() == 0) {
        GASNET_BLOCKUNTIL(locked_read(&barrier_arrived) == (long)nodes * epoch);
        gasnet_hsl_lock(&lock);
        long total = barrier_failures;
        barrier_failures = 0;
        gasnet_hsl_unlock(&lock);
        for (gasnet_node_t n = 0; n < nodes; ++n)
            gasnet_AMRequestShort2(n, H_RELEASE, (gasnet_handlerarg_t)epoch, (gasnet_handlerarg_t)total);
    }
    GASNET_BLOCKUNTIL(locked_read(&barrier_released) == epoch);
    return locked_read(&barrier_total);
}

/* GASNet calls return GASNET_OK or an error code: check them. */
#define CHECK(call)                                                                                         \
    do {                                                                                                    \
        int rc_ = (call);                                                                                   \
        if (rc_ != GASNET_OK) {                                                                             \
            fprintf(stderr, "node %u: %s failed: %s (%s)\n", gasnet_mynode(), #call, gasnet_ErrorName(rc_), \
                    gasnet_ErrorDesc(rc_));                                                                 \
            gasnet_exit(1); /* ends the whole job */                                                        \
        }                                                                                                   \
    } while (0)

int main(int argc, char** argv) {
    /* gasnet_init comes first, before looking at argv. */
    if (gasnet_init(&argc, &argv) != GASNET_OK) {
        fprintf(stderr, "gasnet_init failed\n");
        return 1;
    }
    long increments = argc > 1 ? atol(argv[1]) : 1000;
    if (increments < 1 || increments > 100000) {
        if (gasnet_mynode() == 0) fprintf(stderr, "usage: counter [increments per node, 1..100000]\n");
        gasnet_exit(2);
    }

    gasnet_handlerentry_t handlers[] = {
        {H_INCREMENT, (void (*)())increment_handler},
        {H_INCREMENT_DONE, (void (*)())increment_done_handler},
        {H_BLOCK_ARRIVED, (void (*)())block_arrived_handler},
        {H_BLOCK_SUM, (void (*)())block_sum_handler},
        {H_REPORT, (void (*)())report_handler},
        {H_ARRIVE, (void (*)())arrive_handler},
        {H_RELEASE, (void (*)())release_handler},
    };
    /* The segment must be a multiple of GASNET_PAGESIZE. */
    uintptr_t segsize = (BLOCK_BYTES + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
    CHECK(gasnet_attach(handlers, (int)(sizeof handlers / sizeof handlers[0]), segsize, 0));
    /* gasnet_attach is a barrier: every node's handlers are registered now. */

    gasnet_node_t me = gasnet_mynode(), nodes = gasnet_nodes();
    long failures = 0;
    report_lines = calloc(nodes, sizeof *report_lines);
    if (!report_lines) gasnet_exit(1);

    /* 1. The counter.  Node n adds n+1, `increments` times.  All requests
     *    go out first; then we wait for every reply. */
    for (long i = 0; i < increments; ++i) CHECK(gasnet_AMRequestShort1(0, H_INCREMENT, (gasnet_handlerarg_t)(me + 1)));
    GASNET_BLOCKUNTIL(locked_read(&increments_done) == increments);
    long expected = increments * (long)nodes * ((long)nodes + 1) / 2;
    long seen = locked_read(&largest_value_seen);
    if (seen < increments * (long)(me + 1) || seen > expected) {
        printf("node %u: a reply said the counter was %ld, impossible\n", me, seen);
        failures++;
    }
    (void)barrier(failures); /* every node's increments are counted now */
    if (me == 0) {
        long value = locked_read(&counter);
        int ok = value == expected;
        printf("counter: %ld expected %ld %s\n", value, expected, ok ? "OK" : "MISMATCH");
        if (!ok) failures++;
    }

    /* 2. Long: put a block into the right neighbour's segment. */
    gasnet_seginfo_t* seg = calloc(nodes, sizeof *seg);
    if (!seg) gasnet_exit(1);
    CHECK(gasnet_getSegmentInfo(seg, (int)nodes));
    gasnet_node_t right = (me + 1) % nodes, left = (me + nodes - 1) % nodes;
    unsigned char block[BLOCK_BYTES];
    for (size_t i = 0; i < BLOCK_BYTES; ++i) block[i] = block_byte(me, i);
    CHECK(gasnet_AMRequestLong0(right, H_BLOCK_ARRIVED, block, BLOCK_BYTES, seg[right].addr));
    /* our block's checksum comes back; the left neighbour's block arrives */
    GASNET_BLOCKUNTIL(locked_read(&block_sum_reply) >= 0 && locked_read_int(&block_arrived));
    if (locked_read(&block_sum_reply) != checksum(block, BLOCK_BYTES)) {
        printf("node %u: node %u received a different block\n", me, right);
        failures++;
    }
    const unsigned char* mine = seg[me].addr; /* our own segment: the left neighbour's block */
    for (size_t i = 0; i < BLOCK_BYTES; ++i)
        if (mine[i] != block_byte(left, i)) {
            printf("node %u: byte %zu from node %u is %u, expected %u\n", me, i, left, mine[i], block_byte(left, i));
            failures++;
            break;
        }

    /* 3. Medium: a line of text to node 0. */
    char line[MAX_LINE];
    int len = snprintf(line, sizeof line, "node %u: %ld increments, largest counter value seen %ld, block %s", me,
                       increments, seen, failures ? "WRONG" : "ok");
    CHECK(gasnet_AMRequestMedium1(0, H_REPORT, line, (size_t)len, (gasnet_handlerarg_t)me));
    if (me == 0) {
        GASNET_BLOCKUNTIL(locked_read_int(&reports_received) == (int)nodes);
        for (gasnet_node_t n = 0; n < nodes; ++n) printf("%s\n", report_lines[n]);
    }

    /* 4. Exit: a last barrier tells every node everyone's failures, so all
     *    call gasnet_exit with the same status (gasnet_exit never returns). */
    long total = barrier(failures);
    if (me == 0) printf("%s\n", total ? "FAILED" : "all checks passed");
    free(seg);
    free(report_lines);
    gasnet_exit(total ? 1 : 0);
    return 0;
}
