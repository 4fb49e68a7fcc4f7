// src/gasnet/gex_system.cpp -- GASNet-EX's job-wide queries
// (gasnet-ex-api.txt, "Basic types", "Client Threads", "Neighborhood and
// Host"): jobrank and size, thread limit, neighbourhood and host.
//
// A neighbourhood is the processes whose segments this one maps (its node
// with node-shared segments and the node fast path on; itself otherwise), a
// host the processes of its node (MPI's shared-memory communicator).  Both
// are found once, at the job's start (collectively), so the queries are
// plain reads, as the specification wants of calls allowed in handlers.
#include <gasnet.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "src/gex/objects.hpp"
#include "src/runtime/am.hpp"
#include "state.hpp"

namespace gasket::gasnet {

namespace {

using RankInfo = std::remove_const_t<gex_RankInfo_t>;

struct Group {
    std::vector<RankInfo> members;  // by increasing jobrank
    gex_Rank_t my_index = 0;
    gex_Rank_t set_size = 1, set_rank = 0;  // the job's groups of this kind, numbered by lowest jobrank
    std::vector<gex_Rank_t> rank_of;        // every process's group (its set rank), by jobrank
};
struct SystemInfo {
    Group nbrhd, host;
};
SystemInfo g_system;

// `ranks`: the sorted jobranks of this process's group; the group's lowest
// jobrank is gathered from every process to number the groups.
Group make_group(rt::Job& job, const std::vector<int>& ranks) {
    Group g;
    for (int r : ranks) {
        if (r == job.my_pe) g.my_index = gex_Rank_t(g.members.size());
        g.members.push_back(RankInfo{gex_Rank_t(r)});
    }
    const int lowest = ranks.front();
    std::vector<int> each(std::size_t(job.n_pes));
    job.env->allgather(&lowest, sizeof lowest, each.data());
    std::vector<int> sets = each;
    std::sort(sets.begin(), sets.end());
    sets.erase(std::unique(sets.begin(), sets.end()), sets.end());
    const auto set_of = [&](int low) {
        return gex_Rank_t(std::lower_bound(sets.begin(), sets.end(), low) - sets.begin());
    };
    g.set_size = gex_Rank_t(sets.size());
    g.set_rank = set_of(lowest);
    for (int low : each) g.rank_of.push_back(set_of(low));
    return g;
}

void query(const Group& g, gex_RankInfo_t** info_p, gex_Rank_t* count_p, gex_Rank_t* index_p) {
    if (info_p) *info_p = g.members.data();
    if (count_p) *count_p = gex_Rank_t(g.members.size());
    if (index_p) *index_p = g.my_index;
}

}  // namespace

void setup_system_info(rt::Job& job) {
    std::vector<int> host;
    for (int r = 0; r < job.n_pes; ++r)
        if (job.env->node_rank_of(r) >= 0) host.push_back(r);
    std::vector<int> nbrhd{job.my_pe};
    if (kNodeShared) {
        nbrhd = job.shared_team->world_pes();
        std::sort(nbrhd.begin(), nbrhd.end());
    }
    g_system = SystemInfo{make_group(job, nbrhd), make_group(job, host)};
}

}  // namespace gasket::gasnet

using namespace gasket;

extern "C" {

gex_Rank_t gex_System_QueryJobRank(void) noexcept {
    return gex_Rank_t(gasnet::initialized_job("gex_System_QueryJobRank").my_pe);
}
gex_Rank_t gex_System_QueryJobSize(void) noexcept {
    return gex_Rank_t(gasnet::initialized_job("gex_System_QueryJobSize").n_pes);
}

int gex_System_QueryHiddenAMConcurrencyLevel(void) noexcept {
    const rt::Job& job = gasnet::initialized_job("gex_System_QueryHiddenAMConcurrencyLevel");
    if (gasnet::g_state.attached) return job.am->progress_thread_running() ? 1 : 0;
    // Before the segment (and the progress thread) exists: what it will be.
    if (job.config.progress_thread == rt::Tristate::off) return 0;
    return job.config.progress_thread == rt::Tristate::on || job.env->thread_multiple() ? 1 : 0;
}

uint64_t gasket_gex_System_QueryMaxThreads(int thread_mode) noexcept {
    return thread_mode == 0 ? 1 : UINT64_MAX;  // GASNET_SEQ: one thread
}

void gex_System_QueryNbrhdInfo(gex_RankInfo_t** info_p, gex_Rank_t* info_count_p,
                               gex_Rank_t* my_info_index_p) noexcept {
    gasnet::initialized_job("gex_System_QueryNbrhdInfo");
    gasnet::query(gasnet::g_system.nbrhd, info_p, info_count_p, my_info_index_p);
}
void gex_System_QueryHostInfo(gex_RankInfo_t** info_p, gex_Rank_t* info_count_p, gex_Rank_t* my_info_index_p) noexcept {
    gasnet::initialized_job("gex_System_QueryHostInfo");
    gasnet::query(gasnet::g_system.host, info_p, info_count_p, my_info_index_p);
}
int gasnet_getNodeInfo(gasnet_nodeinfo_t* nodeinfo_table, int numentries) noexcept {
    const char* routine = "gasnet_getNodeInfo";
    if (!gasnet::attached_job(routine)) return GASNET_ERR_NOT_INIT;
    if (numentries < 0 || (numentries > 0 && !nodeinfo_table)) {
        rt::error(routine, "table %p with %d entries is not valid", static_cast<void*>(nodeinfo_table), numentries);
        return GASNET_ERR_BAD_ARG;
    }
    const gasnet::SystemInfo& s = gasnet::g_system;
    const int n = std::min<int>(numentries, int(s.host.rank_of.size()));
    for (int i = 0; i < n; ++i) {
        void* local = nullptr;
        gex_EP_QueryBoundSegmentNB(gex::primordial_tm(), gex_Rank_t(i), nullptr, &local, nullptr, 0);
        const auto& seg = gasnet::g_state.segments[std::size_t(i)];
        nodeinfo_table[i].host = s.host.rank_of[std::size_t(i)];
        nodeinfo_table[i].supernode = s.nbrhd.rank_of[std::size_t(i)];
        nodeinfo_table[i].offset =
            local ? reinterpret_cast<uintptr_t>(local) - reinterpret_cast<uintptr_t>(seg.addr) : 0;
    }
    return GASNET_OK;
}

void gex_System_QueryMyPosition(gex_Rank_t* nbrhd_set_size_p, gex_Rank_t* nbrhd_set_rank_p, gex_Rank_t* host_set_size_p,
                                gex_Rank_t* host_set_rank_p) noexcept {
    gasnet::initialized_job("gex_System_QueryMyPosition");
    const gasnet::SystemInfo& s = gasnet::g_system;
    if (nbrhd_set_size_p) *nbrhd_set_size_p = s.nbrhd.set_size;
    if (nbrhd_set_rank_p) *nbrhd_set_rank_p = s.nbrhd.set_rank;
    if (host_set_size_p) *host_set_size_p = s.host.set_size;
    if (host_set_rank_p) *host_set_rank_p = s.host.set_rank;
}

int gex_System_QueryProgressThreads(gex_Client_t client, unsigned int* count_p, const gex_ProgressThreadInfo_t** info_p,
                                    gex_Flags_t flags) noexcept {
    const char* routine = "gex_System_QueryProgressThreads";
    const gasket_gex_client& c = gex::client_of(routine, client);
    const bool verbose = gex::verbose();
    if (!count_p || !info_p || flags != 0) {
        if (verbose)
            rt::error(routine, "count_p %p, info_p %p, flags 0x%x: the pointers must not be NULL and flags must be 0",
                      static_cast<void*>(count_p), static_cast<const void*>(info_p), unsigned(flags));
        return GASNET_ERR_BAD_ARG;
    }
    if (!(c.flags & GEX_FLAG_DEFER_THREADS)) {
        if (verbose) rt::error(routine, "the client did not pass GEX_FLAG_DEFER_THREADS to gex_Client_Init");
        return GASNET_ERR_RESOURCE;
    }
    *count_p = 0;  // Gasket's progress thread is never deferred
    *info_p = nullptr;
    return GASNET_OK;
}

}  // extern "C"
