/*
 * gasket/noexcept.h -- GASKET_NOEXCEPT, the exception specification of
 * every function the public headers declare (shmem.h, gasnet.h, the
 * generated pshmem.h); included by shmem.h and gasnet.h, do not include
 * directly.
 *
 * libgasket.so is C++ behind a C ABI, and no exception crosses it: each
 * entry point turns an internal error into the spec's error code or a
 * fatal message, and anything that would still throw (an allocation
 * failing, a C++ Active Message handler throwing inside gasnet_AMPoll)
 * ends the process in std::terminate instead of unwinding through the
 * caller's C frames.  The definitions (the .cpp files of shmem/ and
 * src/gasnet/) are `noexcept`; since C++17 the exception specification is
 * part of a function's type, so every declaration says the same:
 *   - C++11 and later: noexcept (from C++17 on, `&shmem_long_put` points to
 *     a noexcept function and converts to the plain pointer type);
 *   - C++98/03: throw(), the same promise in the old spelling;
 *   - C: nothing (the declarations are plain C prototypes).
 */
#ifndef GASKET_NOEXCEPT_H
#define GASKET_NOEXCEPT_H

#if defined(__cplusplus) && __cplusplus >= 201103L
#define GASKET_NOEXCEPT noexcept
#elif defined(__cplusplus)
#define GASKET_NOEXCEPT throw()
#else
#define GASKET_NOEXCEPT
#endif

#endif /* GASKET_NOEXCEPT_H */
