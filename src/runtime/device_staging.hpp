// src/runtime/device_staging.hpp -- RMA to and from a device segment this
// process cannot map (gasnet-ex-memory-kinds.txt §4.1: on another node, or
// a node peer's with the node fast path off): the data travels in Active
// Messages of up to kStagingChunk bytes and the segment's owner copies
// each between the message's host buffer and its device memory
// (rt::device_copy), so no MPI is ever handed device memory (an MPI that is
// not CUDA-aware would read or write it as host memory).  The chunks of a
// transfer are all in flight at once (the owner's message buffers are the
// staging buffers); the transfer returns when the owner has acknowledged
// every chunk (put) or every chunk has arrived (get).
//
// Internal handler indices 3 (put chunk), 4 (its acknowledgement), 5 (get
// request), 6 (get reply).  The owner checks every field it receives: the
// endpoint has a device segment bound (AmEngine::bind_endpoint_segment
// with a copy context) and the range lies inside it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "am.hpp"
#include "job.hpp"

namespace gasket::rt {

// Bytes of one staged chunk: an Active Message Medium's largest payload.
inline constexpr std::size_t kStagingChunk = 65536;

// Puts `nbytes` bytes from `src` into the device segment bound to endpoint
// `ep` (0 < ep < AmEngine::kMaxEndpoints) of PE `pe`, at byte `offset` of
// it (range checked by the caller against the published segment).  `src`
// is host memory, or device memory when `src_ctx` (its kind's copy
// context) is not null: then each chunk is first copied to a host buffer
// here.  Complete, locally and remotely (visible to the device), on
// return.  Fatal, naming `routine`, inside an Active Message handler (the
// wait for the owner cannot be served there) and when a device copy fails.
void staged_put(const char* routine, Job& j, int pe, std::uint8_t ep, std::size_t offset, const void* src,
                std::size_t nbytes, void* src_ctx);

// Gets `nbytes` bytes at byte `offset` of the device segment bound to
// endpoint `ep` of PE `pe` into `dst`: host memory, or device memory when
// `dst_ctx` is not null (each chunk is copied there from the reply's host
// buffer).  Complete on return.  Fatal as staged_put.
void staged_get(const char* routine, Job& j, int pe, std::uint8_t ep, std::size_t offset, void* dst, std::size_t nbytes,
                void* dst_ctx);

// A Long reply, from request handler `token`'s, of `nbytes` > kStagingChunk
// bytes into the device segment of endpoint `token->source_ep` of the
// requester, which this process cannot map (its byte `offset`, checked by
// the caller): a handler cannot wait for a staged put, so the payload is
// copied here before returning (`src` host memory, or device memory when
// `src_ctx` is not null), the token is marked replied, and after the
// handler returns deferred work (AmEngine::defer) stages it into place and
// then sends the reply (AmEngine::send_late_reply), whose handler `handler`
// (`nargs` arguments `args`) runs at the requester once the payload is in
// its device memory, as for every Long.  Fatal, naming `routine`, as
// AmEngine::reply, when the copy cannot be allocated, and when a device
// copy fails.
void defer_staged_reply(const char* routine, Job& j, gasket_am_token* token, std::uint8_t handler, int nargs,
                        const std::int32_t* args, const void* src, std::size_t nbytes, std::size_t offset,
                        void* src_ctx);

// Registers the four internal handlers (at start, beside the AMO ones).
void register_staging_handlers(AmEngine& am);

}  // namespace gasket::rt
