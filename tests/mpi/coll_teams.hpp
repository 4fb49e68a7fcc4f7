// tests/mpi/coll_teams.hpp -- the teams the collective tests run on:
// SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED and splits of the world team (made
// once, collectively, at the first call): the even PEs, the odd PEs, PEs
// 1..n-1, and every PE in reverse order (stride -1, so team PE i is world
// PE n-1-i).  On a PE outside a split its entry is SHMEM_TEAM_INVALID; the
// tests skip those, so every collective is called by exactly its members.
#pragma once

#include <shmem.h>

#include <cstddef>
#include <vector>

namespace gasket_test {

inline const std::vector<shmem_team_t>& coll_teams() {
    // Never destroyed: a static vector's destructor runs at exit before
    // LeakSanitizer looks, which would leave the team handles unreachable.
    static const std::vector<shmem_team_t>& teams = *new std::vector<shmem_team_t>([] {
        const int n = shmem_n_pes();
        std::vector<shmem_team_t> v{SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED};
        auto split = [&](int start, int stride, int size) {
            shmem_team_t t = SHMEM_TEAM_INVALID;
            if (size >= 1) shmem_team_split_strided(SHMEM_TEAM_WORLD, start, stride, size, nullptr, 0, &t);
            v.push_back(t);
        };
        split(0, 2, (n + 1) / 2);  // even PEs
        split(1, 2, n / 2);        // odd PEs
        split(1, 1, n - 1);        // PEs 1..n-1
        split(n - 1, -1, n);       // reversed
        return v;
    }());
    return teams;
}

// The teams of coll_teams() this PE belongs to, in the same order on every
// PE (so each team's collectives are called by exactly its members).
inline std::vector<shmem_team_t> my_coll_teams() {
    std::vector<shmem_team_t> mine;
    for (shmem_team_t t : coll_teams())
        if (t != SHMEM_TEAM_INVALID) mine.push_back(t);
    return mine;
}

// The active sets of the deprecated collective tests (PE_start,
// logPE_stride, PE_size): the whole job, the even PEs, PEs 1..n-1 (n > 1)
// and PE n-1 alone with stride 8 (n > 2).
struct ActiveSet {
    int start, log_stride, size;
};
inline std::vector<ActiveSet> active_sets() {
    const int n = shmem_n_pes();
    std::vector<ActiveSet> v{{0, 0, n}, {0, 1, (n + 1) / 2}};
    if (n > 1) v.push_back({1, 0, n - 1});
    if (n > 2) v.push_back({n - 1, 3, 1});
    return v;
}
// The index of world PE `pe` in active set `s`, or -1 when outside it.
inline int set_index(const ActiveSet& s, int pe) {
    const int stride = 1 << s.log_stride;
    if (pe < s.start || (pe - s.start) % stride) return -1;
    const int k = (pe - s.start) / stride;
    return k < s.size ? k : -1;
}

// Two symmetric arrays of kCollBytes on the heap for the collective tests,
// allocated collectively by the first call: call it on every PE at the
// same point (the check functions call it first thing).
inline constexpr std::size_t kCollBytes = 64 << 10;
struct CollBuffers {
    void* a;
    void* b;
};
inline const CollBuffers& coll_buffers() {
    static const CollBuffers buffers{shmem_malloc(kCollBytes), shmem_malloc(kCollBytes)};
    return buffers;
}

}  // namespace gasket_test
