// mpi-bridge/communicator.hpp -- an owned MPI communicator: the MPI side of
// a team (split, size, rank, and which world ranks it holds).
#pragma once

#include <mpi.h>

#include <vector>

namespace gasket::mpi {

// Owns one communicator (freed on destruction while MPI is usable).  A
// default-constructed Communicator is null: a process outside a split.
class Communicator {
public:
    Communicator() = default;
    // Takes ownership of `comm` (MPI_COMM_NULL allowed); errors on it
    // return codes, which check() turns into named fatal errors.
    explicit Communicator(MPI_Comm comm);
    ~Communicator();
    Communicator(Communicator&& other) noexcept : comm_(other.comm_), rank_(other.rank_), size_(other.size_) {
        other.comm_ = MPI_COMM_NULL;
    }
    Communicator& operator=(Communicator&& other) noexcept;
    Communicator(const Communicator&) = delete;
    Communicator& operator=(const Communicator&) = delete;

    // A private duplicate of `comm` (collective over it).
    static Communicator duplicate(MPI_Comm comm);
    // MPI_Comm_split: collective over this communicator.  color < 0 means
    // MPI_UNDEFINED: that process gets a null Communicator.
    Communicator split(int color, int key) const;

    bool null() const { return comm_ == MPI_COMM_NULL; }
    MPI_Comm get() const { return comm_; }
    int rank() const { return rank_; }
    int size() const { return size_; }
    // The rank in `world` of each member, in this communicator's rank order.
    std::vector<int> ranks_in(MPI_Comm world) const;
    // True on every process when `mine` is true on every process
    // (MPI_Allreduce with MPI_LAND; collective).
    bool all(bool mine) const;

private:
    MPI_Comm comm_ = MPI_COMM_NULL;
    int rank_ = -1, size_ = 0;
};

}  // namespace gasket::mpi
