// src/runtime/heap_allocator.hpp -- the symmetric heap's allocator.
//
// Works on offsets into a heap of `capacity` bytes and keeps its bookkeeping
// outside the heap.  Deterministic: the same sequence of calls gives the same
// offsets on every PE, which is what makes heap objects symmetric.  First fit
// in address order; freed blocks coalesce with free neighbours.  Pure logic,
// no MPI: unit-tested on its own.
#pragma once

#include <cstddef>
#include <map>
#include <optional>

namespace gasket::rt {

class HeapAllocator {
public:
    // Every block starts on this boundary (a cache line; also >= max_align_t).
    static constexpr std::size_t kGranule = 64;

    explicit HeapAllocator(std::size_t capacity);

    // Offset of a new block of >= `size` bytes (bytes) whose address
    // `base + offset` is aligned to `alignment` (a power of two; values below
    // kGranule are raised to it) for a heap starting at an address that is
    // `base_residue` past a multiple of `alignment` (0: an aligned base), or
    // nullopt when no free range fits (never an overflow: any size or
    // alignment is accepted).  size 0 is treated as 1.
    std::optional<std::size_t> allocate(std::size_t size, std::size_t alignment = kGranule,
                                        std::size_t base_residue = 0);
    // Frees the live block at `offset`; false if there is none.
    bool release(std::size_t offset);
    // Grows or shrinks the live block at `offset` (bytes) without moving it;
    // false if there is no such block, the bytes after it are not free, or
    // `size` is larger than the heap (never an overflow).
    bool resize_in_place(std::size_t offset, std::size_t size);
    // Usable bytes of the live block at `offset`, or nullopt.
    std::optional<std::size_t> block_size(std::size_t offset) const;

    std::size_t capacity() const { return capacity_; }
    std::size_t bytes_in_use() const;
    std::size_t largest_free() const;
    std::size_t free_ranges() const { return free_.size(); }

private:
    void insert_free(std::size_t offset, std::size_t size);  // coalescing

    std::size_t capacity_;
    std::map<std::size_t, std::size_t> free_;  // offset -> bytes
    std::map<std::size_t, std::size_t> used_;  // offset -> bytes
};

}  // namespace gasket::rt
