// shmem/mem.cpp -- §9.3 symmetric heap management, collective over all PEs.
#include <shmem.h>

#include <cstring>
#include <limits>

#include "events.hpp"
#include "src/runtime/job.hpp"
#include "src/runtime/collective.hpp"

using namespace gasket;

namespace {

// Every PE's heap base modulo `alignment` (above the heap base alignment,
// which every base honours) into `residue`, when they are all the same: then a
// block `residue` short of a multiple of `alignment` is aligned on every PE.
// False when they differ.  Local: every PE has every base (the routes).
bool heap_residue(const rt::Job& j, std::size_t alignment, std::size_t& residue) {
    residue = j.heap.route[0].base % alignment;
    for (const rt::Route& r : j.heap.route)
        if (r.base % alignment != residue) return false;
    return true;
}

void* allocate(const char* routine, std::size_t size, std::size_t alignment) {
    rt::Job& j = rt::job(routine);
    rt::check_same_everywhere(routine, "size", size);  // SHMEM_DEBUG only
    if (size == 0) return nullptr;                     // no action, no barrier
    std::size_t residue = 0;
    if (alignment > j.heap_base_alignment() && !heap_residue(j, alignment, residue)) {
        rt::barrier_all(routine);
        rt::error(routine,
                  "alignment %zu is larger than the symmetric heap can honour: every PE's heap starts on a %zu-byte "
                  "boundary (SHMEM_SYMMETRIC_SIZE rounded down to a power of two, at most 1 GiB) and the bases "
                  "differ modulo %zu: returning NULL",
                  alignment, j.heap_base_alignment(), alignment);
        return nullptr;
    }
    auto offset = j.allocator.allocate(size, alignment, residue);
    rt::barrier_all(routine);
    if (!offset) {
        rt::debug(routine,
                  "symmetric heap exhausted: %zu bytes requested, largest free block %zu of %zu bytes "
                  "(raise SHMEM_SYMMETRIC_SIZE)",
                  size, j.allocator.largest_free(), j.allocator.capacity());
        return nullptr;
    }
    return j.heap.base + *offset;
}

// The heap offset of a live block, or fatal naming the pointer.
std::size_t block_offset(const char* routine, rt::Job& j, void* ptr) {
    if (!j.heap.contains(ptr))
        rt::fatal(routine, "%p is not in the symmetric heap [%p, %p)", ptr, static_cast<void*>(j.heap.base),
                  static_cast<void*>(j.heap.base + j.heap.size));
    const std::size_t offset = j.heap.offset_of(ptr);
    if (!j.allocator.block_size(offset))
        rt::fatal(routine, "%p is not a block returned by the symmetric heap allocator (or was freed already)", ptr);
    return offset;
}

// GASP_SHMEM_MALLOC S/E around `allocate_it` (include/gasp_shmem.h).
template <class F>
void* malloc_event(std::size_t nbytes, std::size_t align, long hints, F allocate_it) {
    if (!gasp::on()) [[likely]]
        return allocate_it();
    gasp::notify(GASP_SHMEM_MALLOC, GASP_START, nbytes, align, hints);
    void* ptr = allocate_it();
    gasp::notify(GASP_SHMEM_MALLOC, GASP_END, nbytes, align, hints, ptr);
    return ptr;
}

void free_block(void* ptr) {
    if (!ptr) return;
    rt::Job& j = rt::job("shmem_free");
    rt::barrier_all("shmem_free");
    j.allocator.release(block_offset("shmem_free", j, ptr));
}

void* realloc_block(void* ptr, size_t size);

}  // namespace

extern "C" {

void* shmem_malloc(size_t size) noexcept {
    return malloc_event(size, 0, 0, [&] { return allocate("shmem_malloc", size, rt::HeapAllocator::kGranule); });
}

void* shmem_malloc_with_hints(size_t size, long hints) noexcept {
    // Hints only guide optimisation (§9.3.5): unknown bits are noted, not
    // refused.
    constexpr long known = SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE;
    if (hints & ~known)
        rt::debug("shmem_malloc_with_hints",
                  "unknown hint bits 0x%lx ignored (known: SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE)",
                  hints & ~known);
    return malloc_event(size, 0, hints,
                        [&] { return allocate("shmem_malloc_with_hints", size, rt::HeapAllocator::kGranule); });
}

void* shmem_align(size_t alignment, size_t size) noexcept {
    return malloc_event(size, alignment, 0, [&]() -> void* {
        const char* routine = "shmem_align";
        // The spec asks for a power of two that is a multiple of sizeof(void*);
        // smaller powers of two are honoured too (every block is 64-byte
        // aligned), as other implementations do.
        if (alignment == 0 || (alignment & (alignment - 1)) != 0)
            rt::fatal(routine, "alignment %zu is not a power of two", alignment);
        rt::check_same_everywhere(routine, "alignment", alignment);  // SHMEM_DEBUG only
        return allocate(routine, size, alignment);
    });
}

void* shmem_calloc(size_t count, size_t size) noexcept {
    const size_t nbytes = count > 0 && size > std::numeric_limits<size_t>::max() / count ? SIZE_MAX : count * size;
    return malloc_event(nbytes, 0, 0, [&]() -> void* {
        rt::Job& j = rt::job("shmem_calloc");
        rt::check_same_everywhere("shmem_calloc", "count", count);  // SHMEM_DEBUG only
        rt::check_same_everywhere("shmem_calloc", "size", size);
        if (count == 0 || size == 0) return nullptr;
        if (count > std::numeric_limits<size_t>::max() / size) {
            rt::debug("shmem_calloc", "count %zu * size %zu overflows", count, size);
            return nullptr;
        }
        auto offset = j.allocator.allocate(count * size);
        if (offset) std::memset(j.heap.base + *offset, 0, count * size);
        rt::barrier_all("shmem_calloc");
        if (!offset) {
            rt::debug("shmem_calloc", "symmetric heap exhausted: %zu bytes requested", count * size);
            return nullptr;
        }
        return j.heap.base + *offset;
    });
}

void shmem_free(void* ptr) noexcept {
    if (!gasp::on()) [[likely]]
        return free_block(ptr);
    gasp::notify(GASP_SHMEM_FREE, GASP_START, ptr);
    free_block(ptr);
    gasp::notify(GASP_SHMEM_FREE, GASP_END, ptr);
}

void* shmem_realloc(void* ptr, size_t size) noexcept {
    if (!gasp::on()) [[likely]]
        return realloc_block(ptr, size);
    gasp::notify(GASP_SHMEM_REALLOC, GASP_START, ptr, size);
    void* result = realloc_block(ptr, size);
    gasp::notify(GASP_SHMEM_REALLOC, GASP_END, ptr, size, result);
    return result;
}

}  // extern "C"

namespace {

// shmem_realloc (NULL: a malloc, size 0: a free, raising those events too).
void* realloc_block(void* ptr, size_t size) {
    if (!ptr) return shmem_malloc(size);
    rt::check_same_everywhere("shmem_realloc", "size", size);  // SHMEM_DEBUG only
    if (size == 0) {
        shmem_free(ptr);
        return nullptr;
    }
    rt::Job& j = rt::job("shmem_realloc");
    const std::size_t offset = block_offset("shmem_realloc", j, ptr);
    rt::barrier_all("shmem_realloc");
    void* result = ptr;
    if (!j.allocator.resize_in_place(offset, size)) {
        const std::size_t old = *j.allocator.block_size(offset);
        auto moved = j.allocator.allocate(size);
        if (moved) {
            std::memcpy(j.heap.base + *moved, ptr, std::min(old, size));
            j.allocator.release(offset);
            result = j.heap.base + *moved;
        } else {
            rt::debug("shmem_realloc", "symmetric heap exhausted: %zu bytes requested; block %p unchanged", size, ptr);
            result = nullptr;
        }
    }
    rt::barrier_all("shmem_realloc");
    return result;
}

}  // namespace
