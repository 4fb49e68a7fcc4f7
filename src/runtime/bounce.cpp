// src/runtime/bounce.cpp -- the bounce ring's cold paths.
#include "bounce.hpp"

#include <cstring>
#include <memory>

namespace gasket::rt {

const char* BounceRing::copy(Window& w, const void* src, std::size_t bytes) {
    used = (used + 7) & ~std::size_t(7);
    if (used + bytes > limit) [[unlikely]]
        refill();
    char* slot = ring + used;
    std::memcpy(slot, src, bytes);
    used += bytes;
    note_sent(w);
    return slot;
}

void BounceRing::put_nbi_copied(Window& w, int pe, Displacement disp, const void* src, std::size_t bytes) {
    w.put_nbi(copy(w, src, bytes), bytes, pe, disp);
}

void BounceRing::put_nbi_joined(Window& w, int pe, Displacement disp, const void* src, std::size_t bytes) {
    const bool extends =
        run.bytes != 0 && run.pe == pe && run.window == &w && run.disp + Displacement(run.bytes) == disp;
    if (extends && used + bytes <= limit && run.src + run.bytes == ring + used) {
        std::memcpy(ring + used, src, bytes);
        used += bytes;
        run.bytes += bytes;
        return;
    }
    issue_run();
    run = {copy(w, src, bytes), bytes, disp, pe, &w};
}

void BounceRing::note_sent_slow(Window& w) {
    if (!sent[0]) {
        sent[0] = &w;
    } else if (!sent[1]) {
        sent[1] = &w;
    } else {
        // A third window: complete locally what went through the two
        // recorded ones (their copies are then free, though their space
        // comes back only with the next refill) and record the new one.
        issue_run();
        for (Window*& s : sent) {
            s->flush_local_all();
            s = nullptr;
        }
        sent[0] = &w;
    }
}

void BounceRing::refill() {
    if (!ring) {
        // Freed at thread exit: threads may outlive the job.
        static thread_local std::unique_ptr<char[]> owner;
        owner = std::make_unique<char[]>(kBytes);
        attach(owner.get());
        return;
    }
    issue_run();  // the run's bytes are in the ring
    for (Window*& s : sent) {
        if (s) s->flush_local_all();
        s = nullptr;
    }
    used = 0;
}

}  // namespace gasket::rt
