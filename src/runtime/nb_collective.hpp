// src/runtime/nb_collective.hpp -- the runtime's entry point for
// nonblocking collectives over a team (GASNet-EX's gex_Coll_BarrierNB,
// _BroadcastNB, _ReduceToOneNB, _ReduceToAllNB): started here on the
// team's communicator (mpi-bridge/nb_collective.hpp), then tested, or
// waited for while serving Active Messages (a member waiting here still
// answers requests aimed at it).
//
// Buffers are the caller's private memory (no symmetric check): they stay
// the caller's until the collective completes.  Sizes are bytes, except
// `count`, which counts elements.  Every member starts the team's
// collectives in the same order.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "collective.hpp"
#include "team.hpp"

namespace gasket::rt {

// A collective in flight; opaque to the API layers, which hold it as a
// pointer (alignof >= 8: its low three bits are zero) until test() says it
// is complete or wait() completes it -- both free it.
struct NbCollective;

// A barrier: complete on a member once every member has started it.  A
// release at the start (a full fence), an acquire at completion.
NbCollective* start_barrier(const char* routine, const Team& team);
// `bytes` from `src` on team PE `root` to `dst` on every member (the root
// copies src to dst itself, unless they are equal).
NbCollective* start_broadcast(const char* routine, const Team& team, void* dst, const void* src, std::size_t bytes,
                              int root);
// dst[i] = op over the members of src[i], i < count, on team PE `root`
// (root < 0: on every member); src == dst: in place (where dst is written).
NbCollective* start_reduce(const char* routine, const Team& team, void* dst, const void* src, std::size_t count, Elem e,
                           ReduceOp op, int root);
// The same with a client's function on elements of `elem_bytes` (1 ..
// INT_MAX, checked by the caller); `commutative` false: applied in team PE
// order.
using ReduceFn = void (*)(const void* in, void* inout, std::size_t count, const void* cdata);
NbCollective* start_reduce_user(const char* routine, const Team& team, void* dst, const void* src, std::size_t count,
                                std::size_t elem_bytes, ReduceFn fn, const void* cdata, bool commutative, int root);

// ---- Teams holding several members in this process ----
// (GASNet-EX teams naming several endpoints of one process, gasnet-ex-
// memory-kinds.txt §5.3.)  Each member starts the team's collectives as a
// member alone would, in the same order as every member, with its local
// index k (0 <= k < members, the number of the team's members this process
// holds); once every local member has started its share of the i-th
// collective, the process starts one collective among the processes
// (`procs`: one rank per process).  A share is an NbCollective, tested or
// waited for as any other: complete once the process's collective is, its
// result then in the member's dst.  Waiting for a share before every local
// member has started its own waits for them (another thread must start
// them).  Local members that start different collectives as the i-th
// (another kind, size, type, operation or root) end the job, naming
// `routine`.  Data: a broadcast's `bytes` from the root member's src (the
// `root` member: root_here) to every member's dst; a reduction's `count`
// elements of every member's src, combined here first (a client's function
// only when `commutative`; one that is not is applied in rank order where
// the result is written, after every member's contribution is gathered
// there: at most INT_MAX elements from all members together, else fatal),
// to the dst of every member (writes: this member receives the result, the
// root's or every member's for a reduction to all).  root_proc: the procs
// rank of the root member's process (-1 for a reduction to all).
// proc_of_rank: per rank of the team, the procs rank of its process.
class MemberGroup;
std::shared_ptr<MemberGroup> make_member_group(std::shared_ptr<const Team> procs, int members,
                                               const std::vector<int>& proc_of_rank);
NbCollective* start_barrier(const char* routine, MemberGroup& g, int k);
NbCollective* start_broadcast(const char* routine, MemberGroup& g, int k, void* dst, const void* src, std::size_t bytes,
                              int root_proc, bool root_here);
NbCollective* start_reduce(const char* routine, MemberGroup& g, int k, void* dst, const void* src, std::size_t count,
                           Elem e, ReduceOp op, int root_proc, bool writes);
NbCollective* start_reduce_user(const char* routine, MemberGroup& g, int k, void* dst, const void* src,
                                std::size_t count, std::size_t elem_bytes, ReduceFn fn, const void* cdata,
                                bool commutative, int root_proc, bool writes);

// True, and `c` freed, once it is complete; false otherwise (one MPI test,
// after serving Active Messages once).
bool test(const char* routine, NbCollective* c);
// Completes and frees `c`, serving Active Messages while waiting.
void wait(const char* routine, NbCollective* c);

}  // namespace gasket::rt
