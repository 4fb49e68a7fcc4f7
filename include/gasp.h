/*
 * gasp.h -- the GASP performance-tool interface, model-independent part
 * (gasp-tool-interface.txt §3, version 20060914).
 *
 * A GASP tool is C code that defines the five functions declared below;
 * Gasket (the "model implementation") calls them.  Gasket's events for
 * OpenSHMEM and GASNet are in gasp_shmem.h; docs/gasp.md says how to attach
 * a tool (link it in, or GASKET_GASP_TOOL=/path/libtool.so) and the rules.
 *
 * libgasket.so holds weak default definitions of all five that do nothing
 * (gasp_init returns a context of its own, which tells Gasket that no tool
 * is attached: then no event is delivered at all).  A definition in the
 * program or in a library linked before libgasket.so replaces them.
 *
 * Every function is declared GASKET_NOEXCEPT (noexcept in C++): a tool
 * written in C++ must not let an exception out of them.
 */
#ifndef GASKET_GASP_H
#define GASKET_GASP_H

#include <stdarg.h>

#include <gasket/noexcept.h>

/* §3.5: the GASP version this header implements (YYYYMMDD). */
#define GASP_VERSION 20060914

#ifdef __cplusplus
extern "C" {
#endif

/* §3.2: the model whose runtime calls gasp_init.  Gasket uses
 * GASP_MODEL_SHMEM for OpenSHMEM and for GASNet programs alike. */
typedef enum { GASP_MODEL_UPC, GASP_MODEL_TITANIUM, GASP_MODEL_CAF, GASP_MODEL_MPI, GASP_MODEL_SHMEM } gasp_model_t;

/* §3.2: begin, end, or instantaneous event. */
typedef enum { GASP_START, GASP_END, GASP_ATOMIC } gasp_evttype_t;

/* §3.2: the tool's opaque per-thread state, defined by the tool. */
struct _gasp_context_S;
typedef struct _gasp_context_S* gasp_context_t;

/* §3.2: called once per process (PE) and model, after the runtime is up:
 * by Gasket at the end of the first shmem_init / shmem_init_thread and at
 * gasnet_attach, with srcmodel GASP_MODEL_SHMEM.  argc/argv: the program's
 * arguments where Gasket has them, else pointers to a count of 0 and a NULL
 * vector (the tool may change them; Gasket does not read them back).
 * Returns the tool's context, passed to every later call from this
 * process (from any of its threads). */
gasp_context_t gasp_init(gasp_model_t srcmodel, int* argc, char*** argv) GASKET_NOEXCEPT;

/* §3.2: one event.  evttag: a GASP_SHMEM_* / GASP_GASNET_* id of
 * gasp_shmem.h or a user event id (gasp_create_event); evttype: START, END
 * or ATOMIC; filename NULL, linenum and colnum 0 (Gasket has no source
 * positions).  The varargs are the event's arguments (gasp_shmem.h).
 * Called on the thread that made the operation; must be thread-safe.  The
 * tool may call OpenSHMEM/GASNet routines from here ("upcalls"): they work
 * and raise no events of their own (docs/gasp.md). */
void gasp_event_notify(gasp_context_t context, unsigned int evttag, gasp_evttype_t evttype, const char* filename,
                       int linenum, int colnum, ...) GASKET_NOEXCEPT;

/* §3.2: the same with a va_list.  Gasket calls gasp_event_notify for its
 * own events and gasp_event_notifyVA for user events (shmemx_event_*), so
 * a tool defines both. */
void gasp_event_notifyVA(gasp_context_t context, unsigned int evttag, gasp_evttype_t evttype, const char* filename,
                         int linenum, int colnum, va_list varargs) GASKET_NOEXCEPT;

/* §3.3: on = 0 asks the tool to stop measuring this thread's events, nonzero
 * to resume.  Returns the previous value (nonzero if never called).
 * shmem_pcontrol(level) calls it (level <= 0: on = 0; 1 or 2: on = 1). */
int gasp_control(gasp_context_t context, int on) GASKET_NOEXCEPT;

/* §3.4: a tool-generated id for a user event called `name`; `desc` is NULL
 * or a printf-style format of the event's arguments.  Neither string needs
 * to outlive the call.  Called by shmemx_create_event (shmemx.h). */
unsigned int gasp_create_event(gasp_context_t context, const char* name, const char* desc) GASKET_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* GASKET_GASP_H */
