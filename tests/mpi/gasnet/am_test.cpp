// tests/mpi/gasnet/am_test.cpp -- Active Message round trips (gasnet-1.8-spec
// §2.3): every request category (Short, Medium, Long, LongAsync) and reply
// category (Short, Medium, Long) with every argument count M = 0..16;
// arguments checked exactly, payloads byte for byte; Medium sizes 0, 1, 7,
// 4096, 4097 and gasnet_AMMaxMedium(); Long payloads up to 6 MiB at odd
// offsets of the destination segment, and Long replies into the
// requester's segment; gasnet_AMGetMsgSource in every handler; loopback.
//
// How one exchange is checked: the requester first sends the destination a
// "plan" (a Medium request carrying what the real message will be: its
// category, M, argument seed, payload size, pattern start and Long offset,
// and the same for the reply to send back) and waits for its
// acknowledgement (AMs are not ordered, so the plan must have arrived
// before the message it describes).  It then sends the message under test;
// the request handler compares everything it got with the plan, records
// any difference (handler_failure), and sends the planned reply; the reply
// handler compares that with the requester's copy of the plan.  Long
// landing zones are filled with a sentinel and fenced by guard bytes first,
// so a short, shifted or overlong transfer shows.
//
// Nodes exchange in rounds: in round r node i sends to (i + r) % n (round 0
// is loopback), so every pair is exercised both ways and each node is the
// target of exactly one requester per round while it is itself waiting for
// its own replies.  Segment layout on every node: [0, 8 MiB) receives Long
// requests, [8 MiB, 16 MiB) Long replies; LongAtSegmentEdges uses the
// segment's first and last bytes in phases of their own.
#include "gasnet_test.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace gasnet_test;

constexpr std::uint64_t kMiB = std::uint64_t(1) << 20;
constexpr std::uint64_t kRequestArea = 0;       // Long requests land in [0, 8 MiB)
constexpr std::uint64_t kReplyArea = 8 * kMiB;  // Long replies land in [8 MiB, 16 MiB)
constexpr std::uint64_t kAreaBytes = 8 * kMiB;
constexpr std::int32_t kPlanMagic = 0x504c414e;  // "PLAN"
constexpr unsigned char kFill = 0xEE;
constexpr int kMaxNodes = 256;
constexpr double kWaitSeconds = 20.0;

// What one exchange sends (trivially copyable: travels as a Medium payload).
struct Plan {
    std::int32_t serial;
    std::int32_t from;
    std::int32_t req_cat, req_m;  // Cat, 0..16
    std::uint32_t req_seed;
    std::uint64_t req_nbytes, req_offset, req_pstart;  // payload; Long: offset in the destination's segment
    std::int32_t rep_cat, rep_m;                       // Cat::Short/Medium/Long, 0..16
    std::uint32_t rep_seed;
    std::uint64_t rep_nbytes, rep_offset, rep_pstart;  // Long: offset in the requester's segment
};

std::string describe(const Plan& p) {
    auto part = [](const char* what, std::int32_t cat, std::int32_t m, std::uint64_t n, std::uint64_t off) {
        std::string s = std::string(what) + " " + cat_name(Cat(cat)) + std::to_string(m);
        if (Cat(cat) != Cat::Short) s += " " + std::to_string(n) + " bytes";
        if (Cat(cat) == Cat::Long || Cat(cat) == Cat::LongAsync) s += " at segment offset " + std::to_string(off);
        return s;
    };
    return "[exchange #" + std::to_string(p.serial) + " from node " + std::to_string(p.from) + ": " +
           part("request", p.req_cat, p.req_m, p.req_nbytes, p.req_offset) + ", " +
           part("reply", p.rep_cat, p.rep_m, p.rep_nbytes, p.rep_offset) + "]";
}

// ---- Long landing zones -------------------------------------------------------
// Guards differ from the payload byte that a transfer shifted by one would
// put there.
unsigned char guard_before(std::uint64_t pstart, std::uint64_t n) {
    return n ? static_cast<unsigned char>(pattern_byte(pstart) ^ 0xFF) : 0xA5;
}
unsigned char guard_after(std::uint64_t pstart, std::uint64_t n) {
    return n ? static_cast<unsigned char>(pattern_byte(pstart + n - 1) ^ 0xFF) : 0x5A;
}
void prepare_landing(gasnet_node_t self, std::uint64_t offset, std::uint64_t n, std::uint64_t pstart) {
    unsigned char* base = seg_addr(self);
    const std::uint64_t size = seg(self).size;
    if (n) std::memset(base + offset, kFill, n);
    if (offset > 0) base[offset - 1] = guard_before(pstart, n);
    if (offset + n < size) base[offset + n] = guard_after(pstart, n);
}
// Empty string if the payload landed as planned.
std::string check_landing(gasnet_node_t self, std::uint64_t offset, std::uint64_t n, std::uint64_t pstart,
                          const void* buf, std::size_t nbytes) {
    unsigned char* base = seg_addr(self);
    const std::uint64_t size = seg(self).size;
    if (nbytes != n) return "nbytes " + std::to_string(nbytes) + ", want " + std::to_string(n);
    if (n && buf != base + offset)
        return "buf is segment offset " + std::to_string(static_cast<const unsigned char*>(buf) - base) + ", want " +
               std::to_string(offset);
    std::string why;
    if (!matches_pattern(base + offset, n, pstart, &why)) return "payload in the segment: " + why;
    if (offset > 0 && base[offset - 1] != guard_before(pstart, n)) return "the byte before the payload was overwritten";
    if (offset + n < size && base[offset + n] != guard_after(pstart, n))
        return "the byte after the payload was overwritten";
    return "";
}
std::string check_medium(const void* buf, std::size_t nbytes, std::uint64_t n, std::uint64_t pstart) {
    if (nbytes != n) return "nbytes " + std::to_string(nbytes) + ", want " + std::to_string(n);
    if (n == 0) return "";  // buf is undefined
    if (reinterpret_cast<std::uintptr_t>(buf) % 16 != 0)
        return "buf " + std::to_string(reinterpret_cast<std::uintptr_t>(buf)) + " is not 16-byte aligned";
    std::string why;
    if (!matches_pattern(buf, n, pstart, &why)) return "payload: " + why;
    return "";
}
std::string check_args(const std::int32_t* a, int m, std::uint32_t seed) {
    std::string bad;
    for (int i = 0; i < m; ++i)
        if (a[i] != arg_value(seed, i))
            bad += " arg" + std::to_string(i) + "=" + std::to_string(a[i]) + " (want " +
                   std::to_string(arg_value(seed, i)) + ")";
    return bad.empty() ? "" : "wrong arguments:" + bad;
}

// ---- state ------------------------------------------------------------------
// Destination side: the plan each source announced (consumed by the
// message it describes, so a second delivery shows).
gasnet_hsl_t g_plan_lock = GASNET_HSL_INITIALIZER;
std::array<Plan, kMaxNodes> g_plans{};
std::array<bool, kMaxNodes> g_plan_valid{};
std::atomic<long> g_requests_handled{0};

// Requester side: the one exchange in flight.
gasnet_hsl_t g_cur_lock = GASNET_HSL_INITIALIZER;
Plan g_cur{};
gasnet_node_t g_cur_dest = 0;
std::atomic<std::int32_t> g_acked{0}, g_done{0};
std::atomic<long> g_replies_handled{0};
std::int32_t g_serial = 0;

gasnet_handler_t h_plan, h_plan_ack;
gasnet_handler_t h_req[3][kArities];  // [Short, Medium, Long (also LongAsync)][M]
gasnet_handler_t h_rep[3][kArities];  // [Short, Medium, Long][M]

// ---- handlers ---------------------------------------------------------------
void plan_handler(gasnet_token_t token, void* buf, std::size_t nbytes, gasnet_handlerarg_t magic) {
    gasnet_node_t src = 0;
    if (gasnet_AMGetMsgSource(token, &src) != GASNET_OK || src >= nodes()) {
        handler_failure("plan handler: gasnet_AMGetMsgSource failed");
        return;
    }
    if (magic != kPlanMagic || nbytes != sizeof(Plan)) {
        handler_failure("plan handler: argument " + std::to_string(magic) + ", " + std::to_string(nbytes) +
                        " bytes: not a plan");
        return;
    }
    Plan p;
    std::memcpy(&p, buf, sizeof p);
    if (gasnet_node_t(p.from) != src)
        handler_failure("plan handler: gasnet_AMGetMsgSource says node " + std::to_string(src) +
                        ", the plan was sent by node " + std::to_string(p.from));
    const Cat rc = Cat(p.req_cat);
    if (rc == Cat::Long || rc == Cat::LongAsync) prepare_landing(me(), p.req_offset, p.req_nbytes, p.req_pstart);
    gasnet_hsl_lock(&g_plan_lock);
    g_plans[src] = p;
    g_plan_valid[src] = true;
    gasnet_hsl_unlock(&g_plan_lock);
    const int rc2 = gasnet_AMReplyShort1(token, h_plan_ack, p.serial);
    if (rc2 != GASNET_OK) handler_failure("plan handler: gasnet_AMReplyShort1 returned " + std::to_string(rc2));
}

void plan_ack_handler(gasnet_token_t, gasnet_handlerarg_t serial) { g_acked.store(serial, std::memory_order_release); }

const HandlerRegistrar reg_plan("am_test::plan", as_handler(&plan_handler), &h_plan);
const HandlerRegistrar reg_plan_ack("am_test::plan_ack", as_handler(&plan_ack_handler), &h_plan_ack);

void on_request(gasnet_token_t token, Cat hcat, void* buf, std::size_t nbytes, const std::int32_t* a, int m) {
    std::string ctx = std::string("request handler ") + cat_name(hcat) + std::to_string(m);
    gasnet_node_t src = ~gasnet_node_t(0);
    const int grc = gasnet_AMGetMsgSource(token, &src);
    if (grc != GASNET_OK || src >= nodes()) {
        handler_failure(ctx + ": gasnet_AMGetMsgSource returned " + std::to_string(grc) + ", node " +
                        std::to_string(src));
        return;
    }
    gasnet_hsl_lock(&g_plan_lock);
    const bool valid = g_plan_valid[src];
    const Plan p = g_plans[src];
    g_plan_valid[src] = false;
    gasnet_hsl_unlock(&g_plan_lock);
    ctx += " (message from node " + std::to_string(src) + ")";
    if (!valid) {
        handler_failure(ctx + ": no plan announced by that node (message delivered twice, or wrong source?)");
        return;
    }
    ctx += " " + describe(p);
    const Cat pcat = Cat(p.req_cat);
    const Cat want_h = pcat == Cat::LongAsync ? Cat::Long : pcat;
    if (hcat != want_h || m != p.req_m)
        handler_failure(ctx + ": the wrong handler ran (" + cat_name(hcat) + std::to_string(m) + ")");
    else {
        std::string bad = check_args(a, m, p.req_seed);
        if (bad.empty() && hcat == Cat::Medium) bad = check_medium(buf, nbytes, p.req_nbytes, p.req_pstart);
        if (bad.empty() && hcat == Cat::Long)
            bad = check_landing(me(), p.req_offset, p.req_nbytes, p.req_pstart, buf, nbytes);
        if (!bad.empty()) handler_failure(ctx + ": " + bad);
    }
    g_requests_handled.fetch_add(1);

    std::int32_t r[kArities];
    for (int i = 0; i < p.rep_m; ++i) r[i] = arg_value(p.rep_seed, i);
    const Cat repcat = Cat(p.rep_cat);
    void* srcp = p.rep_nbytes ? const_cast<unsigned char*>(pattern(p.rep_pstart)) : nullptr;
    void* dstp = repcat == Cat::Long ? seg_addr(src) + p.rep_offset : nullptr;
    const int rc = am_reply(repcat, token, h_rep[p.rep_cat][p.rep_m], p.rep_m, r, srcp, p.rep_nbytes, dstp);
    if (rc != GASNET_OK) handler_failure(ctx + ": the reply returned " + std::to_string(rc));
}

void on_reply(gasnet_token_t token, Cat hcat, void* buf, std::size_t nbytes, const std::int32_t* a, int m) {
    std::string ctx = std::string("reply handler ") + cat_name(hcat) + std::to_string(m);
    gasnet_hsl_lock(&g_cur_lock);
    const Plan p = g_cur;
    const gasnet_node_t dest = g_cur_dest;
    gasnet_hsl_unlock(&g_cur_lock);
    ctx += " " + describe(p) + " (to node " + std::to_string(dest) + ")";
    gasnet_node_t src = ~gasnet_node_t(0);
    const int grc = gasnet_AMGetMsgSource(token, &src);
    if (grc != GASNET_OK || src != dest)
        handler_failure(ctx + ": gasnet_AMGetMsgSource returned " + std::to_string(grc) + ", node " +
                        std::to_string(src) + ", want node " + std::to_string(dest));
    if (hcat != Cat(p.rep_cat) || m != p.rep_m) {
        handler_failure(ctx + ": the wrong reply handler ran");
    } else {
        std::string bad = check_args(a, m, p.rep_seed);
        if (bad.empty() && hcat == Cat::Medium) bad = check_medium(buf, nbytes, p.rep_nbytes, p.rep_pstart);
        if (bad.empty() && hcat == Cat::Long)
            bad = check_landing(me(), p.rep_offset, p.rep_nbytes, p.rep_pstart, buf, nbytes);
        if (!bad.empty()) handler_failure(ctx + ": " + bad);
    }
    g_replies_handled.fetch_add(1);
    g_done.store(p.serial, std::memory_order_release);
}

struct ReqShort {
    static void on_short(gasnet_token_t t, const std::int32_t* a, int m) {
        on_request(t, Cat::Short, nullptr, 0, a, m);
    }
};
struct ReqMedium {
    static void on_payload(gasnet_token_t t, void* b, std::size_t n, const std::int32_t* a, int m) {
        on_request(t, Cat::Medium, b, n, a, m);
    }
};
struct ReqLong {
    static void on_payload(gasnet_token_t t, void* b, std::size_t n, const std::int32_t* a, int m) {
        on_request(t, Cat::Long, b, n, a, m);
    }
};
struct RepShort {
    static void on_short(gasnet_token_t t, const std::int32_t* a, int m) { on_reply(t, Cat::Short, nullptr, 0, a, m); }
};
struct RepMedium {
    static void on_payload(gasnet_token_t t, void* b, std::size_t n, const std::int32_t* a, int m) {
        on_reply(t, Cat::Medium, b, n, a, m);
    }
};
struct RepLong {
    static void on_payload(gasnet_token_t t, void* b, std::size_t n, const std::int32_t* a, int m) {
        on_reply(t, Cat::Long, b, n, a, m);
    }
};

// 6 x 17 handlers, generated: one per (request or reply category, M).
template <int M>
void register_arity() {
    register_handler("am_test::request_short", as_handler(&ArityHandlers<ReqShort, M>::short_fn), &h_req[0][M]);
    register_handler("am_test::request_medium", as_handler(&ArityHandlers<ReqMedium, M>::payload_fn), &h_req[1][M]);
    register_handler("am_test::request_long", as_handler(&ArityHandlers<ReqLong, M>::payload_fn), &h_req[2][M]);
    register_handler("am_test::reply_short", as_handler(&ArityHandlers<RepShort, M>::short_fn), &h_rep[0][M]);
    register_handler("am_test::reply_medium", as_handler(&ArityHandlers<RepMedium, M>::payload_fn), &h_rep[1][M]);
    register_handler("am_test::reply_long", as_handler(&ArityHandlers<RepLong, M>::payload_fn), &h_rep[2][M]);
}
const bool g_registered = [] {
    for_each_arity([](auto m) { register_arity<decltype(m)::value>(); });
    return true;
}();

// ---- the requester's side -------------------------------------------------------
// Runs one exchange with `dest`; false (after a test failure) if it did not
// complete.
bool exchange(gasnet_node_t dest, Plan p) {
    p.serial = ++g_serial;
    p.from = std::int32_t(me());
    if (Cat(p.rep_cat) == Cat::Long) prepare_landing(me(), p.rep_offset, p.rep_nbytes, p.rep_pstart);
    gasnet_hsl_lock(&g_cur_lock);
    g_cur = p;
    g_cur_dest = dest;
    gasnet_hsl_unlock(&g_cur_lock);

    int rc = gasnet_AMRequestMedium1(dest, h_plan, &p, sizeof p, kPlanMagic);
    EXPECT_EQ(rc, GASNET_OK) << "node " << me() << ": sending the plan to node " << dest << " " << describe(p);
    if (rc != GASNET_OK) return false;
    if (!wait_until([&] { return g_acked.load(std::memory_order_acquire) == p.serial; }, kWaitSeconds)) {
        ADD_FAILURE() << "node " << me() << ": no acknowledgement of the plan from node " << dest << " within "
                      << kWaitSeconds << " s " << describe(p);
        return false;
    }

    std::int32_t a[kArities];
    for (int i = 0; i < p.req_m; ++i) a[i] = arg_value(p.req_seed, i);
    const Cat cat = Cat(p.req_cat);
    const int hcat = cat == Cat::LongAsync ? 2 : p.req_cat;
    void* srcp = p.req_nbytes ? const_cast<unsigned char*>(pattern(p.req_pstart)) : nullptr;
    void* dstp = (cat == Cat::Long || cat == Cat::LongAsync) ? seg_addr(dest) + p.req_offset : nullptr;
    rc = am_request(cat, dest, h_req[hcat][p.req_m], p.req_m, a, srcp, p.req_nbytes, dstp);
    EXPECT_EQ(rc, GASNET_OK) << "node " << me() << ": gasnet_AMRequest" << cat_name(cat) << p.req_m << " to node "
                             << dest << " " << describe(p);
    if (rc != GASNET_OK) return false;
    if (!wait_until([&] { return g_done.load(std::memory_order_acquire) == p.serial; }, kWaitSeconds)) {
        ADD_FAILURE() << "node " << me() << ": no reply from node " << dest << " within " << kWaitSeconds << " s "
                      << describe(p);
        return false;
    }
    return true;
}

constexpr std::uint64_t kMediumSizes[] = {0, 1, 7, 4096, 4097, GASKET_AM_MAX_MEDIUM};
constexpr int kNumMediumSizes = 6;
static_assert(GASKET_AM_MAX_MEDIUM == gasnet_AMMaxMedium());
// Small and medium Long sizes (around Gasket's 4 KiB message size too).
constexpr std::uint64_t kLongSizes[] = {0, 1, 13, 3967, 3968, 3969, 4096, 65536, 65537, 300001};
constexpr int kNumLongSizes = 10;

std::uint32_t make_seed(int round, int k) {
    return std::uint32_t(me()) * 1000003u + std::uint32_t(round) * 10007u + std::uint32_t(k) * 7u + 1u;
}
// An odd offset in [area, area + kAreaBytes - n).
std::uint64_t odd_offset(std::uint64_t area, std::uint64_t n, std::uint32_t seed) {
    const std::uint64_t room = kAreaBytes - n - 2;
    return area + (1 + 2 * ((std::uint64_t(seed) * 7919) % (room / 2)));
}
std::uint64_t pstart_of(std::uint32_t seed) { return 1 + (std::uint64_t(seed) * 131) % 8189; }

// Fills in the payload fields for the categories chosen.
void set_request(Plan& p, Cat cat, int m, std::uint32_t seed, std::uint64_t nbytes) {
    p.req_cat = int(cat);
    p.req_m = m;
    p.req_seed = seed;
    p.req_nbytes = cat == Cat::Short ? 0 : nbytes;
    p.req_pstart = pstart_of(seed);
    p.req_offset = (cat == Cat::Long || cat == Cat::LongAsync) ? odd_offset(kRequestArea, nbytes, seed) : 0;
}
void set_reply(Plan& p, Cat cat, int m, std::uint32_t seed, std::uint64_t nbytes) {
    p.rep_cat = int(cat);
    p.rep_m = m;
    p.rep_seed = seed;
    p.rep_nbytes = cat == Cat::Short ? 0 : nbytes;
    p.rep_pstart = pstart_of(seed);
    p.rep_offset = cat == Cat::Long ? odd_offset(kReplyArea, nbytes, seed) : 0;
}

class AmRoundTrip : public GasnetTest {
protected:
    void SetUp() override {
        barrier();
        requests0_ = g_requests_handled.load();
        replies0_ = g_replies_handled.load();
    }
    // After every node's exchanges (call after a barrier): each node
    // handled exactly `requests` request and `replies` reply messages.
    void expect_counts(long requests, long replies) {
        EXPECT_EQ(g_requests_handled.load() - requests0_, requests)
            << "node " << me() << ": request handlers run (each message must run its handler exactly once)";
        EXPECT_EQ(g_replies_handled.load() - replies0_, replies)
            << "node " << me() << ": reply handlers run (each message must run its handler exactly once)";
    }
    long requests0_ = 0, replies0_ = 0;
};

// Every request category x M = 0..16; the reply category cycles with the
// request category (so every reply category x M is used too), with the
// same M; Medium and Long sizes cycle through their lists.
TEST_F(AmRoundTrip, EveryCategoryAndArity) {
    const int n = int(nodes());
    int exchanges = 0;
    for (int round = 0; round < n; ++round) {
        const gasnet_node_t dest = gasnet_node_t((int(me()) + round) % n);
        bool ok = true;
        for (int c = 0; c < 4 && ok; ++c) {
            for (int m = 0; m < kArities && ok; ++m) {
                const int k = c * kArities + m;
                const Cat cat = Cat(c);
                Plan p{};
                const std::uint64_t req_n = cat == Cat::Medium ? kMediumSizes[(m + round) % kNumMediumSizes]
                                                               : kLongSizes[(m + c + round) % kNumLongSizes];
                set_request(p, cat, m, make_seed(round, 2 * k), req_n);
                const Cat rcat = Cat((c + m) % 3);
                const std::uint64_t rep_n = rcat == Cat::Medium ? kMediumSizes[(m + 3 + round) % kNumMediumSizes]
                                                                : kLongSizes[(m + 5 + round) % kNumLongSizes];
                set_reply(p, rcat, m, make_seed(round, 2 * k + 1), rep_n);
                ok = exchange(dest, p);
                exchanges += ok;
            }
        }
        barrier();
    }
    EXPECT_EQ(exchanges, n * 4 * kArities) << "node " << me();
    expect_counts(long(n) * 4 * kArities, long(n) * 4 * kArities);
}

// Every Medium size as request and as reply payload, with M = 0, 5 and 16.
TEST_F(AmRoundTrip, MediumSizes) {
    const int n = int(nodes());
    const int ms[] = {0, 5, 16};
    for (int round = 0; round < n; ++round) {
        const gasnet_node_t dest = gasnet_node_t((int(me()) + round) % n);
        bool ok = true;
        for (int s = 0; s < kNumMediumSizes && ok; ++s) {
            for (int j = 0; j < 3 && ok; ++j) {
                const int k = s * 3 + j;
                Plan p{};
                set_request(p, Cat::Medium, ms[j], make_seed(round, 2 * k), kMediumSizes[s]);
                set_reply(p, Cat::Medium, 16 - ms[j], make_seed(round, 2 * k + 1),
                          kMediumSizes[(s + 1 + j) % kNumMediumSizes]);
                ok = exchange(dest, p);
            }
        }
        barrier();
    }
    expect_counts(long(n) * kNumMediumSizes * 3, long(n) * kNumMediumSizes * 3);
}

// Large Long and LongAsync requests at odd offsets, answered by large Long
// replies at odd offsets of the requester's segment.
TEST_F(AmRoundTrip, LongLargeUnaligned) {
    const int n = int(nodes());
    const std::uint64_t sizes[] = {1, 2, 3967, 3969, 65535, 65536 + 7, kMiB + 1, 3 * kMiB + 333, 6 * kMiB + 5};
    const int num = int(sizeof sizes / sizeof sizes[0]);
    const int ms[] = {0, 16, 3};
    for (int round = 0; round < n; ++round) {
        const gasnet_node_t dest = gasnet_node_t((int(me()) + round) % n);
        bool ok = true;
        for (int s = 0; s < num && ok; ++s) {
            Plan p{};
            set_request(p, s % 2 ? Cat::LongAsync : Cat::Long, ms[s % 3], make_seed(round, 2 * s), sizes[s]);
            set_reply(p, Cat::Long, ms[(s + 1) % 3], make_seed(round, 2 * s + 1), sizes[num - 1 - s]);
            ok = exchange(dest, p);
        }
        barrier();
    }
    expect_counts(long(n) * num, long(n) * num);
}

// Long payloads ending at the last byte of the destination's segment and
// starting at its first byte: phase 1 as requests (replies Short), phase 2
// as replies into the requester's segment (requests Short).
TEST_F(AmRoundTrip, LongAtSegmentEdges) {
    const int n = int(nodes());
    const std::uint64_t sizes[] = {1, 4096, 65537};
    int count = 0;
    for (int phase = 0; phase < 2; ++phase) {
        for (int round = 0; round < n; ++round) {
            const gasnet_node_t dest = gasnet_node_t((int(me()) + round) % n);
            bool ok = true;
            for (int s = 0; s < 3 && ok; ++s) {
                for (int edge = 0; edge < 2 && ok; ++edge) {
                    const int k = phase * 100 + s * 2 + edge;
                    Plan p{};
                    if (phase == 0) {
                        set_request(p, edge ? Cat::LongAsync : Cat::Long, 2, make_seed(round, 2 * k), sizes[s]);
                        p.req_offset = edge ? seg(dest).size - sizes[s] : 0;
                        set_reply(p, Cat::Short, 1, make_seed(round, 2 * k + 1), 0);
                    } else {
                        set_request(p, Cat::Short, 1, make_seed(round, 2 * k), 0);
                        set_reply(p, Cat::Long, 2, make_seed(round, 2 * k + 1), sizes[s]);
                        p.rep_offset = edge ? seg(me()).size - sizes[s] : 0;
                    }
                    ok = exchange(dest, p);
                    count += ok;
                }
            }
            barrier();
        }
    }
    EXPECT_EQ(count, 2 * n * 6) << "node " << me();
    expect_counts(long(n) * 12, long(n) * 12);
}

// A node sending to itself: every request category x M, every reply
// category, with payloads.
TEST_F(AmRoundTrip, Loopback) {
    bool ok = true;
    for (int c = 0; c < 4 && ok; ++c) {
        for (int m = 0; m < kArities && ok; ++m) {
            const int k = c * kArities + m;
            Plan p{};
            set_request(p, Cat(c), m, make_seed(99, 2 * k), c == 1 ? 4097 : 70001);
            const Cat rcat = Cat((c + 2 * m) % 3);
            set_reply(p, rcat, kArities - 1 - m, make_seed(99, 2 * k + 1), rcat == Cat::Medium ? 513 : 100003);
            ok = exchange(me(), p);
        }
    }
    barrier();
    expect_counts(4 * kArities, 4 * kArities);
}

// ---- many requests in flight at once ---------------------------------------------
// Every node sends kBurst Medium requests to every node (itself included)
// without waiting; each handler checks its payload and source and replies
// with a Short reply naming the message; the requester checks every reply
// arrives exactly once from the right node.
constexpr int kBurst = 200;
std::atomic<int> g_burst_replies{0};
std::vector<std::atomic<unsigned char>>* g_burst_seen = nullptr;  // [dest * kBurst + seq]
gasnet_handler_t h_burst_req, h_burst_rep;

std::int32_t burst_check(gasnet_node_t src, gasnet_node_t dest, int seq) {
    return arg_value(std::uint32_t(src * 7919 + dest * 104729 + 3), seq % 16) ^ seq;
}
std::uint64_t burst_pstart(gasnet_node_t src, int seq) { return std::uint64_t(src) * 1013 + std::uint64_t(seq) * 17; }
std::size_t burst_size(int seq) { return std::size_t(seq * 97) % 2000; }

void burst_request(gasnet_token_t token, void* buf, std::size_t nbytes, gasnet_handlerarg_t seq,
                   gasnet_handlerarg_t check) {
    gasnet_node_t src = ~gasnet_node_t(0);
    if (gasnet_AMGetMsgSource(token, &src) != GASNET_OK || src >= nodes()) {
        handler_failure("burst request: gasnet_AMGetMsgSource failed");
        return;
    }
    if (seq < 0 || seq >= kBurst || check != burst_check(src, me(), seq)) {
        handler_failure("burst request from node " + std::to_string(src) + ": seq " + std::to_string(seq) + ", check " +
                        std::to_string(check) + " do not match (wrong source or arguments)");
    } else {
        std::string why = check_medium(buf, nbytes, burst_size(seq), burst_pstart(src, seq));
        if (!why.empty())
            handler_failure("burst request " + std::to_string(seq) + " from node " + std::to_string(src) + ": " + why);
    }
    const int rc = gasnet_AMReplyShort2(token, h_burst_rep, seq, ~check);
    if (rc != GASNET_OK) handler_failure("burst request: gasnet_AMReplyShort2 returned " + std::to_string(rc));
}
void burst_reply(gasnet_token_t token, gasnet_handlerarg_t seq, gasnet_handlerarg_t check) {
    gasnet_node_t src = ~gasnet_node_t(0);
    if (gasnet_AMGetMsgSource(token, &src) != GASNET_OK || src >= nodes()) {
        handler_failure("burst reply: gasnet_AMGetMsgSource failed");
        return;
    }
    if (seq < 0 || seq >= kBurst || check != ~burst_check(me(), src, seq)) {
        handler_failure("burst reply from node " + std::to_string(src) + ": seq " + std::to_string(seq) + " check " +
                        std::to_string(check) + " do not match");
        return;
    }
    if ((*g_burst_seen)[std::size_t(src) * kBurst + std::size_t(seq)].fetch_add(1) != 0)
        handler_failure("burst reply " + std::to_string(seq) + " from node " + std::to_string(src) + " arrived twice");
    g_burst_replies.fetch_add(1, std::memory_order_release);
}
const HandlerRegistrar reg_burst_req("am_test::burst_request", as_handler(&burst_request), &h_burst_req);
const HandlerRegistrar reg_burst_rep("am_test::burst_reply", as_handler(&burst_reply), &h_burst_rep);

TEST_F(AmRoundTrip, ManyInFlightFromAllNodes) {
    const int n = int(nodes());
    // Never freed: a late (duplicate) reply after the test must not touch freed memory.
    auto* seen = new std::vector<std::atomic<unsigned char>>(std::size_t(n) * kBurst);
    g_burst_seen = seen;
    g_burst_replies.store(0);
    barrier();
    int bad_rc = 0;
    for (int seq = 0; seq < kBurst; ++seq)
        for (int k = 0; k < n; ++k) {
            const gasnet_node_t dest = gasnet_node_t((int(me()) + k) % n);
            const int rc =
                gasnet_AMRequestMedium2(dest, h_burst_req, const_cast<unsigned char*>(pattern(burst_pstart(me(), seq))),
                                        burst_size(seq), seq, burst_check(me(), dest, seq));
            bad_rc += rc != GASNET_OK;
        }
    EXPECT_EQ(bad_rc, 0) << "node " << me() << ": requests that did not return GASNET_OK";
    EXPECT_TRUE(wait_until([&] { return g_burst_replies.load(std::memory_order_acquire) >= n * kBurst; }))
        << "node " << me() << ": " << g_burst_replies.load() << " of " << n * kBurst << " replies arrived";
    barrier();  // nobody sends any more: late duplicates would show now
    EXPECT_EQ(g_burst_replies.load(), n * kBurst) << "node " << me();
    int missing = 0;
    for (auto& s : *seen) missing += s.load() == 0;
    EXPECT_EQ(missing, 0) << "node " << me() << ": replies that never arrived";
}

// ---- flow control: the sender's window (mpi-bridge/am_transport.hpp) ----
// Run by the gasnet_am_window registration only, with
// GASKET_PROGRESS_THREAD=off, so nothing serves node 1 while it waits.
// Node 1 waits inside MPI, without a GASNet call, for a plain MPI message
// from node 0 (MPI_Test on MPI_COMM_WORLD, which Gasket's Active Messages do
// not use): MPI progresses, so node 0's requests reach node 1's posted
// receives on any MPI, but no handler runs and no credit comes back.  Node
// 0 sends kWindow Short0 requests with no reply, then that message: the
// requests must all leave without waiting for a credit (with 16 credits
// per destination, the 17th waited until node 1 gave up).  Node 1 gives up
// after kWindowWaitSeconds and then serves; a second round checks that the
// credits came back: the window is whole again.
constexpr int kWindow = 40;
constexpr double kWindowWaitSeconds = 2.0;
constexpr int kWindowTag = 4242;
std::atomic<long> g_window_handled{0};
gasnet_handler_t h_window;
void window_request(gasnet_token_t) { g_window_handled.fetch_add(1, std::memory_order_release); }
const HandlerRegistrar reg_window("am_test::window_request", as_handler(&window_request), &h_window);

class AmFlowControl : public GasnetTest {};

TEST_F(AmFlowControl, WindowToANodeThatIsNotPolling) {
    const char* thread = gasnet_getenv("GASKET_PROGRESS_THREAD");
    EXPECT_TRUE(thread && std::string(thread) == "off")
        << "run with GASKET_PROGRESS_THREAD=off (a progress thread would serve node 1 while it waits)";
    // Read before the barrier: node 0 may leave it, and send, while node 1
    // still serves inside it.
    const long base = g_window_handled.load();
    barrier();
    for (int round = 1; round <= 2; ++round) {
        if (me() == 1) {
            char byte = 0;
            MPI_Request rq;
            ASSERT_EQ(MPI_Irecv(&byte, 1, MPI_CHAR, 0, kWindowTag, MPI_COMM_WORLD, &rq), MPI_SUCCESS);
            int arrived = 0;
            const double deadline = now_s() + kWindowWaitSeconds;
            while (!arrived && now_s() < deadline) MPI_Test(&rq, &arrived, MPI_STATUS_IGNORE);
            EXPECT_TRUE(arrived) << "round " << round << ": node 0's MPI message did not come within "
                                 << kWindowWaitSeconds << " s of node 1 waiting inside MPI: node 0 waited for credits";
            // Served now: node 0's requests, and the credits they need.
            EXPECT_TRUE(wait_until([&] {
                if (!arrived) MPI_Test(&rq, &arrived, MPI_STATUS_IGNORE);
                return arrived && g_window_handled.load() >= base + round * kWindow;
            })) << "round "
                << round << ": node 1 handled " << g_window_handled.load() - base << " requests";
        } else if (me() == 0) {
            int bad_rc = 0;
            for (int i = 0; i < kWindow; ++i) bad_rc += gasnet_AMRequestShort0(1, h_window) != GASNET_OK;
            EXPECT_EQ(bad_rc, 0);
            char byte = 1;
            EXPECT_EQ(MPI_Send(&byte, 1, MPI_CHAR, 1, kWindowTag, MPI_COMM_WORLD), MPI_SUCCESS);
        }
        barrier();
    }
    EXPECT_EQ(g_window_handled.load() - base, me() == 1 ? 2 * kWindow : 0) << "node " << me();
}

}  // namespace
