// src/runtime/bounce.cpp -- the bounce ring's cold paths.
#include "bounce.hpp"

namespace gasket::rt {

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
    issue_run();  // the run's bytes are in the ring
    for (Window*& s : sent) {
        if (s) s->flush_local_all();
        s = nullptr;
    }
    used = 0;
}

}  // namespace gasket::rt
