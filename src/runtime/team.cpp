// src/runtime/team.cpp -- team construction and its errors (cold).
#include "team.hpp"

#include "error.hpp"

namespace gasket::rt {

Team::Team(mpi::Communicator comm, std::vector<int> world_pes, int num_contexts)
    : comm_(std::move(comm)), world_pes_(std::move(world_pes)), num_contexts_(num_contexts) {
    for (std::size_t i = 0; i < world_pes_.size(); ++i)
        if (world_pes_[i] != static_cast<int>(i)) identity_ = false;
    if (!identity_)
        for (std::size_t i = 0; i < world_pes_.size(); ++i) team_pe_of_[world_pes_[i]] = static_cast<int>(i);
}

void Team::bad_pe(const char* routine, int team_pe) const {
    fatal(routine, "PE %d is out of range for this team (0..%d)", team_pe, n_pes() - 1);
}

}  // namespace gasket::rt
