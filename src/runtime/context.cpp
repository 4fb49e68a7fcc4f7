// src/runtime/context.cpp -- the context window pool and context set-up
// (cold: init, shmem_ctx_create, shmem_ctx_destroy).
#include "context.hpp"

namespace gasket::rt {

ContextPool::ContextPool(Job& j, int n) {
    for (int i = 0; i < n; ++i) {
        auto w = std::make_unique<ContextWindows>();
        if (j.n_pes > 1) {
            // Created windows over exactly what the default windows
            // expose: every route's displacement reaches the same byte.
            w->heap = std::make_unique<mpi::Window>(*j.heap.window, j.env->world(), j.concurrent_rma);
            w->data = std::make_unique<mpi::Window>(*j.data.window, j.env->world(), j.concurrent_rma);
        }
        slots_.push_back(std::move(w));
    }
}

ContextPool::~ContextPool() = default;

ContextWindows* ContextPool::take(bool concurrent) {
    std::lock_guard lock(mutex_);
    for (auto& s : slots_) {
        if (s->busy) continue;
        s->busy = true;
        if (s->heap) s->heap->set_concurrent(concurrent);
        if (s->data) s->data->set_concurrent(concurrent);
        return s.get();
    }
    return nullptr;
}

void ContextPool::give(ContextWindows* w) {
    std::lock_guard lock(mutex_);
    w->busy = false;
}

int ContextPool::free_count() {
    std::lock_guard lock(mutex_);
    int n = 0;
    for (auto& s : slots_) n += !s->busy;
    return n;
}

Context::Context(Job& j, const Team& team, bool concurrent, bool nostore)
    : job_(j),
      team_(team),
      world_(&team == j.world_team.get()),
      nostore_(nostore),
      concurrent_(concurrent),
      ring_user_(!concurrent && j.heap.window) {
    if (j.contexts) pooled_ = j.contexts->take(concurrent);
    if (pooled_) {
        heap_window_ = pooled_->heap.get();
        data_window_ = pooled_->data.get();
    } else {
        // The default windows are concurrent whenever threads may use them,
        // so sharing them is safe for any context.
        heap_window_ = j.heap.window;
        data_window_ = j.data.window;
    }
}

Context::Context(Job& j, DefaultTag)
    : job_(j),
      team_(*j.world_team),
      world_(true),
      nostore_(true),
      concurrent_(j.concurrent_rma),
      ring_user_(!j.concurrent_rma && j.heap.window),
      heap_window_(j.heap.window),
      data_window_(j.data.window),
      dynamic_window_(j.dynamic_window) {}

void Context::attach_ring() {
    ring_storage_ = std::make_unique<char[]>(BounceRing::kBytes);
    if (job_.nbi_batches) scatter_ = std::make_unique<ScatterBatch>();  // (start_job says why)
    ring_.attach(ring_storage_.get(), scatter_.get());
}

std::unique_ptr<Context, ContextDelete> Context::make_default(Job& j) {
    return std::unique_ptr<Context, ContextDelete>(new Context(j, DefaultTag{}));
}

void ContextDelete::operator()(Context* c) const { delete c; }
void ContextDelete::operator()(ContextPool* p) const { delete p; }

Context::~Context() {
    if (pooled_ && job_.contexts) job_.contexts->give(pooled_);
}

}  // namespace gasket::rt
