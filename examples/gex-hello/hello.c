/* examples/gex-hello/hello.c -- GASNet-EX Active Messages: every process
 * says hello to process 0, which answers each with a line of text
 * (gasnetex.h, docs/gasnet-ex.md).
 *
 * 1. gex_EP_RegisterHandlers registers two handlers ("don't care" indices,
 *    assigned the same on every process because every process registers the
 *    same table in the same order), before anyone sends.
 * 2. Each process sends a Short request with its rank and a number to
 *    process 0 (gex_AM_RequestShort, the form that counts the arguments).
 * 3. Process 0's request handler counts the hellos under a handler-safe
 *    lock and replies with a Medium: "hello <rank>, you are number <k>".
 * 4. The reply handler copies the text out; the sender waits for it with
 *    GASNET_BLOCKUNTIL, prints it, and every process exits through
 *    gasnet_exit with the verdict: process 0 got n hellos, each process got
 *    the reply meant for it.
 *
 *     oshcc -o gex-hello hello.c && oshrun -np 4 ./gex-hello
 */
#include <gasnetex.h>
#include <gasnet.h> /* gasnet_barrier_*, gasnet_exit, GASNET_BLOCKUNTIL */

#include <stdio.h>
#include <string.h>

static gex_HSL_t lock = GEX_HSL_INITIALIZER;
static int hellos;             /* process 0: hellos received */
static volatile int got_reply; /* every process: its answer arrived */
static char answer[128];
static gex_AM_Index_t h_hello, h_answer;

/* Process 0: a hello from `rank`, carrying `magic`. */
static void hello_handler(gex_Token_t token, gex_AM_Arg_t rank, gex_AM_Arg_t magic) {
    gex_Token_Info_t info;
    gex_Token_Info(token, &info, GEX_TI_SRCRANK);
    gex_HSL_Lock(&lock);
    const int k = ++hellos;
    gex_HSL_Unlock(&lock);
    char text[128];
    const int ok = info.gex_srcrank == (gex_Rank_t)rank && magic == 1234;
    snprintf(text, sizeof text, "hello %d, you are number %d%s", (int)rank, k, ok ? "" : " (BAD MESSAGE)");
    gex_AM_ReplyMedium(token, h_answer, text, strlen(text) + 1, GEX_EVENT_NOW, 0);
}

/* Every process: process 0's answer. */
static void answer_handler(gex_Token_t token, void* buf, size_t nbytes) {
    (void)token;
    if (nbytes > sizeof answer) nbytes = sizeof answer;
    memcpy(answer, buf, nbytes);
    answer[sizeof answer - 1] = '\0';
    got_reply = 1;
}

static void barrier(void) {
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
}

int main(int argc, char** argv) {
    gex_Client_t client;
    gex_EP_t ep;
    gex_TM_t team;
    gex_Segment_t segment;
    if (gex_Client_Init(&client, &ep, &team, "GEX_HELLO", &argc, &argv, GEX_FLAG_USES_GASNET1) != GASNET_OK) return 1;
    gex_AM_Entry_t handlers[] = {
        {0, (gex_AM_Fn_t)hello_handler, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 2, NULL, "hello"},
        {0, (gex_AM_Fn_t)answer_handler, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY, 0, NULL, "answer"},
    };
    if (gex_EP_RegisterHandlers(ep, handlers, 2) != GASNET_OK) gasnet_exit(1);
    h_hello = handlers[0].gex_index;
    h_answer = handlers[1].gex_index;
    /* The AM engine comes with the segment (a page will do). */
    if (gex_Segment_Attach(&segment, team, GASNET_PAGESIZE) != GASNET_OK) gasnet_exit(1);
    const gex_Rank_t me = gex_TM_QueryRank(team), n = gex_TM_QuerySize(team);

    gex_AM_RequestShort(team, 0, h_hello, 0, (gex_AM_Arg_t)me, 1234);
    GASNET_BLOCKUNTIL(got_reply);
    char expected[64];
    snprintf(expected, sizeof expected, "hello %u, you are number ", me);
    int ok = strncmp(answer, expected, strlen(expected)) == 0 && !strstr(answer, "BAD");
    printf("process %u: %s\n", me, answer);
    fflush(stdout);
    barrier(); /* every hello has been answered */
    if (me == 0) {
        ok = ok && hellos == (int)n;
        printf("process 0: %d hellos from %u processes %s\n", hellos, n, hellos == (int)n ? "OK" : "WRONG");
        fflush(stdout);
    }
    barrier();
    gasnet_exit(ok ? 0 : 1);
    return 0;
}
