// shmem/team.cpp -- §9.4 teams and §9.1.10 shmem_team_ptr: the predefined
// team handles, queries, PE translation, the strided and 2-D splits (MPI
// communicator splits of the parent's communicator) and destruction.
#include "team.hpp"

#include <mutex>

#include "context.hpp"
#include "events.hpp"
#include "src/runtime/collective.hpp"

using namespace gasket;

namespace gasket::shmem {
gasket_shmem_team g_teams[kMaxTeams];
}  // namespace gasket::shmem

namespace {
gasket_shmem_team& g_world = shmem::g_teams[0];
gasket_shmem_team& g_shared = shmem::g_teams[1];

// Guards the choice of free entries (splits on different teams may run in
// different threads at once).
std::mutex g_teams_mutex;
std::size_t g_next_entry = 2;  // where the round-robin search starts

// A free entry, marked taken (team set to a placeholder until the split
// fills it), or nullptr when every entry is live.
gasket_shmem_team* take_entry() {
    static rt::Team* const kTaken = reinterpret_cast<rt::Team*>(alignof(rt::Team));
    std::lock_guard lock(g_teams_mutex);
    for (std::size_t i = 0; i < shmem::kMaxTeams - 2; ++i) {
        const std::size_t at = 2 + (g_next_entry - 2 + i) % (shmem::kMaxTeams - 2);
        gasket_shmem_team& e = shmem::g_teams[at];
        if (e.team) continue;
        e.team = kTaken;
        g_next_entry = at + 1 < shmem::kMaxTeams ? at + 1 : 2;
        return &e;
    }
    return nullptr;
}

void give_entry(gasket_shmem_team* e) {
    std::lock_guard lock(g_teams_mutex);
    e->owned.reset();
    e->contexts.clear();
    e->team = nullptr;
}

// Reads a team configuration: the num_contexts to keep, or -1 (after a
// message naming `routine`) when the mask or the value is not valid.
int num_contexts_of(const char* routine, const shmem_team_config_t* config, long mask) {
    if (mask & ~SHMEM_TEAM_NUM_CONTEXTS) {
        rt::error(routine, "config_mask %#lx has bits other than SHMEM_TEAM_NUM_CONTEXTS", mask);
        return -1;
    }
    if (!(mask & SHMEM_TEAM_NUM_CONTEXTS)) return 0;
    if (!config) {
        rt::error(routine, "config is NULL but config_mask asks for SHMEM_TEAM_NUM_CONTEXTS");
        return -1;
    }
    if (config->num_contexts < 0) {
        rt::error(routine, "config->num_contexts is %d (must be >= 0)", config->num_contexts);
        return -1;
    }
    return config->num_contexts;
}

// Whether the triplet names parent PEs in 0..n-1 without wrapping (§9.4.6).
bool valid_triplet(int start, int stride, int size, int n) {
    if (size < 1 || start < 0 || start >= n) return false;
    if (stride == 0) return size == 1;
    const long long last = static_cast<long long>(start) + static_cast<long long>(stride) * (size - 1);
    return last >= 0 && last < n;
}

// Fills the entry taken for a split with its team, or gives it back (and
// returns SHMEM_TEAM_INVALID) on PEs outside the new team.
shmem_team_t make_handle(gasket_shmem_team* e, std::unique_ptr<rt::Team> t) {
    if (!t) {
        give_entry(e);
        return SHMEM_TEAM_INVALID;
    }
    e->owned = std::move(t);
    e->team = e->owned.get();
    return e;
}

}  // namespace

namespace gasket::shmem {

void bind_predefined_teams(rt::Job* job) {
    g_world.team = job ? job->world_team.get() : nullptr;
    g_shared.team = job ? job->shared_team.get() : nullptr;
}

bool predefined(shmem_team_t team) { return team == &g_world || team == &g_shared; }

void bad_team(const char* routine, shmem_team_t team) {
    if (team == SHMEM_TEAM_INVALID) rt::fatal(routine, "team is SHMEM_TEAM_INVALID");
    rt::fatal(routine,
              "team %p is not SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED nor a live team from a split (destroyed, or "
              "not a team handle)",
              static_cast<void*>(team));
}

void release_teams() {
    for (std::size_t i = 2; i < kMaxTeams; ++i)
        if (g_teams[i].team) give_entry(&g_teams[i]);
}

}  // namespace gasket::shmem

extern "C" {

shmem_team_t const gasket_shmem_team_world = &shmem::g_teams[0];
shmem_team_t const gasket_shmem_team_shared = &shmem::g_teams[1];

int shmem_team_my_pe(shmem_team_t team) noexcept {
    if (team == SHMEM_TEAM_INVALID) return -1;
    return shmem::team_of("shmem_team_my_pe", team).my_pe();
}

int shmem_team_n_pes(shmem_team_t team) noexcept {
    if (team == SHMEM_TEAM_INVALID) return -1;
    return shmem::team_of("shmem_team_n_pes", team).n_pes();
}

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t* config) noexcept {
    const char* routine = "shmem_team_get_config";
    if (team == SHMEM_TEAM_INVALID) return 1;
    const rt::Team& t = shmem::team_of(routine, team);
    if (config_mask & ~SHMEM_TEAM_NUM_CONTEXTS)
        rt::fatal(routine, "config_mask %#lx has bits other than SHMEM_TEAM_NUM_CONTEXTS", config_mask);
    if (!config_mask) return 0;
    if (!config) rt::fatal(routine, "config is NULL with config_mask %#lx", config_mask);
    // Predefined teams report the context windows the job opened.
    rt::Job& j = rt::job(routine);
    config->num_contexts = shmem::predefined(team) ? j.config.ctx_windows : t.num_contexts();
    return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team) noexcept {
    const char* routine = "shmem_team_translate_pe";
    if (src_team == SHMEM_TEAM_INVALID || dest_team == SHMEM_TEAM_INVALID) return -1;
    const rt::Team& src = shmem::team_of(routine, src_team);
    const rt::Team& dest = shmem::team_of(routine, dest_team);
    if (src_pe < 0 || src_pe >= src.n_pes()) return -1;
    return dest.team_pe_of(src.world_pe(src_pe));
}

}  // extern "C"

namespace {

int split_strided(const char* routine, shmem_team_t parent_team, int start, int stride, int size,
                  const shmem_team_config_t* config, long config_mask, shmem_team_t* new_team) {
    if (!new_team) rt::fatal(routine, "new_team is NULL");
    *new_team = SHMEM_TEAM_INVALID;
    if (parent_team == SHMEM_TEAM_INVALID) return 1;
    const rt::Team& parent = shmem::team_of(routine, parent_team);
    // Every parent PE passes the same triplet, so every PE reaches the same
    // verdict on it without communicating.
    if (!valid_triplet(start, stride, size, parent.n_pes())) {
        rt::debug(routine, "invalid triplet start=%d stride=%d size=%d for a parent team of %d PEs", start, stride,
                  size, parent.n_pes());
        return 2;
    }
    const int num_contexts = num_contexts_of(routine, config, config_mask);
    gasket_shmem_team* entry = num_contexts >= 0 ? take_entry() : nullptr;
    if (num_contexts >= 0 && !entry)
        rt::error(routine, "all %zu team handles are in use (destroy teams no longer needed)", shmem::kMaxTeams);
    // A configuration (or the handles left) may differ between PEs: fail
    // everywhere if it is bad anywhere.
    if (!rt::all_members(routine, parent, entry != nullptr)) {
        if (entry) give_entry(entry);
        return 3;
    }
    std::unique_ptr<rt::Team> team = parent.split_strided(start, stride, size, num_contexts);
    if (team) rt::make_barrier(rt::job(routine), *team);  // while every member is here (see make_barrier)
    *new_team = make_handle(entry, std::move(team));
    return 0;
}

int split_2d(const char* routine, shmem_team_t parent_team, int xrange, const shmem_team_config_t* xaxis_config,
             long xaxis_mask, shmem_team_t* xaxis_team, const shmem_team_config_t* yaxis_config, long yaxis_mask,
             shmem_team_t* yaxis_team) {
    if (!xaxis_team || !yaxis_team) rt::fatal(routine, "xaxis_team or yaxis_team is NULL");
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    if (parent_team == SHMEM_TEAM_INVALID) return 1;
    const rt::Team& parent = shmem::team_of(routine, parent_team);
    if (xrange < 1) {
        rt::debug(routine, "xrange %d is not positive", xrange);
        return 2;
    }
    if (xrange > parent.n_pes()) xrange = parent.n_pes();
    const int x_contexts = num_contexts_of(routine, xaxis_config, xaxis_mask);
    const int y_contexts = num_contexts_of(routine, yaxis_config, yaxis_mask);
    const bool configs_ok = x_contexts >= 0 && y_contexts >= 0;
    gasket_shmem_team* row_entry = configs_ok ? take_entry() : nullptr;
    gasket_shmem_team* column_entry = row_entry ? take_entry() : nullptr;
    if (configs_ok && !column_entry)
        rt::error(routine, "all %zu team handles are in use (destroy teams no longer needed)", shmem::kMaxTeams);
    if (!rt::all_members(routine, parent, column_entry != nullptr)) {
        if (row_entry) give_entry(row_entry);
        if (column_entry) give_entry(column_entry);
        return 3;
    }
    auto [row, column] = parent.split_2d(xrange, x_contexts, y_contexts);
    rt::make_barrier(rt::job(routine), *row);  // every PE is in one row and one column (see make_barrier)
    rt::make_barrier(rt::job(routine), *column);
    *xaxis_team = make_handle(row_entry, std::move(row));
    *yaxis_team = make_handle(column_entry, std::move(column));
    return 0;
}

// GASP (include/gasp_shmem.h): GASP_SHMEM_TEAM_SPLIT S/E around a split
// (END adds the teams made, SHMEM_TEAM_INVALID where none), whatever its
// outcome; GASP_SHMEM_TEAM_DESTROY S/E around a destroy (none for
// SHMEM_TEAM_INVALID, a no-op).  Both are collective (microseconds): one
// gasp::on() test.
void* handle(shmem_team_t team) { return shmem::event_handle(team); }

}  // namespace

extern "C" {

int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t* config, long config_mask, shmem_team_t* new_team) noexcept {
    const bool ev = gasp::on();
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_TEAM_SPLIT, GASP_START, handle(parent_team));
    const int rc =
        split_strided("shmem_team_split_strided", parent_team, start, stride, size, config, config_mask, new_team);
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_TEAM_SPLIT, GASP_END, handle(parent_team), handle(*new_team),
                     handle(SHMEM_TEAM_INVALID));
    return rc;
}

int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t* xaxis_config, long xaxis_mask,
                        shmem_team_t* xaxis_team, const shmem_team_config_t* yaxis_config, long yaxis_mask,
                        shmem_team_t* yaxis_team) noexcept {
    const bool ev = gasp::on();
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_TEAM_SPLIT, GASP_START, handle(parent_team));
    const int rc = split_2d("shmem_team_split_2d", parent_team, xrange, xaxis_config, xaxis_mask, xaxis_team,
                            yaxis_config, yaxis_mask, yaxis_team);
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_TEAM_SPLIT, GASP_END, handle(parent_team), handle(*xaxis_team), handle(*yaxis_team));
    return rc;
}

void shmem_team_destroy(shmem_team_t team) noexcept {
    const char* routine = "shmem_team_destroy";
    if (team == SHMEM_TEAM_INVALID) return;
    const bool ev = gasp::on();
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_TEAM_DESTROY, GASP_START, handle(team));
    shmem::team_of(routine, team);
    if (shmem::predefined(team))
        rt::fatal(routine, "team %p is a predefined team (SHMEM_TEAM_WORLD or SHMEM_TEAM_SHARED)",
                  static_cast<void*>(team));
    // §9.4.8: the shareable contexts made from the team go with it; private
    // ones must have been destroyed by their threads.
    for (shmem_ctx_t ctx : shmem::contexts_of(team)) {
        if (shmem::entry_of(ctx)->options & SHMEM_CTX_PRIVATE)
            rt::fatal(routine, "private context %p made from team %p is still alive: its thread must destroy it first",
                      static_cast<void*>(ctx), static_cast<void*>(team));
    }
    for (shmem_ctx_t ctx : shmem::contexts_of(team)) shmem_ctx_destroy(ctx);
    give_entry(team);  // frees the communicator; the handle is now an error
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_TEAM_DESTROY, GASP_END, handle(team));
}

void* shmem_team_ptr(shmem_team_t team, const void* dest, int pe) noexcept {
    const char* routine = "shmem_team_ptr";
    if (team == SHMEM_TEAM_INVALID) return nullptr;
    const rt::Team& t = shmem::team_of(routine, team);
    if (pe < 0 || pe >= t.n_pes()) return nullptr;
    rt::Job& j = rt::job(routine);
    const int world = t.world_pe(pe);
    rt::Segment* seg = j.segment_of(dest);
    if (!seg || !seg->direct(world)) return nullptr;
    return seg->direct(world) + seg->offset_of(dest);
}

}  // extern "C"
