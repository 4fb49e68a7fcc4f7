// mpi-bridge/collective.hpp -- the only place Gasket calls MPI collectives
// for OpenSHMEM's §9.10 routines: broadcast, (f)collect, alltoall(s),
// reductions and scans on a team's communicator, the mapping of element
// kinds and operations onto MPI datatypes and ops, and communicators for
// the deprecated active sets (MPI_Comm_create_group).  Barriers are not
// here: they are the node barrier (node_barrier.hpp) or the network
// barrier (split_barrier.hpp), chosen and waited for by the runtime.
//
// Sizes are bytes unless a name says elements.  Counts above INT_MAX are
// split into several MPI calls (broadcast, reductions, scans) or carried by
// a derived datatype (gather/alltoall blocks); collect's total is limited
// to INT_MAX bytes (MPI-3's MPI_Allgatherv takes int displacements): the
// caller reports a larger one.
//
// Every routine takes a Waiter: with a poll function the collective is
// started nonblocking (MPI_I*) and completed by MPI_Test, calling poll
// between tests (Gasket serves Active Messages there, so a PE that waits in
// a collective still answers AMOs aimed at it); without one it blocks in
// the MPI collective.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "communicator.hpp"

namespace gasket::mpi {

// Element kinds of reductions and scans: the C types of the spec's Table
// 10, by representation.
enum class Elem : unsigned char {
    i8,
    i16,
    i32,
    i64,  // signed integers
    u8,
    u16,
    u32,
    u64,  // unsigned integers
    f32,
    f64,
    flong,  // float, double, long double
    cf32,
    cf64,  // float _Complex, double _Complex
};
// Bytes per element of `e`.
std::size_t elem_bytes(Elem e);

// Reduction operators (§9.10.9).  band/bor/bxor only on integer kinds,
// max/min not on complex kinds (the caller's tables guarantee both).
enum class ReduceOp : unsigned char { band, bor, bxor, max, min, sum, prod };

// What to call while waiting for a collective; poll == nullptr: block.
struct Waiter {
    void (*poll)(void*) = nullptr;
    void* context = nullptr;
};

// MPI_Bcast of `bytes` at `buf` from rank `root`.
void broadcast(MPI_Comm comm, void* buf, std::size_t bytes, int root, Waiter w);
// The same, and on the root a copy of the `bytes` at `buf` to `copy_to`
// (null: none; ignored on other ranks), made while MPI broadcasts when the
// two do not overlap (MPI-3 lets a pending send buffer be read), else after
// it.  The broadcast is MPI_Ibcast on every rank, waited for by MPI_Test
// and `w`'s poll, or by MPI_Wait without one: every rank of comm must call
// this, not broadcast(), for one broadcast (MPI matches no blocking
// collective with a nonblocking one).
void broadcast_copying(MPI_Comm comm, void* buf, std::size_t bytes, int root, void* copy_to, Waiter w);

// MPI_Allgather: every rank's `bytes` at `mine` into `all` (size * bytes, rank
// order).  mine == nullptr: in place (this rank's block is already in all).
void allgather(MPI_Comm comm, const void* mine, void* all, std::size_t bytes, Waiter w);

// Every rank's `mine` (a byte count), in rank order (MPI_Allgather).
std::vector<std::size_t> gather_sizes(MPI_Comm comm, std::size_t mine, Waiter w);
// The largest total allgatherv moves (MPI-3 displacements are ints).
inline constexpr std::size_t kMaxGatherv = 0x7fffffff;
// MPI_Allgatherv: rank r's sizes[r] bytes (from gather_sizes) into `all` in
// rank order; the total is at most kMaxGatherv (the caller checks).
void allgatherv(MPI_Comm comm, const void* mine, void* all, const std::vector<std::size_t>& sizes, Waiter w);

// MPI_Alltoall: block j (`block_bytes`) of `src` to rank j, where it lands in
// block (this rank) of `dst`.  src and dst must not overlap.
void alltoall(MPI_Comm comm, const void* src, void* dst, std::size_t block_bytes, Waiter w);

// Strided alltoall (§9.10.6): `nelems` elements of `elem_bytes` per rank;
// element i for rank j is read at src + (sst * (j * nelems + i)) * elem_bytes
// and written at dst + (dst_stride * (me * nelems + i)) * elem_bytes on rank
// j.  Strides >= 1; src and dst must not overlap.
void alltoall_strided(MPI_Comm comm, const void* src, void* dst, std::size_t elem_bytes, std::size_t nelems,
                      std::size_t dst_stride, std::size_t sst, Waiter w);

// The MPI datatype and op that reduce `e` with `op`: those of Elem and
// ReduceOp, except sums and products of 8- and 16-bit integers, which use
// Gasket's wrapping ops (Open MPI's saturate).
std::pair<MPI_Datatype, MPI_Op> reduction(Elem e, ReduceOp op);

// inout[i] = in[i] op inout[i], i < count elements, in this process
// (MPI_Reduce_local, with reduction()'s datatype and op).
void reduce_local(const void* in, void* inout, std::size_t count, Elem e, ReduceOp op);

// MPI_Allreduce of `count` elements; src == nullptr: in place on dst.
void allreduce(MPI_Comm comm, const void* src, void* dst, std::size_t count, Elem e, ReduceOp op, Waiter w);

// Prefix sums of `count` elements: MPI_Scan (inclusive) or MPI_Exscan
// (exclusive; rank 0's dst is left as MPI leaves it: undefined).  src ==
// nullptr: in place on dst.
void scan_sum(MPI_Comm comm, const void* src, void* dst, std::size_t count, Elem e, bool inclusive, Waiter w);

// A communicator of the ranks `ranks` of `world` (in that order, this
// rank among them), created by MPI_Comm_create_group: collective over
// those ranks only.  MPI_Comm_create_group blocks, so the ranks first meet
// (0-byte point-to-point messages on `world` with tag `tag` + 1, completed
// while calling `w`'s poll, if any): a rank that arrives early waits there,
// serving, and blocks in MPI only once every rank is in the call.  `tag`
// separates concurrent creations (0 <= tag < 32767).  MPI errors are fatal,
// naming the MPI call.
Communicator create_group(MPI_Comm world, const std::vector<int>& ranks, int tag, Waiter w);

}  // namespace gasket::mpi
