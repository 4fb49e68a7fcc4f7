// tests/mpi/gex/gex_error_cases.cpp -- GASNet-EX calls that must end the whole
// job with a message naming the call and the bad value (include/gasnetex.h:
// "Handles ... are checked"), run as `oshrun -np 2 gasket_gex_error_cases
// <case>` under ../expect_failure.sh (CMakeLists.txt here).
//
// Before each case every process checks that gex_Client_Init refuses a bad
// name and bad flags with GASNET_ERR_BAD_ARG (and then succeeds), and that
// gex_System_QueryProgressThreads returns GASNET_ERR_RESOURCE (no
// GEX_FLAG_DEFER_THREADS): those are errors returned, not fatal.  Process 0 makes the bad call after printing
// "gex_error_cases: <case>: reached"; it prints "NOT STOPPED" if the call
// returns, as does process 1 if it is still waiting 30 s later.
#include <gasnet.h>
#include <gasnet_coll.h>
#include <gasnet_ratomic.h>
#include <gasnet_mk.h>
#include <gasnet_vis.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::string g_case;

void say(const std::string& what) {
    std::printf("gex_error_cases: %s: %s\n", g_case.c_str(), what.c_str());
    std::fflush(stdout);
}

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

[[noreturn]] void not_stopped(const std::string& why) {
    say("NOT STOPPED: " + why);
    gasnet_exit(0);
    std::exit(0);
}

// gex_Client_Init's refusals (returned codes), then the real init.
void init(gex_Client_t* c, gex_EP_t* e, gex_TM_t* t) {
    if (gex_Client_Init(c, e, t, "lower", nullptr, nullptr, 0) != GASNET_ERR_BAD_ARG ||
        gex_Client_Init(c, e, t, "A", nullptr, nullptr, 0) != GASNET_ERR_BAD_ARG ||
        gex_Client_Init(c, e, t, "GOOD", nullptr, nullptr, GEX_FLAG_AD_ACQ) != GASNET_ERR_BAD_ARG ||
        gex_Client_Init(nullptr, e, t, "GOOD", nullptr, nullptr, 0) != GASNET_ERR_BAD_ARG) {
        say("FAILED: gex_Client_Init accepted a bad name, flag or NULL output");
        std::exit(3);
    }
    if (gex_Client_Init(c, e, t, "GEX_ERRORS_2", nullptr, nullptr, 0) != GASNET_OK) {
        say("FAILED: gex_Client_Init");
        std::exit(3);
    }
    // Without GEX_FLAG_DEFER_THREADS there are no deferred threads to ask about.
    unsigned int count;
    const gex_ProgressThreadInfo_t* info;
    gex_System_SetVerboseErrors(0);  // a refusal, not the case's message
    const int rc = gex_System_QueryProgressThreads(*c, &count, &info, 0);
    gex_System_SetVerboseErrors(1);
    if (rc != GASNET_ERR_RESOURCE) {
        say("FAILED: gex_System_QueryProgressThreads without GEX_FLAG_DEFER_THREADS did not return GASNET_ERR_RESOURCE");
        gasnet_exit(3);
    }
}

void medium_handler(gex_Token_t, void*, size_t, gex_AM_Arg_t) {}
gex_TM_t g_tm = GEX_TM_INVALID;                                                // for handler 204
void translate_handler(gex_Token_t) { gex_TM_TranslateRankToEP(g_tm, 0, 0); }  // may communicate: fatal here
void short_reply_handler(gex_Token_t) {}
// Handler 205: replies against the registration, as the case says: with 1
// argument to handler 201 (registered with 0), or to handler 204 (a
// request handler).
void bad_reply_handler(gex_Token_t token) {
    if (g_case == "am_reply_nargs_mismatch")
        gex_AM_ReplyShort1(token, 201, 0, 7);
    else
        gex_AM_ReplyShort0(token, 204, 0);
}
void medium_reply_handler(gex_Token_t, void*, size_t) {}

// Handlers of the AM cases: 200 a Medium request handler of 1 argument,
// 201 a Short reply handler, 204 a Short request handler that calls
// gex_TM_TranslateRankToEP, 205 a Short request handler whose reply does
// not fit its handler's registration.
void register_handlers(gex_EP_t ep) {
    gex_AM_Entry_t table[] = {
        {200, reinterpret_cast<gex_AM_Fn_t>(&medium_handler), GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQUEST, 1, nullptr,
         "medium_handler"},
        {201, reinterpret_cast<gex_AM_Fn_t>(&short_reply_handler), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 0, nullptr,
         "short_reply_handler"},
        {204, reinterpret_cast<gex_AM_Fn_t>(&translate_handler), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, nullptr,
         "translate_handler"},
        {205, reinterpret_cast<gex_AM_Fn_t>(&bad_reply_handler), GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, nullptr,
         "bad_reply_handler"},
    };
    if (gex_EP_RegisterHandlers(ep, table, sizeof table / sizeof table[0]) != GASNET_OK) {
        say("FAILED: gex_EP_RegisterHandlers");
        gasnet_exit(3);
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: gasket_gex_error_cases <case>\n");
        return 2;
    }
    g_case = argv[1];
    if (g_case == "before_init") {
        say("reached");
        gex_TM_QuerySize(reinterpret_cast<gex_TM_t>(0x1000));
        not_stopped("gex_TM_QuerySize before gex_Client_Init returned");
    }
    gex_Client_t client;
    gex_EP_t ep;
    gex_TM_t tm;
    init(&client, &ep, &tm);
    gex_Segment_t seg;
    const uintptr_t size = 1 << 20;
    if (gex_Segment_Attach(&seg, tm, size) != GASNET_OK) {
        say("FAILED: gex_Segment_Attach");
        gasnet_exit(3);
    }
    register_handlers(ep);
    // The remote atomics' cases use this domain (made by every process: collective).
    gex_AD_t ad = GEX_AD_INVALID;
    gex_AD_Create(&ad, tm, GEX_DT_U64, GEX_OP_FADD | GEX_OP_SET, 0);
    const gex_Rank_t me = gex_TM_QueryRank(tm), n = gex_TM_QuerySize(tm);
    // The team cases use a team of one per process (collective: every process).
    gex_TM_t solo = GEX_TM_INVALID;
    gex_TM_Split(&solo, tm, int(me), 0, nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
    // The created-endpoint cases: every process makes endpoint 1 with a
    // 4096-byte segment and publishes it (collective: every process).
    gex_EP_t made = GEX_EP_INVALID;
    if (g_case.rfind("ep_", 0) == 0) {
        gex_Segment_t a = GEX_SEGMENT_INVALID;
        if (gex_EP_Create(&made, client, GEX_EP_CAPABILITY_RMA, 0) != GASNET_OK ||
            gex_Segment_Create(&a, client, nullptr, 4096, GEX_MK_HOST, 0) != GASNET_OK ||
            gex_EP_BindSegment(made, a, 0) != GASNET_OK || gex_EP_PublishBoundSegment(tm, &made, 1, 0) != GASNET_OK) {
            say("FAILED: making and publishing endpoint 1's segment");
            gasnet_exit(3);
        }
    }
    // A team of every process's endpoint 1 (collective: every process).
    gex_TM_t made_team = GEX_TM_INVALID;
    if (g_case == "ep_team_ad_outside_segment") {
        std::vector<gex_EP_Location_t> args;
        for (gex_Rank_t r = 0; r < gex_TM_QuerySize(tm); ++r) args.push_back(gex_EP_Location_t{r, 1});
        gex_TM_Create(&made_team, 1, tm, args.data(), args.size(), nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
    }
    // A team of every process's endpoints 0 and 1, a handle per member
    // (collective: every process).
    gex_TM_t several[2] = {GEX_TM_INVALID, GEX_TM_INVALID};
    if (g_case.rfind("ep_team_several_", 0) == 0) {
        std::vector<gex_EP_Location_t> args;
        for (gex_Rank_t r = 0; r < gex_TM_QuerySize(tm); ++r) {
            args.push_back(gex_EP_Location_t{r, 0});
            args.push_back(gex_EP_Location_t{r, 1});
        }
        gex_TM_Create(several, 2, tm, args.data(), args.size(), nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
    }
    if (me != 0) {  // wait, polling, to be ended
        const double deadline = now_s() + 30;
        GASNET_BLOCKUNTIL(now_s() > deadline);
        not_stopped("process 1 still running 30 s after the bad call");
    }
    void* peer = nullptr;
    gex_Event_Wait(gex_EP_QueryBoundSegmentNB(tm, 1, &peer, nullptr, nullptr, 0));
    char* remote = static_cast<char*>(peer);
    char buf[16] = {};
    gex_Event_t ev = GEX_EVENT_INVALID;
    say("reached");
    if (g_case == "rank_out_of_range")
        gex_RMA_PutBlocking(tm, n, remote, buf, 8, 0);
    else if (g_case == "outside_segment")
        gex_RMA_GetBlocking(tm, buf, 1, remote + size - 4, 8, 0);
    else if (g_case == "bad_tm")
        gex_RMA_PutNBI(reinterpret_cast<gex_TM_t>(0x1000), 1, remote, buf, 8, GEX_EVENT_NOW, 0);
    else if (g_case == "unimplemented_flag")
        gex_RMA_PutBlocking(tm, 1, remote, buf, 8, GEX_FLAG_PEER_SEG_OFFSET);
    else if (g_case == "lc_event_for_nbi")
        gex_RMA_PutNBI(tm, 1, remote, buf, 8, &ev, 0);
    else if (g_case == "lc_group_for_nb")
        gex_RMA_PutNB(tm, 1, remote, buf, 8, GEX_EVENT_GROUP, 0);
    else if (g_case == "value_too_wide")
        gex_RMA_PutBlockingVal(tm, 1, remote, 1, 9, 0);
    else if (g_case == "pair_as_team")
        gex_TM_QuerySize(gex_TM_Pair(ep, 0));
    else if (g_case == "bad_client")
        gex_Client_QueryName(reinterpret_cast<gex_Client_t>(0x10));
    else if (g_case == "bad_remote_ep_index")
        gex_TM_Pair(ep, GASNET_MAXEPS);
    else if (g_case == "wait_no_op")
        gex_Event_Wait(GEX_EVENT_NO_OP);
    else if (g_case == "wait_all_no_op") {  // after a real event, found in the pass for collectives' events
        gex_Event_t events[3] = {GEX_EVENT_INVALID, gex_RMA_PutNB(tm, 1, remote, buf, 8, GEX_EVENT_NOW, 0),
                                 GEX_EVENT_NO_OP};
        gex_Event_WaitAll(events, 3, 0);
    } else if (g_case == "test_some_no_op") {
        gex_Event_t events[2] = {GEX_EVENT_NO_OP, gex_RMA_GetNB(tm, buf, 1, remote, 8, 0)};
        gex_Event_TestSome(events, 2, 0);
    } else if (g_case == "gasnet_wait_all_no_op") {  // the same handle type: as erroneous in GASNet-1
        gasnet_handle_t handles[2] = {gasnet_put_nb(1, remote, buf, 8), GEX_EVENT_NO_OP};
        gasnet_wait_syncnb_all(handles, 2);
    } else if (g_case == "empty_event_mask")
        gex_NBI_Wait(0, 0);
    else if (g_case == "am_wrong_category")
        gex_AM_RequestShort1(tm, 1, 200, 0, 5);
    else if (g_case == "am_reply_handler_as_request")
        gex_AM_RequestShort0(tm, 1, 201, 0);
    else if (g_case == "am_nargs_mismatch")
        gex_AM_RequestMedium0(tm, 1, 200, buf, 8, GEX_EVENT_NOW, 0);
    else if (g_case == "am_bad_flags")
        gex_AM_RequestMedium1(tm, 1, 200, buf, 8, GEX_EVENT_NOW, GEX_FLAG_PEER_NEVER_SELF, 5);
    else if (g_case == "am_reply_nargs_mismatch" || g_case == "am_reply_to_request_handler") {
        gex_AM_RequestShort0(tm, 0, 205, 0);   // to itself: the handler runs in a poll below
        const double deadline = now_s() + 30;  // the handler ends the job
        GASNET_BLOCKUNTIL(now_s() > deadline);
    } else if (g_case == "am_lc_defer")
        gex_AM_RequestMedium1(tm, 1, 200, buf, 8, GEX_EVENT_DEFER, 0, 5);
    else if (g_case == "am_medium_too_big") {
        static char big[65537];
        gex_AM_RequestMedium1(tm, 1, 200, big, sizeof big, GEX_EVENT_NOW, 0, 5);
    } else if (g_case == "am_unregistered")
        gex_AM_RequestShort0(tm, 1, 230, 0);
    else if (g_case == "am_token_info_outside_handler") {
        gex_Token_Info_t info;
        gex_Token_Info(reinterpret_cast<gex_Token_t>(buf), &info, GEX_TI_ALL);
    } else if (g_case == "translate_rank_out_of_range")
        gex_TM_TranslateRankToJobrank(tm, n + 3);
    else if (g_case == "ad_wrong_type")
        gex_AD_OpNBI_I32(ad, nullptr, 1, remote, GEX_OP_SET, 1, 0, 0);
    else if (g_case == "ad_op_not_in_domain") {
        uint64_t old;
        gex_AD_OpNB_U64(ad, &old, 1, remote, GEX_OP_FXOR, 1, 0, 0);
    } else if (g_case == "ad_destroyed") {
        gex_AD_Destroy(ad);
        gex_AD_OpNBI_U64(ad, nullptr, 1, remote, GEX_OP_SET, 1, 0, 0);
    } else if (g_case == "ad_outside_segment")
        gex_AD_OpNBI_U64(ad, nullptr, 1, remote + size - 4, GEX_OP_SET, 1, 0, 0);
    else if (g_case == "ad_misaligned")
        gex_AD_OpNBI_U64(ad, nullptr, 1, remote + 4, GEX_OP_SET, 1, 0, 0);
    else if (g_case == "ad_null_result")
        gex_AD_OpNB_U64(ad, nullptr, 1, remote, GEX_OP_FADD, 1, 0, 0);
    else if (g_case == "ad_my_rank_not_me")
        gex_AD_OpNBI_U64(ad, nullptr, 1, remote, GEX_OP_SET, 1, 0, GEX_FLAG_AD_MY_RANK);
    else if (g_case == "ad_seg_offset_flag")
        gex_AD_OpNBI_U64(ad, nullptr, 1, nullptr, GEX_OP_SET, 1, 0, GEX_FLAG_PEER_SEG_OFFSET);
    else if (g_case == "ad_create_bitwise_on_float") {
        gex_AD_t bad;
        gex_AD_Create(&bad, tm, GEX_DT_DBL, GEX_OP_AND, 0);
    } else if (g_case == "vis_sizes_differ") {
        gex_Memvec_t dst = {remote, 8}, src = {buf, 16};
        gex_VIS_VectorPutBlocking(tm, 1, 1, &dst, 1, &src, 0);
    } else if (g_case == "vis_outside_segment") {
        const ptrdiff_t dst_strides[] = {4096}, src_strides[] = {0};  // every chunk from buf
        const size_t count[] = {300};                                 // the 257th chunk lies past the 1 MiB segment
        gex_VIS_StridedPutBlocking(tm, 1, remote, dst_strides, buf, src_strides, 8, count, 1, 0);
    } else if (g_case == "vis_leaf_lc_on_get") {
        gex_Memvec_t dst = {buf, 8}, src = {remote, 8};
        gex_VIS_VectorGetNB(tm, 1, &dst, 1, 1, &src, GEX_FLAG_ENABLE_LEAF_LC);
    } else if (g_case == "vis_count_overflow") {
        void* list[1] = {remote};
        gex_VIS_IndexedPutNBI(tm, 1, SIZE_MAX, list, 2, 1, list, 8, 0);
    } else if (g_case == "vis_peer_too_big") {
        gex_VIS_SetPeerCompletionHandler(201, buf, GEX_VIS_MAX_PEERCOMPLETION + 1, 0);
    } else if (g_case == "vis_peer_wrong_handler") {
        gex_VIS_SetPeerCompletionHandler(201, nullptr, 0, 0);  // a Short reply handler
    } else if (g_case == "vis_peer_then_get") {
        gex_AM_Entry_t entry{202,
                             reinterpret_cast<gex_AM_Fn_t>(&medium_reply_handler),
                             GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY,
                             0,
                             nullptr,
                             "medium_reply_handler"};
        gex_EP_RegisterHandlers(gex_TM_QueryEP(tm), &entry, 1);
        gex_VIS_SetPeerCompletionHandler(202, nullptr, 0, 0);
        gex_Memvec_t dst = {buf, 8}, src = {remote, 8};
        gex_VIS_VectorGetBlocking(tm, 1, &dst, 1, 1, &src, 0);
    } else if (g_case == "mk_destroy_bogus") {
        gex_MK_Destroy(reinterpret_cast<gex_MK_t>(0x2000), 0);
    } else if (g_case == "ep_outside_segment") {
        void* owner = nullptr;
        gex_Segment_QueryBound(gex_TM_Pair(ep, 1), 1, &owner, nullptr, nullptr);
        gex_RMA_PutBlocking(gex_TM_Pair(ep, 1), 1, static_cast<char*>(owner) + 4092, buf, 8, 0);
    } else if (g_case == "ep_unpublished") {
        gex_RMA_GetBlocking(gex_TM_Pair(made, 2), buf, 1, remote, 8, 0);
    } else if (g_case == "ep_vis_outside_segment") {
        void* peer_ep = nullptr;  // endpoint 1 of process 1: 4096 bytes
        gex_Event_Wait(gex_EP_QueryBoundSegmentNB(gex_TM_Pair(made, 1), 1, &peer_ep, nullptr, nullptr, 0));
        gex_Memvec_t dst = {static_cast<char*>(peer_ep) + 4090, 8}, src = {buf, 8};
        gex_VIS_VectorPutBlocking(gex_TM_Pair(made, 1), 1, 1, &dst, 1, &src, 0);
    } else if (g_case == "ep_team_ad_outside_segment") {
        void* peer_ep = nullptr;
        gex_Event_Wait(gex_EP_QueryBoundSegmentNB(gex_TM_Pair(made, 1), 1, &peer_ep, nullptr, nullptr, 0));
        gex_AD_t on_eps = GEX_AD_INVALID;
        gex_AD_Create(&on_eps, made_team, GEX_DT_U64, GEX_OP_ADD, 0);
        gex_AD_OpNBI_U64(on_eps, nullptr, 1, static_cast<char*>(peer_ep) + 4096, GEX_OP_ADD, 1, 0, 0);
    } else if (g_case == "ep_am_long_outside_segment") {
        void* peer_ep = nullptr;  // endpoint 1 of process 1: 4096 bytes
        gex_Event_Wait(gex_EP_QueryBoundSegmentNB(gex_TM_Pair(made, 1), 1, &peer_ep, nullptr, nullptr, 0));
        gex_AM_RequestLong0(gex_TM_Pair(made, 1), 1, 203, buf, 8, static_cast<char*>(peer_ep) + 4092, GEX_EVENT_NOW, 0);
    } else if (g_case == "ep_am_unregistered_handler") {
        gex_AM_RequestShort0(gex_TM_Pair(made, 1), 1, 201, 0);  // endpoint 1 registered no handlers
        const double deadline = now_s() + 30;                   // process 1 ends the job when it arrives
        GASNET_BLOCKUNTIL(now_s() > deadline);
    } else if (g_case == "translate_in_handler") {
        g_tm = tm;
        gex_AM_RequestShort0(tm, 0, 204, 0);   // to itself: the handler runs in a poll below
        const double deadline = now_s() + 30;  // the handler ends the job
        GASNET_BLOCKUNTIL(now_s() > deadline);
    } else if (g_case == "translate_holding_hsl") {
        static gex_HSL_t hsl = GEX_HSL_INITIALIZER;
        gex_HSL_Lock(&hsl);
        gex_TM_TranslateRankToEP(tm, 0, 0);
    } else if (g_case == "segment_destroy_holding_hsl") {
        gex_Segment_t seg = GEX_SEGMENT_INVALID;
        gex_Segment_Create(&seg, client, nullptr, 4096, GEX_MK_HOST, 0);
        static gex_HSL_t hsl = GEX_HSL_INITIALIZER;
        gex_HSL_Lock(&hsl);
        gex_Segment_Destroy(seg, 0);  // may wait for node peers: not while holding an HSL
    } else if (g_case == "ep_am_reserved_handler") {
        gex_AM_RequestShort0(gex_TM_Pair(made, 1), 1, 5, 0);
    } else if (g_case == "ep_team_several_mismatch") {
        std::uint64_t word = 0;
        gex_Coll_BarrierNB(several[0], 0);
        gex_Coll_BroadcastNB(several[1], 0, &word, &word, 8, 0);
    } else if (g_case == "ep_team_several_split") {
        gex_TM_t half = GEX_TM_INVALID;
        gex_TM_Split(&half, several[0], 0, 0, nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
    } else if (g_case == "bind_twice" || g_case == "bind_invalid_segment") {
        gex_EP_t made = GEX_EP_INVALID;
        gex_Segment_t a = GEX_SEGMENT_INVALID, b = GEX_SEGMENT_INVALID;
        if (gex_EP_Create(&made, client, GEX_EP_CAPABILITY_RMA, 0) != GASNET_OK ||
            gex_Segment_Create(&a, client, nullptr, 4096, GEX_MK_HOST, 0) != GASNET_OK ||
            gex_Segment_Create(&b, client, nullptr, 4096, GEX_MK_HOST, 0) != GASNET_OK) {
            say("FAILED: gex_EP_Create or gex_Segment_Create");
            gasnet_exit(3);
        }
        if (g_case == "bind_invalid_segment") gex_EP_BindSegment(made, GEX_SEGMENT_INVALID, 0);
        gex_EP_BindSegment(made, a, 0);
        gex_EP_BindSegment(made, b, 0);  // bind_twice
    } else if (g_case == "bind_after_attach") {
        gex_Segment_t a = GEX_SEGMENT_INVALID;
        if (gex_Segment_Create(&a, client, nullptr, 4096, GEX_MK_HOST, 0) != GASNET_OK) gasnet_exit(3);
        gex_EP_BindSegment(ep, a, 0);
    } else if (g_case == "destroy_attach_segment") {
        gex_Segment_Destroy(seg, 0);
    } else if (g_case == "segment_after_destroy") {
        gex_Segment_t a = GEX_SEGMENT_INVALID;
        if (gex_Segment_Create(&a, client, buf, sizeof buf, GEX_MK_HOST, 0) != GASNET_OK) gasnet_exit(3);
        gex_Segment_Destroy(a, 0);
        gex_Segment_QuerySize(a);
    } else if (g_case == "np_nested") {
        gex_AM_PrepareRequestMedium(tm, 1, nullptr, 8, 8, nullptr, 0, 1);
        gex_AM_PrepareRequestMedium(tm, 1, nullptr, 8, 8, nullptr, 0, 1);
    } else if (g_case == "np_commit_other_kind") {
        gex_AM_SrcDesc_t sd = gex_AM_PrepareRequestMedium(tm, 1, nullptr, 8, 8, nullptr, 0, 1);
        gex_AM_CommitRequestLong1(sd, 200, 8, remote, 5);
    } else if (g_case == "np_commit_too_big") {
        gex_AM_SrcDesc_t sd = gex_AM_PrepareRequestMedium(tm, 1, nullptr, 8, 64, nullptr, 0, 1);
        gex_AM_CommitRequestMedium1(sd, 200, 65, 5);
    } else if (g_case == "np_no_op") {
        gex_AM_CommitRequestMedium1(GEX_AM_SRCDESC_NO_OP, 200, 8, 5);
    } else if (g_case == "np_least_over_max") {
        gex_AM_PrepareRequestMedium(tm, 1, nullptr, 65537, 70000, nullptr, 0, 1);
    } else if (g_case == "tm_destroy_primordial") {
        gex_TM_Destroy(tm, nullptr, 0);
    } else if (g_case == "tm_split_negative_color") {
        gex_TM_t t;
        gex_TM_Split(&t, tm, -1, 0, nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
    } else if (g_case == "tm_scratch_outside_segment") {
        gex_TM_t t;
        gex_TM_Split(&t, tm, 0, 0, buf, sizeof buf, 0);
    } else if (g_case == "tm_create_same_endpoint_twice") {
        gex_EP_Location_t args[] = {{0, 0}, {1, 0}, {0, 0}};
        gex_TM_t t;
        gex_TM_Create(&t, 1, tm, args, 3, nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
    } else if (g_case == "tm_create_no_scratch_kind") {
        gex_EP_Location_t args[] = {{0, 0}};
        gex_TM_t t;
        gex_TM_Create(&t, 1, tm, args, 1, nullptr, 0, GEX_FLAG_RANK_IS_JOBRANK);
    } else if (g_case == "tm_dup_global_scratch") {
        gex_TM_t t;
        gex_TM_Dup(&t, solo, buf, sizeof buf, GEX_FLAG_TM_GLOBAL_SCRATCH);
    } else if (g_case == "tm_dup_no_scratch_kind") {
        gex_TM_t t;
        gex_TM_Dup(&t, solo, nullptr, 0, 0);
    } else if (g_case == "tm_create_num_new_tms") {
        gex_EP_Location_t args[] = {{1, 0}};  // not this process
        gex_TM_t t;
        gex_TM_Create(&t, 1, tm, args, 1, nullptr, 0, GEX_FLAG_TM_NO_SCRATCH);
    } else if (g_case == "tm_rank_out_of_range") {
        gex_RMA_PutBlocking(solo, 1, remote, buf, 8, 0);
    } else if (g_case == "tm_destroy_with_domain") {
        gex_AD_t on_solo;
        gex_AD_Create(&on_solo, solo, GEX_DT_I32, GEX_OP_ADD, 0);
        gex_TM_Destroy(solo, nullptr, 0);
    } else if (g_case == "tm_destroyed") {
        gex_TM_Destroy(solo, nullptr, GEX_FLAG_GLOBALLY_QUIESCED);
        gex_RMA_PutNBI(solo, 0, remote, buf, 8, GEX_EVENT_NOW, 0);
    } else if (g_case == "coll_flags") {
        gex_Coll_BarrierNB(tm, 1);
    } else if (g_case == "coll_root_out_of_range") {
        gex_Coll_BroadcastNB(tm, 2, buf, buf, 8, 0);
    } else if (g_case == "coll_op_not_reduction") {
        gex_Coll_ReduceToAllNB(tm, buf, buf, GEX_DT_I32, 4, 1, GEX_OP_SUB, nullptr, nullptr, 0);
    } else if (g_case == "coll_bitwise_on_double") {
        gex_Coll_ReduceToOneNB(tm, 0, buf, buf, GEX_DT_DBL, 8, 1, GEX_OP_AND, nullptr, nullptr, 0);
    } else if (g_case == "coll_dt_sz") {
        gex_Coll_ReduceToAllNB(tm, buf, buf, GEX_DT_I64, 4, 1, GEX_OP_ADD, nullptr, nullptr, 0);
    } else if (g_case == "coll_user_op_null") {
        gex_Coll_ReduceToAllNB(tm, buf, buf, GEX_DT_USER, 3, 1, GEX_OP_USER, nullptr, nullptr, 0);
    } else if (g_case == "coll_count_zero") {
        gex_Coll_ReduceToAllNB(tm, buf, buf, GEX_DT_I32, 4, 0, GEX_OP_ADD, nullptr, nullptr, 0);
    } else {
        say("unknown case");
        gasnet_exit(2);
    }
    not_stopped("the bad call returned");
}
