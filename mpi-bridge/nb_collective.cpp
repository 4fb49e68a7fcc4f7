// mpi-bridge/nb_collective.cpp -- the nonblocking collectives of
// nb_collective.hpp.
#include "nb_collective.hpp"

#include <algorithm>
#include <climits>

#include "check.hpp"
#include "happens_before.hpp"

namespace gasket::mpi {

namespace {

constexpr std::size_t kMaxInt = INT_MAX;

// The attribute key under which a client's element type carries its
// Closure; created at first use, kept (MPI outlives Gasket's use of it).
int closure_key() {
    static const int key = [] {
        int k;
        check(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k, nullptr),
              "MPI_Type_create_keyval");
        return k;
    }();
    return key;
}

// Starts one reduction piece of n elements of `type` with `op`.
void start_reduce(std::vector<MPI_Request>& requests, MPI_Comm comm, const void* src, void* dst, int n,
                  MPI_Datatype type, MPI_Op op, int root) {
    MPI_Request r;
    if (root < 0)
        check(MPI_Iallreduce(src ? src : MPI_IN_PLACE, dst, n, type, op, comm, &r), "MPI_Iallreduce");
    else
        check(MPI_Ireduce(src ? src : MPI_IN_PLACE, dst, n, type, op, root, comm, &r), "MPI_Ireduce");
    requests.push_back(r);
}

// Starts the reduction of `count` elements of `esize` bytes in pieces of
// at most INT_MAX elements.
void start_reduce_all(std::vector<MPI_Request>& requests, MPI_Comm comm, const void* src, void* dst, std::size_t count,
                      std::size_t esize, MPI_Datatype type, MPI_Op op, int root) {
    for (std::size_t done = 0; done < count;) {
        const std::size_t n = std::min(count - done, kMaxInt);
        const void* s = src ? static_cast<const char*>(src) + done * esize : nullptr;
        void* d = dst ? static_cast<char*>(dst) + done * esize : nullptr;
        start_reduce(requests, comm, s, d, int(n), type, op, root);
        done += n;
    }
}

}  // namespace

// The op of every client reduction, commutative or not, created at first
// use and kept (MPI outlives Gasket's use of it): the function and its
// client data ride on the datatype, so one op serves them all.
MPI_Op NbCollective::user_op(bool commutative) {
    static const MPI_Op ops[2] = {[] {
                                      MPI_Op o;
                                      check(MPI_Op_create(&NbCollective::call_user, 0, &o), "MPI_Op_create");
                                      return o;
                                  }(),
                                  [] {
                                      MPI_Op o;
                                      check(MPI_Op_create(&NbCollective::call_user, 1, &o), "MPI_Op_create");
                                      return o;
                                  }()};
    return ops[commutative ? 1 : 0];
}

std::unique_ptr<NbCollective> NbCollective::barrier(MPI_Comm comm) {
    auto c = std::make_unique<NbCollective>();
    release_before_send();
    MPI_Request r;
    check(MPI_Ibarrier(comm, &r), "MPI_Ibarrier");
    c->requests_.push_back(r);
    return c;
}

std::unique_ptr<NbCollective> NbCollective::broadcast(MPI_Comm comm, void* buf, std::size_t bytes, int root) {
    auto c = std::make_unique<NbCollective>();
    release_before_send();
    for (std::size_t done = 0; done < bytes;) {
        const std::size_t n = std::min(bytes - done, kMaxInt);
        MPI_Request r;
        check(MPI_Ibcast(static_cast<char*>(buf) + done, int(n), MPI_BYTE, root, comm, &r), "MPI_Ibcast");
        c->requests_.push_back(r);
        done += n;
    }
    return c;
}

std::unique_ptr<NbCollective> NbCollective::reduce(MPI_Comm comm, const void* src, void* dst, std::size_t count, Elem e,
                                                   ReduceOp op, int root) {
    auto c = std::make_unique<NbCollective>();
    release_before_send();
    const auto [type, mop] = reduction(e, op);
    start_reduce_all(c->requests_, comm, src, dst, count, elem_bytes(e), type, mop, root);
    return c;
}

std::unique_ptr<NbCollective> NbCollective::reduce_user(MPI_Comm comm, const void* src, void* dst, std::size_t count,
                                                        std::size_t elem_bytes, UserFn fn, const void* cdata,
                                                        bool commutative, int root) {
    auto c = std::make_unique<NbCollective>();
    c->closure_ = Closure{fn, cdata};
    check(MPI_Type_contiguous(int(elem_bytes), MPI_BYTE, &c->type_), "MPI_Type_contiguous");
    check(MPI_Type_commit(&c->type_), "MPI_Type_commit");
    check(MPI_Type_set_attr(c->type_, closure_key(), &c->closure_), "MPI_Type_set_attr");
    release_before_send();
    start_reduce_all(c->requests_, comm, src, dst, count, elem_bytes, c->type_, user_op(commutative), root);
    return c;
}

std::unique_ptr<NbCollective> NbCollective::gather(MPI_Comm comm, const void* src, void* dst,
                                                   const std::vector<std::size_t>& counts, std::size_t elem_bytes,
                                                   int root) {
    auto c = std::make_unique<NbCollective>();
    check(MPI_Type_contiguous(int(elem_bytes), MPI_BYTE, &c->type_), "MPI_Type_contiguous");
    check(MPI_Type_commit(&c->type_), "MPI_Type_commit");
    int me = 0, at = 0;
    check(MPI_Comm_rank(comm, &me), "MPI_Comm_rank");
    for (std::size_t n : counts) {
        c->counts_.push_back(int(n));
        c->displs_.push_back(at);
        at += int(n);
    }
    release_before_send();
    MPI_Request r;
    const int mine = c->counts_[std::size_t(me)];
    if (root < 0)
        check(MPI_Iallgatherv(src, mine, c->type_, dst, c->counts_.data(), c->displs_.data(), c->type_, comm, &r),
              "MPI_Iallgatherv");
    else
        check(MPI_Igatherv(src, mine, c->type_, dst, c->counts_.data(), c->displs_.data(), c->type_, root, comm, &r),
              "MPI_Igatherv");
    c->requests_.push_back(r);
    return c;
}

void NbCollective::call_user(void* in, void* inout, int* len, MPI_Datatype* type) {
    void* attr = nullptr;
    int found = 0;
    check(MPI_Type_get_attr(*type, closure_key(), &attr, &found), "MPI_Type_get_attr");
    if (!found) fail("MPI_Type_get_attr (the reduction function of a client's element type)", MPI_ERR_KEYVAL);
    const auto* c = static_cast<const Closure*>(attr);
    c->fn(in, inout, std::size_t(*len), c->cdata);
    // MPI may call it from whichever thread progresses the collective (the
    // progress thread): what it wrote happens before the completion that
    // test() acquires (ThreadSanitizer builds only, happens_before.hpp).
    release_before_send();
}

bool NbCollective::test() {
    if (done_) return true;
    int all = 0;
    check(MPI_Testall(int(requests_.size()), requests_.data(), &all, MPI_STATUSES_IGNORE), "MPI_Testall");
    if (!all) return false;
    acquire_before_delivery();
    done_ = true;
    return true;
}

NbCollective::~NbCollective() {
    if (type_ != MPI_DATATYPE_NULL) MPI_Type_free(&type_);
}

}  // namespace gasket::mpi
