// mpi-bridge/split_barrier.cpp -- the dissemination split-phase barrier.
#include "split_barrier.hpp"

#include <algorithm>
#include <climits>

#include "check.hpp"
#include "environment.hpp"
#include "happens_before.hpp"

namespace gasket::mpi {

namespace {

// Values that fit a tag, so that a round's message carries no payload (as
// Open MPI's own barrier sends none; with Open MPI 4.1 on the development
// VM a 24-byte payload cost a 2-PE round trip 0.15 us more than a 0-byte
// message, 0.50 against 0.35 us; MPICH 4.0 showed no difference):
//  - codes: each of LLONG_MIN ("none", code 0) and 0..14 (codes 1..15)
//    takes 4 bits of the tag's low 12 -- OpenSHMEM's flags (0 or 1) and
//    GASNet's anonymous barrier (LLONG_MIN);
//  - a pair: (a, b, -b) with a a code and 0 <= b < 2^pair_bits_, as the
//    top bit of the tag, a's code and b -- GASNet's named barrier, whose
//    maxima stay a pair while every member gave the same id.
// Anything else: the 24-byte payload, tag kPayloadTag.  Tags up to 32767
// are valid in every MPI (§3.2.3); MPI_TAG_UB says how many more there are
// (2^31 - 1 in Open MPI 4.1, 2^28 - 1 in MPICH 4.0).
constexpr int kCodeBits = 4;
constexpr long long kLargestInTag = (1 << kCodeBits) - 2;
constexpr int kPayloadTag = 1 << (kCodeBits * SplitBarrier::kValues);
constexpr int kMinTagBits = 15;
static_assert(kPayloadTag < (1 << (kMinTagBits - 1)), "the pair form's top bit must be above every other tag");

int code_of(long long v) { return v == LLONG_MIN ? 0 : v >= 0 && v <= kLargestInTag ? int(v) + 1 : -1; }
long long value_of(int code) { return code == 0 ? LLONG_MIN : code - 1; }

// Bits of a tag that MPI allows on `comm`: at least kMinTagBits.
int tag_bits(MPI_Comm comm) {
    int* ub = nullptr;
    int found = 0;
    check(MPI_Comm_get_attr(comm, MPI_TAG_UB, &ub, &found), "MPI_Comm_get_attr");
    if (!found) check(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &found), "MPI_Comm_get_attr");
    int bits = kMinTagBits;
    while (found && bits < 31 && (long long)*ub >= (1LL << (bits + 1)) - 1) ++bits;
    return bits;
}

}  // namespace

SplitBarrier::SplitBarrier(MPI_Comm comm) {
    check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
    int rank, size;
    check(MPI_Comm_rank(comm_, &rank), "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size), "MPI_Comm_size");
    while ((1 << rounds_) < size) ++rounds_;
    const int bits = tag_bits(comm_);
    pair_flag_ = 1 << (bits - 1);
    pair_bits_ = bits - 1 - kCodeBits;
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

void SplitBarrier::send_round() {
    // A blocking send returns at once (eager), and measured 0.18 us a round
    // trip against 0.30 for persistent sends tested later.
    const long long* v = acc_.v;
    int tag = 0;
    const int code0 = code_of(v[0]);
    if (code0 >= 0 && v[1] >= 0 && v[1] <= largest_pair_in_tag() && v[2] == -v[1]) {
        tag = pair_flag_ | code0 << pair_bits_ | int(v[1]);
    } else {
        for (int i = 0; i < kValues; ++i) {
            const int code = code_of(v[i]);
            if (code < 0) {
                check(MPI_Send(v, kValues, MPI_LONG_LONG, to_[round_], kPayloadTag, comm_), "MPI_Send");
                return;
            }
            tag |= code << (kCodeBits * i);
        }
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
        const int tag = status.MPI_TAG;
        if (tag & pair_flag_) {
            from_tag[0] = value_of((tag >> pair_bits_) & ((1 << kCodeBits) - 1));
            from_tag[1] = tag & largest_pair_in_tag();
            from_tag[2] = -from_tag[1];
            in = from_tag;
        } else if (tag != kPayloadTag) {
            for (int i = 0; i < kValues; ++i) from_tag[i] = value_of((tag >> (kCodeBits * i)) & ((1 << kCodeBits) - 1));
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
