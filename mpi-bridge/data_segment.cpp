// mpi-bridge/data_segment.cpp -- find .data/.bss and move it onto shm.
#include "data_segment.hpp"

#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "check.hpp"

namespace gasket::mpi {

namespace {

int find_rw_load(struct dl_phdr_info* info, std::size_t, void* out) {
    // The first object reported is the executable itself.
    auto* range = static_cast<ByteRange*>(out);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        if (ph.p_type == PT_LOAD && (ph.p_flags & PF_W)) {
            range->begin = reinterpret_cast<char*>(info->dlpi_addr + ph.p_vaddr);
            range->size = ph.p_memsz;
            range->file_size = ph.p_filesz;
            break;
        }
    }
    return 1;  // stop after the executable
}

std::string shm_name(unsigned long job_tag, int node_rank) {
    return "/gasket." + std::to_string(job_tag) + "." + std::to_string(node_rank);
}

}  // namespace

ByteRange executable_data() {
    ByteRange range;
    dl_iterate_phdr(find_rw_load, &range);
    return range;
}

bool SharedDataSegment::remap_onto_shm(const char* name) {
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) return false;
    bool ok = ftruncate(fd, off_t(page_bytes_)) == 0;
    void* staging = ok ? mmap(nullptr, page_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    if (staging == MAP_FAILED) ok = false;
    if (ok) {
        // No other thread of this process writes .data/.bss during init:
        // copy, then swap the backing in one mmap call.
        copy_touched_pages(static_cast<char*>(staging));
        void* fixed = mmap(page_begin_, page_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
        ok = fixed == page_begin_;
        munmap(staging, page_bytes_);
    }
    close(fd);
    if (!ok) shm_unlink(name);
    return ok;
}

void SharedDataSegment::copy_touched_pages(char* staging) const {
    // Pages past the file-backed part that were never touched are zeros,
    // as the fresh shm object already is: skip them (mincore), so a large,
    // mostly unused .bss costs no shared memory.
    const std::size_t page = std::size_t(sysconf(_SC_PAGESIZE));
    const std::size_t pages = page_bytes_ / page;
    const std::size_t file_end = std::size_t(range_.begin - page_begin_) + range_.file_size;
    std::vector<unsigned char> resident(pages, 1);
    if (mincore(page_begin_, page_bytes_, resident.data()) != 0) resident.assign(pages, 1);
    for (std::size_t i = 0; i < pages; ++i) {
        const bool zero_fill = i * page >= (file_end + page - 1) / page * page;
        if (!zero_fill || (resident[i] & 1)) std::memcpy(staging + i * page, page_begin_ + i * page, page);
    }
}

SharedDataSegment::SharedDataSegment(ByteRange range, MPI_Comm node_comm) : range_(range) {
    int node_rank = 0, node_size = 1;
    check(MPI_Comm_rank(node_comm, &node_rank), "MPI_Comm_rank");
    check(MPI_Comm_size(node_comm, &node_size), "MPI_Comm_size");
    const auto page = std::uintptr_t(sysconf(_SC_PAGESIZE));
    auto begin = reinterpret_cast<std::uintptr_t>(range.begin) & ~(page - 1);
    auto end = (reinterpret_cast<std::uintptr_t>(range.begin) + range.size + page - 1) & ~(page - 1);
    page_begin_ = reinterpret_cast<char*>(begin);
    page_bytes_ = end - begin;

    // A tag unique to this job on this node: node rank 0's pid.
    unsigned long job_tag = static_cast<unsigned long>(getpid());
    check(MPI_Bcast(&job_tag, 1, MPI_UNSIGNED_LONG, 0, node_comm), "MPI_Bcast");
    const std::string mine = shm_name(job_tag, node_rank);
    int local_ok = range.size > 0 && remap_onto_shm(mine.c_str()) ? 1 : 0;
    int all_ok = 0;
    check(MPI_Allreduce(&local_ok, &all_ok, 1, MPI_INT, MPI_MIN, node_comm), "MPI_Allreduce");

    if (all_ok) {
        peers_.assign(node_size, nullptr);
        peer_mappings_.assign(node_size, nullptr);
        const std::size_t lead = std::size_t(range.begin - page_begin_);
        for (int r = 0; r < node_size && all_ok; ++r) {
            if (r == node_rank) {
                peers_[r] = range.begin;
                continue;
            }
            int fd = shm_open(shm_name(job_tag, r).c_str(), O_RDWR, 0);
            void* map = fd >= 0 ? mmap(nullptr, page_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
            if (fd >= 0) close(fd);
            if (map == MAP_FAILED) {
                all_ok = 0;
                break;
            }
            peer_mappings_[r] = map;
            peers_[r] = static_cast<char*>(map) + lead;
        }
        int mapped = all_ok;
        check(MPI_Allreduce(&mapped, &all_ok, 1, MPI_INT, MPI_MIN, node_comm), "MPI_Allreduce");
    } else {
        check(MPI_Barrier(node_comm), "MPI_Barrier");
    }
    // Everyone has opened what it needs: the names can go.
    check(MPI_Barrier(node_comm), "MPI_Barrier");
    if (local_ok) shm_unlink(mine.c_str());
    ok_ = all_ok != 0;
}

SharedDataSegment::~SharedDataSegment() {
    // The process's own data stays on its shm pages until exit; only the
    // peers' mappings are released.
    for (void* map : peer_mappings_)
        if (map) munmap(map, page_bytes_);
}

}  // namespace gasket::mpi
