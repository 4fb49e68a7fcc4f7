// src/runtime/segment_withdrawal.cpp -- the withdrawal of a segment from
// the node peers that may map it (segment_withdrawal.hpp).
#include "segment_withdrawal.hpp"

#include <atomic>

#include "error.hpp"
#include "progress.hpp"

namespace gasket::rt {

namespace {

// A message only Gasket's own sender makes, wrong: the job ends, naming
// what, before anything is unmapped.
[[noreturn, gnu::cold]] void bad_withdrawal_message(gasket_am_token* token, const char* what,
                                                    unsigned long long value) {
    fatal("segment withdrawal handler", "message from node %d: %s %llu is not valid; nothing was unmapped",
          token->source, what, value);
}

// Request: args [0] the endpoint index, [1,2] the owner's base address,
// [3,4] the owner's count of acknowledgements outstanding.
void on_withdraw(gasket_am_token* token, const AmMessage& m) {
    if (m.category != AmCategory::short_am || m.nargs != 5 || !token->request)
        bad_withdrawal_message(token, "argument count", unsigned(m.nargs));
    if (m.args[0] <= 0 || unsigned(m.args[0]) >= AmEngine::kMaxEndpoints)
        bad_withdrawal_message(token, "endpoint", unsigned(m.args[0]));
    Job& j = *g_job;
    if (j.on_segment_withdrawn)
        j.on_segment_withdrawn(j, token->source, unsigned(m.args[0]), std::uintptr_t(arg_join(m.args[1], m.args[2])));
    const std::int32_t reply[2] = {m.args[3], m.args[4]};
    j.am->reply("segment withdrawal handler", token, AmCategory::short_am, kWithdrawAck, 2, reply, nullptr, 0, 0);
}

void on_withdraw_ack(gasket_am_token* token, const AmMessage& m) {
    if (m.category != AmCategory::short_am || m.nargs != 2 || token->request)
        bad_withdrawal_message(token, "argument count", unsigned(m.nargs));
    reinterpret_cast<std::atomic<long>*>(static_cast<std::uintptr_t>(arg_join(m.args[0], m.args[1])))
        ->fetch_sub(1, std::memory_order_release);
}

}  // namespace

void withdraw_segment(const char* routine, Job& j, const std::vector<int>& peers, std::uint8_t ep,
                      std::uintptr_t base) {
    if (peers.empty()) return;
    if (!j.am) fatal(routine, "segment of endpoint %u: no Active Message engine to tell its node peers", unsigned(ep));
    std::atomic<long> pending{0};
    const auto cookie = std::uint64_t(reinterpret_cast<std::uintptr_t>(&pending));
    const std::int32_t args[5] = {ep, arg_lo(base), arg_hi(base), arg_lo(cookie), arg_hi(cookie)};
    for (int pe : peers) {
        pending.fetch_add(1, std::memory_order_relaxed);
        j.am->request(routine, pe, AmCategory::short_am, kWithdraw, 5, args, nullptr, 0, 0);
    }
    poll_until(j, routine, [&] { return pending.load(std::memory_order_acquire) == 0; });
}

void register_withdrawal_handlers(AmEngine& am) {
    am.set_internal_handler(kWithdraw, on_withdraw);
    am.set_internal_handler(kWithdrawAck, on_withdraw_ack);
}

}  // namespace gasket::rt
