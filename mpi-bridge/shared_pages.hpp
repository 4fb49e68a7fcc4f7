// mpi-bridge/shared_pages.hpp -- zeroed pages that node peers can map: an
// anonymous memory file (memfd_create), which a peer opens through
// /proc/<pid>/fd/<fd> (as data_segment.hpp's globals).  It has no name, so
// nothing is left behind however the processes end.  GASNet-EX segments
// made by gex_Segment_Create live in such pages, so node peers reach them
// by load and store.
#pragma once

#include <cstddef>

namespace gasket::mpi {

class SharedPages {
public:
    // `bytes` (> 0, a multiple of the page size) of zeroed pages mapped here,
    // or !ok() with why() naming the failed call.
    explicit SharedPages(std::size_t bytes);
    ~SharedPages();  // unmaps them and closes the file (peers' mappings stay valid)
    SharedPages(const SharedPages&) = delete;
    SharedPages& operator=(const SharedPages&) = delete;

    bool ok() const { return base_ != nullptr; }
    const char* why() const { return why_; }
    char* base() const { return base_; }
    std::size_t size() const { return bytes_; }
    // What a node peer passes to map_peer: this process's id and the file's descriptor.
    int pid() const;
    int fd() const { return fd_; }

    // Maps `bytes` of the pages (pid, fd) of a process on this node here,
    // or returns null (nothing mapped) when they cannot be opened or mapped.
    // unmap_peer undoes it.
    static char* map_peer(int pid, int fd, std::size_t bytes);
    static void unmap_peer(char* base, std::size_t bytes);

private:
    int fd_ = -1;
    char* base_ = nullptr;
    std::size_t bytes_ = 0;
    const char* why_ = "";
};

}  // namespace gasket::mpi
