/* tests/gasp/gasnet_events.c -- GASP events of a GASNet program, in C, with
 * the recorder (recorder.h) linked in: gasp_init once at gasnet_attach with
 * GASP_MODEL_SHMEM; a named split-phase barrier; blocking put and get and an
 * explicit-handle put (GASP_SHMEM_PUT/GET with ctx NULL,
 * GASP_GASNET_NB_PUT_INIT with the handle), and the same through
 * GASNet-EX's gex_RMA_* (inline forms and functions); an AM Short request whose
 * handler replies (GASP_GASNET_AM_REQUEST / _REPLY / _HANDLER, the handlers
 * perhaps on the progress thread); gasnet_memset (blocking, _nb, _nbi:
 * GASP_GASNET_MEMSET) and the syncs (GASP_GASNET_NB_SYNC when they have
 * something to complete); an HSL locked (GASP_GASNET_HSL_LOCK) and tried.  Every node checks exact types and
 * arguments and prints each failure; exit status 1 on a failure.
 * `gasnet_events follow`: node 1 has its request served, then calls
 * gasnet_exit(4) while the others wait for nothing; they follow it and
 * their tool sees GASP_GASNET_EXIT with status 4 (the recorder prints it).
 *
 * `gasnet_events exit_after_handler` (GASKET_PROGRESS_THREAD=on): node 1
 * sends node 0 a request and calls gasnet_exit(0), as do the other nodes;
 * node 0 waits without polling, so its progress thread runs the handler,
 * which sets a flag and then takes 200 ms to return.  Node 0 calls
 * gasnet_exit(0) as soon as the flag is set: its tool must see the
 * handler's END before GASP_GASNET_EXIT (the recorder prints the counts). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <gasnet.h>
#include <gasp_shmem.h>

#include "recorder.h"

enum { kRequest = 201, kReply = 202, kSlowRequest = 203 };

static volatile int got_request = 0, got_reply = 0, request_from = -1;
static int failures = 0;
static gasnet_node_t me;

#define CHECK(cond)                                                                                       \
    do {                                                                                                  \
        if (!(cond)) {                                                                                    \
            fprintf(stderr, "gasnet_events: node %u: check failed: %s (line %d)\n", me, #cond, __LINE__); \
            ++failures;                                                                                   \
        }                                                                                                 \
    } while (0)

static void on_request(gasnet_token_t token, gasnet_handlerarg_t from) {
    request_from = from;
    got_request = 1;
    gasnet_AMReplyShort0(token, kReply);
}
static void on_reply(gasnet_token_t token) {
    (void)token;
    got_reply = 1;
}

/* The recorded events of `tag`, copied into out[] (at most max). */
static size_t events_of(unsigned tag, gasp_recorded_event* out, size_t max) {
    size_t n = 0;
    for (size_t i = 0; i < gasp_recorder_count(); ++i) {
        gasp_recorded_event e = gasp_recorder_event(i);
        if (e.tag == tag && n < max) out[n++] = e;
    }
    return n;
}

static void check_args(const gasp_recorded_event* e, int type, int nargs, const uint64_t* args) {
    CHECK(e->type == type);
    CHECK(e->nargs == nargs);
    CHECK(e->bad_context == 0 && e->bad_position == 0);
    for (int i = 0; i < nargs && i < e->nargs; ++i)
        if (e->args[i] != args[i]) {
            fprintf(stderr, "gasnet_events: node %u: tag 0x%x type %d argument %d is %llu, want %llu\n", me, e->tag,
                    e->type, i, (unsigned long long)e->args[i], (unsigned long long)args[i]);
            ++failures;
        }
}

/* Checks that `tag` was recorded as `pairs` START/END pairs, in order, every
 * START with the first `start_nargs` of args[] and every END with the first
 * `end_nargs` (an END may carry one more: a result or a handle).  Reports
 * the caller's line. */
static void expect_spans_at(int line, unsigned tag, size_t pairs, int start_nargs, int end_nargs,
                            const uint64_t* args) {
    gasp_recorded_event ev[16];
    const size_t n = events_of(tag, ev, 16);
    if (n != 2 * pairs) {
        fprintf(stderr, "gasnet_events: node %u: line %d: tag 0x%x recorded %zu events, want %zu\n", me, line, tag, n,
                2 * pairs);
        ++failures;
        return;
    }
    for (size_t i = 0; i < n; ++i)
        check_args(&ev[i], i % 2 ? GASP_END : GASP_START, i % 2 ? end_nargs : start_nargs, args);
}
#define expect_spans(tag, pairs, start_nargs, end_nargs, args) \
    expect_spans_at(__LINE__, tag, pairs, start_nargs, end_nargs, args)

#define P(x) ((uint64_t)(uintptr_t)(x))

/* Node 1 ends the job while every other node waits for what never comes. */
static int follow(void) {
    static volatile int never = 0;
    if (me == 1) {
        gasnet_AMRequestShort1(0, kRequest, (gasnet_handlerarg_t)me);
        GASNET_BLOCKUNTIL(got_reply);
        gasnet_exit(4);
    }
    GASNET_BLOCKUNTIL(never);
    fprintf(stderr, "gasnet_events: node %u: NOT STOPPED by node 1's gasnet_exit\n", me);
    return 1;
}

static volatile int slow_started = 0;
static void on_slow_request(gasnet_token_t token) {
    (void)token;
    slow_started = 1;
    const struct timespec wait = {0, 200 * 1000 * 1000};
    nanosleep(&wait, NULL);
}

static int exit_after_handler(void) {
    if (me != 0) {
        if (me == 1) gasnet_AMRequestShort0(0, kSlowRequest);
        gasnet_exit(0);
    }
    /* No poll here: only the progress thread can run the handler. */
    const time_t give_up = time(NULL) + 20;
    while (!slow_started && time(NULL) < give_up) {}
    if (!slow_started) {
        fprintf(stderr, "gasnet_events: node 0: the progress thread ran no handler in 20 s\n");
        gasnet_exit(1);
    }
    gasnet_exit(0);
    return 1;
}

int main(int argc, char** argv) {
    if (gasnet_init(&argc, &argv) != GASNET_OK) return 2;
    gasnet_handlerentry_t table[] = {{kRequest, (void (*)())on_request},
                                     {kReply, (void (*)())on_reply},
                                     {kSlowRequest, (void (*)())on_slow_request}};
    if (gasnet_attach(table, 3, 16 * GASNET_PAGESIZE, GASNET_PAGESIZE) != GASNET_OK) return 2;
    me = gasnet_mynode();
    if (argc == 2 && strcmp(argv[1], "follow") == 0) return follow();
    if (argc == 2 && strcmp(argv[1], "exit_after_handler") == 0) return exit_after_handler();
    const gasnet_node_t n = gasnet_nodes(), peer = (me + 1) % n, pred = (me + n - 1) % n;
    gasnet_seginfo_t seg[64];
    if (n > 64 || gasnet_getSegmentInfo(seg, (int)n) != GASNET_OK) return 2;
    CHECK(gasp_recorder_inits() == 1);
    CHECK(gasp_recorder_model() == GASP_MODEL_SHMEM);
    CHECK(gasp_recorder_count() == 0); /* GASNet has no INIT event */

    /* A named barrier. */
    gasnet_barrier_notify(5, 0);
    CHECK(gasnet_barrier_wait(5, 0) == GASNET_OK);
    gasp_recorded_event ev[16];
    const uint64_t named5[3] = {1, 5, GASNET_OK};
    expect_spans(GASP_GASNET_BARRIER_NOTIFY, 1, 2, 2, named5);
    expect_spans(GASP_GASNET_BARRIER_WAIT, 1, 2, 3, named5);
    gasp_recorder_clear();

    /* RMA: blocking put and get, an explicit-handle put. */
    char buf[64], back[64];
    for (int i = 0; i < 64; ++i) buf[i] = (char)(me * 3 + i);
    char* remote = (char*)seg[peer].addr + 64 * 0;
    gasnet_put(peer, remote, buf, 64);
    gasnet_get(back, peer, remote, 64);
    gasnet_handle_t h = gasnet_put_nb(peer, remote + 64, buf, 32);
    gasnet_wait_syncnb(h);
    CHECK(memcmp(buf, back, 64) == 0);
    const uint64_t put_args[8] = {0, peer, P(remote), P(buf), 64, 1, 1, 64};
    const uint64_t get_args[8] = {0, peer, P(back), P(remote), 64, 1, 1, 64};
    const uint64_t nb_args[9] = {0, peer, P(remote + 64), P(buf), 32, 1, 1, 32, P(h)};
    expect_spans(GASP_SHMEM_PUT, 1, 8, 8, put_args);
    expect_spans(GASP_SHMEM_GET, 1, 8, 8, get_args);
    expect_spans(GASP_GASNET_NB_PUT_INIT, 1, 8, 9, nb_args);

    /* The same transfers through GASNet-EX (gasnetex.h's inline forms, which
     * call the gasket_gex_primordial_* entry points, and the functions behind them)
     * raise the same events with the same arguments: one route.  No AM has
     * been sent yet (the peers are before the next barrier): clear. */
    gasp_recorder_clear();
    gex_Client_t client;
    gex_EP_t ep;
    gex_TM_t tm;
    gex_Segment_t segment;
    gasnet_QueryGexObjects(&client, &ep, &tm, &segment);
    memset(back, 0, sizeof back);
    gex_RMA_PutBlocking(tm, peer, remote, buf, 64, 0);
    (gex_RMA_PutBlocking)(tm, peer, remote, buf, 64, 0);
    gex_RMA_GetBlocking(tm, back, peer, remote, 64, 0);
    gex_Event_t e = gex_RMA_PutNB(tm, peer, remote + 64, buf, 32, GEX_EVENT_NOW, 0);
    gex_Event_Wait(e);
    CHECK(memcmp(buf, back, 64) == 0);
    const uint64_t ex_nb_args[9] = {0, peer, P(remote + 64), P(buf), 32, 1, 1, 32, P(e)};
    expect_spans(GASP_SHMEM_PUT, 2, 8, 8, put_args);
    expect_spans(GASP_SHMEM_GET, 1, 8, 8, get_args);
    expect_spans(GASP_GASNET_NB_PUT_INIT, 1, 8, 9, ex_nb_args);
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    CHECK(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS) == GASNET_OK);
    /* No clear here: a faster node's request may already run its handler
     * on this node (and record its events) while this node leaves the
     * barrier.  No AM event came before, and the checks below select by tag. */

    /* An AM request whose handler replies. */
    CHECK(gasnet_AMRequestShort1(peer, kRequest, (gasnet_handlerarg_t)me) == GASNET_OK);
    GASNET_BLOCKUNTIL(got_reply && got_request);
    CHECK(request_from == (int)pred);
    /* The request handler (perhaps on the progress thread) sets got_request
     * before it replies, and its END comes after it returns: wait, at most
     * 20 s, for its events to be recorded. */
    for (time_t until = time(NULL) + 20;
         (events_of(GASP_GASNET_AM_HANDLER, ev, 16) < 4 || events_of(GASP_GASNET_AM_REPLY, ev, 16) < 2) &&
         time(NULL) < until;)
        gasnet_AMPoll();
    const uint64_t req_args[5] = {GASP_GASNET_AM_SHORT, kRequest, peer, 0, 1};
    const uint64_t rep_args[5] = {GASP_GASNET_AM_SHORT, kReply, pred, 0, 0};
    expect_spans(GASP_GASNET_AM_REQUEST, 1, 5, 5, req_args);
    expect_spans(GASP_GASNET_AM_REPLY, 1, 5, 5, rep_args);
    /* Two handlers ran here: the request from pred, the reply from peer
     * (in either order), each S/E; the reply is sent inside the request's. */
    const size_t handlers = events_of(GASP_GASNET_AM_HANDLER, ev, 16);
    CHECK(handlers == 4);
    const uint64_t on_req[6] = {GASP_GASNET_AM_SHORT, kRequest, pred, 0, 1, 0};
    const uint64_t on_rep[6] = {GASP_GASNET_AM_SHORT, kReply, peer, 0, 0, 1};
    int seen_req = 0, seen_rep = 0;
    for (size_t i = 0; i < handlers && i < 16; ++i) {
        const int is_req = ev[i].args[1] == kRequest;
        check_args(&ev[i], (is_req ? seen_req : seen_rep) == 0 ? GASP_START : GASP_END, 6, is_req ? on_req : on_rep);
        ++*(is_req ? &seen_req : &seen_rep);
    }
    CHECK(seen_req == 2 && seen_rep == 2);

    /* memset (blocking, _nb, _nbi) and the syncs.  A sync raises NB_SYNC
     * only when it has something to complete: an explicit handle that is
     * valid, implicit-handle operations outstanding.  Whether the memsets
     * go through MPI (handles valid) or are direct stores (node peers on the
     * fast path: GASNET_INVALID_HANDLE, nothing outstanding) shows in the
     * _nb form's handle. */
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    CHECK(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS) == GASNET_OK);
    gasp_recorder_clear();
    char* area = (char*)seg[peer].addr + 256;
    gasnet_memset(peer, area, 0x5a, 64);
    gasnet_handle_t mh = gasnet_memset_nb(peer, area + 64, 0x11, 32);
    const int via_mpi = mh != GASNET_INVALID_HANDLE;
    gasnet_wait_syncnb(mh);
    gasnet_handle_t pair[2];
    pair[0] = gasnet_memset_nb(peer, area + 96, 0x22, 8);
    pair[1] = GASNET_INVALID_HANDLE;
    CHECK(gasnet_try_syncnb_all(pair, 2) == GASNET_OK);
    CHECK(pair[0] == GASNET_INVALID_HANDLE);
    gasnet_memset_nbi(peer, area + 104, 0x33, 24);
    gasnet_wait_syncnbi_all();
    CHECK(gasnet_try_syncnbi_puts() == GASNET_OK); /* nothing outstanding: no event */
    gasnet_wait_syncnb(GASNET_INVALID_HANDLE);     /* nothing to complete: no event */
    char check[128];
    gasnet_get(check, peer, area, 128);
    for (int i = 0; i < 128; ++i) {
        const char want = (char)(i < 64 ? 0x5a : i < 96 ? 0x11 : i < 104 ? 0x22 : 0x33);
        if (check[i] != want) {
            fprintf(stderr, "gasnet_events: node %u: memset byte %d is %d, want %d\n", me, i, check[i], want);
            ++failures;
            break;
        }
    }
    gasp_recorded_event mev[8];
    CHECK(events_of(GASP_GASNET_MEMSET, mev, 8) == 8);
    const uint64_t ms0[5] = {peer, P(area), 0x5a, 64, 0};
    const uint64_t ms1[5] = {peer, P(area + 64), 0x11, 32, P(mh)};
    const uint64_t ms2[5] = {peer, P(area + 96), 0x22, 8, via_mpi ? mev[5].args[4] : 0};
    const uint64_t ms3[5] = {peer, P(area + 104), 0x33, 24, 0};
    check_args(&mev[0], GASP_START, 4, ms0);
    check_args(&mev[1], GASP_END, 5, ms0);
    check_args(&mev[2], GASP_START, 4, ms1);
    check_args(&mev[3], GASP_END, 5, ms1);
    check_args(&mev[4], GASP_START, 4, ms2);
    check_args(&mev[5], GASP_END, 5, ms2);
    CHECK((mev[5].args[4] != 0) == via_mpi);
    check_args(&mev[6], GASP_START, 4, ms3);
    check_args(&mev[7], GASP_END, 5, ms3);
    gasp_recorded_event sev[8];
    const size_t syncs = events_of(GASP_GASNET_NB_SYNC, sev, 8);
    if (via_mpi) {
        CHECK(syncs == 6);
        const uint64_t s0[4] = {P(mh), GASP_GASNET_SYNC_WAIT_NB, 1, GASNET_OK};
        const uint64_t s1[4] = {P(pair), GASP_GASNET_SYNC_TRY_NB_ALL, 2, GASNET_OK};
        const uint64_t s2[4] = {0, GASP_GASNET_SYNC_WAIT_NBI_ALL, 0, GASNET_OK};
        for (int i = 0; i < 6 && i < (int)syncs; ++i)
            check_args(&sev[i], i % 2 ? GASP_END : GASP_START, 4, i < 2 ? s0 : i < 4 ? s1 : s2);
    } else {
        CHECK(syncs == 0);
    }

    /* HSLs: GASP_GASNET_HSL_LOCK around gasnet_hsl_lock (void *hsl), the
     * wait for the lock included; trylock and unlock raise nothing. */
    static gasnet_hsl_t hsl = GASNET_HSL_INITIALIZER;
    gasnet_hsl_lock(&hsl);
    gasnet_hsl_unlock(&hsl);
    CHECK(gasnet_hsl_trylock(&hsl) == GASNET_OK);
    gasnet_hsl_unlock(&hsl);
    gasp_recorded_event hev[4];
    CHECK(events_of(GASP_GASNET_HSL_LOCK, hev, 4) == 2);
    const uint64_t h0[1] = {P(&hsl)};
    check_args(&hev[0], GASP_START, 1, h0);
    check_args(&hev[1], GASP_END, 1, h0);

    CHECK(gasp_recorder_unknown() == 0);
    CHECK(gasp_recorder_max_depth() == 1);

    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
    if (failures == 0) printf("gasnet_events: node %u: passed (memsets %s)\n", me, via_mpi ? "through MPI" : "direct");
    gasnet_exit(failures != 0);
    return 0;
}
