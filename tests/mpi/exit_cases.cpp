// tests/mpi/exit_cases.cpp -- how an OpenSHMEM job ends when its PEs leave
// main: exit(n) or a return without shmem_finalize while others wait in a
// barrier, every PE returning without it (implicit finalization, also when
// one PE leaves much later), and initialization again after the last
// shmem_finalize (§9.1.1, §9.1.4).  Run as `oshrun -np N gasket_mpi_exit_cases
// <case>` under expect_exit.sh, which checks the job's exit status, the time
// it took, and that no process or /dev/shm file is left (CMakeLists.txt).
//
// Each case prints "exit_cases: <case>: ..." lines; "NOT STOPPED" (which
// fails the test) if a PE gets past the point where the job must have
// ended.  A case whose checks fail on some PE exits with status 1 there.
#include <shmem.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

std::string g_case;
long g_global = 0;
int g_me = -1;  // this PE (also after shmem_finalize)

void say(const char* what) {
    std::printf("exit_cases: %s: %s on PE %d\n", g_case.c_str(), what, g_me);
    std::fflush(stdout);
}

// The PEs that do not leave wait in barriers; the job must end meanwhile.
int wait_in_barriers() {
    shmem_barrier_all();
    shmem_barrier_all();
    say("NOT STOPPED: passed the barriers");
    shmem_finalize();
    return 0;
}

int failed(const char* what) {
    std::printf("exit_cases: %s: FAILED on PE %d: %s\n", g_case.c_str(), g_me, what);
    std::fflush(stdout);
    return 1;
}

// One round of work that needs the heap, a team, a context, globals and
// collectives; 0 when every result is right on this PE.
int one_round(int round) {
    const int me = shmem_my_pe(), n = shmem_n_pes();
    long* ring = static_cast<long*>(shmem_malloc(4 * sizeof(long)));
    if (!ring) return failed("shmem_malloc returned NULL");
    ring[0] = -1;
    ring[1] = 0;
    g_global = -1;
    shmem_barrier_all();
    shmem_long_p(ring, 1000L * round + me, (me + 1) % n);
    shmem_long_p(&g_global, 2000L * round + me, (me + 1) % n);
    shmem_barrier_all();
    const int left = (me + n - 1) % n;
    if (ring[0] != 1000L * round + left) return failed("heap put");
    if (g_global != 2000L * round + left) return failed("global put");

    // A team of the even PEs and a context on it.
    shmem_team_t evens = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, nullptr, 0, &evens);
    if (me % 2 == 0) {
        if (evens == SHMEM_TEAM_INVALID) return failed("team split");
        shmem_ctx_t ctx = SHMEM_CTX_INVALID;
        if (shmem_team_create_ctx(evens, 0, &ctx) != 0) return failed("team context");
        const int tn = shmem_team_n_pes(evens), tme = shmem_team_my_pe(evens);
        shmem_ctx_long_atomic_add(ctx, &ring[1], round, 0);
        shmem_ctx_quiet(ctx);
        shmem_ctx_destroy(ctx);
        shmem_team_sync(evens);
        if (tme == 0 && ring[1] != long(round) * tn) return failed("atomic add on a team context");
        shmem_team_destroy(evens);
    } else if (evens != SHMEM_TEAM_INVALID) {
        return failed("odd PE in the even team");
    }

    long sum = 0;
    ring[2] = me;
    shmem_barrier_all();
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &ring[3], &ring[2], 1);
    sum = ring[3];
    if (sum != long(n) * (n - 1) / 2) return failed("sum reduction");
    shmem_free(ring);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr,
                     "usage: gasket_mpi_exit_cases CASE\n"
                     "  exit_while_others_wait return_while_others_wait exit0_while_others_wait\n"
                     "  all_return_without_finalize one_returns_late reinit\n");
        return 2;
    }
    g_case = argv[1];
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int leaver = n - 1;
    g_me = me;
    // A first barrier, as programs have before they end: the first barrier
    // on a team makes its node-shared memory (a blocking MPI call).
    shmem_barrier_all();

    if (g_case == "exit_while_others_wait") {
        // exit(3) without shmem_finalize: the job ends with 3.
        if (me == leaver) {
            say("calls exit(3)");
            std::exit(3);
        }
        return wait_in_barriers();
    }
    if (g_case == "return_while_others_wait") {
        // return 4 from main without shmem_finalize: the job ends with 4.
        if (me == leaver) {
            say("returns 4 from main");
            return 4;
        }
        return wait_in_barriers();
    }
    if (g_case == "exit0_while_others_wait") {
        // exit(0) without shmem_finalize (implicit finalization) while the
        // others wait for it in a barrier: the job ends with 1, as MPI ends
        // a job whose process exits without MPI_Finalize.
        if (me == leaver) {
            say("calls exit(0)");
            std::exit(0);
        }
        return wait_in_barriers();
    }
    if (g_case == "all_return_without_finalize") {
        // Every PE returns 0 after some work, no shmem_finalize: clean end.
        if (one_round(1) != 0) return 1;
        say("returns 0 from main");
        return 0;
    }
    if (g_case == "one_returns_late") {
        // The same, with PE 0 still computing 4 s (longer than the exit
        // timeout, set to 2 s) after the others returned, then reading a
        // value from the last PE: implicit finalization is collective and
        // waits for it, serving it meanwhile.
        if (one_round(1) != 0) return 1;
        shmem_barrier_all();
        if (me == 0) {
            sleep(4);
            if (shmem_long_g(&g_global, leaver) != 2000L + (leaver + n - 1) % n)
                return failed("get from a PE that returned");
        }
        say("returns 0 from main");
        return 0;
    }
    if (g_case == "reinit") {
        // init -> work -> finalize -> init -> work -> finalize (§9.1.1, §9.1.4).
        if (one_round(1) != 0) return 1;
        shmem_finalize();
        int initialized = 1;
        shmem_query_initialized(&initialized);
        if (initialized) return failed("still initialized after shmem_finalize");
        shmem_init();
        shmem_query_initialized(&initialized);
        if (!initialized || shmem_my_pe() != me || shmem_n_pes() != n) return failed("second shmem_init");
        if (one_round(2) != 0) return 1;
        shmem_finalize();
        say("finished two rounds");
        return 0;
    }
    std::fprintf(stderr, "gasket_mpi_exit_cases: unknown case %s\n", g_case.c_str());
    shmem_finalize();
    return 2;
}
