// shmem/mem.cpp -- §9.3 symmetric heap management, collective over all PEs.
#include <shmem.h>

#include <cstring>
#include <limits>

#include "src/runtime/job.hpp"
#include "src/runtime/collective.hpp"

using namespace gasket;

namespace {

void* allocate(const char* routine, std::size_t size, std::size_t alignment) {
    rt::Job& j = rt::job(routine);
    if (size == 0) return nullptr;  // no action, no barrier
    auto offset = j.allocator.allocate(size, alignment);
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

}  // namespace

extern "C" {

void* shmem_malloc(size_t size) noexcept { return allocate("shmem_malloc", size, rt::HeapAllocator::kGranule); }

void* shmem_malloc_with_hints(size_t size, long hints) noexcept {
    constexpr long known = SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE;
    if (hints & ~known)
        rt::fatal("shmem_malloc_with_hints",
                  "unknown hint bits 0x%lx (known: SHMEM_MALLOC_ATOMICS_REMOTE, "
                  "SHMEM_MALLOC_SIGNAL_REMOTE)",
                  hints & ~known);
    return allocate("shmem_malloc_with_hints", size, rt::HeapAllocator::kGranule);
}

void* shmem_align(size_t alignment, size_t size) noexcept {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment % sizeof(void*) != 0)
        rt::fatal("shmem_align", "alignment %zu is not a power of two multiple of sizeof(void*)", alignment);
    if (alignment > rt::kHeapAlignment)
        rt::fatal("shmem_align",
                  "alignment %zu exceeds %zu bytes, the alignment of every PE's heap base, so the "
                  "block could not be aligned and symmetric at once",
                  alignment, rt::kHeapAlignment);
    return allocate("shmem_align", size, alignment);
}

void* shmem_calloc(size_t count, size_t size) noexcept {
    rt::Job& j = rt::job("shmem_calloc");
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
}

void shmem_free(void* ptr) noexcept {
    if (!ptr) return;
    rt::Job& j = rt::job("shmem_free");
    rt::barrier_all("shmem_free");
    j.allocator.release(block_offset("shmem_free", j, ptr));
}

void* shmem_realloc(void* ptr, size_t size) noexcept {
    if (!ptr) return shmem_malloc(size);
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

}  // extern "C"
