/* tests/surface/generic_c11.c -- the generic names as C11 _Generic macros
 * (gasket/shmem_generic.h), on every PE; the test body is generic_calls.h,
 * shared word for word with generic_cxx.cpp.  Built with oshcc -std=c11. */
#include "generic_calls.h"

#if !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L
#error "build as C11 (the generic interface is C11)"
#endif
#ifndef shmem_put
#error "shmem.h did not define the C11 generic shmem_put"
#endif

int main(void) {
    shmem_init();
    long checks = run_generic_calls();
    printf("PE %d: generic_c11: %ld checks passed\n", shmem_my_pe(), checks);
    shmem_finalize();
    return 0;
}
