// tools/gasket_info.cpp -- prints Gasket's build configuration, the node's
// topology (hwloc), the memory kinds compiled in and found (the CUDA driver
// and its devices) and every environment variable Gasket reads, with its
// value and default.  Runs without mpirun and without MPI_Init.
#include <mpi.h>

#include <cstdio>
#include <string>

#include "mpi-bridge/cuda_driver.hpp"
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

    // Memory kinds (GASNet-EX, gasnet_mk.h): host always; CUDA through the
    // driver, loaded here as gex_MK_Create loads it.
    const mpi::CudaDriver& cuda = mpi::CudaDriver::get();
    std::printf("Memory kinds (gasnet_mk.h):\n  host      always\n");
    if (!cuda.usable()) {
        std::printf("  CUDA_UVA  compiled in; not available here: %s\n", cuda.why().c_str());
    } else {
        std::printf("  CUDA_UVA  driver %d.%d, %d device(s)\n", cuda.version() / 1000, cuda.version() % 1000 / 10,
                    cuda.device_count());
        for (int d = 0; d < cuda.device_count(); ++d) {
            std::string name, why;
            bool unified = false;
            if (cuda.describe(d, name, unified, why))
                std::printf("    device %d: %s, %s\n", d, name.c_str(),
                            unified ? "unified addressing" : "no unified addressing (not usable as a memory kind)");
            else
                std::printf("    device %d: %s\n", d, why.c_str());
        }
    }
    std::printf("  HIP, ZE   not supported\n");

    rt::Config cfg;
    std::string error;
    if (!rt::load_config(cfg, error)) std::printf("Environment error: %s\n", error.c_str());
    std::printf("Environment variables (value, default, meaning):\n%s", rt::format_table(rt::describe(cfg)).c_str());
    return error.empty() ? 0 : 1;
}
