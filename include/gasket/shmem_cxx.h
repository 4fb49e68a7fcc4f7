/*
 * gasket/shmem_cxx.h -- the C++ overloads with the C11 generic names
 * (included by shmem.h when compiled as C++; do not include directly).
 */
#ifndef GASKET_SHMEM_CXX_H
#define GASKET_SHMEM_CXX_H

#endif /* GASKET_SHMEM_CXX_H */
