// tools/profiler/profiler.hpp -- the bundled GASP profiler's data (one per
// process, that is per PE) and the parts of it: recording (tool.cpp) and
// reporting (report.cpp).  docs/profiler.md says what it measures and writes.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace gasket::profiler {

// Per event kind on this PE: START..END spans (or ATOMIC instants, time 0).
struct Stat {
    std::uint64_t count = 0;
    std::uint64_t bytes = 0;
    std::uint64_t total_ns = 0;
    std::uint64_t min_ns = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t max_ns = 0;
    void add(std::uint64_t bytes_moved, std::uint64_t ns) {
        ++count;
        bytes += bytes_moved;
        total_ns += ns;
        if (ns < min_ns) min_ns = ns;
        if (ns > max_ns) max_ns = ns;
    }
};

// One row of this PE's communication matrix: operations it initiated that
// name `peer` as the target PE (puts and gets alike), and their bytes.
struct Cell {
    std::uint64_t ops = 0;
    std::uint64_t bytes = 0;
};

// A trace record: a complete span ('X') or an instant ('i').
struct Record {
    unsigned tag;
    char phase;
    unsigned thread;
    std::uint64_t ts_ns;   // CLOCK_REALTIME-based start (see now_ns)
    std::uint64_t dur_ns;  // 0 for instants
    std::uint64_t bytes;
    int peer;  // -1: none
};

// A span still open on the thread that writes the data (written as 'B').
struct Open {
    unsigned tag;
    std::uint64_t ts_ns;
    std::uint64_t bytes;
    int peer;
    bool measured;  // started while this thread's measurement was on
};

struct State {
    std::mutex lock;  // guards everything below
    int my_pe = 0;
    int n_pes = 1;
    std::string program;
    std::string prefix;       // GASKET_PROFILE, resolved (path prefix of the files)
    std::string setting;      // GASKET_PROFILE as given, for messages
    std::uint64_t trace_max;  // GASKET_PROFILE_TRACE_MAX
    std::uint64_t init_ns = 0;
    std::map<unsigned, Stat> stats;
    std::map<int, Cell> matrix;
    std::vector<Record> trace;
    std::uint64_t trace_seen = 0;    // records offered to the trace
    std::uint64_t trace_stride = 1;  // keep one record in trace_stride (sampling)
    unsigned threads = 0;
    std::map<unsigned, std::string> user_names;  // user event id -> name
    std::set<unsigned> only;                     // GASKET_INST_ONLY: the events measured (empty: all)
    bool written = false;                        // the job's files were written at finalize / exit
};

State& state();

// Nanoseconds on a clock shared by the PEs of a node (realtime, advanced by
// the monotonic clock so that spans never run backwards).
std::uint64_t now_ns();

// The name of an event: "shmem_put", "gasnet_am_request", a user event's
// name; `symbolic`: the gasp_shmem.h macro name (GASP_SHMEM_PUT), "" for
// user events and unknown tags.
std::string event_name(const State& s, unsigned tag);
std::string symbolic_name(unsigned tag);
// The tag of a gasp_shmem.h macro name, 0 if none.
unsigned tag_of(const std::string& symbolic);

// Writing (report.cpp).  `open`: the writing thread's open spans.
// finish_job: at the last shmem_finalize, collective (upcalls): every PE's
// data to PE 0, which prints the table and writes PREFIX.{summary,trace}.json.
void finish_job(const std::vector<Open>& open);
// write_local: this PE's data alone, PREFIX.pe<N>.{summary,trace}.json
// (shmem_pcontrol(2), gasnet_exit, a job that never finalized).
void write_local(const std::vector<Open>& open, const char* why);

}  // namespace gasket::profiler
