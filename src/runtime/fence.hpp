// src/runtime/fence.hpp -- the full memory fence behind blocking puts and
// gets to node peers, quiet and the node-memory collectives.
#pragma once

#include <atomic>

#if defined(__SANITIZE_THREAD__)
#define GASKET_STANDARD_FENCE 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GASKET_STANDARD_FENCE 1
#endif
#endif

namespace gasket::rt {

// A full (sequentially consistent) fence: every load and store before it
// is globally visible before any load or store after it.
//
// On x86-64 GCC emits std::atomic_thread_fence(seq_cst) as a locked OR of
// 0 into the word at the stack pointer.  A function that fences and then
// returns pops its saved registers and return address from the same few
// bytes, and those loads wait for the locked operation.  Measured on the
// development VM: a loop calling a function that stores 8 bytes, fences
// and returns took 10.8 ns per call, 6.0 with the locked OR 128 bytes
// lower, 12.2 with mfence; a blocking 8-byte gasnet_put to a node peer
// 10.7 -> 6.0 ns, shmem_putmem + shmem_quiet 13.1 -> 8.0 ns, and
// gasnet_put_val, 6.0 or 7.6 ns depending on where its stack frame fell in
// a cache line, 5.7 ns wherever (docs/performance.md, "A full fence off the
// stack pointer").  So the locked OR goes to the far end of the red zone,
// which the x86-64 ABI reserves below the stack pointer for the running
// function (signal handlers skip it); OR with 0 leaves whatever is there
// unchanged, so a leaf function's locals kept there keep their values.
// Loads and stores are not reordered with any locked instruction, whatever
// address it names (Intel SDM vol. 3A, "Memory Ordering in P6 and More
// Recent Processor Families").  ThreadSanitizer builds and other targets
// use the standard fence, which the tool understands.
[[gnu::always_inline]] inline void full_fence() {
#if defined(__x86_64__) && !defined(GASKET_STANDARD_FENCE)
    asm volatile("lock orq $0, -128(%%rsp)" ::: "memory", "cc");
#else
    std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}

}  // namespace gasket::rt
