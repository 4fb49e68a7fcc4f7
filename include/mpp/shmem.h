/* mpp/shmem.h -- deprecated header location (OpenSHMEM 1.6 Annex F.2.1). */
#include <shmem.h>
