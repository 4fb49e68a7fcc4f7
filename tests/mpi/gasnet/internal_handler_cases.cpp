// tests/mpi/gasnet/internal_handler_cases.cpp -- messages to Gasket's own
// Active Message handlers that its senders never make: the receiving node
// must check the offsets, widths and lengths it is given and end the job
// with a message, never touch memory outside its segment (issue 14 item 12).
// Clients cannot send such messages (gasnet_AMRequest* refuses indices it
// did not register, error_cases.cpp), so this white-box program sends them
// through the runtime's AmEngine (links gasket_whitebox).  Run as
// `oshrun -np 2 gasket_gasnet_internal_handler_cases <case>` under
// ../expect_failure.sh:
//   amo_offset_outside   an AMO request for the 8 bytes just past node 1's segment
//   amo_bad_width        an AMO request of width 3
//   amo_short_args       an AMO request with 2 arguments instead of 9
//   long_offset_outside  a Long request whose range ends past node 1's segment
//                        (inline payload: run with GASKET_NODE_FASTPATH=off)
// Node 0 sends; both nodes then poll until the job ends.  "NOT STOPPED"
// (printed if it does not within 30 s) fails the test.
#include <gasnet.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "src/runtime/am.hpp"
#include "src/runtime/job.hpp"

namespace {

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

void sink_long(gasnet_token_t, void*, std::size_t) {}
constexpr gasnet_handler_t kSinkLong = 150;
constexpr std::uint8_t kAmoRequest = 1;  // src/runtime/amo.cpp

}  // namespace

int main(int argc, char** argv) {
    using namespace gasket;
    if (gasnet_init(&argc, &argv) != GASNET_OK || argc != 2) {
        std::fprintf(stderr,
                     "usage: gasket_gasnet_internal_handler_cases amo_offset_outside|amo_bad_width|"
                     "amo_short_args|long_offset_outside\n");
        return 2;
    }
    const std::string c = argv[1];
    gasnet_handlerentry_t table[] = {{kSinkLong, reinterpret_cast<void (*)()>(&sink_long)}};
    if (gasnet_attach(table, 1, 16 * GASNET_PAGESIZE, 0) != GASNET_OK) return 2;
    rt::AmEngine& am = *rt::g_job->am;
    const std::size_t size = rt::g_job->heap.size;  // the GASNet segment (the same size on every node)
    if (gasnet_mynode() == 0) {
        std::printf("internal_handler_cases: %s: reached on node 0 (segment %zu bytes)\n", c.c_str(), size);
        std::fflush(stdout);
        // [0] op fetch_add (4) | width << 8 | segment 0, [1,2] offset, [3,4] value, [5..8] cond, completion
        std::int32_t args[9] = {4 | 8 << 8, std::int32_t(size), std::int32_t(std::uint64_t(size) >> 32), 1, 0, 0, 0, 0,
                                0};
        if (c == "amo_offset_outside") {
            am.request("test", 1, rt::AmCategory::short_am, kAmoRequest, 9, args, nullptr, 0, 0);
        } else if (c == "amo_bad_width") {
            args[0] = 4 | 3 << 8;
            args[1] = args[2] = 0;
            am.request("test", 1, rt::AmCategory::short_am, kAmoRequest, 9, args, nullptr, 0, 0);
        } else if (c == "amo_short_args") {
            am.request("test", 1, rt::AmCategory::short_am, kAmoRequest, 2, args, nullptr, 0, 0);
        } else if (c == "long_offset_outside") {
            char payload[64] = {};
            am.request("test", 1, rt::AmCategory::long_am, kSinkLong, 0, args, payload, sizeof payload,
                       size - sizeof payload / 2);
        } else {
            std::fprintf(stderr, "internal_handler_cases: unknown case %s\n", c.c_str());
            gasnet_exit(2);
        }
    }
    const double deadline = now_s() + 30.0;
    GASNET_BLOCKUNTIL(now_s() > deadline);
    std::printf("internal_handler_cases: %s: NOT STOPPED on node %u\n", c.c_str(), gasnet_mynode());
    gasnet_exit(0);
    return 0;
}
