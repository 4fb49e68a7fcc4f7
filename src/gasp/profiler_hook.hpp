// src/gasp/profiler_hook.hpp -- shmem_pcontrol(2)'s flush of the bundled
// profiler (tools/profiler/, docs/profiler.md).  Kept out of gasp.hpp, the
// header of the event sites.
#pragma once

namespace gasket::gasp {

// Calls the attached tool's gasket_profile_flush() (the bundled profiler
// defines it: it writes this PE's data so far), as an upcall-safe call into
// the tool; nothing without a tool or when the tool has no such function.
void flush_profiler();

}  // namespace gasket::gasp
