// mpi-bridge/happens_before.hpp -- tells ThreadSanitizer about the order
// that messages carry between threads of this process.
//
// MPI is not instrumented, and part of the way goes through another
// process: a thread fills an AMO's completion record and sends the
// request; the reply comes back and another thread (often the progress
// thread) delivers it and writes the record.  The order is real (no reply
// before its request), but TSan cannot see it.  In TSan builds, Active
// Message sends release and deliveries acquire one sync object, so what a
// thread did before sending happens before what a later delivery does, on
// any thread (coarser than the real order: see tests/tsan/README.md).
// Nothing at all in other builds.
#pragma once

#if defined(__SANITIZE_THREAD__)
#define GASKET_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GASKET_TSAN 1
#endif
#endif

#if defined(GASKET_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

namespace gasket::mpi {

#if defined(GASKET_TSAN)
inline char g_message_order;  // the sync object (its contents are never used)
inline void release_before_send() { __tsan_release(&g_message_order); }
inline void acquire_before_delivery() { __tsan_acquire(&g_message_order); }
#else
inline void release_before_send() {}
inline void acquire_before_delivery() {}
#endif

}  // namespace gasket::mpi
