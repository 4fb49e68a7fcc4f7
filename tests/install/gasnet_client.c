/* A GASNet-1 client as an existing GASNet build system compiles it
 * (check_gasnet_client.sh builds it with mpi-seq.mak, pkg-config
 * gasnet-mpi-par and gasnet-cc, and runs it with gasnetrun_mpi).
 *
 *   gasnet_client MODE [NAME=VALUE | ARG]...
 *
 * MODE is the thread mode the build system should have selected (SEQ, PAR
 * or PARSYNC): the mode gasnet.h saw in this file and in
 * gasnet_client_cxx.cpp (compiled with the C++ flags) must both be MODE.
 * Each NAME=VALUE argument: the environment variable NAME must be VALUE on
 * every node (gasnetrun_mpi -E forwards it).  Every node then does
 *  - an Active Message ping-pong with its right neighbour: ROUNDS Short
 *    requests, each answered by a Short reply carrying the value + 1, and
 *    one Medium request whose payload and source the handler checks;
 *  - a blocking put of its own pattern into its right neighbour's
 *    segment, a check (after a barrier) of the pattern its left neighbour
 *    put into its own segment, and a blocking get of its pattern back from
 *    the right neighbour, each checked word by word.
 * A node that finds a wrong result prints "WRONG: ..." and ends the job
 * with gasnet_exit(1).  Otherwise each node prints
 *   gasnet_client: node I of N ok mode=MODE args=[ARG][ARG]...
 * with every argument after MODE, so the caller can see they arrived
 * unchanged. */
#include <gasnet.h>

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(GASNET_PAR)
#define CLIENT_MODE "PAR"
#elif defined(GASNET_PARSYNC)
#define CLIENT_MODE "PARSYNC"
#else
#define CLIENT_MODE "SEQ"
#endif

const char* client_cxx_mode(void); /* gasnet_client_cxx.cpp */

enum { ROUNDS = 50, WORDS = 512, PAYLOAD = 64, PING = 200, PONG = 201, MEDIUM = 202 };

static atomic_int pings_seen, pongs_seen, last_pong = -1, medium_seen, handler_errors;
static int left_node; /* who sends us requests */

static void fail(const char* what, long got, long want) {
    fprintf(stderr, "WRONG: node %u: %s: got %ld, expected %ld\n", (unsigned)gasnet_mynode(), what, got, want);
    fflush(stderr);
    gasnet_exit(1);
}

static void ping_handler(gasnet_token_t token, gasnet_handlerarg_t value) {
    gasnet_node_t src = 0;
    if (gasnet_AMGetMsgSource(token, &src) != GASNET_OK || (int)src != left_node) atomic_fetch_add(&handler_errors, 1);
    atomic_fetch_add(&pings_seen, 1);
    gasnet_AMReplyShort1(token, PONG, value + 1);
}

static void pong_handler(gasnet_token_t token, gasnet_handlerarg_t value) {
    (void)token;
    atomic_store(&last_pong, (int)value);
    atomic_fetch_add(&pongs_seen, 1);
}

static void medium_handler(gasnet_token_t token, void* buf, size_t nbytes, gasnet_handlerarg_t from) {
    const int32_t* words = buf;
    int bad = nbytes != PAYLOAD * sizeof(int32_t) || from != left_node;
    for (int i = 0; !bad && i < PAYLOAD; i++) bad = words[i] != from * 1000 + i;
    (void)token;
    if (bad) atomic_fetch_add(&handler_errors, 1);
    atomic_fetch_add(&medium_seen, 1);
}

static void barrier(void) {
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    if (gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS) != GASNET_OK) fail("gasnet_barrier_wait", 1, 0);
}

static void check_arguments(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "WRONG: usage: gasnet_client MODE [NAME=VALUE | ARG]...\n");
        gasnet_exit(2);
    }
    if (strcmp(argv[1], CLIENT_MODE) != 0 || strcmp(client_cxx_mode(), CLIENT_MODE) != 0) {
        fprintf(stderr, "WRONG: node %u: built in mode %s (C) and %s (C++), expected %s\n", (unsigned)gasnet_mynode(),
                CLIENT_MODE, client_cxx_mode(), argv[1]);
        gasnet_exit(1);
    }
    for (int i = 2; i < argc; i++) {
        const char* eq = strchr(argv[i], '=');
        if (!eq) continue;
        char name[256];
        size_t len = (size_t)(eq - argv[i]);
        if (len == 0 || len >= sizeof name) continue;
        memcpy(name, argv[i], len);
        name[len] = '\0';
        const char* value = getenv(name);
        if (!value || strcmp(value, eq + 1) != 0) {
            fprintf(stderr, "WRONG: node %u: %s is %s%s%s, expected '%s'\n", (unsigned)gasnet_mynode(), name,
                    value ? "'" : "", value ? value : "unset", value ? "'" : "", eq + 1);
            gasnet_exit(1);
        }
    }
}

static void active_messages(gasnet_node_t me, gasnet_node_t right) {
    for (int r = 0; r < ROUNDS; r++) {
        int value = (int)me * 100000 + r;
        gasnet_AMRequestShort1(right, PING, value);
        GASNET_BLOCKUNTIL(atomic_load(&pongs_seen) == r + 1);
        if (atomic_load(&last_pong) != value + 1) fail("reply value", atomic_load(&last_pong), value + 1);
    }
    int32_t payload[PAYLOAD];
    for (int i = 0; i < PAYLOAD; i++) payload[i] = (int32_t)me * 1000 + i;
    gasnet_AMRequestMedium1(right, MEDIUM, payload, sizeof payload, (gasnet_handlerarg_t)me);
    GASNET_BLOCKUNTIL(atomic_load(&pings_seen) == ROUNDS && atomic_load(&medium_seen) == 1);
    if (atomic_load(&handler_errors) != 0) fail("requests with a wrong source or payload", handler_errors, 0);
}

/* Segment layout: words [0, WORDS) are written only by our left
 * neighbour's put.  Node n writes (n << 32 | i) into its right neighbour,
 * so afterwards our segment holds left's pattern, and the right
 * neighbour's segment holds ours, which we read back with a get. */
static void put_get(gasnet_node_t me, gasnet_node_t right, const gasnet_seginfo_t* seg) {
    static uint64_t src[WORDS], back[WORDS];
    for (int i = 0; i < WORDS; i++) src[i] = (uint64_t)me << 32 | (uint64_t)i;
    gasnet_put(right, seg[right].addr, src, sizeof src);
    barrier();
    const uint64_t* mine = seg[me].addr;
    for (int i = 0; i < WORDS; i++)
        if (mine[i] != ((uint64_t)left_node << 32 | (uint64_t)i)) fail("word put by the left node", (long)mine[i], i);
    gasnet_get(back, right, seg[right].addr, sizeof back);
    for (int i = 0; i < WORDS; i++)
        if (back[i] != src[i]) fail("word read back from the right node", (long)back[i], (long)src[i]);
}

int main(int argc, char** argv) {
    gasnet_handlerentry_t handlers[] = {
        {PING, (void (*)())ping_handler}, {PONG, (void (*)())pong_handler}, {MEDIUM, (void (*)())medium_handler}};
    if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
    gasnet_node_t me = gasnet_mynode(), nodes = gasnet_nodes(), right = (gasnet_node_t)((me + 1) % nodes);
    left_node = (int)((me + nodes - 1) % nodes);
    check_arguments(argc, argv);
    uintptr_t segsize = (WORDS * sizeof(uint64_t) + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
    if (gasnet_attach(handlers, 3, segsize, 0) != GASNET_OK) fail("gasnet_attach", 1, 0);
    gasnet_seginfo_t* seg = calloc(nodes, sizeof *seg);
    if (!seg || gasnet_getSegmentInfo(seg, (int)nodes) != GASNET_OK) fail("gasnet_getSegmentInfo", 1, 0);

    active_messages(me, right);
    put_get(me, right, seg);
    barrier();

    char args[1024] = "";
    for (int i = 2; i < argc; i++) {
        size_t used = strlen(args);
        snprintf(args + used, sizeof args - used, "[%s]", argv[i]);
    }
    printf("gasnet_client: node %u of %u ok mode=%s args=%s\n", (unsigned)me, (unsigned)nodes, CLIENT_MODE, args);
    fflush(stdout);
    free(seg);
    /* gasnet_exit ends every node: a node still inside a barrier when
     * another calls it exits there (§2.1.0.5).  So every node prints first,
     * then the barrier, then the exit. */
    barrier();
    gasnet_exit(0);
    return 0;
}
