// shmem/rma.cpp -- §9.6 remote memory access: every typed, sized and byte
// form, generated from the type tables in gasket/shmem_type_tables.h.
// Each entry point only names itself and converts elements to bytes; the
// runtime (src/runtime/rma.hpp) does the work.
#include <shmem.h>

#include "context.hpp"
#include "events.hpp"
#include "src/runtime/rma.hpp"

using namespace gasket;
using rt::Completion;

namespace {

// GASP (include/gasp_shmem.h): a blocking transfer raises GASP_SHMEM_PUT/GET
// S/E around it, an nbi one GASP_SHMEM_{PUT,GET}_NBI_INIT S/E around its
// initiation (END adds the ctx as the handle).  `h` is the handle the
// program named (nullptr, standing for SHMEM_CTX_DEFAULT, for the forms
// without one); it is only read on the out-of-line path.
constexpr bool is_nbi(Completion c) { return c == Completion::joined || c == Completion::deferred; }

template <Completion C>
[[gnu::cold]] void rma_event(unsigned blocking, unsigned nbi, gasp_evttype_t type, shmem_ctx_t h, int pe, void* dest,
                             const void* src, std::size_t bytes, std::ptrdiff_t dst, std::ptrdiff_t sst,
                             std::size_t bsize) {
    if (is_nbi(C) && type == GASP_END)
        gasp::notify(nbi, type, shmem::event_handle(h), pe, dest, src, bytes, dst, sst, bsize, shmem::event_handle(h));
    else
        gasp::notify(is_nbi(C) ? nbi : blocking, type, shmem::event_handle(h), pe, dest, src, bytes, dst, sst, bsize);
}

// The out-of-line path of the contiguous forms (taken when
// shmem::untraced_context gave nullptr: before shmem_init, a bad handle,
// or a tool attached): resolves the handle (fatal, naming the routine),
// checks the size, and runs the operation, with its events around it when
// a tool is attached.
template <std::size_t Elem, Completion C, bool Plain>
[[gnu::noinline, gnu::cold]] void put_traced(shmem_ctx_t h, const char* routine, void* dest, const void* src,
                                             std::size_t n, int pe) {
    rt::Context& ctx = shmem::context_of_form<Plain>(routine, h);
    const std::size_t bytes = rt::checked_bytes(routine, "nelems", n, Elem);
    const bool ev = gasp::on();
    if (ev) rma_event<C>(GASP_SHMEM_PUT, GASP_SHMEM_PUT_NBI_INIT, GASP_START, h, pe, dest, src, bytes, 1, 1, bytes);
    rt::put(ctx, routine, dest, src, bytes, pe, C);
    if (ev) rma_event<C>(GASP_SHMEM_PUT, GASP_SHMEM_PUT_NBI_INIT, GASP_END, h, pe, dest, src, bytes, 1, 1, bytes);
}
template <std::size_t Elem, Completion C, bool Plain>
[[gnu::noinline, gnu::cold]] void get_traced(shmem_ctx_t h, const char* routine, void* dest, const void* src,
                                             std::size_t n, int pe) {
    rt::Context& ctx = shmem::context_of_form<Plain>(routine, h);
    const std::size_t bytes = rt::checked_bytes(routine, "nelems", n, Elem);
    const bool ev = gasp::on();
    if (ev) rma_event<C>(GASP_SHMEM_GET, GASP_SHMEM_GET_NBI_INIT, GASP_START, h, pe, dest, src, bytes, 1, 1, bytes);
    rt::get(ctx, routine, dest, src, bytes, pe, C);
    if (ev) rma_event<C>(GASP_SHMEM_GET, GASP_SHMEM_GET_NBI_INIT, GASP_END, h, pe, dest, src, bytes, 1, 1, bytes);
}

// Contiguous forms: elem-byte elements (n * Elem checked: fatal when it
// overflows).  Inlined into each entry point with its completion known at
// compile time, so a put or get is one call from the program into MPI (an
// out-of-line put_elems shared by every form, switching on the completion
// at run time, cost 3-4 ns per 8-byte put through MPI: docs/performance.md).
// `c` is shmem::untraced_context's answer for `h`; null takes the
// out-of-line path above.  Plain: a routine without a ctx argument (`h` is
// nullptr).
template <std::size_t Elem, Completion C, bool Plain = false>
[[gnu::always_inline]] inline void put_elems(rt::Context* c, shmem_ctx_t h, const char* routine, void* dest,
                                             const void* src, std::size_t n, int pe) {
    if (!c) [[unlikely]]
        return put_traced<Elem, C, Plain>(h, routine, dest, src, n, pe);
    rt::put(*c, routine, dest, src, rt::checked_bytes(routine, "nelems", n, Elem), pe, C);
}
template <std::size_t Elem, Completion C, bool Plain = false>
[[gnu::always_inline]] inline void get_elems(rt::Context* c, shmem_ctx_t h, const char* routine, void* dest,
                                             const void* src, std::size_t n, int pe) {
    if (!c) [[unlikely]]
        return get_traced<Elem, C, Plain>(h, routine, dest, src, n, pe);
    rt::get(*c, routine, dest, src, rt::checked_bytes(routine, "nelems", n, Elem), pe, C);
}
// iput/ibput: the symmetric side is dest (remote stride dst).
template <std::size_t Elem>
inline void put_blocks(rt::Context& ctx, shmem_ctx_t h, const char* routine, void* dest, const void* src,
                       std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t bsize, std::size_t nblocks, int pe) {
    const bool ev = gasp::on();
    const std::size_t bytes = ev ? Elem * bsize * nblocks : 0;
    if (ev) [[unlikely]]
        rma_event<Completion::local>(GASP_SHMEM_PUT, 0, GASP_START, h, pe, dest, src, bytes, dst, sst, bsize);
    rt::put_strided(ctx, routine, dest, src, {Elem, dst, sst, bsize, nblocks}, pe);
    if (ev) [[unlikely]]
        rma_event<Completion::local>(GASP_SHMEM_PUT, 0, GASP_END, h, pe, dest, src, bytes, dst, sst, bsize);
}
// iget/ibget: the symmetric side is source (remote stride sst).
template <std::size_t Elem>
inline void get_blocks(rt::Context& ctx, shmem_ctx_t h, const char* routine, void* dest, const void* src,
                       std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t bsize, std::size_t nblocks, int pe) {
    const bool ev = gasp::on();
    const std::size_t bytes = ev ? Elem * bsize * nblocks : 0;
    if (ev) [[unlikely]]
        rma_event<Completion::local>(GASP_SHMEM_GET, 0, GASP_START, h, pe, dest, src, bytes, dst, sst, bsize);
    rt::get_strided(ctx, routine, dest, src, {Elem, sst, dst, bsize, nblocks}, pe);
    if (ev) [[unlikely]]
        rma_event<Completion::local>(GASP_SHMEM_GET, 0, GASP_END, h, pe, dest, src, bytes, dst, sst, bsize);
}

}  // namespace

// Each shape macro defines one routine and its shmem_ctx_ form.  NAME and
// CTXNAME are the names after "shmem_"; PTR/CPTR the pointer types; ELEM the
// element size in bytes.
#define GASKET_CONTIGUOUS(NAME, CTXNAME, PTR, CPTR, ELEM, OP, COMPLETION)                                            \
    void shmem_##NAME(PTR dest, CPTR source, size_t nelems, int pe) noexcept {                                       \
        OP<ELEM, Completion::COMPLETION, true>(shmem::untraced_default(), nullptr, "shmem_" #NAME, dest, source,     \
                                               nelems, pe);                                                          \
    }                                                                                                                \
    void shmem_##CTXNAME(shmem_ctx_t ctx, PTR dest, CPTR source, size_t nelems, int pe) noexcept {                   \
        OP<ELEM, Completion::COMPLETION>(shmem::untraced_context(ctx), ctx, "shmem_" #CTXNAME, dest, source, nelems, \
                                         pe);                                                                        \
    }
#define GASKET_STRIDED(NAME, CTXNAME, PTR, CPTR, ELEM, OP)                                                           \
    void shmem_##NAME(PTR dest, CPTR source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) noexcept {         \
        OP<ELEM>(shmem::default_context("shmem_" #NAME), nullptr, "shmem_" #NAME, dest, source, dst, sst, 1, nelems, \
                 pe);                                                                                                \
    }                                                                                                                \
    void shmem_##CTXNAME(shmem_ctx_t ctx, PTR dest, CPTR source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,        \
                         int pe) noexcept {                                                                          \
        const char* routine = "shmem_" #CTXNAME;                                                                     \
        OP<ELEM>(shmem::context_of(routine, ctx), ctx, routine, dest, source, dst, sst, 1, nelems, pe);              \
    }
#define GASKET_BLOCKED(NAME, CTXNAME, PTR, CPTR, ELEM, OP)                                                       \
    void shmem_##NAME(PTR dest, CPTR source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks,         \
                      int pe) noexcept {                                                                         \
        OP<ELEM>(shmem::default_context("shmem_" #NAME), nullptr, "shmem_" #NAME, dest, source, dst, sst, bsize, \
                 nblocks, pe);                                                                                   \
    }                                                                                                            \
    void shmem_##CTXNAME(shmem_ctx_t ctx, PTR dest, CPTR source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,     \
                         size_t nblocks, int pe) noexcept {                                                      \
        const char* routine = "shmem_" #CTXNAME;                                                                 \
        OP<ELEM>(shmem::context_of(routine, ctx), ctx, routine, dest, source, dst, sst, bsize, nblocks, pe);     \
    }
// Single elements: p and g.
#define GASKET_SINGLE(TYPE, NAME)                                                                                      \
    void shmem_##NAME##_p(TYPE* dest, TYPE value, int pe) noexcept {                                                   \
        const char* routine = "shmem_" #NAME "_p";                                                                     \
        put_elems<sizeof(TYPE), Completion::local, true>(shmem::untraced_default(), nullptr, routine, dest, &value, 1, \
                                                         pe);                                                          \
    }                                                                                                                  \
    void shmem_ctx_##NAME##_p(shmem_ctx_t ctx, TYPE* dest, TYPE value, int pe) noexcept {                              \
        const char* routine = "shmem_ctx_" #NAME "_p";                                                                 \
        put_elems<sizeof(TYPE), Completion::local>(shmem::untraced_context(ctx), ctx, routine, dest, &value, 1, pe);   \
    }                                                                                                                  \
    TYPE shmem_##NAME##_g(const TYPE* source, int pe) noexcept {                                                       \
        TYPE value;                                                                                                    \
        const char* routine = "shmem_" #NAME "_g";                                                                     \
        get_elems<sizeof(TYPE), Completion::local, true>(shmem::untraced_default(), nullptr, routine, &value, source,  \
                                                         1, pe);                                                       \
        return value;                                                                                                  \
    }                                                                                                                  \
    TYPE shmem_ctx_##NAME##_g(shmem_ctx_t ctx, const TYPE* source, int pe) noexcept {                                  \
        const char* routine = "shmem_ctx_" #NAME "_g";                                                                 \
        TYPE value;                                                                                                    \
        get_elems<sizeof(TYPE), Completion::local>(shmem::untraced_context(ctx), ctx, routine, &value, source, 1, pe); \
        return value;                                                                                                  \
    }

extern "C" {

// shmem_TYPENAME_{put,get,put_nbi,get_nbi,iput,iget,ibput,ibget,p,g} (Table 5).
#define GASKET_RMA_TYPED(T, N)                                                                      \
    GASKET_CONTIGUOUS(N##_put, ctx_##N##_put, T*, const T*, sizeof(T), put_elems, local)            \
    GASKET_CONTIGUOUS(N##_get, ctx_##N##_get, T*, const T*, sizeof(T), get_elems, local)            \
    GASKET_CONTIGUOUS(N##_put_nbi, ctx_##N##_put_nbi, T*, const T*, sizeof(T), put_elems, joined)   \
    GASKET_CONTIGUOUS(N##_get_nbi, ctx_##N##_get_nbi, T*, const T*, sizeof(T), get_elems, deferred) \
    GASKET_STRIDED(N##_iput, ctx_##N##_iput, T*, const T*, sizeof(T), put_blocks)                   \
    GASKET_STRIDED(N##_iget, ctx_##N##_iget, T*, const T*, sizeof(T), get_blocks)                   \
    GASKET_BLOCKED(N##_ibput, ctx_##N##_ibput, T*, const T*, sizeof(T), put_blocks)                 \
    GASKET_BLOCKED(N##_ibget, ctx_##N##_ibget, T*, const T*, sizeof(T), get_blocks)                 \
    GASKET_SINGLE(T, N)
GASKET_STD_RMA_TYPES(GASKET_RMA_TYPED)
#undef GASKET_RMA_TYPED

// shmem_{put,get,iput,iget,ibput,ibget}SIZE and SIZE_nbi (8..128 bits).
#define GASKET_RMA_SIZED(BITS, BYTES)                                                                       \
    GASKET_CONTIGUOUS(put##BITS, ctx_put##BITS, void*, const void*, BYTES, put_elems, local)                \
    GASKET_CONTIGUOUS(get##BITS, ctx_get##BITS, void*, const void*, BYTES, get_elems, local)                \
    GASKET_CONTIGUOUS(put##BITS##_nbi, ctx_put##BITS##_nbi, void*, const void*, BYTES, put_elems, joined)   \
    GASKET_CONTIGUOUS(get##BITS##_nbi, ctx_get##BITS##_nbi, void*, const void*, BYTES, get_elems, deferred) \
    GASKET_STRIDED(iput##BITS, ctx_iput##BITS, void*, const void*, BYTES, put_blocks)                       \
    GASKET_STRIDED(iget##BITS, ctx_iget##BITS, void*, const void*, BYTES, get_blocks)                       \
    GASKET_BLOCKED(ibput##BITS, ctx_ibput##BITS, void*, const void*, BYTES, put_blocks)                     \
    GASKET_BLOCKED(ibget##BITS, ctx_ibget##BITS, void*, const void*, BYTES, get_blocks)
GASKET_RMA_SIZES(GASKET_RMA_SIZED)
#undef GASKET_RMA_SIZED

// shmem_{put,get}mem and _nbi: nelems counts bytes.
GASKET_CONTIGUOUS(putmem, ctx_putmem, void*, const void*, 1, put_elems, local)
GASKET_CONTIGUOUS(getmem, ctx_getmem, void*, const void*, 1, get_elems, local)
GASKET_CONTIGUOUS(putmem_nbi, ctx_putmem_nbi, void*, const void*, 1, put_elems, joined)
GASKET_CONTIGUOUS(getmem_nbi, ctx_getmem_nbi, void*, const void*, 1, get_elems, deferred)

}  // extern "C"
