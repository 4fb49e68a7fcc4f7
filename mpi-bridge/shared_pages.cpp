// mpi-bridge/shared_pages.cpp -- shared_pages.hpp.
#include "shared_pages.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <string>

namespace gasket::mpi {

SharedPages::SharedPages(std::size_t bytes) {
    fd_ = memfd_create("gasket-segment", MFD_CLOEXEC);
    if (fd_ < 0) {
        why_ = "memfd_create failed";
        return;
    }
    void* map = MAP_FAILED;
    if (ftruncate(fd_, off_t(bytes)) != 0)
        why_ = "ftruncate of the memory file failed";
    else if ((map = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0)) == MAP_FAILED)
        why_ = "mmap of the memory file failed";
    if (map == MAP_FAILED) {
        close(fd_);
        fd_ = -1;
        return;
    }
    base_ = static_cast<char*>(map);
    bytes_ = bytes;
}

SharedPages::~SharedPages() {
    if (base_) munmap(base_, bytes_);
    if (fd_ >= 0) close(fd_);
}

int SharedPages::pid() const { return int(getpid()); }

char* SharedPages::map_peer(int pid, int fd, std::size_t bytes) {
    const std::string path = "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd);
    const int opened = open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (opened < 0) return nullptr;
    void* map = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, opened, 0);
    close(opened);
    return map == MAP_FAILED ? nullptr : static_cast<char*>(map);
}

void SharedPages::unmap_peer(char* base, std::size_t bytes) { munmap(base, bytes); }

}  // namespace gasket::mpi
