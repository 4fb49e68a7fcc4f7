// src/runtime/collective.cpp -- §9.10 collectives: completion rules,
// argument checks, in-place handling and active sets around the MPI
// collectives of mpi-bridge/collective.hpp.
#include "collective.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "copy.hpp"
#include "error.hpp"
#include "fence.hpp"
#include "node_broadcast.hpp"
#include "progress.hpp"
#include "sync.hpp"

namespace gasket::rt {

namespace {

// True when every PE's heap and global data are mapped here (one node, the
// node fast path on): then every put, get and AMO of the job is a direct
// load/store or CPU atomic, so no PE ever waits for this one to serve an
// Active Message, no MPI RMA lands in this PE's memory, and every team's
// PEs share this node.  Cached per job (and heap).
bool every_pe_mapped(const Job& j) {
    static std::atomic<const Job*> cached_job{nullptr};
    static std::atomic<const char*> cached_base{nullptr};
    static std::atomic<bool> cached{false};
    if (cached_job.load(std::memory_order_acquire) == &j && cached_base.load(std::memory_order_relaxed) == j.heap.base)
        return cached.load(std::memory_order_relaxed);
    bool all = true;
    for (int pe = 0; pe < j.n_pes && all; ++pe) all = j.heap.direct(pe) != nullptr && j.data.direct(pe) != nullptr;
    cached.store(all, std::memory_order_relaxed);
    cached_base.store(j.heap.base, std::memory_order_relaxed);
    cached_job.store(&j, std::memory_order_release);
    return all;
}

// The Waiter of a data collective on `team`: the nonblocking MPI
// collective, serving Active Messages between tests (Poller::serve), unless
// nobody needs it: then the blocking collective (small collectives 1.0-1.1x
// raw MPI, where the nonblocking one and its polls cost 1.2-3x).  Nobody
// needs it with no AM engine, with every PE mapped (every AMO a CPU atomic),
// or while the team agrees that none of its PEs has sent an Active Message
// and all have a progress thread (Team::collectives_serve, voted at the
// team's network barriers: see synchronize).  Meanwhile a request sent since
// that barrier is served by the progress thread: woken by the doorbell
// when the request came from this node, and polling at least every 64 µs
// while the wait blocks when some peer is on another node
// (AmEngine::blocking_wait_begin).
// The choice must be the same on every member (MPI never matches a blocking
// collective with a nonblocking one: a member that chose by what it alone
// had seen, e.g. whether requests had arrived here, hung the job), and these
// conditions are.  Leaving collectives to a sleeping progress thread made a
// fetch_add to a PE inside a reduction 80 µs (median), 10 ms at worst
// (issue 15).
class Serving {
public:
    Serving(Job& j, const Team& team, const char* routine)
        : poller_(j),
          routine_(routine),
          am_(every_pe_mapped(j) ? nullptr : j.am.get()),
          needed_(am_ && team.collectives_serve()) {
        if (am_ && !needed_) am_->blocking_wait_begin();
    }
    ~Serving() {
        if (am_ && !needed_) am_->blocking_wait_end();
    }
    Serving(const Serving&) = delete;
    Serving& operator=(const Serving&) = delete;
    mpi::Waiter waiter() { return needed_ ? mpi::Waiter{&Serving::poll, this} : mpi::Waiter{}; }

private:
    static void poll(void* self) {
        auto* s = static_cast<Serving*>(self);
        s->poller_.serve(s->routine_);
    }
    Poller poller_;
    const char* routine_;
    AmEngine* am_;  // null when no Active Message can reach this PE
    bool needed_;
};

// After a data collective: MPI wrote dest; later loads and stores stay
// after it.  (No MPI_Win_sync: data collectives promise nothing about RMA,
// and under oversubscription it cost as much as the collective itself.)
void after_collective(Job& j) {
    (void)j;
    rt::full_fence();
}

}  // namespace

void check_symmetric(const char* routine, const char* what, const void* addr, std::size_t bytes) {
    if (bytes == 0) return;
    Job& j = job(routine);
    const Segment* seg = j.segment_of(addr);
    if (!seg) [[unlikely]]
        fatal(routine, "%s %p is not a symmetric address: it is outside the symmetric heap and the global data", what,
              addr);
    const std::size_t offset = seg->offset_of(addr);
    if (bytes > seg->size - offset) [[unlikely]]
        fatal(routine, "%s: %zu bytes at offset %zu run past the end of the %s (%zu bytes)", what, bytes, offset,
              seg->name, seg->size);
}

void check_same_everywhere(const char* routine, const char* what, std::size_t value) {
    if (!debug_enabled()) return;
    Job& j = job(routine);
    Serving serving(j, *j.world_team, routine);
    const std::vector<std::size_t> all = mpi::gather_sizes(j.world_team->comm(), value, serving.waiter());
    if (std::all_of(all.begin(), all.end(), [&](std::size_t v) { return v == all[0]; })) return;
    std::string list;
    for (std::size_t pe = 0; pe < all.size() && pe < 16; ++pe)
        list += (pe ? ", " : "") + std::to_string(all[pe]) + " on PE " + std::to_string(pe);
    if (all.size() > 16) list += ", ...";
    fatal(routine, "%s differs between PEs (it must be the same on every PE): %s", what, list.c_str());
}

bool all_members(const char* routine, const Team& team, bool mine) {
    Job& j = job(routine);
    Serving serving(j, team, routine);
    std::int32_t all = mine ? 1 : 0;
    mpi::allreduce(team.comm(), nullptr, &all, 1, Elem::i32, ReduceOp::min, serving.waiter());
    return all != 0;
}

void synchronize(const char* routine, const Team& team, bool quiet_first) {
    Job& j = job(routine);
    if (quiet_first)
        quiet(*j.default_ctx, routine);
    else
        rt::full_fence();
    // Every member on this node and every access a load/store: the node
    // barrier (bench-coll: 2-4x faster than MPI_Barrier here), nothing to
    // serve and no window to synchronize.  Else the network barrier,
    // serving Active Messages at every step while waiting (every 8th step
    // made an AMO to a PE in a barrier 1.5-2x slower): PEs reach barriers at very
    // different times, and AMOs to a PE blocked in MPI_Barrier waited for
    // the progress thread's next wake-up (shmem_amo_stress off the fast
    // path went from 1 s to 16 s).
    const bool on_node = every_pe_mapped(j);
    SplitPhaseBarrier& b = team.barrier(on_node);
    Poller poller(j);
    if (b.on_node()) {
        b.start();
        while (!b.test()) poller.idle(routine);
    } else {
        // Puts by other PEs through MPI, completed before they entered,
        // become visible to this PE's loads: MPI_Win_sync, when some member
        // issued or completed MPI RMA since its previous barrier on the team
        // (each says so in the barrier's first value).  Syncing always made
        // the barrier 1.3x MPI_Barrier at 2 PEs and 2.5x at 4.  The second
        // value is each member's vote on whether the team's collectives
        // must serve Active Messages (see Serving).
        long long values[SplitPhaseBarrier::kValues] = {b.note_rma(), j.am ? j.am->collectives_serve_vote() : 0, 0};
        long long max[SplitPhaseBarrier::kValues];
        b.start(values);
        while (!b.test(max)) poller.serve(routine);
        if (max[0]) j.sync_windows();
        team.agree_collectives_serve(max[1] != 0);
    }
    rt::full_fence();
}

void make_barrier(Job& j, const Team& team) { team.barrier(every_pe_mapped(j)); }

std::unique_ptr<SplitPhaseBarrier> job_barrier(Job& j) {
    return std::make_unique<SplitPhaseBarrier>(j.world_team->comm(),
                                               j.config.node_fastpath && j.env->node_size() == j.n_pes);
}

namespace {
// Bytes from which a team broadcast's root copies source to dest during
// the MPI broadcast (bench-coll, fast path off: at 32 KiB the nonblocking
// broadcast and the copy beside it cost what the blocking one and the copy
// after it do; at 16 KiB more, at 64 KiB - 1 MiB less, by the copy).
constexpr std::size_t kCopyDuringBroadcast = std::size_t(32) << 10;
}  // namespace

void broadcast(const char* routine, const Team& team, void* dest, const void* source, std::size_t bytes, int root,
               bool root_writes_dest) {
    Job& j = job(routine);
    const bool is_root = team.my_pe() == root;
    if (is_root) check_symmetric(routine, "source", source, bytes);
    if (!is_root || root_writes_dest) check_symmetric(routine, "dest", dest, bytes);
    if (bytes == 0) return;
    // Every member mapped: peers copy from the root in node-shared memory.
    if (every_pe_mapped(j)) return node_broadcast(routine, j, team, dest, source, bytes, root, root_writes_dest);
    // The root sends from source (MPI_Bcast only reads the root's buffer).
    // A team form's root writes dest too: from kCopyDuringBroadcast bytes on
    // while MPI broadcasts (the nonblocking broadcast on every member, a
    // choice they all make alike from `bytes`), below that after the
    // blocking one, which is cheaper there.  Copying first made a 1 MiB
    // broadcast on 2 PEs 2x slower than copying after, and copying after
    // 102-110 µs against 80-90 copying during (docs/cluster-path.md, part 3,
    // "The collectives through MPI").
    void* buf = is_root ? const_cast<void*>(source) : dest;
    Serving serving(j, team, routine);
    if (root_writes_dest && bytes >= kCopyDuringBroadcast) {
        mpi::broadcast_copying(team.comm(), buf, bytes, root, is_root && dest != source ? dest : nullptr,
                               serving.waiter());
    } else {
        mpi::broadcast(team.comm(), buf, bytes, root, serving.waiter());
        if (is_root && root_writes_dest && dest != source) std::memmove(dest, source, bytes);
    }
    after_collective(j);
}

namespace {
// The sum of the members' block sizes; fatal, naming `routine`, past
// size_t or what MPI_Allgatherv's int displacements carry.
std::size_t gathered_total(const char* routine, const std::vector<std::size_t>& sizes) {
    std::size_t total = 0;
    for (std::size_t s : sizes)
        if (__builtin_add_overflow(total, s, &total)) [[unlikely]]
            fatal(routine, "the PEs' blocks total more than %zu bytes (size_t overflows)", SIZE_MAX);
    if (total > mpi::kMaxGatherv) [[unlikely]]
        fatal(routine, "the PEs' blocks total %zu bytes; at most %zu are supported (MPI_Allgatherv displacements)",
              total, mpi::kMaxGatherv);
    return total;
}
}  // namespace

void collect(const char* routine, const Team& team, void* dest, const void* source, std::size_t bytes, bool fixed) {
    Job& j = job(routine);
    Serving serving(j, team, routine);
    check_symmetric(routine, "source", source, bytes);
    std::vector<char> copy;
    if (fixed) {
        const std::size_t total = checked_bytes(routine, "team PEs", std::size_t(team.n_pes()), bytes);
        check_symmetric(routine, "dest", dest, total);
        if (bytes == 0) return;
        const char* mine = static_cast<const char*>(source);
        if (mine == static_cast<char*>(dest) + bytes * std::size_t(team.my_pe())) {
            mine = nullptr;  // already in place
        } else if (overlap(dest, total, source, bytes)) {
            copy.assign(mine, mine + bytes);
            mine = copy.data();
        }
        mpi::allgather(team.comm(), mine, dest, bytes, serving.waiter());
    } else {
        const std::vector<std::size_t> sizes = mpi::gather_sizes(team.comm(), bytes, serving.waiter());
        const std::size_t total = gathered_total(routine, sizes);
        check_symmetric(routine, "dest", dest, total);
        if (total == 0) return;
        const char* mine = static_cast<const char*>(source);
        if (bytes && overlap(dest, total, source, bytes)) {
            copy.assign(mine, mine + bytes);
            mine = copy.data();
        }
        mpi::allgatherv(team.comm(), mine, dest, sizes, serving.waiter());
    }
    after_collective(j);
}

std::vector<char> gather_to_all(const char* routine, const Team& team, const void* source, std::size_t bytes) {
    Job& j = job(routine);
    Serving serving(j, team, routine);
    const std::vector<std::size_t> sizes = mpi::gather_sizes(team.comm(), bytes, serving.waiter());
    std::vector<char> all(gathered_total(routine, sizes));
    const std::size_t total = all.size();
    if (total) mpi::allgatherv(team.comm(), source, all.data(), sizes, serving.waiter());
    after_collective(j);
    return all;
}

void alltoall(const char* routine, const Team& team, void* dest, const void* source, std::size_t elem_bytes,
              std::size_t nelems, std::size_t dst, std::size_t sst) {
    Job& j = job(routine);
    if (nelems == 0) return;
    const std::size_t per_pe = nelems;
    (void)checked_bytes(routine, "nelems", nelems, elem_bytes);  // one PE's block
    // Bytes from the first element to the end of the last one (checked).
    auto extent = [&](const char* stride_name, std::size_t stride) {
        std::size_t elems;
        if (__builtin_mul_overflow(nelems, std::size_t(team.n_pes()), &elems) ||
            __builtin_mul_overflow(stride, elems - 1, &elems) || __builtin_add_overflow(elems, 1, &elems) ||
            __builtin_mul_overflow(elems, elem_bytes, &elems)) [[unlikely]]
            fatal(routine, "nelems %zu with %s %zu on %d PEs spans more than %zu bytes (size_t overflows)", nelems,
                  stride_name, stride, team.n_pes(), SIZE_MAX);
        return elems;
    };
    const std::size_t src_extent = extent("sst", sst);
    const std::size_t dst_extent = extent("dst", dst);
    check_symmetric(routine, "source", source, src_extent);
    check_symmetric(routine, "dest", dest, dst_extent);
    if ((dst != 1 || sst != 1) && nelems > std::size_t(INT_MAX)) [[unlikely]]
        fatal(routine, "nelems %zu: strided exchanges of more than %d elements per PE are not supported", nelems,
              INT_MAX);
    std::vector<char> copy;
    const void* src = source;
    if (overlap(dest, dst_extent, source, src_extent)) {
        copy.assign(static_cast<const char*>(source), static_cast<const char*>(source) + src_extent);
        src = copy.data();
    }
    Serving serving(j, team, routine);
    if (dst == 1 && sst == 1)
        mpi::alltoall(team.comm(), src, dest, per_pe * elem_bytes, serving.waiter());  // <= src_extent: no overflow
    else
        mpi::alltoall_strided(team.comm(), src, dest, elem_bytes, nelems, dst, sst, serving.waiter());
    after_collective(j);
}

namespace {
// dest, or nullptr (MPI_IN_PLACE) when dest == source; a private copy of
// source when they overlap otherwise.
const void* reduction_source(const void* dest, const void* source, std::size_t bytes, std::vector<char>& copy) {
    if (dest == source) return nullptr;
    if (!overlap(dest, bytes, source, bytes)) return source;
    copy.assign(static_cast<const char*>(source), static_cast<const char*>(source) + bytes);
    return copy.data();
}

// Checks a reduction's or scan's buffers (count elements of e) and returns
// what MPI reads (see reduction_source).
const void* checked_reduction_source(const char* routine, void* dest, const void* source, std::size_t count, Elem e,
                                     std::vector<char>& copy) {
    const std::size_t bytes = checked_bytes(routine, "nelems", count, mpi::elem_bytes(e));
    check_symmetric(routine, "source", source, bytes);
    check_symmetric(routine, "dest", dest, bytes);
    return reduction_source(dest, source, bytes, copy);
}
}  // namespace

void reduce(const char* routine, const Team& team, void* dest, const void* source, std::size_t count, Elem e,
            ReduceOp op) {
    Job& j = job(routine);
    std::vector<char> copy;
    const void* src = checked_reduction_source(routine, dest, source, count, e, copy);
    if (count == 0) return;
    Serving serving(j, team, routine);
    mpi::allreduce(team.comm(), src, dest, count, e, op, serving.waiter());
    after_collective(j);
}

void scan(const char* routine, const Team& team, void* dest, const void* source, std::size_t count, Elem e,
          bool inclusive) {
    Job& j = job(routine);
    std::vector<char> copy;
    const void* src = checked_reduction_source(routine, dest, source, count, e, copy);
    if (count == 0) return;
    Serving serving(j, team, routine);
    mpi::scan_sum(team.comm(), src, dest, count, e, inclusive, serving.waiter());
    // MPI_Exscan leaves rank 0's result undefined; §9.10.10 says zero (all
    // bits zero is 0 for every type of Table 10).
    if (!inclusive && team.my_pe() == 0) std::memset(dest, 0, count * mpi::elem_bytes(e));
    after_collective(j);
}

namespace {

struct ActiveSets {
    std::mutex mutex;
    std::map<std::tuple<int, int, int>, std::unique_ptr<Team>> teams;
};

ActiveSets& active_sets() {
    static ActiveSets* sets = new ActiveSets;  // lives to the end: communicators outlive MPI_Finalize harmlessly
    return *sets;
}

constexpr int kActiveSetTag = 7007;

}  // namespace

const Team& active_set(const char* routine, int start, int log_stride, int size) {
    Job& j = job(routine);
    if (size < 1 || log_stride < 0 || log_stride > 30 || start < 0) [[unlikely]]
        fatal(routine,
              "active set PE_start %d, logPE_stride %d, PE_size %d: need PE_start >= 0, 0 <= logPE_stride "
              "<= 30, PE_size >= 1",
              start, log_stride, size);
    const long long stride = 1LL << log_stride;
    const long long last = start + (size - 1LL) * stride;
    if (last >= j.n_pes) [[unlikely]]
        fatal(routine, "active set PE_start %d, logPE_stride %d, PE_size %d ends at PE %lld; the job has PEs 0..%d",
              start, log_stride, size, last, j.n_pes - 1);
    if (j.my_pe < start || (j.my_pe - start) % stride != 0 || j.my_pe > last) [[unlikely]]
        fatal(routine, "PE %d is not in the active set PE_start %d, logPE_stride %d, PE_size %d", j.my_pe, start,
              log_stride, size);
    if (start == 0 && size == j.n_pes && (stride == 1 || size == 1)) return *j.world_team;

    ActiveSets& sets = active_sets();
    // A size-1 set is the same whatever the stride.
    const auto key = std::make_tuple(start, size == 1 ? 0 : log_stride, size);
    std::lock_guard lock(sets.mutex);
    auto it = sets.teams.find(key);
    if (it != sets.teams.end()) return *it->second;
    std::vector<int> pes(static_cast<std::size_t>(size));
    for (int i = 0; i < size; ++i) pes[std::size_t(i)] = int(start + i * stride);
    // Both the communicator and the set's barrier are blocking MPI calls:
    // the members meet first, serving as the world's collectives do.
    Serving serving(j, *j.world_team, routine);
    mpi::Communicator comm = mpi::create_group(j.world_team->comm(), pes, kActiveSetTag, serving.waiter());
    auto team = std::make_unique<Team>(std::move(comm), std::move(pes), 0);
    make_barrier(j, *team);
    return *sets.teams.emplace(key, std::move(team)).first->second;
}

}  // namespace gasket::rt
