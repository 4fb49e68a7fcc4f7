// src/runtime/collective.hpp -- the one runtime entry point per collective
// kind (§9.10): sync/barrier, broadcast, collect, fcollect, alltoall(s),
// reduce and scan, each over a Team (a team of the API, or the team of a
// deprecated active set), on MPI collectives over the team's communicator
// (mpi-bridge/collective.hpp).
//
// What the entry points add to the MPI collective:
//  - the completion rules: barrier-type calls (quiet_first) complete this
//    PE's outstanding puts, AMOs and nbi operations before synchronizing;
//    sync-type calls only order this PE's stores (a full fence) and complete
//    nothing; afterwards both make remote writes visible to local loads
//    (MPI_Win_sync on the windows);
//  - while any PE might be waiting on an AMO that only this PE can serve
//    (an Active Message), the collective runs nonblocking and serves Active
//    Messages between tests; when every AMO is a direct CPU atomic (every PE
//    mapped here) or a progress thread serves them, it blocks in MPI;
//  - symmetric-address checks of dest and source (fatal, naming the
//    routine), and in-place or overlapping buffers (in place where MPI
//    allows it, else through a private copy).
// Sizes are bytes, except `count`/`nelems` which count elements.
#pragma once

#include <cstddef>
#include <vector>
#include <memory>
#include <type_traits>

#include "job.hpp"
#include "mpi-bridge/collective.hpp"
#include "team.hpp"

namespace gasket::rt {

using mpi::Elem;
using mpi::ReduceOp;

// The element kind of C type T (integers by size and signedness).
template <class T>
constexpr Elem elem_of() {
    if constexpr (std::is_integral_v<T>) {
        constexpr bool s = std::is_signed_v<T>;
        if constexpr (sizeof(T) == 1)
            return s ? Elem::i8 : Elem::u8;
        else if constexpr (sizeof(T) == 2)
            return s ? Elem::i16 : Elem::u16;
        else if constexpr (sizeof(T) == 4)
            return s ? Elem::i32 : Elem::u32;
        else {
            static_assert(sizeof(T) == 8, "integer reductions: 1, 2, 4 or 8 bytes");
            return s ? Elem::i64 : Elem::u64;
        }
    } else if constexpr (std::is_same_v<T, float>) {
        return Elem::f32;
    } else if constexpr (std::is_same_v<T, double>) {
        return Elem::f64;
    } else if constexpr (std::is_same_v<T, long double>) {
        return Elem::flong;
    } else if constexpr (std::is_same_v<T, _Complex float>) {
        return Elem::cf32;
    } else {
        static_assert(std::is_same_v<T, _Complex double>, "not a reduction type of Table 10");
        return Elem::cf64;
    }
}

// Synchronizes the team's PEs.  quiet_first: first completes this PE's
// outstanding operations on the default context (shmem_barrier_all,
// shmem_barrier); otherwise completes nothing (shmem_sync, shmem_sync_all).
void synchronize(const char* routine, const Team& team, bool quiet_first);
// Makes `team`'s barrier now (collective over the team) instead of at its
// first rt::synchronize.  Making it is a blocking MPI call (MPI_Comm_dup, or
// the node barrier's shared window), so it is made where every member is
// known to be inside the same call: at start for the world and shared teams
// (a PE waiting there for a peer that exited without finalizing could not
// leave it), and when a team is split or an active set made.  At a first
// barrier, a member that arrived early blocked in it without serving Active
// Messages, and a peer that first waited for an AMO to it never arrived
// (deadlock without a progress thread, issue 15).
void make_barrier(Job& j, const Team& team);

// GASNet's barrier (§3.5 of gasnet-1.8-spec.md) over every PE of `j`:
// the node barrier when every PE is on this node and the node fast path is
// on, else the network barrier.  Collective.
std::unique_ptr<SplitPhaseBarrier> job_barrier(Job& j);

// quiet on the default context, then a barrier over all PEs (§9.10.1): the
// world team's synchronize.
inline void barrier_all(const char* routine) { synchronize(routine, *job(routine).world_team, true); }
// A barrier over all PEs; completes nothing (§9.10.2).
inline void sync_all(const char* routine) { synchronize(routine, *job(routine).world_team, false); }

// Copies `bytes` from `source` on team PE `root` (0 <= root < n_pes,
// checked by the caller) to `dest` on every PE; on the root too when
// `root_writes_dest` (team forms), not on the root otherwise (active sets).
void broadcast(const char* routine, const Team& team, void* dest, const void* source, std::size_t bytes, int root,
               bool root_writes_dest);

// Concatenates every PE's `bytes` from `source` into `dest` in team PE order;
// fixed: every PE passes the same `bytes` (fcollect), else each its own
// (collect; the total is at most 2^31-1 bytes, fatal above).
void collect(const char* routine, const Team& team, void* dest, const void* source, std::size_t bytes, bool fixed);

// Collective over `team`: every member's `bytes` at `source` (any memory,
// not only symmetric; bytes may differ between members), concatenated in
// team PE order, waiting as collect does.  Fatal, naming `routine`, when
// the total is above what MPI_Allgatherv carries.
std::vector<char> gather_to_all(const char* routine, const Team& team, const void* source, std::size_t bytes);

// §9.10.5/§9.10.6: `nelems` elements of `elem_bytes` to and from every PE;
// dst/sst are strides in elements (>= 1, checked by the caller; 1, 1 for
// alltoall).  Block j of source (elements sst*(j*nelems + i)) goes to PE j,
// where it lands at elements dst*(me*nelems + i) of dest.
void alltoall(const char* routine, const Team& team, void* dest, const void* source, std::size_t elem_bytes,
              std::size_t nelems, std::size_t dst, std::size_t sst);

// §9.10.9: dest[i] = op over the team's PEs of source[i], i < count;
// dest == source: in place.
void reduce(const char* routine, const Team& team, void* dest, const void* source, std::size_t count, Elem e,
            ReduceOp op);

// §9.10.10: prefix sums over team PE order, inclusive or exclusive (team
// PE 0 gets zeros from the exclusive scan); dest == source: in place.
void scan(const char* routine, const Team& team, void* dest, const void* source, std::size_t count, Elem e,
          bool inclusive);

// The team of the deprecated active set PE_start, PE_start + 2^log_stride,
// ... (`size` PEs), made on first use with MPI_Comm_create_group by its
// members only, with its barrier, and kept for the rest of the process.
// Both are blocking MPI calls, so the members first meet with messages
// among themselves, serving Active Messages while they wait (as the data
// collectives do): a member that arrived early then blocks in them only
// once every member is there.  Fatal, naming
// `routine`, when the set is malformed (size < 1, log_stride < 0, a PE out
// of range) or this PE is not in it.
const Team& active_set(const char* routine, int start, int log_stride, int size);

// Collective over `team`: true on every member when `mine` is true on every
// member (MPI_Allreduce of a logical and), waiting like the data collectives
// (serving Active Messages when the team's PEs may need it).  The agreement
// that starts a team split (§9.4.6, §9.4.7): once it returns, every member
// has entered the split, so the blocking MPI_Comm_split after it waits for
// no PE that is still sending AMOs.  MPI errors are fatal, naming `routine`.
bool all_members(const char* routine, const Team& team, bool mine);

// Under SHMEM_DEBUG (else nothing, no communication): collective over the
// world team; fatal on every PE, naming `routine`, `what` and each PE's
// value, unless every PE passed the same `value` (e.g. a shmem_malloc size,
// which must be the same everywhere or the heap stops being symmetric).
void check_same_everywhere(const char* routine, const char* what, std::size_t value);

// Fatal, naming `routine`, unless `bytes` at `addr` are a symmetric object
// (`what` names the argument).  bytes == 0 passes.
void check_symmetric(const char* routine, const char* what, const void* addr, std::size_t bytes);

}  // namespace gasket::rt
