/*
 * gasket/shmem_coll.h -- §9.10 collectives (included by shmem.h inside its
 * extern "C" block; do not include directly).
 */
#ifndef GASKET_SHMEM_COLL_H
#define GASKET_SHMEM_COLL_H

#endif /* GASKET_SHMEM_COLL_H */
