# The OpenSHMEM profiling interface (§10) for the library target `gasket`:
#  - at link time, cmake/pshmem_aliases.py lists the C functions that the
#    OpenSHMEM objects (gasket_shmem) define and writes a linker-script
#    fragment "pNAME = NAME;" for each, which the link of libgasket.so takes
#    as an input: every routine is also exported as pshmem_NAME (pstart_pes
#    for the deprecated start_pes ...), at the same code.  No list of routines
#    is kept: whatever shmem/ defines gets its twin.
#  - pshmem.h (the prototypes under those names) is generated from shmem.h by
#    cmake/pshmem_header.py into the build's include/ and installed.
# Included by the top-level CMakeLists.txt after the `gasket` target.
find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(GASKET_PSHMEM_ALIASES ${CMAKE_BINARY_DIR}/pshmem_aliases.ld)
add_custom_command(TARGET gasket PRE_LINK
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/cmake/pshmem_aliases.py
          --nm ${CMAKE_NM} --output ${GASKET_PSHMEM_ALIASES} $<TARGET_OBJECTS:gasket_shmem>
  COMMENT "pshmem_ aliases of the OpenSHMEM routines"
  COMMAND_EXPAND_LISTS VERBATIM)
# An implicit linker script: ld adds its assignments to the default script.
target_link_options(gasket PRIVATE ${GASKET_PSHMEM_ALIASES})
set_property(TARGET gasket APPEND PROPERTY LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/pshmem_aliases.py)

set(GASKET_PSHMEM_H ${CMAKE_BINARY_DIR}/include/pshmem.h)
file(GLOB GASKET_SHMEM_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/shmem.h
  ${PROJECT_SOURCE_DIR}/include/gasket/shmem_*.h)
add_custom_command(OUTPUT ${GASKET_PSHMEM_H}
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/cmake/pshmem_header.py --cc ${CMAKE_C_COMPILER}
          --include ${PROJECT_SOURCE_DIR}/include --include ${CMAKE_BINARY_DIR}/include --output ${GASKET_PSHMEM_H}
  DEPENDS ${PROJECT_SOURCE_DIR}/cmake/pshmem_header.py ${PROJECT_SOURCE_DIR}/cmake/header_text.py ${GASKET_SHMEM_HEADERS}
  COMMENT "pshmem.h from shmem.h"
  VERBATIM)
add_custom_target(gasket_pshmem_h DEPENDS ${GASKET_PSHMEM_H})
add_dependencies(gasket gasket_pshmem_h)
install(FILES ${GASKET_PSHMEM_H} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
