// src/runtime/local_meeting.cpp -- a team's local members meeting for a
// blocking call (local_meeting.hpp).
#include "local_meeting.hpp"

#include <cstring>

#include "error.hpp"
#include "progress.hpp"

namespace gasket::rt {

LocalMeeting::LocalMeeting(int members) : members_(members), inputs_(std::size_t(members), nullptr) {}

void LocalMeeting::meet(const char* routine, int k, void* input, const Lead& lead) {
    std::uint64_t meeting;
    std::vector<void*> inputs;
    {
        std::lock_guard<std::mutex> hold(lock_);
        meeting = held_.load(std::memory_order_relaxed);
        if (arrived_ > 0 && std::strcmp(routine_, routine) != 0)
            fatal(routine,
                  "local member %d of the team called %s while this process's other members are in %s: every "
                  "member makes the team's collective calls in the same order",
                  k, routine, routine_);
        if (inputs_[std::size_t(k)])
            fatal(routine, "local member %d of the team called %s twice before the others came", k, routine);
        routine_ = routine;
        inputs_[std::size_t(k)] = input;
        if (++arrived_ < members_) {
            inputs.clear();
        } else {
            inputs.swap(inputs_);  // this member leads; the next meeting starts empty
            inputs_.assign(std::size_t(members_), nullptr);
            arrived_ = 0;
        }
    }
    if (!inputs.empty()) {
        lead(inputs);
        held_.store(meeting + 1, std::memory_order_release);
        return;
    }
    Poller poller(job(routine));
    while (held_.load(std::memory_order_acquire) == meeting) poller.serve(routine);
}

}  // namespace gasket::rt
