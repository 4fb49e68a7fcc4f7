// mpi-bridge/am_transport.hpp -- the two-sided transport of Active Messages:
// requests and replies as MPI messages on a private communicator, delivered
// from rings of pre-posted receives, with credit-based flow control.
//
// Node peers (and this rank itself), when node sharing is on, skip MPI:
// every message (a slot holds the largest Medium) goes through a ShmInbox
// in node-shared memory (one for requests, one for replies, per rank).
//
// Wire format: a 16-byte head (AmWire's fields but the Long ones), the two
// Long fields (16 bytes) only when either is nonzero, `nargs` 32-bit
// arguments padded to 16 bytes, then the payload (16-byte aligned in the
// receive slot).  A Medium2 request of 8 bytes is 40 bytes on the wire: the
// message rate of small MPI messages falls with their size (Open MPI's
// 8-64 byte rates: docs/cluster-path.md, part 3).
//
// Flow control (so a flood from every rank at one target cannot exhaust
// memory or deadlock):
//  - Requests go on their own communicator into a ring of `request_slots`
//    persistent receives; replies on another into a ring of `reply_slots`.  Ring memory is
//    fixed: it does not grow with the number of ranks.
//  - A sender holds `credits` request credits per destination
//    (clamp(256 / ranks, 2, 64)); each request spends one.  The target
//    returns credits when it has run the handlers: piggybacked on the
//    handler's reply, else in a credit-only message on the reply tag once a
//    quarter of a destination's credits are owed (so they are on their way
//    while the sender still holds three quarters), or everything owed after
//    16 polls in a row found nothing.  A sender polls every 16 requests, so
//    credits that came back are taken before it runs out.
//  - A sender may have at most `reply_slots` requests not yet returned, so
//    every reply and credit message it can be sent has a posted receive
//    waiting: replies never need credits and always make progress.
//  - A request that finds no credit polls (runs handlers) until one returns.
//
// Batches (only with coalescing on: allow_coalescing(), when a progress
// thread runs; only to destinations reached through MPI):
//  - A request with no poll since the previous request to the same
//    destination is part of a stream: from the second on, requests of at
//    most kBatchBytes / 2 join the destination's batch, which leaves as one
//    message (one credit, one receive slot) when the next does not fit, or
//    at the next poll that finds a credit -- the sender's own (every 16
//    requests, and in every wait) or the progress thread's, which looks
//    every ProgressThread::kSoonSleep while a batch waits.  A request of a
//    stream that finds no credit joins the batch rather than wait.  A lone
//    request (a poll since the last: a fetching AMO, a round trip) leaves
//    at once, as without batches.
//  - Nothing goes to a destination on its own while its batch waits, so
//    requests to one destination keep their order.
//  - The replies that a batch's handlers send its source leave together,
//    in messages of up to kSmallMessage carrying the credits owed.  A
//    batch is one unreturned request, so when its replies outgrow one
//    message the excess waits in MPI as unexpected messages.
// The receive rings are exact while credits x ranks <= request_slots (256);
// past that (above 128 ranks), MPI buffers the excess as unexpected
// messages, bounded by credits x ranks messages (credits shrink to 2 as
// ranks grow).
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "backoff.hpp"
#include "doorbell.hpp"
#include "environment.hpp"
#include "node_memory.hpp"
#include "shm_inbox.hpp"

namespace gasket::mpi {

// The header of every message, as the caller fills it and the delivery
// sees it (the wire carries it packed: see above).
struct AmWire {
    std::uint32_t nbytes = 0;       // payload bytes carried in this message
    std::uint8_t handler = 0;       // handler index at the destination
    std::uint8_t category = 0;      // caller-defined (Short/Medium/Long)
    std::uint8_t nargs = 0;         // 32-bit arguments that follow
    std::uint8_t flags = 0;         // caller-defined bits; kCreditOnly is the transport's
    std::uint64_t long_offset = 0;  // caller-defined (Long: segment offset)
    std::uint64_t long_bytes = 0;   // caller-defined (Long: payload bytes)
    std::uint32_t credits = 0;      // reply tag: request credits returned
    std::uint8_t dest_ep = 0;       // caller-defined (the destination's endpoint index)
    std::uint8_t source_ep = 0;     // caller-defined (the sender's endpoint index)
    std::uint16_t reserved = 0;
};
static_assert(sizeof(AmWire) == 32);

// A message as delivered: valid only during the delivery callback.
struct AmInbound {
    const AmWire* wire;
    const std::int32_t* args;  // wire->nargs values
    char* payload;             // wire->nbytes bytes, 16-byte aligned
    int source;                // sender's rank in the communicator
    bool reply;                // arrived on the reply tag
};

// A test-and-set lock: cheaper than a mutex for the short sections here
// (one poll, one send), and try_lock costs one load when it is taken.
class SpinLock {
public:
    bool try_lock() {
        return !held_.load(std::memory_order_relaxed) && !held_.exchange(true, std::memory_order_acquire);
    }
    void lock() {
        for (Backoff backoff; !try_lock();) backoff.idle();
    }
    void unlock() { held_.store(false, std::memory_order_release); }

private:
    std::atomic<bool> held_{false};
};

class AmTransport {
public:
    static constexpr std::uint8_t kCreditOnly = 0x80;  // wire flag: no handler, credits only
    static constexpr int kMaxArgs = 16;
    // Messages up to this many bytes are sent with a blocking MPI_Send
    // (eager in every MPI: it cannot wait for the receiver); larger ones
    // with MPI_Isend from the send pool.
    static constexpr std::size_t kSmallMessage = 256;
    // A sender polls once every this many requests, so the credits coming
    // back (and requests to it) are taken before its credits run out.
    static constexpr unsigned kRequestsPerPoll = 16;
    // The largest batch of coalesced requests, in bytes on the wire (sent
    // like a request of its size: MPI_Send up to kSmallMessage, else
    // MPI_Isend from the send pool; under every MPI's eager limit).  A
    // request joins a batch when it takes at most half of this.  Replies
    // gathered from a batch's handlers leave in messages of at most
    // kSmallMessage.
    static constexpr std::size_t kBatchBytes = 2048;

    // Called for each arriving request or reply, on the polling thread.
    using Deliver = void (*)(void* context, const AmInbound& message);

    // Collective over env.world() (duplicated).  `max_payload`: the largest
    // payload a message may carry, in bytes.  `node_shared`: node peers use
    // shared-memory inboxes.
    AmTransport(const Environment& env, bool node_shared, std::size_t max_payload, Deliver deliver, void* context);
    ~AmTransport();  // cancels the posted receives; frees the communicator
    AmTransport(const AmTransport&) = delete;
    AmTransport& operator=(const AmTransport&) = delete;

    // Sends a request to `dest`: waits (polling) for a credit, copies
    // header, args and payload out, starts the send.  nbytes <= max_payload.
    // With coalescing on, a request of a stream to a destination reached
    // through MPI is copied into the destination's batch instead, and
    // leaves with it (see above).
    void send_request(int dest, AmWire wire, const std::int32_t* args, const void* payload);
    // Lets requests of a stream wait in a batch (above).  Only while some
    // thread polls without the application (a progress thread): a batch
    // leaves at a poll, and the application may stop calling in once its
    // request call returned.
    void allow_coalescing() { coalescing_.store(true, std::memory_order_relaxed); }
    // Ends that (the progress thread stopped): no new batches; with
    // `may_poll` (not inside a delivery), polls until the waiting ones left.
    void end_coalescing(bool may_poll);
    // Whether a batch waits to leave: the progress thread polls again
    // within kSoonSleep (progress_thread.hpp) meanwhile.
    bool batches_pending() const { return pending_batches_.load(std::memory_order_relaxed) > 0; }
    // Sends a reply to `dest` from inside the delivery of a request from
    // `dest`, returning the credits owed to it.  Never runs handlers.
    void send_reply(int dest, AmWire wire, const std::int32_t* args, const void* payload);

    // Delivers arrived messages, returns how many: what shared memory holds
    // (up to a batch of 32), and up to `mpi_batch` MPI messages, or fewer:
    // with `until_reply`, the MPI batch ends after the first reply.  A
    // caller waiting for a reply asks for that, or for 1: each further MPI
    // test costs a trip through MPI's progress engine before the caller
    // sees its message.  Requests, which nobody waits for one by one, are
    // served in batches.  Returns 0 at once if another thread is polling.
    // Not reentrant: never call it from a delivery.
    static constexpr int kBatch = 32;
    int poll(int mpi_batch = kBatch, bool until_reply = false);
    // Runs `f` while no message is being delivered: it waits for a poll in
    // progress on another thread to end, and polls wait for it.  Never
    // from a delivery (which holds what it waits for).
    template <class F>
    void without_deliveries(F&& f) {
        std::lock_guard hold(recv_mutex_);
        f();
    }

    bool uses_shared_memory() const { return shm_memory_ != nullptr; }
    // This rank's doorbell: node peers ring it after each request they send
    // here (through MPI or shared memory), so a progress thread may sleep
    // on it (doorbell.hpp).
    DoorbellLine& doorbell() const { return *my_bell_; }
    // Whether every rank can ring this rank's doorbell (all are on this
    // node): then no request waits for a sleeping progress thread's timeout.
    bool every_peer_rings() const { return every_peer_rings_; }
    int rank() const { return rank_; }
    int size() const { return size_; }
    int credits_per_peer() const { return credits_per_peer_; }
    std::size_t max_payload() const { return max_payload_; }
    // Completes all sends (polling) so the payload of every message has
    // left, batches included.
    void drain_sends();

private:
    struct Ring {
        int tag = 0;
        MPI_Comm comm = MPI_COMM_NULL;  // the ring's own communicator
        char* memory = nullptr;         // slots x slot_bytes, mmapped
        std::vector<MPI_Request> requests;
        int head = 0;  // next slot to complete: receives complete in posting order
    };
    struct SendSlot {
        std::vector<char> buffer;
        MPI_Request request = MPI_REQUEST_NULL;
    };
    // Requests for one destination (coalescing), or the replies of a
    // delivered batch's handlers: a batch head, then each message packed
    // and padded to 16 bytes.
    struct Batch {
        alignas(16) char bytes[kBatchBytes];
        std::size_t used = 0;  // bytes, the batch head included
        int count = 0;         // messages
    };

    void make_ring(Ring& ring, int tag, int slots);
    void post(Ring& ring, int slot);
    void deliver_message(char* base, int source, bool reply);
    // Delivers one packed message; returns its bytes (unpadded).
    std::size_t deliver_packed(char* base, int source, bool reply);
    void flush_replies();
    // Writes the message to `out` (head_bytes(wire) + wire.nbytes bytes).
    static void pack(char* out, const AmWire& wire, const std::int32_t* args, const void* payload);
    static std::size_t head_bytes(const AmWire& wire);
    int poll_shm();
    int poll_mpi(int batch, bool until_reply);
    bool send_shm(int dest, bool reply, const AmWire& wire, const std::int32_t* args, const void* payload,
                  std::size_t total);
    void take_credit(int dest);
    bool try_take_credit(int dest);
    void send_coalescing(int dest, const AmWire& wire, const std::int32_t* args, const void* payload, std::size_t total,
                         bool stream);
    void send_batch(int dest, Batch& batch);  // batch_mutex_ and a credit to dest held
    void send_whole_batch(int dest, int tag, Batch& batch, int credits);
    void flush_batches();  // sends every batch whose credit returned
    void send(int dest, int tag, const AmWire& wire, const std::int32_t* args, const void* payload, bool may_poll);
    int acquire_send_slot(bool may_poll);  // locks send_mutex_ on success
    bool reclaim_sends();                  // with send_mutex_ held
    void return_credits(bool idle);

    MPI_Comm comm_ = MPI_COMM_NULL;
    int rank_ = 0, size_ = 1;
    std::size_t max_payload_ = 0;
    std::size_t slot_bytes_ = 0;
    Deliver deliver_;
    void* context_;
    int credits_per_peer_ = 0;
    int return_threshold_ = 1;  // owed credits returned in one credit-only message

    // Receiving side: the poller (recv_mutex_ holder) owns these.
    SpinLock recv_mutex_;
    Batch reply_batch_;            // replies from the handlers of a batch being delivered
    int reply_batch_source_ = -1;  // that batch's source (-1: none being delivered)
    Ring requests_, replies_;
    std::vector<int> owed_;          // per source: credits to return
    std::vector<int> owed_sources_;  // sources with owed_ > 0
    unsigned polls_ = 0;
    unsigned idle_polls_ = 0;  // polls in a row that delivered nothing

    // Node-shared inboxes: this rank's, and every world rank's as mapped
    // here (nullptr for ranks on other nodes, or all when sharing is off).
    std::unique_ptr<NodeMemory> shm_memory_;
    ShmInbox* my_requests_ = nullptr;
    ShmInbox* my_replies_ = nullptr;
    std::vector<ShmInbox*> peer_requests_, peer_replies_;

    // Doorbells of this node's ranks (node-shared memory, with or without
    // node sharing of messages): every world rank's as mapped here
    // (nullptr for ranks on other nodes).
    std::unique_ptr<NodeMemory> bell_memory_;
    DoorbellLine* my_bell_ = nullptr;
    std::vector<DoorbellLine*> peer_bells_;
    bool every_peer_rings_ = false;

    // Sending side.
    SpinLock send_mutex_;
    std::vector<SendSlot> send_slots_;
    std::vector<int> free_send_slots_;
    std::vector<MPI_Request> active_scratch_;
    std::vector<int> active_index_scratch_, done_scratch_;
    std::unique_ptr<std::atomic<int>[]> credits_;  // per destination
    std::atomic<int> unreturned_{0};               // requests whose credit is not back yet
    std::atomic<unsigned> requests_sent_{0};       // for kRequestsPerPoll (a racy count is fine)
    int reply_slots_ = 0;

    // Coalescing: a batch per destination (made at its first), under batch_mutex_.
    std::atomic<bool> coalescing_{false};
    SpinLock batch_mutex_;
    std::vector<std::unique_ptr<Batch>> batches_;
    std::vector<int> batch_dests_;  // destinations whose batch holds requests
    std::atomic<int> pending_batches_{0};
    std::atomic<unsigned> poll_epoch_{0};                  // polls begun (a racy count is fine)
    std::unique_ptr<std::atomic<unsigned>[]> last_epoch_;  // per destination: poll_epoch_ at its last request
};

}  // namespace gasket::mpi
