// mpi-bridge/am_transport.cpp -- rings of pre-posted receives, the send
// pool and the credits (see am_transport.hpp).
#include "am_transport.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "check.hpp"
#include "environment.hpp"
#include "happens_before.hpp"

namespace gasket::mpi {

namespace {

constexpr int kRequestTag = 1;
constexpr int kReplyTag = 2;
// The request ring holds a full window from every sender up to 4 ranks
// (64 credits each): a stream to one target then never waits for a credit
// while the target keeps up (16 credits, returned at half, left a sender
// 8 requests ahead: bench-am's message rate was 0.3x raw MPI's).
constexpr int kRequestSlots = 256;
constexpr int kReplySlots = 64;
constexpr int kSendSlots = 64;
constexpr int kMaxCredits = 64;
constexpr int kMinCredits = 2;
// A target returns a source's credits once a quarter of them are owed, so
// the sender has three quarters of its window left while they travel.
constexpr int kReturnDivisor = 4;
// ...and everything owed after this many polls in a row found nothing (the
// sender stopped, or this rank stopped polling): returning on the first
// empty poll sent one credit message per request whenever the target kept
// up, doubling the messages both sides handle.
constexpr unsigned kIdleReturnPolls = 16;

std::size_t args_bytes(int nargs) { return (std::size_t(nargs) * 4 + 15) & ~std::size_t(15); }

// AmWire as it travels: the Long fields follow only when `has_long`.
struct PackedHead {
    std::uint32_t nbytes;
    std::uint8_t handler, category, nargs, flags;
    std::uint32_t credits;
    std::uint8_t dest_ep, source_ep;
    std::uint8_t has_long;  // 1: long_offset and long_bytes (8 bytes each) follow
    std::uint8_t batch;     // 1: `nbytes` bytes of packed requests follow, each padded to 16
};
static_assert(sizeof(PackedHead) == 16);
struct PackedLong {
    std::uint64_t offset, bytes;
};
static_assert(sizeof(PackedLong) == 16);

bool has_long(const AmWire& wire) { return (wire.long_offset | wire.long_bytes) != 0; }

std::size_t padded16(std::size_t n) { return (n + 15) & ~std::size_t(15); }

}  // namespace

AmTransport::AmTransport(const Environment& env, bool node_shared, std::size_t max_payload, Deliver deliver,
                         void* context)
    : max_payload_(max_payload), deliver_(deliver), context_(context) {
    check(MPI_Comm_dup(env.world(), &comm_), "MPI_Comm_dup");
    check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
    slot_bytes_ = sizeof(AmWire) + args_bytes(kMaxArgs) + max_payload_;
    slot_bytes_ = (slot_bytes_ + 63) & ~std::size_t(63);
    credits_per_peer_ = std::clamp(kRequestSlots / size_, kMinCredits, kMaxCredits);
    reply_slots_ = kReplySlots;
    // A sender stopped by the cap on unreturned requests must find some
    // destination owing it a full return: (size - 1) destinations each
    // owing less than the threshold must hold fewer than reply_slots_.
    return_threshold_ = std::max(1, credits_per_peer_ / kReturnDivisor);
    while (return_threshold_ > 1 && (size_ - 1) * (return_threshold_ - 1) >= reply_slots_) --return_threshold_;

    credits_ = std::make_unique<std::atomic<int>[]>(size_);
    last_epoch_ = std::make_unique<std::atomic<unsigned>[]>(size_);
    for (int i = 0; i < size_; ++i) {
        credits_[i].store(credits_per_peer_, std::memory_order_relaxed);
        last_epoch_[i].store(~0u, std::memory_order_relaxed);
    }
    batches_.resize(std::size_t(size_));
    owed_.assign(size_, 0);
    send_slots_.resize(kSendSlots);
    for (int i = kSendSlots - 1; i >= 0; --i) {
        send_slots_[i].buffer.reserve(256);
        free_send_slots_.push_back(i);
    }
    make_ring(requests_, kRequestTag, kRequestSlots);
    make_ring(replies_, kReplyTag, kReplySlots);
    peer_requests_.assign(size_, nullptr);
    peer_replies_.assign(size_, nullptr);
    if (node_shared) {
        static_assert(kReplySlots <= int(ShmInbox::kSlots), "a reply inbox must hold every unreturned request");
        shm_memory_ = std::make_unique<NodeMemory>(2 * ShmInbox::bytes(), env.node());
        my_requests_ = ShmInbox::create(shm_memory_->base());
        my_replies_ = ShmInbox::create(shm_memory_->base() + ShmInbox::bytes());
        for (int r = 0; r < size_; ++r)
            if (int nr = env.node_rank_of(r); nr >= 0) {
                peer_requests_[r] = ShmInbox::at(shm_memory_->peer(nr));
                peer_replies_[r] = ShmInbox::at(shm_memory_->peer(nr) + ShmInbox::bytes());
            }
    }
    bell_memory_ = std::make_unique<NodeMemory>(sizeof(DoorbellLine), env.node());
    my_bell_ = new (bell_memory_->base()) DoorbellLine;
    peer_bells_.assign(size_, nullptr);
    for (int r = 0; r < size_; ++r)
        if (int nr = env.node_rank_of(r); nr >= 0)
            peer_bells_[r] = reinterpret_cast<DoorbellLine*>(bell_memory_->peer(nr));
    every_peer_rings_ = std::find(peer_bells_.begin(), peer_bells_.end(), nullptr) == peer_bells_.end();
    // Every rank's receives are posted before anyone may send (and every
    // doorbell is constructed before anyone may ring it).
    check(MPI_Barrier(comm_), "MPI_Barrier");
}

AmTransport::~AmTransport() {
    if (!comm_ || !mpi_usable()) return;  // finalized, or the job is being aborted
    for (SendSlot& s : send_slots_)
        if (s.request != MPI_REQUEST_NULL) {
            MPI_Cancel(&s.request);
            MPI_Wait(&s.request, MPI_STATUS_IGNORE);
        }
    for (Ring* ring : {&requests_, &replies_}) {
        for (MPI_Request& r : ring->requests) {
            MPI_Cancel(&r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            MPI_Request_free(&r);
        }
        munmap(ring->memory, ring->requests.size() * slot_bytes_);
        MPI_Comm_free(&ring->comm);
    }
    MPI_Barrier(comm_);  // no peer still writes into our inboxes (or rings our doorbell)
    shm_memory_.reset();
    bell_memory_.reset();
    MPI_Comm_free(&comm_);
}

void AmTransport::make_ring(Ring& ring, int tag, int slots) {
    ring.tag = tag;
    // Each ring has its own communicator: MPI matches a message against the
    // posted receives of its communicator in order, so a ring's head is the
    // first entry looked at (with one communicator, every reply would first
    // be compared with the 64 posted request receives).
    check(MPI_Comm_dup(comm_, &ring.comm), "MPI_Comm_dup");
    void* p =
        mmap(nullptr, std::size_t(slots) * slot_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) fail("mmap (Active Message receive ring)", MPI_ERR_NO_MEM);
    ring.memory = static_cast<char*>(p);
    ring.requests.assign(slots, MPI_REQUEST_NULL);
    // Persistent receives: restarting one is cheaper than a new MPI_Irecv.
    for (int i = 0; i < slots; ++i) {
        check(MPI_Recv_init(ring.memory + std::size_t(i) * slot_bytes_, int(slot_bytes_), MPI_BYTE, MPI_ANY_SOURCE,
                            ring.tag, ring.comm, &ring.requests[i]),
              "MPI_Recv_init");
        post(ring, i);
    }
}

void AmTransport::post(Ring& ring, int slot) { check(MPI_Start(&ring.requests[slot]), "MPI_Start"); }

int AmTransport::poll(int mpi_batch, bool until_reply) {
    poll_epoch_.store(poll_epoch_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    std::unique_lock lock(recv_mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return 0;
    int delivered = shm_memory_ ? poll_shm() : 0;
    // MPI is asked when shared memory had nothing, and every 16th poll
    // regardless, so neither path starves the other.
    if (delivered == 0 || (++polls_ & 15) == 0) delivered += poll_mpi(mpi_batch, until_reply);
    idle_polls_ = delivered ? 0 : idle_polls_ + 1;
    return_credits(idle_polls_ >= kIdleReturnPolls);
    if (pending_batches_.load(std::memory_order_relaxed)) flush_batches();
    return delivered;
}

int AmTransport::poll_shm() {
    int delivered = 0;
    while (delivered < kBatch) {
        int before = delivered;
        for (auto [inbox, reply] : {std::pair{my_replies_, true}, std::pair{my_requests_, false}})
            if (ShmInbox::Slot* slot = inbox->peek()) {
                deliver_message(slot->data, slot->source, reply);
                inbox->release(slot);
                ++delivered;
            }
        if (delivered == before) break;
    }
    return delivered;
}

int AmTransport::poll_mpi(int batch, bool until_reply) {
    int delivered = 0;
    while (delivered < batch) {
        // Receives of one tag complete in the order they were posted, so
        // only each ring's head can be next.
        MPI_Request heads[2] = {requests_.requests[requests_.head], replies_.requests[replies_.head]};
        int index = MPI_UNDEFINED, flag = 0;
        MPI_Status status;
        check(MPI_Testany(2, heads, &index, &flag, &status), "MPI_Testany");
        if (!flag || index == MPI_UNDEFINED) break;
        Ring& ring = index == 0 ? requests_ : replies_;
        const int slot = ring.head;
        ring.head = (slot + 1) % int(ring.requests.size());
        deliver_message(ring.memory + std::size_t(slot) * slot_bytes_, status.MPI_SOURCE, ring.tag == kReplyTag);
        post(ring, slot);
        ++delivered;
        if (until_reply && index == 1) break;  // what the caller waits for, most likely
    }
    return delivered;
}

std::size_t AmTransport::head_bytes(const AmWire& wire) {
    return sizeof(PackedHead) + (has_long(wire) ? sizeof(PackedLong) : 0) + args_bytes(wire.nargs);
}

void AmTransport::pack(char* out, const AmWire& wire, const std::int32_t* args, const void* payload) {
    const PackedHead head{wire.nbytes,
                          wire.handler,
                          wire.category,
                          wire.nargs,
                          wire.flags,
                          wire.credits,
                          wire.dest_ep,
                          wire.source_ep,
                          std::uint8_t(has_long(wire)),
                          0};
    std::memcpy(out, &head, sizeof head);
    char* next = out + sizeof head;
    if (head.has_long) {
        const PackedLong extra{wire.long_offset, wire.long_bytes};
        std::memcpy(next, &extra, sizeof extra);
        next += sizeof extra;
    }
    if (wire.nargs) std::memcpy(next, args, std::size_t(wire.nargs) * 4);
    if (wire.nbytes) std::memcpy(next + args_bytes(wire.nargs), payload, wire.nbytes);
}

void AmTransport::deliver_message(char* base, int source, bool reply) {
    acquire_before_delivery();  // ThreadSanitizer builds only (happens_before.hpp)
    PackedHead head;
    std::memcpy(&head, base, sizeof head);
    if (reply && head.credits) {
        credits_[source].fetch_add(int(head.credits), std::memory_order_release);
        unreturned_.fetch_sub(int(head.credits), std::memory_order_release);
    }
    if (head.flags & kCreditOnly) return;
    // One credit per message, a batch's too (counted before its handlers
    // run, so a reply from one of them returns it).
    if (!reply && owed_[source]++ == 0) owed_sources_.push_back(source);
    if (!head.batch) {
        deliver_packed(base, source, reply);
        return;
    }
    // A batch of requests: the replies its handlers send leave together.
    if (!reply) {
        reply_batch_source_ = source;
        reply_batch_.used = sizeof(PackedHead);
        reply_batch_.count = 0;
    }
    for (char *p = base + sizeof head, *end = p + head.nbytes; p < end;)
        p += padded16(deliver_packed(p, source, reply));
    if (!reply) {
        flush_replies();
        reply_batch_source_ = -1;
    }
}

// The replies gathered from a batch's handlers, as one message returning
// the credits owed.
void AmTransport::flush_replies() {
    if (reply_batch_.count == 0) return;
    const int dest = reply_batch_source_;
    const int credits = owed_[dest];
    owed_[dest] = 0;
    send_whole_batch(dest, kReplyTag, reply_batch_, credits);
    reply_batch_.used = sizeof(PackedHead);
}

std::size_t AmTransport::deliver_packed(char* base, int source, bool reply) {
    PackedHead head;
    std::memcpy(&head, base, sizeof head);
    AmWire wire;
    wire.nbytes = head.nbytes;
    wire.handler = head.handler;
    wire.category = head.category;
    wire.nargs = head.nargs;
    wire.flags = head.flags;
    wire.credits = head.credits;
    wire.dest_ep = head.dest_ep;
    wire.source_ep = head.source_ep;
    char* args = base + sizeof head;
    if (head.has_long) {
        PackedLong extra;
        std::memcpy(&extra, args, sizeof extra);
        wire.long_offset = extra.offset;
        wire.long_bytes = extra.bytes;
        args += sizeof extra;
    }
    char* payload = args + args_bytes(head.nargs);
    AmInbound in{&wire, reinterpret_cast<const std::int32_t*>(args), payload, source, reply};
    deliver_(context_, in);
    return std::size_t(payload - base) + head.nbytes;
}

// Returns owed credits in credit-only messages: to each source owed
// return_threshold_, or to every source after kIdleReturnPolls empty polls
// (idle).
void AmTransport::return_credits(bool idle) {
    if (owed_sources_.empty()) return;
    const int threshold = idle ? 1 : return_threshold_;
    std::size_t keep = 0;
    for (std::size_t i = 0; i < owed_sources_.size(); ++i) {
        const int source = owed_sources_[i];
        if (owed_[source] == 0) continue;  // returned on a reply meanwhile
        if (owed_[source] < threshold) {
            owed_sources_[keep++] = source;
            continue;
        }
        AmWire wire;
        wire.flags = kCreditOnly;
        send_reply(source, wire, nullptr, nullptr);
    }
    owed_sources_.resize(keep);
}

void AmTransport::take_credit(int dest) {
    Backoff backoff;
    // A reply slot here for whatever returns this request's credit...
    for (int n = unreturned_.load(std::memory_order_relaxed);;) {
        if (n < reply_slots_) {
            if (unreturned_.compare_exchange_weak(n, n + 1, std::memory_order_acquire)) break;
            continue;
        }
        backoff.served(poll());
        n = unreturned_.load(std::memory_order_relaxed);
    }
    // ...and a credit at the destination.
    std::atomic<int>& credit = credits_[dest];
    for (int c = credit.load(std::memory_order_relaxed);;) {
        if (c > 0) {
            if (credit.compare_exchange_weak(c, c - 1, std::memory_order_acquire)) return;
            continue;
        }
        backoff.served(poll());
        c = credit.load(std::memory_order_relaxed);
    }
}

bool AmTransport::try_take_credit(int dest) {
    for (int n = unreturned_.load(std::memory_order_relaxed);;) {
        if (n >= reply_slots_) return false;
        if (unreturned_.compare_exchange_weak(n, n + 1, std::memory_order_acquire)) break;
    }
    std::atomic<int>& credit = credits_[dest];
    for (int c = credit.load(std::memory_order_relaxed);;) {
        if (c <= 0) {
            unreturned_.fetch_sub(1, std::memory_order_relaxed);
            return false;
        }
        if (credit.compare_exchange_weak(c, c - 1, std::memory_order_acquire)) return true;
    }
}

void AmTransport::send_request(int dest, AmWire wire, const std::int32_t* args, const void* payload) {
    const unsigned sent = requests_sent_.load(std::memory_order_relaxed) + 1;
    requests_sent_.store(sent, std::memory_order_relaxed);
    if (sent % kRequestsPerPoll == 0) poll(1);
    if (coalescing_.load(std::memory_order_relaxed) && !peer_requests_[dest]) {
        // Requests to `dest` with no poll between them are a stream:
        // batched from the second on (and any while a batch waits).
        const std::size_t total = head_bytes(wire) + wire.nbytes;
        const unsigned epoch = poll_epoch_.load(std::memory_order_relaxed);
        std::atomic<unsigned>& last = last_epoch_[std::size_t(dest)];  // a racy stamp is fine
        const bool stream = last.load(std::memory_order_relaxed) == epoch && total <= kBatchBytes / 2;
        last.store(epoch, std::memory_order_relaxed);
        if (stream || batches_pending()) return send_coalescing(dest, wire, args, payload, total, stream);
    }
    take_credit(dest);
    send(dest, kRequestTag, wire, args, payload, true);
    if (DoorbellLine* bell = peer_bells_[dest]) ring(*bell);  // its progress thread may sleep
}

// A request through MPI in a stream (or while some batch waits): it joins
// dest's batch when it fits and is part of a stream, else waits for that
// batch to leave (sending it when a credit returns) and is sent on its own.
void AmTransport::send_coalescing(int dest, const AmWire& wire, const std::int32_t* args, const void* payload,
                                  std::size_t total, bool stream) {
    const std::size_t room = padded16(total);
    const bool fits = stream && sizeof(PackedHead) + room <= kBatchBytes;
    for (Backoff backoff;;) {
        {
            std::lock_guard lock(batch_mutex_);
            std::unique_ptr<Batch>& slot = batches_[std::size_t(dest)];
            if (!slot) slot = std::make_unique<Batch>();
            Batch& b = *slot;
            if (b.count == 0 && !fits && try_take_credit(dest)) {
                send(dest, kRequestTag, wire, args, payload, true);
                if (DoorbellLine* bell = peer_bells_[dest]) ring(*bell);
                return;
            }
            if (fits && (b.count == 0 || b.used + room <= kBatchBytes)) {
                if (b.count == 0) {
                    b.used = sizeof(PackedHead);
                    batch_dests_.push_back(dest);
                    pending_batches_.fetch_add(1, std::memory_order_relaxed);
                }
                pack(b.bytes + b.used, wire, args, payload);
                b.used += room;
                ++b.count;
                return;
            }
            if (b.count > 0 && try_take_credit(dest)) {  // full (or this one is too large): send it
                send_batch(dest, b);
                batch_dests_.erase(std::find(batch_dests_.begin(), batch_dests_.end(), dest));
                continue;
            }
        }
        backoff.served(poll());  // takes the credits that came back (and may send the batch)
    }
}

void AmTransport::send_batch(int dest, Batch& b) {
    send_whole_batch(dest, kRequestTag, b, 0);
    pending_batches_.fetch_sub(1, std::memory_order_relaxed);
    if (DoorbellLine* bell = peer_bells_[dest]) ring(*bell);
}

// Writes the batch head (`credits` returned with it) and sends `b` like a
// message of its size (send()'s rule); `b` is empty after.  A batch of
// replies, sent from inside a delivery, is never larger than kSmallMessage,
// so only requests may poll for a send slot.
void AmTransport::send_whole_batch(int dest, int tag, Batch& b, int credits) {
    release_before_send();  // ThreadSanitizer builds only (happens_before.hpp)
    PackedHead head{};
    head.nbytes = std::uint32_t(b.used - sizeof head);
    head.batch = 1;
    head.credits = std::uint32_t(credits);
    std::memcpy(b.bytes, &head, sizeof head);
    MPI_Comm comm = tag == kReplyTag ? replies_.comm : requests_.comm;
    if (b.used <= kSmallMessage) {
        check(MPI_Send(b.bytes, int(b.used), MPI_BYTE, dest, tag, comm), "MPI_Send");
    } else {
        const int slot = acquire_send_slot(tag == kRequestTag);  // send_mutex_ now held
        std::lock_guard lock(send_mutex_, std::adopt_lock);
        SendSlot& s = send_slots_[std::size_t(slot)];
        s.buffer.assign(b.bytes, b.bytes + b.used);
        check(MPI_Isend(s.buffer.data(), int(b.used), MPI_BYTE, dest, tag, comm, &s.request), "MPI_Isend");
    }
    b.count = 0;
    b.used = 0;
}

void AmTransport::end_coalescing(bool may_poll) {
    coalescing_.store(false, std::memory_order_relaxed);
    for (Backoff backoff; may_poll && batches_pending();) backoff.served(poll());
}

void AmTransport::flush_batches() {
    std::unique_lock lock(batch_mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return;
    std::size_t keep = 0;
    for (int dest : batch_dests_) {
        if (try_take_credit(dest))
            send_batch(dest, *batches_[std::size_t(dest)]);
        else
            batch_dests_[keep++] = dest;
    }
    batch_dests_.resize(keep);
}

void AmTransport::send_reply(int dest, AmWire wire, const std::int32_t* args, const void* payload) {
    if (dest == reply_batch_source_) {  // from a handler of a batch: gathered (deliver_message)
        const std::size_t room = padded16(head_bytes(wire) + wire.nbytes);
        if (sizeof(PackedHead) + room <= kSmallMessage) {  // a reply batch is sent with MPI_Send
            if (reply_batch_.used + room > kSmallMessage) flush_replies();
            wire.credits = 0;
            pack(reply_batch_.bytes + reply_batch_.used, wire, args, payload);
            reply_batch_.used += room;
            ++reply_batch_.count;
            return;
        }
        flush_replies();  // the replies before it go first
    }
    wire.credits = std::uint32_t(owed_[dest]);
    owed_[dest] = 0;
    send(dest, kReplyTag, wire, args, payload, false);
}

void AmTransport::send(int dest, int tag, const AmWire& wire, const std::int32_t* args, const void* payload,
                       bool may_poll) {
    release_before_send();  // ThreadSanitizer builds only (happens_before.hpp)
    const std::size_t total = head_bytes(wire) + wire.nbytes;
    if (peer_requests_[dest] && total <= ShmInbox::kCapacity &&
        send_shm(dest, tag == kReplyTag, wire, args, payload, total))
        return;
    MPI_Comm comm = tag == kReplyTag ? replies_.comm : requests_.comm;
    if (total <= kSmallMessage) {
        // Small enough for every MPI's eager protocol: MPI_Send returns once
        // the bytes are copied out, without a request to track.
        alignas(16) char small[kSmallMessage];
        pack(small, wire, args, payload);
        check(MPI_Send(small, int(total), MPI_BYTE, dest, tag, comm), "MPI_Send");
        return;
    }
    const int slot = acquire_send_slot(may_poll);  // send_mutex_ now held
    std::lock_guard lock(send_mutex_, std::adopt_lock);
    SendSlot& s = send_slots_[slot];
    s.buffer.resize(total);
    char* out = s.buffer.data();
    pack(out, wire, args, payload);
    check(MPI_Isend(out, int(total), MPI_BYTE, dest, tag, comm, &s.request), "MPI_Isend");
}

bool AmTransport::send_shm(int dest, bool reply, const AmWire& wire, const std::int32_t* args, const void* payload,
                           std::size_t total) {
    ShmInbox* inbox = reply ? peer_replies_[dest] : peer_requests_[dest];
    std::uint64_t position = 0;
    ShmInbox::Slot* slot;
    // A full request inbox: serve our own messages while the peer catches
    // up.  A reply inbox is never full (it holds every unreturned request),
    // but replies wait without running handlers all the same.
    for (Backoff backoff; !(slot = inbox->claim(position));) {
        if (reply)
            backoff.idle();
        else
            backoff.served(poll());
    }
    pack(slot->data, wire, args, payload);
    slot->source = rank_;
    slot->bytes = std::uint32_t(total);
    ShmInbox::publish(slot, position);
    return true;
}

int AmTransport::acquire_send_slot(bool may_poll) {
    for (Backoff backoff;;) {
        send_mutex_.lock();
        if (free_send_slots_.empty()) reclaim_sends();
        if (!free_send_slots_.empty()) {
            int slot = free_send_slots_.back();
            free_send_slots_.pop_back();
            return slot;
        }
        send_mutex_.unlock();
        // Every slot is in flight: let the destinations take them.
        if (may_poll)
            backoff.served(poll());
        else
            backoff.idle();
    }
}

bool AmTransport::reclaim_sends() {
    active_scratch_.clear();
    active_index_scratch_.clear();
    for (int i = 0; i < int(send_slots_.size()); ++i)
        if (send_slots_[i].request != MPI_REQUEST_NULL) {
            active_scratch_.push_back(send_slots_[i].request);
            active_index_scratch_.push_back(i);
        }
    if (active_scratch_.empty()) return false;
    done_scratch_.resize(active_scratch_.size());
    int done = 0;
    check(MPI_Testsome(int(active_scratch_.size()), active_scratch_.data(), &done, done_scratch_.data(),
                       MPI_STATUSES_IGNORE),
          "MPI_Testsome");
    if (done == MPI_UNDEFINED) return false;
    for (int k = 0; k < done; ++k) {
        int slot = active_index_scratch_[done_scratch_[k]];
        send_slots_[slot].request = MPI_REQUEST_NULL;
        free_send_slots_.push_back(slot);
    }
    return done > 0;
}

void AmTransport::drain_sends() {
    for (Backoff backoff;;) {
        if (!batches_pending()) {
            std::lock_guard lock(send_mutex_);
            reclaim_sends();
            if (free_send_slots_.size() == send_slots_.size()) return;
        }
        backoff.served(poll());  // sends the batches whose credits returned
    }
}

}  // namespace gasket::mpi
