// tools/gasket_info.cpp -- prints Gasket's build configuration, the node's
// topology (hwloc) and every environment variable Gasket reads, with its
// value and default.  Runs without mpirun and without MPI_Init.
#include <mpi.h>

#include <cstdio>

#include "mpi-bridge/topology.hpp"
#include "src/runtime/config.hpp"

int main() {
    using namespace gasket;
    std::printf("Gasket %s (OpenSHMEM 1.6 over MPI-3)\n", GASKET_VERSION);
    std::printf("Build:\n  build type             %s\n  C++ compiler           %s\n", GASKET_BUILD_TYPE, GASKET_CXX);
    std::printf("  install prefix         %s\n", GASKET_PREFIX);
    char mpi_lib[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int len = 0;
    MPI_Get_library_version(mpi_lib, &len);
    for (char* p = mpi_lib; *p; ++p)
        if (*p == '\n' || *p == ',') {
            *p = '\0';
            break;
        }
    std::printf("  MPI                    %s (MPI %s)\n  launcher               %s\n", mpi_lib, GASKET_MPI_VERSION,
                GASKET_MPIEXEC);

    const mpi::Topology t = mpi::read_topology();
    std::printf("Node (hwloc %s):\n  packages %d, NUMA nodes %d, cores %d, hardware threads %d\n",
                t.hwloc_version.c_str(), t.packages, t.numa_nodes, t.cores, t.hw_threads);
    std::printf("  this process bound to  %s\n", t.binding.c_str());

    rt::Config cfg;
    std::string error;
    if (!rt::load_config(cfg, error)) std::printf("Environment error: %s\n", error.c_str());
    std::printf("Environment variables (value, default, meaning):\n%s", rt::format_table(rt::describe(cfg)).c_str());
    return error.empty() ? 0 : 1;
}
