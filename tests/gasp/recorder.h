/*
 * tests/gasp/recorder.h -- a GASP test tool (librecorder: gasp_recorder.cpp)
 * that records every event Gasket delivers, with its arguments decoded by
 * the argument lists of include/gasp_shmem.h, for the tests to compare
 * with what the program did.  Linked into a test program (before
 * libgasket.so), or loaded with GASKET_GASP_TOOL=path/librecorder.so.
 */
#ifndef GASKET_TEST_GASP_RECORDER_H
#define GASKET_TEST_GASP_RECORDER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Not an event: a gasp_control(ctx, on) call, recorded with args[0] = on
 * and args[1] = the value it returned. */
#define GASP_RECORDER_CONTROL 0xC0u

typedef struct {
    unsigned tag;      /* evttag, or GASP_RECORDER_CONTROL */
    int type;          /* gasp_evttype_t */
    int main_thread;   /* 1 when delivered on the thread that called gasp_init */
    int nargs;         /* decoded arguments */
    uint64_t args[12]; /* each as an integer (pointers: their address) */
    int bad_context;   /* the context passed was not the one gasp_init returned */
    int bad_position;  /* filename not NULL or linenum/colnum not 0 */
    int thread;        /* the delivering thread: 1, 2, ... in the order threads first delivered one */
} gasp_recorded_event;

size_t gasp_recorder_count(void);
/* A copy of event i (0 <= i < count). */
gasp_recorded_event gasp_recorder_event(size_t i);
void gasp_recorder_clear(void);
/* gasp_init calls so far, and the model of the last. */
int gasp_recorder_inits(void);
int gasp_recorder_model(void);
/* Events of an unknown tag or type (not in gasp_shmem.h's lists). */
int gasp_recorder_unknown(void);
/* While tag != 0: at each START (or ATOMIC) of `tag` the tool makes an upcall:
 * shmem_long_atomic_inc(counter, my PE) then shmem_quiet(), with
 * shmem_my_pe() and, inside gasp_create_event, shmem_n_pes(). */
void gasp_recorder_upcall(unsigned tag, long* counter);
/* Deepest nesting of notify calls seen on one thread (1 = never nested). */
int gasp_recorder_max_depth(void);

#ifdef __cplusplus
}
#endif

#endif
