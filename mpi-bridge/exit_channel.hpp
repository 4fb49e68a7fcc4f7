// mpi-bridge/exit_channel.hpp -- how a job ends when any rank may ask it to
// (gasnet_exit, gasnet-1.8-spec.md §2.1.0.5).
//
// Each rank posts one receive for exit notices on a private communicator.
// A rank that exits tells every other rank, then waits for their notices:
// if every rank exits within the timeout the exit is collective and MPI can
// be finalized; otherwise the job is ended with MPI_Abort(code), which
// makes the launcher return the code and leaves no process behind.  Notices
// say whether a rank began the exit, joined it with a code of its own, or
// followed, so every rank agrees on the job's exit code.
#pragma once

#include <mpi.h>

#include <atomic>
#include <mutex>
#include <vector>

namespace gasket::mpi {

// Why a rank exits, carried by its notice: the exit code the job ends
// with is the lowest rank's `choose` code if any rank chose one, else the
// lowest rank's `start` code.
enum class ExitRole {
    start,   // began the exit (no notice had arrived): its code ends the job
    choose,  // joined an exit others began, with a code of its own choice
             // (gasnet_exit called after a notice arrived): it wins
    follow   // joined an exit others began, taking their code
};

class ExitChannel {
public:
    explicit ExitChannel(MPI_Comm comm);  // collective: duplicates comm
    ~ExitChannel();
    ExitChannel(const ExitChannel&) = delete;
    ExitChannel& operator=(const ExitChannel&) = delete;

    // Sends notices carrying `role` and `code` to every other rank, then
    // waits for a notice from each, calling poll(context) while it waits:
    // up to `timeout_seconds`, or without limit when it is negative.  True
    // when every rank has exited too; agreed_code() then says the job's code.
    bool notify_and_wait(ExitRole role, int code, double timeout_seconds, void (*poll)(void*), void* context);

    // After notify_and_wait returned true: the code every rank exits with
    // (the same on every rank; see ExitRole).
    int agreed_code() const;

    // True (with the first notice's code and its sender's rank) once another
    // rank has sent an exit notice.  Cheap enough to call from polls (one
    // MPI_Test until a notice came, none after; when another thread is
    // testing, this call reports only what is already known).  Thread-safe.
    bool notice_arrived(int& code, int& rank);

    // Ends every process of the job with `code` (MPI_Abort).
    [[noreturn]] void abort(int code);

private:
    struct Notice {
        int role = -1;  // ExitRole, or -1: none yet
        int code = 0;
    };
    MPI_Comm comm_ = MPI_COMM_NULL;
    int rank_ = 0, size_ = 1;
    bool test_receive();  // one MPI_Test of the notice receive; reposts it (mutex_ held)
    Notice incoming_;     // receive buffer
    MPI_Request receive_ = MPI_REQUEST_NULL;
    std::mutex mutex_;           // guards the receive and what follows
    std::atomic<int> heard_{0};  // notices received
    int first_code_ = 0, first_rank_ = -1;
    std::vector<Notice> notices_;  // by rank, this rank's own included
};

// The largest segment of node-shared memory each of `ranks_on_node` ranks
// could have (free space of /dev/shm and physical memory, shared out), and
// the largest private one (physical memory plus swap), in bytes, rounded
// down to `page`.
std::size_t shared_memory_per_rank(int ranks_on_node, std::size_t page);
std::size_t private_memory_per_rank(int ranks_on_node, std::size_t page);

}  // namespace gasket::mpi
