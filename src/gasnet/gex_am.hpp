// src/gasnet/gex_am.hpp -- GASNet-EX's AM sends (gex_am.cpp), shared by the
// fixed-payload entry points and the negotiated-payload ones (gex_am_np.cpp).
#pragma once

#include <gasnet.h>

#include "src/runtime/am.hpp"

namespace gasket::gasnet {

// A request of `category` to (tm, rank) (the primordial team or its
// TM-pair), handler index `handler`, `nargs` arguments at `args`, `nbytes`
// of payload at `source_addr` (copied out before returning; Long: to
// `dest_addr` in the destination's segment).  Checks what GASNet-1 does not:
// the handler's registration here (category, request, argument count),
// flags (GEX_FLAG_IMMEDIATE only) and lc_opt (NOW, GROUP or an event
// pointer, which receives GEX_EVENT_INVALID).  Returns 0; every error is
// fatal, naming `routine`.
int gex_request(const char* routine, gex_TM_t tm, gex_Rank_t rank, gasnet_handler_t handler, rt::AmCategory category,
                const void* source_addr, size_t nbytes, void* dest_addr, gex_Event_t* lc_opt, gex_Flags_t flags,
                int nargs, const gasnet_handlerarg_t* args);
// The same for a reply on `token` (only from a request handler, once; no GROUP).
int gex_reply(const char* routine, gex_Token_t token, gasnet_handler_t handler, rt::AmCategory category,
              const void* source_addr, size_t nbytes, void* dest_addr, gex_Event_t* lc_opt, gex_Flags_t flags,
              int nargs, const gasnet_handlerarg_t* args);

// VIS peer completion (gasnet-ex-api.txt "VIS Put Peer Completion"): fatal,
// naming `routine`, unless `handler` is registered on an endpoint of this
// process, by gasnet_attach or, on one endpoint at least, by
// gex_EP_RegisterHandlers as a 0-argument Medium reply handler
// (GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY, gex_nargs 0).
void check_peer_completion_handler(const char* routine, gasnet_handler_t handler);
// Runs `handler` of endpoint `ep` (0: the primordial one) at node (jobrank)
// `node` as a Medium reply handler with
// `nbytes` (<= GEX_VIS_MAX_PEERCOMPLETION) of payload at `payload`, once
// the caller has completed the puts it announces (rt::AmEngine::notify).
// GASP: an AM request event (Medium, 0 arguments).  Fatal, naming
// `routine`, before a segment is attached, or when this process's endpoint
// of index `ep` registered `handler` otherwise than a peer completion
// handler must be.
void gex_peer_notice(const char* routine, gasnet_node_t node, gex_EP_Index_t ep, gasnet_handler_t handler,
                     const void* payload, size_t nbytes);

}  // namespace gasket::gasnet
