// src/runtime/nb_collective.cpp -- nonblocking collectives over a team
// (nb_collective.hpp).
#include "nb_collective.hpp"

#include <atomic>
#include <climits>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "error.hpp"
#include "fence.hpp"
#include "mpi-bridge/nb_collective.hpp"
#include "progress.hpp"

namespace gasket::rt {

struct alignas(8) NbCollective {
    std::unique_ptr<mpi::NbCollective> mpi;  // a collective among the processes
    // Or member `k`'s share of its group's collective number `seq`.
    MemberGroup* group = nullptr;
    std::uint64_t seq = 0;
    int k = 0;
};

// What a member starts: a collective's kind and parameters.
struct Shape {
    enum class Kind { barrier, broadcast, reduce, reduce_user } kind;
    std::size_t bytes = 0;  // broadcast: the data; reduction: count x element bytes
    std::size_t count = 0;
    Elem e{};
    ReduceOp op{};
    ReduceFn fn = nullptr;
    const void* cdata = nullptr;  // (the first member's serves)
    std::size_t elem_bytes = 0;
    bool ordered = false;  // a client's function applied in rank order (not commutative)
    int root = -1;         // procs rank of the root member's process (-1: to all)
    bool same(const Shape& o) const {
        return kind == o.kind && bytes == o.bytes && count == o.count && e == o.e && op == o.op && fn == o.fn &&
               ordered == o.ordered && root == o.root;
    }
    bool reduction() const { return kind == Kind::reduce || kind == Kind::reduce_user; }
};

// The i-th collective of a team holding several members here, as its
// first local member started it; the others' must match.
struct Gathered {
    Shape shape;
    int arrived = 0, finished = 0;
    std::vector<char> data;      // broadcast: the root's data; reduction: the local combination, then the result
                                 // (in rank order: every local member's contribution, by local index, first)
    std::vector<char> gathered;  // in rank order, where the result is written: every member's, by process
    std::vector<void*> dst;      // per local member: where its result goes (null: nowhere)
    std::unique_ptr<mpi::NbCollective> mpi;  // started once every local member arrived
    bool delivered = false;                  // complete, and `data` copied to every dst
};

class MemberGroup {
public:
    MemberGroup(std::shared_ptr<const Team> procs, int members, const std::vector<int>& proc_of_rank)
        : procs_(std::move(procs)), members_(members), next_(std::size_t(members), 0) {
        // Each rank's place among the contributions gathered by process
        // (each process's in rank order).
        std::vector<int> held(std::size_t(procs_->n_pes()), 0);
        for (int p : proc_of_rank) ++held[std::size_t(p)];
        std::vector<int> first(held.size(), 0);
        for (std::size_t p = 1; p < held.size(); ++p) first[p] = first[p - 1] + held[p - 1];
        for (int p : proc_of_rank) slot_.push_back(first[std::size_t(p)]++);
        members_of_ = std::move(held);
    }

    // Member k's share of its next collective, described by `c` (kind and
    // parameters), with its src (the root's, for a broadcast; null
    // elsewhere) and dst.
    NbCollective* arrive(const char* routine, int k, const Shape& c, const void* src, void* dst) {
        std::lock_guard<std::mutex> hold(lock_);
        const std::uint64_t seq = next_[std::size_t(k)]++;
        auto [at, fresh] = open_.try_emplace(seq);
        Gathered& g = at->second;
        const Shape& s = g.shape;
        if (fresh) {
            if (c.ordered && slot_.size() * c.count > std::size_t(INT_MAX))
                fatal(routine, "%zu elements from each of %zu members: more than one ordered reduction can gather (%d)",
                      c.count, slot_.size(), INT_MAX);
            g.shape = c;
            g.data.resize(c.ordered ? std::size_t(members_) * c.bytes : c.bytes);
            g.dst.assign(std::size_t(members_), nullptr);
        } else if (!s.same(c)) {
            fatal(routine,
                  "local member %d started collective %ju of its team differently from this process's other members "
                  "(another kind, size, type, operation or root): every member starts the team's collectives alike, "
                  "in the same order",
                  k, std::uintmax_t(seq));
        }
        g.dst[std::size_t(k)] = dst;
        if (s.kind == Shape::Kind::broadcast && src && s.bytes) std::memcpy(g.data.data(), src, s.bytes);
        if (s.ordered) {  // combined in rank order once every member's is gathered
            std::memcpy(g.data.data() + std::size_t(k) * s.bytes, src, s.bytes);
        } else if (s.reduction()) {  // every member contributes: the first one's is the start
            if (g.arrived == 0)
                std::memcpy(g.data.data(), src, s.bytes);
            else if (s.kind == Shape::Kind::reduce)
                mpi::reduce_local(src, g.data.data(), s.count, s.e, s.op);
            else
                s.fn(src, g.data.data(), s.count, s.cdata);
        }
        if (++g.arrived == members_) start(g);
        return new NbCollective{nullptr, this, seq, k};
    }

    // Whether share `c` is complete (then freed); tests the process's
    // collective once.
    bool test(NbCollective* c) {
        std::lock_guard<std::mutex> hold(lock_);
        Gathered& g = open_.at(c->seq);
        if (!g.mpi) return false;
        if (!g.delivered) {
            if (!g.mpi->test()) return false;
            rt::full_fence();
            if (!g.gathered.empty()) combine_in_order(g);
            if (g.shape.kind != Shape::Kind::barrier)
                for (void* d : g.dst)
                    if (d && g.shape.bytes) std::memcpy(d, g.data.data(), g.shape.bytes);
            g.delivered = true;
        }
        if (++g.finished == members_) open_.erase(c->seq);
        delete c;
        return true;
    }

private:
    // The result of an ordered reduction from every member's contribution:
    // x_0 (+) x_1 (+) ... (+) x_{n-1} over the ranks, as MPI applies a
    // function that is not commutative (fn(in, inout): inout = in (+) inout,
    // `in` from the lower rank).
    void combine_in_order(Gathered& g) {
        const Shape& s = g.shape;
        auto at = [&](std::size_t rank) { return g.gathered.data() + std::size_t(slot_[rank]) * s.bytes; };
        std::vector<char> acc(at(slot_.size() - 1), at(slot_.size() - 1) + s.bytes);
        for (std::size_t r = slot_.size() - 1; r-- > 0;) s.fn(at(r), acc.data(), s.count, s.cdata);
        g.data = std::move(acc);
    }

    void start(Gathered& g) {
        const MPI_Comm comm = procs_->comm();
        const Shape& s = g.shape;
        switch (s.kind) {
            case Shape::Kind::barrier:
                rt::full_fence();  // the barrier's release
                g.mpi = mpi::NbCollective::barrier(comm);
                break;
            case Shape::Kind::broadcast:
                g.mpi = mpi::NbCollective::broadcast(comm, g.data.data(), s.bytes, s.root);
                break;
            case Shape::Kind::reduce:
            case Shape::Kind::reduce_user: {
                // In place where the result is written (the root's process, or every one).
                const bool writes = s.root < 0 || procs_->my_pe() == s.root;
                if (s.ordered) {  // every member's contribution to where the result is written
                    std::vector<std::size_t> counts;
                    for (int held : members_of_) counts.push_back(std::size_t(held) * s.count);
                    if (writes) g.gathered.resize(slot_.size() * s.bytes);
                    g.mpi = mpi::NbCollective::gather(comm, g.data.data(), writes ? g.gathered.data() : nullptr, counts,
                                                      s.elem_bytes, s.root);
                    break;
                }
                const void* src = writes ? nullptr : g.data.data();
                void* dst = writes ? g.data.data() : nullptr;
                g.mpi = s.kind == Shape::Kind::reduce
                            ? mpi::NbCollective::reduce(comm, src, dst, s.count, s.e, s.op, s.root)
                            : mpi::NbCollective::reduce_user(comm, src, dst, s.count, s.elem_bytes, s.fn, s.cdata, true,
                                                             s.root);
                break;
            }
        }
    }

    std::shared_ptr<const Team> procs_;
    int members_;
    std::vector<int> slot_;        // per rank: its place among the contributions gathered in process order
    std::vector<int> members_of_;  // per process: the team's members it holds
    std::mutex lock_;
    std::vector<std::uint64_t> next_;  // per local member: its next collective's number
    std::map<std::uint64_t, Gathered> open_;
};

namespace {

NbCollective* wrap(std::unique_ptr<mpi::NbCollective> c) { return new NbCollective{std::move(c)}; }

// After completion: what MPI wrote is seen by later loads; a barrier's acquire.
bool finish(NbCollective* c) {
    rt::full_fence();
    delete c;
    return true;
}

}  // namespace

NbCollective* start_barrier(const char* routine, const Team& team) {
    (void)routine;
    rt::full_fence();  // the barrier's release
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

std::shared_ptr<MemberGroup> make_member_group(std::shared_ptr<const Team> procs, int members,
                                               const std::vector<int>& proc_of_rank) {
    return std::make_shared<MemberGroup>(std::move(procs), members, proc_of_rank);
}

NbCollective* start_barrier(const char* routine, MemberGroup& g, int k) {
    Shape c{Shape::Kind::barrier};
    return g.arrive(routine, k, c, nullptr, nullptr);
}

NbCollective* start_broadcast(const char* routine, MemberGroup& g, int k, void* dst, const void* src, std::size_t bytes,
                              int root_proc, bool root_here) {
    Shape c{Shape::Kind::broadcast};
    c.bytes = bytes;
    c.root = root_proc;
    return g.arrive(routine, k, c, root_here ? src : nullptr, dst);
}

NbCollective* start_reduce(const char* routine, MemberGroup& g, int k, void* dst, const void* src, std::size_t count,
                           Elem e, ReduceOp op, int root_proc, bool writes) {
    Shape c{Shape::Kind::reduce};
    c.count = count;
    c.bytes = count * mpi::elem_bytes(e);  // the caller checked it fits
    c.e = e;
    c.op = op;
    c.root = root_proc;
    return g.arrive(routine, k, c, src, writes ? dst : nullptr);
}

NbCollective* start_reduce_user(const char* routine, MemberGroup& g, int k, void* dst, const void* src,
                                std::size_t count, std::size_t elem_bytes, ReduceFn fn, const void* cdata,
                                bool commutative, int root_proc, bool writes) {
    Shape c{Shape::Kind::reduce_user};
    c.count = count;
    c.bytes = count * elem_bytes;  // the caller checked it fits
    c.elem_bytes = elem_bytes;
    c.fn = fn;
    c.cdata = cdata;
    c.ordered = !commutative;
    c.root = root_proc;
    return g.arrive(routine, k, c, src, writes ? dst : nullptr);
}

namespace {

bool try_complete(NbCollective* c) {
    if (c->group) return c->group->test(c);
    return c->mpi->test() && finish(c);
}

}  // namespace

bool test(const char* routine, NbCollective* c) {
    if (try_complete(c)) return true;
    Poller poller(job(routine));
    poller.serve(routine);
    return try_complete(c);
}

void wait(const char* routine, NbCollective* c) {
    Poller poller(job(routine));
    while (!try_complete(c)) poller.serve(routine);
}

}  // namespace gasket::rt
