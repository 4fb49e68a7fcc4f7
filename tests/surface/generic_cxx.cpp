// tests/surface/generic_cxx.cpp -- the generic names as C++ overloads
// (gasket/shmem_cxx.h), on every PE: the test body is generic_calls.h,
// shared word for word with generic_c11.c, plus generic calls from inside a
// template, the way C++ code uses them.  Built with oshc++.
#include "generic_calls.h"

#include <pshmem.h>  // the profiling names compile as C++ too

#ifdef shmem_put
#error "in C++ shmem_put must be an overloaded function, not the C11 macro"
#endif

// One template for any Table 5 / Table 7 type: shmem_p, shmem_g,
// shmem_atomic_fetch and shmem_atomic_swap resolve per instantiation.
template <class T>
static void template_ring(const char* type) {
    T* x = static_cast<T*>(shmem_malloc(2 * sizeof(T)));
    x[0] = T(0);
    x[1] = T(0);
    shmem_barrier_all();
    shmem_p(x, VAL(T, g_me, 1), g_right);
    shmem_barrier_all();
    CHECK(type, x[0] == VAL(T, g_left, 1));
    CHECK(type, shmem_g(x, g_right) == VAL(T, g_me, 1));
    shmem_atomic_set(SHMEM_CTX_DEFAULT, x + 1, VAL(T, g_me, 2), g_right);
    CHECK(type, shmem_atomic_swap(x + 1, VAL(T, g_me, 3), g_right) == VAL(T, g_me, 2));
    CHECK(type, shmem_atomic_fetch(x + 1, g_right) == VAL(T, g_me, 3));
    shmem_barrier_all();
    shmem_free(x);
}

int main() {
    shmem_init();
    run_generic_calls();
    template_ring<int>("int");
    template_ring<double>("double");
    template_ring<unsigned long long>("unsigned long long");
    template_ring<int64_t>("int64_t");
    CHECK("pshmem.h", pshmem_my_pe() == shmem_my_pe() && pshmem_n_pes() == g_n);
    printf("PE %d: generic_cxx: %ld checks passed\n", shmem_my_pe(), g_checks);
    shmem_finalize();
    return 0;
}
