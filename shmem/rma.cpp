// shmem/rma.cpp -- §9.6 remote memory access: every typed, sized and byte
// form, generated from the type tables in gasket/shmem_type_tables.h.
// Each entry point only names itself and converts elements to bytes; the
// runtime (src/runtime/rma.hpp) does the work.
#include <shmem.h>

#include "context.hpp"
#include "src/runtime/rma.hpp"

using namespace gasket;
using rt::Completion;

namespace {

// Contiguous forms: elem-byte elements.
template <std::size_t Elem>
inline void put_elems(const char* routine, void* dest, const void* src, std::size_t n, int pe, Completion c) {
    rt::put(routine, dest, src, n * Elem, pe, c);
}
template <std::size_t Elem>
inline void get_elems(const char* routine, void* dest, const void* src, std::size_t n, int pe, Completion c) {
    rt::get(routine, dest, src, n * Elem, pe, c);
}
// iput/ibput: the symmetric side is dest (remote stride dst).
template <std::size_t Elem>
inline void put_blocks(const char* routine, void* dest, const void* src, std::ptrdiff_t dst, std::ptrdiff_t sst,
                       std::size_t bsize, std::size_t nblocks, int pe) {
    rt::put_strided(routine, dest, src, {Elem, dst, sst, bsize, nblocks}, pe);
}
// iget/ibget: the symmetric side is source (remote stride sst).
template <std::size_t Elem>
inline void get_blocks(const char* routine, void* dest, const void* src, std::ptrdiff_t dst, std::ptrdiff_t sst,
                       std::size_t bsize, std::size_t nblocks, int pe) {
    rt::get_strided(routine, dest, src, {Elem, sst, dst, bsize, nblocks}, pe);
}

}  // namespace

extern "C" {

// One set of routines per (CTXPREFIX, NAME, TYPE); the ctx forms check ctx.
#define GASKET_RMA_TYPED(TYPE, NAME)                                                                             \
    void shmem_##NAME##_put(TYPE* dest, const TYPE* source, size_t nelems, int pe) {                             \
        put_elems<sizeof(TYPE)>("shmem_" #NAME "_put", dest, source, nelems, pe, Completion::local);             \
    }                                                                                                            \
    void shmem_ctx_##NAME##_put(shmem_ctx_t ctx, TYPE* dest, const TYPE* source, size_t nelems, int pe) {        \
        shmem::check_ctx("shmem_ctx_" #NAME "_put", ctx);                                                        \
        put_elems<sizeof(TYPE)>("shmem_ctx_" #NAME "_put", dest, source, nelems, pe, Completion::local);         \
    }                                                                                                            \
    void shmem_##NAME##_put_nbi(TYPE* dest, const TYPE* source, size_t nelems, int pe) {                         \
        put_elems<sizeof(TYPE)>("shmem_" #NAME "_put_nbi", dest, source, nelems, pe, Completion::deferred);      \
    }                                                                                                            \
    void shmem_ctx_##NAME##_put_nbi(shmem_ctx_t ctx, TYPE* dest, const TYPE* source, size_t nelems, int pe) {    \
        shmem::check_ctx("shmem_ctx_" #NAME "_put_nbi", ctx);                                                    \
        put_elems<sizeof(TYPE)>("shmem_ctx_" #NAME "_put_nbi", dest, source, nelems, pe, Completion::deferred);  \
    }                                                                                                            \
    void shmem_##NAME##_get(TYPE* dest, const TYPE* source, size_t nelems, int pe) {                             \
        get_elems<sizeof(TYPE)>("shmem_" #NAME "_get", dest, source, nelems, pe, Completion::local);             \
    }                                                                                                            \
    void shmem_ctx_##NAME##_get(shmem_ctx_t ctx, TYPE* dest, const TYPE* source, size_t nelems, int pe) {        \
        shmem::check_ctx("shmem_ctx_" #NAME "_get", ctx);                                                        \
        get_elems<sizeof(TYPE)>("shmem_ctx_" #NAME "_get", dest, source, nelems, pe, Completion::local);         \
    }                                                                                                            \
    void shmem_##NAME##_get_nbi(TYPE* dest, const TYPE* source, size_t nelems, int pe) {                         \
        get_elems<sizeof(TYPE)>("shmem_" #NAME "_get_nbi", dest, source, nelems, pe, Completion::deferred);      \
    }                                                                                                            \
    void shmem_ctx_##NAME##_get_nbi(shmem_ctx_t ctx, TYPE* dest, const TYPE* source, size_t nelems, int pe) {    \
        shmem::check_ctx("shmem_ctx_" #NAME "_get_nbi", ctx);                                                    \
        get_elems<sizeof(TYPE)>("shmem_ctx_" #NAME "_get_nbi", dest, source, nelems, pe, Completion::deferred);  \
    }                                                                                                            \
    void shmem_##NAME##_p(TYPE* dest, TYPE value, int pe) {                                                      \
        rt::put("shmem_" #NAME "_p", dest, &value, sizeof(TYPE), pe);                                            \
    }                                                                                                            \
    void shmem_ctx_##NAME##_p(shmem_ctx_t ctx, TYPE* dest, TYPE value, int pe) {                                 \
        shmem::check_ctx("shmem_ctx_" #NAME "_p", ctx);                                                          \
        rt::put("shmem_ctx_" #NAME "_p", dest, &value, sizeof(TYPE), pe);                                        \
    }                                                                                                            \
    TYPE shmem_##NAME##_g(const TYPE* source, int pe) {                                                          \
        TYPE value;                                                                                              \
        rt::get("shmem_" #NAME "_g", &value, source, sizeof(TYPE), pe);                                          \
        return value;                                                                                            \
    }                                                                                                            \
    TYPE shmem_ctx_##NAME##_g(shmem_ctx_t ctx, const TYPE* source, int pe) {                                     \
        shmem::check_ctx("shmem_ctx_" #NAME "_g", ctx);                                                          \
        TYPE value;                                                                                              \
        rt::get("shmem_ctx_" #NAME "_g", &value, source, sizeof(TYPE), pe);                                      \
        return value;                                                                                            \
    }                                                                                                            \
    void shmem_##NAME##_iput(TYPE* dest, const TYPE* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,        \
                             int pe) {                                                                           \
        put_blocks<sizeof(TYPE)>("shmem_" #NAME "_iput", dest, source, dst, sst, 1, nelems, pe);                 \
    }                                                                                                            \
    void shmem_ctx_##NAME##_iput(shmem_ctx_t ctx, TYPE* dest, const TYPE* source, ptrdiff_t dst, ptrdiff_t sst,  \
                                 size_t nelems, int pe) {                                                        \
        shmem::check_ctx("shmem_ctx_" #NAME "_iput", ctx);                                                       \
        put_blocks<sizeof(TYPE)>("shmem_ctx_" #NAME "_iput", dest, source, dst, sst, 1, nelems, pe);             \
    }                                                                                                            \
    void shmem_##NAME##_iget(TYPE* dest, const TYPE* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,        \
                             int pe) {                                                                           \
        get_blocks<sizeof(TYPE)>("shmem_" #NAME "_iget", dest, source, dst, sst, 1, nelems, pe);                 \
    }                                                                                                            \
    void shmem_ctx_##NAME##_iget(shmem_ctx_t ctx, TYPE* dest, const TYPE* source, ptrdiff_t dst, ptrdiff_t sst,  \
                                 size_t nelems, int pe) {                                                        \
        shmem::check_ctx("shmem_ctx_" #NAME "_iget", ctx);                                                       \
        get_blocks<sizeof(TYPE)>("shmem_ctx_" #NAME "_iget", dest, source, dst, sst, 1, nelems, pe);             \
    }                                                                                                            \
    void shmem_##NAME##_ibput(TYPE* dest, const TYPE* source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,        \
                              size_t nblocks, int pe) {                                                          \
        put_blocks<sizeof(TYPE)>("shmem_" #NAME "_ibput", dest, source, dst, sst, bsize, nblocks, pe);           \
    }                                                                                                            \
    void shmem_ctx_##NAME##_ibput(shmem_ctx_t ctx, TYPE* dest, const TYPE* source, ptrdiff_t dst, ptrdiff_t sst, \
                                  size_t bsize, size_t nblocks, int pe) {                                        \
        shmem::check_ctx("shmem_ctx_" #NAME "_ibput", ctx);                                                      \
        put_blocks<sizeof(TYPE)>("shmem_ctx_" #NAME "_ibput", dest, source, dst, sst, bsize, nblocks, pe);       \
    }                                                                                                            \
    void shmem_##NAME##_ibget(TYPE* dest, const TYPE* source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,        \
                              size_t nblocks, int pe) {                                                          \
        get_blocks<sizeof(TYPE)>("shmem_" #NAME "_ibget", dest, source, dst, sst, bsize, nblocks, pe);           \
    }                                                                                                            \
    void shmem_ctx_##NAME##_ibget(shmem_ctx_t ctx, TYPE* dest, const TYPE* source, ptrdiff_t dst, ptrdiff_t sst, \
                                  size_t bsize, size_t nblocks, int pe) {                                        \
        shmem::check_ctx("shmem_ctx_" #NAME "_ibget", ctx);                                                      \
        get_blocks<sizeof(TYPE)>("shmem_ctx_" #NAME "_ibget", dest, source, dst, sst, bsize, nblocks, pe);       \
    }
GASKET_STD_RMA_TYPES(GASKET_RMA_TYPED)
#undef GASKET_RMA_TYPED

#define GASKET_RMA_SIZED(BITS, BYTES)                                                                          \
    void shmem_put##BITS(void* dest, const void* source, size_t nelems, int pe) {                              \
        put_elems<BYTES>("shmem_put" #BITS, dest, source, nelems, pe, Completion::local);                      \
    }                                                                                                          \
    void shmem_ctx_put##BITS(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe) {         \
        shmem::check_ctx("shmem_ctx_put" #BITS, ctx);                                                          \
        put_elems<BYTES>("shmem_ctx_put" #BITS, dest, source, nelems, pe, Completion::local);                  \
    }                                                                                                          \
    void shmem_put##BITS##_nbi(void* dest, const void* source, size_t nelems, int pe) {                        \
        put_elems<BYTES>("shmem_put" #BITS "_nbi", dest, source, nelems, pe, Completion::deferred);            \
    }                                                                                                          \
    void shmem_ctx_put##BITS##_nbi(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe) {   \
        shmem::check_ctx("shmem_ctx_put" #BITS "_nbi", ctx);                                                   \
        put_elems<BYTES>("shmem_ctx_put" #BITS "_nbi", dest, source, nelems, pe, Completion::deferred);        \
    }                                                                                                          \
    void shmem_get##BITS(void* dest, const void* source, size_t nelems, int pe) {                              \
        get_elems<BYTES>("shmem_get" #BITS, dest, source, nelems, pe, Completion::local);                      \
    }                                                                                                          \
    void shmem_ctx_get##BITS(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe) {         \
        shmem::check_ctx("shmem_ctx_get" #BITS, ctx);                                                          \
        get_elems<BYTES>("shmem_ctx_get" #BITS, dest, source, nelems, pe, Completion::local);                  \
    }                                                                                                          \
    void shmem_get##BITS##_nbi(void* dest, const void* source, size_t nelems, int pe) {                        \
        get_elems<BYTES>("shmem_get" #BITS "_nbi", dest, source, nelems, pe, Completion::deferred);            \
    }                                                                                                          \
    void shmem_ctx_get##BITS##_nbi(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe) {   \
        shmem::check_ctx("shmem_ctx_get" #BITS "_nbi", ctx);                                                   \
        get_elems<BYTES>("shmem_ctx_get" #BITS "_nbi", dest, source, nelems, pe, Completion::deferred);        \
    }                                                                                                          \
    void shmem_iput##BITS(void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { \
        put_blocks<BYTES>("shmem_iput" #BITS, dest, source, dst, sst, 1, nelems, pe);                          \
    }                                                                                                          \
    void shmem_ctx_iput##BITS(shmem_ctx_t ctx, void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,   \
                              size_t nelems, int pe) {                                                         \
        shmem::check_ctx("shmem_ctx_iput" #BITS, ctx);                                                         \
        put_blocks<BYTES>("shmem_ctx_iput" #BITS, dest, source, dst, sst, 1, nelems, pe);                      \
    }                                                                                                          \
    void shmem_iget##BITS(void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) { \
        get_blocks<BYTES>("shmem_iget" #BITS, dest, source, dst, sst, 1, nelems, pe);                          \
    }                                                                                                          \
    void shmem_ctx_iget##BITS(shmem_ctx_t ctx, void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,   \
                              size_t nelems, int pe) {                                                         \
        shmem::check_ctx("shmem_ctx_iget" #BITS, ctx);                                                         \
        get_blocks<BYTES>("shmem_ctx_iget" #BITS, dest, source, dst, sst, 1, nelems, pe);                      \
    }                                                                                                          \
    void shmem_ibput##BITS(void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,         \
                           size_t nblocks, int pe) {                                                           \
        put_blocks<BYTES>("shmem_ibput" #BITS, dest, source, dst, sst, bsize, nblocks, pe);                    \
    }                                                                                                          \
    void shmem_ctx_ibput##BITS(shmem_ctx_t ctx, void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,  \
                               size_t bsize, size_t nblocks, int pe) {                                         \
        shmem::check_ctx("shmem_ctx_ibput" #BITS, ctx);                                                        \
        put_blocks<BYTES>("shmem_ctx_ibput" #BITS, dest, source, dst, sst, bsize, nblocks, pe);                \
    }                                                                                                          \
    void shmem_ibget##BITS(void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,         \
                           size_t nblocks, int pe) {                                                           \
        get_blocks<BYTES>("shmem_ibget" #BITS, dest, source, dst, sst, bsize, nblocks, pe);                    \
    }                                                                                                          \
    void shmem_ctx_ibget##BITS(shmem_ctx_t ctx, void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,  \
                               size_t bsize, size_t nblocks, int pe) {                                         \
        shmem::check_ctx("shmem_ctx_ibget" #BITS, ctx);                                                        \
        get_blocks<BYTES>("shmem_ctx_ibget" #BITS, dest, source, dst, sst, bsize, nblocks, pe);                \
    }
GASKET_RMA_SIZES(GASKET_RMA_SIZED)
#undef GASKET_RMA_SIZED

void shmem_putmem(void* dest, const void* source, size_t nelems, int pe) {
    rt::put("shmem_putmem", dest, source, nelems, pe);
}
void shmem_ctx_putmem(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe) {
    shmem::check_ctx("shmem_ctx_putmem", ctx);
    rt::put("shmem_ctx_putmem", dest, source, nelems, pe);
}
void shmem_getmem(void* dest, const void* source, size_t nelems, int pe) {
    rt::get("shmem_getmem", dest, source, nelems, pe);
}
void shmem_ctx_getmem(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe) {
    shmem::check_ctx("shmem_ctx_getmem", ctx);
    rt::get("shmem_ctx_getmem", dest, source, nelems, pe);
}
void shmem_putmem_nbi(void* dest, const void* source, size_t nelems, int pe) {
    rt::put("shmem_putmem_nbi", dest, source, nelems, pe, Completion::deferred);
}
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe) {
    shmem::check_ctx("shmem_ctx_putmem_nbi", ctx);
    rt::put("shmem_ctx_putmem_nbi", dest, source, nelems, pe, Completion::deferred);
}
void shmem_getmem_nbi(void* dest, const void* source, size_t nelems, int pe) {
    rt::get("shmem_getmem_nbi", dest, source, nelems, pe, Completion::deferred);
}
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe) {
    shmem::check_ctx("shmem_ctx_getmem_nbi", ctx);
    rt::get("shmem_ctx_getmem_nbi", dest, source, nelems, pe, Completion::deferred);
}

}  // extern "C"
