// mpi-bridge/collective.cpp -- MPI collectives for §9.10, datatype and op
// mapping, active-set communicators.
#include "collective.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <memory>
#include <utility>

#include "check.hpp"
#include "happens_before.hpp"

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

// Completes `request`, polling between tests; by MPI_Wait without a poll.
void wait(MPI_Request& request, Waiter w) {
    if (!w.poll) return check(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
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

void broadcast_copying(MPI_Comm comm, void* buf, std::size_t bytes, int root, void* copy_to, Waiter w) {
    char* p = static_cast<char*>(buf);
    char* to = static_cast<char*>(copy_to);
    const auto at = [](const char* q) { return reinterpret_cast<std::uintptr_t>(q); };
    const bool during = to && (at(to) + bytes <= at(p) || at(p) + bytes <= at(to));
    release_before_send();
    for (std::size_t done = 0; done < bytes;) {
        const int n = int(std::min(bytes - done, kMaxInt));
        MPI_Request request;
        check(MPI_Ibcast(p + done, n, MPI_BYTE, root, comm, &request), "MPI_Ibcast");
        if (during) std::memcpy(to + done, p + done, std::size_t(n));  // MPI only reads the root's buffer
        wait(request, w);
        done += std::size_t(n);
    }
    if (to && !during) std::memmove(to, p, bytes);
    acquire_before_delivery();
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
// The caller's extent checks make this unreachable; a size that wraps must
// still never reach a copy.
[[noreturn, gnu::cold]] void too_big(const char* what, std::size_t nelems, std::size_t elem_bytes, int ranks) {
    std::fprintf(stderr, "gasket: %s: %zu elements of %zu bytes for each of %d ranks overflow size_t\n", what, nelems,
                 elem_bytes, ranks);
    abort_job(EXIT_FAILURE);
}

// Copies `count` elements of B bytes from `from` (`from_stride` elements
// apart) to `to` (`to_stride` elements apart).
template <std::size_t B>
void copy_strided(std::byte* to, std::size_t to_stride, const std::byte* from, std::size_t from_stride,
                  std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) std::memcpy(to + i * to_stride * B, from + i * from_stride * B, B);
}

void copy_strided(std::byte* to, std::size_t to_stride, const std::byte* from, std::size_t from_stride,
                  std::size_t count, std::size_t elem_bytes) {
    switch (elem_bytes) {
        case 1: return copy_strided<1>(to, to_stride, from, from_stride, count);
        case 2: return copy_strided<2>(to, to_stride, from, from_stride, count);
        case 4: return copy_strided<4>(to, to_stride, from, from_stride, count);
        case 8: return copy_strided<8>(to, to_stride, from, from_stride, count);
        case 16: return copy_strided<16>(to, to_stride, from, from_stride, count);
    }
    for (std::size_t i = 0; i < count; ++i)
        std::memcpy(to + i * to_stride * elem_bytes, from + i * from_stride * elem_bytes, elem_bytes);
}
}  // namespace

// The strided blocks are packed into a contiguous buffer, exchanged as
// contiguous blocks of one datatype, and unpacked.  One MPI_Alltoall with a
// strided send type and a differently strided receive type would move them
// without copies, but Open MPI 4.1.4 picks its modified Bruck algorithm at
// 16 ranks and more, which delivers wrong data when the send and receive
// datatypes differ (fixed upstream after 4.1.4; issue 14 item 19).  Block j
// for rank j starts at element j * nelems * stride, so on each side the
// whole exchange is one run of ranks * nelems elements `stride` apart.
void alltoall_strided(MPI_Comm comm, const void* src, void* dst, std::size_t elem_bytes, std::size_t nelems,
                      std::size_t dst_stride, std::size_t sst, Waiter w) {
    if (nelems == 0 || elem_bytes == 0) return;
    int ranks = 0;
    check(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
    std::size_t count = 0, bytes = 0;  // elements and bytes each rank sends (and receives) in all
    if (__builtin_mul_overflow(nelems, std::size_t(ranks), &count) || __builtin_mul_overflow(count, elem_bytes, &bytes))
        [[unlikely]]
        too_big("alltoall_strided", nelems, elem_bytes, ranks);
    std::unique_ptr<std::byte[]> send_copy, recv_copy;
    const std::byte* send = static_cast<const std::byte*>(src);
    std::byte* recv = static_cast<std::byte*>(dst);
    if (sst != 1) {
        send_copy = std::make_unique_for_overwrite<std::byte[]>(bytes);
        copy_strided(send_copy.get(), 1, send, sst, count, elem_bytes);
        send = send_copy.get();
    }
    if (dst_stride != 1) {
        recv_copy = std::make_unique_for_overwrite<std::byte[]>(bytes);
        recv = recv_copy.get();
    }
    alltoall(comm, send, recv, nelems * elem_bytes, w);
    if (recv_copy) copy_strided(static_cast<std::byte*>(dst), dst_stride, recv, 1, count, elem_bytes);
}

namespace {
// Sums and products of 8- and 16-bit integers must wrap (two's complement,
// as C's unsigned arithmetic does), but Open MPI 4.1.4's vectorized
// MPI_SUM on MPI_INT8_T/UINT8_T/INT16_T/UINT16_T saturates (upstream:
// "wontfix"), for signed and unsigned types alike.  Those reductions use
// these user-defined ops instead, on the unsigned type of the same width:
// the bits of a wrapped signed result are those of the unsigned one.
template <class U, class Combine>
void combine_as(void* in, void* inout, int len, Combine f) {
    const auto* a = static_cast<const U*>(in);
    auto* b = static_cast<U*>(inout);
    for (int i = 0; i < len; ++i) b[i] = U(f(a[i], b[i]));
}

template <class Combine>
void combine_narrow(void* in, void* inout, const int* len, const MPI_Datatype* type, Combine f) {
    if (*type == MPI_UINT8_T)
        combine_as<std::uint8_t>(in, inout, *len, f);
    else
        combine_as<std::uint16_t>(in, inout, *len, f);
}

void wrapping_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
    combine_narrow(in, inout, len, type, [](unsigned a, unsigned b) { return a + b; });
}
void wrapping_prod(void* in, void* inout, int* len, MPI_Datatype* type) {
    combine_narrow(in, inout, len, type, [](unsigned a, unsigned b) { return a * b; });
}

// The user-defined op for `op` on an 8- or 16-bit integer kind, created on
// first use (after MPI_Init; MPI outlives Gasket's use of it) and kept.
MPI_Op wrapping_op(ReduceOp op) {
    static const MPI_Op sum = [] {
        MPI_Op o;
        check(MPI_Op_create(wrapping_sum, 1, &o), "MPI_Op_create");
        return o;
    }();
    static const MPI_Op prod = [] {
        MPI_Op o;
        check(MPI_Op_create(wrapping_prod, 1, &o), "MPI_Op_create");
        return o;
    }();
    return op == ReduceOp::sum ? sum : prod;
}

}  // namespace

std::pair<MPI_Datatype, MPI_Op> reduction(Elem e, ReduceOp op) {
    if (op == ReduceOp::sum || op == ReduceOp::prod) switch (e) {
            case Elem::i8:
            case Elem::u8: return {MPI_UINT8_T, wrapping_op(op)};
            case Elem::i16:
            case Elem::u16: return {MPI_UINT16_T, wrapping_op(op)};
            default: break;
        }
    return {datatype(e), mpi_op(op)};
}

void reduce_local(const void* in, void* inout, std::size_t count, Elem e, ReduceOp op) {
    const auto [type, mop] = reduction(e, op);
    const std::size_t esize = elem_bytes(e);
    for (std::size_t done = 0; done < count;) {
        const int n = int(std::min(count - done, kMaxInt));
        check(MPI_Reduce_local(static_cast<const char*>(in) + done * esize, static_cast<char*>(inout) + done * esize, n,
                               type, mop),
              "MPI_Reduce_local");
        done += std::size_t(n);
    }
}

void allreduce(MPI_Comm comm, const void* src, void* dst, std::size_t count, Elem e, ReduceOp op, Waiter w) {
    const auto [type, mop] = reduction(e, op);
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
    const auto [type, mop] = reduction(e, ReduceOp::sum);
    const std::size_t esize = elem_bytes(e);
    for (std::size_t done = 0; done < count;) {
        const int n = int(std::min(count - done, kMaxInt));
        const void* s = src ? static_cast<const char*>(src) + done * esize : MPI_IN_PLACE;
        void* d = static_cast<char*>(dst) + done * esize;
        if (inclusive)
            run(
                w, "MPI_Scan", "MPI_Iscan", [&] { return MPI_Scan(s, d, n, type, mop, comm); },
                [&](MPI_Request* r) { return MPI_Iscan(s, d, n, type, mop, comm, r); });
        else
            run(
                w, "MPI_Exscan", "MPI_Iexscan", [&] { return MPI_Exscan(s, d, n, type, mop, comm); },
                [&](MPI_Request* r) { return MPI_Iexscan(s, d, n, type, mop, comm, r); });
        done += std::size_t(n);
    }
}

namespace {

// Returns once every rank of `ranks` (ranks of `world`, this one among
// them) has called it: a dissemination of 0-byte messages, ceil(log2 n)
// rounds, in round k to the rank k places on and from the one k places
// back, each round completed (MPI_Testall) before the next, polling `w`
// meanwhile.  Each round has its own source, and a rank sends to this one
// in one round only, so messages of later meetings (same tag, matched in
// order per source) cannot be taken for this one's.
void meet(MPI_Comm world, const std::vector<int>& ranks, int tag, Waiter w) {
    const int n = int(ranks.size());
    int rank = 0;
    check(MPI_Comm_rank(world, &rank), "MPI_Comm_rank");
    const int me = int(std::find(ranks.begin(), ranks.end(), rank) - ranks.begin());
    for (int k = 1; k < n; k <<= 1) {
        MPI_Request requests[2];
        check(MPI_Irecv(nullptr, 0, MPI_BYTE, ranks[std::size_t((me - k + n) % n)], tag, world, &requests[0]),
              "MPI_Irecv");
        check(MPI_Isend(nullptr, 0, MPI_BYTE, ranks[std::size_t((me + k) % n)], tag, world, &requests[1]), "MPI_Isend");
        for (int done = 0;;) {
            check(MPI_Testall(2, requests, &done, MPI_STATUSES_IGNORE), "MPI_Testall");
            if (done) break;
            if (w.poll) w.poll(w.context);
        }
    }
}

}  // namespace

Communicator create_group(MPI_Comm world, const std::vector<int>& ranks, int tag, Waiter w) {
    meet(world, ranks, tag + 1, w);
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
