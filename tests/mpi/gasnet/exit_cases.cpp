// tests/mpi/gasnet/exit_cases.cpp -- how a GASNet job ends (gasnet-1.8-spec.md
// §2.1.0.5): returns from main without gasnet_exit (every node, or one node
// while the others wait in a barrier or compute), gasnet_exit noticed at
// once by nodes waiting in gasnet_barrier_wait, and SIGQUIT: sent to the
// other nodes when a node exits, and for a terminate signal; a client
// handler runs and may choose the job's exit code.  Run as
// `oshrun -np N gasket_gasnet_exit_cases <case> [status]` under
// ../expect_exit.sh, which checks the exit status, the time taken, and that
// no process or /dev/shm file is left (CMakeLists.txt).
//
// Lines "gasnet_exit_cases: <case>: ..."; "NOT STOPPED" (which fails the
// test) when a node gets past the point where the job must have ended.
// The node that leaves is the last one; the others wait in a barrier
// unless the case says otherwise.
#include <gasnet.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

std::string g_case;
int g_handler_code = 0;  // gasnet_exit code of the SIGQUIT handler (0: it returns)

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

void say(const std::string& what) {
    std::printf("gasnet_exit_cases: %s: %s\n", g_case.c_str(), what.c_str());
    std::fflush(stdout);
}

[[noreturn]] void not_stopped(const std::string& why) {
    say("NOT STOPPED on node " + std::to_string(gasnet_mynode()) + ": " + why);
    std::_Exit(0);
}

// The client's SIGQUIT handler: says so (write(2): it may run for a
// terminate signal), then gasnet_exit(g_handler_code) or returns.
void on_sigquit(int) {
    char line[128];
    const int n = std::snprintf(line, sizeof line, "gasnet_exit_cases: %s: SIGQUIT handler ran on node %d\n",
                                g_case.c_str(), int(gasnet_mynode()));
    if (n > 0) (void)!write(1, line, std::size_t(n));
    if (g_handler_code != 0) gasnet_exit(g_handler_code);
}

void install_sigquit_handler(int code) {
    g_handler_code = code;
    struct sigaction sa {};
    sa.sa_handler = on_sigquit;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGQUIT, &sa, nullptr);
}

// Waits in an anonymous barrier that the leaving node never enters.
[[noreturn]] void wait_in_barrier() {
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
    not_stopped("passed a barrier that a node which left never entered");
}

// Computes without any GASNet call for 30 s.
[[noreturn]] void compute() {
    const double deadline = now_s() + 30.0;
    volatile double x = 1.0;
    while (now_s() < deadline) x = x * 1.0000001 + 1e-9;
    not_stopped("still computing 30 s after a node left");
}

void barrier() {
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
}

}  // namespace

int main(int argc, char** argv) {
    if (gasnet_init(&argc, &argv) != GASNET_OK) return 2;
    if (argc < 2) {
        std::fprintf(stderr,
                     "usage: gasket_gasnet_exit_cases CASE [STATUS]\n"
                     "  all_return return_while_barrier return_while_computing exit_while_barrier\n"
                     "  sigquit_handler_exits sigquit_handler_returns sigterm_handler_exits sigterm_no_handler\n"
                     "  crash_with_handler\n");
        gasnet_exit(2);
    }
    g_case = argv[1];
    const int status = argc > 2 ? std::atoi(argv[2]) : 0;
    if (gasnet_attach(nullptr, 0, 16 * GASNET_PAGESIZE, 0) != GASNET_OK) gasnet_exit(2);
    const int me = gasnet_mynode(), n = gasnet_nodes();
    const int leaver = n - 1;
    barrier();

    if (g_case == "all_return") {
        // Every node returns `status` from main, no gasnet_exit.
        barrier();
        say("node " + std::to_string(me) + " returns " + std::to_string(status) + " from main");
        return status;
    }
    if (g_case == "return_while_barrier" || g_case == "return_while_computing") {
        // The last node returns `status` from main while the others wait in
        // a barrier (they must notice at once) or compute (the exit
        // timeout ends them).
        if (me == leaver) {
            usleep(200 * 1000);  // let the others settle
            say("node " + std::to_string(me) + " returns " + std::to_string(status) + " from main");
            return status;
        }
        if (g_case == "return_while_barrier") wait_in_barrier();
        compute();
    }
    if (g_case == "exit_while_barrier") {
        // gasnet_exit(7) while the others wait in gasnet_barrier_wait: they
        // notice at once (the exit timeout is long in this test).
        if (me == leaver) {
            usleep(200 * 1000);
            say("node " + std::to_string(me) + " calls gasnet_exit(7)");
            gasnet_exit(7);
            not_stopped("gasnet_exit returned");
        }
        wait_in_barrier();
    }
    if (g_case == "sigquit_handler_exits" || g_case == "sigquit_handler_returns") {
        // The waiting nodes get SIGQUIT when the last node calls
        // gasnet_exit(7): their handler runs and calls gasnet_exit(9) (the
        // job ends with 9) or returns (the job ends with 7).
        if (me != leaver) install_sigquit_handler(g_case == "sigquit_handler_exits" ? 9 : 0);
        barrier();
        if (me == leaver) {
            usleep(200 * 1000);
            say("node " + std::to_string(me) + " calls gasnet_exit(7)");
            gasnet_exit(7);
            not_stopped("gasnet_exit returned");
        }
        wait_in_barrier();
    }
    if (g_case == "sigterm_handler_exits" || g_case == "sigterm_no_handler") {
        // Node 0 receives SIGTERM while the others wait in a barrier: its
        // SIGQUIT handler runs and calls gasnet_exit(11) (the job ends with
        // 11); without a handler SIGTERM ends it as it would any program.
        if (g_case == "sigterm_handler_exits" && me == 0) install_sigquit_handler(11);
        barrier();
        if (me == 0) {
            say("node 0 receives SIGTERM");
            kill(getpid(), SIGTERM);
            usleep(5 * 1000 * 1000);
            not_stopped("SIGTERM did not end node 0");
        }
        wait_in_barrier();
    }
    if (g_case == "crash_with_handler") {
        // The last node crashes (abort) while node 0, with a SIGQUIT
        // handler that calls gasnet_exit(11), waits in a barrier: the
        // launcher ends node 0 with SIGTERM, which runs the handler.
        if (me == 0) install_sigquit_handler(11);
        barrier();
        if (me == leaver) {
            usleep(200 * 1000);
            say("node " + std::to_string(me) + " crashes");
            std::abort();
        }
        wait_in_barrier();
    }
    std::fprintf(stderr, "gasket_gasnet_exit_cases: unknown case %s\n", g_case.c_str());
    gasnet_exit(2);
}
