// src/runtime/rma.cpp -- strided transfers.
#include "rma.hpp"

namespace gasket::rt {

namespace {

// Bytes from the first to one past the last element a strided shape touches
// on one side, and the lowest element offset (strides may be negative).
struct Extent {
    std::ptrdiff_t low, high;  // bytes, relative to the base pointer
};

Extent extent_of(const Strided& s, std::ptrdiff_t stride) {
    const auto last = std::ptrdiff_t(s.nblocks - 1) * stride * std::ptrdiff_t(s.elem);
    const auto block = std::ptrdiff_t(s.bsize * s.elem);
    return {std::min<std::ptrdiff_t>(0, last), std::max<std::ptrdiff_t>(0, last) + block};
}

void copy_blocks(char* to, std::ptrdiff_t to_stride, const char* from, std::ptrdiff_t from_stride, const Strided& s) {
    const std::size_t block = s.bsize * s.elem;
    const auto es = std::ptrdiff_t(s.elem);
    for (std::size_t b = 0; b < s.nblocks; ++b)
        std::memmove(to + std::ptrdiff_t(b) * to_stride * es, from + std::ptrdiff_t(b) * from_stride * es, block);
}

// Checks the whole symmetric extent and returns the target of its base
// (world PE `pe`, through ctx's windows).
Target resolve_strided(Context& ctx, const char* routine, const void* symmetric, const Strided& s, int pe) {
    const Extent e = extent_of(s, s.remote_stride);
    const char* low = static_cast<const char*>(symmetric) + e.low;
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
