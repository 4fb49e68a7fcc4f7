// shmem/session.cpp -- §9.9 sessions: shmem_ctx_session_start/stop.
//
// Sessions are hints (§9.9: they must not change completion or ordering).
// Gasket checks and records them per context (options ORed, total_ops
// replaced, as §9.9.2 says) and does no batching of its own: the paths a
// batch would speed up are already deferred -- small blocking puts leave
// from the window's bounce ring without a local flush, nbi puts and
// non-fetching AMOs complete at the next quiet, node-local operations are
// plain loads and stores -- so there is nothing left to coalesce short of
// buffering data past the call, which the measured costs do not justify
// (docs/design-notes.md).
#include <shmem.h>

#include "context.hpp"
#include "events.hpp"
#include "src/runtime/job.hpp"

using namespace gasket;

namespace {

gasket_shmem_session g_default_session;  // SHMEM_CTX_DEFAULT's

constexpr long kAllOptions = SHMEM_CTX_SESSION_BATCH;
constexpr long kAllMask = SHMEM_CTX_SESSION_TOTAL_OPS;

gasket_shmem_session& session_of(const char* routine, shmem_ctx_t ctx) {
    rt::job(routine);
    if (ctx == SHMEM_CTX_DEFAULT) return g_default_session;
    shmem::context_of(routine, ctx);
    return shmem::entry_of(ctx)->session;
}

}  // namespace

extern "C" {

void shmem_ctx_session_start(shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t* config,
                             long config_mask) noexcept {
    const char* routine = "shmem_ctx_session_start";
    if (ctx == SHMEM_CTX_INVALID) return;
    gasket_shmem_session& s = session_of(routine, ctx);
    if (options & ~kAllOptions)
        rt::fatal(routine, "options %#lx has bits other than SHMEM_CTX_SESSION_BATCH (%#lx)", options, kAllOptions);
    if (config_mask & ~kAllMask)
        rt::fatal(routine, "config_mask %#lx has bits other than SHMEM_CTX_SESSION_TOTAL_OPS (%#lx)", config_mask,
                  kAllMask);
    if (config_mask && !config) rt::fatal(routine, "config is NULL with config_mask %#lx", config_mask);
    if (!s.active) s = {};
    s.active = true;
    s.options |= options;
    if (config_mask & SHMEM_CTX_SESSION_TOTAL_OPS) s.total_ops = config->total_ops;
    rt::debug(routine, "context %p: session options %#lx, total_ops %zu (hints recorded; no batching)",
              static_cast<void*>(ctx), s.options, s.total_ops);
    if (gasp::on()) [[unlikely]]
        gasp::notify(GASP_SHMEM_SESSION_START, GASP_ATOMIC, shmem::event_handle(ctx), options);
}

void shmem_ctx_session_stop(shmem_ctx_t ctx) noexcept {
    const char* routine = "shmem_ctx_session_stop";
    if (ctx == SHMEM_CTX_INVALID) return;
    session_of(routine, ctx) = {};
    if (gasp::on()) [[unlikely]]
        gasp::notify(GASP_SHMEM_SESSION_STOP, GASP_ATOMIC, shmem::event_handle(ctx));
}

}  // extern "C"
