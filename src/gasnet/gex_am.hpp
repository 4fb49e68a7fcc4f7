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

}  // namespace gasket::gasnet
