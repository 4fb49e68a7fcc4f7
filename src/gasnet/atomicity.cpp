// src/gasnet/atomicity.cpp -- No-Interrupt Sections and handler-safe locks
// (gasnet-1.8-spec.md §2.4), with the checks of §2.4.3 and §2.4.5.
//
// Gasket never interrupts a thread: handlers run inside polls and on the
// progress thread.  So a No-Interrupt Section only needs tracking (for the
// checks), and an HSL is a mutex plus its owner and each thread's stack of
// held locks.
#include <gasnet.h>

#include <cerrno>

#include "src/gasp/gasp.hpp"
#include "src/runtime/am.hpp"
#include "src/runtime/error.hpp"

using gasket::rt::am_thread_state;
using gasket::rt::AmThreadState;
using gasket::rt::fatal;

namespace {

void* owner_of(const gasnet_hsl_t* hsl) { return __atomic_load_n(&hsl->owner, __ATOMIC_RELAXED); }

void check_hsl(const char* routine, const gasnet_hsl_t* hsl) {
    if (!hsl) fatal(routine, "the lock pointer is NULL");
}

void took(const char* routine, gasnet_hsl_t* hsl, AmThreadState& t) {
    if (t.held_locks == int(std::size(t.lock_stack)))
        fatal(routine, "more than %zu handler-safe locks held at once by one thread", std::size(t.lock_stack));
    __atomic_store_n(&hsl->owner, static_cast<void*>(&t), __ATOMIC_RELAXED);
    t.lock_stack[t.held_locks++] = hsl;
}

// The calling thread's state, once `hsl` is known not to be held by it
// (lock and trylock: fatal, naming `routine`, for a NULL or held lock).
[[gnu::always_inline]] inline AmThreadState& not_held(const char* routine, gasnet_hsl_t* hsl) {
    check_hsl(routine, hsl);
    AmThreadState& t = am_thread_state();
    if (owner_of(hsl) == &t)
        fatal(routine,
              "lock %p is already held by this thread: HSLs may not be locked recursively "
              "(GASNet 1.8 §2.4.5)",
              static_cast<void*>(hsl));
    return t;
}

[[gnu::always_inline]] inline void lock(gasnet_hsl_t* hsl) {
    AmThreadState& t = not_held("gasnet_hsl_lock", hsl);
    if (int rc = pthread_mutex_lock(&hsl->mutex))
        fatal("gasnet_hsl_lock", "lock %p could not be taken (%d): not initialized?", static_cast<void*>(hsl), rc);
    took("gasnet_hsl_lock", hsl, t);
}

[[gnu::cold, gnu::noinline]] void lock_traced(gasnet_hsl_t* hsl) {
    gasket::gasp::notify(GASP_GASNET_HSL_LOCK, GASP_START, static_cast<void*>(hsl));
    lock(hsl);
    gasket::gasp::notify(GASP_GASNET_HSL_LOCK, GASP_END, static_cast<void*>(hsl));
}

}  // namespace

extern "C" {

void gasnet_hold_interrupts(void) noexcept {
    AmThreadState& t = am_thread_state();
    if (t.handler_depth > 0 || t.held_locks > 0) return;  // ignored there (§2.4.3, §2.4.5)
    if (t.nis_depth > 0) fatal("gasnet_hold_interrupts", "No-Interrupt Sections may not be nested (GASNet 1.8 §2.4.2)");
    ++t.nis_depth;
}

void gasnet_resume_interrupts(void) noexcept {
    AmThreadState& t = am_thread_state();
    if (t.handler_depth > 0 || t.held_locks > 0) return;
    if (t.nis_depth == 0)
        fatal("gasnet_resume_interrupts", "no No-Interrupt Section is open (gasnet_hold_interrupts not called)");
    --t.nis_depth;
}

void gasnet_hsl_init(gasnet_hsl_t* hsl) noexcept {
    check_hsl("gasnet_hsl_init", hsl);
    if (int rc = pthread_mutex_init(&hsl->mutex, nullptr))
        fatal("gasnet_hsl_init", "pthread_mutex_init failed (%d)", rc);
    hsl->owner = nullptr;
}

void gasnet_hsl_destroy(gasnet_hsl_t* hsl) noexcept {
    check_hsl("gasnet_hsl_destroy", hsl);
    if (owner_of(hsl)) fatal("gasnet_hsl_destroy", "lock %p is held (GASNet 1.8 §2.4.4)", static_cast<void*>(hsl));
    if (int rc = pthread_mutex_destroy(&hsl->mutex))
        fatal("gasnet_hsl_destroy", "pthread_mutex_destroy of lock %p failed (%d)", static_cast<void*>(hsl), rc);
}

// GASP: GASP_GASNET_HSL_LOCK S/E (void *hsl) around the lock, its wait
// included, out of line (the untraced lock pays one test); trylock and
// unlock raise none (the event set has none for them).
void gasnet_hsl_lock(gasnet_hsl_t* hsl) noexcept {
    if (gasket::gasp::on()) [[unlikely]]
        return lock_traced(hsl);
    lock(hsl);
}

int gasnet_hsl_trylock(gasnet_hsl_t* hsl) noexcept {
    AmThreadState& t = not_held("gasnet_hsl_trylock", hsl);
    int rc = pthread_mutex_trylock(&hsl->mutex);
    if (rc == EBUSY) return GASNET_ERR_NOT_READY;
    if (rc)
        fatal("gasnet_hsl_trylock", "lock %p could not be tried (%d): not initialized?", static_cast<void*>(hsl), rc);
    took("gasnet_hsl_trylock", hsl, t);
    return GASNET_OK;
}

void gasnet_hsl_unlock(gasnet_hsl_t* hsl) noexcept {
    check_hsl("gasnet_hsl_unlock", hsl);
    AmThreadState& t = am_thread_state();
    if (owner_of(hsl) != &t) fatal("gasnet_hsl_unlock", "lock %p is not held by this thread", static_cast<void*>(hsl));
    if (t.lock_stack[t.held_locks - 1] != hsl)
        fatal("gasnet_hsl_unlock",
              "lock %p unlocked out of order: lock %p was taken after it and is still held; unlock in the reverse "
              "order of locking (GASNet 1.8 §2.4.5)",
              static_cast<void*>(hsl), t.lock_stack[t.held_locks - 1]);
    --t.held_locks;
    __atomic_store_n(&hsl->owner, nullptr, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&hsl->mutex);
}

}  // extern "C"
