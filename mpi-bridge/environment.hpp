// mpi-bridge/environment.hpp -- the job's MPI environment: init/finalize
// policy, the private world communicator and the node communicator.
#pragma once

#include <mpi.h>

#include <vector>

namespace gasket::mpi {

// MPI's thread levels, in their order (MPI_THREAD_SINGLE ... _MULTIPLE).
enum class ThreadLevel { single, funneled, serialized, multiple };

// Owns MPI for Gasket.  If the application initialized MPI itself, Gasket
// uses it and never finalizes; otherwise Gasket initializes MPI with the
// requested thread level and finalizes it when the process exits (an
// atexit handler), not in the destructor: a later Environment (OpenSHMEM
// initialized again after the last shmem_finalize) uses the same MPI.  All of
// Gasket's traffic runs on private duplicates, so it never matches the
// application's messages.
class Environment {
public:
    // Initializes MPI at `requested` (when the application has not).
    explicit Environment(ThreadLevel requested);
    ~Environment();
    Environment(const Environment&) = delete;
    Environment& operator=(const Environment&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }
    int node_rank() const { return node_rank_; }
    int node_size() const { return node_size_; }
    // The level MPI provides.
    ThreadLevel thread_level() const;
    // True if this Environment initialized MPI (the first one, when the
    // application did not).
    bool initialized_mpi() const { return we_initialized_; }
    MPI_Comm world() const { return world_; }
    MPI_Comm node() const { return node_; }
    // node_rank_of(world rank) = rank in node(), or -1 when not on this node.
    int node_rank_of(int world_rank) const { return node_rank_of_[world_rank]; }

    void barrier() const;  // MPI_Barrier on the private world communicator (start-up, tear-down)
    bool thread_multiple() const { return thread_level_ == MPI_THREAD_MULTIPLE; }
    // Collectives on the private world communicator.
    int all_min(int mine) const;
    int all_max(int mine) const;
    unsigned long all_min(unsigned long mine) const;
    // Gathers `bytes` from every rank into `all` (size() * bytes), rank order.
    void allgather(const void* mine, std::size_t bytes, void* all) const;
    // Enters MPI briefly (MPI_Iprobe) so MPIs that progress RMA only inside
    // MPI calls deliver what other processes sent here.
    void poke_progress() const;
    // True when RMA aimed at this process completes only while it is inside
    // MPI (passive-target progress needs the target): the MPICH family
    // (MPICH, Cray MPICH, Intel MPI, MVAPICH), whose UCX/OFI devices emulate
    // RMA on memory they cannot reach directly with messages the target
    // handles.  Open MPI 4.1 progresses it without the target.  Decided at
    // start from MPI_Get_library_version, so waits that never enter MPI
    // otherwise (the node barrier) call poke_progress() now and then only
    // where it is needed.
    bool rma_needs_target() const { return rma_needs_target_; }

private:
    bool we_initialized_ = false;
    bool rma_needs_target_ = true;
    int thread_level_ = MPI_THREAD_SINGLE;
    MPI_Comm world_ = MPI_COMM_NULL;
    MPI_Comm node_ = MPI_COMM_NULL;
    int rank_ = 0, size_ = 1, node_rank_ = 0, node_size_ = 1;
    std::vector<int> node_rank_of_;
};

// True if MPI is initialized, not yet finalized, and the job is not being
// aborted (mark_aborting): what every teardown asks before calling MPI.
bool mpi_usable();

// Called by abort_job before MPI_Abort: from then on mpi_usable() is false
// in this process, so destructors and exit handlers that run while the
// process ends (MPICH's MPI_Abort calls exit()) never call MPI.
void mark_aborting();
// True once mark_aborting() was called in this process.
bool aborting();

// Finalizes MPI if it is initialized and not yet finalized, whoever
// initialized it: for gasnet_exit, after which the program cannot, and at
// process exit when Gasket initialized MPI.  `status`: the status the
// process exits with.  On the MPICH family it first waits for every process
// (MPI_Barrier on MPI_COMM_WORLD), then ends this process with `status`
// (_exit, after a one-line message on stderr) if MPI_Finalize has not
// returned set_finalize_stall_limit's seconds later: MPICH 4.0.2 over UCX
// without CMA can stall there for good, closing its endpoints
// (docs/cluster-path.md, part 1, "A hang in MPI_Finalize without CMA").
void finalize_mpi(int status);
// The seconds finalize_mpi lets MPI_Finalize take on the MPICH family
// (GASKET_EXIT_TIMEOUT; 2 until set).
void set_finalize_stall_limit(double seconds);

// True when this process's MPI is not Open MPI: treated as the MPICH family
// (MPICH, Cray MPICH, Intel MPI, MVAPICH), whose behaviours Gasket works
// around (Environment::rma_needs_target, Window's per-process flushes).
// From MPI_Get_library_version, asked once; MPI must be initialized.
bool mpich_family();

}  // namespace gasket::mpi
