// shmem/coll_data.cpp -- §9.10.5-8 data movement: alltoall, alltoalls,
// broadcast, collect and fcollect for every Table 5 type, the *mem forms
// and the deprecated 32/64 active-set forms, generated from the type
// tables.  Each entry point names itself, checks what only it can (the
// root, the strides), and calls the runtime in bytes.
#include "coll.hpp"
#include "events.hpp"

using namespace gasket;

namespace {

// GASP (include/gasp_shmem.h): GASP_SHMEM_BROADCAST, _COLLECT, _FCOLLECT,
// _ALLTOALL and _ALLTOALLS S/E around each routine (the active-set forms:
// team NULL), nbytes what this PE sends (nelems * element size; computed
// without the overflow check, which the routine makes and which is fatal).
using shmem::with_event;
inline void* handle(shmem_team_t team) { return shmem::event_handle(team); }

template <std::size_t Elem>
int alltoall_team(const char* routine, shmem_team_t team, void* dest, const void* source, std::ptrdiff_t dst,
                  std::ptrdiff_t sst, std::size_t nelems, bool strided) {
    auto run = [&] {
        return shmem::on_team(routine, team, [&](rt::Team& t) {
            if (dst < 1 || sst < 1) [[unlikely]] {
                rt::error(routine, "strides dst %td and sst %td must be >= 1: nothing done", dst, sst);
                return 1;
            }
            rt::alltoall(routine, t, dest, source, Elem, nelems, std::size_t(dst), std::size_t(sst));
            return 0;
        });
    };
    if (strided) return with_event(GASP_SHMEM_ALLTOALLS, run, handle(team), dest, source, nelems * Elem, dst, sst);
    return with_event(GASP_SHMEM_ALLTOALL, run, handle(team), dest, source, nelems * Elem);
}

template <std::size_t Elem>
int broadcast_team(const char* routine, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                   int root) {
    return with_event(
        GASP_SHMEM_BROADCAST,
        [&] {
            return shmem::on_team(routine, team, [&](rt::Team& t) {
                if (root < 0 || root >= t.n_pes()) [[unlikely]] {
                    rt::error(routine, "PE_root %d is not a PE of the team (0..%d): nothing done", root, t.n_pes() - 1);
                    return 1;
                }
                rt::broadcast(routine, t, dest, source, rt::checked_bytes(routine, "nelems", nelems, Elem), root, true);
                return 0;
            });
        },
        handle(team), dest, source, nelems * Elem, root);
}

template <std::size_t Elem>
int collect_team(const char* routine, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                 bool fixed) {
    return with_event(
        fixed ? GASP_SHMEM_FCOLLECT : GASP_SHMEM_COLLECT,
        [&] {
            return shmem::on_team(routine, team, [&](rt::Team& t) {
                rt::collect(routine, t, dest, source, rt::checked_bytes(routine, "nelems", nelems, Elem), fixed);
                return 0;
            });
        },
        handle(team), dest, source, nelems * Elem);
}

// Deprecated active-set forms: a malformed set, a bad root or stride and a
// non-symmetric pSync are fatal (these routines return nothing).
template <std::size_t Elem>
void alltoall_set(const char* routine, void* dest, const void* source, std::ptrdiff_t dst, std::ptrdiff_t sst,
                  std::size_t nelems, int start, int log_stride, int size, long* pSync, std::size_t sync_size,
                  bool strided) {
    shmem::check_psync(routine, pSync, sync_size);
    if (dst < 1 || sst < 1) [[unlikely]]
        rt::fatal(routine, "strides dst %td and sst %td must be >= 1", dst, sst);
    auto run = [&] {
        rt::alltoall(routine, rt::active_set(routine, start, log_stride, size), dest, source, Elem, nelems,
                     std::size_t(dst), std::size_t(sst));
    };
    if (strided)
        with_event(GASP_SHMEM_ALLTOALLS, run, handle(SHMEM_TEAM_INVALID), dest, source, nelems * Elem, dst, sst);
    else
        with_event(GASP_SHMEM_ALLTOALL, run, handle(SHMEM_TEAM_INVALID), dest, source, nelems * Elem);
}

template <std::size_t Elem>
void broadcast_set(const char* routine, void* dest, const void* source, std::size_t nelems, int root, int start,
                   int log_stride, int size, long* pSync) {
    shmem::check_psync(routine, pSync, SHMEM_BCAST_SYNC_SIZE);
    const rt::Team& t = rt::active_set(routine, start, log_stride, size);
    if (root < 0 || root >= size) [[unlikely]]
        rt::fatal(routine, "PE_root %d is not in 0..PE_size-1 (PE_size %d)", root, size);
    with_event(
        GASP_SHMEM_BROADCAST,
        [&] {
            rt::broadcast(routine, t, dest, source, rt::checked_bytes(routine, "nelems", nelems, Elem), root, false);
        },
        handle(SHMEM_TEAM_INVALID), dest, source, nelems * Elem, root);
}

template <std::size_t Elem>
void collect_set(const char* routine, void* dest, const void* source, std::size_t nelems, int start, int log_stride,
                 int size, long* pSync, bool fixed) {
    shmem::check_psync(routine, pSync, SHMEM_COLLECT_SYNC_SIZE);
    with_event(
        fixed ? GASP_SHMEM_FCOLLECT : GASP_SHMEM_COLLECT,
        [&] {
            rt::collect(routine, rt::active_set(routine, start, log_stride, size), dest, source,
                        rt::checked_bytes(routine, "nelems", nelems, Elem), fixed);
        },
        handle(SHMEM_TEAM_INVALID), dest, source, nelems * Elem);
}

}  // namespace

// PRE/POST: the name around the routine's ("long_" and "" for
// shmem_long_alltoall; "" and "mem" for shmem_alltoallmem).
#define GASKET_COLL_TEAM_FORMS(PRE, POST, PTR, CPTR, ELEM)                                                            \
    int shmem_##PRE##alltoall##POST(shmem_team_t team, PTR dest, CPTR source, size_t nelems) noexcept {               \
        return alltoall_team<ELEM>("shmem_" #PRE "alltoall" #POST, team, dest, source, 1, 1, nelems, false);          \
    }                                                                                                                 \
    int shmem_##PRE##alltoalls##POST(shmem_team_t team, PTR dest, CPTR source, ptrdiff_t dst, ptrdiff_t sst,          \
                                     size_t nelems) noexcept {                                                        \
        return alltoall_team<ELEM>("shmem_" #PRE "alltoalls" #POST, team, dest, source, dst, sst, nelems, true);      \
    }                                                                                                                 \
    int shmem_##PRE##broadcast##POST(shmem_team_t team, PTR dest, CPTR source, size_t nelems, int PE_root) noexcept { \
        return broadcast_team<ELEM>("shmem_" #PRE "broadcast" #POST, team, dest, source, nelems, PE_root);            \
    }                                                                                                                 \
    int shmem_##PRE##collect##POST(shmem_team_t team, PTR dest, CPTR source, size_t nelems) noexcept {                \
        return collect_team<ELEM>("shmem_" #PRE "collect" #POST, team, dest, source, nelems, false);                  \
    }                                                                                                                 \
    int shmem_##PRE##fcollect##POST(shmem_team_t team, PTR dest, CPTR source, size_t nelems) noexcept {               \
        return collect_team<ELEM>("shmem_" #PRE "fcollect" #POST, team, dest, source, nelems, true);                  \
    }
#define GASKET_COLL_TYPED(TYPE, NAME) GASKET_COLL_TEAM_FORMS(NAME##_, , TYPE*, const TYPE*, sizeof(TYPE))

#define GASKET_COLL_SIZED(BITS, BYTES)                                                                                \
    void shmem_alltoall##BITS(void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride,          \
                              int PE_size, long* pSync) noexcept {                                                    \
        alltoall_set<BYTES>("shmem_alltoall" #BITS, dest, source, 1, 1, nelems, PE_start, logPE_stride, PE_size,      \
                            pSync, SHMEM_ALLTOALL_SYNC_SIZE, false);                                                  \
    }                                                                                                                 \
    void shmem_alltoalls##BITS(void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,           \
                               int PE_start, int logPE_stride, int PE_size, long* pSync) noexcept {                   \
        alltoall_set<BYTES>("shmem_alltoalls" #BITS, dest, source, dst, sst, nelems, PE_start, logPE_stride, PE_size, \
                            pSync, SHMEM_ALLTOALLS_SYNC_SIZE, true);                                                  \
    }                                                                                                                 \
    void shmem_broadcast##BITS(void* dest, const void* source, size_t nelems, int PE_root, int PE_start,              \
                               int logPE_stride, int PE_size, long* pSync) noexcept {                                 \
        broadcast_set<BYTES>("shmem_broadcast" #BITS, dest, source, nelems, PE_root, PE_start, logPE_stride, PE_size, \
                             pSync);                                                                                  \
    }                                                                                                                 \
    void shmem_collect##BITS(void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride,           \
                             int PE_size, long* pSync) noexcept {                                                     \
        collect_set<BYTES>("shmem_collect" #BITS, dest, source, nelems, PE_start, logPE_stride, PE_size, pSync,       \
                           false);                                                                                    \
    }                                                                                                                 \
    void shmem_fcollect##BITS(void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride,          \
                              int PE_size, long* pSync) noexcept {                                                    \
        collect_set<BYTES>("shmem_fcollect" #BITS, dest, source, nelems, PE_start, logPE_stride, PE_size, pSync,      \
                           true);                                                                                     \
    }

extern "C" {

GASKET_STD_RMA_TYPES(GASKET_COLL_TYPED)
GASKET_COLL_TEAM_FORMS(, mem, void*, const void*, 1)
GASKET_COLL_SIZES(GASKET_COLL_SIZED)

}  // extern "C"
