// src/gasp/defaults.cpp -- the tool side of GASP when no tool is linked:
// weak definitions of the five functions a GASP tool defines (gasp.h).
// They do nothing; gasp_init returns g_no_tool_ctx, by which gasp::start
// knows that no tool is attached and delivers no events at all.  A tool
// linked into the program (or into a library before libgasket.so)
// replaces them, at static or dynamic link time.
#include <gasp.h>

#include "gasp.hpp"

namespace gasket::gasp {
extern const char g_no_tool_ctx;
const char g_no_tool_ctx = 0;
}  // namespace gasket::gasp

extern "C" {

[[gnu::weak]] gasp_context_t gasp_init(gasp_model_t, int*, char***) noexcept {
    return reinterpret_cast<gasp_context_t>(const_cast<char*>(&gasket::gasp::g_no_tool_ctx));
}
[[gnu::weak]] void gasp_event_notify(gasp_context_t, unsigned int, gasp_evttype_t, const char*, int, int,
                                     ...) noexcept {}
[[gnu::weak]] void gasp_event_notifyVA(gasp_context_t, unsigned int, gasp_evttype_t, const char*, int, int,
                                       va_list) noexcept {}
[[gnu::weak]] int gasp_control(gasp_context_t, int) noexcept { return 1; }
[[gnu::weak]] unsigned int gasp_create_event(gasp_context_t, const char*, const char*) noexcept { return 0; }

}  // extern "C"
