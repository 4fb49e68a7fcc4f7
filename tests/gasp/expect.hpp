// tests/gasp/expect.hpp -- what the GASP event tests share: comparing the
// events the recorder (recorder.h) got on this thread with the exact
// sequence a test expects.
#pragma once

#include <gasp.h>
#include <gasp_shmem.h>
#include <shmem.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "recorder.h"

namespace gasp_test {

inline uint64_t P(const void* p) { return uint64_t(reinterpret_cast<uintptr_t>(p)); }
inline uint64_t I(long long v) { return uint64_t(int64_t(v)); }
// An argument the test cannot know (the address of a routine's own local).
constexpr uint64_t kAny = ~uint64_t(0) - 1;

struct Want {
    unsigned tag;
    int type;
    std::vector<uint64_t> args;
};

inline std::string describe(const gasp_recorded_event& e) {
    std::string s = "thread " + std::to_string(e.thread) + (e.main_thread ? "(main)" : "") + " tag 0x" +
                    [&] {
                        char b[16];
                        std::snprintf(b, sizeof b, "%x", e.tag);
                        return std::string(b);
                    }() +
                    " type " + std::to_string(e.type) + " args";
    for (int i = 0; i < e.nargs; ++i) s += " " + std::to_string(e.args[i]);
    return s;
}

// Every event recorded since the last clear, on this (the main) thread.
inline std::vector<gasp_recorded_event> recorded() {
    std::vector<gasp_recorded_event> out;
    for (size_t i = 0; i < gasp_recorder_count(); ++i) {
        gasp_recorded_event e = gasp_recorder_event(i);
        if (e.main_thread) out.push_back(e);
    }
    return out;
}

// The recorded events equal `want`, exactly, in order.
inline void expect_events(const std::vector<Want>& want) {
    const std::vector<gasp_recorded_event> got = recorded();
    ASSERT_EQ(got.size(), want.size()) << [&] {
        std::string all = "events:";
        for (size_t i = 0; i < gasp_recorder_count(); ++i) all += "\n  " + describe(gasp_recorder_event(i));
        return all;
    }();
    for (size_t i = 0; i < want.size(); ++i) {
        SCOPED_TRACE("event " + std::to_string(i) + ": " + describe(got[i]));
        EXPECT_EQ(got[i].tag, want[i].tag);
        EXPECT_EQ(got[i].type, want[i].type);
        EXPECT_EQ(got[i].bad_context, 0);
        EXPECT_EQ(got[i].bad_position, 0);
        ASSERT_EQ(size_t(got[i].nargs), want[i].args.size());
        for (size_t a = 0; a < want[i].args.size(); ++a)
            if (want[i].args[a] != kAny) EXPECT_EQ(got[i].args[a], want[i].args[a]) << "argument " << a;
    }
}

// A barrier, then an empty record.
inline void start_clean() {
    shmem_barrier_all();
    gasp_recorder_clear();
}

inline const uint64_t kDefault = P(SHMEM_CTX_DEFAULT);

}  // namespace gasp_test
