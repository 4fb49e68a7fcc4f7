// tests/mpi/setup_test.cpp -- §9.1/§9.2 setup and query routines: my_pe and
// n_pes against MPI, pe_accessible, addr_accessible, shmem_ptr (fast path on
// and off), info_get_version/name, query_initialized, query_thread, nested
// shmem_init/shmem_finalize.
#include <climits>

#include "shmem_test.hpp"

namespace {

using namespace gasket_test;

long g_symmetric_global[64];
static int g_static_int;

TEST(Setup, MyPeAndNPesMatchMpiCommWorld) {
    int rank = -1, size = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    EXPECT_EQ(shmem_my_pe(), rank);
    EXPECT_EQ(shmem_n_pes(), size);
    EXPECT_GE(shmem_n_pes(), 2) << "the suite runs with 2 and 4 PEs";
    // Every PE number appears exactly once.
    auto all = allgather(shmem_my_pe());
    for (int pe = 0; pe < size; ++pe) EXPECT_EQ(all[pe], pe);
}

TEST(Setup, PeAccessible) {
    for (int pe = 0; pe < npes(); ++pe) EXPECT_EQ(shmem_pe_accessible(pe), 1) << "PE " << pe;
    EXPECT_EQ(shmem_pe_accessible(-1), 0);
    EXPECT_EQ(shmem_pe_accessible(npes()), 0);
    EXPECT_EQ(shmem_pe_accessible(npes() + 100), 0);
    EXPECT_EQ(shmem_pe_accessible(INT_MAX), 0);
    EXPECT_EQ(shmem_pe_accessible(INT_MIN), 0);
}

TEST(Setup, AddrAccessible) {
    long* heap = static_cast<long*>(shmem_malloc(64 * sizeof(long)));
    static long function_static[4];
    long on_stack[4] = {};
    long* private_heap = static_cast<long*>(std::malloc(64));
    for (int pe = 0; pe < npes(); ++pe) {
        SCOPED_TRACE("pe " + std::to_string(pe));
        EXPECT_EQ(shmem_addr_accessible(heap, pe), 1) << "symmetric heap block";
        EXPECT_EQ(shmem_addr_accessible(heap + 63, pe), 1) << "last element of a heap block";
        EXPECT_EQ(shmem_addr_accessible(g_symmetric_global, pe), 1) << "global array";
        EXPECT_EQ(shmem_addr_accessible(&g_static_int, pe), 1) << "file-static int";
        EXPECT_EQ(shmem_addr_accessible(function_static, pe), 1) << "function-static array";
        EXPECT_EQ(shmem_addr_accessible(on_stack, pe), 0) << "stack array";
        EXPECT_EQ(shmem_addr_accessible(private_heap, pe), 0) << "malloc'd (private) memory";
        EXPECT_EQ(shmem_addr_accessible(nullptr, pe), 0) << "NULL";
    }
    EXPECT_EQ(shmem_addr_accessible(heap, -1), 0) << "invalid PE";
    EXPECT_EQ(shmem_addr_accessible(heap, npes()), 0) << "invalid PE";
    EXPECT_EQ(shmem_addr_accessible(g_symmetric_global, npes()), 0) << "invalid PE";
    std::free(private_heap);
    shmem_free(heap);
}

// Whether `pe` shares this PE's node (MPI's view).
bool same_node(int pe) {
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me(), MPI_INFO_NULL, &node);
    MPI_Group world_group, node_group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Comm_group(node, &node_group);
    int node_rank = MPI_UNDEFINED;
    MPI_Group_translate_ranks(world_group, 1, &pe, node_group, &node_rank);
    MPI_Group_free(&world_group);
    MPI_Group_free(&node_group);
    MPI_Comm_free(&node);
    return node_rank != MPI_UNDEFINED;
}

// shmem_ptr on `sym` (heap or global): self always; the right neighbour when
// the fast path is on (and, for globals, shared data is on) and it shares
// the node; writes through the pointer are seen by the target.
void check_shmem_ptr(long* sym, bool is_global) {
    EXPECT_EQ(shmem_ptr(sym, me()), static_cast<void*>(sym)) << "shmem_ptr to self";
    EXPECT_EQ(shmem_ptr(sym + 5, me()), static_cast<void*>(sym + 5)) << "shmem_ptr to self, inside the object";
    const bool expect_direct = fastpath_on() && (!is_global || shared_data_on()) && same_node(right());
    // Every PE must agree, because the receiver's check depends on it.
    const bool consistent = same_on_all_pes(expect_direct);
    EXPECT_TRUE(consistent);

    std::fill(sym, sym + 8, -1L);
    shmem_barrier_all();
    auto* peer = static_cast<long*>(shmem_ptr(sym, right()));
    if (expect_direct) {
        EXPECT_NE(peer, nullptr) << "shmem_ptr to PE " << right() << " on this node with GASKET_NODE_FASTPATH on";
        if (peer) {
            EXPECT_NE(static_cast<void*>(peer), static_cast<void*>(sym)) << "a peer's copy is not mine";
            for (int i = 0; i < 8; ++i) peer[i] = 1000L * me() + i;  // plain stores into the neighbour's copy
        }
    } else {
        EXPECT_EQ(peer, nullptr) << "shmem_ptr to PE " << right() << " with the fast path off must be NULL";
    }
    shmem_barrier_all();
    if (expect_direct && consistent) {
        // All PEs expected a pointer; if the left one got NULL its failure is reported there.
        auto left_had_ptr = allgather(int(peer != nullptr));
        if (left_had_ptr[left()])
            for (int i = 0; i < 8; ++i)
                EXPECT_EQ(sym[i], 1000L * left() + i) << "store through shmem_ptr by PE " << left();
        // And loads through the pointer see the neighbour's data.
        if (peer) EXPECT_EQ(peer[3], 1000L * me() + 3);
    }
    shmem_barrier_all();
    // Never a pointer for invalid PEs or non-symmetric addresses.
    long on_stack = 0;
    EXPECT_EQ(shmem_ptr(sym, -1), nullptr);
    EXPECT_EQ(shmem_ptr(sym, npes()), nullptr);
    EXPECT_EQ(shmem_ptr(&on_stack, me()), nullptr) << "stack address";
    EXPECT_EQ(shmem_ptr(&on_stack, right()), nullptr) << "stack address";
}

TEST(Setup, ShmemPtrHeap) {
    long* heap = static_cast<long*>(shmem_malloc(64 * sizeof(long)));
    if (!all_pes(heap != nullptr)) {
        ADD_FAILURE() << "shmem_malloc returned NULL";
        shmem_free(heap);
        return;
    }
    check_shmem_ptr(heap, false);
    shmem_free(heap);
}

TEST(Setup, ShmemPtrGlobal) { check_shmem_ptr(g_symmetric_global, true); }

TEST(Setup, InfoGetVersionAndName) {
    int major = -1, minor = -1;
    shmem_info_get_version(&major, &minor);
    EXPECT_EQ(major, 1);
    EXPECT_EQ(minor, 6);
    EXPECT_EQ(major, SHMEM_MAJOR_VERSION);
    EXPECT_EQ(minor, SHMEM_MINOR_VERSION);
    char name[SHMEM_MAX_NAME_LEN];
    std::memset(name, 'x', sizeof name);
    shmem_info_get_name(name);
    EXPECT_NE(std::memchr(name, '\0', sizeof name), nullptr) << "name not NUL-terminated within SHMEM_MAX_NAME_LEN";
    EXPECT_STREQ(name, SHMEM_VENDOR_STRING);
    EXPECT_LT(std::strlen(SHMEM_VENDOR_STRING), std::size_t(SHMEM_MAX_NAME_LEN));
}

TEST(Setup, QueryInitializedAndThread) {
    int initialized = -1;
    shmem_query_initialized(&initialized);
    EXPECT_EQ(initialized, 1);
    int provided = -1;
    shmem_query_thread(&provided);
    EXPECT_EQ(provided, SHMEM_THREAD_SINGLE) << "shmem_init gives SHMEM_THREAD_SINGLE";
    EXPECT_TRUE(same_on_all_pes(provided));
}

// §9.1.1: init may be called again; each init needs its finalize, and the
// library stays up until the last one.
TEST(Setup, NestedInitAndFinalize) {
    shmem_init();
    int provided = -1;
    EXPECT_EQ(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided), 0);
    EXPECT_EQ(provided, SHMEM_THREAD_SINGLE) << "a nested init keeps the level granted first";
    shmem_finalize();
    shmem_finalize();
    int initialized = -1;
    shmem_query_initialized(&initialized);
    EXPECT_EQ(initialized, 1) << "the outer shmem_init is not finalized yet";
    // Still fully usable.
    EXPECT_EQ(shmem_my_pe(), me());
    g_symmetric_global[0] = -1;
    shmem_barrier_all();
    shmem_long_p(&g_symmetric_global[0], 7000 + me(), right());
    shmem_barrier_all();
    EXPECT_EQ(g_symmetric_global[0], 7000 + left());
    shmem_barrier_all();
}

}  // namespace
