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

// Frees every live context (shmem_finalize, before the job goes).
void release_contexts();
// The live contexts made from `team` (a copy, taken under the table's lock).
std::vector<shmem_ctx_t> contexts_of(shmem_team_t team);

}  // namespace gasket::shmem
