// tools/profiler/report.cpp -- the bundled profiler's output: each PE's data
// as JSON, gathered to PE 0 at the last shmem_finalize through upcalls
// (shmem_malloc'd staging buffer, shmem_getmem, shmem_barrier_all: they
// raise no events, GASP's recursion rule), then PE 0's summary table
// (stderr), PREFIX.summary.json and PREFIX.trace.json (Chrome trace events).
#include <gasp_shmem.h>
#include <shmem.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "profiler.hpp"

namespace gasket::profiler {

using nlohmann::json;

namespace {

constexpr std::size_t kChunk = std::size_t(1) << 20;  // staging buffer for the gather

std::string category(unsigned tag) {
    if (tag >= GASP_SHMEM_USEREVT_START && tag <= GASP_SHMEM_USEREVT_END) return "user";
    return (tag >> 16) == 0x4753u ? "gasnet" : "shmem";
}

std::string hostname() {
    char buf[256] = {};
    ::gethostname(buf, sizeof buf - 1);
    return buf;
}

// This PE's data (under s.lock).  Trace records are arrays: [name, cat,
// phase, thread, ts_ns, dur_ns, bytes, peer].
json pe_data(State& s, const std::vector<Open>& open) {
    std::lock_guard lock(s.lock);
    json events = json::array();
    for (const auto& [tag, st] : s.stats)
        events.push_back({{"name", event_name(s, tag)},
                          {"count", st.count},
                          {"bytes", st.bytes},
                          {"total_ns", st.total_ns},
                          {"min_ns", st.min_ns},
                          {"max_ns", st.max_ns}});
    json matrix = json::array();
    for (const auto& [peer, c] : s.matrix) matrix.push_back({peer, c.ops, c.bytes});
    json trace = json::array();
    for (const Record& r : s.trace)
        trace.push_back({event_name(s, r.tag), category(r.tag), std::string(1, r.phase), r.thread, r.ts_ns, r.dur_ns,
                         r.bytes, r.peer});
    const std::uint64_t now = now_ns();
    // The writing thread's open spans (the FINALIZE that is writing, a user
    // phase around it): 'B' with no 'E'.
    for (const Open& o : open)
        if (o.measured || o.tag == GASP_SHMEM_FINALIZE)
            trace.push_back({event_name(s, o.tag), category(o.tag), "B", 0, o.ts_ns, 0, o.bytes, o.peer});
    return {{"pe", s.my_pe},
            {"host", hostname()},
            {"program", s.program},
            {"n_pes", s.n_pes},
            {"init_ns", s.init_ns},
            {"end_ns", now},
            {"threads", s.threads},
            {"events", events},
            {"matrix", matrix},
            {"trace_seen", s.trace_seen},
            {"trace_stride", s.trace_stride},
            {"trace", trace}};
}

// The summary: per PE, per operation over all PEs (by total time), the
// communication matrix (rows: initiating PE, columns: target PE).
json summary(const std::vector<json>& pes, int n_pes, const State& s, const std::string& scope) {
    std::map<std::string, Stat> ops;
    std::uint64_t app_ns = 0;
    json per_pe = json::array();
    std::vector<std::vector<std::uint64_t>> bytes(n_pes, std::vector<std::uint64_t>(n_pes, 0));
    std::vector<std::vector<std::uint64_t>> count(n_pes, std::vector<std::uint64_t>(n_pes, 0));
    for (const json& p : pes) {
        const std::uint64_t app = p["end_ns"].get<std::uint64_t>() - p["init_ns"].get<std::uint64_t>();
        app_ns += app;
        for (const json& e : p["events"]) {
            Stat& st = ops[e["name"].get<std::string>()];
            st.count += e["count"].get<std::uint64_t>();
            st.bytes += e["bytes"].get<std::uint64_t>();
            st.total_ns += e["total_ns"].get<std::uint64_t>();
            st.min_ns = std::min(st.min_ns, e["min_ns"].get<std::uint64_t>());
            st.max_ns = std::max(st.max_ns, e["max_ns"].get<std::uint64_t>());
        }
        const int pe = p["pe"].get<int>();
        for (const json& m : p["matrix"]) {
            const int peer = m[0].get<int>();
            if (pe < n_pes && peer >= 0 && peer < n_pes) {
                count[pe][peer] += m[1].get<std::uint64_t>();
                bytes[pe][peer] += m[2].get<std::uint64_t>();
            }
        }
        per_pe.push_back(
            {{"pe", pe},
             {"host", p["host"]},
             {"app_ns", app},
             {"threads", p["threads"]},
             {"events", p["events"]},
             {"trace", {{"seen", p["trace_seen"]}, {"kept", p["trace"].size()}, {"stride", p["trace_stride"]}}}});
    }
    std::vector<std::pair<std::string, Stat>> sorted(ops.begin(), ops.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second.total_ns > b.second.total_ns; });
    json operations = json::array();
    for (const auto& [name, st] : sorted)
        operations.push_back({{"name", name},
                              {"count", st.count},
                              {"bytes", st.bytes},
                              {"total_ns", st.total_ns},
                              {"min_ns", st.min_ns},
                              {"max_ns", st.max_ns},
                              {"mean_ns", st.count ? st.total_ns / st.count : 0},
                              {"app_percent", app_ns ? 100.0 * double(st.total_ns) / double(app_ns) : 0.0}});
    return {{"format", "gasket-profile-summary"},
            {"version", 1},
            {"scope", scope},
            {"program", s.program},
            {"n_pes", n_pes},
            {"app_ns", app_ns},
            {"trace_max_per_pe", s.trace_max},
            {"inst_only", s.only.empty() ? json(nullptr) : json(s.only.size())},
            {"operations", operations},
            {"pes", per_pe},
            {"matrix", {{"rows", "initiating PE"}, {"columns", "target PE"}, {"bytes", bytes}, {"ops", count}}}};
}

// Chrome trace-event format (Perfetto, chrome://tracing): one process per PE.
json chrome_trace(const std::vector<json>& pes, const State& s) {
    std::uint64_t origin = UINT64_MAX;
    for (const json& p : pes) origin = std::min(origin, p["init_ns"].get<std::uint64_t>());
    json events = json::array();
    for (const json& p : pes) {
        const int pe = p["pe"].get<int>();
        events.push_back(
            {{"name", "process_name"},
             {"ph", "M"},
             {"pid", pe},
             {"args", {{"name", "PE " + std::to_string(pe) + " (" + p["host"].get<std::string>() + ")"}}}});
        events.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", pe}, {"args", {{"sort_index", pe}}}});
        for (const json& r : p["trace"]) {
            const std::string phase = r[2].get<std::string>();
            const std::uint64_t ts = r[4].get<std::uint64_t>();
            json e = {{"name", r[0]}, {"cat", r[1]}, {"ph", phase},
                      {"pid", pe},    {"tid", r[3]}, {"ts", double(ts >= origin ? ts - origin : 0) / 1000.0}};
            if (phase == "X") e["dur"] = double(r[5].get<std::uint64_t>()) / 1000.0;
            if (phase == "i") e["s"] = "t";
            json args = {{"bytes", r[6]}};
            if (r[7].get<int>() >= 0) args["peer"] = r[7];
            e["args"] = args;
            events.push_back(std::move(e));
        }
    }
    return {{"traceEvents", events},
            {"displayTimeUnit", "ns"},
            {"otherData", {{"program", s.program}, {"trace_max_per_pe", s.trace_max}}}};
}

bool write_file(const State& s, const std::string& path, const json& j) {
    std::ofstream out(path, std::ios::trunc);
    if (out) out << j.dump() << '\n';
    if (out.flush()) return true;
    std::fprintf(stderr, "gasket-profile: PE %d: GASKET_PROFILE=%s: cannot write %s: %s\n", s.my_pe, s.setting.c_str(),
                 path.c_str(), std::strerror(errno));
    return false;
}

void print_table(const json& sum, const std::string& files) {
    std::fprintf(stderr, "gasket-profile: %s, %d PEs, %.6f s in the program per PE (mean); %s\n",
                 sum["program"].get<std::string>().c_str(), sum["n_pes"].get<int>(),
                 double(sum["app_ns"].get<std::uint64_t>()) / 1e9 / std::max(1, int(sum["pes"].size())), files.c_str());
    std::fprintf(stderr, "gasket-profile: top operations by time (all PEs; app%% = share of the PEs' time)\n");
    std::fprintf(stderr, "gasket-profile: %-28s %10s %14s %12s %7s %10s %10s %10s\n", "operation", "calls", "bytes",
                 "total ms", "app%", "mean us", "min us", "max us");
    int shown = 0;
    for (const json& op : sum["operations"]) {
        if (++shown > 20) break;
        std::fprintf(stderr, "gasket-profile: %-28s %10llu %14llu %12.3f %7.2f %10.3f %10.3f %10.3f\n",
                     op["name"].get<std::string>().c_str(), (unsigned long long)op["count"].get<std::uint64_t>(),
                     (unsigned long long)op["bytes"].get<std::uint64_t>(),
                     double(op["total_ns"].get<std::uint64_t>()) / 1e6, op["app_percent"].get<double>(),
                     double(op["mean_ns"].get<std::uint64_t>()) / 1e3, double(op["min_ns"].get<std::uint64_t>()) / 1e3,
                     double(op["max_ns"].get<std::uint64_t>()) / 1e3);
    }
}

void write_outputs(const State& s, const std::vector<json>& pes, int n_pes, const std::string& prefix,
                   const std::string& scope, bool table) {
    const json sum = summary(pes, n_pes, s, scope);
    const std::string summary_path = prefix + ".summary.json", trace_path = prefix + ".trace.json";
    const bool ok = write_file(s, summary_path, sum) && write_file(s, trace_path, chrome_trace(pes, s));
    if (table && ok) print_table(sum, summary_path + ", " + trace_path);
}

// Every PE's JSON text to PE 0, through a symmetric staging buffer of
// kChunk bytes, in as many rounds as the longest text needs.  Collective.
// Returns false (on every PE) when the symmetric heap has no room for it.
bool gather(const std::string& mine, std::vector<std::string>& all) {
    const int me = shmem_my_pe(), n = shmem_n_pes();
    auto* lens = static_cast<long*>(shmem_malloc(2 * sizeof(long)));
    char* buf = static_cast<char*>(shmem_malloc(kChunk));
    if (!lens || !buf) {  // symmetric allocations fail alike on every PE
        shmem_free(buf);
        shmem_free(lens);
        return false;
    }
    lens[0] = long(mine.size());
    shmem_barrier_all();
    long rounds = 0;
    if (me == 0) {
        all.assign(n, std::string());
        all[0] = mine;
        for (int pe = 1; pe < n; ++pe) {
            long len = 0;
            shmem_getmem(&len, &lens[0], sizeof len, pe);
            all[pe].resize(std::size_t(len));
            rounds = std::max(rounds, long((std::size_t(len) + kChunk - 1) / kChunk));
        }
        for (int pe = 1; pe < n; ++pe) shmem_putmem(&lens[1], &rounds, sizeof rounds, pe);
    }
    shmem_barrier_all();
    if (me != 0) rounds = lens[1];
    for (long r = 0; r < rounds; ++r) {
        const std::size_t at = std::size_t(r) * kChunk;
        if (me != 0 && at < mine.size()) std::memcpy(buf, mine.data() + at, std::min(kChunk, mine.size() - at));
        shmem_barrier_all();
        if (me == 0)
            for (int pe = 1; pe < n; ++pe)
                if (at < all[pe].size()) shmem_getmem(&all[pe][at], buf, std::min(kChunk, all[pe].size() - at), pe);
        shmem_barrier_all();
    }
    shmem_free(buf);
    shmem_free(lens);
    return true;
}

}  // namespace

void finish_job(const std::vector<Open>& open) {
    State& s = state();
    const std::string mine = pe_data(s, open).dump();
    std::vector<std::string> all;
    if (!gather(mine, all)) {
        if (s.my_pe == 0)
            std::fprintf(stderr,
                         "gasket-profile: the symmetric heap has no room to gather the profile (%zu bytes); each PE "
                         "writes its own %s.pe<N>.* (raise SHMEM_SYMMETRIC_SIZE)\n",
                         kChunk, s.prefix.c_str());
        write_local(open, "the gather failed");
    } else if (s.my_pe == 0) {
        std::vector<json> pes;
        for (const std::string& text : all) pes.push_back(json::parse(text));
        write_outputs(s, pes, shmem_n_pes(), s.prefix, "job", true);
    }
    std::lock_guard lock(s.lock);
    s.written = true;
}

void write_local(const std::vector<Open>& open, const char* why) {
    State& s = state();
    const std::vector<json> pes{pe_data(s, open)};
    const std::string prefix = s.prefix + ".pe" + std::to_string(s.my_pe);
    write_outputs(s, pes, s.n_pes, prefix, std::string("pe (") + why + ")", false);
}

}  // namespace gasket::profiler
