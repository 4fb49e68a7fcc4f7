// mpi-bridge/topology.cpp -- hwloc queries.
#include "topology.hpp"

#include <hwloc.h>

#include <cstdlib>

namespace gasket::mpi {

namespace {
int count(hwloc_topology_t topo, hwloc_obj_type_t type) {
    int n = hwloc_get_nbobjs_by_type(topo, type);
    return n < 0 ? 0 : n;
}
}  // namespace

Topology read_topology() {
    Topology t;
    unsigned v = hwloc_get_api_version();
    t.hwloc_version = std::to_string(v >> 16) + "." + std::to_string((v >> 8) & 0xff) + "." + std::to_string(v & 0xff);
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0) {
        t.binding = "unknown (hwloc_topology_init failed)";
        return t;
    }
    if (hwloc_topology_load(topo) != 0) {
        hwloc_topology_destroy(topo);
        t.binding = "unknown (hwloc_topology_load failed)";
        return t;
    }
    t.packages = count(topo, HWLOC_OBJ_PACKAGE);
    t.numa_nodes = count(topo, HWLOC_OBJ_NUMANODE);
    t.cores = count(topo, HWLOC_OBJ_CORE);
    t.hw_threads = count(topo, HWLOC_OBJ_PU);
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (set && hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0) {
        char* text = nullptr;
        hwloc_bitmap_list_asprintf(&text, set);
        t.binding = text ? text : "";
        std::free(text);
    } else {
        t.binding = "unknown";
    }
    if (set) hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
    return t;
}

}  // namespace gasket::mpi
