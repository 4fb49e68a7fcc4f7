// tests/mpi/gasnet/late_reply_test.cpp -- white-box (links gasket_whitebox):
// a reply that a request handler hands to deferred work (rt::AmEngine::defer,
// claim_reply, send_late_reply).  The runtime uses it for a Long reply of
// more than 64 KiB into device memory the replier cannot map, which must be
// staged (a wait a handler cannot make: src/runtime/device_staging.hpp);
// this test drives the same three calls with host memory, so the machinery
// is checked on every machine, not only where a GPU is.
//
// LateReply.RunsAsAReplyOnceThePayloadIsInPlace: every node sends the next
// one a Short request per round; its handler claims the reply and defers
// the work, which (outside any handler: checked) puts a Long payload into
// the requester's segment with a blocking gasnet_put (a wait) and then sends
// the reply with send_late_reply.  The requester's handler must run as a
// reply handler (its token may not reply), once per request, with the
// arguments sent and the whole payload already in place at the offset
// named.  Rounds alternate between the requester waiting in
// GASNET_BLOCKUNTIL (its polls run the deferred work of requests it
// serves) and, with a progress thread, the replier computing without any
// GASNet call (the thread runs it).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "gasnet_test.hpp"
#include "src/runtime/am.hpp"
#include "src/runtime/job.hpp"

namespace {

using namespace gasnet_test;
using gasket::rt::AmEngine;

constexpr std::size_t kBytes = 100003;  // several MPI messages' worth, odd
constexpr int kRounds = 12;
constexpr std::uint64_t kReplyOffset = 1 << 20;  // where in the requester's segment the payload goes

gasnet_handler_t h_ask, h_answer;
std::atomic<int> g_answers{0}, g_deferred_in_handler{0}, g_deferred_runs{0};

struct Pending {
    gasnet_node_t dest;
    std::int32_t round;
};

std::uint64_t start_of(gasnet_node_t from, int round) { return std::uint64_t(from) * 977 + std::uint64_t(round) * 31; }

void answer(void* p) {
    const std::unique_ptr<Pending> w(static_cast<Pending*>(p));
    g_deferred_runs.fetch_add(1);
    if (gasket::rt::am_thread_state().handler_depth != 0) g_deferred_in_handler.fetch_add(1);
    // The wait a handler could not make: a blocking put into the
    // requester's segment, then the reply that announces it.
    gasnet_put(w->dest, seg_addr(w->dest) + kReplyOffset, const_cast<unsigned char*>(pattern(start_of(me(), w->round))),
               kBytes);
    const std::int32_t args[2] = {w->round, std::int32_t(me())};
    gasket::rt::g_job->am->send_late_reply("late_reply_test", int(w->dest), AmEngine::Endpoints{0, 0}, h_answer, 2,
                                           args, kBytes, kReplyOffset);
}

void ask_handler(gasnet_token_t token, gasnet_handlerarg_t round) {
    gasket::rt::g_job->am->claim_reply("late_reply_test", token);
    gasket::rt::g_job->am->defer(&answer, new Pending{gasnet_node_t(token->source), round});
}

void answer_handler(gasnet_token_t token, void* buf, size_t nbytes, gasnet_handlerarg_t round,
                    gasnet_handlerarg_t from) {
    const gasnet_node_t next = (me() + 1) % nodes();  // this node asks the next one, which answers
    if (token->request) handler_failure("the late reply ran as a request handler (its token could reply)");
    if (gasnet_node_t(from) != next) handler_failure("late reply from node " + std::to_string(from));
    if (buf != my_seg() + kReplyOffset || nbytes != kBytes)
        handler_failure("late reply payload at the wrong place or of the wrong size: " + std::to_string(nbytes));
    std::string why;
    if (!matches_pattern(buf, nbytes, start_of(next, round), &why))
        handler_failure("late reply payload not in place when its handler ran: " + why);
    g_answers.fetch_add(1, std::memory_order_release);
}

const HandlerRegistrar reg_ask("late_reply_ask", as_handler(&ask_handler), &h_ask);
const HandlerRegistrar reg_answer("late_reply_answer", as_handler(&answer_handler), &h_answer);

using LateReply = GasnetTest;

TEST_F(LateReply, RunsAsAReplyOnceThePayloadIsInPlace) {
    if (nodes() < 2) GTEST_SKIP() << "needs 2 nodes";
    const bool thread = gasket::rt::g_job->am->progress_thread_running();
    const gasnet_node_t next = (me() + 1) % nodes();
    barrier();  // every node knows the others' segments (seg()) before a deferred put needs them
    for (int round = 0; round < kRounds; ++round) {
        const bool computing = thread && round % 2 == 1;
        EXPECT_EQ(gasnet_AMRequestShort1(next, h_ask, round), GASNET_OK);
        if (computing) {
            // No GASNet call for a while: the request from the previous
            // node, its deferred work and this node's answer are the
            // progress thread's.
            const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(30);
            while (std::chrono::steady_clock::now() < until) std::this_thread::yield();
        }
        EXPECT_TRUE(wait_until([&] { return g_answers.load(std::memory_order_acquire) == round + 1; }))
            << "round " << round << ": " << g_answers.load() << " late replies";
        barrier();  // every node has its answer before the next round overwrites the payloads
    }
    EXPECT_EQ(g_deferred_runs.load(), kRounds) << "each deferred reply runs exactly once";
    EXPECT_EQ(g_deferred_in_handler.load(), 0) << "deferred work ran inside a handler";
    if (!thread) std::printf("late_reply_test: no progress thread: the computing rounds were not run\n");
}

}  // namespace
