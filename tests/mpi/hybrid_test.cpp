// tests/mpi/hybrid_test.cpp -- a hybrid MPI + OpenSHMEM program.  Its main
// (shmem_test_main.cpp built with GASKET_TEST_HYBRID) calls MPI_Init_thread
// itself before shmem_init, and after shmem_finalize checks that MPI is still
// usable (MPI_Finalized == 0, an MPI_Allreduce works) before calling
// MPI_Finalize itself.
//
// The tests mix MPI on MPI_COMM_WORLD with SHMEM traffic: MPI collectives
// over values delivered by shmem puts, and point-to-point messages on
// MPI_COMM_WORLD with wildcard receives and small tags (the kind a library
// might use internally) posted across SHMEM calls, which must neither
// swallow Gasket's traffic nor be swallowed by it.
#include <array>

#include "shmem_test.hpp"

namespace {

using namespace gasket_test;

int g_received;
long g_ring[16];

TEST(Hybrid, PesAreMpiRanks) {
    int rank = -1, size = -1, mpi_level = -1, initialized = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Query_thread(&mpi_level);
    MPI_Initialized(&initialized);
    EXPECT_EQ(initialized, 1);
    EXPECT_EQ(shmem_my_pe(), rank);
    EXPECT_EQ(shmem_n_pes(), size);
    int provided = -1;
    shmem_query_thread(&provided);
    EXPECT_GE(provided, SHMEM_THREAD_SINGLE);
    EXPECT_LE(provided, SHMEM_THREAD_MULTIPLE);
    // Never above what MPI granted to the application.
    const int mpi_as_shmem = mpi_level == MPI_THREAD_SINGLE       ? SHMEM_THREAD_SINGLE
                             : mpi_level == MPI_THREAD_FUNNELED   ? SHMEM_THREAD_FUNNELED
                             : mpi_level == MPI_THREAD_SERIALIZED ? SHMEM_THREAD_SERIALIZED
                                                                  : SHMEM_THREAD_MULTIPLE;
    EXPECT_LE(provided, mpi_as_shmem);
}

// Every PE puts its rank into the next PE; an MPI_Allreduce of what arrived
// is the sum of all ranks.
TEST(Hybrid, ShmemPutThenMpiAllreduce) {
    const int n = npes();
    for (int round = 0; round < 5; ++round) {
        g_received = -1;
        if (round % 2)
            MPI_Barrier(MPI_COMM_WORLD);
        else
            shmem_barrier_all();
        shmem_barrier_all();
        shmem_int_p(&g_received, me() + round * n, right());
        shmem_barrier_all();
        EXPECT_EQ(g_received, left() + round * n) << "round " << round;
        int sum = 0;
        MPI_Allreduce(&g_received, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        EXPECT_EQ(sum, n * (n - 1) / 2 + round * n * n) << "round " << round;
        // And the other way: an MPI result feeds a shmem put.
        long max_rank = 0, mine = me();
        MPI_Allreduce(&mine, &max_rank, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
        shmem_long_put(&g_ring[round], &max_rank, 1, right());
        shmem_barrier_all();
        EXPECT_EQ(g_ring[round], n - 1);
        shmem_barrier_all();
    }
}

// Wildcard receives on MPI_COMM_WORLD stay pending across SHMEM calls
// (allocation, puts, gets, barriers, waits): Gasket's traffic must not
// match them, and the application's messages must reach them intact.
TEST(Hybrid, MpiPointToPointNotConfusedWithShmemTraffic) {
    const std::array<int, 6> tags = {0, 1, 2, 3, 42, 32767};  // 32767: the least MPI_TAG_UB MPI guarantees
    std::array<long, tags.size()> inbox{};
    std::array<MPI_Request, tags.size()> reqs{};
    std::array<MPI_Status, tags.size()> stats{};
    inbox.fill(-1);
    for (std::size_t k = 0; k < tags.size(); ++k)
        MPI_Irecv(&inbox[k], 1, MPI_LONG, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &reqs[k]);

    // SHMEM traffic of every kind while the receives are pending.
    long* heap = static_cast<long*>(shmem_malloc(1024 * sizeof(long)));
    std::vector<long> src(1024), dst(1024, -1);
    for (int i = 0; i < 1024; ++i) src[i] = 10L * me() + i;
    if (heap) shmem_long_put(heap, src.data(), 1024, right());
    shmem_barrier_all();
    if (heap) shmem_long_get(dst.data(), heap, 1024, right());
    EXPECT_EQ(dst[5], 10L * me() + 5) << "get from PE " << right();
    g_ring[0] = 0;
    shmem_barrier_all();
    shmem_long_p(&g_ring[0], 1, right());
    shmem_long_wait_until(&g_ring[0], SHMEM_CMP_EQ, 1);
    shmem_sync_all();
    heap = static_cast<long*>(shmem_realloc(heap, 4096 * sizeof(long)));
    shmem_free(heap);

    // Nothing may have arrived: nobody has sent yet.
    int done = 0;
    MPI_Testall(int(reqs.size()), reqs.data(), &done, MPI_STATUSES_IGNORE);
    EXPECT_EQ(done, 0) << "a wildcard receive on MPI_COMM_WORLD matched a message nobody sent (library traffic?)";
    int flag = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    EXPECT_EQ(flag, 0) << "an unexpected message is pending on MPI_COMM_WORLD";

    MPI_Barrier(MPI_COMM_WORLD);
    // Ring: send each tag to the right, with SHMEM calls between the sends.
    std::array<MPI_Request, tags.size()> sends{};
    std::array<long, tags.size()> payload{};
    for (std::size_t k = 0; k < tags.size(); ++k) {
        payload[k] = 1000L * me() + tags[k];
        MPI_Isend(&payload[k], 1, MPI_LONG, right(), tags[k], MPI_COMM_WORLD, &sends[k]);
        shmem_long_p(&g_ring[1 + k], payload[k], right());
        shmem_quiet();
    }
    shmem_barrier_all();  // with the sends possibly still in flight
    MPI_Waitall(int(reqs.size()), reqs.data(), stats.data());
    MPI_Waitall(int(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
    // Messages from one source arrive in order: tag k in receive k.
    for (std::size_t k = 0; k < tags.size(); ++k) {
        EXPECT_EQ(stats[k].MPI_SOURCE, left()) << "receive " << k;
        EXPECT_EQ(stats[k].MPI_TAG, tags[k]) << "receive " << k;
        EXPECT_EQ(inbox[k], 1000L * left() + tags[k]) << "receive " << k;
        EXPECT_EQ(g_ring[1 + k], 1000L * left() + tags[k]) << "shmem_long_p slot " << k;
    }
    shmem_barrier_all();
}

// Blocking MPI_Sendrecv rings interleaved with SHMEM barriers and puts, many
// times, on MPI_COMM_WORLD and on a duplicate of it.
TEST(Hybrid, SendrecvRingsAndCollectivesInterleaved) {
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    for (int round = 0; round < 20; ++round) {
        MPI_Comm comm = round % 2 ? dup : MPI_COMM_WORLD;
        long out = 100L * round + me(), in = -1;
        MPI_Sendrecv(&out, 1, MPI_LONG, right(), round % 4, &in, 1, MPI_LONG, left(), round % 4, comm,
                     MPI_STATUS_IGNORE);
        EXPECT_EQ(in, 100L * round + left()) << "round " << round;
        shmem_long_p(&g_ring[round % 16], in, right());
        shmem_barrier_all();
        EXPECT_EQ(g_ring[round % 16], 100L * round + (me() + npes() - 2) % npes()) << "round " << round;
        long bcast = me() == round % npes() ? 77 + round : -1;
        MPI_Bcast(&bcast, 1, MPI_LONG, round % npes(), comm);
        EXPECT_EQ(bcast, 77 + round);
        shmem_barrier_all();
    }
    MPI_Comm_free(&dup);
}

}  // namespace
