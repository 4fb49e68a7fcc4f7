// src/runtime/size_parse.cpp
#include "size_parse.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

namespace gasket::rt {

std::optional<std::size_t> parse_size(std::string_view text) {
    std::size_t i = 0;
    std::string number;
    bool digits = false, dot = false;
    for (; i < text.size(); ++i) {
        char c = text[i];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            digits = true;
        } else if (c == '.' && !dot) {
            dot = true;
        } else {
            break;
        }
        number += c;
    }
    if (!digits) return std::nullopt;
    long double scale = 1;
    if (i < text.size()) {
        switch (text[i]) {
            case 'k':
            case 'K': scale = 1024.0L; break;
            case 'm':
            case 'M': scale = 1024.0L * 1024; break;
            case 'g':
            case 'G': scale = 1024.0L * 1024 * 1024; break;
            case 't':
            case 'T': scale = 1024.0L * 1024 * 1024 * 1024; break;
            default: return std::nullopt;  // junk where a multiplier may stand
        }
    }
    long double value = std::strtold(number.c_str(), nullptr) * scale;
    value = std::ceil(value);
    if (!(value >= 0) || value > static_cast<long double>(SIZE_MAX / 2)) return std::nullopt;
    return static_cast<std::size_t>(value);
}

}  // namespace gasket::rt
