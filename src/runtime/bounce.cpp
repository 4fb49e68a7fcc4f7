// src/runtime/bounce.cpp -- the bounce ring's cold paths.
#include "bounce.hpp"

#include <atomic>
#include <cstring>
#include <memory>

namespace gasket::rt {

namespace {
std::atomic<bool> g_thread_ring_batches{false};  // set_thread_ring_batches
}  // namespace

void set_thread_ring_batches(bool on) { g_thread_ring_batches.store(on, std::memory_order_relaxed); }

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
    if (!ring) [[unlikely]]
        refill();  // attached first: attaching may bring scattered batches, which a run must not predate
    if (batch) return put_nbi_batched(w, pe, disp, src, bytes, true);
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

namespace {

// The bit of ScatterBatch::bits standing for 8-byte granule `g` (the
// displacement divided by 8): a multiplicative hash, so runs scattered by
// any stride spread over the bitmap.
unsigned granule_bit(std::uint64_t g) {
    return unsigned((g * 0x9E3779B97F4A7C15ull) >> 52);  // 12 bits: kBits = 4096
}
static_assert(ScatterBatch::kBits == 4096);

}  // namespace

void BounceRing::put_nbi_batched(Window& w, int pe, Displacement disp, const void* src, std::size_t bytes,
                                 bool copy_source) {
    if (bytes == 0) return;  // nothing moves (an empty run would hide the batch from issue_run)
    // (put_nbi_joined_in_place joined the put if it continued an in-place
    // run on both sides.)
    const bool in_place = run.bytes != 0 && !(run.src >= ring && run.src < ring + limit);
    if (in_place && run.pe == pe && run.window == &w && run.bytes <= kBounceMax) {
        // The run is the caller's source, joined in place (how a batch
        // begins: a lone run or adjacent puts cost no copy).  A batch needs
        // its bytes in the ring: copied now, unless the put overlaps them.
        const Displacement end = disp + Displacement(bytes);
        if (!(disp < run.disp + Displacement(run.bytes) && run.disp < end)) {
            const Run lone = run;
            run.bytes = 0;  // copy() may refill, which issues the run
            run = {copy(w, lone.src, lone.bytes), lone.bytes, lone.disp, pe, &w};
            begin_batch();
        }
    }
    if (run.bytes != 0) {
        // The batch grows when the put goes to its PE and window, its bytes
        // can follow the run's in the ring (so the run is there), and its
        // target bytes overlap none of the batch's.  While the run is alone
        // (batched 0) the bitmap is empty and the only bytes to miss are the
        // run's: a put continuing it costs no granule marks, and the run's
        // granules are marked when a second run joins it.
        const bool continues = run.disp + Displacement(run.bytes) == disp;
        if (run.pe == pe && run.window == &w && run.src + run.bytes == ring + used && used + bytes <= limit &&
            (continues || batched + 1 < ScatterBatch::kMaxRuns)) {
            const Displacement end = disp + Displacement(bytes);
            const bool overlaps =
                batched ? batch_overlaps(disp, bytes) : disp < run.disp + Displacement(run.bytes) && run.disp < end;
            if (!overlaps) {
                char* at = ring + used;
                std::memcpy(at, src, bytes);
                used += bytes;
                if (continues) {
                    run.bytes += bytes;
                    if (batched) batch_mark(disp, bytes);
                } else {
                    if (!batched) {
                        batch_mark(run.disp, run.bytes);
                        lean_join_limit = 0;  // the lean join cannot test for overlaps
                    }
                    batch->lengths[batched] = int(run.bytes);
                    batch->disps[batched] = run.disp;
                    ++batched;
                    run = {at, bytes, disp, pe, &w};
                    batch_mark(disp, bytes);
                }
                return;
            }
        }
        issue_run();
    }
    if (!copy_source) {
        run = {static_cast<const char*>(src), bytes, disp, pe, &w};  // in place, until a batch needs it copied
        return;
    }
    run = {copy(w, src, bytes), bytes, disp, pe, &w};  // may refill: no run then
    begin_batch();
}

void BounceRing::begin_batch() {
    ScatterBatch& b = *batch;
    b.first = run.src;
    for (int i = 0; i < b.n_touched; ++i) b.bits[b.touched[i]] = 0;
    b.n_touched = 0;  // the run's granules are marked when a second run joins
}

void BounceRing::issue_batch() {
    ScatterBatch& b = *batch;
    b.lengths[batched] = int(run.bytes);
    b.disps[batched] = run.disp;
    run.window->put_nbi_scattered(b.first, batched + 1, b.lengths, b.disps, run.pe);
    batched = 0;
    lean_join_limit = limit;
    run.bytes = 0;
}

bool BounceRing::batch_overlaps(Displacement disp, std::size_t bytes) const {
    const auto last = std::uint64_t(disp) + bytes - 1;
    bool hit = false;
    for (std::uint64_t g = std::uint64_t(disp) >> 3; g <= last >> 3 && !hit; ++g) {
        const unsigned bit = granule_bit(g);
        hit = (batch->bits[bit / 64] >> (bit % 64)) & 1;
    }
    if (!hit) return false;
    // A granule of the batch may be shared: compare the bytes.
    const Displacement end = disp + Displacement(bytes);
    auto overlaps = [&](Displacement d, std::size_t n) { return d < end && disp < d + Displacement(n); };
    if (overlaps(run.disp, run.bytes)) return true;
    for (int i = 0; i < batched; ++i)
        if (overlaps(batch->disps[i], std::size_t(batch->lengths[i]))) return true;
    return false;
}

void BounceRing::batch_mark(Displacement disp, std::size_t bytes) {
    const auto last = std::uint64_t(disp) + bytes - 1;
    for (std::uint64_t g = std::uint64_t(disp) >> 3; g <= last >> 3; ++g) {
        const unsigned bit = granule_bit(g);
        std::uint64_t& word = batch->bits[bit / 64];
        if (!word) batch->touched[batch->n_touched++] = std::uint8_t(bit / 64);
        word |= std::uint64_t(1) << (bit % 64);
    }
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
        static thread_local std::unique_ptr<ScatterBatch> scatter;
        owner = std::make_unique<char[]>(kBytes);
        const bool batches = g_thread_ring_batches.load(std::memory_order_relaxed);
        if (batches && !scatter) scatter = std::make_unique<ScatterBatch>();
        attach(owner.get(), batches ? scatter.get() : nullptr);
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
