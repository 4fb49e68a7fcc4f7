// tests/mpi/context_error_cases.cpp -- misuse of teams, contexts and
// sessions that must end the job with a message naming the routine and the
// bad value (run by expect_failure.sh; see tests/mpi/CMakeLists.txt).
// Usage: gasket_mpi_context_error_cases <case>
#include <shmem.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

long g_cell;

void reached(const char* what) {
    std::printf("context_error_cases: %s: reached on PE %d\n", what, shmem_my_pe());
    std::fflush(stdout);
}
void not_stopped(const char* what) {
    std::printf("context_error_cases: %s: NOT STOPPED\n", what);
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <case>\n", argv[0]);
        return 2;
    }
    const std::string what = argv[1];
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    bool known = true;
    if (what == "ctx_used_after_destroy") {
        shmem_ctx_t ctx;
        if (shmem_ctx_create(0, &ctx) != 0) return 3;
        shmem_ctx_destroy(ctx);
        if (me == 0) {
            reached(what.c_str());
            shmem_ctx_long_p(ctx, &g_cell, 1, 1 % n);
            not_stopped(what.c_str());
        }
    } else if (what == "ctx_invalid_put") {
        if (me == 0) {
            reached(what.c_str());
            shmem_ctx_long_p(SHMEM_CTX_INVALID, &g_cell, 1, 1 % n);
            not_stopped(what.c_str());
        }
    } else if (what == "team_ctx_pe_out_of_range") {
        shmem_team_t evens;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, nullptr, 0, &evens);
        if (me == 0) {
            shmem_ctx_t ctx;
            if (shmem_team_create_ctx(evens, 0, &ctx) != 0) return 3;
            reached(what.c_str());
            shmem_ctx_long_atomic_add(ctx, &g_cell, 1, 5);
            not_stopped(what.c_str());
        }
    } else if (what == "team_destroy_world") {
        if (me == 0) {
            reached(what.c_str());
            shmem_team_destroy(SHMEM_TEAM_WORLD);
            not_stopped(what.c_str());
        }
    } else if (what == "ctx_destroy_default") {
        if (me == 0) {
            reached(what.c_str());
            shmem_ctx_destroy(SHMEM_CTX_DEFAULT);
            not_stopped(what.c_str());
        }
    } else if (what == "session_bad_option") {
        if (me == 0) {
            reached(what.c_str());
            shmem_ctx_session_start(SHMEM_CTX_DEFAULT, 1L << 7, nullptr, 0);
            not_stopped(what.c_str());
        }
    } else if (what == "team_destroy_with_private_ctx") {
        shmem_team_t all;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, nullptr, 0, &all);
        shmem_ctx_t ctx;
        if (shmem_team_create_ctx(all, SHMEM_CTX_PRIVATE, &ctx) != 0) return 3;
        reached(what.c_str());
        shmem_team_destroy(all);
        not_stopped(what.c_str());
    } else {
        known = false;
    }
    if (!known) {
        std::fprintf(stderr, "unknown case '%s'\n", what.c_str());
        return 2;
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
