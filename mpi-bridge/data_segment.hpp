// mpi-bridge/data_segment.hpp -- the executable's global and static data
// (its writable PT_LOAD segment: .data and .bss) as a symmetric segment.
//
// To let node peers load/store each other's globals directly, the segment's
// pages are moved onto POSIX shared memory at init: the contents are copied
// into a shm object, which is then mapped MAP_FIXED|MAP_SHARED over the
// same addresses, and node peers map that object too.  The program sees the
// same addresses and contents; only the backing changes.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace gasket::mpi {

struct ByteRange {
    char* begin = nullptr;
    std::size_t size = 0;       // bytes in memory (.data + .bss)
    std::size_t file_size = 0;  // leading bytes loaded from the file (.data); the rest starts as zeros
};

// The executable's writable load segment (.data + .bss), as loaded.
ByteRange executable_data();

class SharedDataSegment {
public:
    // Collective over `node_comm`.  Tries to move `range` onto shared memory
    // and map every node peer's copy.  If any process of the node fails (no
    // /dev/shm, say), ok() is false on all of them and no peer is mapped;
    // the caller then reaches globals through an MPI window only.
    SharedDataSegment(ByteRange range, MPI_Comm node_comm);
    ~SharedDataSegment();
    SharedDataSegment(const SharedDataSegment&) = delete;
    SharedDataSegment& operator=(const SharedDataSegment&) = delete;

    bool ok() const { return ok_; }
    // Node peer's copy of range.begin, or nullptr when !ok().
    char* peer(int node_rank) const { return ok_ ? peers_[node_rank] : nullptr; }

private:
    bool remap_onto_shm(const char* name);
    void copy_touched_pages(char* staging) const;

    ByteRange range_;
    char* page_begin_ = nullptr;
    std::size_t page_bytes_ = 0;
    bool ok_ = false;
    std::vector<char*> peers_;          // peer's copy of range_.begin
    std::vector<void*> peer_mappings_;  // what to munmap (page_bytes_ each)
};

}  // namespace gasket::mpi
