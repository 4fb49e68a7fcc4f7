// shmem/coll.cpp -- §9.10 collectives over the world team (barriers so far).
#include <shmem.h>

#include "src/runtime/sync.hpp"

using namespace gasket;

extern "C" {

void shmem_barrier_all(void) { rt::barrier_all("shmem_barrier_all"); }
void shmem_sync_all(void) { rt::sync_all("shmem_sync_all"); }

}  // extern "C"
