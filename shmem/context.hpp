// shmem/context.hpp -- what a shmem_ctx_t points to (§9.5), and turning a
// handle into the runtime's context.
//
// Contexts live in one fixed table: a handle is the address of its entry,
// so checking a handle is a range check and a load, never a dereference of
// whatever the program passed.  SHMEM_CTX_DEFAULT is not in the table: it
// resolves to the job's default context (rt::default_context), an ordinary
// rt::Context, so every operation takes one path whatever context it names.
#pragma once

#include <shmem.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "src/runtime/context.hpp"
#include "src/runtime/error.hpp"

// A session's hints (§9.9): kept, validated, not acted upon (see
// docs/design-notes.md).
struct gasket_shmem_session {
    bool active = false;
    long options = 0;
    std::size_t total_ops = SIZE_MAX;
};

struct gasket_shmem_ctx {
    std::unique_ptr<gasket::rt::Context> ctx;  // null: the entry is free
    gasket::rt::Context* untraced = nullptr;   // ctx.get() while no GASP tool is attached, else null
    shmem_team_t team = nullptr;               // the team it was made from
    long options = 0;                          // SHMEM_CTX_* bits
    std::thread::id creator;                   // SHMEM_CTX_PRIVATE: the only thread allowed
    gasket_shmem_session session;
};

namespace gasket::shmem {

// Live contexts at once, per PE; shmem_ctx_create returns nonzero past it.
inline constexpr std::size_t kMaxContexts = 1024;
extern gasket_shmem_ctx g_contexts[kMaxContexts];

[[noreturn, gnu::cold]] void bad_ctx(const char* routine, shmem_ctx_t ctx);

// The table entry of `ctx`, or nullptr when `ctx` is not a table entry.
inline gasket_shmem_ctx* entry_of(shmem_ctx_t ctx) {
    const auto at = reinterpret_cast<std::uintptr_t>(ctx) - reinterpret_cast<std::uintptr_t>(g_contexts);
    if (at >= sizeof g_contexts || at % sizeof(gasket_shmem_ctx) != 0) return nullptr;
    return &g_contexts[at / sizeof(gasket_shmem_ctx)];
}

// The runtime context behind `ctx`: the job's default context for
// SHMEM_CTX_DEFAULT; fatal, naming `routine`, before shmem_init, for
// SHMEM_CTX_INVALID, a destroyed context or anything that is not a context
// handle.
inline rt::Context& context_of(const char* routine, shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_DEFAULT) [[likely]]
        return rt::default_context(routine);
    gasket_shmem_ctx* e = entry_of(ctx);
    if (!e || !e->ctx) [[unlikely]]
        bad_ctx(routine, ctx);
    return *e->ctx;
}
// The default context (the plain, context-less routines).
inline rt::Context& default_context(const char* routine) { return rt::default_context(routine); }

// ---- The untraced path of the hot routines (RMA, AMO, fence/quiet) ----
// They resolve their handle with untraced_context(): the runtime context
// when the handle is good, the job is up and no GASP tool is attached
// (src/gasp/), else nullptr.  So the one null test they make sends "not
// initialized", "bad handle" and "a tool is attached" alike to their
// out-of-line path, which sorts them out (context_of: fatal; else the
// operation with its events around it), and without a tool an event site
// costs no instruction more than resolving the handle did before GASP
// (docs/gasp.md, "Cost without a tool").

// The default context while no tool is attached, between shmem_init and
// the last shmem_finalize; else nullptr.
extern rt::Context* g_untraced_default;
// What the routines without a ctx argument resolve to.
[[gnu::always_inline]] inline rt::Context* untraced_default() { return g_untraced_default; }
// What `ctx` resolves to on the untraced path (nullptr: take the
// out-of-line path, which calls context_of(routine, ctx)).
[[gnu::always_inline]] inline rt::Context* untraced_context(shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_DEFAULT) [[likely]]
        return g_untraced_default;
    gasket_shmem_ctx* e = entry_of(ctx);
    return e ? e->untraced : nullptr;
}
// The out-of-line path's context.  The routines without a ctx argument
// (Plain) pass `h` = nullptr, a constant, so their inline path loads
// nothing for it (SHMEM_CTX_DEFAULT is a load); the ctx forms pass the
// program's handle, which context_of checks.
template <bool Plain>
inline rt::Context& context_of_form(const char* routine, shmem_ctx_t h) {
    if constexpr (Plain)
        return default_context(routine);
    else
        return context_of(routine, h);
}
// At the end of the first shmem_init: opens the untraced path for the
// default context, unless a tool is attached (then every hot routine takes
// its out-of-line path, which raises the events).
void open_untraced_path(rt::Context& default_ctx);

// Frees every live context and closes the untraced path (shmem_finalize,
// before the job goes).
void release_contexts();
// The live contexts made from `team` (a copy, taken under the table's lock).
std::vector<shmem_ctx_t> contexts_of(shmem_team_t team);

}  // namespace gasket::shmem
