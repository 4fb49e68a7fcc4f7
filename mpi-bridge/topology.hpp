// mpi-bridge/topology.hpp -- the node's layout, from hwloc.
#pragma once

#include <string>

namespace gasket::mpi {

struct Topology {
    int packages = 0;
    int numa_nodes = 0;
    int cores = 0;
    int hw_threads = 0;   // processing units
    std::string binding;  // this process's CPU binding as an hwloc list, e.g. "0-1"
    std::string hwloc_version;
};

// Reads the node's topology once (hwloc_topology_load).  Never fails: on an
// hwloc error the counts are 0 and `binding` says why.
Topology read_topology();

}  // namespace gasket::mpi
