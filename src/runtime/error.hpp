// src/runtime/error.hpp -- fatal errors that name the routine, and debug
// messages under SHMEM_DEBUG.
#pragma once

namespace gasket::rt {

// Prints "gasket: PE <me>: <routine>: <message>" on stderr and ends the whole
// job (exit status 1).  printf-style format.  Cold.
[[noreturn, gnu::cold, gnu::format(printf, 2, 3)]] void fatal(const char* routine, const char* fmt, ...);

// Prints "gasket: PE <me>: <routine>: <message>" on stderr and returns: for
// errors the routine reports to its caller with an error code.
[[gnu::cold, gnu::format(printf, 2, 3)]] void error(const char* routine, const char* fmt, ...);

// Prints "gasket: PE <me>: <routine>: <message>" when SHMEM_DEBUG is set.
[[gnu::cold, gnu::format(printf, 2, 3)]] void debug(const char* routine, const char* fmt, ...);

// Set by the job once it knows them; used in messages.
void set_message_context(int my_pe, bool debug_on);
bool debug_enabled();

}  // namespace gasket::rt
