// mpi-bridge/nb_collective.hpp -- nonblocking collectives a caller starts
// and later tests (GASNet-EX's gex_Coll_*NB): MPI_Ibarrier, MPI_Ibcast,
// MPI_Ireduce and MPI_Iallreduce, MPI_Igatherv and MPI_Iallgatherv on a
// team's communicator, with built-in
// reductions (collective.hpp's Elem and ReduceOp) or a client's reduction
// function on elements of any size.
//
// Sizes are bytes unless a name says elements.  Counts above INT_MAX are
// started as several MPI operations, which MPI matches in order on every
// rank.  A client's function runs through one of two MPI_Ops (commutative
// or not), made once; the datatype of each reduction (a private contiguous
// type of the element's bytes) carries the function and its client data
// as an attribute, so every call of the op finds them.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "collective.hpp"

namespace gasket::mpi {

class NbCollective {
public:
    // A client's reduction: inout[i] = in[i] (+) inout[i] for i < count
    // elements (GASNet-EX's gex_Coll_ReduceFn_t).
    using UserFn = void (*)(const void* in, void* inout, std::size_t count, const void* cdata);

    // Every rank of `comm` calls each of these in the same order (per
    // communicator); the buffers stay the caller's until test() is true.
    static std::unique_ptr<NbCollective> barrier(MPI_Comm comm);
    // `bytes` at `buf` on rank `root` to `buf` on every other rank.
    static std::unique_ptr<NbCollective> broadcast(MPI_Comm comm, void* buf, std::size_t bytes, int root);
    // dst[i] = op over the ranks of src[i], i < count, on rank `root` (root
    // < 0: on every rank); src == nullptr: in place on dst (only where dst
    // is written: on the root, or on every rank for root < 0).
    static std::unique_ptr<NbCollective> reduce(MPI_Comm comm, const void* src, void* dst, std::size_t count, Elem e,
                                                ReduceOp op, int root);
    // The same with `fn` on elements of `elem_bytes` (1..INT_MAX);
    // `commutative` false: MPI applies it in rank order.
    static std::unique_ptr<NbCollective> reduce_user(MPI_Comm comm, const void* src, void* dst, std::size_t count,
                                                     std::size_t elem_bytes, UserFn fn, const void* cdata,
                                                     bool commutative, int root);

    // Each rank's `counts[rank]` elements of `elem_bytes` (1..INT_MAX) from
    // its `src`, in rank order, at `dst` on rank `root` (root < 0: on every
    // rank; dst is ignored elsewhere).  counts is the same on every rank,
    // and its sum is at most INT_MAX (the caller checks).
    static std::unique_ptr<NbCollective> gather(MPI_Comm comm, const void* src, void* dst,
                                                const std::vector<std::size_t>& counts, std::size_t elem_bytes,
                                                int root);

    // MPI_Testall of the pieces: true once all are complete (and from then on).
    bool test();

    NbCollective() = default;
    ~NbCollective();  // after test() was true: frees the datatype
    NbCollective(const NbCollective&) = delete;
    NbCollective& operator=(const NbCollective&) = delete;

private:
    struct Closure {
        UserFn fn;
        const void* cdata;
    };
    static void call_user(void* in, void* inout, int* len, MPI_Datatype* type);
    static MPI_Op user_op(bool commutative);
    std::vector<MPI_Request> requests_;
    bool done_ = false;
    Closure closure_{nullptr, nullptr};
    MPI_Datatype type_ = MPI_DATATYPE_NULL;  // a client's element type (reduce_user, gather), carrying closure_
    std::vector<int> counts_, displs_;       // gather: per rank, in elements
};

}  // namespace gasket::mpi
