// tests/mpi/gex/gex_objects_test.cpp -- GASNet-EX objects and queries
// (gasnet-ex-api.txt: client data, client, segment, team, endpoint,
// bound-segment and system queries, TM-pairs, rank translation), checked
// against MPI's view of the same job.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "gex_test.hpp"

using gex_test::g_job;

namespace {

std::vector<gex_Rank_t> mpi_host_members() {
    MPI_Comm host;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
    int size = 0;
    MPI_Comm_size(host, &size);
    std::vector<int> all(static_cast<std::size_t>(size));
    const int me = int(g_job.me);
    MPI_Allgather(&me, 1, MPI_INT, all.data(), 1, MPI_INT, host);
    MPI_Comm_free(&host);
    std::vector<gex_Rank_t> out(all.begin(), all.end());
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<gex_Rank_t> ranks_of(gex_RankInfo_t* info, gex_Rank_t count) {
    std::vector<gex_Rank_t> out;
    for (gex_Rank_t i = 0; i < count; ++i) out.push_back(info[i].gex_jobrank);
    return out;
}

}  // namespace

TEST(GexClient, InitMadeThePrimordialObjects) {
    EXPECT_STREQ(gex_Client_QueryName(g_job.client), "GEXTEST");
    EXPECT_EQ(gex_Client_QueryFlags(g_job.client), GEX_FLAG_USES_GASNET1 | GEX_FLAG_DEFER_THREADS);
    EXPECT_EQ(gex_EP_QueryClient(g_job.ep), g_job.client);
    EXPECT_EQ(gex_EP_QueryIndex(g_job.ep), 0u);
    EXPECT_EQ(gex_EP_QueryFlags(g_job.ep), 0u);
    EXPECT_EQ(gex_EP_QuerySegment(g_job.ep), g_job.segment);
    EXPECT_EQ(gex_TM_QueryClient(g_job.tm), g_job.client);
    EXPECT_EQ(gex_TM_QueryEP(g_job.tm), g_job.ep);
    EXPECT_EQ(gex_TM_QueryFlags(g_job.tm), 0u);
    int rank = -1, size = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    EXPECT_EQ(gex_TM_QueryRank(g_job.tm), gex_Rank_t(rank));
    EXPECT_EQ(gex_TM_QuerySize(g_job.tm), gex_Rank_t(size));
    EXPECT_EQ(gex_System_QueryJobRank(), gex_Rank_t(rank));
    EXPECT_EQ(gex_System_QueryJobSize(), gex_Rank_t(size));
    EXPECT_EQ(gasnet_mynode(), gex_Rank_t(rank));  // GASNet-1 and -EX name the same job
}

TEST(GexClient, GasnetQueryGexObjectsGivesTheSameObjects) {
    gex_Client_t c = GEX_CLIENT_INVALID;
    gex_EP_t e = GEX_EP_INVALID;
    gex_TM_t t = GEX_TM_INVALID;
    gex_Segment_t s = GEX_SEGMENT_INVALID;
    gasnet_QueryGexObjects(&c, &e, &t, &s);
    EXPECT_EQ(c, g_job.client);
    EXPECT_EQ(e, g_job.ep);
    EXPECT_EQ(t, g_job.tm);
    EXPECT_EQ(s, g_job.segment);
    gasnet_QueryGexObjects(nullptr, nullptr, nullptr, nullptr);  // every output may be NULL
}

TEST(GexSegment, QueriesDescribeTheAttachedSegment) {
    ASSERT_NE(g_job.segment, GEX_SEGMENT_INVALID);
    EXPECT_EQ(gex_Segment_QueryClient(g_job.segment), g_job.client);
    EXPECT_EQ(gex_Segment_QueryFlags(g_job.segment), 0u);
    EXPECT_EQ(gex_Segment_QuerySize(g_job.segment), gex_test::kSegmentBytes);
    unsigned char* base = static_cast<unsigned char*>(gex_Segment_QueryAddr(g_job.segment));
    ASSERT_NE(base, nullptr);
    base[0] = 1;  // writable
    base[gex_test::kSegmentBytes - 1] = 2;
    EXPECT_EQ(base[0] + base[gex_test::kSegmentBytes - 1], 3);
    base[0] = base[gex_test::kSegmentBytes - 1] = 0;
    // GASNet-1's view of it is the same
    std::vector<gasnet_seginfo_t> segs(g_job.n);
    ASSERT_EQ(gasnet_getSegmentInfo(segs.data(), int(g_job.n)), GASNET_OK);
    EXPECT_EQ(segs[g_job.me].addr, base);
    EXPECT_EQ(segs[g_job.me].size, gex_test::kSegmentBytes);
    gex_test::barrier();
}

TEST(GexSegment, BoundSegmentOfEveryRankMatchesItsOwnersAddress) {
    // Every process's own segment address, gathered by MPI, against the query.
    void* mine = gex_Segment_QueryAddr(g_job.segment);
    std::vector<void*> all(g_job.n);
    MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, MPI_COMM_WORLD);
    gex_RankInfo_t* nbrhd = nullptr;
    gex_Rank_t nbrhd_count = 0;
    gex_System_QueryNbrhdInfo(&nbrhd, &nbrhd_count, nullptr);
    const std::vector<gex_Rank_t> mapped = ranks_of(nbrhd, nbrhd_count);
    for (gex_Rank_t r = 0; r < g_job.n; ++r) {
        void* owner = nullptr;
        void* local = reinterpret_cast<void*>(1);
        uintptr_t size = 0;
        EXPECT_EQ(gex_EP_QueryBoundSegmentNB(g_job.tm, r, &owner, &local, &size, 0), GEX_EVENT_INVALID);
        EXPECT_EQ(owner, all[r]) << "rank " << r;
        EXPECT_EQ(size, gex_test::kSegmentBytes) << "rank " << r;
        const bool in_nbrhd = std::count(mapped.begin(), mapped.end(), r) == 1;
        if (r == g_job.me)
            EXPECT_EQ(local, owner);
        else if (in_nbrhd)
            EXPECT_NE(local, nullptr) << "rank " << r << " is in the neighbourhood: its segment is mapped here";
        else
            EXPECT_EQ(local, nullptr) << "rank " << r;
        // The same through a TM-pair, with IMMEDIATE, and the deprecated query.
        void* owner2 = nullptr;
        uintptr_t size2 = 0;
        EXPECT_EQ(gex_EP_QueryBoundSegmentNB(gex_TM_Pair(g_job.ep, 0), r, &owner2, nullptr, &size2, GEX_FLAG_IMMEDIATE),
                  GEX_EVENT_INVALID);
        EXPECT_EQ(owner2, owner);
        EXPECT_EQ(size2, size);
        void* owner3 = nullptr;
        EXPECT_EQ(gex_Segment_QueryBound(g_job.tm, r, &owner3, nullptr, nullptr), 0);
        EXPECT_EQ(owner3, owner);
        // Local addresses reach the owner's memory.
        if (local && r != g_job.me) {
            unsigned char probe = 0;
            std::memcpy(&probe, local, 1);  // readable
            (void)probe;
        }
    }
    EXPECT_EQ(gex_EP_PublishBoundSegment(g_job.tm, &g_job.ep, 1, 0), GASNET_OK);
    EXPECT_EQ(gex_EP_PublishBoundSegment(g_job.tm, nullptr, 0, 0), GASNET_OK);
    gex_test::barrier();
}

TEST(GexTeam, TranslationsAndPairs) {
    for (gex_Rank_t r = 0; r < g_job.n; ++r) {
        EXPECT_EQ(gex_TM_TranslateRankToJobrank(g_job.tm, r), r);
        EXPECT_EQ(gex_TM_TranslateJobrankToRank(g_job.tm, r), r);
        const gex_EP_Location_t loc = gex_TM_TranslateRankToEP(g_job.tm, r, 0);
        EXPECT_EQ(loc.gex_rank, r);
        EXPECT_EQ(loc.gex_ep_index, 0u);
    }
    const gex_TM_t pair = gex_TM_Pair(g_job.ep, 0);
    EXPECT_EQ(pair, gex_TM_Pair(g_job.ep, 0));  // equal arguments, equal values
    EXPECT_NE(pair, g_job.tm);                  // never equal to a team
    EXPECT_NE(pair, GEX_TM_INVALID);
}

TEST(GexCData, EveryObjectKeepsItsPointer) {
    int a = 0, b = 0, c = 0, d = 0;
    EXPECT_EQ(gex_Client_QueryCData(g_job.client), nullptr);  // NULL when made
    EXPECT_EQ(gex_EP_QueryCData(g_job.ep), nullptr);
    EXPECT_EQ(gex_TM_QueryCData(g_job.tm), nullptr);
    EXPECT_EQ(gex_Segment_QueryCData(g_job.segment), nullptr);
    gex_Client_SetCData(g_job.client, &a);
    gex_EP_SetCData(g_job.ep, &b);
    gex_TM_SetCData(g_job.tm, &c);
    gex_Segment_SetCData(g_job.segment, &d);
    EXPECT_EQ(gex_Client_QueryCData(g_job.client), &a);
    EXPECT_EQ(gex_EP_QueryCData(g_job.ep), &b);
    EXPECT_EQ(gex_TM_QueryCData(g_job.tm), &c);
    EXPECT_EQ(gex_Segment_QueryCData(g_job.segment), &d);
    gex_Client_SetCData(g_job.client, nullptr);
    gex_EP_SetCData(g_job.ep, nullptr);
    gex_TM_SetCData(g_job.tm, nullptr);
    gex_Segment_SetCData(g_job.segment, nullptr);
    EXPECT_EQ(gex_TM_QueryCData(g_job.tm), nullptr);
}

TEST(GexSystem, HostAndNeighbourhoodMatchMpi) {
    gex_RankInfo_t* host = nullptr;
    gex_Rank_t host_count = 0, host_index = 99;
    gex_System_QueryHostInfo(&host, &host_count, &host_index);
    ASSERT_NE(host, nullptr);
    ASSERT_GE(host_count, 1u);
    const std::vector<gex_Rank_t> host_ranks = ranks_of(host, host_count);
    EXPECT_EQ(host_ranks, mpi_host_members());
    ASSERT_LT(host_index, host_count);
    EXPECT_EQ(host[host_index].gex_jobrank, g_job.me);
    EXPECT_TRUE(std::is_sorted(host_ranks.begin(), host_ranks.end()));

    gex_RankInfo_t* nbrhd = nullptr;
    gex_Rank_t nbrhd_count = 0, nbrhd_index = 99;
    gex_System_QueryNbrhdInfo(&nbrhd, &nbrhd_count, &nbrhd_index);
    const std::vector<gex_Rank_t> nbrhd_ranks = ranks_of(nbrhd, nbrhd_count);
    ASSERT_LT(nbrhd_index, nbrhd_count);
    EXPECT_EQ(nbrhd[nbrhd_index].gex_jobrank, g_job.me);
    for (gex_Rank_t r : nbrhd_ranks)  // a neighbourhood lies within its host
        EXPECT_EQ(std::count(host_ranks.begin(), host_ranks.end(), r), 1) << "rank " << r;
    // With the node fast path on (and node-shared segments) the whole node is
    // the neighbourhood; with it off, this process alone.
    const char* fp = std::getenv("GASKET_NODE_FASTPATH");
    const bool fast = !fp || std::string(fp) != "off";
    EXPECT_EQ(nbrhd_ranks, fast ? host_ranks : std::vector<gex_Rank_t>{g_job.me});

    gex_Rank_t nb_size = 0, nb_rank = 99, h_size = 0, h_rank = 99;
    gex_System_QueryMyPosition(&nb_size, &nb_rank, &h_size, &h_rank);
    EXPECT_LT(nb_rank, nb_size);
    EXPECT_LT(h_rank, h_size);
    // Processes in the same host have the same host rank; the number of hosts
    // is the number of distinct lowest host members.
    std::vector<int> lowest(g_job.n);
    const int mine = int(host_ranks.front());
    MPI_Allgather(&mine, 1, MPI_INT, lowest.data(), 1, MPI_INT, MPI_COMM_WORLD);
    EXPECT_EQ(h_size, gex_Rank_t(std::set<int>(lowest.begin(), lowest.end()).size()));
    EXPECT_EQ(nb_size, fast ? h_size : g_job.n);
    gex_System_QueryMyPosition(nullptr, nullptr, nullptr, nullptr);
}

TEST(GexSystem, ThreadsAndVerboseErrors) {
    EXPECT_EQ(gex_System_QueryMaxThreads(), 1u);  // this program is GASNET_SEQ
    // Handlers on the progress thread: as GASKET_PROGRESS_THREAD says (the
    // default, automatic, runs it where MPI is fully thread-safe).
    const char* pt = std::getenv("GASKET_PROGRESS_THREAD");
    const int level = gex_System_QueryHiddenAMConcurrencyLevel();
    if (pt && std::string(pt) == "off")
        EXPECT_EQ(level, 0);
    else if (pt && std::string(pt) == "on")
        EXPECT_EQ(level, 1);
    else
        EXPECT_TRUE(level == 0 || level == 1);
    EXPECT_LE(level, GASNET_HIDDEN_AM_CONCURRENCY_LEVEL);
    // Deferred progress threads (the client passed GEX_FLAG_DEFER_THREADS):
    // Gasket defers none, so there is nothing to start; bad arguments are
    // refused with GASNET_ERR_BAD_ARG.
    unsigned int count = 99;
    const gex_ProgressThreadInfo_t* info = nullptr;
    EXPECT_EQ(gex_System_QueryProgressThreads(g_job.client, &count, &info, 0), GASNET_OK);
    EXPECT_EQ(count, 0u);
    gex_System_SetVerboseErrors(0);  // the refusals below print nothing
    EXPECT_EQ(gex_System_QueryProgressThreads(g_job.client, nullptr, &info, 0), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gex_System_QueryProgressThreads(g_job.client, &count, nullptr, 0), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gex_System_QueryProgressThreads(g_job.client, &count, &info, 1), GASNET_ERR_BAD_ARG);
    gex_System_SetVerboseErrors(1);
    EXPECT_NE(GEX_THREAD_ROLE_RCV, GEX_THREAD_ROLE_SND);
    EXPECT_EQ(gex_System_GetVerboseErrors(), 1);
    gex_System_SetVerboseErrors(0);
    EXPECT_EQ(gex_System_GetVerboseErrors(), 0);
    gex_System_SetVerboseErrors(7);  // reserved: refused, unchanged
    EXPECT_EQ(gex_System_GetVerboseErrors(), 0);
    gex_System_SetVerboseErrors(1);
    EXPECT_EQ(gex_System_GetVerboseErrors(), 1);
}

TEST(GexClient, SecondInitAndSecondAttachAreRefused) {
    gex_Client_t c;
    gex_EP_t e;
    gex_TM_t t;
    EXPECT_EQ(gex_Client_Init(&c, &e, &t, "OTHER", nullptr, nullptr, 0), GASNET_ERR_RESOURCE);
    EXPECT_EQ(gasnet_init(nullptr, nullptr), GASNET_ERR_RESOURCE);
    gex_Segment_t s;
    EXPECT_EQ(gex_Segment_Attach(&s, g_job.tm, GASNET_PAGESIZE), GASNET_ERR_RESOURCE);
    EXPECT_EQ(gex_Segment_Attach(nullptr, g_job.tm, GASNET_PAGESIZE), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gex_Segment_Attach(&s, gex_TM_Pair(g_job.ep, 0), GASNET_PAGESIZE), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gex_Segment_Attach(&s, g_job.tm, 0), GASNET_ERR_BAD_ARG);
    EXPECT_EQ(gex_EP_PublishBoundSegment(g_job.tm, &g_job.ep, 1, 1), GASNET_ERR_BAD_ARG);
    gex_EP_t twice[2] = {g_job.ep, g_job.ep};
    EXPECT_EQ(gex_EP_PublishBoundSegment(g_job.tm, twice, 2, 0), GASNET_ERR_BAD_ARG);
}

TEST(GexNames, VersionsAndConduitAsClientsTestThem) {
    static_assert(GASNET_RELEASE_VERSION_MAJOR >= 2000, "GASNet-EX release tuples are YYYY.MM.PP");
    static_assert(GEX_SPEC_VERSION_MAJOR == 0 && GEX_SPEC_VERSION_MINOR == 19, "gasnet-ex-api.txt 0.19");
    static_assert(GASNET_SPEC_VERSION_MAJOR == 1 && GASNET_SPEC_VERSION_MINOR == 8, "GASNet 1.8");
    static_assert(GASNETT_SPEC_VERSION_MAJOR == 1 && GASNETT_SPEC_VERSION_MINOR == 20, "tools 1.20");
    static_assert(GASNET_CONDUIT_MPI == 1, "the MPI conduit");
    const std::string config = GASNET_CONFIG_STRING;
    char release[64];
    std::snprintf(release, sizeof release, "RELEASE=%d.%d.%d,", GASNET_RELEASE_VERSION_MAJOR,
                  GASNET_RELEASE_VERSION_MINOR, GASNET_RELEASE_VERSION_PATCH);
    EXPECT_NE(config.find(release), std::string::npos) << config;
    EXPECT_STREQ(GASNET_CONDUIT_NAME_STR, "MPI");
    EXPECT_STREQ(GASNET_CORE_NAME_STR, "MPI");
}

TEST(GexNames, LegacyNodeInfoMatchesTheSystemQueries) {
    std::vector<gasnet_nodeinfo_t> info(g_job.n);
    ASSERT_EQ(gasnet_getNodeInfo(info.data(), int(g_job.n)), GASNET_OK);
    gex_Rank_t nb_size = 0, nb_rank = 0, h_size = 0, h_rank = 0;
    gex_System_QueryMyPosition(&nb_size, &nb_rank, &h_size, &h_rank);
    EXPECT_EQ(info[g_job.me].host, h_rank);
    EXPECT_EQ(info[g_job.me].supernode, nb_rank);
    EXPECT_EQ(info[g_job.me].offset, 0u);  // this node's own segment is where it is
    for (gex_Rank_t r = 0; r < g_job.n; ++r) {
        EXPECT_LT(info[r].host, h_size);
        EXPECT_LT(info[r].supernode, nb_size);
        void* owner = nullptr;
        void* local = nullptr;
        gex_EP_QueryBoundSegmentNB(g_job.tm, r, &owner, &local, nullptr, 0);
        if (local)  // the offset turns the owner's address into this process's
            EXPECT_EQ(reinterpret_cast<uintptr_t>(owner) + info[r].offset, reinterpret_cast<uintptr_t>(local));
        else
            EXPECT_EQ(info[r].offset, 0u);
        EXPECT_EQ(info[r].supernode == nb_rank, local != nullptr) << "rank " << r;
    }
    EXPECT_EQ(gasnet_getNodeInfo(nullptr, 1), GASNET_ERR_BAD_ARG);
}
