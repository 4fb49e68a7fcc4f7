// shmem/deprecated.cpp -- Annex F names kept for old programs.
#include <shmem.h>

extern "C" {

void start_pes(int) { shmem_init(); }  // npes ignored; a second call only nests
int _my_pe(void) { return shmem_my_pe(); }
int _num_pes(void) { return shmem_n_pes(); }
void* shmalloc(size_t size) { return shmem_malloc(size); }
void shfree(void* ptr) { shmem_free(ptr); }
void* shrealloc(void* ptr, size_t size) { return shmem_realloc(ptr, size); }
void* shmemalign(size_t alignment, size_t size) { return shmem_align(alignment, size); }

}  // extern "C"
