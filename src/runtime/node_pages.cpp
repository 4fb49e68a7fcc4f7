// src/runtime/node_pages.cpp -- node_pages.hpp over mpi-bridge's SharedPages.
#include "node_pages.hpp"

#include "mpi-bridge/shared_pages.hpp"

namespace gasket::rt {

NodePages::NodePages(std::size_t bytes) : pages_(std::make_unique<mpi::SharedPages>(bytes)) {}
NodePages::~NodePages() = default;

bool NodePages::ok() const { return pages_->ok(); }
const char* NodePages::why() const { return pages_->why(); }
char* NodePages::base() const { return pages_->base(); }
int NodePages::pid() const { return pages_->pid(); }
int NodePages::fd() const { return pages_->fd(); }

char* NodePages::map_peer(int pid, int fd, std::size_t bytes) { return mpi::SharedPages::map_peer(pid, fd, bytes); }
void NodePages::unmap_peer(char* base, std::size_t bytes) { mpi::SharedPages::unmap_peer(base, bytes); }

}  // namespace gasket::rt
