/* examples/gex-gpu/gpu_put.c -- GASNet-EX memory kinds (gasnet_mk.h,
 * docs/memory-kinds.md): a segment in GPU memory on every process, and a
 * put from host memory straight into the next process's GPU segment.
 *
 * Each process opens the CUDA memory kind of device 0, makes a 1 MiB
 * segment of it (cuMemAlloc'd by Gasket), binds it to a new endpoint and
 * publishes it; then puts an array of ints into the next process's GPU
 * segment through a TM-pair of those endpoints, and after a barrier reads
 * its own GPU segment back (a get from itself) to check what its left
 * neighbour put there.  Processes on one node reach each other's GPU
 * memory by CUDA IPC; others through Active Messages their owner copies.
 * Without a CUDA driver or device gex_MK_Create returns an error code:
 * every process says so and the program exits 0.
 *
 *     oshcc -o gex-gpu gpu_put.c && oshrun -np 2 ./gex-gpu
 */
#include <gasnetex.h>
#include <gasnet_coll.h>
#include <gasnet_mk.h>

#include <stdio.h>
#include <string.h>

#define COUNT (1 << 18) /* ints: the whole 1 MiB segment */

static void barrier(gex_TM_t tm) { gex_Event_Wait(gex_Coll_BarrierNB(tm, 0)); }

int main(int argc, char** argv) {
    gex_Client_t client;
    gex_EP_t ep0;
    gex_TM_t team;
    gex_Segment_t host_segment;
    if (gex_Client_Init(&client, &ep0, &team, "GEX_GPU", &argc, &argv, 0) != GASNET_OK) return 1;
    if (gex_Segment_Attach(&host_segment, team, GASNET_PAGESIZE) != GASNET_OK) gasnet_exit(1);
    const gex_Rank_t me = gex_TM_QueryRank(team), n = gex_TM_QuerySize(team);
    const gex_Rank_t right = (me + 1) % n, left = (me + n - 1) % n;

    /* The CUDA memory kind of device 0; every process must have one, since
     * publication below is collective. */
    gex_MK_Create_args_t args;
    memset(&args, 0, sizeof args);
    args.gex_class = GEX_MK_CLASS_CUDA_UVA;
    args.gex_args.gex_class_cuda_uva.gex_CUdevice = 0;
    gex_MK_t kind = GEX_MK_INVALID;
    const int have = gex_MK_Create(&kind, client, &args, 0) == GASNET_OK;
    int all = 0;
    gex_Event_Wait(gex_Coll_ReduceToAllNB(team, &all, &have, GEX_DT_I32, sizeof(int), 1, GEX_OP_MIN, NULL, NULL, 0));
    if (!all) {
        printf("gex-gpu: rank %u: no CUDA device on every process; nothing to do\n", (unsigned)me);
        if (have) gex_MK_Destroy(kind, 0);
        gasnet_exit(0);
    }

    /* A GPU segment bound to a new endpoint, published to every process. */
    gex_EP_t ep;
    gex_Segment_t gpu_segment;
    if (gex_Segment_Create(&gpu_segment, client, NULL, COUNT * sizeof(int), kind, 0) != GASNET_OK ||
        gex_EP_Create(&ep, client, GEX_EP_CAPABILITY_RMA, 0) != GASNET_OK ||
        gex_EP_BindSegment(ep, gpu_segment, 0) != GASNET_OK || gex_EP_PublishBoundSegment(team, &ep, 1, 0) != GASNET_OK)
        gasnet_exit(1);
    /* Endpoints are made in the same order everywhere: the same index. */
    const gex_TM_t pair = gex_TM_Pair(ep, gex_EP_QueryIndex(ep));
    void* right_gpu;
    gex_Segment_QueryBound(pair, right, &right_gpu, NULL, NULL);

    /* Host memory -> the right neighbour's GPU memory. */
    static int sent[COUNT], got[COUNT];
    for (int i = 0; i < COUNT; ++i) sent[i] = (int)me * 1000003 + i;
    gex_RMA_PutBlocking(pair, right, right_gpu, sent, sizeof sent, 0);
    barrier(team);

    /* This process's GPU memory -> host, to check the left neighbour's put. */
    gex_RMA_GetBlocking(pair, got, me, gex_Segment_QueryAddr(gpu_segment), sizeof got, 0);
    int wrong = 0;
    for (int i = 0; i < COUNT; ++i) wrong += got[i] != (int)left * 1000003 + i;
    printf("gex-gpu: rank %u: %zu bytes from rank %u in its GPU segment %s\n", (unsigned)me, sizeof got, (unsigned)left,
           wrong ? "WRONG" : "OK");
    barrier(team);
    gex_Segment_Destroy(gpu_segment, 0);
    gex_MK_Destroy(kind, 0);
    gasnet_exit(wrong ? 1 : 0);
}
