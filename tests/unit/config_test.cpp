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
    for (const char* name : {"SHMEM_DEBUG", "SHMEM_INFO", "SHMEM_VERSION", "GASKET_NODE_FASTPATH", "GASKET_SHARED_DATA"}) {
        bool listed = false;
        for (const auto& r : rows) listed |= r.name == name;
        EXPECT_TRUE(listed) << name;
    }
    EXPECT_NE(gasket::rt::format_table(rows).find("SHMEM_SYMMETRIC_SIZE"), std::string::npos);
}
