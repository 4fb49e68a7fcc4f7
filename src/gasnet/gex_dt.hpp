// src/gasnet/gex_dt.hpp -- the names of GASNet-EX's data types (GEX_DT_*)
// for the messages of remote atomics (gex_ad.cpp) and reductions
// (gex_coll.cpp).
#pragma once

#include <gasnetex.h>

namespace gasket::gasnet {

inline const char* dt_name(gex_DT_t dt) {
    switch (dt) {
        case GEX_DT_I32: return "GEX_DT_I32";
        case GEX_DT_U32: return "GEX_DT_U32";
        case GEX_DT_I64: return "GEX_DT_I64";
        case GEX_DT_U64: return "GEX_DT_U64";
        case GEX_DT_FLT: return "GEX_DT_FLT";
        case GEX_DT_DBL: return "GEX_DT_DBL";
        case GEX_DT_USER: return "GEX_DT_USER";
        default: return "not a GEX_DT_* value";
    }
}

}  // namespace gasket::gasnet
