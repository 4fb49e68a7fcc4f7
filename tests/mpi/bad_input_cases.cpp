// tests/mpi/bad_input_cases.cpp -- absurd sizes, strides and handles that
// must end the whole job with a nonzero status and a message naming the
// routine and the bad value.  Run as `oshrun -np 2 gasket_mpi_bad_input_cases
// <case>` under expect_failure.sh (as error_cases.cpp).
//
// Each case prints "bad_input_cases: <case>: reached" before the bad call,
// and "bad_input_cases: <case>: NOT STOPPED" if the library let the program
// continue.  PEs that do not make the bad call wait in a barrier: the job
// must end anyway.
#include <shmem.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

long g_dest[64];
long g_src[64];
std::uint64_t g_sig;

// 2^61 + 1 longs: 2^64 + 8 bytes, which wrapped to 8.
constexpr std::size_t kWrapping = (std::size_t(1) << 61) + 1;

void reached(const std::string& name) {
    std::printf("bad_input_cases: %s: reached on PE %d\n", name.c_str(), shmem_my_pe());
    std::fflush(stdout);
}

[[noreturn]] void not_stopped(const std::string& name) {
    std::printf("bad_input_cases: %s: NOT STOPPED on PE %d\n", name.c_str(), shmem_my_pe());
    std::fflush(stdout);
    shmem_finalize();
    std::exit(0);
}

// The bad call of a case made on PE 0 only; false for an unknown case.
bool one_pe_case(const std::string& what, int peer) {
    long local[64] = {};
    if (what == "long_put_wraps") {
        shmem_long_put(g_dest, local, kWrapping, peer);
    } else if (what == "long_get_nbi_wraps") {
        shmem_long_get_nbi(local, g_src, kWrapping, peer);
    } else if (what == "put_signal_wraps") {
        shmem_long_put_signal(g_dest, local, kWrapping, &g_sig, 1, SHMEM_SIGNAL_SET, peer);
    } else if (what == "iput_stride_wraps") {
        // Element 1 at 2^62 longs = 2^65 bytes: wrapped to g_dest itself.
        shmem_long_iput(g_dest, local, std::ptrdiff_t(1) << 62, 1, 3, peer);
    } else if (what == "iget_stride_past_segment") {
        // No overflow (2^40 longs), but far past the global data.
        shmem_long_iget(local, g_src, 1, std::ptrdiff_t(1) << 40, 2, peer);
    } else if (what == "ibput_block_wraps") {
        shmem_ibput64(g_dest, local, 1, 1, kWrapping, 1, peer);
    } else if (what == "wait_all_wraps") {
        // 2^61 + 1 longs from g_dest: the last one wrapped back onto g_dest.
        shmem_long_wait_until_all(g_dest, kWrapping, nullptr, SHMEM_CMP_EQ, 0);
    } else if (what == "zero_length_bad_pe") {
        shmem_putmem(nullptr, local, 0, shmem_n_pes());  // length 0 still checks the PE
    } else if (what == "team_bogus") {
        shmem_team_n_pes(reinterpret_cast<shmem_team_t>(&g_dest[3]));
    } else {
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: gasket_mpi_bad_input_cases CASE (see tests/mpi/CMakeLists.txt)\n");
        return 2;
    }
    const std::string what = argv[1];
    shmem_init();  // init_too_big: ends the job here
    if (what == "init_too_big") not_stopped(what);
    const int me = shmem_my_pe(), n = shmem_n_pes();

    // Collective cases: every PE makes the bad call.
    if (what == "broadcast_wraps" || what == "alltoall_wraps" || what == "reduce_wraps" || what == "fcollect_wraps" ||
        what == "malloc_sizes_differ" || what == "team_destroyed_sync") {
        reached(what);
        if (what == "broadcast_wraps")
            shmem_long_broadcast(SHMEM_TEAM_WORLD, g_dest, g_src, kWrapping, 0);
        else if (what == "alltoall_wraps")
            shmem_long_alltoall(SHMEM_TEAM_WORLD, g_dest, g_src, kWrapping);
        else if (what == "reduce_wraps")
            shmem_long_sum_reduce(SHMEM_TEAM_WORLD, g_dest, g_src, kWrapping);
        else if (what == "fcollect_wraps")
            shmem_long_fcollect(SHMEM_TEAM_WORLD, g_dest, g_src, kWrapping);
        else if (what == "malloc_sizes_differ")  // run with SHMEM_DEBUG=1
            shmem_malloc(me == 0 ? 64 : 128);
        else {
            shmem_team_t team = SHMEM_TEAM_INVALID;
            shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, nullptr, 0, &team);
            shmem_team_destroy(team);
            shmem_team_sync(team);
        }
        not_stopped(what);
    }
    if (what == "team_destroyed") {
        shmem_team_t team = SHMEM_TEAM_INVALID;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, nullptr, 0, &team);
        shmem_team_destroy(team);
        if (me == 0) {
            reached(what);
            shmem_team_my_pe(team);
            not_stopped(what);
        }
    } else if (me == 0) {
        reached(what);
        if (!one_pe_case(what, 1 % n)) {
            std::fprintf(stderr, "bad_input_cases: unknown case %s\n", what.c_str());
            shmem_global_exit(2);
        }
        not_stopped(what);
    }
    // PEs not making the bad call: block until the job is ended for them.
    shmem_barrier_all();
    shmem_barrier_all();
    std::printf("bad_input_cases: %s: PE %d passed the barrier (the job should have ended)\n", what.c_str(), me);
    shmem_finalize();
    return 0;
}
