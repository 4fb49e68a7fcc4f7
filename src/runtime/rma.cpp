// src/runtime/rma.cpp -- strided transfers.
#include "rma.hpp"

#include <algorithm>

namespace gasket::rt {

namespace {

// Bytes from the first to one past the last element a strided shape touches
// on one side, and the lowest element offset (strides may be negative).
struct Extent {
    std::ptrdiff_t low, high;  // bytes, relative to the base pointer
};

[[noreturn, gnu::cold]] void shape_overflows(const char* routine, const Strided& s, std::ptrdiff_t stride) {
    fatal(routine,
          "%zu blocks of %zu elements of %zu bytes, %td elements apart, span more bytes than the address space "
          "holds (the size overflows)",
          s.nblocks, s.bsize, s.elem, stride);
}

// Every product and sum checked: a shape whose span does not fit in
// ptrdiff_t is fatal, naming `routine` (nblocks, bsize >= 1).
Extent extent_of(const char* routine, const Strided& s, std::ptrdiff_t stride) {
    std::ptrdiff_t block, step, last, high, span;
    if (__builtin_mul_overflow(s.bsize, s.elem, &block) || __builtin_mul_overflow(stride, s.elem, &step) ||
        __builtin_mul_overflow(s.nblocks - 1, step, &last) ||
        __builtin_add_overflow(std::max<std::ptrdiff_t>(0, last), block, &high) ||
        __builtin_sub_overflow(high, std::min<std::ptrdiff_t>(0, last), &span)) [[unlikely]]
        shape_overflows(routine, s, stride);
    return {std::min<std::ptrdiff_t>(0, last), high};
}

// Both sides' extents fit in ptrdiff_t (extent_of), so no offset here
// overflows.
void copy_blocks(char* to, std::ptrdiff_t to_stride, const char* from, std::ptrdiff_t from_stride, const Strided& s) {
    const std::size_t block = s.bsize * s.elem;
    const auto es = std::ptrdiff_t(s.elem);
    for (std::size_t b = 0; b < s.nblocks; ++b)
        std::memmove(to + std::ptrdiff_t(b) * to_stride * es, from + std::ptrdiff_t(b) * from_stride * es, block);
}

// Checks the whole symmetric extent and returns the target of its base
// (world PE `pe`, through ctx's windows).  The local side's extent is
// checked for overflow too (its addresses are the program's to get right).
Target resolve_strided(Context& ctx, const char* routine, const void* symmetric, const Strided& s, int pe) {
    (void)extent_of(routine, s, s.local_stride);
    const Extent e = extent_of(routine, s, s.remote_stride);
    // (Integer arithmetic: a shape reaching below the segment is an error
    // that translate reports, not a pointer to form.)
    const auto* low =
        reinterpret_cast<const char*>(reinterpret_cast<std::uintptr_t>(symmetric) + std::uintptr_t(e.low));
    const std::size_t bytes = std::size_t(e.high - e.low);
    const Target lo = ctx.resolve(routine, low, bytes, pe);
    return {lo.direct ? lo.direct - e.low : nullptr, lo.window, lo.disp - e.low};
}

}  // namespace

void put_strided(Context& ctx, const char* routine, void* dest, const void* src, const Strided& s, int pe) {
    pe = ctx.world_pe(routine, pe);
    if (s.nblocks == 0 || s.bsize == 0) return ctx.job().check_pe(routine, pe);
    const Target t = resolve_strided(ctx, routine, dest, s, pe);
    if (t.direct) {
        copy_blocks(t.direct, s.remote_stride, static_cast<const char*>(src), s.local_stride, s);
        ctx.note_direct_store();
    } else
        t.window->put_strided(src, s.elem, s.remote_stride, s.local_stride, s.bsize, s.nblocks, pe, t.disp);
}

void get_strided(Context& ctx, const char* routine, void* dest, const void* src, const Strided& s, int pe) {
    pe = ctx.world_pe(routine, pe);
    if (s.nblocks == 0 || s.bsize == 0) return ctx.job().check_pe(routine, pe);
    const Target t = resolve_strided(ctx, routine, src, s, pe);
    if (t.direct)
        copy_blocks(static_cast<char*>(dest), s.local_stride, t.direct, s.remote_stride, s);
    else
        t.window->get_strided(dest, s.elem, s.remote_stride, s.local_stride, s.bsize, s.nblocks, pe, t.disp);
}

}  // namespace gasket::rt
