/* tests/gasnet_tools/conduit_mode.c -- gasnet_tools.h after gasnet.h: in every
 * GASNet mode (the test passes -DGASNET_SEQ, _PARSYNC or _PAR) the tools are
 * GASNETT_THREAD_SAFE, since Gasket's progress thread runs handlers in every
 * mode; with -DGASNETT_THREAD_SINGLE the header stops with an #error naming
 * the conflict (gasnet_tools.conduit_mode.single expects that message). */
#include <gasnet.h>
#include <gasnet_tools.h>

#if !defined(GASNETT_THREAD_SAFE) || defined(GASNETT_THREAD_SINGLE)
#error "conduit_mode.c: the tools are not GASNETT_THREAD_SAFE after gasnet.h"
#endif

int main(void) {
    gasnett_atomic_t a = gasnett_atomic_init(1);
    return gasnett_atomic_decrement_and_test(&a, 0) ? 0 : 1;
}
