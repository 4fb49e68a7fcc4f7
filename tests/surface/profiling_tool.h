/* tests/surface/profiling_tool.h -- what profiling_tool.c counted. */
#ifndef GASKET_TEST_PROFILING_TOOL_H
#define GASKET_TEST_PROFILING_TOOL_H

struct prof_counts {
    long puts;      /* calls of shmem_long_put that reached the tool */
    long barriers;  /* calls of shmem_barrier_all */
    long pcontrols; /* calls of shmem_pcontrol */
    int level;      /* the last profiling level set */
};
struct prof_counts prof_counts(void);

#endif
