// src/gasp/gasp.hpp -- raising GASP tool events (gasp-tool-interface.txt;
// Gasket's events: include/gasp_shmem.h, docs/gasp.md).
//
// Hot: on() is one (acquire) load of a process-wide flag, set once at init
// when a tool is attached; without a tool an event site that tests it costs
// that one predictable branch.  The hottest routines do not test it: their
// handle resolution already answers "no tool" (shmem::untraced_context,
// GASNet's Routes::lean_nodes; docs/gasp.md, "Cost").  Cold, out of line:
// notify() and everything else.
//
// Pattern at an operation (the flag is read once, so a START always has
// its END):
//
//     const bool ev = gasp::on();
//     if (ev) [[unlikely]] gasp::notify(GASP_SHMEM_PUT, GASP_START, args...);
//     ... the operation ...
//     if (ev) [[unlikely]] gasp::notify(GASP_SHMEM_PUT, GASP_END, args...);
//
// Recursion rule: a thread inside a tool callback (gasp_init,
// gasp_event_notify[VA], gasp_control, gasp_create_event) raises no
// events: the tool's own calls into Gasket ("upcalls") run normally and are
// not reported to it.
#pragma once

#include <gasp.h>
#include <gasp_shmem.h>

#include <atomic>
#include <cstdarg>
#include <type_traits>

namespace gasket::gasp {

// The tool's functions and context (filled once by start(), then read-only).
struct Tool {
    gasp_context_t ctx = nullptr;
    decltype(&::gasp_init) init = nullptr;
    decltype(&::gasp_event_notify) notify = nullptr;
    decltype(&::gasp_event_notifyVA) notify_va = nullptr;
    decltype(&::gasp_control) control = nullptr;
    decltype(&::gasp_create_event) create_event = nullptr;
};
extern Tool g_tool;
extern std::atomic<bool> g_attached;           // a tool is attached (set once, before the first event)
extern constinit thread_local bool t_in_tool;  // this thread is inside a tool callback

// Is a tool attached?  The one check at every event site.  An acquire load
// (a plain load on x86-64, LDAR on AArch64), so that a thread already
// running when the tool attaches (the progress thread, which runs GASNet
// handlers) sees g_tool filled once it sees the flag.
[[gnu::always_inline]] inline bool on() { return g_attached.load(std::memory_order_acquire); }

// Marks this thread inside the tool for its lifetime, unless it already
// is (then active() is false and the caller delivers nothing).
class InTool {
public:
    InTool() : active_(!t_in_tool) { t_in_tool = true; }
    ~InTool() {
        if (active_) t_in_tool = false;
    }
    InTool(const InTool&) = delete;
    InTool& operator=(const InTool&) = delete;
    bool active() const { return active_; }

private:
    bool active_;
};

// Delivers one event to the tool (call only when on()): evttag, evttype and
// the event's arguments, each of a type that needs no default promotion
// (int, long, size_t, ptrdiff_t, uint64_t, pointers).  Nothing from a
// thread already inside the tool.
template <class... Args>
[[gnu::noinline, gnu::cold]] void notify(unsigned evttag, gasp_evttype_t evttype, Args... args) {
    static_assert(((sizeof(Args) >= sizeof(int) && !std::is_enum_v<Args> && !std::is_same_v<Args, float>)&&...),
                  "GASP event arguments are passed as promoted C types (int, not bool/char/enum; double, not float)");
    InTool guard;
    if (!guard.active()) return;
    g_tool.notify(g_tool.ctx, evttag, evttype, nullptr, 0, 0, args...);
}

// At the end of shmem_init* and at gasnet_attach, after the runtime is up:
// the first call in the process attaches the tool (GASKET_GASP_TOOL's
// library, loaded with dlopen, else the gasp_* functions linked into the
// program) and calls its gasp_init(GASP_MODEL_SHMEM, ...); later calls do
// nothing.  Returns true when this call did it (so the caller raises its
// init event).  A GASKET_GASP_TOOL that cannot be loaded, or lacks one of
// the five functions, is fatal, naming `routine`, the variable, the path
// and the reason.
bool start(const char* routine);

// gasp_control(ctx, on) on this thread (§3.3); without a tool, nothing.
void control(int on);

// shmemx_create_event: the tool's gasp_create_event, or without a tool the
// next id of GASP_SHMEM_USEREVT_START..END (fatal past it, naming `routine`).
unsigned create_event(const char* routine, const char* name, const char* desc);

// shmemx_event_*: user event `evttag` of type `evttype` with the program's
// arguments, through gasp_event_notifyVA; without a tool, nothing.
void notify_user(unsigned evttag, gasp_evttype_t evttype, va_list args);

}  // namespace gasket::gasp
