// src/gasp/gasp.cpp -- attaching a GASP tool and the cold paths of delivery.
#include "gasp.hpp"
#include "profiler_hook.hpp"

#include <dlfcn.h>

#include <fstream>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include "src/runtime/error.hpp"
#include "src/runtime/job.hpp"

namespace gasket::gasp {

// The context the weak default gasp_init (defaults.cpp) returns: seeing it
// means no tool defines gasp_init.
extern const char g_no_tool_ctx;

Tool g_tool;
std::atomic<bool> g_attached{false};
constinit thread_local bool t_in_tool = false;

namespace {

std::mutex g_start_lock;
bool g_started = false;
std::atomic<unsigned> g_next_user_event{GASP_SHMEM_USEREVT_START};
// The tool's optional gasket_profile_flush (the bundled profiler's), for
// shmem_pcontrol(2); null when the tool has none.
void (*g_flush)() = nullptr;

// The program's arguments (from /proc/self/cmdline), kept for the process's
// life: gasp_init may keep pointers into them.
struct Arguments {
    std::string text;
    std::vector<char*> argv;
    int argc = 0;
};
Arguments& arguments() {
    static Arguments a;
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    a.text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    for (std::size_t at = 0; at < a.text.size(); at = a.text.find('\0', at) + 1) {
        a.argv.push_back(&a.text[at]);
        if (a.text.find('\0', at) == std::string::npos) break;
    }
    a.argc = int(a.argv.size());
    a.argv.push_back(nullptr);
    return a;
}

template <class F>
F symbol(void* lib, const char* name, const char* routine, const std::string& path) {
    dlerror();
    void* p = dlsym(lib, name);
    if (!p)
        rt::fatal(routine,
                  "%s: the library does not define %s (a GASP tool defines gasp_init, "
                  "gasp_event_notify, gasp_event_notifyVA, gasp_control and gasp_create_event)",
                  path.c_str(), name);
    return reinterpret_cast<F>(p);
}

// GASKET_PROFILE without GASKET_GASP_TOOL: the bundled profiler, installed
// (and built) next to libgasket.so.
std::string bundled_profiler() {
    Dl_info info{};
    std::string dir = ".";
    if (dladdr(reinterpret_cast<void*>(&start), &info) && info.dli_fname) {
        const std::string lib = info.dli_fname;
        if (const auto slash = lib.rfind('/'); slash != std::string::npos) dir = lib.substr(0, slash);
    }
    return dir + "/libgasket-profile.so";
}

// The tool named by GASKET_GASP_TOOL, else the bundled profiler when
// GASKET_PROFILE is set, else the gasp_* functions this process links (the
// program's, else libgasket's weak defaults).
Tool find_tool(const char* routine) {
    Tool t;
    std::string path = rt::g_job ? rt::g_job->config.gasp_tool : std::string();
    std::string label = "GASKET_GASP_TOOL=" + path;  // for messages
    if (path.empty() && rt::g_job && !rt::g_job->config.profile.empty()) {
        path = bundled_profiler();
        label = "GASKET_PROFILE=" + rt::g_job->config.profile + ": the bundled profiler " + path;
    }
    if (path.empty()) {
        g_flush = reinterpret_cast<void (*)()>(dlsym(RTLD_DEFAULT, "gasket_profile_flush"));
        t.init = &::gasp_init;
        t.notify = &::gasp_event_notify;
        t.notify_va = &::gasp_event_notifyVA;
        t.control = &::gasp_control;
        t.create_event = &::gasp_create_event;
        return t;
    }
    // RTLD_DEEPBIND: the tool's own calls between its gasp_* functions (a
    // gasp_event_notify that calls gasp_event_notifyVA) reach its
    // definitions, not libgasket's weak defaults, which are in the global
    // scope ahead of a dlopened library.  The sanitizers refuse
    // RTLD_DEEPBIND: there such calls reach the defaults (docs/gasp.md).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    constexpr int kBind = 0;
#else
    constexpr int kBind = RTLD_DEEPBIND;
#endif
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | kBind);
    if (!lib) {
        const char* why = dlerror();
        rt::fatal(routine, "%s: cannot load the GASP tool: %s", label.c_str(), why ? why : "dlopen failed");
    }
    t.init = symbol<decltype(t.init)>(lib, "gasp_init", routine, label);
    t.notify = symbol<decltype(t.notify)>(lib, "gasp_event_notify", routine, label);
    t.notify_va = symbol<decltype(t.notify_va)>(lib, "gasp_event_notifyVA", routine, label);
    t.control = symbol<decltype(t.control)>(lib, "gasp_control", routine, label);
    t.create_event = symbol<decltype(t.create_event)>(lib, "gasp_create_event", routine, label);
    g_flush = reinterpret_cast<void (*)()>(dlsym(lib, "gasket_profile_flush"));
    return t;  // the library stays loaded for the process's life
}

}  // namespace

bool start(const char* routine) {
    std::lock_guard lock(g_start_lock);
    if (g_started) return false;
    g_started = true;
    Tool t = find_tool(routine);
    Arguments& a = arguments();
    char** argv = a.argv.data();
    {
        InTool guard;  // the tool's upcalls from gasp_init raise no events
        t.ctx = t.init(GASP_MODEL_SHMEM, &a.argc, &argv);
    }
    if (t.ctx == reinterpret_cast<gasp_context_t>(const_cast<char*>(&g_no_tool_ctx))) {
        rt::debug(routine, "GASP: no tool attached");
        return true;
    }
    g_tool = t;
    g_attached.store(true, std::memory_order_release);
    rt::debug(routine, "GASP: tool attached%s%s", rt::g_job && !rt::g_job->config.gasp_tool.empty() ? ": " : "",
              rt::g_job ? rt::g_job->config.gasp_tool.c_str() : "");
    return true;
}

void control(int on) {
    if (!gasp::on()) return;
    InTool guard;
    if (guard.active()) g_tool.control(g_tool.ctx, on);
}

unsigned create_event(const char* routine, const char* name, const char* desc) {
    if (gasp::on()) {
        InTool guard;
        if (guard.active()) return g_tool.create_event(g_tool.ctx, name, desc);
    }
    const unsigned id = g_next_user_event.fetch_add(1, std::memory_order_relaxed);
    if (id > GASP_SHMEM_USEREVT_END || id < GASP_SHMEM_USEREVT_START)
        rt::fatal(routine, "no user event id left for '%s': all %u of GASP_SHMEM_USEREVT_START..END are taken",
                  name ? name : "(null)", GASP_SHMEM_USEREVT_END - GASP_SHMEM_USEREVT_START + 1);
    return id;
}

void flush_profiler() {
    if (!gasp::on() || !g_flush) return;
    InTool guard;
    if (guard.active()) g_flush();
}

void notify_user(unsigned evttag, gasp_evttype_t evttype, va_list args) {
    if (!gasp::on()) return;
    InTool guard;
    if (guard.active()) g_tool.notify_va(g_tool.ctx, evttag, evttype, nullptr, 0, 0, args);
}

}  // namespace gasket::gasp
