// ShmInbox: the node-shared MPSC queue of Active Message slots, exercised
// by threads of one process (the queue is the same in shared memory).
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "mpi-bridge/shm_inbox.hpp"

using gasket::mpi::ShmInbox;

namespace {
struct Memory {
    void* p = std::aligned_alloc(64, ShmInbox::bytes());
    ~Memory() { std::free(p); }
};
}  // namespace

TEST(ShmInbox, FifoUntilFullThenRefusesUntilReleased) {
    Memory m;
    ShmInbox* inbox = ShmInbox::create(m.p);
    EXPECT_EQ(inbox->peek(), nullptr);
    for (std::size_t i = 0; i < ShmInbox::kSlots; ++i) {
        std::uint64_t pos = 0;
        ShmInbox::Slot* s = inbox->claim(pos);
        ASSERT_NE(s, nullptr) << i;
        EXPECT_EQ(pos, i);
        s->source = int(i);
        ShmInbox::publish(s, pos);
    }
    std::uint64_t pos = 0;
    EXPECT_EQ(inbox->claim(pos), nullptr) << "a full inbox must refuse";
    ShmInbox::Slot* first = inbox->peek();
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->source, 0);
    inbox->release(first);
    ShmInbox::Slot* again = inbox->claim(pos);
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(pos, ShmInbox::kSlots);
    again->source = 1000;
    ShmInbox::publish(again, pos);
    for (std::size_t i = 1; i <= ShmInbox::kSlots; ++i) {
        ShmInbox::Slot* s = inbox->peek();
        ASSERT_NE(s, nullptr);
        EXPECT_EQ(s->source, i < ShmInbox::kSlots ? int(i) : 1000);
        inbox->release(s);
    }
    EXPECT_EQ(inbox->peek(), nullptr);
}

TEST(ShmInbox, ManyProducersEveryMessageOnceInProducerOrder) {
    Memory m;
    ShmInbox* inbox = ShmInbox::create(m.p);
    constexpr int kProducers = 3, kEach = 20000;
    std::vector<std::thread> producers;
    for (int p = 0; p < kProducers; ++p)
        producers.emplace_back([inbox, p] {
            for (int i = 0; i < kEach; ++i) {
                std::uint64_t pos;
                ShmInbox::Slot* s;
                while (!(s = inbox->claim(pos))) std::this_thread::yield();
                s->source = p;
                s->bytes = std::uint32_t(i);
                ShmInbox::publish(s, pos);
            }
        });
    std::vector<int> next(kProducers, 0);
    for (int received = 0; received < kProducers * kEach;) {
        ShmInbox::Slot* s = inbox->peek();
        if (!s) continue;
        ASSERT_GE(s->source, 0);
        ASSERT_LT(s->source, kProducers);
        ASSERT_EQ(int(s->bytes), next[s->source]) << "producer " << s->source;
        ++next[s->source];
        inbox->release(s);
        ++received;
    }
    for (auto& t : producers) t.join();
    EXPECT_EQ(inbox->peek(), nullptr);
}
