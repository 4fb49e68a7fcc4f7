// shmem/deprecated.cpp -- Annex F names kept for old programs.
#include <shmem.h>

extern "C" {

void start_pes(int) noexcept { shmem_init(); }  // npes ignored; a second call only nests
int _my_pe(void) noexcept { return shmem_my_pe(); }
int _num_pes(void) noexcept { return shmem_n_pes(); }
void* shmalloc(size_t size) noexcept { return shmem_malloc(size); }
void shfree(void* ptr) noexcept { shmem_free(ptr); }
void* shrealloc(void* ptr, size_t size) noexcept { return shmem_realloc(ptr, size); }
void* shmemalign(size_t alignment, size_t size) noexcept { return shmem_align(alignment, size); }

// Annex F.2.7 SHMEM_CACHE: for machines whose caches were not coherent with
// remote writes.  Every byte Gasket delivers lands in cache-coherent memory
// (node peers store through a coherent shared mapping, MPI and the AM
// handlers write ordinary memory), so there is nothing to flush or
// invalidate: these have no effect.  (Annex F.2.7: meant for machines with
// cache-management instructions; the spec prints no prototypes any more, so
// these are the ones of OpenSHMEM 1.4 and earlier.)
void shmem_clear_cache_inv(void) noexcept {}
void shmem_set_cache_inv(void) noexcept {}
void shmem_clear_cache_line_inv(void*) noexcept {}
void shmem_set_cache_line_inv(void*) noexcept {}
void shmem_udcflush(void) noexcept {}
void shmem_udcflush_line(void*) noexcept {}

}  // extern "C"
