// src/runtime/config.hpp -- every environment variable Gasket reads, in one
// table (Boost.Program_options), with the values in force.
//
// Variables: SHMEM_SYMMETRIC_SIZE, SHMEM_DEBUG, SHMEM_INFO, SHMEM_VERSION
// (spec §8; the deprecated SMA_* names are read too, SHMEM_* wins) and
// GASKET_NODE_FASTPATH, GASKET_SHARED_DATA; for GASNet (gasnet-1.8-spec.md)
// GASNET_MAX_SEGSIZE, and GASKET_PROGRESS_THREAD, GASKET_EXIT_TIMEOUT, GASKET_CTX_WINDOWS,
// GASKET_NBI_BATCH; for GASP GASKET_GASP_TOOL, GASKET_PROFILE
// (the bundled profiler reads GASKET_PROFILE* and GASKET_INST_ONLY itself).  `gasket-info` and SHMEM_INFO
// print the table.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gasket::rt {

enum class Tristate { off, on, automatic };

struct Config {
    std::size_t symmetric_size = 0;                  // bytes of symmetric heap per PE
    bool debug = false;                              // SHMEM_DEBUG: debug messages
    bool info = false;                               // SHMEM_INFO: print the table at init
    bool version = false;                            // SHMEM_VERSION: print the version at init
    bool node_fastpath = true;                       // GASKET_NODE_FASTPATH: load/store to node peers
    bool shared_data = true;                         // GASKET_SHARED_DATA: globals on shared memory
    Tristate progress_thread = Tristate::automatic;  // GASKET_PROGRESS_THREAD
    std::string symmetric_size_setting;              // where symmetric_size came from, for messages:
                                                     // "SHMEM_SYMMETRIC_SIZE=16T" or "SHMEM_SYMMETRIC_SIZE
                                                     // unset: default 128M"
    std::size_t max_segsize = 0;                     // GASNET_MAX_SEGSIZE: cap on GASNet segments (0 = none)
    // Why GASNET_MAX_SEGSIZE is malformed ("" when it is fine): only GASNet
    // refuses to start for it (gasnet_init), OpenSHMEM ignores it.
    std::string max_segsize_problem;
    double exit_timeout = 2.0;  // GASKET_EXIT_TIMEOUT: seconds gasnet_exit waits for the others
    int ctx_windows = 4;        // GASKET_CTX_WINDOWS: window pairs for OpenSHMEM contexts (0..64)
    // GASKET_NBI_BATCH: scattered OpenSHMEM nbi puts to one PE leave in one
    // MPI_Put (src/runtime/bounce.hpp); automatic = on for the MPICH family.
    Tristate nbi_batch = Tristate::automatic;
    std::string gasp_tool;  // GASKET_GASP_TOOL: a GASP tool library to dlopen at init (empty: none)
    std::string profile;    // GASKET_PROFILE: attach the bundled profiler (empty: no)
};

// One row of the table as printed: name, value in force, default, meaning.
struct OptionRow {
    std::string name, value, default_value, help;
};

// Reads the process environment.  On a bad value, returns false and puts a
// message naming the variable and the value in `error` -- except for
// GASNET_MAX_SEGSIZE, whose problem goes in out.max_segsize_problem (for
// gasnet_init to report) so that it never stops an OpenSHMEM program.
bool load_config(Config& out, std::string& error);

// The table with the values of `cfg`, for SHMEM_INFO and gasket-info.
std::vector<OptionRow> describe(const Config& cfg);

// The table formatted one variable per line.
std::string format_table(const std::vector<OptionRow>& rows);

}  // namespace gasket::rt
