// shmem/events.hpp -- what OpenSHMEM's GASP events pass (include/gasp_shmem.h):
// handles as void *, and the typecode of an element type.
#pragma once

#include <shmem.h>

#include <type_traits>

#include "src/gasp/gasp.hpp"

namespace gasket::shmem {

// A context as events pass it.  The hot entry points without a ctx argument
// pass nullptr (a constant, where SHMEM_CTX_DEFAULT is a load): it stands for
// SHMEM_CTX_DEFAULT here, as a ctx form never gets this far with
// SHMEM_CTX_INVALID.
inline void* event_handle(shmem_ctx_t ctx) { return static_cast<void*>(ctx ? ctx : SHMEM_CTX_DEFAULT); }
inline void* event_handle(shmem_team_t team) { return static_cast<void*>(team); }

// gasp_shmem_typecode_t of T: its kind and width (int and int32_t alike).
template <class T>
constexpr int typecode() {
    if constexpr (std::is_same_v<T, float>)
        return GASP_SHMEM_TYPE_FLOAT;
    else if constexpr (std::is_same_v<T, double>)
        return GASP_SHMEM_TYPE_DOUBLE;
    else if constexpr (std::is_same_v<T, long double>)
        return GASP_SHMEM_TYPE_LONGDOUBLE;
    else if constexpr (std::is_integral_v<T>) {
        constexpr int step = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
        return (std::is_signed_v<T> ? GASP_SHMEM_TYPE_INT8 : GASP_SHMEM_TYPE_UINT8) + step;
    } else
        return GASP_SHMEM_TYPE_OTHER;
}

}  // namespace gasket::shmem
