// src/runtime/job.hpp -- the running job: MPI environment, configuration,
// topology, the symmetric segments and their allocator, and the Active
// Message engine.  One per process: created by the first shmem_init (or by
// gasnet_init) and destroyed by the last shmem_finalize (or gasnet_exit).
#pragma once

#include <atomic>
#include <cstring>
#include <memory>

#include "am.hpp"
#include "config.hpp"
#include "error.hpp"
#include "heap_allocator.hpp"
#include "mpi-bridge/data_segment.hpp"
#include "mpi-bridge/environment.hpp"
#include "mpi-bridge/exit_channel.hpp"
#include "mpi-bridge/node_memory.hpp"
#include "mpi-bridge/topology.hpp"
#include "segment.hpp"
#include "team.hpp"

namespace gasket::rt {

// Every PE's symmetric heap starts on this boundary, so offsets aligned to
// it (or less) are aligned addresses on every PE.
inline constexpr std::size_t kHeapAlignment = mpi::NodeMemory::kAlignment;

// Every PE's OpenSHMEM heap starts on this boundary, so shmem_align honours
// alignments up to it: the heap size rounded down to a power of two, at
// least kHeapAlignment and at most 1 GiB (the heap is given that much more
// address space, never touched).
inline std::size_t heap_base_alignment_for(std::size_t heap_bytes) {
    constexpr std::size_t kMax = std::size_t(1) << 30;
    if (heap_bytes <= kHeapAlignment) return kHeapAlignment;
    if (heap_bytes >= kMax) return kMax;
    std::size_t a = kHeapAlignment;
    while (a * 2 <= heap_bytes) a *= 2;
    return a;
}

// Which interface created the job.
enum class Api { shmem, gasnet };
// MPI's thread levels, in order (single ... multiple).
using ThreadLevel = mpi::ThreadLevel;

class ContextPool;
class Context;
// Frees what the job owns of context.hpp's (defined in context.cpp), so the
// job owns its contexts without depending on their definition.
struct ContextDelete {
    void operator()(Context* c) const;
    void operator()(ContextPool* p) const;
};

class Job {
public:
    // Collective over MPI_COMM_WORLD: initializes MPI at `requested` unless
    // the application did.  Ends the job with a message naming `routine` on
    // failure.  The job starts with no segments: see attach_heap and
    // attach_globals (start.hpp's start_job does it all).
    Job(const Config& config, ThreadLevel requested, const char* routine);

    // Creates `heap`: `bytes` of memory on this rank (sizes may differ between
    // ranks), 2 MiB aligned.  `node_shared` (and the node fast path): node
    // memory that node peers load/store, plus a world window; otherwise an
    // MPI_Win_allocate window.  Collective.  `name` is used in messages.
    void attach_heap(std::size_t bytes, bool node_shared, const char* name, const char* routine);
    // Makes the executable's global/static data the `data` segment (moved
    // onto node-shared memory when allowed).  Collective.
    void attach_globals(const char* routine);
    ~Job();
    Job(const Job&) = delete;
    Job& operator=(const Job&) = delete;

    // The boundary every PE's heap starts on (heap_base_alignment for
    // OpenSHMEM: heap_base_alignment_for; kHeapAlignment for GASNet segments); after attach_heap.
    std::size_t heap_base_alignment() const { return heap_base_alignment_; }

    // Translates `addr` (a symmetric address here) for a transfer of `bytes`
    // to `pe`.  Fatal, naming `routine`, if pe is out of range, addr is not
    // symmetric, or the transfer runs past the end of its segment.
    Target resolve(const char* routine, const void* addr, std::size_t bytes, int pe) {
        const Translation t = translate(heap, data, n_pes, addr, bytes, pe);
        if (t.fault != Fault::none) [[unlikely]]
            report(routine, t.fault, t.segment, addr, bytes, pe);
        return t.target;
    }
    // The segment holding `addr`, or nullptr.
    Segment* segment_of(const void* addr) {
        return heap.contains(addr) ? &heap : data.contains(addr) ? &data : nullptr;
    }
    void check_pe(const char* routine, int pe) const {
        if (static_cast<unsigned>(pe) >= static_cast<unsigned>(n_pes)) [[unlikely]]
            bad_pe(routine, pe);
    }

    // GASNet-EX segments made by gex_Segment_Create (not collective) are
    // reached through one dynamic window over the world: opened by
    // attach_segments for a GASNet job of two PEs or more (`dynamic_window`
    // null otherwise, and before); expose() attaches [base, +bytes) of this
    // PE to it and returns the displacement every PE reaches `base` at (its
    // address); withdraw() detaches the region exposed at `base`.  Local;
    // MPI errors are fatal, naming the MPI call.
    mpi::Window* dynamic_window = nullptr;
    void open_dynamic_window();
    Displacement expose(void* base, std::size_t bytes);
    void withdraw(void* base);

    // MPI_Win_sync on both windows (public/private copies agree).
    void sync_windows() {
        if (heap.window) heap.window->sync();
        if (data.window) data.window->sync();
    }

    // Fatal, naming `routine`: the error `fault` (not Fault::none) found
    // translating `addr` (in `segment`, where the fault is out_of_bounds) for
    // `bytes` to `pe`.  The translation's parts come by value, so that a
    // caller's Translation never needs an address on its hot path.
    [[noreturn]] void report(const char* routine, Fault fault, const Segment* segment, const void* addr,
                             std::size_t bytes, int pe) const;
    // As report, but returns for an empty transfer (bytes == 0) to a valid
    // PE, whatever the address (OpenSHMEM 1.6 Annex C: a null or
    // non-symmetric address with length 0 is legal).  Cold.
    [[gnu::cold]] void report_unless_empty(const char* routine, Fault fault, const Segment* segment, const void* addr,
                                           std::size_t bytes, int pe) const;
    // Fatal, naming `routine` and (OpenSHMEM) SHMEM_SYMMETRIC_SIZE and its
    // value, when this node cannot give each of its PEs `bytes` of `shared`
    // (node-shared) or private memory.  Cold.
    [[gnu::cold]] void check_heap_fits(std::size_t bytes, bool shared, const char* name, const char* routine) const;
    [[noreturn]] void bad_pe(const char* routine, int pe) const;
    [[noreturn]] void not_symmetric(const char* routine, const void* addr, int pe) const;
    [[noreturn]] void out_of_bounds(const char* routine, const Segment& seg, std::size_t offset,
                                    std::size_t bytes) const;

    Config config;
    std::unique_ptr<mpi::Environment> env;
    mpi::Topology topology;
    int my_pe = 0, n_pes = 1;
    int init_count = 1;  // nested shmem_init calls not yet finalized
    Api api = Api::shmem;
    // Several threads may issue RMA at once (set before attaching
    // segments): OpenSHMEM at SHMEM_THREAD_MULTIPLE, GASNet always (handlers
    // on the progress thread send Long replies through the window).
    bool concurrent_rma = true;
    // Scattered batches of nbi puts in the bounce rings (GASKET_NBI_BATCH,
    // auto resolved at start: on for the MPICH family).
    bool nbi_batches = false;

    Segment heap, data;
    HeapAllocator allocator;
    // The world team (every PE, world order) and the shared team: the PEs
    // whose memory this PE loads/stores (this node with the node fast
    // path, else this PE alone).  Both made by the constructor.
    std::unique_ptr<Team> world_team, shared_team;
    std::unique_ptr<AmEngine> am;  // after attach_segments (start.hpp)
    // Exit notices (collective exit from any PE: gasnet_exit), or null.
    std::unique_ptr<mpi::ExitChannel> exit_channel;
    // What a wait does once another PE has begun to exit (its exit notice
    // arrived; check_remote_exit in progress.hpp calls it): set by the API
    // that started the job.  `code` and `pe` are the notice's; `routine`
    // names the wait.  May end the process; returns to keep waiting.
    void (*on_remote_exit)(Job& j, int code, int pe, const char* routine) = nullptr;
    // What this PE does when node peer `owner` withdraws the segment bound
    // to its endpoint `ep`, at `base` in the owner's process, because it is
    // destroying it (segment_withdrawal.hpp): set by the API that maps such
    // segments, which unmaps its mapping of it, if any, and forgets its
    // route there.  Runs inside an Active Message handler.  Null: nothing.
    void (*on_segment_withdrawn)(Job& j, int owner, unsigned ep, std::uintptr_t base) = nullptr;
    // OpenSHMEM contexts' windows, and the default context: made by
    // attach_segments (start.hpp).
    std::unique_ptr<ContextPool, ContextDelete> contexts;
    std::unique_ptr<Context, ContextDelete> default_ctx;

private:
    std::atomic<bool> direct_stores_{false};
    std::size_t heap_base_alignment_ = kHeapAlignment;
    std::unique_ptr<mpi::NodeMemory> heap_memory_;
    std::unique_ptr<mpi::Window> heap_window_;
    std::unique_ptr<mpi::SharedDataSegment> shared_data_;
    std::unique_ptr<mpi::Window> data_window_;
    std::unique_ptr<mpi::Window> dynamic_window_;
};

// The job, or null outside init..finalize (start.hpp starts and ends it).
extern std::unique_ptr<Job> g_job;

[[noreturn, gnu::cold]] void not_initialized(const char* routine);

// The job; fatal (naming `routine`) if shmem_init has not been called.
inline Job& job(const char* routine) {
    if (!g_job) [[unlikely]]
        not_initialized(routine);
    return *g_job;
}

}  // namespace gasket::rt
