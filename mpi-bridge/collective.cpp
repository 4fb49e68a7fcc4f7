// mpi-bridge/collective.cpp -- MPI collectives for §9.10, datatype and op
// mapping, active-set communicators.
#include "collective.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

#include <sched.h>

#include <atomic>
#include <memory>

#include "check.hpp"
#include "happens_before.hpp"
#include "node_memory.hpp"
#include "split_barrier.hpp"

namespace gasket::mpi {

namespace {

constexpr std::size_t kMaxInt = INT_MAX;

// `bytes` as (count, datatype): MPI_BYTE when it fits an int, else a
// committed derived type of exactly `bytes` (GiB blocks plus the rest),
// freed with this object.
class Bytes {
public:
    explicit Bytes(std::size_t bytes) {
        if (bytes <= kMaxInt) {
            count = static_cast<int>(bytes);
            return;
        }
        constexpr std::size_t kChunk = std::size_t(1) << 30;
        MPI_Datatype gib, body;
        check(MPI_Type_contiguous(int(kChunk), MPI_BYTE, &gib), "MPI_Type_contiguous");
        check(MPI_Type_contiguous(int(bytes / kChunk), gib, &body), "MPI_Type_contiguous");
        const int rest = int(bytes % kChunk);
        int lengths[2] = {1, rest};
        MPI_Aint displs[2] = {0, MPI_Aint(bytes - bytes % kChunk)};
        MPI_Datatype types[2] = {body, MPI_BYTE};
        check(MPI_Type_create_struct(rest ? 2 : 1, lengths, displs, types, &type), "MPI_Type_create_struct");
        check(MPI_Type_commit(&type), "MPI_Type_commit");
        MPI_Type_free(&gib);
        MPI_Type_free(&body);
        count = 1;
        owned_ = true;
    }
    ~Bytes() {
        if (owned_) MPI_Type_free(&type);
    }
    Bytes(const Bytes&) = delete;
    Bytes& operator=(const Bytes&) = delete;

    int count = 0;
    MPI_Datatype type = MPI_BYTE;

private:
    bool owned_ = false;
};

// Completes `request`, polling between tests.
void wait(MPI_Request& request, Waiter w) {
    for (int done = 0;;) {
        check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
        if (done) return;
        w.poll(w.context);
    }
}

// Runs a collective: blocking when nobody needs serving, else started
// nonblocking and completed while polling.
template <class Blocking, class Nonblocking>
void run(Waiter w, const char* name, const char* iname, Blocking blocking, Nonblocking nonblocking) {
    // What this thread did before the collective happens before what any
    // thread does after a later one: TSan cannot see the order that goes
    // through MPI and the other processes (happens_before.hpp).
    release_before_send();
    if (!w.poll) {
        check(blocking(), name);
    } else {
        MPI_Request request;
        check(nonblocking(&request), iname);
        wait(request, w);
    }
    acquire_before_delivery();
}

MPI_Datatype datatype(Elem e) {
    switch (e) {
        case Elem::i8: return MPI_INT8_T;
        case Elem::i16: return MPI_INT16_T;
        case Elem::i32: return MPI_INT32_T;
        case Elem::i64: return MPI_INT64_T;
        case Elem::u8: return MPI_UINT8_T;
        case Elem::u16: return MPI_UINT16_T;
        case Elem::u32: return MPI_UINT32_T;
        case Elem::u64: return MPI_UINT64_T;
        case Elem::f32: return MPI_FLOAT;
        case Elem::f64: return MPI_DOUBLE;
        case Elem::flong: return MPI_LONG_DOUBLE;
        case Elem::cf32: return MPI_C_FLOAT_COMPLEX;
        case Elem::cf64: return MPI_C_DOUBLE_COMPLEX;
    }
    return MPI_DATATYPE_NULL;
}

MPI_Op mpi_op(ReduceOp op) {
    switch (op) {
        case ReduceOp::band: return MPI_BAND;
        case ReduceOp::bor: return MPI_BOR;
        case ReduceOp::bxor: return MPI_BXOR;
        case ReduceOp::max: return MPI_MAX;
        case ReduceOp::min: return MPI_MIN;
        case ReduceOp::sum: return MPI_SUM;
        case ReduceOp::prod: return MPI_PROD;
    }
    return MPI_OP_NULL;
}

}  // namespace

std::size_t elem_bytes(Elem e) {
    switch (e) {
        case Elem::i8:
        case Elem::u8: return 1;
        case Elem::i16:
        case Elem::u16: return 2;
        case Elem::i32:
        case Elem::u32:
        case Elem::f32: return 4;
        case Elem::i64:
        case Elem::u64:
        case Elem::f64:
        case Elem::cf32: return 8;
        case Elem::flong: return sizeof(long double);
        case Elem::cf64: return 16;
    }
    return 0;
}

namespace {

// The T of `comm`: made at its first use (collectively: the barriers that
// use this are collective) and deleted when comm is freed, as an MPI
// attribute.
template <class T>
T& cached_on(MPI_Comm comm) {
    static int keyval = [] {
        int k = MPI_KEYVAL_INVALID;
        MPI_Comm_delete_attr_function* erase = [](MPI_Comm, int, void* attribute, void*) {
            delete static_cast<T*>(attribute);
            return MPI_SUCCESS;
        };
        check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, erase, &k, nullptr), "MPI_Comm_create_keyval");
        return k;
    }();
    void* attribute = nullptr;
    int found = 0;
    check(MPI_Comm_get_attr(comm, keyval, &attribute, &found), "MPI_Comm_get_attr");
    if (!found) {
        attribute = new T(comm);
        check(MPI_Comm_set_attr(comm, keyval, attribute), "MPI_Comm_set_attr");
    }
    return *static_cast<T*>(attribute);
}

}  // namespace

void barrier(MPI_Comm comm, Waiter w) {
    release_before_send();  // (see run)
    if (!w.poll) {
        check(MPI_Barrier(comm), "MPI_Barrier");
        acquire_before_delivery();
        return;
    }
    // Polling: the dissemination barrier of eager messages that GASNet's
    // barrier uses (split_barrier.hpp) costs about what MPI_Barrier costs;
    // MPI_Ibarrier cost 1.5x (bench-coll, off the node fast path).
    SplitBarrier& b = cached_on<SplitBarrier>(comm);
    const long long none[SplitBarrier::kValues] = {};
    long long ignored[SplitBarrier::kValues];
    b.start(none);
    while (!b.test(ignored)) w.poll(w.context);
    acquire_before_delivery();
}

namespace {

constexpr unsigned kSpins = 256;
constexpr unsigned kPollEvery = 64;  // shared_memory_barrier: yields between calls of the Waiter

// The last rank to arrive resets the count and publishes the next
// generation; the others wait for it.  A rank cannot arrive at the next
// barrier before the generation moves, which happens after the reset.
class ShmBarrier {
public:
    explicit ShmBarrier(MPI_Comm comm) {
        int rank = 0;
        check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
        check(MPI_Comm_size(comm, &size_), "MPI_Comm_size");
        memory_ = std::make_unique<NodeMemory>(rank == 0 ? sizeof(Shared) : 0, comm);
        shared_ = reinterpret_cast<Shared*>(memory_->peer(0));
        if (rank == 0) {
            shared_->count.store(0, std::memory_order_relaxed);
            shared_->generation.store(0, std::memory_order_release);
        }
        check(MPI_Barrier(comm), "MPI_Barrier");
    }
    void wait(Waiter w) {
        const unsigned long g = shared_->generation.load(std::memory_order_acquire);
        if (shared_->count.fetch_add(1, std::memory_order_acq_rel) == static_cast<unsigned long>(size_ - 1)) {
            shared_->count.store(0, std::memory_order_relaxed);
            shared_->generation.store(g + 1, std::memory_order_release);
            return;
        }
        // A short spin (plain loads: a pause instruction costs ~40 ns on
        // current x86, and 256 of them kept an oversubscribed node's ranks
        // off the core 3x longer), then yield between looks.
        for (unsigned spins = 0; shared_->generation.load(std::memory_order_acquire) == g;) {
            if (++spins <= kSpins) continue;
            sched_yield();  // other ranks may share this core
            if (w.poll && spins % kPollEvery == 0) w.poll(w.context);
        }
    }

private:
    struct Shared {
        alignas(64) std::atomic<unsigned long> count;
        alignas(64) std::atomic<unsigned long> generation;
    };
    std::unique_ptr<NodeMemory> memory_;
    Shared* shared_ = nullptr;
    int size_ = 1;
};

}  // namespace

void shared_memory_barrier(MPI_Comm comm, Waiter w) { cached_on<ShmBarrier>(comm).wait(w); }

void broadcast(MPI_Comm comm, void* buf, std::size_t bytes, int root, Waiter w) {
    char* p = static_cast<char*>(buf);
    for (std::size_t done = 0; done < bytes;) {
        const int n = int(std::min(bytes - done, kMaxInt));
        run(
            w, "MPI_Bcast", "MPI_Ibcast", [&] { return MPI_Bcast(p + done, n, MPI_BYTE, root, comm); },
            [&](MPI_Request* r) { return MPI_Ibcast(p + done, n, MPI_BYTE, root, comm, r); });
        done += std::size_t(n);
    }
}

void allgather(MPI_Comm comm, const void* mine, void* all, std::size_t bytes, Waiter w) {
    if (bytes == 0) return;
    Bytes b(bytes);
    const void* send = mine ? mine : MPI_IN_PLACE;
    run(
        w, "MPI_Allgather", "MPI_Iallgather",
        [&] { return MPI_Allgather(send, b.count, b.type, all, b.count, b.type, comm); },
        [&](MPI_Request* r) { return MPI_Iallgather(send, b.count, b.type, all, b.count, b.type, comm, r); });
}

std::vector<std::size_t> gather_sizes(MPI_Comm comm, std::size_t mine, Waiter w) {
    int size = 1;
    check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
    std::vector<unsigned long long> all(size);
    const unsigned long long my = mine;
    run(
        w, "MPI_Allgather", "MPI_Iallgather",
        [&] { return MPI_Allgather(&my, 1, MPI_UNSIGNED_LONG_LONG, all.data(), 1, MPI_UNSIGNED_LONG_LONG, comm); },
        [&](MPI_Request* r) {
            return MPI_Iallgather(&my, 1, MPI_UNSIGNED_LONG_LONG, all.data(), 1, MPI_UNSIGNED_LONG_LONG, comm, r);
        });
    return std::vector<std::size_t>(all.begin(), all.end());
}

void allgatherv(MPI_Comm comm, const void* mine, void* all, const std::vector<std::size_t>& sizes, Waiter w) {
    int me = 0;
    check(MPI_Comm_rank(comm, &me), "MPI_Comm_rank");
    std::vector<int> counts(sizes.size()), displs(sizes.size());
    std::size_t total = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        counts[i] = int(sizes[i]);
        displs[i] = int(total);
        total += sizes[i];
    }
    if (total == 0) return;
    const int n = counts[me];
    run(
        w, "MPI_Allgatherv", "MPI_Iallgatherv",
        [&] { return MPI_Allgatherv(mine, n, MPI_BYTE, all, counts.data(), displs.data(), MPI_BYTE, comm); },
        [&](MPI_Request* r) {
            return MPI_Iallgatherv(mine, n, MPI_BYTE, all, counts.data(), displs.data(), MPI_BYTE, comm, r);
        });
}

void alltoall(MPI_Comm comm, const void* src, void* dst, std::size_t block_bytes, Waiter w) {
    if (block_bytes == 0) return;
    Bytes b(block_bytes);
    run(
        w, "MPI_Alltoall", "MPI_Ialltoall",
        [&] { return MPI_Alltoall(src, b.count, b.type, dst, b.count, b.type, comm); },
        [&](MPI_Request* r) { return MPI_Ialltoall(src, b.count, b.type, dst, b.count, b.type, comm, r); });
}

namespace {
// One rank's block of a strided alltoall: `nelems` elements `stride` apart,
// its extent stride * nelems elements so that block j starts at j times it.
MPI_Datatype strided_block(MPI_Datatype elem, std::size_t elem_bytes, std::size_t nelems, std::size_t stride) {
    MPI_Datatype vec, block;
    check(MPI_Type_create_hvector(int(nelems), 1, MPI_Aint(stride * elem_bytes), elem, &vec),
          "MPI_Type_create_hvector");
    check(MPI_Type_create_resized(vec, 0, MPI_Aint(stride * nelems * elem_bytes), &block), "MPI_Type_create_resized");
    check(MPI_Type_commit(&block), "MPI_Type_commit");
    MPI_Type_free(&vec);
    return block;
}
}  // namespace

void alltoall_strided(MPI_Comm comm, const void* src, void* dst, std::size_t elem_bytes, std::size_t nelems,
                      std::size_t dst_stride, std::size_t sst, Waiter w) {
    if (nelems == 0 || elem_bytes == 0) return;
    MPI_Datatype elem;
    check(MPI_Type_contiguous(int(elem_bytes), MPI_BYTE, &elem), "MPI_Type_contiguous");
    MPI_Datatype send = strided_block(elem, elem_bytes, nelems, sst);
    MPI_Datatype recv = strided_block(elem, elem_bytes, nelems, dst_stride);
    MPI_Type_free(&elem);
    run(
        w, "MPI_Alltoall", "MPI_Ialltoall", [&] { return MPI_Alltoall(src, 1, send, dst, 1, recv, comm); },
        [&](MPI_Request* r) { return MPI_Ialltoall(src, 1, send, dst, 1, recv, comm, r); });
    MPI_Type_free(&send);
    MPI_Type_free(&recv);
}

void allreduce(MPI_Comm comm, const void* src, void* dst, std::size_t count, Elem e, ReduceOp op, Waiter w) {
    const MPI_Datatype type = datatype(e);
    const MPI_Op mop = mpi_op(op);
    const std::size_t esize = elem_bytes(e);
    for (std::size_t done = 0; done < count;) {
        const int n = int(std::min(count - done, kMaxInt));
        const void* s = src ? static_cast<const char*>(src) + done * esize : MPI_IN_PLACE;
        void* d = static_cast<char*>(dst) + done * esize;
        run(
            w, "MPI_Allreduce", "MPI_Iallreduce", [&] { return MPI_Allreduce(s, d, n, type, mop, comm); },
            [&](MPI_Request* r) { return MPI_Iallreduce(s, d, n, type, mop, comm, r); });
        done += std::size_t(n);
    }
}

void scan_sum(MPI_Comm comm, const void* src, void* dst, std::size_t count, Elem e, bool inclusive, Waiter w) {
    const MPI_Datatype type = datatype(e);
    const std::size_t esize = elem_bytes(e);
    for (std::size_t done = 0; done < count;) {
        const int n = int(std::min(count - done, kMaxInt));
        const void* s = src ? static_cast<const char*>(src) + done * esize : MPI_IN_PLACE;
        void* d = static_cast<char*>(dst) + done * esize;
        if (inclusive)
            run(
                w, "MPI_Scan", "MPI_Iscan", [&] { return MPI_Scan(s, d, n, type, MPI_SUM, comm); },
                [&](MPI_Request* r) { return MPI_Iscan(s, d, n, type, MPI_SUM, comm, r); });
        else
            run(
                w, "MPI_Exscan", "MPI_Iexscan", [&] { return MPI_Exscan(s, d, n, type, MPI_SUM, comm); },
                [&](MPI_Request* r) { return MPI_Iexscan(s, d, n, type, MPI_SUM, comm, r); });
        done += std::size_t(n);
    }
}

Communicator create_group(MPI_Comm world, const std::vector<int>& ranks, int tag) {
    MPI_Group world_group, group;
    check(MPI_Comm_group(world, &world_group), "MPI_Comm_group");
    check(MPI_Group_incl(world_group, int(ranks.size()), ranks.data(), &group), "MPI_Group_incl");
    MPI_Comm comm;
    check(MPI_Comm_create_group(world, group, tag, &comm), "MPI_Comm_create_group");
    MPI_Group_free(&group);
    MPI_Group_free(&world_group);
    return Communicator(comm);
}

}  // namespace gasket::mpi
