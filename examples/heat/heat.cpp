// examples/heat -- 2-D heat diffusion (Jacobi iteration) on OpenSHMEM.
//
// An n x n interior grid with fixed boundaries (top edge at 100 degrees, the
// others at 0) is split into blocks of rows, one block per PE.  Each step,
// every PE puts its first and last rows into its neighbours' halo rows
// (shmem_double_put), waits at shmem_barrier_all, and relaxes its block.
// At the end each PE puts its per-row residual and checksum into PE 0, which
// sums them in row order, so the printed figures are bit-for-bit the same
// for any number of PEs.
//
//   oshrun -np 4 heat --n 512 --steps 500
#include <shmem.h>

#include <boost/program_options.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

namespace po = boost::program_options;

namespace {

struct Block {
    int first_row;  // global index of this PE's first interior row (0-based)
    int rows;       // interior rows owned
};

Block block_of(int n, int npes, int pe) {
    const int base = n / npes, extra = n % npes;
    return {pe * base + std::min(pe, extra), base + (pe < extra ? 1 : 0)};
}

}  // namespace

int main(int argc, char** argv) {
    int n = 256, steps = 200;
    po::options_description desc("heat: 2-D Jacobi heat diffusion on OpenSHMEM");
    desc.add_options()("help,h", "print this help")("n", po::value<int>(&n)->default_value(256),
                                                    "interior grid size (n x n cells)")(
        "steps", po::value<int>(&steps)->default_value(200), "Jacobi iterations");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, desc), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "heat: " << e.what() << "\n" << desc;
        return 2;
    }
    if (vm.count("help")) {
        std::cout << desc;
        return 0;
    }

    shmem_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    if (n < npes || steps < 0) {
        if (me == 0) std::fprintf(stderr, "heat: need n >= number of PEs (%d) and steps >= 0\n", npes);
        shmem_finalize();
        return 2;
    }
    const Block mine = block_of(n, npes, me);
    const int width = n + 2;                            // with the left/right boundary columns
    const int max_rows = block_of(n, npes, 0).rows;     // PE 0 has the largest block
    const size_t cells = size_t(max_rows + 2) * width;  // plus halo rows above and below

    // Symmetric: two grids (current, next) and PE 0's per-row result arrays.
    double* u = static_cast<double*>(shmem_calloc(cells, sizeof(double)));
    double* next = static_cast<double*>(shmem_calloc(cells, sizeof(double)));
    double* row_residual = static_cast<double*>(shmem_calloc(n, sizeof(double)));
    double* row_checksum = static_cast<double*>(shmem_calloc(n, sizeof(double)));
    if (!u || !next || !row_residual || !row_checksum) {
        if (me == 0) std::fprintf(stderr, "heat: symmetric heap too small; raise SHMEM_SYMMETRIC_SIZE\n");
        shmem_global_exit(1);
    }
    auto at = [width](double* g, int local_row, int col) -> double& { return g[size_t(local_row) * width + col]; };

    // Boundary: the global top edge is the halo row above PE 0's block.
    if (me == 0)
        for (int c = 0; c < width; ++c) at(u, 0, c) = at(next, 0, c) = 100.0;
    const int up = me - 1, down = me + 1 < npes ? me + 1 : -1;

    std::vector<double> residual(mine.rows, 0.0);
    for (int step = 0; step < steps; ++step) {
        // Halo exchange: my first row -> upper neighbour's bottom halo, my
        // last row -> lower neighbour's top halo.
        if (up >= 0) {
            const int up_rows = block_of(n, npes, up).rows;
            shmem_double_put(&at(u, up_rows + 1, 0), &at(u, 1, 0), width, up);
        }
        if (down >= 0) shmem_double_put(&at(u, 0, 0), &at(u, mine.rows, 0), width, down);
        shmem_barrier_all();

        for (int r = 1; r <= mine.rows; ++r) {
            double sum = 0.0;
            for (int c = 1; c <= n; ++c) {
                const double v = 0.25 * (at(u, r - 1, c) + at(u, r + 1, c) + at(u, r, c - 1) + at(u, r, c + 1));
                const double d = v - at(u, r, c);
                sum += d * d;
                at(next, r, c) = v;
            }
            residual[r - 1] = sum;
        }
        std::swap(u, next);
    }

    // Per-row results to PE 0, summed there in global row order.
    std::vector<double> checksum(mine.rows, 0.0);
    for (int r = 1; r <= mine.rows; ++r)
        for (int c = 1; c <= n; ++c) checksum[r - 1] += at(u, r, c);
    shmem_double_put(row_residual + mine.first_row, residual.data(), mine.rows, 0);
    shmem_double_put(row_checksum + mine.first_row, checksum.data(), mine.rows, 0);
    shmem_barrier_all();
    if (me == 0) {
        double total_residual = 0.0, total_checksum = 0.0;
        for (int r = 0; r < n; ++r) {
            total_residual += row_residual[r];
            total_checksum += row_checksum[r];
        }
        std::printf("heat: n=%d steps=%d pes=%d\n", n, steps, npes);
        std::printf("residual %.17g\nchecksum %.17g\n", std::sqrt(total_residual), total_checksum);
    }

    shmem_free(row_checksum);
    shmem_free(row_residual);
    shmem_free(next);
    shmem_free(u);
    shmem_finalize();
    return 0;
}
