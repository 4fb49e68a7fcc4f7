// tests/mpi/error_cases.cpp -- programs that must end the whole job with a
// nonzero status and a message naming the routine and the bad value.  Run
// as `oshrun -np 2 gasket_mpi_error_cases <case>` under expect_failure.sh,
// which checks the exit status and greps the output.
//
// Each case prints "error_cases: <case>: reached" before the bad call, and
// "error_cases: <case>: NOT STOPPED" (exit 0 would follow) if the library
// let the program continue.  PEs that do not make the bad call wait in a
// barrier: the job must end anyway.
#include <shmem.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

namespace {

long g_global[16];
long g_lock;
std::uint64_t g_sig;

void reached(const char* name) {
    std::printf("error_cases: %s: reached on PE %d\n", name, shmem_my_pe());
    std::fflush(stdout);
}

[[noreturn]] void not_stopped(const char* name) {
    std::printf("error_cases: %s: NOT STOPPED on PE %d\n", name, shmem_my_pe());
    std::fflush(stdout);
    shmem_finalize();
    std::exit(0);
}

int usage() {
    std::fprintf(stderr,
                 "usage: gasket_mpi_error_cases CASE\n"
                 "  put_pe_too_big put_pe_negative put_stack_address put_past_heap_end get_past_heap_end\n"
                 "  iput_past_heap_end ctx_bogus wait_until_bad_cmp free_not_heap init_bad_size global_exit\n"
                 "  amo_pe_too_big amo_stack_address put_signal_bad_op clear_lock_not_held\n"
                 "  wait_until_any_bad_cmp signal_wait_until_bad_cmp\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) return usage();
    const std::string what = argv[1];

    if (what == "init_bad_size") {
        // Run with SHMEM_SYMMETRIC_SIZE=bogus: shmem_init ends the job.
        shmem_init();
        not_stopped(what.c_str());
    }

    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    long src[16] = {};

    if (what == "put_pe_too_big") {
        if (me == 0) {
            reached(what.c_str());
            shmem_long_put(g_global, src, 4, n);  // PE n does not exist
            not_stopped(what.c_str());
        }
    } else if (what == "put_pe_negative") {
        if (me == 0) {
            reached(what.c_str());
            shmem_int_p(reinterpret_cast<int*>(g_global), 1, -1);
            not_stopped(what.c_str());
        }
    } else if (what == "put_stack_address") {
        if (me == 0) {
            long on_stack[4];
            reached(what.c_str());
            shmem_long_put(on_stack, src, 4, 1 % n);
            not_stopped(what.c_str());
        }
    } else if (what == "put_past_heap_end" || what == "get_past_heap_end" || what == "iput_past_heap_end") {
        // Run with SHMEM_SYMMETRIC_SIZE=1M: two half-heap blocks fill it; a
        // transfer at the second one that is one byte (or one element) too
        // long runs past the end of the heap.
        const std::size_t half = (std::size_t(1) << 20) / 2;
        char* first = static_cast<char*>(shmem_malloc(half));
        char* second = static_cast<char*>(shmem_malloc(half));
        if (!first || !second) {
            std::printf("error_cases: %s: setup failed: shmem_malloc returned NULL (SHMEM_SYMMETRIC_SIZE=1M?)\n",
                        what.c_str());
            not_stopped(what.c_str());
        }
        if (me == 0) {
            char* big = static_cast<char*>(std::calloc(2 * half, 1));
            reached(what.c_str());
            if (what == "put_past_heap_end")
                shmem_putmem(second, big, half + 1, 1 % n);
            else if (what == "get_past_heap_end")
                shmem_getmem(big, second, half + 1, 1 % n);
            else  // 1025 longs, 64 longs apart: 1024 * 512 + 8 bytes from the block's start
                shmem_long_iput(reinterpret_cast<long*>(second), reinterpret_cast<long*>(big), 64, 1, 1025, 1 % n);
            not_stopped(what.c_str());
        }
    } else if (what == "ctx_bogus") {
        if (me == 0) {
            reached(what.c_str());
            shmem_ctx_long_put(reinterpret_cast<shmem_ctx_t>(0x1234), g_global, src, 4, 1 % n);
            not_stopped(what.c_str());
        }
    } else if (what == "wait_until_bad_cmp") {
        if (me == 0) {
            reached(what.c_str());
            shmem_long_wait_until(g_global, 99, 0);
            not_stopped(what.c_str());
        }
    } else if (what == "amo_pe_too_big") {
        if (me == 0) {
            reached(what.c_str());
            shmem_long_atomic_fetch_add(g_global, 1, n);  // PE n does not exist
            not_stopped(what.c_str());
        }
    } else if (what == "amo_stack_address") {
        if (me == 0) {
            long on_stack = 0;
            reached(what.c_str());
            shmem_long_atomic_fetch_add(&on_stack, 1, 1 % n);
            not_stopped(what.c_str());
        }
    } else if (what == "put_signal_bad_op") {
        if (me == 0) {
            reached(what.c_str());
            shmem_putmem_signal(g_global, src, sizeof src, &g_sig, 1, 99, 1 % n);
            not_stopped(what.c_str());
        }
    } else if (what == "clear_lock_not_held") {
        if (me == 0) {
            reached(what.c_str());
            shmem_clear_lock(&g_lock);  // never set
            not_stopped(what.c_str());
        }
    } else if (what == "wait_until_any_bad_cmp") {
        if (me == 0) {
            reached(what.c_str());
            shmem_long_wait_until_any(g_global, 4, nullptr, 99, 0);
            not_stopped(what.c_str());
        }
    } else if (what == "signal_wait_until_bad_cmp") {
        if (me == 0) {
            reached(what.c_str());
            shmem_signal_wait_until(&g_sig, 99, 0);
            not_stopped(what.c_str());
        }
    } else if (what == "free_not_heap") {
        // Collective, so every PE makes the bad call.
        reached(what.c_str());
        shmem_free(g_global);
        not_stopped(what.c_str());
    } else if (what == "global_exit") {
        // PE 1 ends the job with status 3 while the others wait in a barrier
        // (PE 0 after a short pause, so the exit can overtake it either way).
        if (me == 1 % n) {
            reached(what.c_str());
            shmem_global_exit(3);
            not_stopped(what.c_str());
        }
        usleep(100 * 1000);
    } else {
        shmem_finalize();
        return usage();
    }
    // PEs not making the bad call: block until the job is ended for them.
    shmem_barrier_all();
    shmem_barrier_all();
    std::printf("error_cases: %s: PE %d passed the barrier (the job should have ended)\n", what.c_str(), me);
    shmem_finalize();
    return 0;
}
