# A GASNet client's Makefile, written as GASNet's documentation tells
# clients to: include the conduit fragment, compile with GASNET_CC /
# GASNET_CXX and their flags, link with GASNET_LD and GASNET_LIBS.
# check_gasnet_client.sh runs it as
#   make -f gasnet_client.mk GASNET_MAK=PREFIX/include/mpi-conduit/mpi-seq.mak SRCDIR=tests/install
include $(GASNET_MAK)

gasnet_client: gasnet_client.o gasnet_client_cxx.o
	$(GASNET_LD) $(GASNET_LDFLAGS) -o $@ gasnet_client.o gasnet_client_cxx.o $(GASNET_LIBS)

gasnet_client.o: $(SRCDIR)/gasnet_client.c
	$(GASNET_CC) $(GASNET_CPPFLAGS) $(GASNET_CFLAGS) -c -o $@ $(SRCDIR)/gasnet_client.c

gasnet_client_cxx.o: $(SRCDIR)/gasnet_client_cxx.cpp
	$(GASNET_CXX) $(GASNET_CXXCPPFLAGS) $(GASNET_CXXFLAGS) -c -o $@ $(SRCDIR)/gasnet_client_cxx.cpp

# `make -f gasnet_client.mk GASNET_MAK=... print-VAR` prints a variable's value.
print-%:
	@echo '$($*)'
