// src/runtime/local_meeting.hpp -- the blocking calls of a team that holds
// several members in this process (GASNet-EX teams naming several
// endpoints of one process, gasnet-ex-memory-kinds.txt §5.3 10: gex_TM_Split,
// gex_TM_Dup and gex_TM_Create with such a parent, gex_EP_PublishBoundSegment
// over one).  Each local member makes the call from its own thread; the
// process takes part in the team's collective once, when all of them have
// come: the last to arrive leads it for all.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace gasket::rt {

class LocalMeeting {
public:
    // `members`: the team's members in this process (>= 1).
    explicit LocalMeeting(int members);

    // What the leader runs: inputs[k] is local member k's `input`.  It takes
    // part in the process's collective and writes each member's results into
    // that member's input (their own memory, which none of them touches until
    // meet() returns).
    using Lead = std::function<void(const std::vector<void*>& inputs)>;

    // Local member k (0 <= k < members) arrives with `input` and returns once
    // every local member has arrived and the last one's `lead` has run; a
    // member waiting serves Active Messages (Poller::serve).  The job ends,
    // naming `routine`, when members of one meeting arrive from different
    // routines, or member k arrives twice.  Each member's call needs its own
    // thread: a member's call does not return until the others have come.
    void meet(const char* routine, int k, void* input, const Lead& lead);

private:
    const int members_;
    std::mutex lock_;
    std::vector<void*> inputs_;  // this meeting's, per member (null: not arrived)
    const char* routine_ = nullptr;
    int arrived_ = 0;
    std::atomic<std::uint64_t> held_{0};  // meetings ended
};

}  // namespace gasket::rt
