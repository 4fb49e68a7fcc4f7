// shmem/context.hpp -- the context argument of the shmem_ctx_* routines.
// Only SHMEM_CTX_DEFAULT exists until contexts land (issue: teams/contexts).
#pragma once

#include <shmem.h>

#include "src/runtime/error.hpp"

namespace gasket::shmem {

// Fatal, naming `routine`, unless `ctx` is SHMEM_CTX_DEFAULT.
inline void check_ctx(const char* routine, shmem_ctx_t ctx) {
    if (ctx != SHMEM_CTX_DEFAULT) [[unlikely]]
        rt::fatal(routine, "context %p is not SHMEM_CTX_DEFAULT; shmem_ctx_create is not implemented yet, "
                  "so no other context can exist", static_cast<void*>(ctx));
}

}  // namespace gasket::shmem
