/* A GASNet user's program: every node sends its number to the next node
 * with a Short Active Message; the handler replies with the number it got,
 * and each node checks both directions. */
#include <gasnet.h>
#include <stdio.h>

static volatile int received = -1, echoed = -1;

static void request_handler(gasnet_token_t token, gasnet_handlerarg_t value) {
    received = value;
    gasnet_AMReplyShort1(token, 201, value);
}

static void reply_handler(gasnet_token_t token, gasnet_handlerarg_t value) {
    (void)token;
    echoed = value;
}

int main(int argc, char** argv) {
    gasnet_handlerentry_t handlers[] = {{200, (void (*)())request_handler}, {201, (void (*)())reply_handler}};
    if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
    if (gasnet_attach(handlers, 2, 0, 0) != GASNET_OK) return 1;
    const int me = (int)gasnet_mynode(), n = (int)gasnet_nodes();
    gasnet_AMRequestShort1((me + 1) % n, 200, me);
    GASNET_BLOCKUNTIL(echoed == me && received == (me + n - 1) % n);
    printf("node %d of %d: received %d, echoed %d ok (%s)\n", me, n, received, echoed, GASNET_CONFIG_STRING);
    gasnet_exit(0);
    return 0;
}
