// src/gasnet/am.hpp -- what the Active Message entry points of both GASNet
// APIs share (am.cpp): sending a request or reply, with its GASP events,
// and which handler the calling thread runs.
#pragma once

#include <gasnet.h>

#include "src/runtime/am.hpp"

namespace gasket::gasnet {

// Sends a request of `category` to node `dest`, handler index `handler`,
// `nargs` arguments at `args`, `nbytes` of payload at `source_addr` (copied
// out before returning; Long: to `dest_addr` in dest's segment).
// `event_category`: the GASP category (gasp_gasnet_am_category_t).  Returns
// GASNET_OK, or GASNET_ERR_NOT_INIT / GASNET_ERR_BAD_ARG after printing a
// line naming `routine` (a bad node, payload size or Long range); fatal for
// an index with no handler registered here.
int request(const char* routine, int event_category, gasnet_node_t dest, gasnet_handler_t handler,
            rt::AmCategory category, const void* source_addr, size_t nbytes, void* dest_addr, int nargs,
            const gasnet_handlerarg_t* args);
// The same for a reply with `token` (only from a request handler, once).
int reply(const char* routine, int event_category, gasnet_token_t token, gasnet_handler_t handler,
          rt::AmCategory category, const void* source_addr, size_t nbytes, void* dest_addr, int nargs,
          const gasnet_handlerarg_t* args);

// The client handler the calling thread runs: its token, index and whether
// its message is a Long (token null outside handlers).
struct RunningHandler {
    gasket_am_token* token;
    gasnet_handler_t handler;
    bool is_long;
};
const RunningHandler& running_handler();

}  // namespace gasket::gasnet
