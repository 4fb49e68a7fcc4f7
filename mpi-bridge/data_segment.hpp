// mpi-bridge/data_segment.hpp -- the executable's global and static data
// (.data and .bss: its first writable PT_LOAD segment past the RELRO range)
// as a symmetric segment.
//
// To let node peers load/store each other's globals directly, the segment's
// pages are moved onto shared memory at init: the contents are copied into
// an anonymous memory file (memfd_create: it has no name, so nothing is left
// behind in /dev/shm whenever a process dies), which is then mapped
// MAP_FIXED|MAP_SHARED over the same addresses; node peers open it through
// /proc/<pid>/fd/<fd> and map it too.  The program sees the same addresses
// and contents; only the backing changes.
//
// The RELRO part of that load segment (.init_array, .fini_array, .dynamic,
// .got: made read-only by the dynamic loader after relocation) is never
// part of the range: it stays private and read-only.
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

// The executable's writable data (.data + .bss), as loaded: its first
// writable load segment, less the part the dynamic loader write-protects
// after relocation (PT_GNU_RELRO, page-rounded down as the loader does).
ByteRange executable_data();

class SharedDataSegment {
public:
    // Collective over `node_comm`.  Tries to move `range` onto shared memory
    // and map every node peer's copy.  If any process of the node fails (no
    // memfd, or /proc/<pid>/fd of a peer cannot be opened, say), ok() is
    // false on all of them and no peer is mapped (why(): the first reason
    // seen here); the caller then reaches globals through an MPI window only.
    SharedDataSegment(ByteRange range, MPI_Comm node_comm);
    ~SharedDataSegment();
    SharedDataSegment(const SharedDataSegment&) = delete;
    SharedDataSegment& operator=(const SharedDataSegment&) = delete;

    bool ok() const { return ok_; }
    // Why !ok() (a static string naming the failed call), or "" when ok().
    const char* why() const { return why_; }
    // Node peer's copy of range.begin, or nullptr when !ok().
    char* peer(int node_rank) const { return ok_ ? peers_[node_rank] : nullptr; }

private:
    int remap_onto_memfd();
    void copy_touched_pages(char* staging) const;
    bool map_peers(MPI_Comm node_comm, int node_rank, int node_size, int my_fd);

    ByteRange range_;
    char* page_begin_ = nullptr;
    std::size_t page_bytes_ = 0;
    bool ok_ = false;
    const char* why_ = "";
    std::vector<char*> peers_;          // peer's copy of range_.begin
    std::vector<void*> peer_mappings_;  // what to munmap (page_bytes_ each)
};

}  // namespace gasket::mpi
