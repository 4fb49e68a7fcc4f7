// src/runtime/bounce.hpp -- the bounce ring and run joining behind small
// puts through MPI, for both APIs.
//
// A small put whose source the caller may reuse at once (an OpenSHMEM
// blocking put, a GASNet non-bulk put) is copied into the ring and sent
// from the copy, so it needs no MPI_Win_flush_local of its own.  When the
// ring is used up, one MPI_Win_flush_local_all per window it sent through
// frees it; a flush of everything (quiet, a GASNet sync of all) frees it
// too (completed()).
//
// A run is a series of small non-blocking puts, each to the bytes just
// after the previous one's on the same PE and window, not yet handed to
// MPI: copied one after the other into the ring (a put whose source the
// caller may reuse), or left in place when their sources are adjacent too
// (a put whose source stays unchanged until completion).  It becomes one
// MPI_Put when it breaks, before the ring is refilled, and before any
// flush that must complete it (issue_run()).  Only a ring's owner completes its runs,
// so a ring serves one thread at a time: a GASNet thread (its implicit-
// handle puts) or an OpenSHMEM context that threads do not share.
//
// Scattered batches (where the MPI's per-call cost is worth saving: the
// MPICH family by default, GASKET_NBI_BATCH; a context's ring, for
// OpenSHMEM's nbi puts, and a GASNet thread's, for its implicit-handle
// non-bulk puts): a non-blocking put that does not continue the run, to
// the same PE and window, does not issue it.  The run becomes the batch's
// previous entry (copied into the ring first if it was joined in place),
// the put's bytes are copied into the ring right after it and begin the
// next run, and the whole batch -- up to ScatterBatch::kMaxRuns runs, their
// bytes back to back in the ring -- leaves as one MPI_Put with an indexed
// target datatype (Window::put_nbi_scattered) wherever a lone run would
// have been issued.  A put whose target bytes overlap the batch's issues it
// first (MPI forbids overlapping target entries in one put); a bitmap of
// the batch's 8-byte granules makes that check one load per granule, and
// only a hit scans the entries.  While the run is alone, the only bytes to
// miss are its own: the bitmap is filled when a second run joins.
//
// Trivially constructible (all zero = empty, no storage), so a
// thread_local ring costs no initialization check; attach() gives it
// storage, which its owner keeps, or its first refill gives it storage
// that the calling thread keeps.
#pragma once

#include <cstddef>
#include <cstdint>

#include "copy.hpp"
#include "route.hpp"

namespace gasket::rt {

struct Run {
    const char* src;    // in the ring (copied puts), or the caller's (joined in place)
    std::size_t bytes;  // 0: no run
    Displacement disp;
    int pe;
    Window* window;
};

// Bytes up to which a `local` put is sent from a copy in the caller's
// bounce ring (no MPI_Win_flush_local), and a `joined` or `local_joined`
// put joins its run (rma.hpp's put_to); a run joined in place is copied
// into the ring to begin a scattered batch up to this size too.
inline constexpr std::size_t kBounceMax = 1024;

// The runs of a scattered batch before the ring's current run (see above).
struct ScatterBatch {
    static constexpr int kMaxRuns = 256;  // runs per MPI_Put, the current one included
    static constexpr int kBits = 4096;    // granule bitmap (8-byte granules, hashed)

    const char* first;  // the first run's bytes in the ring
    int lengths[kMaxRuns];
    Displacement disps[kMaxRuns];
    std::uint64_t bits[kBits / 64];
    // The nonzero words of `bits`, so a new batch clears only those.
    std::uint8_t touched[kBits / 64];
    int n_touched;
};

// Whether rings that get their storage at their first refill (GASNet's
// per-thread rings) get scattered batches too; set at job start with the
// job's GASKET_NBI_BATCH (a context's ring gets them from its job).
void set_thread_ring_batches(bool on);

struct BounceRing {
    static constexpr std::size_t kBytes = std::size_t(1) << 16;

    char* ring;                   // kBytes once attached, else null
    std::size_t limit;            // kBytes once attached, else 0 (so every fit test fails)
    std::size_t lean_limit;       // the lean forms' limit: as `limit`, but 0 with scattered batches (they decline)
    std::size_t lean_join_limit;  // the lean join's: as `limit`, but 0 while a batch holds runs before `run`
    std::size_t used;             // ring bytes holding copies not yet completed
    Run run;
    Window* sent[2];      // the windows copies were sent through since the last refill
    ScatterBatch* batch;  // null: no scattered batches (Open MPI's default)
    int batched;          // runs in `batch` before `run` (0 when it is null)

    bool attached() const { return ring != nullptr; }
    // Gives the ring its storage (kBytes, kept by the caller) and, when
    // `scatter` is not null, scattered batches (above; kept by the caller).
    void attach(char* storage, ScatterBatch* scatter = nullptr) {
        ring = storage;
        limit = kBytes;
        lean_limit = scatter ? 0 : kBytes;
        lean_join_limit = kBytes;
        used = 0;
        batch = scatter;
    }

    // Hands the run, if any, to MPI (before a flush that must complete it):
    // with the batch it ends, if it has more runs.
    void issue_run() {
        if (run.bytes == 0) return;
        if (batched) [[unlikely]]
            return issue_batch();
        issue_lone_run();
    }
    // After a flush that completed everything sent from the ring on every
    // window it used: the ring is free again (unless a run, whose bytes are
    // still to be sent, waits).
    void completed() {
        if (run.bytes == 0) used = 0;
    }
    // Whether the ring holds copies or a run: only then does a flush of
    // its owner need issue_run() before and completed() after.
    bool busy() const { return (run.bytes | used) != 0; }

    // A copy of `bytes` (<= kBytes) of `src` in the ring, 8-byte aligned,
    // for a put through `w`; refills the ring first when it is full (or not
    // attached: see refill()).  Out of line (bounce.cpp): it calls memcpy
    // anyway, and keeps the lean forms' callers small.
    const char* copy(Window& w, const void* src, std::size_t bytes);

    // A small put through MPI from a copy in the ring (the caller may reuse
    // `src` at once): copy(), then Window::put_nbi.  Out of line, as copy().
    void put_nbi_copied(Window& w, int pe, Displacement disp, const void* src, std::size_t bytes);

    // A small non-blocking put through MPI: copied into the ring and joined
    // to the run when it extends it, else the run is issued and a new one
    // begins (with scattered batches: put_nbi_batched, copying).  Out of
    // line, as copy().
    void put_nbi_joined(Window& w, int pe, Displacement disp, const void* src, std::size_t bytes);

    // A small non-blocking put whose source stays unchanged until its
    // completion: joined to the run, without a copy, when it continues it
    // on both sides (source bytes and target bytes right after the run's),
    // else the run is issued and the put begins a new one; with scattered
    // batches, put_nbi_batched decides (a run in the ring never continues a
    // caller's source, so the join here only ever extends a lone run).  The
    // join is expected: the other branches end in an MPI call anyway, and
    // without the hint the batch test made GCC lay the join out over four
    // taken branches (6.5 ns a put where 5 had been; with the hint the join
    // executes what it did before batches, 83.7 instructions a call).
    void put_nbi_joined_in_place(Window& w, int pe, Displacement disp, const void* src, std::size_t bytes) {
        if (__builtin_expect(run.bytes != 0 && run.src + run.bytes == src &&
                                 run.disp + Displacement(run.bytes) == disp && run.pe == pe && run.window == &w,
                             1)) {
            run.bytes += bytes;
            return;
        }
        if (batch) [[unlikely]]
            return put_nbi_batched(w, pe, disp, src, bytes);
        if (run.bytes != 0) issue_lone_run();  // no batch: the run is alone
        run = {static_cast<const char*>(src), bytes, disp, pe, &w};
    }

    // The lean forms below (GASNet's serialized clients) need every put
    // through this ring to go through one window `w`, recorded by the
    // ring's first copy(); they make no call other than MPI's and never
    // refill: false or null (nothing done) when the ring is full, not
    // attached or has scattered batches (lean_limit 0: the batch's overlap
    // test is out of line), and the caller takes copy() or put_nbi_joined().
    // A put that continues the run joins it here with batches too, while
    // the run is alone (lean_join_limit: it needs no overlap test then).

    // put_nbi_joined of 1..kSmallCopyMax bytes, the previous run sent last
    // through put_nbi_recorded_first (no other thread completes the
    // window's operations meanwhile).
    [[gnu::always_inline]] bool put_nbi_joined_lean(Window& w, int pe, Displacement disp, const void* src,
                                                    std::size_t bytes) {
        const std::size_t at_end = used;
        if (run.disp + Displacement(run.bytes) == disp && run.pe == pe && run.bytes != 0 &&
            run.src + run.bytes == ring + at_end) {
            if (at_end + bytes > lean_join_limit) [[unlikely]]
                return false;
            copy_small(ring + at_end, src, bytes);
            used = at_end + bytes;
            run.bytes += bytes;
            return true;
        }
        const std::size_t at = (at_end + 7) & ~std::size_t(7);
        if (at + bytes > lean_limit) [[unlikely]]
            return false;
        char* slot = ring + at;
        copy_small(slot, src, bytes);
        used = at + bytes;
        const Run previous = run;
        run = {slot, bytes, disp, pe, &w};
        if (previous.bytes != 0) w.put_nbi_recorded_first(previous.src, previous.bytes, previous.pe, previous.disp);
        return true;
    }

    // A copy of 1..kSmallCopyMax bytes for a put through the ring's one
    // window (recorded by the first copy(), see above).
    [[gnu::always_inline]] const char* copy_lean_or_null(const void* src, std::size_t bytes) {
        const std::size_t at = (used + 7) & ~std::size_t(7);
        if (at + bytes > lean_limit) [[unlikely]]
            return nullptr;
        char* slot = ring + at;
        copy_small(slot, src, bytes);
        used = at + bytes;
        return slot;
    }

    // copy_lean_or_null for a ring whose puts may go through two windows (a
    // context's heap and data windows): null also when `w` is not yet
    // recorded (the caller then takes copy(), which records it).
    [[gnu::always_inline]] const char* copy_lean_if_sent(Window& w, const void* src, std::size_t bytes) {
        if (sent[0] != &w && sent[1] != &w) [[unlikely]]
            return nullptr;
        return copy_lean_or_null(src, bytes);
    }

private:
    // The run (not empty) as one MPI_Put: when no batch holds earlier runs.
    void issue_lone_run() {
        run.window->put_nbi(run.src, run.bytes, run.pe, run.disp);
        run.bytes = 0;
    }
    void note_sent(Window& w) {
        if (sent[0] == &w || sent[1] == &w) return;
        note_sent_slow(w);
    }
    void note_sent_slow(Window& w);  // out of line (bounce.cpp)
    // put_nbi_joined_in_place with scattered batches, when the put does not
    // join an in-place run (and put_nbi_joined's, `copy_source`): copied
    // into the ring and joined to the run when it continues it at the
    // target, else added to the batch as a new run (above), else the batch
    // is issued and the put begins a new run, in place (copied when
    // `copy_source`: the caller may reuse it at once).  Out of line, as
    // copy().
    void put_nbi_batched(Window& w, int pe, Displacement disp, const void* src, std::size_t bytes,
                         bool copy_source = false);
    void begin_batch();  // the run, in the ring, is the batch's first: an empty bitmap
    // Scattered batches (bounce.cpp): the batch and the run as one MPI_Put;
    // whether [disp, +bytes) overlaps a run of the batch; marking it.
    void issue_batch();
    bool batch_overlaps(Displacement disp, std::size_t bytes) const;
    void batch_mark(Displacement disp, std::size_t bytes);
    // Out of line: issues the run, completes locally what went through the
    // recorded windows, and reuses the ring.  A ring not yet attached gets
    // storage owned by the calling thread (GASNet's per-thread rings; a
    // context attaches its own before use).
    void refill();
};

}  // namespace gasket::rt
