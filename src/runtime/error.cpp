// src/runtime/error.cpp -- message formatting and job abort.
#include "error.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "mpi-bridge/check.hpp"

namespace gasket::rt {

namespace {
int g_pe = -1;
bool g_debug = false;
bool g_gasnet = false;  // a GASNet process: messages say "node"

void vreport(const char* routine, const char* fmt, va_list ap) {
    char text[1024];
    std::vsnprintf(text, sizeof text, fmt, ap);
    if (g_pe >= 0)
        std::fprintf(stderr, "gasket: %s %d: %s: %s\n", unit_word(routine), g_pe, routine, text);
    else
        std::fprintf(stderr, "gasket: %s: %s\n", routine, text);
    std::fflush(stderr);
}
}  // namespace

void set_message_context(int my_pe, bool debug_on) {
    g_pe = my_pe;
    g_debug = debug_on;
}

bool debug_enabled() { return g_debug; }

void set_gasnet_messages(bool on) { g_gasnet = on; }

const char* unit_word(const char* routine) {
    const bool gasnet = g_gasnet || std::strncmp(routine, "gasnet_", 7) == 0 || std::strncmp(routine, "gex_", 4) == 0;
    return gasnet ? "node" : "PE";
}

void size_overflow(const char* routine, const char* what, std::size_t count, std::size_t size) {
    fatal(routine, "%s %zu times %zu bytes overflows size_t (more bytes than the address space holds)", what, count,
          size);
}

void fatal(const char* routine, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vreport(routine, fmt, ap);
    va_end(ap);
    mpi::abort_job(1);
}

void error(const char* routine, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vreport(routine, fmt, ap);
    va_end(ap);
}

void debug(const char* routine, const char* fmt, ...) {
    if (!g_debug) return;
    va_list ap;
    va_start(ap, fmt);
    vreport(routine, fmt, ap);
    va_end(ap);
}

}  // namespace gasket::rt
