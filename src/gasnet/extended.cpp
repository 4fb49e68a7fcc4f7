// src/gasnet/extended.cpp -- the GASNet extended API's entry points
// (gasnet-1.8-spec.md §3.2-3.4, §3.6.1): each names itself and calls the
// transfers both GASNet APIs share (transfer.hpp).
#include <gasnet.h>

#include "transfer.hpp"

using namespace gasket;
using gasnet::Sync;

extern "C" {

// ---- §3.2 blocking, §3.3.2 explicit handle, §3.3.4 implicit handle ----
// One family per synchronization: gasnet_{get,put}SUFFIX[_bulk] and
// gasnet_memsetSUFFIX.  The non-bulk puts may reuse src at once
// (bulk = false); the bulk ones only once synchronized.
#define GASKET_TRANSFERS(SUFFIX, RET, SYNC)                                                                      \
    RET gasnet_get##SUFFIX(void* dest, gasnet_node_t node, void* src, size_t nbytes) noexcept {                  \
        return static_cast<RET>(gasnet::get("gasnet_get" #SUFFIX, dest, node, src, nbytes, SYNC));               \
    }                                                                                                            \
    RET gasnet_put##SUFFIX(gasnet_node_t node, void* dest, void* src, size_t nbytes) noexcept {                  \
        return static_cast<RET>(gasnet::put("gasnet_put" #SUFFIX, node, dest, src, nbytes, SYNC, false));        \
    }                                                                                                            \
    RET gasnet_get##SUFFIX##_bulk(void* dest, gasnet_node_t node, void* src, size_t nbytes) noexcept {           \
        return static_cast<RET>(gasnet::get("gasnet_get" #SUFFIX "_bulk", dest, node, src, nbytes, SYNC));       \
    }                                                                                                            \
    RET gasnet_put##SUFFIX##_bulk(gasnet_node_t node, void* dest, void* src, size_t nbytes) noexcept {           \
        return static_cast<RET>(gasnet::put("gasnet_put" #SUFFIX "_bulk", node, dest, src, nbytes, SYNC, true)); \
    }                                                                                                            \
    RET gasnet_memset##SUFFIX(gasnet_node_t node, void* dest, int val, size_t nbytes) noexcept {                 \
        return static_cast<RET>(gasnet::memset_remote("gasnet_memset" #SUFFIX, node, dest, val, nbytes, SYNC));  \
    }
GASKET_TRANSFERS(, void, Sync::blocking)
GASKET_TRANSFERS(_nb, gasnet_handle_t, Sync::explicit_handle)
GASKET_TRANSFERS(_nbi, void, Sync::implicit)
#undef GASKET_TRANSFERS

// ---- §3.3.3 explicit synchronization.  Completing is an MPI flush, which
// needs nothing from the target, so try completes too and returns
// GASNET_OK -- except for the GASNet-EX events a client may give here (the
// handles are GASNet-EX events) that wait for another process: a
// collective's, or a remote atomic's before its reply has come:
// GASNET_ERR_NOT_READY (transfer.hpp, try_one).
void gasnet_wait_syncnb(gasnet_handle_t handle) noexcept { gasnet::sync_one(handle, GASP_GASNET_SYNC_WAIT_NB); }
int gasnet_try_syncnb(gasnet_handle_t handle) noexcept { return gasnet::try_one(handle, GASP_GASNET_SYNC_TRY_NB); }
void gasnet_wait_syncnb_all(gasnet_handle_t* handles, size_t numhandles) noexcept {
    gasnet::complete_all("gasnet_wait_syncnb_all", handles, numhandles, GASP_GASNET_SYNC_WAIT_NB_ALL);
}
int gasnet_try_syncnb_all(gasnet_handle_t* handles, size_t numhandles) noexcept {
    return gasnet::try_all("gasnet_try_syncnb_all", handles, numhandles, GASP_GASNET_SYNC_TRY_NB_ALL, false);
}
void gasnet_wait_syncnb_some(gasnet_handle_t* handles, size_t numhandles) noexcept {
    gasnet::complete_all("gasnet_wait_syncnb_some", handles, numhandles, GASP_GASNET_SYNC_WAIT_NB_SOME);
}
int gasnet_try_syncnb_some(gasnet_handle_t* handles, size_t numhandles) noexcept {
    return gasnet::try_all("gasnet_try_syncnb_some", handles, numhandles, GASP_GASNET_SYNC_TRY_NB_SOME, true);
}

// ---- §3.3.5 implicit synchronization ----
void gasnet_wait_syncnbi_gets(void) noexcept {
    gasnet::sync_implicit("gasnet_wait_syncnbi_gets", GASP_GASNET_SYNC_WAIT_NBI_GETS);
}
void gasnet_wait_syncnbi_puts(void) noexcept {
    gasnet::sync_implicit("gasnet_wait_syncnbi_puts", GASP_GASNET_SYNC_WAIT_NBI_PUTS);
}
void gasnet_wait_syncnbi_all(void) noexcept {
    gasnet::sync_implicit("gasnet_wait_syncnbi_all", GASP_GASNET_SYNC_WAIT_NBI_ALL);
}
int gasnet_try_syncnbi_gets(void) noexcept {
    return gasnet::try_implicit("gasnet_try_syncnbi_gets", GASP_GASNET_SYNC_TRY_NBI_GETS, false);
}
int gasnet_try_syncnbi_puts(void) noexcept {
    return gasnet::try_implicit("gasnet_try_syncnbi_puts", GASP_GASNET_SYNC_TRY_NBI_PUTS, false);
}
int gasnet_try_syncnbi_all(void) noexcept {
    return gasnet::try_implicit("gasnet_try_syncnbi_all", GASP_GASNET_SYNC_TRY_NBI_ALL, true);
}

// ---- §3.3.6 access regions ----
void gasnet_begin_nbi_accessregion(void) noexcept { gasnet::begin_region(); }
gasnet_handle_t gasnet_end_nbi_accessregion(void) noexcept { return gasnet::end_region(); }

// ---- §3.4 register-memory operations ----
void gasnet_put_val(gasnet_node_t node, void* dest, gasnet_register_value_t value, size_t nbytes) noexcept {
    gasnet::check_value_size("gasnet_put_val", nbytes);
    gasnet::put("gasnet_put_val", node, dest, &value, nbytes, Sync::blocking, false);
}
gasnet_handle_t gasnet_put_nb_val(gasnet_node_t node, void* dest, gasnet_register_value_t value,
                                  size_t nbytes) noexcept {
    gasnet::check_value_size("gasnet_put_nb_val", nbytes);
    return gasnet::put("gasnet_put_nb_val", node, dest, &value, nbytes, Sync::explicit_handle, false);
}
void gasnet_put_nbi_val(gasnet_node_t node, void* dest, gasnet_register_value_t value, size_t nbytes) noexcept {
    gasnet::check_value_size("gasnet_put_nbi_val", nbytes);
    gasnet::put("gasnet_put_nbi_val", node, dest, &value, nbytes, Sync::implicit, false);
}
gasnet_register_value_t gasnet_get_val(gasnet_node_t node, void* src, size_t nbytes) noexcept {
    gasnet::check_value_size("gasnet_get_val", nbytes);
    gasnet_register_value_t value = 0;
    gasnet::get("gasnet_get_val", &value, node, src, nbytes, Sync::blocking);
    return value;
}
// Split-phase in name: the value is fetched at once and carried in the handle.
gasnet_valget_handle_t gasnet_get_nb_val(gasnet_node_t node, void* src, size_t nbytes) noexcept {
    gasnet::check_value_size("gasnet_get_nb_val", nbytes);
    gasnet_valget_handle_t h{0};
    gasnet::get("gasnet_get_nb_val", &h.value, node, src, nbytes, Sync::blocking);
    return h;
}
gasnet_register_value_t gasnet_wait_syncnb_valget(gasnet_valget_handle_t handle) noexcept { return handle.value; }

// ---- §3.6.1 thread information ----
gasnet_threadinfo_t gasket_gasnet_threadinfo(void) noexcept { return &gasnet::t_self; }

}  // extern "C"
