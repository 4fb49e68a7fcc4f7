// src/runtime/error.cpp -- message formatting and job abort.
#include "error.hpp"

#include <cstdarg>
#include <cstdio>

#include "mpi-bridge/check.hpp"

namespace gasket::rt {

namespace {
int g_pe = -1;
bool g_debug = false;

void vreport(const char* routine, const char* fmt, va_list ap) {
    char text[1024];
    std::vsnprintf(text, sizeof text, fmt, ap);
    if (g_pe >= 0)
        std::fprintf(stderr, "gasket: PE %d: %s: %s\n", g_pe, routine, text);
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
