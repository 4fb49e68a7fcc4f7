// src/runtime/segment_withdrawal.hpp -- telling node peers that a
// segment they may have mapped is going away (memory kinds §4.3,
// gex_Segment_Destroy: "releasing resources allocated to it").
//
// A node peer that reaches a created segment by load and store (host pages
// it mapped, or device memory it opened with CUDA IPC) holds that mapping
// until told: the pages stay allocated for as long as any process maps
// them, and CUDA leaves freeing exported device memory before its
// importers close it undefined.  So the owner, before it frees the
// segment, sends each peer it published the segment to on its node a Short
// request (internal indices 7, request, and 8, acknowledgement); the peer
// runs the API layer's hook (Job::on_segment_withdrawn: unmap, forget the
// route) inside the handler and acknowledges.  The owner returns once
// every peer has.
#pragma once

#include <cstdint>
#include <vector>

#include "am.hpp"
#include "job.hpp"

namespace gasket::rt {

// Withdraws the segment bound to this PE's endpoint `ep` (1 <= ep <
// AmEngine::kMaxEndpoints), at `base` in this process, from each of
// `peers` (jobranks, none this PE's): each runs j.on_segment_withdrawn(j,
// this PE, ep, base) and acknowledges; returns when all have, serving
// Active Messages meanwhile.  Fatal, naming `routine`, inside an Active
// Message handler or while holding a handler-safe lock (the wait cannot be
// served there), and when the job has no Active Message engine.
void withdraw_segment(const char* routine, Job& j, const std::vector<int>& peers, std::uint8_t ep, std::uintptr_t base);

// Registers the two internal handlers (at start, beside the AMO ones).
void register_withdrawal_handlers(AmEngine& am);

}  // namespace gasket::rt
