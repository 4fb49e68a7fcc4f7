/*
 * gasnet_mk.h -- GASNet-EX memory kinds (gasnet-ex-memory-kinds.txt §6.3):
 * making a memory kind for a device, to create segments of it with
 * gex_Segment_Create (device segments: issue 18's next step).  A client
 * includes it after gasnetex.h,
 * which defines gex_MK_t, GEX_MK_HOST, GEX_MK_INVALID and the
 * GASNET_HAVE_MK_CLASS_* macros.  It includes no device header.
 */
#ifndef GASKET_GASNET_MK_H
#define GASKET_GASNET_MK_H

#include <gasnetex.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The classes of memory kinds. */
typedef enum {
    GEX_MK_CLASS_HOST,     /* host memory: GEX_MK_HOST */
    GEX_MK_CLASS_CUDA_UVA, /* CUDA device memory with unified addressing */
    GEX_MK_CLASS_HIP,      /* HIP device memory (not supported by Gasket) */
    GEX_MK_CLASS_ZE        /* oneAPI Level Zero device memory (not supported by Gasket) */
} gex_MK_Class_t;

/* What gex_MK_Create makes: gex_flags (first, must be 0), the class, and
 * the class's arguments in the union member named after it.  Zero every
 * field not set (the specification may add fields). */
typedef struct {
    uint64_t gex_flags;
    gex_MK_Class_t gex_class;
    union {
        struct {
            int gex_CUdevice; /* a CUdevice ordinal, 0 .. cuDeviceGetCount() - 1 */
        } gex_class_cuda_uva;
        struct {
            int gex_hipDevice;
        } gex_class_hip;
        struct {
            void* gex_zeDevice;
            void* gex_zeContext;
            uint32_t gex_zeMemoryOrdinal;
        } gex_class_ze;
    } gex_args;
} gex_MK_Create_args_t;

/* Makes a memory kind of args->gex_class for `client` into *kind_p (§6.3);
 * not collective.
 *   GEX_MK_CLASS_HOST: *kind_p = GEX_MK_HOST.
 *   GEX_MK_CLASS_CUDA_UVA: device args->gex_args.gex_class_cuda_uva.gex_CUdevice,
 *     through the CUDA driver (libcuda.so.1, loaded with dlopen on first
 *     use), over the device's primary context (retained until
 *     gex_MK_Destroy); the device must have unified addressing (§6.5).
 * Returns GASNET_OK; or, after printing a line naming gex_MK_Create and
 * the cause (unless gex_System_SetVerboseErrors(0)), and with *kind_p =
 * GEX_MK_INVALID:
 *   GASNET_ERR_BAD_ARG   kind_p or args NULL, flags or args->gex_flags not
 *                        0, a class Gasket does not know, or HIP or ZE
 *                        (not supported: no machine to test them on);
 *   GASNET_ERR_RESOURCE  CUDA_UVA without a driver, with no such device, a
 *                        device without unified addressing, or a primary
 *                        context the driver refuses.
 * Fatal (the job ends, naming the call): a client that is not this
 * process's. */
int gex_MK_Create(gex_MK_t* kind_p, gex_Client_t client, const gex_MK_Create_args_t* args,
                  gex_Flags_t flags) GASKET_NOEXCEPT;

/* Destroys a kind made by gex_MK_Create (§6.3; not collective), releasing
 * what it holds (CUDA: the primary context).  GEX_MK_HOST: nothing to do.
 * Fatal, naming the call and the value: flags not 0, a kind that is not
 * a live one of this process, or one whose gex_Segment_Create segments
 * are not all destroyed (their memory lives in its context). */
void gex_MK_Destroy(gex_MK_t kind, gex_Flags_t flags) GASKET_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* GASKET_GASNET_MK_H */
