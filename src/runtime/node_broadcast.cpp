// src/runtime/node_broadcast.cpp -- the broadcast in node-shared memory
// (see node_broadcast.hpp).
#include "node_broadcast.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "copy.hpp"
#include "error.hpp"
#include "fence.hpp"
#include "job.hpp"
#include "mpi-bridge/node_memory.hpp"
#include "progress.hpp"
#include "team.hpp"

namespace gasket::rt {

namespace {

// Broadcasts of up to kInline bytes travel in the announcement; a root runs
// at most kRing broadcasts ahead of the slowest member.  Measured (bench-coll,
// 4 PEs on 2 cores, 4-64 B): a ring of 4 made the broadcast 2-3x
// MPI_Bcast, 16 0.6-0.9x, 64 0.2-0.7x -- with more PEs than cores a
// member that waits gives its core away, and a deep ring lets the others
// run on meanwhile.  It costs kRing * 1088 bytes (68 KiB) of node-shared
// memory per team member, touched only as broadcasts use it.
constexpr std::size_t kInline = 1024;
constexpr std::uint64_t kRing = 64;

enum class Where : std::uint32_t { inline_data, heap, data };

// The header and the first 32 bytes of data share a cache line: a small
// broadcast costs a member one line from the root.
struct Announcement {
    alignas(64) std::atomic<std::uint64_t> seq;  // the broadcast announced (0: none yet)
    std::uint64_t bytes;
    std::uint64_t offset;  // of the root's source in its segment (not inline)
    Where where;
    char data[kInline];
};
static_assert(offsetof(Announcement, data) <= 32);

struct Member {
    alignas(64) std::atomic<std::uint64_t> finished;  // broadcasts this member has finished
    Announcement ring[kRing];
};

}  // namespace

struct NodeBroadcastState {
    explicit NodeBroadcastState(const Team& team)
        : me(team.my_pe()),
          n(team.n_pes()),
          memory(std::make_unique<mpi::NodeMemory>(me == 0 ? sizeof(Member) * std::size_t(n) : 0, team.comm())) {
        members = reinterpret_cast<Member*>(memory->peer(0));
        if (me == 0) std::memset(static_cast<void*>(members), 0, sizeof(Member) * std::size_t(n));
        // Every member sees the zeroed block before any uses it.
        (void)team.all(true);
    }
    // Waits until every member has finished broadcast `s`.  Remembers the
    // least count seen, so a root ahead by less than the ring reads no
    // other member's line (each read takes the line from its writer).
    void wait_finished(Poller& poller, const char* routine, std::uint64_t s) {
        if (all_finished >= s) return;
        std::uint64_t least = ~std::uint64_t(0);
        for (int m = 0; m < n; ++m) {
            std::uint64_t f;
            while ((f = members[m].finished.load(std::memory_order_acquire)) < s) poller.idle(routine);
            least = std::min(least, f);
        }
        all_finished = least;
    }

    int me, n;
    std::unique_ptr<mpi::NodeMemory> memory;
    Member* members = nullptr;       // one per team PE, in node-shared memory
    std::uint64_t seq = 0;           // broadcasts this member has started
    std::uint64_t all_finished = 0;  // broadcasts every member had finished when last looked
};

void NodeBroadcastDelete::operator()(NodeBroadcastState* s) const { delete s; }

void node_broadcast(const char* routine, Job& j, const Team& team, void* dest, const void* source, std::size_t bytes,
                    int root, bool root_writes_dest) {
    auto& slot = team.node_broadcast_state();
    if (!slot) [[unlikely]]
        slot.reset(new NodeBroadcastState(team));
    NodeBroadcastState& st = *slot;
    const std::uint64_t s = ++st.seq;
    Announcement& a = st.members[root].ring[s % kRing];
    Member& mine = st.members[st.me];
    Poller poller(j);
    if (st.me == root) {
        const bool small = bytes <= kInline;
        // The announcement's previous user, broadcast s - kRing, is done
        // everywhere (a large one: so was every broadcast before s).
        if (small && s > kRing) st.wait_finished(poller, routine, s - kRing);
        a.bytes = bytes;
        if (small) {
            a.where = Where::inline_data;
            std::memcpy(a.data, source, bytes);
        } else {
            const bool in_heap = j.heap.contains(source);
            a.where = in_heap ? Where::heap : Where::data;
            a.offset = (in_heap ? j.heap : j.data).offset_of(source);
        }
        a.seq.store(s, std::memory_order_release);
        const bool copy_late = root_writes_dest && !small && dest != source && overlap(dest, bytes, source, bytes);
        if (root_writes_dest && dest != source && !copy_late) copy_direct(dest, source, bytes);
        mine.finished.store(s, std::memory_order_release);
        // A large source is read in place: it stays untouched until every
        // member has copied it.
        if (!small) st.wait_finished(poller, routine, s);
        if (copy_late) std::memmove(dest, source, bytes);
    } else {
        while (a.seq.load(std::memory_order_acquire) < s) poller.idle(routine);
        if (a.bytes != bytes) [[unlikely]]
            fatal(routine,
                  "this PE broadcasts %zu bytes but the root (team PE %d) %llu: the size must be the same "
                  "on every PE",
                  bytes, root, static_cast<unsigned long long>(a.bytes));
        const void* from = a.data;
        if (a.where != Where::inline_data) {
            const Segment& seg = a.where == Where::heap ? j.heap : j.data;
            from = seg.direct(team.world_pe(root)) + a.offset;
        }
        copy_direct(dest, from, bytes);
        mine.finished.store(s, std::memory_order_release);
    }
    rt::full_fence();
}

}  // namespace gasket::rt
