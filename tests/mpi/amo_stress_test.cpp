// tests/mpi/amo_stress_test.cpp -- §9.7 atomicity under contention: every
// PE applies kOps mixed shmem_long_atomic_fetch_add / compare_swap / swap
// (plain and ctx forms) to ONE long on one PE -- PE 0 (a global variable),
// then PE n-1 (a heap variable; with 2 PEs, PE 1: a node peer that is not
// PE 0) -- and the values returned prove that no update was lost or
// duplicated.
//
// Why the returned values are a proof.  Every successful operation is a
// transition old -> new of the long: the operation returns `old`, and
// `new` is known to the caller:
//   fetch_add(d)               returns old, new = old + d
//   swap(v)                    returns old, new = v
//   compare_swap(cond, v)      returns old; succeeded iff old == cond, and
//                              then new = v; a failed compare_swap changes
//                              nothing and is not a transition.
// The values are built so that, in a correct (atomic) run, no value ever
// occurs twice: a value is (id << 24) | c.  swap and compare_swap write
// (id << 24) with id = (pe << 20) + seq + 1, unique per (PE, operation);
// fetch_add adds 1..3 to c, so within one id the values strictly increase
// (c stays below 2^24: at most 3 * n * kOps additions).  The initial value
// is 0 (id 0, which no operation writes).
//
// Atomic operations are applied one at a time, so the run is one chain
// V0=0 -> v1 -> v2 -> ... -> vN = final value, each transition's `old`
// being the previous transition's `new`.  The test gathers every PE's
// transitions on PE 0 and checks exactly that:
//   1. no value is the `old` of two transitions (two operations both saw
//      the same state: one of their updates was lost -- e.g. a
//      read-modify-write that is not atomic, or an operation applied twice
//      returning the same old value);
//   2. starting from 0 and following old -> new visits every transition
//      exactly once and ends at the long's final value (an update that was
//      lost -- overwritten without being observed -- leaves a transition
//      off the chain, and the chain ends somewhere else; an update applied
//      twice produces a state no transition accounts for).
// Since values are never repeated in a correct run, the chain is unique:
// 1 + 2 hold iff the returned values and the final value are those of some
// sequential order of all n * kOps operations.  In addition, every value a
// failed compare_swap returned must be a state of the chain (it read a
// real state), and the count of successful operations must be n * kOps
// minus the failed compare_swaps.
//
// The mix is chosen per operation by a per-PE pseudo-random sequence; a
// compare_swap uses as `cond` the last state this PE knows of (the new
// value of its last transition or the value its last failed compare_swap
// returned), so it succeeds when no other PE intervened, and fails often
// under contention: both outcomes are exercised.
//
// kOps is 100000 per PE in every configuration.  Measured (2 cores,
// Open MPI 4.1.4): with the node fast path off at 4 PEs -- every AMO from
// PEs other than the target an Active Message round trip, 4 PEs on 2 cores
// -- each variant takes about 2-3 s; the whole program about 6 s.
#include <chrono>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "shmem_test.hpp"

namespace {

using namespace gasket_test;

constexpr int kOps = 100000;  // per PE, per variant

long g_stress_target;  // the global variant's long (on PE 0)

struct Transition {
    long old_v, new_v;
};

struct Outcome {
    std::vector<Transition> transitions;
    std::vector<long> failed_cas;  // values returned by failed compare_swaps
    long n_add = 0, n_swap = 0, n_cas_ok = 0;
};

// xorshift64*: a per-PE sequence of operation choices.
std::uint64_t next_random(std::uint64_t& s) {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ull;
}

Outcome hammer(long* x, int target, int n_ops) {
    Outcome o;
    o.transitions.reserve(std::size_t(n_ops));
    std::uint64_t rnd = 0x9E3779B97F4A7C15ull ^ (std::uint64_t(me() + 1) * 0xD1B54A32D192ED03ull);
    long known = 0;  // the last state this PE knows of
    for (int seq = 0; seq < n_ops; ++seq) {
        const std::uint64_t r = next_random(rnd);
        const bool use_ctx = (r >> 40) & 1;
        const long fresh = ((static_cast<long>(me()) << 20) + seq + 1) << 24;
        switch (r % 3) {
            case 0: {
                const long d = 1 + long((r >> 8) % 3);
                const long old = use_ctx ? shmem_ctx_long_atomic_fetch_add(SHMEM_CTX_DEFAULT, x, d, target)
                                         : shmem_long_atomic_fetch_add(x, d, target);
                o.transitions.push_back({old, old + d});
                known = old + d;
                ++o.n_add;
                break;
            }
            case 1: {
                const long old = use_ctx
                                     ? shmem_ctx_long_atomic_compare_swap(SHMEM_CTX_DEFAULT, x, known, fresh, target)
                                     : shmem_long_atomic_compare_swap(x, known, fresh, target);
                if (old == known) {
                    o.transitions.push_back({old, fresh});
                    known = fresh;
                    ++o.n_cas_ok;
                } else {
                    o.failed_cas.push_back(old);
                    known = old;
                }
                break;
            }
            default: {
                const long old = use_ctx ? shmem_ctx_long_atomic_swap(SHMEM_CTX_DEFAULT, x, fresh, target)
                                         : shmem_long_atomic_swap(x, fresh, target);
                o.transitions.push_back({old, fresh});
                known = fresh;
                ++o.n_swap;
                break;
            }
        }
    }
    return o;
}

// Every PE's vector gathered on PE 0 (elements trivially copyable).
template <class E>
std::vector<E> gather_on_0(const std::vector<E>& mine) {
    static_assert(std::is_trivially_copyable_v<E>);
    const int n = npes();
    int bytes = int(mine.size() * sizeof(E));
    std::vector<int> counts(static_cast<std::size_t>(n)), displs(static_cast<std::size_t>(n));
    MPI_Gather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    int total = 0;
    for (int i = 0; i < n; ++i) {
        displs[std::size_t(i)] = total;
        total += counts[std::size_t(i)];
    }
    std::vector<E> all(me() == 0 ? std::size_t(total) / sizeof(E) : 0);
    MPI_Gatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
    return all;
}

// Runs the stress on `x` (symmetric, on `target`) and checks the history.
void stress(long* x, int target) {
    const int n_ops = kOps;
    if (me() == target) *x = 0;
    shmem_barrier_all();
    const auto t0 = std::chrono::steady_clock::now();
    const Outcome o = hammer(x, target, n_ops);
    // Every operation was a blocking fetching AMO: complete at return.  The
    // barrier also keeps the target serving Active Messages until every PE
    // is done (a bare MPI call would not).
    shmem_barrier_all();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    long final_value = (me() == target) ? *x : 0;
    MPI_Bcast(&final_value, 1, MPI_LONG, target, MPI_COMM_WORLD);
    EXPECT_EQ(shmem_long_atomic_fetch(x, target), final_value) << "atomic fetch of the final value";

    long counts[4] = {o.n_add, o.n_swap, o.n_cas_ok, long(o.failed_cas.size())}, sums[4] = {};
    MPI_Reduce(counts, sums, 4, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    const std::vector<Transition> all = gather_on_0(o.transitions);
    const std::vector<long> failed = gather_on_0(o.failed_cas);

    if (me() == 0) {
        const long total_ops = long(npes()) * n_ops;
        std::printf(
            "[ gasket   ] stress on PE %d: %d PEs x %d ops in %.2f s: %ld fetch_add, %ld swap, "
            "%ld compare_swap ok, %ld compare_swap failed; final value %#lx\n",
            target, npes(), n_ops, secs, sums[0], sums[1], sums[2], sums[3], static_cast<unsigned long>(final_value));
        std::fflush(stdout);
        EXPECT_EQ(sums[0] + sums[1] + sums[2] + sums[3], total_ops);
        EXPECT_EQ(long(all.size()), total_ops - sums[3]) << "successful operations";

        // 1. No state observed by two operations.
        std::unordered_map<long, long> next_of;
        next_of.reserve(all.size() * 2);
        std::size_t dup = 0;
        long first_dup = 0;
        for (const Transition& t : all)
            if (!next_of.emplace(t.old_v, t.new_v).second && dup++ == 0) first_dup = t.old_v;
        EXPECT_EQ(dup, 0u) << dup << " state(s) returned as the old value by two operations (first: " << std::hex
                           << first_dup << std::dec << "): updates lost or applied twice";

        // 2. One chain from 0 through every transition to the final value.
        const std::size_t distinct = next_of.size();
        std::unordered_set<long> states{0};
        states.reserve(all.size() * 2);
        long cur = 0;
        std::size_t steps = 0;
        for (auto it = next_of.find(cur); it != next_of.end(); it = next_of.find(cur)) {
            cur = it->second;
            next_of.erase(it);
            states.insert(cur);
            ++steps;
        }
        EXPECT_EQ(steps, distinct) << "following the returned values from 0 reaches only " << steps << " of "
                                   << distinct << " transitions (stopped at " << std::hex << cur << std::dec
                                   << "): updates were lost";
        EXPECT_EQ(cur, final_value) << std::hex << "the chain of returned values ends at " << cur
                                    << " but the long holds " << final_value << std::dec;

        // Every failed compare_swap saw a real state.
        std::size_t phantom = 0;
        for (long v : failed)
            if (!states.count(v)) ++phantom;
        EXPECT_EQ(phantom, 0u) << phantom << " failed compare_swap(s) returned a value the long never held";
    }
    shmem_barrier_all();
}

TEST(AmoStress, MixedOnOneGlobalLongOnPe0) { stress(&g_stress_target, 0); }

TEST(AmoStress, MixedOnOneHeapLongOnLastPe) {
    long* x = static_cast<long*>(shmem_malloc(sizeof(long)));
    if (!all_pes(x != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(x);
        return;
    }
    stress(x, npes() - 1);
    shmem_free(x);
}

}  // namespace
