// mpi-bridge/communicator.cpp -- owned communicators for teams.
#include "communicator.hpp"

#include <numeric>

#include "check.hpp"
#include "environment.hpp"

namespace gasket::mpi {

Communicator::Communicator(MPI_Comm comm) : comm_(comm) {
    if (comm_ == MPI_COMM_NULL) return;
    check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

Communicator::~Communicator() {
    if (comm_ != MPI_COMM_NULL && mpi_usable()) MPI_Comm_free(&comm_);
}

Communicator& Communicator::operator=(Communicator&& other) noexcept {
    if (this != &other) {
        if (comm_ != MPI_COMM_NULL && mpi_usable()) MPI_Comm_free(&comm_);
        comm_ = other.comm_;
        rank_ = other.rank_;
        size_ = other.size_;
        other.comm_ = MPI_COMM_NULL;
    }
    return *this;
}

Communicator Communicator::duplicate(MPI_Comm comm) {
    MPI_Comm dup;
    check(MPI_Comm_dup(comm, &dup), "MPI_Comm_dup");
    return Communicator(dup);
}

Communicator Communicator::split(int color, int key) const {
    MPI_Comm out;
    check(MPI_Comm_split(comm_, color < 0 ? MPI_UNDEFINED : color, key, &out), "MPI_Comm_split");
    return Communicator(out);
}

std::vector<int> Communicator::ranks_in(MPI_Comm world) const {
    std::vector<int> mine(size_), out(size_);
    std::iota(mine.begin(), mine.end(), 0);
    MPI_Group group, world_group;
    check(MPI_Comm_group(comm_, &group), "MPI_Comm_group");
    check(MPI_Comm_group(world, &world_group), "MPI_Comm_group");
    check(MPI_Group_translate_ranks(group, size_, mine.data(), world_group, out.data()), "MPI_Group_translate_ranks");
    MPI_Group_free(&group);
    MPI_Group_free(&world_group);
    return out;
}

bool Communicator::all(bool mine) const {
    int in = mine ? 1 : 0, out = 0;
    check(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, comm_), "MPI_Allreduce");
    return out != 0;
}

}  // namespace gasket::mpi
