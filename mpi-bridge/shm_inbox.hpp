// mpi-bridge/shm_inbox.hpp -- a bounded multi-producer, single-consumer
// queue of fixed-size message slots in node-shared memory: how node peers
// hand each other Active Messages without MPI.
//
// Each slot carries a sequence number (Vyukov's bounded queue): a producer
// claims position p by advancing `tail` when slot p % N holds sequence p,
// fills the slot, then publishes it with sequence p + 1; the consumer takes
// position `head` when its slot holds head + 1 and frees it with sequence
// head + N.  All state lives in the shared block (atomics on shared
// mappings are address-free), so any process on the node may produce.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

namespace gasket::mpi {

class ShmInbox {
public:
    static constexpr std::size_t kSlots = 64;
    // A slot holds the largest Medium message (32-byte header, 16
    // arguments, 64 KiB payload); pages of a slot are touched only as far
    // as messages reach.
    static constexpr std::size_t kSlotBytes = 68 * 1024;
    static constexpr std::size_t kSlotHeader = 64;  // sequence, source, size; data stays 64-byte aligned
    static constexpr std::size_t kCapacity = kSlotBytes - kSlotHeader;  // message bytes per slot

    struct Slot {
        std::atomic<std::uint64_t> sequence;
        std::int32_t source;  // sender's world rank
        std::uint32_t bytes;  // message bytes in data
        char pad[kSlotHeader - 16];
        alignas(64) char data[kCapacity];
    };
    static_assert(sizeof(Slot) == kSlotBytes);

    // Bytes one inbox needs in shared memory.
    static constexpr std::size_t bytes() { return 128 + kSlots * kSlotBytes; }

    // Builds an empty inbox at `memory` (64-byte aligned, bytes() long).  The
    // owner calls it before any peer may send.
    static ShmInbox* create(void* memory) { return new (memory) ShmInbox(); }
    // An inbox built by a peer, as mapped here.
    static ShmInbox* at(void* memory) { return std::launder(static_cast<ShmInbox*>(memory)); }

    // Producer: claims a free slot, or returns nullptr when the inbox is full.
    // Fill slot->data, then publish(slot).
    Slot* claim(std::uint64_t& position) {
        std::uint64_t pos = tail_.load(std::memory_order_relaxed);
        for (;;) {
            Slot& s = slots_[pos % kSlots];
            const std::uint64_t seq = s.sequence.load(std::memory_order_acquire);
            const auto diff = std::int64_t(seq - pos);
            if (diff == 0) {
                if (tail_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) {
                    position = pos;
                    return &s;
                }
            } else if (diff < 0) {
                return nullptr;  // full: the consumer has not freed this slot yet
            } else {
                pos = tail_.load(std::memory_order_relaxed);
            }
        }
    }
    static void publish(Slot* slot, std::uint64_t position) {
        slot->sequence.store(position + 1, std::memory_order_release);
    }

    // Consumer: the oldest published slot, or nullptr.  Then release() it.
    Slot* peek() {
        Slot& s = slots_[head_ % kSlots];
        return s.sequence.load(std::memory_order_acquire) == head_ + 1 ? &s : nullptr;
    }
    void release(Slot* slot) {
        slot->sequence.store(head_ + kSlots, std::memory_order_release);
        ++head_;
    }

private:
    ShmInbox() {
        for (std::size_t i = 0; i < kSlots; ++i) slots_[i].sequence.store(i, std::memory_order_relaxed);
    }

    alignas(64) std::atomic<std::uint64_t> tail_{0};
    alignas(64) std::uint64_t head_ = 0;  // consumer only
    alignas(64) Slot slots_[kSlots];
};
static_assert(ShmInbox::bytes() >= sizeof(ShmInbox));

}  // namespace gasket::mpi
