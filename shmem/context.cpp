// shmem/context.cpp -- §9.5 communication contexts: create (from the world
// or a team), destroy, get_team.  The table of contexts and its lock live
// here; the lock is taken at create/destroy only, never by an operation.
#include "context.hpp"

#include <algorithm>
#include <mutex>

#include "events.hpp"
#include "src/gasp/gasp.hpp"
#include "src/runtime/sync.hpp"
#include "team.hpp"

using namespace gasket;

namespace gasket::shmem {

gasket_shmem_ctx g_contexts[kMaxContexts];
rt::Context* g_untraced_default = nullptr;

namespace {

// Guards the table's free/live state and every team's `contexts` list.
std::mutex g_table_mutex;

constexpr long kAllOptions = SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE;

int create(const char* routine, shmem_team_t team, long options, shmem_ctx_t* out) {
    if (!out) rt::fatal(routine, "ctx is NULL");
    *out = SHMEM_CTX_INVALID;
    if (team == SHMEM_TEAM_INVALID) return 1;
    rt::Team& t = team_of(routine, team);
    if (options & ~kAllOptions) {
        rt::error(routine, "options %#lx has bits other than SHMEM_CTX_SERIALIZED|PRIVATE|NOSTORE", options);
        return 2;
    }
    rt::Job& j = rt::job(routine);
    // Threads use a context at once only when it is shareable and the
    // program asked for SHMEM_THREAD_MULTIPLE.
    const bool concurrent = j.concurrent_rma && !(options & (SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED));
    std::lock_guard lock(g_table_mutex);
    auto free = std::find_if(std::begin(g_contexts), std::end(g_contexts), [](auto& e) { return !e.ctx; });
    if (free == std::end(g_contexts)) {
        rt::debug(routine, "all %zu context entries are in use", kMaxContexts);
        return 3;
    }
    free->ctx = std::make_unique<rt::Context>(j, t, concurrent, (options & SHMEM_CTX_NOSTORE) != 0);
    free->untraced = gasp::on() ? nullptr : free->ctx.get();
    free->team = team;
    free->options = options;
    free->creator = std::this_thread::get_id();
    free->session = {};
    *out = reinterpret_cast<shmem_ctx_t>(&*free);
    team->contexts.push_back(*out);
    rt::debug(routine, "context %p on a team of %d PEs, options %#lx, %s windows", static_cast<void*>(*out), t.n_pes(),
              options, free->ctx->own_windows() ? "its own" : "the default context's");
    return 0;
}

// Completes and frees a live entry (the caller checked it).
void destroy(const char* routine, gasket_shmem_ctx* e) {
    rt::quiet(*e->ctx, routine);
    std::lock_guard lock(g_table_mutex);
    auto& list = e->team->contexts;
    list.erase(std::remove(list.begin(), list.end(), reinterpret_cast<shmem_ctx_t>(e)), list.end());
    e->untraced = nullptr;
    e->ctx.reset();
    e->team = nullptr;
}

}  // namespace

void bad_ctx(const char* routine, shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_INVALID) rt::fatal(routine, "context is SHMEM_CTX_INVALID");
    rt::fatal(routine,
              "context %p is not SHMEM_CTX_DEFAULT nor a live context from shmem_ctx_create or "
              "shmem_team_create_ctx (destroyed, or not a context handle)",
              static_cast<void*>(ctx));
}

void open_untraced_path(rt::Context& default_ctx) { g_untraced_default = gasp::on() ? nullptr : &default_ctx; }

void release_contexts() {
    g_untraced_default = nullptr;
    for (auto& e : g_contexts)
        if (e.ctx) destroy("shmem_finalize", &e);
}

std::vector<shmem_ctx_t> contexts_of(shmem_team_t team) {
    std::lock_guard lock(g_table_mutex);
    return team->contexts;
}

}  // namespace gasket::shmem

extern "C" {

// GASP (include/gasp_shmem.h): GASP_SHMEM_CTX_CREATE (A) after a create,
// with the new handle (SHMEM_CTX_INVALID when none was made);
// GASP_SHMEM_CTX_DESTROY (A) before a destroy (none for SHMEM_CTX_INVALID,
// a no-op).
int shmem_ctx_create(long options, shmem_ctx_t* ctx) noexcept {
    const int rc = shmem::create("shmem_ctx_create", SHMEM_TEAM_WORLD, options, ctx);
    if (gasp::on()) [[unlikely]]
        gasp::notify(GASP_SHMEM_CTX_CREATE, GASP_ATOMIC, static_cast<void*>(*ctx), options,
                     shmem::event_handle(SHMEM_TEAM_WORLD));
    return rc;
}

int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t* ctx) noexcept {
    const int rc = shmem::create("shmem_team_create_ctx", team, options, ctx);
    if (gasp::on()) [[unlikely]]
        gasp::notify(GASP_SHMEM_CTX_CREATE, GASP_ATOMIC, static_cast<void*>(*ctx), options, shmem::event_handle(team));
    return rc;
}

void shmem_ctx_destroy(shmem_ctx_t ctx) noexcept {
    const char* routine = "shmem_ctx_destroy";
    if (ctx == SHMEM_CTX_INVALID) return;
    if (ctx == SHMEM_CTX_DEFAULT) rt::fatal(routine, "SHMEM_CTX_DEFAULT cannot be destroyed");
    shmem::context_of(routine, ctx);
    gasket_shmem_ctx* e = shmem::entry_of(ctx);
    if ((e->options & SHMEM_CTX_PRIVATE) && e->creator != std::this_thread::get_id())
        rt::fatal(routine, "context %p is SHMEM_CTX_PRIVATE and this is not the thread that created it",
                  static_cast<void*>(ctx));
    if (gasp::on()) [[unlikely]]
        gasp::notify(GASP_SHMEM_CTX_DESTROY, GASP_ATOMIC, static_cast<void*>(ctx));
    shmem::destroy(routine, e);
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t* team) noexcept {
    const char* routine = "shmem_ctx_get_team";
    if (!team) rt::fatal(routine, "team is NULL");
    if (ctx == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return 1;
    }
    rt::job(routine);
    if (ctx == SHMEM_CTX_DEFAULT) {
        *team = SHMEM_TEAM_WORLD;
        return 0;
    }
    shmem::context_of(routine, ctx);
    *team = shmem::entry_of(ctx)->team;
    return 0;
}

}  // extern "C"
