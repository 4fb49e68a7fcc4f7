// mpi-bridge/split_barrier.cpp -- the dissemination split-phase barrier.
#include "split_barrier.hpp"

#include <algorithm>
#include <climits>

#include "check.hpp"
#include "environment.hpp"
#include "happens_before.hpp"

namespace gasket::mpi {

SplitBarrier::SplitBarrier(MPI_Comm comm) {
    check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
    int rank, size;
    check(MPI_Comm_rank(comm_, &rank), "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size), "MPI_Comm_size");
    while ((1 << rounds_) < size) ++rounds_;
    in_.resize(rounds_);
    to_.resize(rounds_);
    recvs_.assign(rounds_, MPI_REQUEST_NULL);
    // Round k receives from rank - 2^k, any tag (the tag carries the values,
    // see send_round).  2^k < size for every round, so each round has its
    // own source, and only that round's message comes from it; messages of
    // one source match in order, so a fast rank already in the next barrier
    // cannot be confused with this one.
    for (int k = 0; k < rounds_; ++k) {
        const int to = (rank + (1 << k)) % size, from = (rank - (1 << k) % size + size) % size;
        to_[k] = to;
        check(MPI_Recv_init(in_[k].v, kValues, MPI_LONG_LONG, from, MPI_ANY_TAG, comm_, &recvs_[k]), "MPI_Recv_init");
    }
}

SplitBarrier::~SplitBarrier() {
    if (!mpi_usable() || comm_ == MPI_COMM_NULL) return;
    if (active_) {
        long long ignored[kValues];
        while (!test(ignored)) {}
    }
    for (int k = 0; k < rounds_; ++k) {
        MPI_Request_free(&recvs_[k]);
    }
    MPI_Comm_free(&comm_);
}

namespace {

// Values that fit a tag: each of LLONG_MIN ("none", code 0) and 0..14
// (codes 1..15) takes 4 bits of it, so a round's message carries no payload
// -- as Open MPI's own barrier sends none -- for OpenSHMEM's flags (0 or 1)
// and GASNet's anonymous barrier (LLONG_MIN).  Any other value: the 24-byte
// payload, tag kPayloadTag.  Tags up to 32767 are valid in every MPI (§3.2.3).
constexpr int kCodeBits = 4;
constexpr long long kLargestInTag = (1 << kCodeBits) - 2;
constexpr int kPayloadTag = 1 << (kCodeBits * SplitBarrier::kValues);
static_assert(kPayloadTag <= 32767);

int code_of(long long v) { return v == LLONG_MIN ? 0 : v >= 0 && v <= kLargestInTag ? int(v) + 1 : -1; }
long long value_of(int code) { return code == 0 ? LLONG_MIN : code - 1; }

}  // namespace

void SplitBarrier::send_round() {
    // A blocking send returns at once (eager), and measured 0.18 us a round
    // trip against 0.30 for persistent sends tested later; a 0-byte message
    // with the values in its tag costs about 0.01 us less than 24 bytes
    // (docs/cluster-path.md, part 3).
    int tag = 0;
    for (int i = 0; i < kValues; ++i) {
        const int code = code_of(acc_.v[i]);
        if (code < 0) {
            check(MPI_Send(acc_.v, kValues, MPI_LONG_LONG, to_[round_], kPayloadTag, comm_), "MPI_Send");
            return;
        }
        tag |= code << (kCodeBits * i);
    }
    check(MPI_Send(nullptr, 0, MPI_LONG_LONG, to_[round_], tag, comm_), "MPI_Send");
}

void SplitBarrier::start(const long long (&values)[kValues]) {
    // What this thread did before the barrier happens before what any
    // thread does after it: TSan cannot see the order that goes through
    // MPI and the other processes (happens_before.hpp).
    release_before_send();
    std::copy(values, values + kValues, acc_.v);
    active_ = true;
    round_ = 0;
    if (rounds_ == 0) return;
    check(MPI_Startall(rounds_, recvs_.data()), "MPI_Startall");
    send_round();
}

bool SplitBarrier::test(long long (&max)[kValues]) {
    while (round_ < rounds_) {
        int done = 0;
        MPI_Status status;
        check(MPI_Test(&recvs_[round_], &done, &status), "MPI_Test");
        if (!done) return false;
        const long long* in = in_[round_].v;
        long long from_tag[kValues];
        if (status.MPI_TAG != kPayloadTag) {
            for (int i = 0; i < kValues; ++i)
                from_tag[i] = value_of((status.MPI_TAG >> (kCodeBits * i)) & ((1 << kCodeBits) - 1));
            in = from_tag;
        }
        for (int i = 0; i < kValues; ++i) acc_.v[i] = std::max(acc_.v[i], in[i]);
        if (++round_ < rounds_) send_round();
    }
    std::copy(acc_.v, acc_.v + kValues, max);
    active_ = false;
    acquire_before_delivery();
    return true;
}

}  // namespace gasket::mpi
