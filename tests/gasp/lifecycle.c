/* tests/gasp/lifecycle.c -- GASP at init and finalize, in C.
 *
 *   lifecycle tool   GASKET_GASP_TOOL names the recorder (loaded with dlopen,
 *                    not linked): gasp_init once with GASP_MODEL_SHMEM, the
 *                    INIT event, nested init/finalize (is_last 0), the last
 *                    finalize (is_last 1), a user event
 *   lifecycle none   no tool: user event ids are numbered from
 *                    GASP_SHMEM_USEREVT_START, pcontrol and user events do
 *                    nothing, the program runs as without GASP
 * Every PE checks and prints what failed; the exit status is 1 on a failure. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gasp_shmem.h>
#include <shmem.h>
#include <shmemx.h>

#include "recorder.h"

static int failures = 0;
static int me = -1;

#define CHECK(cond)                                                                                 \
    do {                                                                                            \
        if (!(cond)) {                                                                              \
            fprintf(stderr, "lifecycle: PE %d: check failed: %s (line %d)\n", me, #cond, __LINE__); \
            ++failures;                                                                             \
        }                                                                                           \
    } while (0)

typedef size_t (*count_fn)(void);
typedef gasp_recorded_event (*event_fn)(size_t);
typedef int (*int_fn)(void);

static count_fn rec_count;
static event_fn rec_event;
static int_fn rec_inits, rec_model, rec_unknown;

static void check_event(size_t i, unsigned tag, int type, int nargs, long long a0, long long a1) {
    if (i >= rec_count()) {
        fprintf(stderr, "lifecycle: PE %d: event %zu missing (have %zu)\n", me, i, rec_count());
        ++failures;
        return;
    }
    gasp_recorded_event e = rec_event(i);
    CHECK(e.tag == tag);
    CHECK(e.type == type);
    CHECK(e.nargs == nargs);
    CHECK(e.bad_context == 0);
    if (nargs > 0) CHECK(e.args[0] == (uint64_t)a0);
    if (nargs > 1) CHECK(e.args[1] == (uint64_t)a1);
}

static int with_tool(void) {
    const char* path = getenv("GASKET_GASP_TOOL");
    shmem_init();
    me = shmem_my_pe();
    /* The library loaded the tool: take the recorder's accessors from it. */
    void* lib = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
    CHECK(lib != NULL);
    if (!lib) return 1;
    rec_count = (count_fn)dlsym(lib, "gasp_recorder_count");
    rec_event = (event_fn)dlsym(lib, "gasp_recorder_event");
    rec_inits = (int_fn)dlsym(lib, "gasp_recorder_inits");
    rec_model = (int_fn)dlsym(lib, "gasp_recorder_model");
    rec_unknown = (int_fn)dlsym(lib, "gasp_recorder_unknown");
    /* Not linked into the program: only the loaded copy defines them. */
    CHECK(dlsym(RTLD_DEFAULT, "gasp_recorder_count") == NULL);
    CHECK(rec_count && rec_event && rec_inits && rec_model && rec_unknown);
    if (!rec_count || !rec_event || !rec_inits || !rec_model || !rec_unknown) return 1;

    shmem_init(); /* nested: no gasp_init, no INIT */
    CHECK(rec_inits() == 1);
    CHECK(rec_model() == GASP_MODEL_SHMEM);
    unsigned id = shmemx_create_event("lifecycle", "%d");
    CHECK(id == GASP_SHMEM_USEREVT_START);
    shmemx_event_atomic(id, 42);
    shmem_finalize(); /* the inner one */
    shmem_finalize(); /* the last */
    CHECK(rec_inits() == 1);
    CHECK(rec_unknown() == 0);
    CHECK(rec_count() == 6);
    check_event(0, GASP_SHMEM_INIT, GASP_END, 2, SHMEM_THREAD_SINGLE, SHMEM_THREAD_SINGLE);
    check_event(1, GASP_SHMEM_USEREVT_START, GASP_ATOMIC, 1, 42, 0);
    check_event(2, GASP_SHMEM_FINALIZE, GASP_START, 1, 0, 0);
    check_event(3, GASP_SHMEM_FINALIZE, GASP_END, 1, 0, 0);
    check_event(4, GASP_SHMEM_FINALIZE, GASP_START, 1, 1, 0);
    check_event(5, GASP_SHMEM_FINALIZE, GASP_END, 1, 1, 0);
    return failures != 0;
}

static int without_tool(void) {
    static long x = 0;
    shmem_init();
    me = shmem_my_pe();
    unsigned a = shmemx_create_event("a", NULL);
    unsigned b = shmemx_create_event("b", "%d");
    CHECK(a == GASP_SHMEM_USEREVT_START);
    CHECK(b == GASP_SHMEM_USEREVT_START + 1);
    shmemx_event_start(b, 1);
    shmemx_event_end(b, 2);
    shmem_pcontrol(0);
    shmem_long_atomic_inc(&x, (me + 1) % shmem_n_pes());
    shmem_pcontrol(1);
    shmem_barrier_all();
    CHECK(x == 1);
    shmem_finalize();
    return failures != 0;
}

/* PE 1 calls shmem_global_exit(3) while PE 0 waits in a barrier: the tool
 * (GASKET_GASP_TOOL) must get GASP_SHMEM_GLOBAL_EXIT before the job ends
 * (the recorder prints a line when it does). */
static int global_exit(void) {
    shmem_init();
    me = shmem_my_pe();
    shmem_barrier_all();
    if (me == 1) shmem_global_exit(3);
    shmem_barrier_all(); /* never completes: PE 1 ends the job */
    fprintf(stderr, "lifecycle: PE %d: NOT STOPPED by shmem_global_exit\n", me);
    return 1;
}

int main(int argc, char** argv) {
    int rc = 2;
    if (argc == 2 && strcmp(argv[1], "tool") == 0)
        rc = with_tool();
    else if (argc == 2 && strcmp(argv[1], "global_exit") == 0)
        rc = global_exit();
    else if (argc == 2 && strcmp(argv[1], "none") == 0)
        rc = without_tool();
    else
        fprintf(stderr, "usage: lifecycle tool|none|global_exit\n");
    if (rc == 0) printf("lifecycle: PE %d: %s: passed\n", me, argv[1]);
    return rc;
}
