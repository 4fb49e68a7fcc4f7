# What libgasket.so exports: the names the public headers declare, nothing else.
#
# cmake/gasket_exports.py preprocesses the top-level public headers (shmem.h,
# gasnet.h and the generated pshmem.h, with the gasket/*.h they include) and
# writes a GNU ld version script, "global:" every function and extern object
# they declare (the shmem_ and pshmem_ routines, the deprecated start_pes /
# shmalloc ..., gasnet_*, the gasket_shmem_* handles and gasket_gasnet_*
# helpers behind the headers' macros), "local: *" for the rest.  The C++
# internals of every layer then bind inside the library: they are neither
# exported nor interposable, and a program cannot come to depend on them.
# The sources need no visibility attributes, and the pshmem_ aliases of
# cmake/pshmem.cmake stay exported because pshmem.h declares them.
#
# White-box tests that reach the internals link gasket_whitebox instead
# (tests/CMakeLists.txt); tests/surface's surface.exports checks the result.
# Included by the top-level CMakeLists.txt after cmake/pshmem.cmake.
set(GASKET_EXPORTS_MAP ${CMAKE_BINARY_DIR}/gasket_exports.map)
file(GLOB GASKET_TOP_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/*.h)
file(GLOB GASKET_ALL_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/*.h
  ${PROJECT_SOURCE_DIR}/include/gasket/*.h)
add_custom_command(OUTPUT ${GASKET_EXPORTS_MAP}
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/cmake/gasket_exports.py --cc ${CMAKE_C_COMPILER}
          --include ${PROJECT_SOURCE_DIR}/include --include ${CMAKE_BINARY_DIR}/include
          --output ${GASKET_EXPORTS_MAP} ${GASKET_TOP_HEADERS} ${GASKET_PSHMEM_H}
  DEPENDS ${PROJECT_SOURCE_DIR}/cmake/gasket_exports.py ${PROJECT_SOURCE_DIR}/cmake/header_text.py ${GASKET_ALL_HEADERS}
          ${GASKET_PSHMEM_H}
          ${CMAKE_BINARY_DIR}/include/gasket/gasnet_config.h
  COMMENT "libgasket.so export map from the public headers"
  VERBATIM)
add_custom_target(gasket_exports_map DEPENDS ${GASKET_EXPORTS_MAP})
add_dependencies(gasket gasket_exports_map)
target_link_options(gasket PRIVATE LINKER:--version-script=${GASKET_EXPORTS_MAP})
set_property(TARGET gasket APPEND PROPERTY LINK_DEPENDS ${GASKET_EXPORTS_MAP})
