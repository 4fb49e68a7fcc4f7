// tests/mpi/gasnet/gasnet_test.hpp -- helpers shared by the multi-process
// GASNet core API tests (run under oshrun with 2 and 4 nodes, node fast
// path on and off).  See README.md in this directory.
//
// The core API has no barrier (gasnet_barrier_* is the extended API), so the
// collectives the tests need are built here from Active Messages alone:
// allgather() sends every node's bytes to every node (one Medium request per
// destination) and waits until all have arrived; barrier() and all_nodes()
// are allgathers of one byte.  No test uses MPI to synchronize.
//
// Rules every test follows, so that a failure on one node cannot leave the
// others stuck in a collective:
//  - only EXPECT_* (never ASSERT_*) before a collective call: every node
//    reaches every collective whatever its assertions say;
//  - every wait for a message is bounded (wait_until's timeout) and turns
//    into a test failure, not a hang;
//  - handlers never use gtest: they record what went wrong with
//    handler_failure(), and the fixture's TearDown (after a barrier) turns
//    each record into a failure of the running test on that node.
// The ctest TIMEOUT is the last resort.
#pragma once

#include <gasnet.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace gasnet_test {

// ---- handler registration ---------------------------------------------------
// Test sources register their handlers at static-initialization time; the
// shared main builds the gasnet_attach table from them (in registration
// order, which is the same in every process of one executable) and, after
// attach, stores each handler's index in *index.  fixed = 0 asks for a
// "don't care" index.
void register_handler(const char* name, void (*fn)(), gasnet_handler_t* index, gasnet_handler_t fixed = 0);

template <class F>
void (*as_handler(F* f))() {
    return reinterpret_cast<void (*)()>(f);
}

// A registrar for namespace-scope use:
//   gasnet_handler_t h_ping;
//   const HandlerRegistrar reg_ping("ping", as_handler(&ping), &h_ping);
struct HandlerRegistrar {
    HandlerRegistrar(const char* name, void (*fn)(), gasnet_handler_t* index, gasnet_handler_t fixed = 0) {
        register_handler(name, fn, index, fixed);
    }
};

// The handler table as passed to gasnet_attach and as gasnet_attach left it.
struct TableEntry {
    std::string name;
    gasnet_handler_t index;
    void (*fn)();
};
const std::vector<TableEntry>& table_before_attach();
const std::vector<TableEntry>& table_after_attach();

// Functions run by main between gasnet_init and gasnet_attach (in
// registration order), for the tests of what is allowed there.
void register_pre_attach(void (*fn)());
struct PreAttachRegistrar {
    explicit PreAttachRegistrar(void (*fn)()) { register_pre_attach(fn); }
};

// ---- job --------------------------------------------------------------------
inline gasnet_node_t me() { return gasnet_mynode(); }
inline gasnet_node_t nodes() { return gasnet_nodes(); }

// The segment size node n asks gasnet_attach for: 16 MiB plus 3 pages per
// node index, so that sizes differ between nodes (a table with entries
// mixed up shows).
constexpr std::uintptr_t kSegBase = std::uintptr_t(16) << 20;
inline std::uintptr_t requested_segsize(gasnet_node_t n) { return kSegBase + std::uintptr_t(n) * 3 * GASNET_PAGESIZE; }
// The minheapoffset every node passes.
constexpr std::uintptr_t kMinHeapOffset = 4 * GASNET_PAGESIZE;

// Node n's segment as gasnet_getSegmentInfo reported it after attach (its
// address is in node n's address space).
const gasnet_seginfo_t& seg(gasnet_node_t n);
inline unsigned char* seg_addr(gasnet_node_t n) { return static_cast<unsigned char*>(seg(n).addr); }
inline unsigned char* my_seg() { return seg_addr(me()); }

// ---- waiting ------------------------------------------------------------------
inline double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
// Waits in GASNET_BLOCKUNTIL (which re-evaluates its condition after every
// poll) until pred() or `seconds` have passed; returns pred().
template <class Pred>
bool wait_until(Pred pred, double seconds = 30.0) {
    const double deadline = now_s() + seconds;
    GASNET_BLOCKUNTIL(pred() || now_s() > deadline);
    return pred();
}

// ---- collectives over Active Messages ---------------------------------------
// Every node's `nbytes` bytes (nbytes <= gasnet_AMMaxMedium()), indexed by
// node.  Collective.  Ends the job (gasnet_exit(3)) if the others do not
// answer within a minute.
std::vector<std::vector<unsigned char>> allgather(const void* data, std::size_t nbytes);
// true on every node iff `ok` on every node.  Collective.
bool all_nodes(bool ok);
inline void barrier() { (void)all_nodes(true); }
template <class T>
std::vector<T> allgather_value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<T> out;
    for (const auto& bytes : allgather(&v, sizeof v)) {
        T x{};
        if (bytes.size() == sizeof x) std::memcpy(&x, bytes.data(), sizeof x);
        out.push_back(x);
    }
    return out;
}

// ---- failures seen in handlers ------------------------------------------------
// Callable from any handler or thread (HSL-protected).
void handler_failure(const std::string& what);
std::vector<std::string> take_handler_failures();

// The fixture every test uses: TearDown waits for every node (barrier) and
// reports the handler failures recorded on this node during the test.
class GasnetTest : public ::testing::Test {
protected:
    void TearDown() override;
};

// ---- values -----------------------------------------------------------------
// A distinctive handler argument for argument i of a message with `seed`:
// scrambled 32-bit values (about half negative), with INT32_MIN, INT32_MAX,
// -1 and 0 mixed in.
inline std::int32_t arg_value(std::uint32_t seed, int i) {
    std::uint64_t x = (std::uint64_t(seed) << 8 | std::uint64_t(i)) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    switch ((seed + std::uint32_t(i)) % 23) {
        case 3: return INT32_MIN;
        case 7: return INT32_MAX;
        case 11: return -1;
        case 17: return 0;
        default: return static_cast<std::int32_t>(static_cast<std::uint32_t>(x >> 16));
    }
}

// The payload byte at position k of the test pattern (not periodic over any
// short distance, so a misplaced chunk shows).
inline unsigned char pattern_byte(std::uint64_t k) {
    std::uint64_t x = (k + 1) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return static_cast<unsigned char>(x >> 40);
}
// The pattern from position `start` on, in a buffer that is never written
// after startup (so it can be a LongAsync source): pattern(s)[j] ==
// pattern_byte(s + j) for s + j < kPatternBytes.
constexpr std::size_t kPatternBytes = std::size_t(8) << 20;
const unsigned char* pattern(std::uint64_t start);
// Whether n bytes at p are pattern(start)[0..n); on mismatch *why says where.
bool matches_pattern(const void* p, std::size_t n, std::uint64_t start, std::string* why);

// Peak resident set (VmHWM) of this process in KiB, and a reset of the peak
// to the current RSS (/proc/self/clear_refs "5"); false if not possible.
long vm_hwm_kib();
bool reset_vm_hwm();

// ---- Active Messages by category and argument count at run time ---------------
enum class Cat : int { Short = 0, Medium = 1, Long = 2, LongAsync = 3 };
const char* cat_name(Cat c);

// gasnet_AMRequest{Short,Medium,Long,LongAsync}<m>(dest, h, [src, n, [dst,]] a[0..m)).
int am_request(Cat c, gasnet_node_t dest, gasnet_handler_t h, int m, const std::int32_t* a, void* src = nullptr,
               std::size_t nbytes = 0, void* dst = nullptr);
// gasnet_AMReply{Short,Medium,Long}<m>(token, h, ...); Cat::LongAsync is not a reply.
int am_reply(Cat c, gasnet_token_t token, gasnet_handler_t h, int m, const std::int32_t* a, void* src = nullptr,
             std::size_t nbytes = 0, void* dst = nullptr);

// Handlers with M arguments, generated from a template: for a class P with
//   static void on_short(gasnet_token_t, const int32_t* args, int m);
//   static void on_payload(gasnet_token_t, void* buf, size_t n, const int32_t* args, int m);
// ArityHandlers<P, M>::short_fn / payload_fn have the exact prototypes of
// §2.3.1 for M arguments.
template <std::size_t>
using HandlerArg = gasnet_handlerarg_t;
template <class P, class Seq>
struct ArityHandlersImpl;
template <class P, std::size_t... I>
struct ArityHandlersImpl<P, std::index_sequence<I...>> {
    static constexpr int M = int(sizeof...(I));
    static void short_fn(gasnet_token_t token, HandlerArg<I>... a) {
        const std::int32_t v[] = {a..., 0};
        P::on_short(token, v, M);
    }
    static void payload_fn(gasnet_token_t token, void* buf, std::size_t nbytes, HandlerArg<I>... a) {
        const std::int32_t v[] = {a..., 0};
        P::on_payload(token, buf, nbytes, v, M);
    }
};
template <class P, int M>
using ArityHandlers = ArityHandlersImpl<P, std::make_index_sequence<M>>;

// Calls f(std::integral_constant<int, M>{}) for M = 0..gasnet_AMMaxArgs().
template <class F, int... M>
void for_each_arity_impl(F&& f, std::integer_sequence<int, M...>) {
    (f(std::integral_constant<int, M>{}), ...);
}
template <class F>
void for_each_arity(F&& f) {
    for_each_arity_impl(f, std::make_integer_sequence<int, GASKET_AM_MAX_ARGS + 1>{});
}
constexpr int kArities = GASKET_AM_MAX_ARGS + 1;

}  // namespace gasnet_test
