// mpi-bridge/backoff.hpp -- the one spin-then-yield rhythm of every wait in
// Gasket: the runtime's Poller (src/runtime/progress.hpp) and the Active
// Message transport's waits for credits, inbox slots and send slots both
// step through it, so a PE waits the same way wherever it waits.
//
// A wait tests its own condition and, when that failed and nothing else
// progressed, calls idle(): the first kSpins idle steps spin (a pause
// instruction: the other hyperthread runs), then every kYieldEvery-th
// yields the core (other PEs may share it) and the rest spin.
// progressed() starts the spin over.  The modes are
// GASNet's gasnet_set_waitmode (§3.6.2); OpenSHMEM waits are spin_block.
#pragma once

#include <sched.h>

namespace gasket::mpi {

enum class WaitMode : unsigned char {
    spin,        // never yield
    block,       // yield at every idle step
    spin_block,  // spin kSpins idle steps, then yield at each
};

class Backoff {
public:
    // Idle steps spent spinning before the first yield, and between yields
    // after it.  A pause costs ~40 ns here (AMD EPYC), 10-40 ns on current
    // x86: a short spin catches a peer that is about to answer, and PEs
    // sharing a core (oversubscribed nodes are common in tests and on
    // laptops) get it back within a microsecond or so.  Measured
    // (bench-coll, bench-amo, 4 PEs on 2 cores): spinning 64 or 256 pauses
    // before yielding made the node barrier 1.3-2x slower; yielding at
    // every idle step after the spin made an AMO to a PE waiting in a
    // barrier 2-3x slower under load (each yield may cost a time slice).
    static constexpr unsigned kSpins = 8;
    static constexpr unsigned kYieldEvery = 8;

    // `idle_steps`: where a wait that keeps its count between calls (a
    // C macro's loop) left off.
    explicit Backoff(WaitMode mode = WaitMode::spin_block, unsigned idle_steps = 0) : mode_(mode), idle_(idle_steps) {}

    // After a step that made no progress.
    void idle() {
        if (yield_now())
            sched_yield();
        else
            relax();
        ++idle_;
    }
    // Counts an idle step that the caller paced its own way.
    void count_idle() { ++idle_; }
    // After a step that made progress (a message served, a credit taken).
    void progressed() { idle_ = 0; }
    // After a step that served `n` messages: progressed() or idle().
    void served(int n) {
        if (n > 0)
            progressed();
        else
            idle();
    }
    // Idle steps since the last progress.
    unsigned idle_steps() const { return idle_; }
    WaitMode mode() const { return mode_; }

    static void relax() {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ __volatile__("yield");
#endif
    }

private:
    // True when the next idle step yields.
    bool yield_now() const {
        return mode_ == WaitMode::block ||
               (mode_ == WaitMode::spin_block && idle_ >= kSpins && (idle_ - kSpins) % kYieldEvery == 0);
    }

    WaitMode mode_;
    unsigned idle_ = 0;
};

}  // namespace gasket::mpi
