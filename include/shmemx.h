/*
 * shmemx.h -- Gasket's extensions to OpenSHMEM 1.6 (not in the spec).
 *
 * User events for performance tools (GASP, docs/gasp.md), mirroring
 * gasp-tool-interface.txt §5.3's pupc_* routines: a program names its own
 * phases and a GASP tool sees them as events.  Without a tool they do
 * nothing but number the events.  Call them between shmem_init and
 * shmem_finalize (before: fatal, naming the routine).
 */
#ifndef GASKET_SHMEMX_H
#define GASKET_SHMEMX_H

#include <shmem.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A new user event: `name` names it, `desc` is NULL or a printf-style
 * format of the arguments later passed to shmemx_event_*; neither needs to
 * outlive the call.  Returns the tool's id (gasp_create_event) or, without
 * a tool, the next id from GASP_SHMEM_USEREVT_START (gasp_shmem.h); past
 * GASP_SHMEM_USEREVT_END the job ends with a fatal error naming the routine. */
unsigned int shmemx_create_event(const char* name, const char* desc) GASKET_NOEXCEPT;

/* The start, end, or an instant of user event `evttag` (a value returned by
 * shmemx_create_event on this PE), with arguments matching its `desc`
 * format: delivered to the tool as GASP_START / GASP_END / GASP_ATOMIC
 * through gasp_event_notifyVA.  Nothing happens without a tool. */
void shmemx_event_start(unsigned int evttag, ...) GASKET_NOEXCEPT;
void shmemx_event_end(unsigned int evttag, ...) GASKET_NOEXCEPT;
void shmemx_event_atomic(unsigned int evttag, ...) GASKET_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* GASKET_SHMEMX_H */
