// src/runtime/config.cpp -- the option table and its parsing.
#include "config.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
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
    Spec{"GASKET_PROGRESS_THREAD", "auto",
         "on|off|auto: a thread that serves Active Messages while the program computes; auto = on when MPI "
         "provides MPI_THREAD_MULTIPLE"},
    Spec{"GASNET_MAX_SEGSIZE", "",
         "largest GASNet segment per node (size with optional K/M/G/T suffix); caps gasnet_getMaxLocalSegmentSize"},
    Spec{"GASKET_EXIT_TIMEOUT", "2",
         "seconds gasnet_exit waits for every node to call it before ending the job with MPI_Abort; on the MPICH "
         "family, seconds MPI_Finalize may take at exit before the process ends with its status"},
    Spec{"GASKET_CTX_WINDOWS", "4",
         "0..64: MPI window pairs opened at shmem_init for OpenSHMEM contexts; a context takes a free pair (its own "
         "flushes and MPI locks), or shares the default context's windows when none is free"},
    Spec{"GASKET_NBI_BATCH", "auto",
         "on|off|auto: non-blocking puts of up to 1 KiB that a context or GASNet thread sends one PE through MPI "
         "leave up to 256 at a time in one MPI_Put with an indexed target datatype; auto = on for the MPICH family "
         "(where an MPI call costs most), off for Open MPI (where it saves nothing)"},
    Spec{"GASKET_GASP_TOOL", "",
         "path of a GASP tool library (gasp_init, gasp_event_notify[VA], gasp_control, gasp_create_event) loaded "
         "with dlopen at shmem_init / gasnet_attach; empty: a tool linked into the program, or none"},
    Spec{"GASKET_PROFILE", "",
         "attach the bundled profiler (libgasket-profile.so, when GASKET_GASP_TOOL is unset) and write its files "
         "with this prefix (a directory: DIR/gasket-profile; on|1: ./gasket-profile); docs/profiler.md"},
    Spec{"GASKET_PROFILE_TRACE_MAX", "100000",
         "bundled profiler: trace events kept per PE, sampled evenly beyond it (0: no trace); read by the profiler"},
    Spec{"GASKET_INST_ONLY", "",
         "bundled profiler: file of gasp_shmem.h event names to measure (oshcc --inst-only); read by the profiler"},
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

bool parse_tristate(const std::string& text, Tristate& out) {
    std::string t = text;
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    bool on = false;
    if (t == "auto")
        out = Tristate::automatic;
    else if (parse_switch(text, on))
        out = on ? Tristate::on : Tristate::off;
    else
        return false;
    return true;
}

const char* tristate_name(Tristate t) { return t == Tristate::on ? "on" : t == Tristate::off ? "off" : "auto"; }

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
        out.symmetric_size_setting = std::string(size_var) + " unset: default " + size_text;
    } else {
        out.symmetric_size_setting = std::string(size_var) + "=" + size_text;
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
    for (auto [name, field] :
         {std::pair{"GASKET_PROGRESS_THREAD", &out.progress_thread}, std::pair{"GASKET_NBI_BATCH", &out.nbi_batch}}) {
        std::string text = value_of(vm, name);
        if (!text.empty() && !parse_tristate(text, *field)) {
            error = std::string(name) + "='" + text + "' is not on|off|auto";
            return false;
        }
    }
    if (std::string text = value_of(vm, "GASNET_MAX_SEGSIZE"); !text.empty()) {
        auto cap = parse_size(text);
        if (cap)
            out.max_segsize = *cap;
        else
            out.max_segsize_problem =
                "GASNET_MAX_SEGSIZE='" + text + "' is not a size (expected e.g. 512M, 1.5G, 65536)";
    }
    if (std::string text = value_of(vm, "GASKET_EXIT_TIMEOUT"); !text.empty()) {
        char* end = nullptr;
        double seconds = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0' || !(seconds > 0) || seconds > 3600) {
            error = "GASKET_EXIT_TIMEOUT='" + text + "' is not a number of seconds in (0, 3600]";
            return false;
        }
        out.exit_timeout = seconds;
    }
    if (std::string text = value_of(vm, "GASKET_CTX_WINDOWS"); !text.empty()) {
        char* end = nullptr;
        const long n = std::strtol(text.c_str(), &end, 10);
        if (end == text.c_str() || *end != '\0' || n < 0 || n > 64) {
            error = "GASKET_CTX_WINDOWS='" + text + "' is not a number of window pairs in 0..64";
            return false;
        }
        out.ctx_windows = int(n);
    }
    out.gasp_tool = value_of(vm, "GASKET_GASP_TOOL");
    out.profile = value_of(vm, "GASKET_PROFILE");
    for (auto [name, field] :
         {std::pair{"GASKET_NODE_FASTPATH", &out.node_fastpath}, std::pair{"GASKET_SHARED_DATA", &out.shared_data}}) {
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
    } catch (const po::error&) {}
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
    rows.push_back({"(in force) context window pairs", std::to_string(cfg.ctx_windows), "", ""});
    rows.push_back({"(in force) nbi put batches", tristate_name(cfg.nbi_batch), "", ""});
    rows.push_back({"(in force) progress thread", tristate_name(cfg.progress_thread), "", ""});
    return rows;
}

std::string format_table(const std::vector<OptionRow>& rows) {
    std::ostringstream out;
    for (const OptionRow& r : rows) {
        char line[512];
        if (r.help.empty())
            std::snprintf(line, sizeof line, "  %-32s %s\n", r.name.c_str(), r.value.c_str());
        else
            std::snprintf(line, sizeof line, "  %-22s = %-10s (default %s)\n      %s\n", r.name.c_str(),
                          r.value.c_str(), r.default_value.c_str(), r.help.c_str());
        out << line;
    }
    return out.str();
}

}  // namespace gasket::rt
