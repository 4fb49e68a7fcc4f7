// src/runtime/team.cpp -- team construction and its errors (cold).
#include "team.hpp"

#include <algorithm>

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

std::unique_ptr<Team> Team::split_strided(int start, int stride, int size, int num_contexts) const {
    // My index in the new team, if any: me = start + stride*i.
    const int me = my_pe();
    int index = -1;
    if (stride == 0) {
        if (me == start) index = 0;
    } else if ((me - start) % stride == 0) {
        const int i = (me - start) / stride;
        if (i >= 0 && i < size) index = i;
    }
    mpi::Communicator comm = comm_.split(index >= 0 ? 0 : -1, index);
    if (index < 0) return nullptr;
    std::vector<int> world(static_cast<std::size_t>(size));
    for (int i = 0; i < size; ++i) world[i] = world_pe(start + stride * i);
    return std::make_unique<Team>(std::move(comm), std::move(world), num_contexts);
}

std::unique_ptr<Team> Team::split(int color, int key) const {
    mpi::Communicator comm = comm_.split(color, key);
    if (color < 0) return nullptr;
    const std::vector<int> here = comm.ranks_in(comm_.get());  // each new member's rank in this team
    std::vector<int> world(here.size());
    for (std::size_t i = 0; i < here.size(); ++i) world[i] = world_pe(here[i]);
    return std::make_unique<Team>(std::move(comm), std::move(world), 0);
}

std::pair<std::unique_ptr<Team>, std::unique_ptr<Team>> Team::split_2d(int xrange, int x_contexts,
                                                                       int y_contexts) const {
    const int me = my_pe(), n = n_pes();
    const int x = me % xrange, y = me / xrange;
    // Row: the PEs with my y, numbered by x (parent order).
    mpi::Communicator row = comm_.split(y, x);
    std::vector<int> row_pes;
    for (int p = y * xrange; p < std::min(n, (y + 1) * xrange); ++p) row_pes.push_back(world_pe(p));
    // Column: the PEs with my x, numbered by y (parent order).
    mpi::Communicator column = comm_.split(x, y);
    std::vector<int> column_pes;
    for (int p = x; p < n; p += xrange) column_pes.push_back(world_pe(p));
    return {std::make_unique<Team>(std::move(row), std::move(row_pes), x_contexts),
            std::make_unique<Team>(std::move(column), std::move(column_pes), y_contexts)};
}

}  // namespace gasket::rt
