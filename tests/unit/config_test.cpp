// tests/unit/config_test.cpp -- the option table read from the environment.
#include "src/runtime/config.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

using gasket::rt::Config;
using gasket::rt::load_config;

namespace {
// Sets (or, with nullptr, clears) one variable for the life of the object.
class EnvVar {
public:
    EnvVar(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old, had_ = true;
        if (value)
            setenv(name, value, 1);
        else
            unsetenv(name);
    }
    ~EnvVar() {
        if (had_)
            setenv(name_, old_.c_str(), 1);
        else
            unsetenv(name_);
    }

private:
    const char* name_;
    std::string old_;
    bool had_ = false;
};

Config load_ok() {
    Config c;
    std::string error;
    EXPECT_TRUE(load_config(c, error)) << error;
    return c;
}
}  // namespace

TEST(Config, Defaults) {
    EnvVar a("SHMEM_SYMMETRIC_SIZE", nullptr), b("SMA_SYMMETRIC_SIZE", nullptr), c("SHMEM_DEBUG", nullptr),
        d("GASKET_NODE_FASTPATH", nullptr);
    Config cfg = load_ok();
    EXPECT_EQ(cfg.symmetric_size, std::size_t(128) << 20);
    EXPECT_FALSE(cfg.debug);
    EXPECT_TRUE(cfg.node_fastpath);
    EXPECT_TRUE(cfg.shared_data);
}

TEST(Config, SpecNamesWinOverDeprecatedOnes) {
    EnvVar a("SMA_SYMMETRIC_SIZE", "1M");
    {
        EnvVar b("SHMEM_SYMMETRIC_SIZE", nullptr);
        EXPECT_EQ(load_ok().symmetric_size, std::size_t(1) << 20);
    }
    EnvVar b("SHMEM_SYMMETRIC_SIZE", "2M");
    EXPECT_EQ(load_ok().symmetric_size, std::size_t(2) << 20);
}

TEST(Config, FlagsAndSwitches) {
    EnvVar a("SHMEM_DEBUG", "yes please"), b("SMA_INFO", "1"), c("GASKET_NODE_FASTPATH", "off"),
        d("GASKET_SHARED_DATA", "No");
    Config cfg = load_ok();
    EXPECT_TRUE(cfg.debug);
    EXPECT_TRUE(cfg.info);
    EXPECT_FALSE(cfg.node_fastpath);
    EXPECT_FALSE(cfg.shared_data);
}

TEST(Config, GasnetAndProgressOptions) {
    {
        Config cfg = load_ok();
        EXPECT_EQ(cfg.progress_thread, gasket::rt::Tristate::automatic);
        EXPECT_EQ(cfg.max_segsize, 0u);
        EXPECT_DOUBLE_EQ(cfg.exit_timeout, 2.0);
    }
    EnvVar a("GASKET_PROGRESS_THREAD", "OFF"), b("GASNET_MAX_SEGSIZE", "64M"), c("GASKET_EXIT_TIMEOUT", "0.5");
    Config cfg = load_ok();
    EXPECT_EQ(cfg.progress_thread, gasket::rt::Tristate::off);
    EXPECT_EQ(cfg.max_segsize, std::size_t(64) << 20);
    EXPECT_DOUBLE_EQ(cfg.exit_timeout, 0.5);
    EnvVar d("GASKET_PROGRESS_THREAD", "on");
    EXPECT_EQ(load_ok().progress_thread, gasket::rt::Tristate::on);
}

TEST(Config, NbiBatch) {
    {
        EnvVar v("GASKET_NBI_BATCH", nullptr);
        EXPECT_EQ(load_ok().nbi_batch, gasket::rt::Tristate::automatic);
    }
    for (auto [value, want] : {std::pair{"on", gasket::rt::Tristate::on}, std::pair{"0", gasket::rt::Tristate::off},
                               std::pair{"Auto", gasket::rt::Tristate::automatic}}) {
        EnvVar v("GASKET_NBI_BATCH", value);
        EXPECT_EQ(load_ok().nbi_batch, want) << value;
    }
    EnvVar v("GASKET_NBI_BATCH", "256");
    Config c;
    std::string error;
    EXPECT_FALSE(load_config(c, error));
    EXPECT_NE(error.find("GASKET_NBI_BATCH='256' is not on|off|auto"), std::string::npos) << error;
}

TEST(Config, BadGasnetValuesNameTheVariableAndValue) {
    for (auto [name, value] : {std::pair{"GASKET_PROGRESS_THREAD", "maybe"}, std::pair{"GASKET_EXIT_TIMEOUT", "-1"},
                               std::pair{"GASKET_EXIT_TIMEOUT", "2x"}}) {
        EnvVar v(name, value);
        Config c;
        std::string error;
        EXPECT_FALSE(load_config(c, error)) << name << "=" << value;
        EXPECT_NE(error.find(std::string(name) + "='" + value + "'"), std::string::npos) << error;
    }
}

// A malformed GASNET_MAX_SEGSIZE must not stop an OpenSHMEM program: the
// configuration loads, and the problem (naming the variable and the value)
// is kept for gasnet_init to report.
TEST(Config, BadMaxSegsizeIsKeptForGasnetOnly) {
    EnvVar v("GASNET_MAX_SEGSIZE", "big");
    Config cfg = load_ok();
    EXPECT_EQ(cfg.max_segsize, 0u);
    EXPECT_NE(cfg.max_segsize_problem.find("GASNET_MAX_SEGSIZE='big'"), std::string::npos) << cfg.max_segsize_problem;
    EnvVar w("GASNET_MAX_SEGSIZE", "64M");
    EXPECT_EQ(load_ok().max_segsize_problem, "");
}

// Messages about the heap size name the variable and the value as given.
TEST(Config, SymmetricSizeSettingNamesTheVariable) {
    EXPECT_EQ(load_ok().symmetric_size_setting, "SHMEM_SYMMETRIC_SIZE unset: default 128M");
    EnvVar v("SHMEM_SYMMETRIC_SIZE", "16T");
    EXPECT_EQ(load_ok().symmetric_size_setting, "SHMEM_SYMMETRIC_SIZE=16T");
}

TEST(Config, ContextWindows) {
    EXPECT_EQ(load_ok().ctx_windows, 4);
    {
        EnvVar v("GASKET_CTX_WINDOWS", "0");
        EXPECT_EQ(load_ok().ctx_windows, 0);
    }
    {
        EnvVar v("GASKET_CTX_WINDOWS", "64");
        EXPECT_EQ(load_ok().ctx_windows, 64);
    }
    for (const char* value : {"65", "-1", "four", "4x", ""}) {
        EnvVar v("GASKET_CTX_WINDOWS", value);
        Config c;
        std::string error;
        if (*value == '\0') {  // set but empty: the default
            EXPECT_TRUE(load_config(c, error)) << error;
            EXPECT_EQ(c.ctx_windows, 4);
            continue;
        }
        EXPECT_FALSE(load_config(c, error)) << value;
        EXPECT_NE(error.find(std::string("GASKET_CTX_WINDOWS='") + value + "'"), std::string::npos) << error;
    }
}

TEST(Config, BadValuesNameTheVariableAndValue) {
    {
        EnvVar a("SHMEM_SYMMETRIC_SIZE", "lots");
        Config c;
        std::string error;
        EXPECT_FALSE(load_config(c, error));
        EXPECT_NE(error.find("SHMEM_SYMMETRIC_SIZE"), std::string::npos) << error;
        EXPECT_NE(error.find("lots"), std::string::npos) << error;
    }
    EnvVar b("GASKET_NODE_FASTPATH", "sometimes");
    Config c;
    std::string error;
    EXPECT_FALSE(load_config(c, error));
    EXPECT_NE(error.find("GASKET_NODE_FASTPATH='sometimes'"), std::string::npos) << error;
}

TEST(Config, TableListsEveryVariableWithValueAndDefault) {
    EnvVar a("SHMEM_SYMMETRIC_SIZE", "3M");
    auto rows = gasket::rt::describe(load_ok());
    bool found = false;
    for (const auto& r : rows)
        if (r.name == "SHMEM_SYMMETRIC_SIZE") {
            found = true;
            EXPECT_EQ(r.value, "3M");
            EXPECT_EQ(r.default_value, "128M");
            EXPECT_FALSE(r.help.empty());
        }
    EXPECT_TRUE(found);
    for (const char* name : {"SHMEM_DEBUG", "SHMEM_INFO", "SHMEM_VERSION", "GASKET_NODE_FASTPATH", "GASKET_SHARED_DATA",
                             "GASKET_PROGRESS_THREAD", "GASNET_MAX_SEGSIZE", "GASKET_EXIT_TIMEOUT",
                             "GASKET_CTX_WINDOWS", "GASKET_NBI_BATCH", "GASKET_GASP_TOOL"}) {
        bool listed = false;
        for (const auto& r : rows) listed |= r.name == name;
        EXPECT_TRUE(listed) << name;
    }
    EXPECT_NE(gasket::rt::format_table(rows).find("SHMEM_SYMMETRIC_SIZE"), std::string::npos);
}
