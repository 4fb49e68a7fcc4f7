// tests/mpi/shmem_test_main.cpp -- GoogleTest main for the SHMEM tests run
// under oshrun.  Every PE runs every test and asserts; only PE 0 prints
// gtest's normal output, the other PEs print only their failures (tagged
// with the PE).  After each test the PEs exchange their verdicts (MPI on
// MPI_COMM_WORLD, independent of the library under test), so PE 0 reports a
// test that failed elsewhere, and at the end the verdict is ANDed over all
// PEs: a failure on any PE makes every PE exit nonzero.
//
// Start-up/shutdown variants, chosen at compile time:
//  - default: shmem_init ... shmem_finalize;
//  - GASKET_TEST_START_PES: start_pes(0) and no shmem_finalize (the
//    deprecated entry point; finalization is implicit at exit);
//  - GASKET_TEST_HYBRID: the program owns MPI: MPI_Init_thread before
//    shmem_init, and after shmem_finalize checks that MPI is still usable,
//    then calls MPI_Finalize itself.
//  - GASKET_TEST_THREAD_MULTIPLE: shmem_init_thread(SHMEM_THREAD_MULTIPLE);
//    its return value and *provided are kept in gasket_test::init_thread_rc
//    and gasket_test::init_thread_provided for the tests to check.
#include <mpi.h>
#include <shmem.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

int g_pe = -1, g_npes = 0;
std::vector<std::string> g_failed_elsewhere;  // PE 0: tests that failed on another PE

// Non-zero PEs: print nothing but failures, tagged with the PE.
// (gtest holds its lock during OnTestPartResult: remember the test's name
// at its start instead of asking for it then.)
class PeFailurePrinter : public ::testing::EmptyTestEventListener {
    void OnTestStart(const ::testing::TestInfo& t) override {
        current_ = std::string(t.test_suite_name()) + "." + t.name();
    }
    void OnTestEnd(const ::testing::TestInfo&) override { current_ = "(between tests)"; }
    void OnTestPartResult(const ::testing::TestPartResult& r) override {
        if (!r.failed()) return;
        std::fprintf(stderr, "[PE %d] %s: %s:%d: Failure\n%s\n", g_pe, current_.c_str(),
                     r.file_name() ? r.file_name() : "?", r.line_number(), r.message());
        std::fflush(stderr);
    }
    std::string current_ = "(between tests)";
};

// Every PE: after each test, gather which PEs failed it (this also keeps the
// PEs in step, test by test).
class CrossPeVerdict : public ::testing::EmptyTestEventListener {
    void OnTestEnd(const ::testing::TestInfo& t) override {
        int failed = t.result()->Failed() ? 1 : 0;
        std::vector<int> all(static_cast<std::size_t>(g_npes));
        MPI_Allgather(&failed, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD);
        if (g_pe != 0) return;
        std::string pes;
        for (int pe = 1; pe < g_npes; ++pe)
            if (all[pe]) pes += " " + std::to_string(pe);
        if (pes.empty()) return;
        std::string name = std::string(t.test_suite_name()) + "." + t.name();
        std::printf("[  FAILED  ] %s failed on PE(s)%s (their messages are on stderr)\n", name.c_str(), pes.c_str());
        std::fflush(stdout);
        g_failed_elsewhere.push_back(name + " (PEs" + pes + ")");
    }
    void OnTestProgramEnd(const ::testing::UnitTest&) override {
        if (g_pe != 0 || g_failed_elsewhere.empty()) return;
        std::printf("[  FAILED  ] %zu test(s) failed on PEs other than 0:\n", g_failed_elsewhere.size());
        for (const auto& n : g_failed_elsewhere) std::printf("[  FAILED  ]   %s\n", n.c_str());
        std::fflush(stdout);
    }
};

// AND over every PE through MPI_COMM_WORLD.
bool all_pes(bool ok) {
    int mine = ok ? 1 : 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all != 0;
}

}  // namespace

#if defined(GASKET_TEST_THREAD_MULTIPLE)
namespace gasket_test {
int init_thread_rc = -1, init_thread_provided = -1;
}
#endif

int main(int argc, char** argv) {
#if defined(GASKET_TEST_HYBRID)
    int mpi_provided = 0;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &mpi_provided) != MPI_SUCCESS) {
        std::fprintf(stderr, "MPI_Init_thread failed\n");
        return 2;
    }
#endif
    ::testing::InitGoogleTest(&argc, argv);
#if defined(GASKET_TEST_START_PES)
    start_pes(0);
#elif defined(GASKET_TEST_THREAD_MULTIPLE)
    gasket_test::init_thread_rc = shmem_init_thread(SHMEM_THREAD_MULTIPLE, &gasket_test::init_thread_provided);
    if (gasket_test::init_thread_rc != 0) {
        std::fprintf(stderr, "shmem_init_thread(SHMEM_THREAD_MULTIPLE) returned %d\n", gasket_test::init_thread_rc);
        return 2;
    }
#else
    shmem_init();
#endif
    g_pe = shmem_my_pe();
    g_npes = shmem_n_pes();

    ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
    if (g_pe != 0) {
        delete listeners.Release(listeners.default_result_printer());
        listeners.Append(new PeFailurePrinter);
    } else {
        std::printf("[ gasket   ] %d PEs, GASKET_NODE_FASTPATH=%s\n", g_npes,
                    std::getenv("GASKET_NODE_FASTPATH") ? std::getenv("GASKET_NODE_FASTPATH") : "(unset)");
        std::fflush(stdout);
    }
    listeners.Append(new CrossPeVerdict);

    const int rc = RUN_ALL_TESTS();
    bool ok = rc == 0;

#if defined(GASKET_TEST_START_PES)
    // No shmem_finalize: the library finalizes at exit (Annex F).
    ok = all_pes(ok);
#elif defined(GASKET_TEST_HYBRID)
    shmem_finalize();
    // The application initialized MPI: shmem_finalize must leave it usable.
    int initialized = -1, finalized = -1;
    shmem_query_initialized(&initialized);
    MPI_Finalized(&finalized);
    if (initialized != 0) {
        std::fprintf(stderr, "[PE %d] after shmem_finalize: shmem_query_initialized gave %d, want 0\n", g_pe,
                     initialized);
        ok = false;
    }
    if (finalized != 0) {
        std::fprintf(stderr,
                     "[PE %d] after shmem_finalize: MPI_Finalized gave %d, want 0 (shmem_finalize "
                     "finalized MPI that the application initialized)\n",
                     g_pe, finalized);
        std::fflush(stderr);
        return 1;  // MPI is gone: nothing more can be checked collectively
    }
    int rank = -1, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long mine = rank + 1, sum = 0;
    if (MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS ||
        sum != long(size) * (size + 1) / 2) {
        std::fprintf(stderr, "[PE %d] after shmem_finalize: MPI_Allreduce gave %ld, want %ld\n", g_pe, sum,
                     long(size) * (size + 1) / 2);
        ok = false;
    }
    ok = all_pes(ok);
    if (g_pe == 0) {
        std::printf("[ gasket   ] after shmem_finalize: MPI still usable, shmem_query_initialized = %d\n", initialized);
        std::fflush(stdout);
    }
    MPI_Finalize();
#else
    ok = all_pes(ok);
    shmem_finalize();
    int initialized = -1;
    shmem_query_initialized(&initialized);
    if (initialized != 0) {
        std::fprintf(stderr, "[PE %d] after shmem_finalize: shmem_query_initialized gave %d, want 0\n", g_pe,
                     initialized);
        ok = false;
    }
#endif
    if (!ok && g_pe == 0) std::printf("[ gasket   ] FAILED: at least one PE failed\n");
    return ok ? 0 : 1;
}
