// src/runtime/error.hpp -- fatal errors that name the routine, debug
// messages under SHMEM_DEBUG, and the checked size arithmetic every size
// computed from user input goes through.
#pragma once

#include <cstddef>

namespace gasket::rt {

// Prints "gasket: PE <me>: <routine>: <message>" on stderr and ends the whole
// job (exit status 1).  (GASNet routines, named gasnet_* or gex_*, say
// "node <me>": see unit_word.)  printf-style format.  Cold.
[[noreturn, gnu::cold, gnu::format(printf, 2, 3)]] void fatal(const char* routine, const char* fmt, ...);

// Prints "gasket: PE <me>: <routine>: <message>" on stderr and returns: for
// errors the routine reports to its caller with an error code.
[[gnu::cold, gnu::format(printf, 2, 3)]] void error(const char* routine, const char* fmt, ...);

// Prints "gasket: PE <me>: <routine>: <message>" when SHMEM_DEBUG is set.
[[gnu::cold, gnu::format(printf, 2, 3)]] void debug(const char* routine, const char* fmt, ...);

// Set by the job once it knows them; used in messages.
void set_message_context(int my_pe, bool debug_on);
bool debug_enabled();

// What a message about `routine` calls a process: "node" (GASNet 1.8's
// word) in a GASNet process (set_gasnet_messages) and for GASNet routines
// (names starting gasnet_ or gex_), else "PE".
const char* unit_word(const char* routine);
// Marks this process as a GASNet one: every message says "node".
void set_gasnet_messages(bool on);

// Fatal, naming `routine`: `what` (e.g. "nelems") `count` times `size`
// bytes does not fit in size_t.  Cold.
[[noreturn, gnu::cold]] void size_overflow(const char* routine, const char* what, std::size_t count, std::size_t size);

// `count` * `size` bytes; fatal (size_overflow) when the product does not
// fit in size_t.  For a constant `size` the check is one compare (none for
// size 1).
[[gnu::always_inline]] inline std::size_t checked_bytes(const char* routine, const char* what, std::size_t count,
                                                        std::size_t size) {
    std::size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) [[unlikely]]
        size_overflow(routine, what, count, size);
    return bytes;
}

}  // namespace gasket::rt
