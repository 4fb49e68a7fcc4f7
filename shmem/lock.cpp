// shmem/lock.cpp -- §9.13 distributed locks: a queue lock (Mellor-Crummey
// and Scott) kept in the symmetric long itself.  Home PE 0's copy holds the
// tail of the queue (the last PE to ask, plus one; 0: free) in its low 32
// bits; every PE's own copy is its queue node: the high half holds its
// successor (plus one) and a granted bit.  set_lock swaps itself in as the
// tail; if there was one, it links itself behind it (a fetch-or on the
// predecessor's copy) and waits on its own copy, in local memory, until the
// predecessor grants it the lock.  clear_lock completes what was done under
// the lock (quiet), then grants the successor or, with none, swaps the tail
// back to free.  Waiters are served in arrival order and send nothing while
// they wait (a ticket lock whose waiters polled PE 0 took 2-70x longer per
// critical section, more the more PEs share a core, and on MPICH it waits on
// PE 0 entering MPI for every poll).  Every update is an AMO
// (src/runtime/amo.hpp), atomic with respect to each other on every path.
#include <shmem.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <unordered_set>

#include "context.hpp"
#include "events.hpp"
#include "src/runtime/amo.hpp"
#include "src/runtime/sync.hpp"

using namespace gasket;

namespace {

constexpr int kHome = 0;                                      // the PE whose copy holds the tail
constexpr std::uint64_t kTail = 0xffffffffULL;                // home's copy: last PE in the queue + 1
constexpr int kNextShift = 32;                                // each copy: successor + 1, 31 bits
constexpr std::uint64_t kNext = 0x7fffffffULL << kNextShift;  //
constexpr std::uint64_t kGranted = 1ULL << 63;                // each copy: the predecessor handed over

// The locks this PE holds, to refuse clearing one it does not hold.
std::mutex g_held_mutex;
std::unordered_set<const long*> g_held;

// Checks `lock` (fatal, naming `routine`, when it is not symmetric).
void check_lock_on(rt::Job& j, const char* routine, long* lock) {
    static_assert(sizeof(long) == sizeof(std::uint64_t), "the lock word is a 64-bit long");
    if (!j.segment_of(lock)) j.not_symmetric(routine, lock, kHome);
    if (std::uint64_t(j.n_pes) >= (kNext >> kNextShift)) [[unlikely]]
        rt::fatal(routine, "%d PEs is more than the lock's 31-bit PE field holds", j.n_pes);
}
// The job, after checking `lock` (fatal, naming `routine`, before init).
rt::Job& check_lock(const char* routine, long* lock) {
    rt::Job& j = rt::job(routine);
    check_lock_on(j, routine, lock);
    return j;
}

// On the default context `c` (resolved once per call, not per AMO).
std::uint64_t amo(rt::Context& c, const char* routine, long* lock, rt::AmoOp op, std::uint64_t value,
                  std::uint64_t cond, int pe) {
    return rt::amo(c, routine, lock, 8, op, value, cond, pe);
}

// This PE's own copy (its queue node), read atomically.
std::uint64_t own(long* lock) { return rt::apply_atomic(lock, 8, rt::AmoOp::fetch, 0, 0); }

// Clears this PE's queue node (successor, granted) before it joins the
// queue: nobody writes it while this PE is outside the queue.
void reset_node(rt::Context& c, const char* routine, long* lock, int me) {
    amo(c, routine, lock, rt::AmoOp::fetch_and, kTail, 0, me);
}

void hold(long* lock) {
    std::atomic_thread_fence(std::memory_order_acquire);
    std::lock_guard guard(g_held_mutex);
    g_held.insert(lock);
}

// GASP (include/gasp_shmem.h): GASP_SHMEM_SET_LOCK, _TEST_LOCK (END adds
// the result) and _CLEAR_LOCK S/E around each routine.  set_lock and
// clear_lock wait or make several AMOs: one gasp::on() test; test_lock
// folds it into its job test (test_lock_traced).  Each resolves the
// default context once, not once per AMO as before.
void set_lock(const char* routine, long* lock) {
    rt::Job& j = check_lock(routine, lock);
    rt::Context& c = *j.default_ctx;
    const int me = j.my_pe;
    reset_node(c, routine, lock, me);
    // Become the tail, keeping home's own node bits; the first guess is a
    // free lock with home's node clear.
    std::uint64_t word = 0;
    for (;;) {
        const std::uint64_t seen =
            amo(c, routine, lock, rt::AmoOp::compare_swap, (word & ~kTail) | std::uint64_t(me + 1), word, kHome);
        if (seen == word) break;
        word = seen;
    }
    if (const std::uint64_t prev = word & kTail) {
        amo(c, routine, lock, rt::AmoOp::fetch_or, std::uint64_t(me + 1) << kNextShift, 0, int(prev - 1));
        rt::Poller poller(j);
        while (!(own(lock) & kGranted)) poller.pause();
    }
    hold(lock);
}

// On the default context `c` of job `j` (lock checked).
int test_lock_on(rt::Context& c, rt::Job& j, const char* routine, long* lock) {
    const int me = j.my_pe;
    reset_node(c, routine, lock, me);
    const std::uint64_t word = amo(c, routine, lock, rt::AmoOp::fetch, 0, 0, kHome);
    if (word & kTail) return 1;  // held, or waited for
    // Free: become the tail, if nobody did first.
    if (amo(c, routine, lock, rt::AmoOp::compare_swap, word | std::uint64_t(me + 1), word, kHome) != word) return 1;
    hold(lock);
    return 0;
}

// shmem_test_lock is cheap when the lock is busy (programs poll it): its
// inline path tests shmem::untraced_default() (null before init and with a
// tool attached) where it tested the job; this is the other path.
[[gnu::noinline, gnu::cold]] int test_lock_traced(long* lock) {
    const char* routine = "shmem_test_lock";
    const bool ev = gasp::on();
    if (ev) gasp::notify(GASP_SHMEM_TEST_LOCK, GASP_START, lock);
    rt::Job& j = check_lock(routine, lock);
    const int result = test_lock_on(*j.default_ctx, j, routine, lock);
    if (ev) gasp::notify(GASP_SHMEM_TEST_LOCK, GASP_END, lock, result);
    return result;
}

void clear_lock(const char* routine, long* lock) {
    rt::Job& j = check_lock(routine, lock);
    {
        std::lock_guard guard(g_held_mutex);
        if (g_held.erase(lock) == 0)
            rt::fatal(routine, "lock %p is not held by this PE (shmem_set_lock or shmem_test_lock first)",
                      static_cast<void*>(lock));
    }
    rt::Context& c = *j.default_ctx;
    const std::uint64_t mine = std::uint64_t(j.my_pe + 1);
    // Everything done under the lock is complete before the next holder
    // may start.
    rt::quiet(c, routine);
    std::uint64_t next = (own(lock) & kNext) >> kNextShift;
    if (next == 0) {
        // No successor linked yet: free the lock if this PE is still the
        // tail (home's node bits kept).
        for (std::uint64_t word = mine;;) {
            const std::uint64_t seen = amo(c, routine, lock, rt::AmoOp::compare_swap, word & ~kTail, word, kHome);
            if (seen == word) return;
            if ((seen & kTail) != mine) break;  // a successor swapped itself in
            word = seen;
        }
        // It links itself behind this PE at once: wait for it.
        rt::Poller poller(j);
        while ((next = (own(lock) & kNext) >> kNextShift) == 0) poller.pause();
    }
    amo(c, routine, lock, rt::AmoOp::fetch_or, kGranted, 0, int(next - 1));
}

}  // namespace

extern "C" {

void shmem_set_lock(long* lock) noexcept {
    shmem::with_event(
        GASP_SHMEM_SET_LOCK, [&] { set_lock("shmem_set_lock", lock); }, lock);
}

int shmem_test_lock(long* lock) noexcept {
    rt::Context* c = shmem::untraced_default();
    if (!c) [[unlikely]]
        return test_lock_traced(lock);
    rt::Job& j = c->job();
    check_lock_on(j, "shmem_test_lock", lock);
    return test_lock_on(*c, j, "shmem_test_lock", lock);
}

void shmem_clear_lock(long* lock) noexcept {
    shmem::with_event(
        GASP_SHMEM_CLEAR_LOCK, [&] { clear_lock("shmem_clear_lock", lock); }, lock);
}

}  // extern "C"
