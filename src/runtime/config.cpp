// src/runtime/config.cpp -- the option table and its parsing.
#include "config.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <sstream>

#include "size_parse.hpp"

namespace po = boost::program_options;

namespace gasket::rt {

namespace {

struct Spec {
    const char* name;
    const char* default_value;  // "" = unset (flag variables)
    const char* help;
};

// The table.  Flag variables (default "") are on when set to any value.
constexpr std::array kTable{
    Spec{"SHMEM_SYMMETRIC_SIZE", "128M",
         "symmetric heap bytes per PE; number with optional K/M/G/T suffix (powers of 2)"},
    Spec{"SHMEM_DEBUG", "", "any value: print debugging messages (allocation failures, paths chosen)"},
    Spec{"SHMEM_INFO", "", "any value: PE 0 prints this table at shmem_init"},
    Spec{"SHMEM_VERSION", "", "any value: PE 0 prints the library version at shmem_init"},
    Spec{"SMA_SYMMETRIC_SIZE", "", "deprecated name of SHMEM_SYMMETRIC_SIZE (SHMEM_ wins)"},
    Spec{"SMA_DEBUG", "", "deprecated name of SHMEM_DEBUG"},
    Spec{"SMA_INFO", "", "deprecated name of SHMEM_INFO"},
    Spec{"SMA_VERSION", "", "deprecated name of SHMEM_VERSION"},
    Spec{"GASKET_NODE_FASTPATH", "on",
         "on|off: load/store directly to PEs on this node; off sends all remote RMA through MPI as on a cluster"},
    Spec{"GASKET_SHARED_DATA", "on",
         "on|off: move global/static data onto shared memory at init so node peers reach it directly"},
};

po::options_description make_description() {
    po::options_description desc("Gasket environment");
    for (const Spec& s : kTable) desc.add_options()(s.name, po::value<std::string>(), s.help);
    return desc;
}

bool parse_switch(const std::string& text, bool& out) {
    std::string t = text;
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (t == "1" || t == "on" || t == "yes" || t == "true") return out = true, true;
    if (t == "0" || t == "off" || t == "no" || t == "false") return out = false, true;
    return false;
}

std::string value_of(const po::variables_map& vm, const char* name) {
    return vm.count(name) ? vm[name].as<std::string>() : std::string();
}

po::variables_map read_environment() {
    auto desc = make_description();
    po::variables_map vm;
    po::store(po::parse_environment(desc,
                                    [](const std::string& var) -> std::string {
                                        for (const Spec& s : kTable)
                                            if (var == s.name) return var;
                                        return "";
                                    }),
              vm);
    po::notify(vm);
    return vm;
}

}  // namespace

bool load_config(Config& out, std::string& error) {
    po::variables_map vm;
    try {
        vm = read_environment();
    } catch (const po::error& e) {
        error = std::string("bad environment: ") + e.what();
        return false;
    }
    auto either = [&](const char* spec_name, const char* sma_name) {
        return vm.count(spec_name) ? vm[spec_name].as<std::string>() : value_of(vm, sma_name);
    };
    auto is_set = [&](const char* spec_name, const char* sma_name) {
        return vm.count(spec_name) > 0 || vm.count(sma_name) > 0;
    };
    const char* size_var = vm.count("SHMEM_SYMMETRIC_SIZE") ? "SHMEM_SYMMETRIC_SIZE" : "SMA_SYMMETRIC_SIZE";
    std::string size_text = either("SHMEM_SYMMETRIC_SIZE", "SMA_SYMMETRIC_SIZE");
    if (size_text.empty()) {
        size_text = kTable[0].default_value;
        size_var = "SHMEM_SYMMETRIC_SIZE";
    }
    auto size = parse_size(size_text);
    if (!size) {
        error = std::string(size_var) + "='" + size_text + "' is not a size (expected e.g. 512M, 1.5G, 65536)";
        return false;
    }
    out.symmetric_size = *size;
    out.debug = is_set("SHMEM_DEBUG", "SMA_DEBUG");
    out.info = is_set("SHMEM_INFO", "SMA_INFO");
    out.version = is_set("SHMEM_VERSION", "SMA_VERSION");
    for (auto [name, field] : {std::pair{"GASKET_NODE_FASTPATH", &out.node_fastpath},
                               std::pair{"GASKET_SHARED_DATA", &out.shared_data}}) {
        std::string text = value_of(vm, name);
        if (!text.empty() && !parse_switch(text, *field)) {
            error = std::string(name) + "='" + text + "' is not on|off|1|0|yes|no|true|false";
            return false;
        }
    }
    return true;
}

std::vector<OptionRow> describe(const Config& cfg) {
    po::variables_map vm;
    try {
        vm = read_environment();
    } catch (const po::error&) {
    }
    std::vector<OptionRow> rows;
    for (const Spec& s : kTable) {
        std::string value = value_of(vm, s.name);
        if (value.empty()) value = s.default_value[0] ? s.default_value : "(unset)";
        rows.push_back({s.name, value, s.default_value[0] ? s.default_value : "(unset)", s.help});
    }
    // The values in force, as parsed.
    rows.push_back({"(in force) symmetric heap bytes", std::to_string(cfg.symmetric_size), "", ""});
    rows.push_back({"(in force) node fast path", cfg.node_fastpath ? "on" : "off", "", ""});
    rows.push_back({"(in force) shared global data", cfg.shared_data ? "on" : "off", "", ""});
    return rows;
}

std::string format_table(const std::vector<OptionRow>& rows) {
    std::ostringstream out;
    for (const OptionRow& r : rows) {
        char line[512];
        if (r.help.empty())
            std::snprintf(line, sizeof line, "  %-32s %s\n", r.name.c_str(), r.value.c_str());
        else
            std::snprintf(line, sizeof line, "  %-22s = %-10s (default %s)\n      %s\n", r.name.c_str(), r.value.c_str(),
                          r.default_value.c_str(), r.help.c_str());
        out << line;
    }
    return out.str();
}

}  // namespace gasket::rt
