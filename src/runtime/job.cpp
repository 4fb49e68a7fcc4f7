// src/runtime/job.cpp -- job start-up and tear-down, and the translation
// errors (cold).
#include "job.hpp"

#include <cinttypes>
#include <string>

namespace gasket::rt {

std::unique_ptr<Job> g_job;

void not_initialized(const char* routine) {
    fatal(routine, "called before shmem_init (or after the last shmem_finalize)");
}

namespace {

// Every PE's route to its copy of a segment: base and size from every PE,
// the window displacement of its first byte, and a direct address for this
// PE always and for node peers when `direct` is on and `peer` maps them.
// `lead`: bytes from the start of this PE's block (what `peer` maps and,
// when `window_at_block`, what the window's displacement counts from) to
// seg.base; each PE's own is applied to its route.
std::vector<Route> route_table(const mpi::Environment& env, const Segment& seg, bool direct,
                               char* (*peer)(const void*, int), const void* source, std::size_t lead = 0,
                               bool window_at_block = false) {
    struct Extent {
        std::uintptr_t base;
        std::size_t size, lead;
    } mine{reinterpret_cast<std::uintptr_t>(seg.base), seg.size, lead};
    std::vector<Extent> all(std::size_t(env.size()));
    env.allgather(&mine, sizeof mine, all.data());
    std::vector<Route> table(std::size_t(env.size()));
    for (int pe = 0; pe < env.size(); ++pe) {
        const Extent& e = all[std::size_t(pe)];
        Route& r = table[std::size_t(pe)];
        r.base = e.base;
        r.size = e.size;
        r.disp = seg.window ? seg.window->displacement(pe) + (window_at_block ? Displacement(e.lead) : 0) : 0;
        const int node_rank = env.node_rank_of(pe);
        if (pe == env.rank())
            r.direct = seg.base;
        else if (direct && node_rank >= 0)
            r.direct = peer(source, node_rank) + e.lead;
        else
            r.direct = nullptr;
    }
    return table;
}

char* align_up(char* p, std::size_t alignment) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    return p + (((a + alignment - 1) & ~(alignment - 1)) - a);
}

}  // namespace

Job::Job(const Config& cfg, ThreadLevel requested, const char* routine)
    : config(cfg), env(std::make_unique<mpi::Environment>(requested)), allocator(cfg.symmetric_size) {
    my_pe = env->rank();
    n_pes = env->size();
    set_message_context(my_pe, config.debug);
    topology = mpi::read_topology();
    heap.route.assign(std::size_t(n_pes), Route{});
    data.route.assign(std::size_t(n_pes), Route{});
    auto world = mpi::Communicator::duplicate(env->world());
    std::vector<int> world_pes = world.ranks_in(env->world());
    world_team = std::make_unique<Team>(std::move(world), std::move(world_pes), 0);
    auto shared =
        config.node_fastpath ? mpi::Communicator::duplicate(env->node()) : world_team->communicator().split(my_pe, 0);
    std::vector<int> shared_pes = shared.ranks_in(env->world());
    shared_team = std::make_unique<Team>(std::move(shared), std::move(shared_pes), 0);
    (void)routine;
}

void Job::attach_heap(std::size_t bytes, bool node_shared, const char* name, const char* routine) {
    // With the node fast path: node-shared memory that node peers
    // load/store, plus a world window over it for the others.  Without it
    // nothing needs sharing, so the heap is an MPI_Win_allocate window, the
    // kind MPI serves best.  A single PE needs no window at all (and Open
    // MPI cannot create one on one process): everything is local.
    //
    // An OpenSHMEM heap starts on a heap_base_alignment boundary on every
    // PE (heap_base_alignment_for), so shmem_align honours alignments up to it: the memory is
    // asked for with that much more address space (never touched), and the
    // heap starts `lead` bytes into it.
    const bool shared = node_shared && config.node_fastpath;
    check_heap_fits(bytes, shared, name, routine);
    heap.name = name;
    heap.size = bytes;
    heap_base_alignment_ = api == Api::shmem ? heap_base_alignment_for(bytes) : kHeapAlignment;
    const std::size_t pad = heap_base_alignment_ - kHeapAlignment;  // blocks are kHeapAlignment-aligned already
    char* block = nullptr;
    const bool window_at_block = n_pes > 1 && !shared;
    if (window_at_block) {
        heap_window_ = std::make_unique<mpi::Window>(bytes + pad, kHeapAlignment, env->world(), &block, concurrent_rma);
        heap.base = align_up(block, heap_base_alignment_);
    } else {
        heap_memory_ = std::make_unique<mpi::NodeMemory>(bytes + pad, env->node());
        block = heap_memory_->base();
        heap.base = align_up(block, heap_base_alignment_);
        if (n_pes > 1) heap_window_ = std::make_unique<mpi::Window>(heap.base, heap.size, env->world(), concurrent_rma);
    }
    heap.window = heap_window_.get();
    heap.route = route_table(
        *env, heap, shared, [](const void* m, int r) { return static_cast<const mpi::NodeMemory*>(m)->peer(r); },
        heap_memory_.get(), std::size_t(heap.base - block), window_at_block);
    debug(routine, "%s: %zu bytes at %p, node %d of %d, node sharing %s", name, heap.size,
          static_cast<void*>(heap.base), env->node_rank(), env->node_size(), shared ? "on" : "off");
}

void Job::attach_globals(const char* routine) {
    const mpi::ByteRange range = mpi::executable_data();
    if (range.size == 0) fatal(routine, "cannot find the executable's data segment");
    data.name = "global data";
    data.base = range.begin;
    data.size = range.size;
    bool share = config.shared_data && config.node_fastpath && env->node_size() > 1;
    if (share) {
        shared_data_ = std::make_unique<mpi::SharedDataSegment>(range, env->node());
        if (!shared_data_->ok())
            debug(routine, "global data stays private (%s): node peers reach it through MPI", shared_data_->why());
    }
    if (n_pes > 1) data_window_ = std::make_unique<mpi::Window>(data.base, data.size, env->world(), concurrent_rma);
    data.window = data_window_.get();
    data.route = route_table(
        *env, data, share && shared_data_->ok(),
        [](const void* s, int r) { return static_cast<const mpi::SharedDataSegment*>(s)->peer(r); },
        shared_data_.get());
    debug(routine, "global data %zu bytes at %p", data.size, static_cast<void*>(data.base));
    env->barrier();
}

void Job::check_heap_fits(std::size_t bytes, bool shared, const char* name, const char* routine) const {
    const int ranks = env->node_size();
    const std::size_t page = 4096;
    const std::size_t limit =
        shared ? mpi::shared_memory_per_rank(ranks, page) : mpi::private_memory_per_rank(ranks, page);
    if (limit == 0 || bytes <= limit) return;  // (0: the limit is unknown)
    const std::string setting = api == Api::shmem ? " (" + config.symmetric_size_setting + ")" : std::string();
    fatal(routine,
          "a %s of %zu bytes%s is more than this node can give each of its %d %ss: at most %zu bytes (%s / %d); "
          "lower it",
          name, bytes, setting.c_str(), ranks, unit_word(routine), limit,
          shared ? "the smaller of /dev/shm's free space and RAM" : "RAM + swap", ranks);
}

void Job::open_dynamic_window() {
    dynamic_window_ = std::make_unique<mpi::Window>(mpi::Window::Dynamic{}, env->world(), concurrent_rma);
    dynamic_window = dynamic_window_.get();
}

Displacement Job::expose(void* base, std::size_t bytes) {
    dynamic_window->attach(base, bytes);
    return mpi::Window::address_of(base);
}

void Job::withdraw(void* base) { dynamic_window->detach(base); }

Job::~Job() {
    if (mpi::aborting()) {
        // The process is ending inside MPI_Abort (MPICH's leaves through
        // exit(), running this destructor, possibly on the progress thread):
        // stop nothing, free nothing, call no MPI; the process is going.
        (void)am.release();
        (void)exit_channel.release();
        (void)default_ctx.release();
        (void)contexts.release();
        (void)dynamic_window_.release();
        (void)data_window_.release();
        (void)shared_data_.release();
        (void)heap_window_.release();
        (void)heap_memory_.release();
        (void)shared_team.release();
        (void)world_team.release();
        (void)env.release();
        return;
    }
    if (!mpi::mpi_usable()) return;  // the application finalized MPI first: nothing can be freed
    // The teams' barriers before any window (the Active Message inboxes'
    // too): they hold persistent receives, and MPICH 4.0.2 over UCX without
    // CMA hangs in MPI_Finalize when a persistent request is freed after a
    // window was (docs/cluster-path.md, part 1, "A hang in MPI_Finalize
    // without CMA").
    if (world_team) world_team->free_barrier();
    if (shared_team) shared_team->free_barrier();
    am.reset();
    env->barrier();
    exit_channel.reset();
    default_ctx.reset();
    contexts.reset();
    dynamic_window_.reset();
    data_window_.reset();
    shared_data_.reset();
    heap_window_.reset();
    heap_memory_.reset();
    shared_team.reset();
    world_team.reset();
    env.reset();
}

void Job::report(const char* routine, Fault fault, const Segment* segment, const void* addr, std::size_t bytes,
                 int pe) const {
    if (fault == Fault::bad_pe) bad_pe(routine, pe);
    if (fault == Fault::not_symmetric) not_symmetric(routine, addr, pe);
    out_of_bounds(routine, *segment, segment->offset_of(addr), bytes);
}

void Job::report_unless_empty(const char* routine, Fault fault, const Segment* segment, const void* addr,
                              std::size_t bytes, int pe) const {
    if (bytes == 0 && fault != Fault::bad_pe) return;
    report(routine, fault, segment, addr, bytes, pe);
}

void Job::bad_pe(const char* routine, int pe) const {
    const char* unit = unit_word(routine);
    fatal(routine, "%s %d is out of range: the job has %ss 0..%d", unit, pe, unit, n_pes - 1);
}

void Job::not_symmetric(const char* routine, const void* addr, int pe) const {
    fatal(routine, "address %p (target %s %d) is not symmetric: it is outside the %s [%p, %p) and the %s [%p, %p)",
          addr, unit_word(routine), pe, heap.name, static_cast<void*>(heap.base),
          static_cast<void*>(heap.base + heap.size), data.name, static_cast<void*>(data.base),
          static_cast<void*>(data.base + data.size));
}

void Job::out_of_bounds(const char* routine, const Segment& seg, std::size_t offset, std::size_t bytes) const {
    fatal(routine, "%zu bytes at offset %zu run past the end of the %s (%zu bytes)", bytes, offset, seg.name, seg.size);
}

}  // namespace gasket::rt
