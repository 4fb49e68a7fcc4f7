// src/gasnet/dispatch.hpp -- runs a client handler with the prototype of
// its category and argument count (gasnet-1.8-spec.md §2.3.1).
#pragma once

#include "src/runtime/am.hpp"

namespace gasket::gasnet {

// The runtime's AmEngine::Dispatch for GASNet handlers.
void dispatch_handler(void (*fn)(), gasket_am_token* token, const rt::AmMessage& message);

}  // namespace gasket::gasnet
