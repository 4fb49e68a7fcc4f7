// mpi-bridge/exit_channel.hpp -- how a job ends when any rank may ask it to
// (gasnet_exit, gasnet-1.8-spec.md §2.1.0.5).
//
// Each rank posts one receive for exit notices on a private communicator.
// A rank that exits tells every other rank, then waits for their notices:
// if every rank exits within the timeout the exit is collective and MPI can
// be finalized; otherwise the job is ended with MPI_Abort(code), which
// makes the launcher return the code and leaves no process behind.
#pragma once

#include <mpi.h>

#include <vector>

namespace gasket::mpi {

class ExitChannel {
public:
    explicit ExitChannel(MPI_Comm comm);  // collective: duplicates comm
    ~ExitChannel();
    ExitChannel(const ExitChannel&) = delete;
    ExitChannel& operator=(const ExitChannel&) = delete;

    // Sends notices carrying `code` to every other rank, then waits up to
    // `timeout_seconds` for a notice from each, calling poll(context) while
    // it waits.  True when every rank has exited too.
    bool notify_and_wait(int code, double timeout_seconds, void (*poll)(void*), void* context);

    // True (and the first notice's code in `code`) once another rank has
    // sent an exit notice.  Cheap enough to call now and then from polls.
    bool notice_arrived(int& code);

    // Ends every process of the job with `code` (MPI_Abort).
    [[noreturn]] void abort(int code);

private:
    MPI_Comm comm_ = MPI_COMM_NULL;
    int rank_ = 0, size_ = 1;
    bool test_receive();  // one MPI_Test of the notice receive; reposts it
    int incoming_ = 0;    // receive buffer: the sender's code
    MPI_Request receive_ = MPI_REQUEST_NULL;
    int heard_ = 0;       // notices received
    int first_code_ = 0;  // the first notice's code
};

// The largest segment of node-shared memory each of `ranks_on_node` ranks
// could have (free space of /dev/shm and physical memory, shared out), and
// the largest private one (physical memory plus swap), in bytes, rounded
// down to `page`.
std::size_t shared_memory_per_rank(int ranks_on_node, std::size_t page);
std::size_t private_memory_per_rank(int ranks_on_node, std::size_t page);

}  // namespace gasket::mpi
