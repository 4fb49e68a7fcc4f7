// src/runtime/size_parse.hpp -- the spec's size syntax (§8, SHMEM_SYMMETRIC_SIZE).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace gasket::rt {

// Parses "<number>[k|K|m|M|g|G|t|T][anything]": a non-negative integer or
// decimal (".5" = "0.5"), scaled by 2^10/2^20/2^30/2^40; characters after
// the one multiplier are ignored ("20kk" = "20k").  Returns
// ceil(number * scale) bytes, or nullopt for an invalid or overflowing value.
std::optional<std::size_t> parse_size(std::string_view text);

}  // namespace gasket::rt
