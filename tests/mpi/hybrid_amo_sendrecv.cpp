// tests/mpi/hybrid_amo_sendrecv.cpp -- the MPI + SHMEM pattern of issue 15:
// a program that initializes MPI itself, PEs 1..n-1 sending bursts of
// AMOs (more than the per-peer credits) to PE 0, and every PE then
// exchanging a message with PE 0 through the program's own MPI_Sendrecv.
//
//   hybrid_amo_sendrecv multiple   MPI_THREAD_MULTIPLE: no barrier before
//       the exchange; PE 0 waits in MPI_Sendrecv while the AMOs are in
//       flight, and the progress thread serves them.
//   hybrid_amo_sendrecv single     MPI_THREAD_SINGLE: no progress thread.
//       shmem_init must say so on PE 0 (the AMOs to a PE blocked in the
//       program's own MPI call deadlock; checked by capturing stderr), and
//       the remedy it names (shmem_barrier_all between the AMOs and the
//       MPI call) must work.
//
// Every PE checks the exchanged values; PE 0 checks the counter.  Exit 0
// on success, 1 on a failed check.  Registered with a timeout: a hang
// fails.
#include <mpi.h>
#include <shmem.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr int kRounds = 40;
constexpr int kAmos = 160;  // per round and PE: past the credits (at most 64 per peer)

// Runs shmem_init with stderr sent to a file; returns what it printed.
std::string init_capturing_stderr() {
    char path[] = "/tmp/gasket-hybrid-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) {
        std::perror("mkstemp");
        std::exit(1);
    }
    std::fflush(stderr);
    const int saved = dup(2);
    dup2(fd, 2);
    shmem_init();
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::string text;
    char buf[4096];
    lseek(fd, 0, SEEK_SET);
    for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) text.append(buf, std::size_t(n));
    close(fd);
    unlink(path);
    std::fputs(text.c_str(), stderr);  // still shown
    return text;
}

}  // namespace

int main(int argc, char** argv) {
    const bool single = argc > 1 && std::strcmp(argv[1], "single") == 0;
    if (argc < 2 || (!single && std::strcmp(argv[1], "multiple") != 0)) {
        std::fprintf(stderr, "usage: hybrid_amo_sendrecv single|multiple\n");
        return 2;
    }
    int provided = 0;
    MPI_Init_thread(&argc, &argv, single ? MPI_THREAD_SINGLE : MPI_THREAD_MULTIPLE, &provided);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const std::string said = init_capturing_stderr();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    int failures = 0;
    const char* fastpath = std::getenv("GASKET_NODE_FASTPATH");
    const bool through_mpi = fastpath && std::strcmp(fastpath, "off") == 0;
    if (single && me == 0 && through_mpi &&
        said.find("no progress thread serves Active Messages") == std::string::npos) {
        std::fprintf(stderr, "PE 0: shmem_init did not say that no progress thread serves AMOs (stderr: '%s')\n",
                     said.c_str());
        ++failures;
    }
    if (!single && provided != MPI_THREAD_MULTIPLE) {
        std::fprintf(stderr, "PE %d: MPI gave thread level %d, not MPI_THREAD_MULTIPLE\n", me, provided);
        ++failures;
    }

    long* counter = static_cast<long*>(shmem_calloc(1, sizeof(long)));
    for (int r = 0; r < kRounds; ++r) {
        if (me != 0)
            for (int i = 0; i < kAmos; ++i) shmem_long_atomic_add(counter, 1, 0);
        if (single) shmem_barrier_all();  // the remedy shmem_init names
        if (me == 0) {
            for (int p = 1; p < n; ++p) {
                int out = r * 1000 + p, in = -1;
                MPI_Sendrecv(&out, 1, MPI_INT, p, 5, &in, 1, MPI_INT, p, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (in != r * 1000 + p + 500000) ++failures;
            }
        } else {
            int out = r * 1000 + me + 500000, in = -1;
            MPI_Sendrecv(&out, 1, MPI_INT, 0, 5, &in, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (in != r * 1000 + me) ++failures;
        }
    }
    shmem_barrier_all();
    if (me == 0 && *counter != long(n - 1) * kRounds * kAmos) {
        std::fprintf(stderr, "PE 0: counter %ld, expected %ld\n", *counter, long(n - 1) * kRounds * kAmos);
        ++failures;
    }
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    shmem_free(counter);
    shmem_finalize();
    MPI_Finalize();
    if (rank == 0) std::printf("hybrid_amo_sendrecv %s: %s\n", argv[1], all ? "FAILED" : "passed");
    return all ? 1 : 0;
}
