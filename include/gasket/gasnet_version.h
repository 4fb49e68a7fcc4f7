/*
 * gasket/gasnet_version.h -- the release tuple Gasket's GASNet headers
 * carry: GASNET_RELEASE_VERSION_MAJOR/MINOR/PATCH (gasnet.h, gasnetex.h)
 * and GASNETT_RELEASE_VERSION_MAJOR/MINOR/PATCH (gasnet_tools.h), in the
 * GASNet-EX form YYYY.MM.PP: clients compare it against releases such as
 * 2023.9.0, so it must never be 0.  Included by those headers; do not
 * include directly.
 */
#ifndef GASKET_GASNET_VERSION_H
#define GASKET_GASNET_VERSION_H

#define GASNET_RELEASE_VERSION_MAJOR 2026
#define GASNET_RELEASE_VERSION_MINOR 11
#define GASNET_RELEASE_VERSION_PATCH 0
/* The same tuple as text (GASNET_CONFIG_STRING's RELEASE=). */
#define GASKET_GASNET_RELEASE_STRING "2026.11.0"

#endif /* GASKET_GASNET_VERSION_H */
