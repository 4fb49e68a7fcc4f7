// tests/mpi/gasnet/gasnet_test_main.cpp -- GoogleTest main for the GASNet
// core API tests run under oshrun, and the helpers of gasnet_test.hpp.
//
//   gasnet_init -> pre-attach hooks -> gasnet_attach(table of every
//   registered handler, 16 MiB + 3 pages x node) -> gasnet_getSegmentInfo
//   -> RUN_ALL_TESTS -> all_nodes(passed) -> gasnet_exit(0 or 1) on every node
//
// Every node runs every test and asserts; node 0 prints gtest's normal
// output, the others print only their failures (tagged with the node).
// After each test the nodes exchange their verdicts (an allgather over
// Active Messages), so node 0 reports a test that failed elsewhere; at the
// end the verdict is ANDed over all nodes and every node calls
// gasnet_exit with it (the collective exit: oshrun returns that status).
#include "gasnet_test.hpp"

#include <gasnet.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace gasnet_test {

namespace {

// ---- registry -------------------------------------------------------------
struct Registration {
    const char* name;
    void (*fn)();
    gasnet_handler_t* index;
    gasnet_handler_t fixed;
};
std::vector<Registration>& registrations() {
    static std::vector<Registration> r;
    return r;
}
std::vector<void (*)()>& pre_attach_hooks() {
    static std::vector<void (*)()> h;
    return h;
}
std::vector<TableEntry> g_table_before, g_table_after;
std::vector<gasnet_seginfo_t> g_segs;
unsigned char* g_pattern = nullptr;

// ---- allgather over AMs ------------------------------------------------------
// Two slots (by phase parity): a node can be at most one allgather ahead
// of another (it needs everybody's contribution to leave one), so a
// contribution for phase p+1 can arrive while this node still collects p.
constexpr int kMaxNodes = 256;
struct GatherSlot {
    std::array<std::vector<unsigned char>, kMaxNodes> data;
    std::array<bool, kMaxNodes> got{};
    std::atomic<int> count{0};
};
gasnet_hsl_t g_gather_lock = GASNET_HSL_INITIALIZER;
GatherSlot g_gather[2];
int g_phase = 0;  // main thread only
gasnet_handler_t h_gather;

void gather_handler(gasnet_token_t token, void* buf, std::size_t nbytes, gasnet_handlerarg_t phase) {
    gasnet_node_t src = 0;
    if (gasnet_AMGetMsgSource(token, &src) != GASNET_OK || src >= gasnet_nodes() || int(src) >= kMaxNodes) {
        handler_failure("allgather handler: gasnet_AMGetMsgSource failed or gave node " + std::to_string(src));
        return;
    }
    GatherSlot& slot = g_gather[phase & 1];
    gasnet_hsl_lock(&g_gather_lock);
    const bool dup = slot.got[src];
    if (!dup) {
        const auto* b = static_cast<const unsigned char*>(buf);
        slot.data[src].assign(b, b + nbytes);
        slot.got[src] = true;
    }
    gasnet_hsl_unlock(&g_gather_lock);
    if (dup) {
        handler_failure("allgather phase " + std::to_string(phase) + ": a second contribution from node " +
                        std::to_string(src) + " (a message delivered twice?)");
        return;
    }
    slot.count.fetch_add(1, std::memory_order_release);
}
// A fixed index (the rest of the table is mostly "don't care").
const HandlerRegistrar reg_gather("gasnet_test::gather", as_handler(&gather_handler), &h_gather, 128);

// ---- failures from handlers ---------------------------------------------------
gasnet_hsl_t g_fail_lock = GASNET_HSL_INITIALIZER;
std::vector<std::string>* g_failures = new std::vector<std::string>;  // never destroyed (handlers at exit)

// ---- output ---------------------------------------------------------------------
std::vector<std::string> g_failed_elsewhere;  // node 0: tests that failed on another node

// Non-zero nodes: print nothing but failures, tagged with the node.
class NodeFailurePrinter : public ::testing::EmptyTestEventListener {
    void OnTestStart(const ::testing::TestInfo& t) override {
        current_ = std::string(t.test_suite_name()) + "." + t.name();
    }
    void OnTestEnd(const ::testing::TestInfo&) override { current_ = "(between tests)"; }
    void OnTestPartResult(const ::testing::TestPartResult& r) override {
        if (!r.failed()) return;
        std::fprintf(stderr, "[node %u] %s: %s:%d: Failure\n%s\n", gasnet_mynode(), current_.c_str(),
                     r.file_name() ? r.file_name() : "?", r.line_number(), r.message());
        std::fflush(stderr);
    }
    std::string current_ = "(between tests)";
};

// Every node: after each test, gather which nodes failed it (over AMs).
class CrossNodeVerdict : public ::testing::EmptyTestEventListener {
    void OnTestEnd(const ::testing::TestInfo& t) override {
        const unsigned char failed = t.result()->Failed() ? 1 : 0;
        const auto all = allgather(&failed, 1);
        if (gasnet_mynode() != 0) return;
        std::string who;
        for (std::size_t n = 1; n < all.size(); ++n)
            if (all[n].size() != 1 || all[n][0]) who += " " + std::to_string(n);
        if (who.empty()) return;
        const std::string name = std::string(t.test_suite_name()) + "." + t.name();
        std::printf("[  FAILED  ] %s failed on node(s)%s (their messages are on stderr)\n", name.c_str(), who.c_str());
        std::fflush(stdout);
        g_failed_elsewhere.push_back(name + " (nodes" + who + ")");
    }
    void OnTestProgramEnd(const ::testing::UnitTest&) override {
        if (gasnet_mynode() != 0 || g_failed_elsewhere.empty()) return;
        std::printf("[  FAILED  ] %zu test(s) failed on nodes other than 0:\n", g_failed_elsewhere.size());
        for (const auto& n : g_failed_elsewhere) std::printf("[  FAILED  ]   %s\n", n.c_str());
        std::fflush(stdout);
    }
};

[[noreturn]] void framework_fatal(const std::string& what) {
    std::fprintf(stderr, "gasnet_test: node %u: %s\n", gasnet_mynode(), what.c_str());
    std::fflush(stderr);
    gasnet_exit(3);
    std::abort();  // gasnet_exit does not return
}

std::vector<TableEntry> snapshot(const std::vector<gasnet_handlerentry_t>& table) {
    std::vector<TableEntry> out;
    for (std::size_t i = 0; i < table.size(); ++i)
        out.push_back({registrations()[i].name, table[i].index, table[i].fnptr});
    return out;
}

}  // namespace

void register_handler(const char* name, void (*fn)(), gasnet_handler_t* index, gasnet_handler_t fixed) {
    registrations().push_back({name, fn, index, fixed});
}
void register_pre_attach(void (*fn)()) { pre_attach_hooks().push_back(fn); }
const std::vector<TableEntry>& table_before_attach() { return g_table_before; }
const std::vector<TableEntry>& table_after_attach() { return g_table_after; }
const gasnet_seginfo_t& seg(gasnet_node_t n) { return g_segs.at(n); }

std::vector<std::vector<unsigned char>> allgather(const void* data, std::size_t nbytes) {
    const int phase = ++g_phase;
    GatherSlot& slot = g_gather[phase & 1];
    const gasnet_node_t n = gasnet_nodes(), self = gasnet_mynode();
    for (gasnet_node_t k = 1; k <= n; ++k) {  // the others first, this node last
        const gasnet_node_t dest = (self + k) % n;
        const int rc = gasnet_AMRequestMedium1(dest, h_gather, const_cast<void*>(data), nbytes, phase);
        if (rc != GASNET_OK)
            framework_fatal("allgather: gasnet_AMRequestMedium1 to node " + std::to_string(dest) + " returned " +
                            std::to_string(rc));
    }
    if (!wait_until([&] { return slot.count.load(std::memory_order_acquire) == int(n); }, 60.0))
        framework_fatal("allgather phase " + std::to_string(phase) + ": only " + std::to_string(slot.count.load()) +
                        " of " + std::to_string(n) + " nodes answered within 60 s");
    std::vector<std::vector<unsigned char>> out(n);
    gasnet_hsl_lock(&g_gather_lock);
    for (gasnet_node_t k = 0; k < n; ++k) {
        out[k].swap(slot.data[k]);
        slot.data[k].clear();
        slot.got[k] = false;
    }
    slot.count.store(0, std::memory_order_relaxed);
    gasnet_hsl_unlock(&g_gather_lock);
    return out;
}

bool all_nodes(bool ok) {
    const unsigned char mine = ok ? 1 : 0;
    bool all = true;
    for (const auto& v : allgather(&mine, 1)) all = all && v.size() == 1 && v[0] == 1;
    return all;
}

void handler_failure(const std::string& what) {
    gasnet_hsl_lock(&g_fail_lock);
    if (g_failures->size() < 1000) g_failures->push_back(what);
    gasnet_hsl_unlock(&g_fail_lock);
}

std::vector<std::string> take_handler_failures() {
    std::vector<std::string> out;
    gasnet_hsl_lock(&g_fail_lock);
    out.swap(*g_failures);
    gasnet_hsl_unlock(&g_fail_lock);
    return out;
}

void GasnetTest::TearDown() {
    barrier();
    for (const auto& f : take_handler_failures()) ADD_FAILURE() << "node " << me() << ", in a handler: " << f;
}

const char* cat_name(Cat c) {
    switch (c) {
        case Cat::Short: return "Short";
        case Cat::Medium: return "Medium";
        case Cat::Long: return "Long";
        case Cat::LongAsync: return "LongAsync";
    }
    return "?";
}

const unsigned char* pattern(std::uint64_t start) { return g_pattern + start; }

bool matches_pattern(const void* p, std::size_t n, std::uint64_t start, std::string* why) {
    if (n == 0) return true;
    if (start + n > kPatternBytes) {
        if (why) *why = "(test bug: pattern range past the pattern buffer)";
        return false;
    }
    const auto* b = static_cast<const unsigned char*>(p);
    if (std::memcmp(b, g_pattern + start, n) == 0) return true;
    std::size_t bad = 0, first = n, last = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (b[i] == g_pattern[start + i]) continue;
        if (bad++ == 0) first = i;
        last = i;
    }
    if (why)
        *why = std::to_string(bad) + " of " + std::to_string(n) + " bytes differ, first at byte " +
               std::to_string(first) + " (got " + std::to_string(b[first]) + ", want " +
               std::to_string(g_pattern[start + first]) + "), last at byte " + std::to_string(last);
    return false;
}

long vm_hwm_kib() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
    return -1;
}

bool reset_vm_hwm() {
    std::ofstream out("/proc/self/clear_refs");
    if (!out) return false;
    out << "5\n";
    out.flush();
    return bool(out);
}

// One switch case per arity M, choosing the category inside: every
// gasnet_AM{Request,Reply}<Category>M is named once.
int am_request(Cat c, gasnet_node_t dest, gasnet_handler_t h, int m, const std::int32_t* a, void* src,
               std::size_t nbytes, void* dst) {
#define GASNET_TEST_REQUEST(M)                                                                                 \
    case M:                                                                                                    \
        switch (c) {                                                                                           \
            case Cat::Short: return gasnet_AMRequestShort##M(dest, h GASKET_AM_UNPACK_##M(a));                 \
            case Cat::Medium: return gasnet_AMRequestMedium##M(dest, h, src, nbytes GASKET_AM_UNPACK_##M(a));  \
            case Cat::Long: return gasnet_AMRequestLong##M(dest, h, src, nbytes, dst GASKET_AM_UNPACK_##M(a)); \
            case Cat::LongAsync:                                                                               \
                return gasnet_AMRequestLongAsync##M(dest, h, src, nbytes, dst GASKET_AM_UNPACK_##M(a));        \
        }                                                                                                      \
        break;
    switch (m) { GASKET_AM_ARITIES(GASNET_TEST_REQUEST) }
#undef GASNET_TEST_REQUEST
    return -1;  // test bug: no such category or arity
}

int am_reply(Cat c, gasnet_token_t token, gasnet_handler_t h, int m, const std::int32_t* a, void* src,
             std::size_t nbytes, void* dst) {
#define GASNET_TEST_REPLY(M)                                                                                  \
    case M:                                                                                                   \
        switch (c) {                                                                                          \
            case Cat::Short: return gasnet_AMReplyShort##M(token, h GASKET_AM_UNPACK_##M(a));                 \
            case Cat::Medium: return gasnet_AMReplyMedium##M(token, h, src, nbytes GASKET_AM_UNPACK_##M(a));  \
            case Cat::Long: return gasnet_AMReplyLong##M(token, h, src, nbytes, dst GASKET_AM_UNPACK_##M(a)); \
            case Cat::LongAsync: break;                                                                       \
        }                                                                                                     \
        break;
    switch (m) { GASKET_AM_ARITIES(GASNET_TEST_REPLY) }
#undef GASNET_TEST_REPLY
    return -1;  // test bug: no such category or arity (LongAsync has no reply)
}

}  // namespace gasnet_test

int main(int argc, char** argv) {
    using namespace gasnet_test;
    int rc = gasnet_init(&argc, &argv);
    if (rc != GASNET_OK) {
        std::fprintf(stderr, "gasnet_test: gasnet_init returned %d\n", rc);
        return 2;
    }
    ::testing::InitGoogleTest(&argc, argv);

    g_pattern = new unsigned char[kPatternBytes];
    for (std::size_t k = 0; k < kPatternBytes; ++k) g_pattern[k] = pattern_byte(k);

    for (auto* hook : pre_attach_hooks()) hook();

    std::vector<gasnet_handlerentry_t> table;
    for (const auto& r : registrations()) table.push_back({r.fixed, r.fn});
    g_table_before = snapshot(table);
    rc = gasnet_attach(table.empty() ? nullptr : table.data(), int(table.size()), requested_segsize(gasnet_mynode()),
                       kMinHeapOffset);
    if (rc != GASNET_OK) {
        std::fprintf(stderr, "gasnet_test: node %u: gasnet_attach returned %d (%s)\n", gasnet_mynode(), rc,
                     gasnet_ErrorName(rc));
        gasnet_exit(2);
    }
    g_table_after = snapshot(table);
    for (std::size_t i = 0; i < table.size(); ++i) *registrations()[i].index = table[i].index;

    g_segs.assign(gasnet_nodes(), gasnet_seginfo_t{nullptr, 0});
    rc = gasnet_getSegmentInfo(g_segs.data(), int(g_segs.size()));
    if (rc != GASNET_OK) {
        std::fprintf(stderr, "gasnet_test: node %u: gasnet_getSegmentInfo returned %d\n", gasnet_mynode(), rc);
        gasnet_exit(2);
    }

    ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
    if (gasnet_mynode() != 0) {
        delete listeners.Release(listeners.default_result_printer());
        listeners.Append(new NodeFailurePrinter);
    } else {
        const char* fp = std::getenv("GASKET_NODE_FASTPATH");
        const char* pt = std::getenv("GASKET_PROGRESS_THREAD");
        std::printf("[ gasket   ] %u nodes, %s, GASKET_NODE_FASTPATH=%s, GASKET_PROGRESS_THREAD=%s\n", gasnet_nodes(),
                    GASNET_CONFIG_STRING, fp ? fp : "(unset)", pt ? pt : "(unset)");
        std::fflush(stdout);
    }
    listeners.Append(new CrossNodeVerdict);

    const int result = RUN_ALL_TESTS();
    const bool ok = all_nodes(result == 0);
    if (gasnet_mynode() == 0 && !ok) std::printf("[ gasket   ] FAILED: at least one node failed\n");
    std::fflush(stdout);
    std::fflush(stderr);
    gasnet_exit(ok ? 0 : 1);
    return 1;  // not reached
}
