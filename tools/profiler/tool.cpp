// tools/profiler/tool.cpp -- the bundled profiler as an ordinary GASP tool:
// the five gasp_* functions, the settings it reads at gasp_init, and the
// recording of each event (a per-thread stack of open spans, per-PE
// statistics, the communication matrix, the sampled trace).
#include <gasp.h>
#include <gasp_shmem.h>
#include <shmem.h>
#include <unistd.h>

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "profiler.hpp"

namespace gasket::profiler {

namespace {

struct Named {
    unsigned tag;
    const char* symbolic;
};
#define GASKET_EVENT(NAME) \
    Named { NAME, #NAME }
constexpr Named kEvents[] = {
    GASKET_EVENT(GASP_SHMEM_INIT),
    GASKET_EVENT(GASP_SHMEM_FINALIZE),
    GASKET_EVENT(GASP_SHMEM_GLOBAL_EXIT),
    GASKET_EVENT(GASP_SHMEM_BARRIER_ALL),
    GASKET_EVENT(GASP_SHMEM_SYNC),
    GASKET_EVENT(GASP_SHMEM_BARRIER),
    GASKET_EVENT(GASP_SHMEM_FENCE),
    GASKET_EVENT(GASP_SHMEM_QUIET),
    GASKET_EVENT(GASP_SHMEM_PE_QUIET),
    GASKET_EVENT(GASP_SHMEM_MALLOC),
    GASKET_EVENT(GASP_SHMEM_REALLOC),
    GASKET_EVENT(GASP_SHMEM_FREE),
    GASKET_EVENT(GASP_SHMEM_SET_LOCK),
    GASKET_EVENT(GASP_SHMEM_TEST_LOCK),
    GASKET_EVENT(GASP_SHMEM_CLEAR_LOCK),
    GASKET_EVENT(GASP_SHMEM_PUT),
    GASKET_EVENT(GASP_SHMEM_GET),
    GASKET_EVENT(GASP_SHMEM_PUT_NBI_INIT),
    GASKET_EVENT(GASP_SHMEM_GET_NBI_INIT),
    GASKET_EVENT(GASP_SHMEM_AMO),
    GASKET_EVENT(GASP_SHMEM_PUT_SIGNAL),
    GASKET_EVENT(GASP_SHMEM_SIGNAL_UPDATE),
    GASKET_EVENT(GASP_SHMEM_SIGNAL_WAIT_UNTIL),
    GASKET_EVENT(GASP_SHMEM_WAIT_UNTIL),
    GASKET_EVENT(GASP_SHMEM_TEST),
    GASKET_EVENT(GASP_SHMEM_BROADCAST),
    GASKET_EVENT(GASP_SHMEM_COLLECT),
    GASKET_EVENT(GASP_SHMEM_FCOLLECT),
    GASKET_EVENT(GASP_SHMEM_ALLTOALL),
    GASKET_EVENT(GASP_SHMEM_ALLTOALLS),
    GASKET_EVENT(GASP_SHMEM_REDUCE),
    GASKET_EVENT(GASP_SHMEM_SCAN),
    GASKET_EVENT(GASP_SHMEM_TEAM_SPLIT),
    GASKET_EVENT(GASP_SHMEM_TEAM_DESTROY),
    GASKET_EVENT(GASP_SHMEM_CTX_CREATE),
    GASKET_EVENT(GASP_SHMEM_CTX_DESTROY),
    GASKET_EVENT(GASP_SHMEM_SESSION_START),
    GASKET_EVENT(GASP_SHMEM_SESSION_STOP),
    GASKET_EVENT(GASP_GASNET_EXIT),
    GASKET_EVENT(GASP_GASNET_BARRIER_NOTIFY),
    GASKET_EVENT(GASP_GASNET_BARRIER_WAIT),
    GASKET_EVENT(GASP_GASNET_BARRIER_TRY),
    GASKET_EVENT(GASP_GASNET_HSL_LOCK),
    GASKET_EVENT(GASP_GASNET_MEMSET),
    GASKET_EVENT(GASP_GASNET_NB_PUT_INIT),
    GASKET_EVENT(GASP_GASNET_NB_GET_INIT),
    GASKET_EVENT(GASP_GASNET_NB_SYNC),
    GASKET_EVENT(GASP_GASNET_AM_REQUEST),
    GASKET_EVENT(GASP_GASNET_AM_REPLY),
    GASKET_EVENT(GASP_GASNET_AM_HANDLER),
};
#undef GASKET_EVENT

constexpr std::uint64_t kDefaultTraceMax = 100000;

bool is_user_event(unsigned tag) { return tag >= GASP_SHMEM_USEREVT_START && tag <= GASP_SHMEM_USEREVT_END; }

// The bytes of one element of a gasp_shmem_typecode_t.
std::uint64_t type_size(int typecode) {
    switch (typecode) {
        case GASP_SHMEM_TYPE_INT8:
        case GASP_SHMEM_TYPE_UINT8: return 1;
        case GASP_SHMEM_TYPE_INT16:
        case GASP_SHMEM_TYPE_UINT16: return 2;
        case GASP_SHMEM_TYPE_INT32:
        case GASP_SHMEM_TYPE_UINT32:
        case GASP_SHMEM_TYPE_FLOAT: return 4;
        case GASP_SHMEM_TYPE_LONGDOUBLE: return sizeof(long double);
        default: return 8;
    }
}

// [[noreturn]]: a bad setting ends this PE (every PE reads the same
// environment, so every PE ends; the launcher ends the job) with a message
// naming the variable and its value.
[[noreturn]] void die(int pe, const char* fmt, ...) {
    std::va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "gasket-profile: PE %d: ", pe);
    std::vfprintf(stderr, fmt, ap);
    std::fputc('\n', stderr);
    va_end(ap);
    std::fflush(stderr);
    std::_Exit(1);
}

bool is_directory(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// GASKET_PROFILE: unset, empty or on|1|yes|true: ./gasket-profile; a
// directory (existing, or ending in '/'): DIR/gasket-profile; anything else
// is the prefix itself.  Its directory must exist and be writable.
void read_prefix(State& s) {
    const char* v = std::getenv("GASKET_PROFILE");
    s.setting = v ? v : "";
    std::string lower = s.setting;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (lower.empty() || lower == "on" || lower == "1" || lower == "yes" || lower == "true")
        s.prefix = "gasket-profile";
    else if (s.setting.back() == '/' || is_directory(s.setting))
        s.prefix = s.setting + (s.setting.back() == '/' ? "" : "/") + "gasket-profile";
    else
        s.prefix = s.setting;
    const std::size_t slash = s.prefix.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : s.prefix.substr(0, slash);
    if (!is_directory(dir))
        die(s.my_pe, "GASKET_PROFILE=%s: '%s' is not a directory (the profile is written to %s.*)", s.setting.c_str(),
            dir.c_str(), s.prefix.c_str());
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        die(s.my_pe, "GASKET_PROFILE=%s: cannot write in directory '%s': %s", s.setting.c_str(), dir.c_str(),
            std::strerror(errno));
    if (s.my_pe != 0) return;
    // PE 0 writes the job's files: try now rather than lose the data at the
    // end (access() says yes to root where a write still fails).
    const std::string probe = s.prefix + ".summary.json";
    const bool existed = ::access(probe.c_str(), F_OK) == 0;
    std::FILE* f = std::fopen(probe.c_str(), "a");
    if (!f)
        die(s.my_pe, "GASKET_PROFILE=%s: cannot create %s: %s", s.setting.c_str(), probe.c_str(), std::strerror(errno));
    std::fclose(f);
    if (!existed) ::unlink(probe.c_str());
}

void read_trace_max(State& s) {
    s.trace_max = kDefaultTraceMax;
    const char* v = std::getenv("GASKET_PROFILE_TRACE_MAX");
    if (!v || !*v) return;
    char* end = nullptr;
    errno = 0;
    const unsigned long long n = std::strtoull(v, &end, 10);
    if (end == v || *end != '\0' || errno != 0 || v[0] == '-')
        die(s.my_pe, "GASKET_PROFILE_TRACE_MAX=%s is not a number of trace events per PE (0: no trace)", v);
    s.trace_max = n;
}

// GASKET_INST_ONLY (oshcc --inst-only FILE): the gasp_shmem.h names of the
// events to measure, one a line; '#' starts a comment.  User events are
// always measured (GASP §3.1.3).
void read_filter(State& s) {
    const char* v = std::getenv("GASKET_INST_ONLY");
    if (!v || !*v) return;
    std::ifstream in(v);
    if (!in) die(s.my_pe, "GASKET_INST_ONLY=%s: cannot read the event list: %s", v, std::strerror(errno));
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        line = line.substr(0, line.find('#'));
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos) continue;
        const std::string name = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
        const unsigned tag = tag_of(name);
        if (!tag)
            die(s.my_pe, "GASKET_INST_ONLY=%s: line %d: '%s' is not an event of gasp_shmem.h (e.g. GASP_SHMEM_PUT)", v,
                number, name.c_str());
        s.only.insert(tag);
    }
    if (s.only.empty()) die(s.my_pe, "GASKET_INST_ONLY=%s: the file names no event", v);
}

struct Thread {
    std::vector<Open> stack;
    bool measuring = true;
    unsigned index = ~0u;
};
thread_local Thread t_thread;

unsigned thread_index(State& s) {
    if (t_thread.index == ~0u) t_thread.index = s.threads++;  // under s.lock
    return t_thread.index;
}

bool wanted(const State& s, unsigned tag) { return is_user_event(tag) || s.only.empty() || s.only.count(tag); }

// The bytes and the target PE of an event, from its arguments
// (gasp_shmem.h); -1: no target (collectives, local operations).
void arguments(unsigned tag, va_list ap, std::uint64_t& bytes, int& peer) {
    switch (tag) {
        case GASP_SHMEM_PUT:
        case GASP_SHMEM_GET:
        case GASP_SHMEM_PUT_NBI_INIT:
        case GASP_SHMEM_GET_NBI_INIT:
        case GASP_SHMEM_PUT_SIGNAL:
        case GASP_GASNET_NB_PUT_INIT:
        case GASP_GASNET_NB_GET_INIT:
            va_arg(ap, void*);
            peer = va_arg(ap, int);
            va_arg(ap, void*);
            va_arg(ap, const void*);
            bytes = va_arg(ap, size_t) + (tag == GASP_SHMEM_PUT_SIGNAL ? sizeof(std::uint64_t) : 0);
            return;
        case GASP_SHMEM_AMO: {
            va_arg(ap, void*);
            va_arg(ap, int);
            bytes = type_size(va_arg(ap, int));
            va_arg(ap, void*);
            peer = va_arg(ap, int);
            return;
        }
        case GASP_SHMEM_SIGNAL_UPDATE:
            va_arg(ap, void*);
            va_arg(ap, std::uint64_t*);
            va_arg(ap, std::uint64_t);
            va_arg(ap, int);
            peer = va_arg(ap, int);
            bytes = sizeof(std::uint64_t);
            return;
        case GASP_SHMEM_BROADCAST:
        case GASP_SHMEM_COLLECT:
        case GASP_SHMEM_FCOLLECT:
        case GASP_SHMEM_ALLTOALL:
        case GASP_SHMEM_ALLTOALLS:
            va_arg(ap, void*);
            va_arg(ap, void*);
            va_arg(ap, const void*);
            bytes = va_arg(ap, size_t);
            return;
        case GASP_SHMEM_REDUCE:
        case GASP_SHMEM_SCAN: {
            va_arg(ap, void*);
            va_arg(ap, void*);
            va_arg(ap, const void*);
            const std::uint64_t n = va_arg(ap, size_t);
            va_arg(ap, int);
            bytes = n * type_size(va_arg(ap, int));
            return;
        }
        case GASP_SHMEM_MALLOC: bytes = va_arg(ap, size_t); return;
        case GASP_SHMEM_REALLOC:
            va_arg(ap, void*);
            bytes = va_arg(ap, size_t);
            return;
        case GASP_GASNET_MEMSET:
            peer = va_arg(ap, int);
            va_arg(ap, void*);
            va_arg(ap, int);
            bytes = va_arg(ap, size_t);
            return;
        case GASP_GASNET_AM_REQUEST:
        case GASP_GASNET_AM_REPLY:
        case GASP_GASNET_AM_HANDLER: {
            va_arg(ap, int);
            va_arg(ap, int);
            const int node = va_arg(ap, int);
            bytes = va_arg(ap, size_t);
            if (tag != GASP_GASNET_AM_HANDLER) peer = node;  // a handler's peer is the sender
            return;
        }
        default: return;
    }
}

void record(State& s, unsigned tag, char phase, std::uint64_t ts, std::uint64_t dur, std::uint64_t bytes, int peer) {
    std::lock_guard lock(s.lock);
    s.stats[tag].add(bytes, dur);
    if (peer >= 0) {
        Cell& c = s.matrix[peer];
        ++c.ops;
        c.bytes += bytes;
    }
    const std::uint64_t seen = s.trace_seen++;
    if (s.trace_max == 0 || seen % s.trace_stride != 0) return;
    s.trace.push_back(Record{tag, phase, thread_index(s), ts, dur, bytes, peer});
    if (s.trace.size() <= s.trace_max) return;
    // Full: keep every other record and halve the rate from now on, so the
    // trace stays an even sample of the whole run within the cap.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < s.trace.size(); i += 2) s.trace[kept++] = s.trace[i];
    s.trace.resize(kept);
    s.trace_stride *= 2;
}

void handle(unsigned tag, gasp_evttype_t type, va_list ap) {
    State& s = state();
    Thread& t = t_thread;
    if (type == GASP_START) {
        Open o{tag, now_ns(), 0, -1, t.measuring && wanted(s, tag)};
        int is_last = 0;
        if (tag == GASP_SHMEM_FINALIZE)
            is_last = va_arg(ap, int);
        else if (o.measured)
            arguments(tag, ap, o.bytes, o.peer);
        t.stack.push_back(o);
        if (is_last) finish_job(t.stack);
        return;
    }
    if (type == GASP_END) {
        // The innermost open span of this kind (spans nest per thread);
        // spans opened inside it and never ended are dropped.
        auto it = std::find_if(t.stack.rbegin(), t.stack.rend(), [tag](const Open& o) { return o.tag == tag; });
        if (it == t.stack.rend()) return;
        const Open o = *it;
        t.stack.erase(std::prev(it.base()), t.stack.end());
        if (o.measured) record(s, tag, 'X', o.ts_ns, now_ns() - o.ts_ns, o.bytes, o.peer);
        return;
    }
    if (tag == GASP_GASNET_EXIT) {
        write_local(t.stack, "gasnet_exit");
        std::lock_guard lock(s.lock);
        s.written = true;
        return;
    }
    if (!t.measuring || !wanted(s, tag)) return;
    std::uint64_t bytes = 0;
    int peer = -1;
    arguments(tag, ap, bytes, peer);
    record(s, tag, 'i', now_ns(), 0, bytes, peer);
}

// A job that never called shmem_finalize (nor gasnet_exit): this PE's data.
void at_exit() {
    State& s = state();
    {
        std::lock_guard lock(s.lock);
        if (s.written) return;
    }
    write_local({}, "exit without shmem_finalize");
}

}  // namespace

State& state() {
    static State s;
    return s;
}

std::uint64_t now_ns() {
    static const auto origin = [] {
        timespec r{}, m{};
        clock_gettime(CLOCK_REALTIME, &r);
        clock_gettime(CLOCK_MONOTONIC, &m);
        return std::pair{std::uint64_t(r.tv_sec) * 1000000000u + std::uint64_t(r.tv_nsec),
                         std::uint64_t(m.tv_sec) * 1000000000u + std::uint64_t(m.tv_nsec)};
    }();
    timespec m{};
    clock_gettime(CLOCK_MONOTONIC, &m);
    return origin.first + (std::uint64_t(m.tv_sec) * 1000000000u + std::uint64_t(m.tv_nsec) - origin.second);
}

std::string symbolic_name(unsigned tag) {
    for (const Named& e : kEvents)
        if (e.tag == tag) return e.symbolic;
    return "";
}

unsigned tag_of(const std::string& symbolic) {
    for (const Named& e : kEvents)
        if (symbolic == e.symbolic) return e.tag;
    return 0;
}

std::string event_name(const State& s, unsigned tag) {
    if (auto it = s.user_names.find(tag); it != s.user_names.end()) return it->second;
    std::string name = symbolic_name(tag);
    if (name.empty()) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "event_0x%08x", tag);
        return buf;
    }
    name = name.substr(5);  // without "GASP_"
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return name;
}

}  // namespace gasket::profiler

using namespace gasket::profiler;

struct _gasp_context_S {
    int unused;
};
static _gasp_context_S g_context;

extern "C" {

gasp_context_t gasp_init(gasp_model_t, int* argc, char*** argv) noexcept {
    State& s = state();
    s.my_pe = shmem_my_pe();
    s.n_pes = shmem_n_pes();
    if (argc && argv && *argc > 0 && (*argv)[0]) {
        s.program = (*argv)[0];
        if (auto slash = s.program.rfind('/'); slash != std::string::npos) s.program.erase(0, slash + 1);
    }
    read_prefix(s);
    read_trace_max(s);
    read_filter(s);
    s.init_ns = now_ns();
    std::atexit(at_exit);
    return &g_context;
}

void gasp_event_notifyVA(gasp_context_t, unsigned int evttag, gasp_evttype_t evttype, const char*, int, int,
                         va_list varargs) noexcept {
    handle(evttag, evttype, varargs);
}

void gasp_event_notify(gasp_context_t, unsigned int evttag, gasp_evttype_t evttype, const char*, int, int colnum,
                       ...) noexcept {
    va_list ap;
    va_start(ap, colnum);
    handle(evttag, evttype, ap);
    va_end(ap);
}

int gasp_control(gasp_context_t, int on) noexcept {
    const int was = t_thread.measuring ? 1 : 0;
    t_thread.measuring = on != 0;
    return was;
}

unsigned int gasp_create_event(gasp_context_t, const char* name, const char*) noexcept {
    static std::atomic<unsigned> next{GASP_SHMEM_USEREVT_START};
    State& s = state();
    std::lock_guard lock(s.lock);
    // The same name gets the same id: the PEs' data merge by name.
    for (const auto& [id, known] : s.user_names)
        if (known == (name ? name : "")) return id;
    const unsigned id = next.fetch_add(1, std::memory_order_relaxed);
    s.user_names[id] = name ? name : "";
    return id;
}

// shmem_pcontrol(2): this PE's data so far to PREFIX.pe<N>.{summary,trace}.json
// (looked up by src/gasp/gasp.cpp; not a GASP function).
void gasket_profile_flush(void) noexcept { write_local(t_thread.stack, "shmem_pcontrol(2)"); }

}  // extern "C"
