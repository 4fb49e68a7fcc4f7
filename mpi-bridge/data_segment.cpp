// mpi-bridge/data_segment.cpp -- find .data/.bss and move it onto shared memory.
#include "data_segment.hpp"

#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "check.hpp"

namespace gasket::mpi {

namespace {

std::uintptr_t page_size() { return std::uintptr_t(sysconf(_SC_PAGESIZE)); }

int find_rw_load(struct dl_phdr_info* info, std::size_t, void* out) {
    // The first object reported is the executable itself.
    auto* range = static_cast<ByteRange*>(out);
    std::uintptr_t begin = 0, mem_end = 0, file_end = 0, relro_begin = 0, relro_end = 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        const std::uintptr_t at = info->dlpi_addr + ph.p_vaddr;
        if (ph.p_type == PT_LOAD && (ph.p_flags & PF_W) && begin == 0) {
            begin = at;
            mem_end = at + ph.p_memsz;
            file_end = at + ph.p_filesz;
        } else if (ph.p_type == PT_GNU_RELRO) {
            relro_begin = at;
            relro_end = at + ph.p_memsz;
        }
    }
    if (begin == 0) return 1;
    // The loader write-protects RELRO from its start down to the page
    // holding its end (glibc's _dl_protect_relro rounds the end down): that
    // must stay private and read-only, so the data starts past RELRO.
    if (relro_end > begin && relro_begin < mem_end) begin = std::max(begin, relro_end);
    if (begin >= mem_end) return 1;
    range->begin = reinterpret_cast<char*>(begin);
    range->size = mem_end - begin;
    range->file_size = file_end > begin ? file_end - begin : 0;
    return 1;  // stop after the executable
}

// Copies whole pages of .data/.bss.  Under AddressSanitizer those pages hold
// redzones around every global, poisoned in ASan's shadow: memcpy (which ASan
// intercepts) would report them.  Nothing here is read as a C++ object, so
// the copy is done uninstrumented, word by word; the volatile loads keep the
// compiler from turning the loop back into a call to memcpy.
__attribute__((no_sanitize_address, no_sanitize_thread)) void copy_words(char* dst, const char* src,
                                                                         std::size_t bytes) {
    auto* d = reinterpret_cast<std::uint64_t*>(dst);
    const auto* s = reinterpret_cast<const volatile std::uint64_t*>(src);
    for (std::size_t i = 0; i < bytes / sizeof(std::uint64_t); ++i) d[i] = s[i];
}

}  // namespace

ByteRange executable_data() {
    ByteRange range;
    dl_iterate_phdr(find_rw_load, &range);
    return range;
}

int SharedDataSegment::remap_onto_memfd() {
    // No name: the memory goes away with the last process mapping it, however
    // that process ends (a PE killed during start-up leaves nothing behind).
    int fd = memfd_create("gasket-globals", MFD_CLOEXEC);
    if (fd < 0) {
        why_ = "memfd_create failed";
        return -1;
    }
    void* staging = MAP_FAILED;
    if (ftruncate(fd, off_t(page_bytes_)) != 0)
        why_ = "ftruncate of the memfd failed";
    else if ((staging = mmap(nullptr, page_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED)
        why_ = "mmap of the memfd failed";
    if (staging == MAP_FAILED) {
        close(fd);
        return -1;
    }
    // No other thread of this process writes .data/.bss during init:
    // copy, then swap the backing in one mmap call.
    copy_touched_pages(static_cast<char*>(staging));
    void* fixed = mmap(page_begin_, page_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
    munmap(staging, page_bytes_);
    if (fixed != page_begin_) {
        why_ = "mmap(MAP_FIXED) over the data segment failed";
        close(fd);
        return -1;
    }
    return fd;
}

void SharedDataSegment::copy_touched_pages(char* staging) const {
    // Pages past the file-backed part that were never touched are zeros,
    // as the fresh memfd already is: skip them (mincore), so a large,
    // mostly unused .bss costs no shared memory.
    const std::size_t page = page_size();
    const std::size_t pages = page_bytes_ / page;
    const std::size_t file_end = std::size_t(range_.begin - page_begin_) + range_.file_size;
    std::vector<unsigned char> resident(pages, 1);
    if (mincore(page_begin_, page_bytes_, resident.data()) != 0) resident.assign(pages, 1);
    for (std::size_t i = 0; i < pages; ++i) {
        const bool zero_fill = i * page >= (file_end + page - 1) / page * page;
        if (!zero_fill || (resident[i] & 1)) copy_words(staging + i * page, page_begin_ + i * page, page);
    }
}

bool SharedDataSegment::map_peers(MPI_Comm node_comm, int node_rank, int node_size, int my_fd) {
    // Each process's memfd, as (pid, fd): a peer opens /proc/<pid>/fd/<fd>,
    // which reopens the same memory file (no name anywhere).
    long mine[2] = {long(getpid()), long(my_fd)};
    std::vector<long> all(2 * std::size_t(node_size));
    check(MPI_Allgather(mine, 2, MPI_LONG, all.data(), 2, MPI_LONG, node_comm), "MPI_Allgather");
    int ok = 1;
    for (int r = 0; r < node_size; ++r)
        if (all[2 * r + 1] < 0) {
            ok = 0;
            if (my_fd >= 0) why_ = "a node peer could not move its globals onto shared memory";
        }
    peers_.assign(node_size, nullptr);
    peer_mappings_.assign(node_size, nullptr);
    const std::size_t lead = std::size_t(range_.begin - page_begin_);
    for (int r = 0; r < node_size && ok; ++r) {
        if (r == node_rank) {
            peers_[r] = range_.begin;
            continue;
        }
        const std::string path = "/proc/" + std::to_string(all[2 * r]) + "/fd/" + std::to_string(all[2 * r + 1]);
        int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
        void* map = fd >= 0 ? mmap(nullptr, page_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
        if (fd >= 0) close(fd);
        if (map == MAP_FAILED) {
            why_ = fd < 0 ? "cannot open a node peer's memfd through /proc/<pid>/fd"
                          : "mmap of a node peer's memfd failed";
            ok = 0;
            break;
        }
        peer_mappings_[r] = map;
        peers_[r] = static_cast<char*>(map) + lead;
    }
    // After this, every peer has opened (or given up on) every memfd.
    int all_ok = 0;
    check(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, node_comm), "MPI_Allreduce");
    if (ok && !all_ok) why_ = "a node peer could not map this process's globals";
    return all_ok != 0;
}

SharedDataSegment::SharedDataSegment(ByteRange range, MPI_Comm node_comm) : range_(range) {
    int node_rank = 0, node_size = 1;
    check(MPI_Comm_rank(node_comm, &node_rank), "MPI_Comm_rank");
    check(MPI_Comm_size(node_comm, &node_size), "MPI_Comm_size");
    const auto page = page_size();
    auto begin = reinterpret_cast<std::uintptr_t>(range.begin) & ~(page - 1);
    auto end = (reinterpret_cast<std::uintptr_t>(range.begin) + range.size + page - 1) & ~(page - 1);
    page_begin_ = reinterpret_cast<char*>(begin);
    page_bytes_ = end - begin;

    int my_fd = -1;
    if (range.size > 0)
        my_fd = remap_onto_memfd();
    else
        why_ = "no data segment";
    ok_ = map_peers(node_comm, node_rank, node_size, my_fd);
    if (my_fd >= 0) close(my_fd);  // the mappings keep the memory
    if (!ok_) {
        for (void* map : peer_mappings_)
            if (map) munmap(map, page_bytes_);
        peer_mappings_.clear();
        peers_.clear();
    } else {
        why_ = "";
    }
}

SharedDataSegment::~SharedDataSegment() {
    // The process's own data stays on its shared pages until exit; only the
    // peers' mappings are released.
    for (void* map : peer_mappings_)
        if (map) munmap(map, page_bytes_);
}

}  // namespace gasket::mpi
