// src/runtime/heap_allocator.cpp
#include "heap_allocator.hpp"

#include <algorithm>

namespace gasket::rt {

namespace {
constexpr std::size_t round_up(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }
}  // namespace

HeapAllocator::HeapAllocator(std::size_t capacity) : capacity_(capacity / kGranule * kGranule) {
    if (capacity_ > 0) free_.emplace(0, capacity_);
}

std::optional<std::size_t> HeapAllocator::allocate(std::size_t size, std::size_t alignment, std::size_t base_residue) {
    if (size > capacity_) return std::nullopt;
    size = round_up(std::max<std::size_t>(size, 1), kGranule);
    alignment = std::max(alignment, kGranule);
    // Offsets o with (base_residue + o) % alignment == 0 (no sum can wrap:
    // every term is below the alignment).
    const std::size_t want = (alignment - base_residue % alignment) % alignment;
    for (auto it = free_.begin(); it != free_.end(); ++it) {
        const std::size_t start = it->first, len = it->second;
        const std::size_t skip = (want + alignment - start % alignment) % alignment;
        if (skip > len || len - skip < size) continue;
        const std::size_t aligned = start + skip;
        free_.erase(it);
        if (aligned > start) free_.emplace(start, aligned - start);
        const std::size_t tail = start + len - (aligned + size);
        if (tail > 0) free_.emplace(aligned + size, tail);
        used_.emplace(aligned, size);
        return aligned;
    }
    return std::nullopt;
}

void HeapAllocator::insert_free(std::size_t offset, std::size_t size) {
    auto next = free_.lower_bound(offset);
    if (next != free_.end() && offset + size == next->first) {
        size += next->second;
        next = free_.erase(next);
    }
    if (next != free_.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == offset) {
            prev->second += size;
            return;
        }
    }
    free_.emplace(offset, size);
}

bool HeapAllocator::release(std::size_t offset) {
    auto it = used_.find(offset);
    if (it == used_.end()) return false;
    const std::size_t size = it->second;
    used_.erase(it);
    insert_free(offset, size);
    return true;
}

bool HeapAllocator::resize_in_place(std::size_t offset, std::size_t size) {
    auto it = used_.find(offset);
    if (it == used_.end() || size > capacity_ - offset) return false;  // (offset < capacity_: a live block)
    size = round_up(std::max<std::size_t>(size, 1), kGranule);
    const std::size_t old = it->second;
    if (size <= old) {
        it->second = size;
        if (size < old) insert_free(offset + size, old - size);
        return true;
    }
    auto next = free_.find(offset + old);
    if (next == free_.end() || next->second < size - old) return false;
    const std::size_t rest = next->second - (size - old);
    free_.erase(next);
    if (rest > 0) free_.emplace(offset + size, rest);
    it->second = size;
    return true;
}

std::optional<std::size_t> HeapAllocator::block_size(std::size_t offset) const {
    auto it = used_.find(offset);
    if (it == used_.end()) return std::nullopt;
    return it->second;
}

std::size_t HeapAllocator::bytes_in_use() const {
    std::size_t n = 0;
    for (const auto& [off, size] : used_) n += size;
    return n;
}

std::size_t HeapAllocator::largest_free() const {
    std::size_t best = 0;
    for (const auto& [off, size] : free_) best = std::max(best, size);
    return best;
}

}  // namespace gasket::rt
