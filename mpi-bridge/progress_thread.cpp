// mpi-bridge/progress_thread.cpp -- the progress thread's loop, back-off and
// placement (hwloc).
#include "progress_thread.hpp"

#include <hwloc.h>

#include <algorithm>
#include <vector>

#include "check.hpp"

namespace gasket::mpi {

namespace {

constexpr int kMaskWords = 16;  // bindings of up to 1024 hardware threads are compared

struct HwlocTopology {
    hwloc_topology_t topo = nullptr;
    HwlocTopology() {
        if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0) {
            if (topo) hwloc_topology_destroy(topo);
            topo = nullptr;
        }
    }
    ~HwlocTopology() {
        if (topo) hwloc_topology_destroy(topo);
    }
};

// The OS index of a PU that no rank of `node` is bound to, or -1.  Collective.
int find_spare_pu(MPI_Comm node, std::string& why) {
    HwlocTopology h;
    unsigned long mine[kMaskWords] = {};
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    bool known = h.topo && set && hwloc_get_cpubind(h.topo, set, HWLOC_CPUBIND_PROCESS) == 0;
    if (known)
        hwloc_bitmap_to_ulongs(set, kMaskWords, mine);
    else
        std::fill(std::begin(mine), std::end(mine), ~0UL);  // unknown binding: claim every PU
    int node_size = 1, node_rank = 0;
    check(MPI_Comm_size(node, &node_size), "MPI_Comm_size");
    check(MPI_Comm_rank(node, &node_rank), "MPI_Comm_rank");
    std::vector<unsigned long> all(std::size_t(node_size) * kMaskWords);
    check(MPI_Allgather(mine, kMaskWords, MPI_UNSIGNED_LONG, all.data(), kMaskWords, MPI_UNSIGNED_LONG, node),
          "MPI_Allgather");
    int pu = -1;
    if (known) {
        hwloc_bitmap_t used = hwloc_bitmap_alloc(), other = hwloc_bitmap_alloc(), spare = hwloc_bitmap_alloc();
        for (int r = 0; r < node_size; ++r) {
            hwloc_bitmap_from_ulongs(other, kMaskWords, &all[std::size_t(r) * kMaskWords]);
            hwloc_bitmap_or(used, used, other);
        }
        hwloc_bitmap_andnot(spare, hwloc_topology_get_allowed_cpuset(h.topo), used);
        const int n = hwloc_bitmap_weight(spare);
        if (n > 0) {
            int k = node_rank % n, id = hwloc_bitmap_first(spare);
            while (k-- > 0) id = hwloc_bitmap_next(spare, id);
            pu = id;
        } else {
            why = "no hardware thread is free of ranks";
        }
        hwloc_bitmap_free(used);
        hwloc_bitmap_free(other);
        hwloc_bitmap_free(spare);
    } else {
        why = "the binding is unknown";
    }
    if (set) hwloc_bitmap_free(set);
    return pu;
}

}  // namespace

ProgressThread::ProgressThread(Poll poll, void* context, DoorbellLine& bell, MPI_Comm node,
                               std::chrono::microseconds min_sleep, std::chrono::microseconds max_sleep,
                               std::chrono::microseconds max_nap, std::chrono::microseconds max_blocked_sleep)
    : poll_(poll),
      context_(context),
      bell_(bell),
      min_sleep_(min_sleep),
      max_sleep_(max_sleep),
      max_nap_(max_nap),
      max_blocked_sleep_(max_blocked_sleep) {
    std::string why;
    spare_pu_ = find_spare_pu(node, why);
    placement_ =
        spare_pu_ >= 0 ? "PU " + std::to_string(spare_pu_) + " (spare)" : "the process's binding (" + why + ")";
    thread_ = std::thread([this] { run(); });
}

ProgressThread::~ProgressThread() {
    stop_.store(true, std::memory_order_relaxed);
    // The progress thread itself may end the process (a GASNet node that
    // heard another's exit notice calls exit() there, running this
    // destructor): it cannot join itself, and it is going anyway.
    if (thread_.joinable() && thread_.get_id() == std::this_thread::get_id())
        thread_.detach();
    else if (thread_.joinable())
        thread_.join();
}

void ProgressThread::run() {
    if (spare_pu_ >= 0) {
        HwlocTopology h;
        hwloc_bitmap_t set = hwloc_bitmap_alloc();
        if (h.topo && set) {
            hwloc_bitmap_only(set, unsigned(spare_pu_));
            hwloc_set_cpubind(h.topo, set, HWLOC_CPUBIND_THREAD);
        }
        if (set) hwloc_bitmap_free(set);
    }
    // Work is followed by another poll at once (more may be queued); an
    // idle poll by one more (a message that rang the doorbell may still be
    // on its way through MPI), then a sleep on the doorbell whose timeout
    // doubles while nothing comes.  Only work keeps the thread awake, so it
    // never becomes a spin on the application's core.
    //
    // While the application blocks in MPI (kAppBlocked), its own call may
    // take a request's message off the wire just as this thread's last poll
    // before sleeping looks for it (with MPI_THREAD_MULTIPLE one thread at a
    // time drives Open MPI's transports), so that poll can miss a request
    // whose sender saw the doorbell unarmed: the sleeps there start at
    // kAppBlockedMaxSleep again after any work or ring, and double only up
    // to max_blocked_sleep_ while nothing comes.
    std::chrono::microseconds sleep = min_sleep_, nap = min_sleep_, blocked_sleep = kAppBlockedMaxSleep;
    bool polled_again = false;
    auto poll = [this] {
        polls_.fetch_add(1, std::memory_order_relaxed);
        return poll_(context_);
    };
    while (!stop_.load(std::memory_order_relaxed)) {
        const int n = poll();
        if (n > 0) {
            sleep = nap = min_sleep_;
            blocked_sleep = kAppBlockedMaxSleep;
            polled_again = false;
            continue;
        }
        if (n == kSoon) {  // work that waits on a peer: look again shortly
            std::this_thread::sleep_for(kSoonSleep);
            continue;
        }
        if (n == kAppPolling) {  // the application polls: nap, unarmed
            std::this_thread::sleep_for(nap);
            nap = std::min(nap * 2, max_nap_);
            continue;
        }
        nap = min_sleep_;
        if (!polled_again) {
            polled_again = true;
            continue;
        }
        polled_again = false;
        const bool app_blocked = n == kAppBlocked;  // nobody else polls
        const std::uint32_t seq = bell_.seq.load(std::memory_order_relaxed);
        const int found = sleep_until_rung(bell_, app_blocked ? std::min(sleep, blocked_sleep) : sleep, poll);
        const bool rung = bell_.seq.load(std::memory_order_relaxed) != seq;
        if (rung) rung_.store(rung_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        if (found > 0) {
            sleep = min_sleep_;
            blocked_sleep = kAppBlockedMaxSleep;
        } else {
            sleep = std::min(sleep * 2, max_sleep_);
            blocked_sleep = rung ? kAppBlockedMaxSleep : std::min(blocked_sleep * 2, max_blocked_sleep_);
        }
    }
}

}  // namespace gasket::mpi
