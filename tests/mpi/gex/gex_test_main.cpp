// tests/mpi/gex/gex_test_main.cpp -- GoogleTest main of the GASNet-EX tests,
// run under oshrun with 2 and 4 processes, node fast path on and off:
//
//   gex_Client_Init("GEXTEST", GEX_FLAG_USES_GASNET1 | GEX_FLAG_DEFER_THREADS) -> gex_Segment_Attach
//   (kSegmentBytes) -> RUN_ALL_TESTS -> verdict ANDed over the job (MPI) ->
//   gasnet_exit(0 or 1) on every process
//
// Every process runs every test and asserts; process 0 prints gtest's
// output, the others only their failures, tagged with their jobrank.
// Tests synchronize with gex_test::barrier() (gasnet_barrier_*), and use
// only EXPECT_* before it, so a failure cannot leave a process behind.
#include "gex_test.hpp"

#include <mpi.h>

#include <cstdio>

namespace gex_test {

Job g_job;

void barrier() {
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
}

namespace {

class RankFailurePrinter : public ::testing::EmptyTestEventListener {
    void OnTestStart(const ::testing::TestInfo& t) override {
        current_ = std::string(t.test_suite_name()) + "." + t.name();
    }
    void OnTestPartResult(const ::testing::TestPartResult& r) override {
        if (!r.failed()) return;
        std::fprintf(stderr, "[jobrank %u] %s: %s:%d: Failure\n%s\n", g_job.me, current_.c_str(),
                     r.file_name() ? r.file_name() : "?", r.line_number(), r.message());
    }
    std::string current_;
};

}  // namespace

}  // namespace gex_test

int main(int argc, char** argv) {
    using gex_test::g_job;
    ::testing::InitGoogleTest(&argc, argv);
    // GEX_FLAG_DEFER_THREADS: the client will start any deferred progress
    // thread (GexSystem.ThreadsAndVerboseErrors queries them: there are none).
    if (gex_Client_Init(&g_job.client, &g_job.ep, &g_job.tm, "GEXTEST", &argc, &argv,
                        GEX_FLAG_USES_GASNET1 | GEX_FLAG_DEFER_THREADS) != GASNET_OK) {
        std::fprintf(stderr, "gex tests: gex_Client_Init failed\n");
        return 2;
    }
    if (gex_Segment_Attach(&g_job.segment, g_job.tm, gex_test::kSegmentBytes) != GASNET_OK) {
        std::fprintf(stderr, "gex tests: gex_Segment_Attach failed\n");
        gasnet_exit(2);
    }
    g_job.me = gex_TM_QueryRank(g_job.tm);
    g_job.n = gex_TM_QuerySize(g_job.tm);
    g_job.base = static_cast<unsigned char*>(gex_Segment_QueryAddr(g_job.segment));
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    if (g_job.me != 0) {
        delete listeners.Release(listeners.default_result_printer());
        listeners.Append(new gex_test::RankFailurePrinter);
    }
    const int mine = RUN_ALL_TESTS() == 0 ? 1 : 0;
    int all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (g_job.me == 0) std::printf("gex tests: %s on every process\n", all ? "passed" : "FAILED");
    gasnet_exit(all ? 0 : 1);
}
