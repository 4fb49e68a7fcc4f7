// tests/mpi/gasnet/error_cases.cpp -- GASNet programs that must end the
// whole job: violations the spec calls fatal (include/gasnet.h: "end the
// whole job with such a message") and gasnet_exit.  Run as
// `oshrun -np 2 gasket_gasnet_error_cases <case>` under ../expect_failure.sh,
// which checks the exit status, the time taken, and greps the output
// (CMakeLists.txt: gasket_gasnet_error_test).
//
// Each case prints "gasnet_error_cases: <case>: reached on node N" before
// the bad call, and "... NOT STOPPED ..." if the program gets past it (or
// if a waiting node is still running 30 s later): that marker fails the test.
// The node that does not make the bad call waits polling
// (GASNET_BLOCKUNTIL), except in exit_node1_while_computing.
#include <gasnet.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

std::string g_case;

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

void say(const std::string& what) {
    std::printf("gasnet_error_cases: %s: %s\n", g_case.c_str(), what.c_str());
    std::fflush(stdout);
}
void reached() { say("reached on node " + std::to_string(gasnet_mynode())); }

[[noreturn]] void not_stopped(const std::string& why) {
    say("NOT STOPPED on node " + std::to_string(gasnet_mynode()) + ": " + why);
    gasnet_exit(0);
    std::exit(0);
}

// Polls until the job is ended for us (or 30 s: then it was not).
[[noreturn]] void wait_for_the_end() {
    const double deadline = now_s() + 30.0;
    GASNET_BLOCKUNTIL(now_s() > deadline);
    not_stopped("still running 30 s after the bad call (the job should have ended)");
}

// Fixed handler indices (so 200 and 201 are surely unregistered).
enum : gasnet_handler_t {
    kReplyTwice = 130,
    kSink1 = 131,
    kReplyInReplyRequest = 132,
    kReplyInReply = 133,
    kSink0 = 134,
    kRequestInHandler = 135,
    kReturnsHolding = 136,
    kReplyHolding = 137,
    kUnregisteredReply = 138,
    kSinkMedium = 139,
    kArrive = 140,
    kReplyReserved = 141,
};
// Indices 1 and 2 are reserved (§2.1.0.2); Gasket's own AMO request and
// reply handlers live there.
constexpr gasnet_handler_t kReservedRequest = 1, kReservedReply = 2;
constexpr gasnet_handler_t kUnregistered = 200, kUnregisteredForReply = 201;

gasnet_hsl_t g_lock = GASNET_HSL_INITIALIZER;
std::atomic<int> g_arrived{0};

void reply_twice(gasnet_token_t token) {
    gasnet_AMReplyShort1(token, kSink1, 1);
    gasnet_AMReplyShort1(token, kSink1, 2);  // fatal: a second reply
    say("NOT STOPPED on node " + std::to_string(gasnet_mynode()) + ": a second reply was accepted");
}
void sink1(gasnet_token_t, gasnet_handlerarg_t) {}
void sink0(gasnet_token_t) {}
void sink_medium(gasnet_token_t, void*, std::size_t) {}
void reply_in_reply_request(gasnet_token_t token) { gasnet_AMReplyShort0(token, kReplyInReply); }
void reply_in_reply(gasnet_token_t token) {
    gasnet_AMReplyShort0(token, kSink0);  // fatal: reply handlers may not send
    say("NOT STOPPED on node " + std::to_string(gasnet_mynode()) + ": a reply handler replied");
}
void request_in_handler(gasnet_token_t) {
    gasnet_AMRequestShort0(0, kSink0);  // fatal: handlers may not send requests
    say("NOT STOPPED on node " + std::to_string(gasnet_mynode()) + ": a handler sent a request");
}
void returns_holding(gasnet_token_t) { gasnet_hsl_lock(&g_lock); }  // fatal when it returns
void reply_holding(gasnet_token_t token) {
    gasnet_hsl_lock(&g_lock);
    gasnet_AMReplyShort0(token, kSink0);  // fatal: replying with an HSL held
    say("NOT STOPPED on node " + std::to_string(gasnet_mynode()) + ": a handler replied holding an HSL");
}
void unregistered_reply(gasnet_token_t token) { gasnet_AMReplyShort0(token, kUnregisteredForReply); }
void arrive(gasnet_token_t) { g_arrived.fetch_add(1); }
// A reply to reserved index 2 with arguments shaped like an AMO reply whose
// completion pointer is 0x10: run by the internal handler, it would crash
// node 0.
void reply_reserved(gasnet_token_t token) {
    gasnet_AMReplyShort4(token, kReservedReply, 0x10, 0, 7, 0);
    say("NOT STOPPED on node " + std::to_string(gasnet_mynode()) + ": a reply to reserved index 2 was sent");
}

template <class F>
void (*fn(F* f))() {
    return reinterpret_cast<void (*)()>(f);
}

int usage() {
    std::fprintf(stderr,
                 "usage: gasket_gasnet_error_cases CASE\n"
                 "  unregistered_handler unregistered_reply_handler reply_twice reply_in_reply_handler\n"
                 "  request_reserved_index reply_reserved_index\n"
                 "  request_in_handler request_in_nis poll_in_nis request_holding_hsl nis_nested\n"
                 "  hsl_lock_twice hsl_unlock_wrong_order hsl_unlock_not_held hsl_destroy_held\n"
                 "  handler_returns_holding_hsl reply_holding_hsl exit_node1_while_polling\n"
                 "  exit_node1_while_computing exit_all_nodes\n"
                 "  extended API (chapter 3): put_out_of_segment get_out_of_segment put_self_out_of_segment\n"
                 "  put_nbi_bulk_out_of_segment get_nb_bulk_out_of_segment memset_nbi_out_of_segment\n"
                 "  get_val_out_of_segment put_node_out_of_range get_nb_node_out_of_range\n"
                 "  memset_node_out_of_range put_val_nbytes_0 put_nb_val_nbytes_9 put_nbi_val_nbytes_9\n"
                 "  get_val_nbytes_9 get_nb_val_nbytes_0 accessregion_nested accessregion_end_without_begin\n"
                 "  nbi_sync_in_accessregion nbi_try_in_accessregion barrier_notify_twice\n"
                 "  barrier_wait_without_notify barrier_try_without_notify barrier_wait_twice\n"
                 "  barrier_wait_after_try put_node_out_of_range_nbytes_0\n");
    return 2;
}

// Extended API (chapter 3) errors: fatal, with a message naming the
// routine.  Node 0 makes the bad call; node 1 (all other nodes) waits
// polling.  The segment of each node is 16 pages (main's gasnet_attach).
// Returns false if `c` is not one of these cases.
bool extended_case(const std::string& c) {
    static const char* const kCases[] = {"put_out_of_segment",
                                         "get_out_of_segment",
                                         "put_self_out_of_segment",
                                         "put_nbi_bulk_out_of_segment",
                                         "get_nb_bulk_out_of_segment",
                                         "memset_nbi_out_of_segment",
                                         "get_val_out_of_segment",
                                         "put_node_out_of_range",
                                         "get_nb_node_out_of_range",
                                         "memset_node_out_of_range",
                                         "put_val_nbytes_0",
                                         "put_nb_val_nbytes_9",
                                         "put_nbi_val_nbytes_9",
                                         "get_val_nbytes_9",
                                         "get_nb_val_nbytes_0",
                                         "accessregion_nested",
                                         "accessregion_end_without_begin",
                                         "nbi_sync_in_accessregion",
                                         "nbi_try_in_accessregion",
                                         "barrier_notify_twice",
                                         "barrier_wait_without_notify",
                                         "barrier_try_without_notify",
                                         "barrier_wait_twice",
                                         "barrier_wait_after_try",
                                         "put_node_out_of_range_nbytes_0"};
    bool known = false;
    for (const char* k : kCases) known = known || c == k;
    if (!known) return false;

    const gasnet_node_t me = gasnet_mynode(), other = 1 % gasnet_nodes();
    gasnet_seginfo_t segs[2] = {};
    if (gasnet_getSegmentInfo(segs, 2) != GASNET_OK) {
        std::fprintf(stderr, "gasnet_error_cases: gasnet_getSegmentInfo failed\n");
        gasnet_exit(2);
    }
    auto* const seg_other = static_cast<unsigned char*>(segs[other].addr);
    auto* const seg_self = static_cast<unsigned char*>(segs[me % 2].addr);
    const std::size_t size_other = segs[other].size;
    const gasnet_node_t bad_node = gasnet_nodes() + 5;
    alignas(8) static unsigned char buf[64];

    if (c == "barrier_wait_twice") {
        // Every node completes one barrier; then node 0 waits again.
        gasnet_barrier_notify(1, 0);
        if (gasnet_barrier_wait(1, 0) != GASNET_OK) not_stopped("the first barrier did not return GASNET_OK");
        if (me == 0) {
            reached();
            gasnet_barrier_wait(1, 0);
            not_stopped("a second gasnet_barrier_wait returned");
        }
        wait_for_the_end();
    }
    if (c == "barrier_wait_after_try") {
        // A successful gasnet_barrier_try ends the phase like a wait: a
        // gasnet_barrier_wait after it has no notify (§3.5.0.2).
        gasnet_barrier_notify(2, 0);
        int rc;
        while ((rc = gasnet_barrier_try(2, 0)) == GASNET_ERR_NOT_READY) {}
        if (rc != GASNET_OK) not_stopped("gasnet_barrier_try did not return GASNET_OK");
        if (me == 0) {
            reached();
            gasnet_barrier_wait(2, 0);
            not_stopped("gasnet_barrier_wait after a successful gasnet_barrier_try returned");
        }
        wait_for_the_end();
    }
    if (me != 0) wait_for_the_end();

    reached();
    if (c == "put_out_of_segment") {  // the last 4 bytes of the segment and 4 past it
        gasnet_put(other, seg_other + size_other - 4, buf, 8);
    } else if (c == "get_out_of_segment") {  // one byte at the end
        gasnet_get(buf, other, seg_other + size_other, 1);
    } else if (c == "put_self_out_of_segment") {  // loopback, 8 bytes before the base
        gasnet_put_bulk(me, seg_self - 8, buf, 8);
    } else if (c == "put_nbi_bulk_out_of_segment") {  // the whole segment plus one byte
        static std::vector<unsigned char> big;
        big.assign(size_other + 1, 0);
        gasnet_put_nbi_bulk(other, seg_other, big.data(), big.size());
        gasnet_wait_syncnbi_puts();
    } else if (c == "get_nb_bulk_out_of_segment") {  // starts one byte before the base
        gasnet_wait_syncnb(gasnet_get_nb_bulk(buf, other, seg_other - 1, 16));
    } else if (c == "memset_nbi_out_of_segment") {  // straddles the end
        gasnet_memset_nbi(other, seg_other + size_other - 10, 0, 11);
        gasnet_wait_syncnbi_puts();
    } else if (c == "get_val_out_of_segment") {
        (void)gasnet_get_val(other, seg_other + size_other, 8);
    } else if (c == "put_node_out_of_range") {
        gasnet_put(bad_node, seg_other, buf, 8);
    } else if (c == "put_node_out_of_range_nbytes_0") {  // an empty transfer, but no such node
        gasnet_put(bad_node, seg_other, buf, 0);
    } else if (c == "get_nb_node_out_of_range") {
        gasnet_wait_syncnb(gasnet_get_nb(buf, bad_node, seg_other, 8));
    } else if (c == "memset_node_out_of_range") {
        gasnet_memset(bad_node, seg_other, 0, 8);
    } else if (c == "put_val_nbytes_0") {
        gasnet_put_val(other, seg_other, 1, 0);
    } else if (c == "put_nb_val_nbytes_9") {
        gasnet_wait_syncnb(gasnet_put_nb_val(other, seg_other, 1, 9));
    } else if (c == "put_nbi_val_nbytes_9") {
        gasnet_put_nbi_val(other, seg_other, 1, 9);
        gasnet_wait_syncnbi_puts();
    } else if (c == "get_val_nbytes_9") {
        (void)gasnet_get_val(other, seg_other, 9);
    } else if (c == "get_nb_val_nbytes_0") {
        (void)gasnet_wait_syncnb_valget(gasnet_get_nb_val(other, seg_other, 0));
    } else if (c == "accessregion_nested") {
        gasnet_begin_nbi_accessregion();
        gasnet_begin_nbi_accessregion();
    } else if (c == "accessregion_end_without_begin") {
        (void)gasnet_end_nbi_accessregion();
    } else if (c == "nbi_sync_in_accessregion") {
        gasnet_begin_nbi_accessregion();
        gasnet_put_nbi(other, seg_other, buf, 8);
        gasnet_wait_syncnbi_all();
    } else if (c == "nbi_try_in_accessregion") {
        gasnet_begin_nbi_accessregion();
        (void)gasnet_try_syncnbi_puts();
    } else if (c == "barrier_notify_twice") {
        gasnet_barrier_notify(1, 0);
        gasnet_barrier_notify(1, 0);
    } else if (c == "barrier_wait_without_notify") {
        (void)gasnet_barrier_wait(1, 0);
    } else if (c == "barrier_try_without_notify") {
        (void)gasnet_barrier_try(1, 0);
    }
    not_stopped("the bad call returned");
}

// Node 0 sends node 1 a Short0 request to `handler`; both then wait.
[[noreturn]] void node0_requests(gasnet_handler_t handler) {
    if (gasnet_mynode() == 0) {
        reached();
        gasnet_AMRequestShort0(1 % gasnet_nodes(), handler);
    }
    wait_for_the_end();
}

}  // namespace

int main(int argc, char** argv) {
    if (gasnet_init(&argc, &argv) != GASNET_OK) {
        std::fprintf(stderr, "gasnet_error_cases: gasnet_init failed\n");
        return 2;
    }
    if (argc != 2) {
        gasnet_exit(usage());
    }
    g_case = argv[1];
    gasnet_handlerentry_t table[] = {
        {kReplyTwice, fn(&reply_twice)},
        {kSink1, fn(&sink1)},
        {kReplyInReplyRequest, fn(&reply_in_reply_request)},
        {kReplyInReply, fn(&reply_in_reply)},
        {kSink0, fn(&sink0)},
        {kRequestInHandler, fn(&request_in_handler)},
        {kReturnsHolding, fn(&returns_holding)},
        {kReplyHolding, fn(&reply_holding)},
        {kUnregisteredReply, fn(&unregistered_reply)},
        {kSinkMedium, fn(&sink_medium)},
        {kArrive, fn(&arrive)},
        {kReplyReserved, fn(&reply_reserved)},
    };
    if (gasnet_attach(table, int(sizeof table / sizeof table[0]), 16 * GASNET_PAGESIZE, 0) != GASNET_OK) {
        std::fprintf(stderr, "gasnet_error_cases: gasnet_attach failed\n");
        gasnet_exit(2);
    }
    const gasnet_node_t me = gasnet_mynode();
    const std::string& c = g_case;

    if (c == "unregistered_handler") node0_requests(kUnregistered);
    if (c == "unregistered_reply_handler") node0_requests(kUnregisteredReply);
    if (c == "reply_reserved_index") node0_requests(kReplyReserved);
    if (c == "request_reserved_index") {
        // Arguments shaped like Gasket's AMO request: fetch_add (4) of 1 on
        // the 8-byte word at offset 0 of node 1's segment, completion 0.
        if (gasnet_mynode() == 0) {
            reached();
            gasnet_AMRequestShort9(1 % gasnet_nodes(), kReservedRequest, 4 | 8 << 8, 0, 0, 1, 0, 0, 0, 0, 0);
            say("NOT STOPPED on node 0: a request to reserved index 1 was sent");
        }
        wait_for_the_end();
    }
    if (c == "reply_twice") node0_requests(kReplyTwice);
    if (c == "reply_in_reply_handler") node0_requests(kReplyInReplyRequest);
    if (c == "request_in_handler") node0_requests(kRequestInHandler);
    if (c == "handler_returns_holding_hsl") node0_requests(kReturnsHolding);
    if (c == "reply_holding_hsl") node0_requests(kReplyHolding);

    if (c == "request_in_nis" || c == "poll_in_nis" || c == "request_holding_hsl" || c == "nis_nested" ||
        c == "hsl_lock_twice" || c == "hsl_unlock_wrong_order" || c == "hsl_unlock_not_held" ||
        c == "hsl_destroy_held") {
        if (me == 0) {
            gasnet_hsl_t a, b;
            gasnet_hsl_init(&a);
            gasnet_hsl_init(&b);
            char buf[8] = {};
            reached();
            if (c == "request_in_nis") {
                gasnet_hold_interrupts();
                gasnet_AMRequestShort0(1 % gasnet_nodes(), kSink0);
            } else if (c == "poll_in_nis") {
                gasnet_hold_interrupts();
                gasnet_AMPoll();
            } else if (c == "request_holding_hsl") {
                gasnet_hsl_lock(&a);
                gasnet_AMRequestMedium0(1 % gasnet_nodes(), kSinkMedium, buf, sizeof buf);
            } else if (c == "nis_nested") {
                gasnet_hold_interrupts();
                gasnet_hold_interrupts();
            } else if (c == "hsl_lock_twice") {
                gasnet_hsl_lock(&a);
                gasnet_hsl_lock(&a);
            } else if (c == "hsl_unlock_wrong_order") {
                gasnet_hsl_lock(&a);
                gasnet_hsl_lock(&b);
                gasnet_hsl_unlock(&a);
            } else if (c == "hsl_unlock_not_held") {
                gasnet_hsl_unlock(&a);
            } else {  // hsl_destroy_held
                gasnet_hsl_lock(&a);
                gasnet_hsl_destroy(&a);
            }
            not_stopped("the bad call returned");
        }
        wait_for_the_end();
    }

    if (c == "exit_node1_while_polling" || c == "exit_node1_while_computing") {
        if (me == 1 % gasnet_nodes()) {
            usleep(200 * 1000);  // let node 0 settle into its wait
            say("node " + std::to_string(me) + " calls gasnet_exit(7)");
            gasnet_exit(7);
            not_stopped("gasnet_exit returned");
        }
        reached();
        if (c == "exit_node1_while_polling") wait_for_the_end();
        // Computing: no GASNet call at all, so only Gasket's own means
        // (progress thread, exit timeout) can end this process.
        const double deadline = now_s() + 30.0;
        volatile double x = 1.0;
        while (now_s() < deadline) x = x * 1.0000001 + 1e-9;
        not_stopped("still computing 30 s after node 1 called gasnet_exit(7)");
    }

    if (extended_case(c)) return 0;  // not reached: each case ends the job

    if (c == "exit_all_nodes") {
        // A barrier from AMs, then every node exits with 5.
        for (gasnet_node_t n = 0; n < gasnet_nodes(); ++n) gasnet_AMRequestShort0(n, kArrive);
        GASNET_BLOCKUNTIL(g_arrived.load() == int(gasnet_nodes()));
        say("node " + std::to_string(me) + " calls gasnet_exit(5)");
        gasnet_exit(5);
        not_stopped("gasnet_exit returned");
    }

    gasnet_exit(usage());
}
