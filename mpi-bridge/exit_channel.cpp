// mpi-bridge/exit_channel.cpp -- exit notices, MPI_Abort, memory limits.
#include "exit_channel.hpp"

#include <sys/statvfs.h>
#include <sys/sysinfo.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "check.hpp"
#include "environment.hpp"

namespace gasket::mpi {

namespace {
constexpr int kExitTag = 7;
}

ExitChannel::ExitChannel(MPI_Comm comm) {
    check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
    check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
    notices_.assign(std::size_t(size_), Notice{});
    check(MPI_Irecv(&incoming_, 2, MPI_INT, MPI_ANY_SOURCE, kExitTag, comm_, &receive_), "MPI_Irecv");
}

ExitChannel::~ExitChannel() {
    if (!mpi_usable() || comm_ == MPI_COMM_NULL) return;  // finalized, or the job is being aborted
    if (receive_ != MPI_REQUEST_NULL) {
        MPI_Cancel(&receive_);
        MPI_Wait(&receive_, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&comm_);
}

bool ExitChannel::test_receive() {
    if (heard_.load(std::memory_order_relaxed) >= size_ - 1) return false;
    int flag = 0;
    MPI_Status status;
    check(MPI_Test(&receive_, &flag, &status), "MPI_Test");
    if (!flag) return false;
    notices_[std::size_t(status.MPI_SOURCE)] = incoming_;
    if (first_rank_ < 0) {
        first_code_ = incoming_.code;
        first_rank_ = status.MPI_SOURCE;
    }
    const int heard = heard_.load(std::memory_order_relaxed) + 1;
    if (heard < size_ - 1)
        check(MPI_Irecv(&incoming_, 2, MPI_INT, MPI_ANY_SOURCE, kExitTag, comm_, &receive_), "MPI_Irecv");
    heard_.store(heard, std::memory_order_release);
    return true;
}

bool ExitChannel::notice_arrived(int& code, int& rank) {
    // Once a notice is known, no more MPI: first_* were written before
    // heard_ (release).
    if (heard_.load(std::memory_order_acquire) == 0) {
        std::unique_lock lock(mutex_, std::try_to_lock);
        if (lock.owns_lock()) test_receive();
        if (heard_.load(std::memory_order_acquire) == 0) return false;
    }
    code = first_code_;
    rank = first_rank_;
    return true;
}

bool ExitChannel::notify_and_wait(ExitRole role, int code, double timeout_seconds, void (*poll)(void*), void* context) {
    std::unique_lock lock(mutex_);
    const Notice mine{int(role), code};
    notices_[std::size_t(rank_)] = mine;
    std::vector<MPI_Request> sends;
    for (int r = 0; r < size_; ++r) {
        if (r == rank_) continue;
        sends.push_back(MPI_REQUEST_NULL);
        check(MPI_Isend(&mine, 2, MPI_INT, r, kExitTag, comm_, &sends.back()), "MPI_Isend");
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
    int sent = sends.empty();
    while (heard_.load(std::memory_order_relaxed) < size_ - 1 || !sent) {
        if (test_receive()) continue;
        if (!sent) check(MPI_Testall(int(sends.size()), sends.data(), &sent, MPI_STATUSES_IGNORE), "MPI_Testall");
        if (timeout_seconds >= 0 && std::chrono::steady_clock::now() > deadline) {
            // Still sending to a rank that will never receive: leave the
            // sends behind (the job is aborted next).
            for (MPI_Request& r : sends)
                if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
            return false;
        }
        if (poll) {
            lock.unlock();
            poll(context);
            lock.lock();
        }
    }
    return true;
}

int ExitChannel::agreed_code() const {
    for (int role : {int(ExitRole::choose), int(ExitRole::start)})
        for (const Notice& n : notices_)
            if (n.role == role) return n.code;
    return notices_[std::size_t(rank_)].code;
}

void ExitChannel::abort(int code) {
    std::fflush(nullptr);
    // On MPI_COMM_WORLD, not this channel's duplicate (abort_job): MPICH
    // 4.0.2 ends the other members of a duplicate with exit() called
    // inside their MPI calls, often on the progress thread, whose exit
    // handlers then called MPI from inside MPI (MPICH asserted in
    // MPI_Test, UCX in ucp_worker_progress; the job ended with 1 or 6).
    abort_job(code);  // marks the process as aborting first: teardown calls no MPI
}

std::size_t shared_memory_per_rank(int ranks_on_node, std::size_t page) {
    struct statvfs vfs {};
    struct sysinfo si {};
    std::size_t shm = statvfs("/dev/shm", &vfs) == 0 ? std::size_t(vfs.f_bavail) * vfs.f_frsize : 0;
    std::size_t ram = sysinfo(&si) == 0 ? std::size_t(si.totalram) * si.mem_unit : 0;
    std::size_t total = shm && ram ? std::min(shm, ram) : std::max(shm, ram);
    return total / std::size_t(std::max(1, ranks_on_node)) / page * page;
}

std::size_t private_memory_per_rank(int ranks_on_node, std::size_t page) {
    struct sysinfo si {};
    if (sysinfo(&si) != 0) return 0;
    std::size_t total = (std::size_t(si.totalram) + si.totalswap) * si.mem_unit;
    return total / std::size_t(std::max(1, ranks_on_node)) / page * page;
}

}  // namespace gasket::mpi
