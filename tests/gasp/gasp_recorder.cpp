// tests/gasp/gasp_recorder.cpp -- the GASP test tool (recorder.h): the five
// tool functions of gasp.h, recording every event with its arguments.
#include "recorder.h"

#include <gasnet.h>
#include <gasp.h>
#include <gasp_shmem.h>
#include <shmem.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

struct _gasp_context_S {
    int model;
};

namespace {

_gasp_context_S g_ctx{-1};
std::mutex g_lock;
std::vector<gasp_recorded_event> g_events;
std::map<unsigned, std::string> g_user_desc;  // user event id -> desc ("" for NULL)
std::atomic<int> g_inits{0}, g_unknown{0}, g_max_depth{0};
std::atomic<unsigned> g_next_user{GASP_SHMEM_USEREVT_START};
std::atomic<unsigned> g_upcall_tag{0};
std::atomic<long*> g_upcall_counter{nullptr};
std::thread::id g_main;
thread_local int t_depth = 0;
std::atomic<int> g_threads{0};
thread_local int t_thread = 0;  // this thread's number, 0 until it delivers an event
int thread_number() {
    if (!t_thread) t_thread = ++g_threads;
    return t_thread;
}
thread_local int t_control = 1;

// The argument list of (tag, type), one letter each: i int, l long, z size_t,
// d ptrdiff_t, u uint64_t, p pointer; nullptr when the pair is unknown.
const char* signature(unsigned tag, int type) {
    const bool end = type == GASP_END;
    switch (tag) {
        case GASP_SHMEM_INIT: return end ? "ii" : nullptr;
        case GASP_SHMEM_FINALIZE: return type == GASP_ATOMIC ? nullptr : "i";
        case GASP_SHMEM_GLOBAL_EXIT: return type == GASP_ATOMIC ? "i" : nullptr;
        case GASP_SHMEM_BARRIER_ALL:
        case GASP_SHMEM_SYNC:
        case GASP_SHMEM_FENCE:
        case GASP_SHMEM_QUIET:
        case GASP_SHMEM_FREE: return type == GASP_ATOMIC ? nullptr : "p";
        case GASP_SHMEM_BARRIER: return type == GASP_ATOMIC ? nullptr : "iii";
        case GASP_SHMEM_PE_QUIET: return type == GASP_ATOMIC ? nullptr : "ppz";
        case GASP_SHMEM_MALLOC: return type == GASP_ATOMIC ? nullptr : end ? "zzlp" : "zzl";
        case GASP_SHMEM_REALLOC: return type == GASP_ATOMIC ? nullptr : end ? "pzp" : "pz";
        case GASP_SHMEM_PUT:
        case GASP_SHMEM_GET: return type == GASP_ATOMIC ? nullptr : "pippzddz";
        case GASP_SHMEM_PUT_NBI_INIT:
        case GASP_SHMEM_GET_NBI_INIT:
        case GASP_GASNET_NB_PUT_INIT:
        case GASP_GASNET_NB_GET_INIT: return type == GASP_ATOMIC ? nullptr : end ? "pippzddzp" : "pippzddz";
        case GASP_SHMEM_AMO: return "piipiii";
        case GASP_SHMEM_SET_LOCK:
        case GASP_SHMEM_CLEAR_LOCK:
        case GASP_SHMEM_TEAM_DESTROY: return type == GASP_ATOMIC ? nullptr : "p";
        case GASP_SHMEM_TEST_LOCK: return type == GASP_ATOMIC ? nullptr : end ? "pi" : "p";
        case GASP_SHMEM_PUT_SIGNAL: return type == GASP_ATOMIC ? nullptr : "pippzddzpui";
        case GASP_SHMEM_SIGNAL_UPDATE: return type == GASP_ATOMIC ? "ppuii" : nullptr;
        case GASP_SHMEM_SIGNAL_WAIT_UNTIL: return type == GASP_ATOMIC ? nullptr : "piu";
        case GASP_SHMEM_SIGNAL_FETCH: return type == GASP_ATOMIC ? "pu" : nullptr;
        case GASP_SHMEM_WAIT_UNTIL: return type == GASP_ATOMIC ? nullptr : "pziii";
        case GASP_SHMEM_TEST: return type == GASP_ATOMIC ? "pziiiz" : nullptr;
        case GASP_SHMEM_BROADCAST: return type == GASP_ATOMIC ? nullptr : "pppzi";
        case GASP_SHMEM_COLLECT:
        case GASP_SHMEM_FCOLLECT:
        case GASP_SHMEM_ALLTOALL: return type == GASP_ATOMIC ? nullptr : "pppz";
        case GASP_SHMEM_ALLTOALLS: return type == GASP_ATOMIC ? nullptr : "pppzdd";
        case GASP_SHMEM_REDUCE: return type == GASP_ATOMIC ? nullptr : "pppzii";
        case GASP_SHMEM_SCAN: return type == GASP_ATOMIC ? nullptr : "pppziii";
        case GASP_SHMEM_TEAM_SPLIT: return type == GASP_ATOMIC ? nullptr : end ? "ppp" : "p";
        case GASP_SHMEM_CTX_CREATE: return type == GASP_ATOMIC ? "plp" : nullptr;
        case GASP_SHMEM_CTX_DESTROY:
        case GASP_SHMEM_SESSION_STOP: return type == GASP_ATOMIC ? "p" : nullptr;
        case GASP_SHMEM_SESSION_START: return type == GASP_ATOMIC ? "pl" : nullptr;
        case GASP_GASNET_MEMSET: return type == GASP_ATOMIC ? nullptr : end ? "ipizp" : "ipiz";
        case GASP_GASNET_NB_SYNC: return type == GASP_ATOMIC ? nullptr : "pizi";
        case GASP_GASNET_EXIT: return type == GASP_ATOMIC ? "i" : nullptr;
        case GASP_GASNET_BARRIER_NOTIFY: return type == GASP_ATOMIC ? nullptr : "ii";
        case GASP_GASNET_BARRIER_WAIT:
        case GASP_GASNET_BARRIER_TRY: return type == GASP_ATOMIC ? nullptr : end ? "iii" : "ii";
        case GASP_GASNET_AM_REQUEST:
        case GASP_GASNET_AM_REPLY: return type == GASP_ATOMIC ? nullptr : "iiizi";
        case GASP_GASNET_AM_HANDLER: return type == GASP_ATOMIC ? nullptr : "iiizii";
        case GASP_GASNET_HSL_LOCK: return type == GASP_ATOMIC ? nullptr : "p";
        default: break;
    }
    return nullptr;
}

void record(gasp_context_t context, unsigned tag, int type, const char* filename, int linenum, int colnum, va_list ap) {
    gasp_recorded_event e{};
    e.tag = tag;
    e.type = type;
    e.main_thread = std::this_thread::get_id() == g_main;
    e.thread = thread_number();
    e.bad_context = context != &g_ctx;
    e.bad_position = filename != nullptr || linenum != 0 || colnum != 0;
    const char* sig = nullptr;
    std::string user;
    if (tag >= GASP_SHMEM_USEREVT_START && tag <= GASP_SHMEM_USEREVT_END) {
        std::lock_guard lock(g_lock);
        auto it = g_user_desc.find(tag);
        if (it != g_user_desc.end()) {
            // Only "%d" formats are used by the tests: one int per %d.
            for (std::size_t at = it->second.find("%d"); at != std::string::npos; at = it->second.find("%d", at + 2))
                user += 'i';
            sig = user.c_str();
        }
    } else {
        sig = signature(tag, type);
    }
    if (!sig) {
        ++g_unknown;
    } else {
        for (; *sig && e.nargs < 12; ++sig) {
            switch (*sig) {
                case 'i': e.args[e.nargs++] = uint64_t(int64_t(va_arg(ap, int))); break;
                case 'l': e.args[e.nargs++] = uint64_t(int64_t(va_arg(ap, long))); break;
                case 'z': e.args[e.nargs++] = uint64_t(va_arg(ap, size_t)); break;
                case 'd': e.args[e.nargs++] = uint64_t(int64_t(va_arg(ap, ptrdiff_t))); break;
                case 'u': e.args[e.nargs++] = va_arg(ap, uint64_t); break;
                case 'p': e.args[e.nargs++] = uint64_t(reinterpret_cast<uintptr_t>(va_arg(ap, void*))); break;
            }
        }
    }
    std::size_t handler_runs = 0, handler_ends = 0;
    {
        std::lock_guard lock(g_lock);
        g_events.push_back(e);
        for (const gasp_recorded_event& r : g_events) {
            handler_runs += r.tag == GASP_GASNET_AM_HANDLER && r.type == GASP_START;
            handler_ends += r.tag == GASP_GASNET_AM_HANDLER && r.type == GASP_END;
        }
    }
    // The node ends right after this one: say it was delivered, with the
    // handler runs (STARTs) and ENDs recorded before it (the
    // gasp_gasnet_follow and gasp_gasnet_exit_after_handler tests).
    if (tag == GASP_GASNET_EXIT && type == GASP_ATOMIC && e.nargs == 1) {
        std::fprintf(stderr,
                     "gasp_recorder: node %u: GASP_GASNET_EXIT ATOMIC status %d after %zu handler runs, %zu ended\n",
                     unsigned(gasnet_mynode()), int(e.args[0]), handler_runs, handler_ends);
        std::fflush(stderr);
    }
    // The job ends right after this one: say it was delivered (the
    // gasp_global_exit test matches the line).
    if (tag == GASP_SHMEM_GLOBAL_EXIT && type == GASP_ATOMIC && e.nargs == 1) {
        std::fprintf(stderr, "gasp_recorder: PE %d: GASP_SHMEM_GLOBAL_EXIT ATOMIC status %d\n", shmem_my_pe(),
                     int(e.args[0]));
        std::fflush(stderr);
    }
    // The upcall: OpenSHMEM routines that would raise events of their own.
    if (tag == g_upcall_tag.load() && type != GASP_END) {
        if (long* counter = g_upcall_counter.load()) {
            shmem_long_atomic_inc(counter, shmem_my_pe());
            shmem_quiet();
        }
    }
}

struct Depth {
    Depth() {
        ++t_depth;
        int seen = g_max_depth.load();
        while (t_depth > seen && !g_max_depth.compare_exchange_weak(seen, t_depth)) {}
    }
    ~Depth() { --t_depth; }
};

}  // namespace

extern "C" {

gasp_context_t gasp_init(gasp_model_t srcmodel, int* argc, char*** argv) noexcept {
    g_main = std::this_thread::get_id();
    g_ctx.model = srcmodel;
    ++g_inits;
    if (!argc || !argv || *argc < 1 || !(*argv)[0]) ++g_unknown;  // the program's arguments are passed
    return &g_ctx;
}

void gasp_event_notifyVA(gasp_context_t context, unsigned int evttag, gasp_evttype_t evttype, const char* filename,
                         int linenum, int colnum, va_list varargs) noexcept {
    Depth d;
    record(context, evttag, evttype, filename, linenum, colnum, varargs);
}

// As tools usually do, through the VA form (through the exported name: a
// tool loaded with GASKET_GASP_TOOL must reach its own definition, not
// libgasket's weak default).
void gasp_event_notify(gasp_context_t context, unsigned int evttag, gasp_evttype_t evttype, const char* filename,
                       int linenum, int colnum, ...) noexcept {
    va_list ap;
    va_start(ap, colnum);
    gasp_event_notifyVA(context, evttag, evttype, filename, linenum, colnum, ap);
    va_end(ap);
}

int gasp_control(gasp_context_t context, int on) noexcept {
    const int previous = t_control;
    t_control = on;
    gasp_recorded_event e{};
    e.tag = GASP_RECORDER_CONTROL;
    e.type = GASP_ATOMIC;
    e.main_thread = std::this_thread::get_id() == g_main;
    e.bad_context = context != &g_ctx;
    e.nargs = 2;
    e.args[0] = uint64_t(on);
    e.args[1] = uint64_t(previous);
    std::lock_guard lock(g_lock);
    g_events.push_back(e);
    return previous;
}

unsigned int gasp_create_event(gasp_context_t context, const char* name, const char* desc) noexcept {
    if (context != &g_ctx || !name) ++g_unknown;
    if (g_upcall_counter.load()) (void)shmem_n_pes();  // an upcall from here too
    const unsigned id = g_next_user++;
    std::lock_guard lock(g_lock);
    g_user_desc[id] = desc ? desc : "";
    return id;
}

size_t gasp_recorder_count(void) {
    std::lock_guard lock(g_lock);
    return g_events.size();
}
gasp_recorded_event gasp_recorder_event(size_t i) {
    std::lock_guard lock(g_lock);
    return g_events.at(i);
}
void gasp_recorder_clear(void) {
    std::lock_guard lock(g_lock);
    g_events.clear();
}
int gasp_recorder_inits(void) { return g_inits.load(); }
int gasp_recorder_model(void) { return g_ctx.model; }
int gasp_recorder_unknown(void) { return g_unknown.load(); }
void gasp_recorder_upcall(unsigned tag, long* counter) {
    g_upcall_counter.store(counter);
    g_upcall_tag.store(tag);
}
int gasp_recorder_max_depth(void) { return g_max_depth.load(); }

}  // extern "C"
