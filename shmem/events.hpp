// shmem/events.hpp -- what OpenSHMEM's GASP events pass (include/gasp_shmem.h):
// handles as void *, and the typecode of an element type.
#pragma once

#include <shmem.h>

#include <string_view>
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

// GASP: `tag` S/E around `op()` (include/gasp_shmem.h), with `args`; returns
// what op returns.  For the routines that cost microseconds (collectives,
// waits, locks, teams): one gasp::on() test, read once so that a START
// always has its END.
template <class F, class... Args>
auto with_event(unsigned tag, F&& op, Args... args) {
    const bool ev = gasp::on();
    if (ev) [[unlikely]]
        gasp::notify(tag, GASP_START, args...);
    if constexpr (std::is_void_v<decltype(op())>) {
        op();
        if (ev) [[unlikely]]
            gasp::notify(tag, GASP_END, args...);
    } else {
        auto result = op();
        if (ev) [[unlikely]]
            gasp::notify(tag, GASP_END, args...);
        return result;
    }
}

// gasp_shmem_reduction_t of the type a routine names (its TYPENAME in
// gasket/shmem_type_tables.h: "long", "int64", "complexd", ...).
consteval int reduction_type(std::string_view name) {
    constexpr struct {
        std::string_view name;
        int code;
    } kTypes[] = {{"char", GASP_SHMEM_REDUCTION_CHAR},         {"schar", GASP_SHMEM_REDUCTION_C},
                  {"uchar", GASP_SHMEM_REDUCTION_UC},          {"short", GASP_SHMEM_REDUCTION_S},
                  {"ushort", GASP_SHMEM_REDUCTION_US},         {"int", GASP_SHMEM_REDUCTION_I},
                  {"uint", GASP_SHMEM_REDUCTION_UI},           {"long", GASP_SHMEM_REDUCTION_L},
                  {"ulong", GASP_SHMEM_REDUCTION_UL},          {"float", GASP_SHMEM_REDUCTION_F},
                  {"double", GASP_SHMEM_REDUCTION_D},          {"longdouble", GASP_SHMEM_REDUCTION_LD},
                  {"longlong", GASP_SHMEM_REDUCTION_LL},       {"ulonglong", GASP_SHMEM_REDUCTION_ULL},
                  {"int8", GASP_SHMEM_REDUCTION_INT8},         {"int16", GASP_SHMEM_REDUCTION_INT16},
                  {"int32", GASP_SHMEM_REDUCTION_INT32},       {"int64", GASP_SHMEM_REDUCTION_INT64},
                  {"uint8", GASP_SHMEM_REDUCTION_UINT8},       {"uint16", GASP_SHMEM_REDUCTION_UINT16},
                  {"uint32", GASP_SHMEM_REDUCTION_UINT32},     {"uint64", GASP_SHMEM_REDUCTION_UINT64},
                  {"size", GASP_SHMEM_REDUCTION_SIZE},         {"ptrdiff", GASP_SHMEM_REDUCTION_PTRDIFF},
                  {"complexf", GASP_SHMEM_REDUCTION_COMPLEXF}, {"complexd", GASP_SHMEM_REDUCTION_COMPLEXD}};
    for (const auto& t : kTypes)
        if (t.name == name) return t.code;
    throw "reduction_type: a type name not in gasp_shmem_reduction_t";  // not a constant: a compile error
}

}  // namespace gasket::shmem
