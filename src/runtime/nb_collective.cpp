// src/runtime/nb_collective.cpp -- nonblocking collectives over a team
// (nb_collective.hpp).
#include "nb_collective.hpp"

#include <atomic>
#include <cstring>
#include <memory>

#include "error.hpp"
#include "mpi-bridge/nb_collective.hpp"
#include "progress.hpp"

namespace gasket::rt {

struct alignas(8) NbCollective {
    std::unique_ptr<mpi::NbCollective> mpi;
};

namespace {

NbCollective* wrap(std::unique_ptr<mpi::NbCollective> c) { return new NbCollective{std::move(c)}; }

// After completion: what MPI wrote is seen by later loads; a barrier's acquire.
bool finish(NbCollective* c) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    delete c;
    return true;
}

}  // namespace

NbCollective* start_barrier(const char* routine, const Team& team) {
    (void)routine;
    std::atomic_thread_fence(std::memory_order_seq_cst);  // the barrier's release
    return wrap(mpi::NbCollective::barrier(team.comm()));
}

NbCollective* start_broadcast(const char* routine, const Team& team, void* dst, const void* src, std::size_t bytes,
                              int root) {
    (void)routine;
    if (team.my_pe() == root && dst != src && bytes) std::memcpy(dst, src, bytes);
    return wrap(mpi::NbCollective::broadcast(team.comm(), dst, bytes, root));
}

NbCollective* start_reduce(const char* routine, const Team& team, void* dst, const void* src, std::size_t count, Elem e,
                           ReduceOp op, int root) {
    (void)routine;
    const bool writes = root < 0 || team.my_pe() == root;
    return wrap(mpi::NbCollective::reduce(team.comm(), writes && src == dst ? nullptr : src, writes ? dst : nullptr,
                                          count, e, op, root));
}

NbCollective* start_reduce_user(const char* routine, const Team& team, void* dst, const void* src, std::size_t count,
                                std::size_t elem_bytes, ReduceFn fn, const void* cdata, bool commutative, int root) {
    (void)routine;
    const bool writes = root < 0 || team.my_pe() == root;
    return wrap(mpi::NbCollective::reduce_user(team.comm(), writes && src == dst ? nullptr : src,
                                               writes ? dst : nullptr, count, elem_bytes, fn, cdata, commutative,
                                               root));
}

bool test(const char* routine, NbCollective* c) {
    if (c->mpi->test()) return finish(c);
    Poller poller(job(routine));
    poller.serve(routine);
    return c->mpi->test() && finish(c);
}

void wait(const char* routine, NbCollective* c) {
    Poller poller(job(routine));
    while (!c->mpi->test()) poller.serve(routine);
    finish(c);
}

}  // namespace gasket::rt
