/* tests/bench/gasp_noop_tool.c -- a GASP tool whose functions do nothing
 * (gasp-tool-interface.txt §3.2-3.4), for measuring what delivering an event
 * costs Gasket itself: run a benchmark with
 * GASKET_GASP_TOOL=<build>/lib/libgasket-gasp-noop.so (docs/gasp.md,
 * "Cost"). */
#include <gasp.h>
#include <gasp_shmem.h>

#include <stdarg.h>

struct _gasp_context_S {
    int unused;
};
static struct _gasp_context_S noop_context;

gasp_context_t gasp_init(gasp_model_t srcmodel, int* argc, char*** argv) {
    (void)srcmodel, (void)argc, (void)argv;
    return &noop_context;
}
void gasp_event_notify(gasp_context_t context, unsigned int evttag, gasp_evttype_t evttype, const char* filename,
                       int linenum, int colnum, ...) {
    (void)context, (void)evttag, (void)evttype, (void)filename, (void)linenum, (void)colnum;
}
void gasp_event_notifyVA(gasp_context_t context, unsigned int evttag, gasp_evttype_t evttype, const char* filename,
                         int linenum, int colnum, va_list varargs) {
    (void)context, (void)evttag, (void)evttype, (void)filename, (void)linenum, (void)colnum, (void)varargs;
}
int gasp_control(gasp_context_t context, int on) {
    (void)context, (void)on;
    return 1;
}
unsigned int gasp_create_event(gasp_context_t context, const char* name, const char* desc) {
    (void)context, (void)name, (void)desc;
    return GASP_SHMEM_USEREVT_START;
}
