// src/runtime/node_pages.hpp -- memory that node peers can map, for
// GASNet-EX segments made by gex_Segment_Create (GASNet-allocated): zeroed
// pages of an unnamed memory file (mpi-bridge/shared_pages.hpp), which a
// peer on this node maps by (pid, fd) once the segment is published, so
// the node fast path reaches created segments by load and store as it
// reaches the attach segment.
#pragma once

#include <cstddef>
#include <memory>

namespace gasket::mpi {
class SharedPages;
}

namespace gasket::rt {

class NodePages {
public:
    // `bytes` (> 0, a multiple of the page size) of zeroed pages, or !ok()
    // (the caller falls back to private memory; why() names the failed call).
    explicit NodePages(std::size_t bytes);
    ~NodePages();  // unmapped here; peers' mappings stay valid until they unmap them
    NodePages(const NodePages&) = delete;
    NodePages& operator=(const NodePages&) = delete;

    bool ok() const;
    const char* why() const;
    char* base() const;
    // What a node peer passes to map_peer.
    int pid() const;
    int fd() const;

    // `bytes` of the pages (pid, fd) of a process on this node, mapped here,
    // or null when they cannot be (the caller keeps to MPI); unmap_peer
    // undoes it.
    static char* map_peer(int pid, int fd, std::size_t bytes);
    static void unmap_peer(char* base, std::size_t bytes);

private:
    std::unique_ptr<mpi::SharedPages> pages_;
};

}  // namespace gasket::rt
