// tests/mpi/deprecated_test.cpp -- Annex F deprecated routines still work:
// start_pes (this program's main calls start_pes(0) instead of shmem_init
// and never calls shmem_finalize), _my_pe, _num_pes, shmalloc, shfree,
// shrealloc, shmemalign, shmem_TYPENAME_wait and shmem_wait, and the
// _SHMEM_* constant aliases.
#include "shmem_test.hpp"

namespace {

using namespace gasket_test;

TEST(Deprecated, StartPesInitialized) {
    int initialized = -1;
    shmem_query_initialized(&initialized);
    EXPECT_EQ(initialized, 1) << "after start_pes(0)";
    start_pes(0);  // a second call has no further effect (§9.1.13)
    EXPECT_EQ(shmem_n_pes(), _num_pes());
}

TEST(Deprecated, MyPeNumPes) {
    int rank = -1, size = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    EXPECT_EQ(_my_pe(), rank);
    EXPECT_EQ(_num_pes(), size);
    EXPECT_EQ(_my_pe(), shmem_my_pe());
    EXPECT_EQ(_num_pes(), shmem_n_pes());
}

TEST(Deprecated, ShmallocShreallocShmemalignShfree) {
    auto* a = static_cast<long*>(shmalloc(100 * sizeof(long)));
    EXPECT_TRUE(all_pes(a != nullptr)) << "shmalloc";
    EXPECT_EQ(shmem_addr_accessible(a, right()), 1);
    if (a) {
        for (int i = 0; i < 100; ++i) a[i] = -1;
    }
    shmem_barrier_all();
    if (a) {
        std::vector<long> src(100);
        for (int i = 0; i < 100; ++i) src[i] = 100L * me() + i;
        shmem_long_put(a, src.data(), 100, right());
    }
    shmem_barrier_all();
    for (int i = 0; a && i < 100; ++i) EXPECT_EQ(a[i], 100L * left() + i) << "index " << i;

    void* blocker = shmalloc(16);
    auto* b = static_cast<long*>(shrealloc(a, 10000 * sizeof(long)));
    EXPECT_TRUE(all_pes(b != nullptr)) << "shrealloc";
    for (int i = 0; b && i < 100; ++i) EXPECT_EQ(b[i], 100L * left() + i) << "content kept by shrealloc, index " << i;
    EXPECT_EQ(shmem_addr_accessible(b + 9999, right()), 1);

    void* c = shmemalign(4096, 100);
    EXPECT_TRUE(all_pes(c != nullptr)) << "shmemalign";
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(c) % 4096, 0u) << "shmemalign(4096, 100) = " << c;
    EXPECT_EQ(shmalloc(0), nullptr);

    shfree(c);
    shfree(blocker);
    shfree(b);
    shfree(nullptr);
}

// shmem_TYPENAME_wait(ivar, v): waits until *ivar != v (Annex F), for
// short, int, long, long long; and shmem_wait for long.
template <class T>
struct WaitRow;
#define GASKET_TEST_WAIT_ROW(TYPE, NAME)                                       \
    TYPE g_wait_##NAME;                                                        \
    template <>                                                                \
    struct WaitRow<TYPE> {                                                     \
        static constexpr const char* kName = "shmem_" #NAME "_wait";           \
        static TYPE* ivar() { return &g_wait_##NAME; }                         \
        static void wait(TYPE* v, TYPE x) { shmem_##NAME##_wait(v, x); }       \
        static void p(TYPE* v, TYPE x, int pe) { shmem_##NAME##_p(v, x, pe); } \
    };
GASKET_DEPRECATED_WAIT_TYPES(GASKET_TEST_WAIT_ROW)
#undef GASKET_TEST_WAIT_ROW

template <class T>
void wait_round() {
    using Row = WaitRow<T>;
    T* v = Row::ivar();
    for (int round = 1; round <= 3; ++round) {
        *v = T(0);
        shmem_barrier_all();
        Row::p(v, T(10 + round + me()), right());
        shmem_quiet();
        Row::wait(v, T(0));
        EXPECT_EQ(*v, T(10 + round + left())) << Row::kName << " round " << round;
        shmem_barrier_all();
    }
}

TEST(Deprecated, TypedWait) {
#define GASKET_TEST_CALL(TYPE, NAME) wait_round<TYPE>();
    GASKET_DEPRECATED_WAIT_TYPES(GASKET_TEST_CALL)
#undef GASKET_TEST_CALL
}

TEST(Deprecated, ShmemWait) {
    static long flag;
    for (int round = 1; round <= 3; ++round) {
        flag = 42;
        shmem_barrier_all();
        shmem_long_p(&flag, 100 + me(), right());
        shmem_quiet();
        shmem_wait(&flag, 42);
        EXPECT_EQ(flag, 100 + left()) << "shmem_wait round " << round;
        shmem_barrier_all();
    }
}

TEST(Deprecated, ConstantAliases) {
    EXPECT_EQ(_SHMEM_MAJOR_VERSION, SHMEM_MAJOR_VERSION);
    EXPECT_EQ(_SHMEM_MINOR_VERSION, SHMEM_MINOR_VERSION);
    EXPECT_EQ(_SHMEM_MAX_NAME_LEN, SHMEM_MAX_NAME_LEN);
    EXPECT_STREQ(_SHMEM_VENDOR_STRING, SHMEM_VENDOR_STRING);
    static int ivar;
    ivar = 0;
    shmem_barrier_all();
    shmem_int_p(&ivar, 9, right());
    shmem_int_wait_until(&ivar, _SHMEM_CMP_EQ, 9);
    EXPECT_EQ(shmem_int_test(&ivar, _SHMEM_CMP_NE, 9), 0);
    EXPECT_EQ(shmem_int_test(&ivar, _SHMEM_CMP_GE, 9), 1);
    EXPECT_EQ(shmem_int_test(&ivar, _SHMEM_CMP_LE, 9), 1);
    EXPECT_EQ(shmem_int_test(&ivar, _SHMEM_CMP_GT, 9), 0);
    EXPECT_EQ(shmem_int_test(&ivar, _SHMEM_CMP_LT, 9), 0);
    shmem_barrier_all();
}

}  // namespace
