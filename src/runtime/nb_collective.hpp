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

// True, and `c` freed, once it is complete; false otherwise (one MPI test,
// after serving Active Messages once).
bool test(const char* routine, NbCollective* c);
// Completes and frees `c`, serving Active Messages while waiting.
void wait(const char* routine, NbCollective* c);

}  // namespace gasket::rt
