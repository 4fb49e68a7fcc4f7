// tests/mpi/gasnet/attach_errors.cpp -- gasnet_attach arguments it must
// reject (include/gasnet.h, gasnet-1.8-spec.md §2.1.0.2).  Attach succeeds
// at most once per process, so each case is a job of its own:
//
//   oshrun -np N gasket_gasnet_attach_errors CASE
//
// Every node makes the same bad call, checks the return code, prints one
// line, and calls gasnet_exit (allowed between init and attach) with 0 if
// the code was right, 1 if not: the job's status is the verdict.
//
//   reserved_index             an entry with fixed index 5 (0..127 are reserved) -> GASNET_ERR_BAD_ARG
//   duplicate_index            two entries with fixed index 150               -> GASNET_ERR_BAD_ARG
//   null_handler               an entry with a NULL function                  -> GASNET_ERR_BAD_ARG
//   no_free_index              129 "don't care" entries (128 indices exist)   -> GASNET_ERR_BAD_ARG
//   segsize_not_page_multiple  segsize 16 pages + 1 byte                      -> GASNET_ERR_BAD_ARG
//   segsize_too_big            gasnet_getMaxLocalSegmentSize() + 1 page       -> GASNET_ERR_BAD_ARG
//   before_init                gasnet_attach before gasnet_init               -> GASNET_ERR_NOT_INIT
//                              (then gasnet_init and a good attach: GASNET_OK)
#include <gasnet.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

void handler_a(gasnet_token_t) {}
void handler_b(gasnet_token_t) {}

int usage() {
    std::fprintf(stderr,
                 "usage: gasket_gasnet_attach_errors CASE\n"
                 "  reserved_index duplicate_index null_handler no_free_index segsize_not_page_multiple\n"
                 "  segsize_too_big before_init\n");
    return 2;
}

// Prints the verdict line and returns whether rc == want.
bool expect_rc(const std::string& what, const char* call, int rc, int want) {
    const bool ok = rc == want;
    std::printf("attach_errors: %s: node %u: %s returned %d (%s), want %d (%s): %s\n", what.c_str(), gasnet_mynode(),
                call, rc, gasnet_ErrorName(rc), want, gasnet_ErrorName(want), ok ? "ok" : "WRONG");
    std::fflush(stdout);
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) return usage();
    const std::string what = argv[1];
    const std::uintptr_t seg = 16 * GASNET_PAGESIZE;
    auto fn = [](void (*f)(gasnet_token_t)) { return reinterpret_cast<void (*)()>(f); };

    if (what == "before_init") {
        gasnet_handlerentry_t t[] = {{0, fn(&handler_a)}};
        const int early = gasnet_attach(t, 1, seg, 0);  // before gasnet_init: nothing else may be called
        if (gasnet_init(&argc, &argv) != GASNET_OK) {
            std::fprintf(stderr, "attach_errors: gasnet_init failed\n");
            return 2;
        }
        bool ok = expect_rc(what, "gasnet_attach before gasnet_init", early, GASNET_ERR_NOT_INIT);
        ok = expect_rc(what, "gasnet_attach after gasnet_init", gasnet_attach(t, 1, seg, 0), GASNET_OK) && ok;
        gasnet_exit(ok ? 0 : 1);
    }

    if (gasnet_init(&argc, &argv) != GASNET_OK) {
        std::fprintf(stderr, "attach_errors: gasnet_init failed\n");
        return 2;
    }
    std::vector<gasnet_handlerentry_t> table;
    std::uintptr_t segsize = seg;
    if (what == "reserved_index") {
        table = {{0, fn(&handler_a)}, {5, fn(&handler_b)}};
    } else if (what == "duplicate_index") {
        table = {{150, fn(&handler_a)}, {150, fn(&handler_b)}};
    } else if (what == "null_handler") {
        table = {{0, fn(&handler_a)}, {150, nullptr}};
    } else if (what == "no_free_index") {
        table.assign(129, gasnet_handlerentry_t{0, fn(&handler_a)});
    } else if (what == "segsize_not_page_multiple") {
        table = {{0, fn(&handler_a)}};
        segsize = seg + 1;
    } else if (what == "segsize_too_big") {
        table = {{0, fn(&handler_a)}};
        segsize = gasnet_getMaxLocalSegmentSize() + GASNET_PAGESIZE;
    } else {
        gasnet_exit(usage());
    }
    const bool ok = expect_rc(what, "gasnet_attach", gasnet_attach(table.data(), int(table.size()), segsize, 0),
                              GASNET_ERR_BAD_ARG);
    std::fflush(stdout);
    gasnet_exit(ok ? 0 : 1);
}
