// tests/mpi/gasnet/extended_value_test.cpp -- register-value forms
// (gasnet-1.8-spec.md §3.4): put_val/put_nb_val/put_nbi_val and
// get_val/get_nb_val of every nbytes 1..8, to and from every node.
// Segment layout, guards and helpers: extended_test.hpp.
#include "extended_test.hpp"

#include <bit>
#include <vector>

namespace {

using namespace extended_test;

// ============================================================================
// Register-value forms (§3.4)
// ============================================================================
using ExtendedValue = GasnetTest;

// Every nbytes the spec allows (0 < nbytes <= SIZEOF_GASNET_REGISTER_VALUE_T);
// 3, 5, 6 and 7 are not integer sizes: for them the expected bytes are the
// low-order bytes in little-endian order (Gasket's platforms).
constexpr std::size_t kWidths[] = {1, 2, 4, 8, 3, 5, 6, 7};
constexpr int kNumWidths = int(sizeof kWidths / sizeof kWidths[0]);
static_assert(std::endian::native == std::endian::little, "the expectations for widths 3, 5, 6, 7 assume it");

// The low-order nbytes of v in native byte order, as an nbytes integer would be stored.
void store_low(unsigned char* out, std::uint64_t v, std::size_t nbytes) {
    switch (nbytes) {
        case 1: {
            std::uint8_t x = std::uint8_t(v);
            std::memcpy(out, &x, 1);
            break;
        }
        case 2: {
            std::uint16_t x = std::uint16_t(v);
            std::memcpy(out, &x, 2);
            break;
        }
        case 4: {
            std::uint32_t x = std::uint32_t(v);
            std::memcpy(out, &x, 4);
            break;
        }
        case 8: std::memcpy(out, &v, 8); break;
        default: std::memcpy(out, &v, nbytes); break;  // little-endian: the low-order bytes first
    }
}
// The nbytes integer at p, zero-extended.
std::uint64_t load_zext(const unsigned char* p, std::size_t nbytes) {
    switch (nbytes) {
        case 1: {
            std::uint8_t x;
            std::memcpy(&x, p, 1);
            return x;
        }
        case 2: {
            std::uint16_t x;
            std::memcpy(&x, p, 2);
            return x;
        }
        case 4: {
            std::uint32_t x;
            std::memcpy(&x, p, 4);
            return x;
        }
        case 8: {
            std::uint64_t x;
            std::memcpy(&x, p, 8);
            return x;
        }
        default: {
            std::uint64_t x = 0;
            std::memcpy(&x, p, nbytes);
            return x;
        }
    }
}
std::uint64_t put_value(gasnet_node_t w, gasnet_node_t d, int k) {
    // Every byte nonzero and distinct from kFill; the high bytes differ from the low ones.
    return 0xF1E2D3C4B5A69788ull ^ (std::uint64_t(w + 1) << 4) ^ (std::uint64_t(d + 1) << 12) ^
           (std::uint64_t(k + 1) << 20);
}

TEST_F(ExtendedValue, PutValEveryWidthEveryNode) {
    if (!enough_segment()) GTEST_SKIP() << "needs <= 8 nodes and 16 MiB segments";
    const gasnet_node_t n = nodes(), self = me();
    constexpr int kCells = 3 * kNumWidths;  // every width x 3 forms, 16 bytes each
    for (gasnet_node_t w = 0; w < n; ++w) std::memset(my_slot(w), kFill, kGuard + 16 * kCells + kGuard);
    barrier();
    std::vector<gasnet_handle_t> hs;
    for (gasnet_node_t r = 0; r < n; ++r) {
        const gasnet_node_t d = (self + r) % n;
        for (int k = 0; k < kCells; ++k) {
            const std::size_t nb = kWidths[k / 3];
            unsigned char* dst = slot(d, self) + kGuard + 16 * k;
            const std::uint64_t v = put_value(self, d, k);
            switch (k % 3) {
                case 0: gasnet_put_val(d, dst, v, nb); break;
                case 1: hs.push_back(gasnet_put_nb_val(d, dst, v, nb)); break;
                default: gasnet_put_nbi_val(d, dst, v, nb); break;
            }
        }
    }
    gasnet_wait_syncnb_all(hs.data(), hs.size());
    expect_all_invalid(hs, "gasnet_wait_syncnb_all on put_nb_val handles");
    gasnet_wait_syncnbi_puts();
    barrier();
    static const char* kForm[] = {"gasnet_put_val", "gasnet_put_nb_val", "gasnet_put_nbi_val"};
    for (gasnet_node_t w = 0; w < n; ++w) {
        std::string why;
        EXPECT_TRUE(all_bytes(my_slot(w), kGuard, kFill, &why)) << "before the cells of node " << w << ": " << why;
        for (int k = 0; k < kCells; ++k) {
            const std::size_t nb = kWidths[k / 3];
            unsigned char want[16];
            std::memset(want, kFill, 16);
            store_low(want, put_value(w, self, k), nb);
            const unsigned char* got = my_slot(w) + kGuard + 16 * k;
            EXPECT_EQ(std::memcmp(got, want, 16), 0)
                << kForm[k % 3] << " of " << nb << " bytes from node " << w << ": wrote "
                << ::testing::PrintToString(std::vector<int>(got, got + 16)) << ", want "
                << ::testing::PrintToString(std::vector<int>(want, want + 16));
        }
    }
}

TEST_F(ExtendedValue, GetValZeroExtendsEveryWidthEveryNode) {
    const gasnet_node_t n = nodes(), self = me();
    fill_val_area();
    barrier();
    struct Want {
        gasnet_node_t d;
        std::size_t nb, off;
        std::uint64_t value;
    };
    std::vector<Want> wants;
    for (gasnet_node_t r = 0; r < n; ++r) {
        const gasnet_node_t d = (self + r) % n;
        unsigned char bytes[64];
        for (std::size_t i = 0; i < 64; ++i) bytes[i] = val_byte(d, i);
        for (std::size_t nb : kWidths)
            for (std::size_t off = 0; off + nb <= 64; off += nb == 1 ? 5 : (nb & (nb - 1)) ? 8 : nb)
                wants.push_back({d, nb, off, load_zext(bytes + off, nb)});
    }
    for (const auto& w : wants) {
        const std::uint64_t got = gasnet_get_val(w.d, seg_addr(w.d) + kValBase + w.off, w.nb);
        EXPECT_EQ(got, w.value) << "gasnet_get_val of " << w.nb << " bytes from node " << w.d << " at offset " << w.off
                                << " (want zero-extended)";
    }
    // All non-blocking value gets in flight, then synchronized in reverse order.
    std::vector<gasnet_valget_handle_t> vh;
    for (const auto& w : wants) vh.push_back(gasnet_get_nb_val(w.d, seg_addr(w.d) + kValBase + w.off, w.nb));
    for (std::size_t i = wants.size(); i-- > 0;) {
        const std::uint64_t got = gasnet_wait_syncnb_valget(vh[i]);
        EXPECT_EQ(got, wants[i].value) << "gasnet_get_nb_val of " << wants[i].nb << " bytes from node " << wants[i].d
                                       << " at offset " << wants[i].off;
    }
}

}  // namespace
