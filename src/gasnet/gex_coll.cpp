// src/gasnet/gex_coll.cpp -- GASNet-EX collectives (gasnet_coll.h and
// gex_Coll_BarrierNB in gasnetex.h; gasnet-ex-api.txt "Collectives"): each
// checked here, then started at the runtime's entry point for nonblocking
// collectives (rt::start_*, src/runtime/nb_collective.hpp) on the team's
// runtime team -- over a team naming several endpoints of one process, as
// the handle's member share (rt::MemberGroup) -- and the event is the
// started collective's address (transfer.hpp), completed by the event
// calls.
#include <gasnet_coll.h>

#include <climits>

#include "gex_dt.hpp"
#include "src/gex/objects.hpp"
#include "src/runtime/error.hpp"
#include "src/runtime/nb_collective.hpp"
#include "transfer.hpp"

namespace gasket::gasnet {

namespace {

gex_Event_t event_of(rt::NbCollective* c) { return reinterpret_cast<gex_Event_t>(c); }

// The team `tm` names, its flags checked.
const gasket_gex_tm& tm_checked(const char* routine, gex_TM_t tm, gex_Flags_t flags) {
    const gasket_gex_tm& t = gex::tm_of(routine, tm);
    if (flags != 0)
        rt::fatal(routine, "flags 0x%x: must be 0 (the segment-disposition flags are [UNIMPLEMENTED])",
                  unsigned(flags));
    return t;
}

void check_root(const char* routine, gex_Rank_t size, gex_Rank_t root) {
    if (root >= size)
        rt::fatal(routine, "root %u is out of range: the team has ranks 0..%u", unsigned(root), unsigned(size - 1));
}

// A team naming several endpoints of one process (its collectives gather
// this process's members first, rt::MemberGroup): the rank of the process
// of member `root` among the team's processes.
int root_process(const gasket_gex_tm& t, gex_Rank_t root) { return t.team->team_pe_of(t.jobranks[root]); }

// A reduction's data type, from the one table: its element kind and C size.
struct Type {
    gex_DT_t dt;
    rt::Elem elem;
    std::size_t size;
    bool integer;
};
constexpr Type kTypes[] = {
    {GEX_DT_I32, rt::Elem::i32, 4, true}, {GEX_DT_U32, rt::Elem::u32, 4, true},  {GEX_DT_I64, rt::Elem::i64, 8, true},
    {GEX_DT_U64, rt::Elem::u64, 8, true}, {GEX_DT_FLT, rt::Elem::f32, 4, false}, {GEX_DT_DBL, rt::Elem::f64, 8, false},
};
// The built-in reduction operators.
struct Op {
    gex_OP_t op;
    rt::ReduceOp reduce;
    bool bitwise;
};
constexpr Op kOps[] = {
    {GEX_OP_ADD, rt::ReduceOp::sum, false}, {GEX_OP_MULT, rt::ReduceOp::prod, false},
    {GEX_OP_MIN, rt::ReduceOp::min, false}, {GEX_OP_MAX, rt::ReduceOp::max, false},
    {GEX_OP_AND, rt::ReduceOp::band, true}, {GEX_OP_OR, rt::ReduceOp::bor, true},
    {GEX_OP_XOR, rt::ReduceOp::bxor, true},
};

// Checks a reduction's arguments and starts it (root < 0: to all).
rt::NbCollective* reduce(const char* routine, gex_TM_t tm, int root, void* dst, const void* src, gex_DT_t dt,
                         std::size_t dt_sz, std::size_t dt_cnt, gex_OP_t op, gex_Coll_ReduceFn_t user_op,
                         const void* user_cdata, gex_Flags_t flags) {
    const gasket_gex_tm& t = tm_checked(routine, tm, flags);
    if (root >= 0) check_root(routine, gex_TM_QuerySize(tm), gex_Rank_t(root));
    const Type* type = nullptr;
    for (const Type& t : kTypes)
        if (t.dt == dt) type = &t;
    if (!type && dt != GEX_DT_USER)
        rt::fatal(routine, "dt 0x%x is not a data type of reductions (GEX_DT_I32, _U32, _I64, _U64, _FLT, _DBL, _USER)",
                  unsigned(dt));
    const bool user = op == GEX_OP_USER || op == GEX_OP_USER_NC;
    const Op* builtin = nullptr;
    for (const Op& o : kOps)
        if (o.op == op) builtin = &o;
    if (!user && !builtin)
        rt::fatal(routine,
                  "op 0x%x is not a reduction operator (GEX_OP_ADD, _MULT, _MIN, _MAX, _AND, _OR, _XOR, _USER, "
                  "_USER_NC)",
                  unsigned(op));
    if (!user && !type)
        rt::fatal(routine, "GEX_DT_USER reduces only with GEX_OP_USER or GEX_OP_USER_NC, not op 0x%x", unsigned(op));
    if (builtin && builtin->bitwise && !type->integer)
        rt::fatal(routine, "op 0x%x is bitwise: not valid on %s", unsigned(op), dt_name(dt));
    if (type && dt_sz != type->size)
        rt::fatal(routine, "dt_sz %zu is not the size of %s (%zu bytes)", dt_sz, dt_name(dt), type->size);
    if (dt_sz == 0 || dt_sz > std::size_t(INT_MAX))
        rt::fatal(routine, "dt_sz %zu is not in 1..%d bytes", dt_sz, INT_MAX);
    if (dt_cnt == 0) rt::fatal(routine, "dt_cnt is 0 (a reduction has at least one element)");
    if (user && !user_op)
        rt::fatal(routine, "user_op is NULL with op %s", op == GEX_OP_USER ? "GEX_OP_USER" : "GEX_OP_USER_NC");
    (void)rt::checked_bytes(routine, "dt_cnt x dt_sz", dt_cnt, dt_sz);  // fatal when it overflows size_t
    const bool writes = root < 0 || gex_Rank_t(root) == gex_TM_QueryRank(tm);
    if (!src) rt::fatal(routine, "src is NULL");
    if (writes && !dst) rt::fatal(routine, "dst is NULL%s", root < 0 ? "" : " on the root");
    if (t.several) {
        // This process's members' contributions are combined here first,
        // unless the client's operation is not commutative (GEX_OP_USER_NC:
        // applied in rank order once every contribution is gathered).
        const int proc = root < 0 ? -1 : root_process(t, gex_Rank_t(root));
        if (user)
            return rt::start_reduce_user(routine, *t.several->group, t.local_index, dst, src, dt_cnt, dt_sz, user_op,
                                         user_cdata, op == GEX_OP_USER, proc, writes);
        return rt::start_reduce(routine, *t.several->group, t.local_index, dst, src, dt_cnt, type->elem,
                                builtin->reduce, proc, writes);
    }
    const rt::Team& team = gex::processes(t);
    if (user)
        return rt::start_reduce_user(routine, team, dst, src, dt_cnt, dt_sz, user_op, user_cdata, op == GEX_OP_USER,
                                     root);
    return rt::start_reduce(routine, team, dst, src, dt_cnt, type->elem, builtin->reduce, root);
}

}  // namespace

}  // namespace gasket::gasnet

using namespace gasket;

extern "C" {

gex_Event_t gex_Coll_BarrierNB(gex_TM_t tm, gex_Flags_t flags) noexcept {
    const char* routine = "gex_Coll_BarrierNB";
    const gasket_gex_tm& t = gasnet::tm_checked(routine, tm, flags);
    if (t.several) return gasnet::event_of(rt::start_barrier(routine, *t.several->group, t.local_index));
    return gasnet::event_of(rt::start_barrier(routine, gex::processes(t)));
}

gex_Event_t gex_Coll_BroadcastNB(gex_TM_t tm, gex_Rank_t root, void* dst, const void* src, size_t nbytes,
                                 gex_Flags_t flags) noexcept {
    const char* routine = "gex_Coll_BroadcastNB";
    const gasket_gex_tm& t = gasnet::tm_checked(routine, tm, flags);
    gasnet::check_root(routine, gex_TM_QuerySize(tm), root);
    const bool root_here = root == gex_TM_QueryRank(tm);
    if (nbytes > 0 && !dst) rt::fatal(routine, "dst is NULL with nbytes %zu", nbytes);
    if (nbytes > 0 && root_here && !src) rt::fatal(routine, "src is NULL on the root with nbytes %zu", nbytes);
    if (t.several)
        return gasnet::event_of(rt::start_broadcast(routine, *t.several->group, t.local_index, dst, src, nbytes,
                                                    gasnet::root_process(t, root), root_here));
    return gasnet::event_of(rt::start_broadcast(routine, gex::processes(t), dst, src, nbytes, int(root)));
}

gex_Event_t gex_Coll_ReduceToOneNB(gex_TM_t tm, gex_Rank_t root, void* dst, const void* src, gex_DT_t dt, size_t dt_sz,
                                   size_t dt_cnt, gex_OP_t op, gex_Coll_ReduceFn_t user_op, void* user_cdata,
                                   gex_Flags_t flags) noexcept {
    const char* routine = "gex_Coll_ReduceToOneNB";
    gex::tm_of(routine, tm);
    gasnet::check_root(routine, gex_TM_QuerySize(tm), root);  // before it becomes an int
    return gasnet::event_of(
        gasnet::reduce(routine, tm, int(root), dst, src, dt, dt_sz, dt_cnt, op, user_op, user_cdata, flags));
}

gex_Event_t gex_Coll_ReduceToAllNB(gex_TM_t tm, void* dst, const void* src, gex_DT_t dt, size_t dt_sz, size_t dt_cnt,
                                   gex_OP_t op, gex_Coll_ReduceFn_t user_op, void* user_cdata,
                                   gex_Flags_t flags) noexcept {
    return gasnet::event_of(
        gasnet::reduce("gex_Coll_ReduceToAllNB", tm, -1, dst, src, dt, dt_sz, dt_cnt, op, user_op, user_cdata, flags));
}

}  // extern "C"
