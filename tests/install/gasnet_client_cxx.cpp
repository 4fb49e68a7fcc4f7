// The C++ half of gasnet_client.c: compiled with the C++ flags each build
// system gives (GASNET_CXX/GASNET_CXXCPPFLAGS/GASNET_CXXFLAGS, pkg-config's
// --cflags, gasnet-c++), it reports the thread mode gasnet.h saw there, which
// must be the one the C half saw.
#include <gasnet.h>

extern "C" const char* client_cxx_mode(void) {
#if defined(GASNET_PAR)
    return "PAR";
#elif defined(GASNET_PARSYNC)
    return "PARSYNC";
#else
    return "SEQ";
#endif
}
