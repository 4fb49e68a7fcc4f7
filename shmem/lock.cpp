// shmem/lock.cpp -- §9.13 distributed locks: a ticket lock in the symmetric
// long, on PE 0.  Its upper 32 bits are the next ticket, its lower 32 bits
// the ticket being served: set_lock takes a ticket with one fetch-add and
// waits until it is served, so waiters are served in arrival order.  The
// updates are AMOs (src/runtime/amo.hpp), atomic with respect to each other
// on every path.
#include <shmem.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "context.hpp"
#include "src/runtime/amo.hpp"
#include "src/runtime/sync.hpp"

using namespace gasket;

namespace {

constexpr int kHome = 0;  // the PE whose copy holds the lock state
constexpr std::uint64_t kTicket = std::uint64_t(1) << 32;

std::uint32_t serving(std::uint64_t word) { return std::uint32_t(word); }
std::uint32_t next_ticket(std::uint64_t word) { return std::uint32_t(word >> 32); }

// The locks this PE holds (lock address -> its ticket), to refuse clearing
// one it does not hold.
std::mutex g_held_mutex;
std::unordered_map<const long*, std::uint32_t> g_held;

void check_lock(const char* routine, long* lock) {
    static_assert(sizeof(long) == sizeof(std::uint64_t), "the lock word is a 64-bit long");
    rt::Job& j = rt::job(routine);
    if (!j.segment_of(lock)) j.not_symmetric(routine, lock, kHome);
}

std::uint64_t fetch(const char* routine, long* lock) {
    return rt::amo(shmem::default_context(routine), routine, lock, 8, rt::AmoOp::fetch, 0, 0, kHome);
}

void hold(long* lock, std::uint32_t ticket) {
    std::atomic_thread_fence(std::memory_order_acquire);
    std::lock_guard guard(g_held_mutex);
    g_held[lock] = ticket;
}

}  // namespace

extern "C" {

void shmem_set_lock(long* lock) noexcept {
    const char* routine = "shmem_set_lock";
    check_lock(routine, lock);
    const std::uint32_t ticket = next_ticket(
        rt::amo(shmem::default_context(routine), routine, lock, 8, rt::AmoOp::fetch_add, kTicket, 0, kHome));
    rt::Job& j = rt::job(routine);
    rt::Poller poller(j);
    while (serving(fetch(routine, lock)) != ticket) poller.pause();
    hold(lock, ticket);
}

int shmem_test_lock(long* lock) noexcept {
    const char* routine = "shmem_test_lock";
    check_lock(routine, lock);
    const std::uint64_t word = fetch(routine, lock);
    if (next_ticket(word) != serving(word)) return 1;  // held, or waited for
    // Free: take the next ticket, if nobody took it first.
    if (rt::amo(shmem::default_context(routine), routine, lock, 8, rt::AmoOp::compare_swap, word + kTicket, word,
                kHome) != word)
        return 1;
    hold(lock, next_ticket(word));
    return 0;
}

void shmem_clear_lock(long* lock) noexcept {
    const char* routine = "shmem_clear_lock";
    check_lock(routine, lock);
    std::uint32_t ticket;
    {
        std::lock_guard guard(g_held_mutex);
        auto it = g_held.find(lock);
        if (it == g_held.end())
            rt::fatal(routine, "lock %p is not held by this PE (shmem_set_lock or shmem_test_lock first)",
                      static_cast<void*>(lock));
        ticket = it->second;
        g_held.erase(it);
    }
    // Everything done under the lock is complete before the next holder
    // may start.
    rt::quiet(shmem::default_context(routine), routine);
    // Serve the next ticket: the low half only, so it wraps without
    // carrying into the ticket half.
    const std::uint64_t next = std::uint64_t(std::uint32_t(ticket + 1));
    for (std::uint64_t word = fetch(routine, lock);;) {
        const std::uint64_t updated = (word & ~std::uint64_t(0xffffffff)) | next;
        const std::uint64_t seen =
            rt::amo(shmem::default_context(routine), routine, lock, 8, rt::AmoOp::compare_swap, updated, word, kHome);
        if (seen == word) break;
        word = seen;
    }
}

}  // extern "C"
