// src/gasnet/tools.cpp -- the out-of-line GASNet tools (include/gasnet_tools.h,
// GASNet tools specification 1.20): timers, sleep, system properties,
// environment utilities, backtraces and debugger freeze, fatal errors,
// reader/writer locks and the rest of "Miscellaneous tools".  POSIX and
// glibc only (no MPI, no runtime): a tools-only client needs no job.
#include <gasnet_tools.h>

#include <execinfo.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>

// A volatile flag a debugger clears (set var gasket_gasnett_frozen = 0) to
// release gasnett_freezeForDebuggerErr; C linkage keeps its name plain in
// the symbol table.
extern "C" {
static volatile int gasket_gasnett_frozen = 1;
}

namespace gasket::gasnet::tools {
namespace {

std::string upper(std::string_view s) {
    std::string u(s);
    for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return u;
}

// "Y|YES|1" -> 1, "N|NO|0" -> 0 (any case), anything else -> nullopt.
std::optional<int> yes_no(std::string_view text) {
    const std::string u = upper(text);
    if (u == "Y" || u == "YES" || u == "1") return 1;
    if (u == "N" || u == "NO" || u == "0") return 0;
    return std::nullopt;
}

bool env_true(const char* name) {
    const char* v = std::getenv(name);
    return v && *v && yes_no(v).value_or(0) == 1;
}

[[noreturn]] void die(const char* text) {
    std::fprintf(stderr, "%s\n", text);
    std::fflush(stderr);
    if (gasnett_print_backtrace_ifenabled) gasnett_print_backtrace_ifenabled(STDERR_FILENO);
    gasnett_freezeForDebuggerErr();
    std::abort();
}

[[noreturn]] void vfatal(const char* prefix, const char* msg, va_list ap) {
    char text[1024];
    int n = std::snprintf(text, sizeof text, "gasnett: %s", prefix);
    if (n < 0) n = 0;
    std::vsnprintf(text + std::min<size_t>(static_cast<size_t>(n), sizeof text - 1),
                   sizeof text - std::min<size_t>(static_cast<size_t>(n), sizeof text - 1), msg, ap);
    die(text);
}

[[noreturn]] void fatal(const char* call, const char* fmt, ...) {
    char prefix[128];
    std::snprintf(prefix, sizeof prefix, "%s: ", call);
    va_list ap;
    va_start(ap, fmt);
    vfatal(prefix, fmt, ap);
}

std::string trimmed(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return std::string(s);
}

// gasnett_parse_int's grammar; nullopt for text it does not accept.
std::optional<int64_t> parse_int(const char* str, uint64_t mem_size_multiplier) {
    const std::string s = trimmed(str);
    size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    if (i >= s.size() || !(std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    if (mem_size_multiplier == 0) {
        const bool hex = s.size() > i + 1 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
        const long long v = std::strtoll(s.c_str(), &end, hex ? 16 : 10);
        if (errno == ERANGE || end == s.c_str() || *end != '\0') return std::nullopt;
        return static_cast<int64_t>(v);
    }
    if (s.size() > i + 1 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) return std::nullopt;
    const double number = std::strtod(s.c_str(), &end);
    if (errno == ERANGE || end == s.c_str()) return std::nullopt;
    const std::string unit = upper(trimmed(end));
    int64_t scale;
    if (unit.empty())
        scale = static_cast<int64_t>(std::min<uint64_t>(mem_size_multiplier, INT64_MAX));
    else if (unit == "B")
        scale = 1;
    else if (unit == "K" || unit == "KB")
        scale = int64_t{1} << 10;
    else if (unit == "M" || unit == "MB")
        scale = int64_t{1} << 20;
    else if (unit == "G" || unit == "GB")
        scale = int64_t{1} << 30;
    else if (unit == "T" || unit == "TB")
        scale = int64_t{1} << 40;
    else
        return std::nullopt;
    // A whole number is scaled exactly; a fraction ("1.5K") through double.
    const std::string digits = s.substr(0, static_cast<size_t>(end - s.c_str()));
    if (digits.find_first_of(".eE") == std::string::npos) {
        errno = 0;
        const long long whole = std::strtoll(digits.c_str(), nullptr, 10);
        long long bytes;
        if (errno == ERANGE || __builtin_mul_overflow(whole, static_cast<long long>(scale), &bytes))
            return std::nullopt;
        return static_cast<int64_t>(bytes);
    }
    const double bytes = std::nearbyint(number * static_cast<double>(scale));
    if (!std::isfinite(bytes) || bytes >= 0x1p63 || bytes < -0x1p63) return std::nullopt;
    return static_cast<int64_t>(bytes);
}

// A value of gasnett_getenv_dbl_withdefault's grammar: a number or "a/b".
std::optional<double> parse_double(const char* str) {
    const std::string s = trimmed(str);
    if (s.empty()) return std::nullopt;
    char* end = nullptr;
    const double a = std::strtod(s.c_str(), &end);
    if (end == s.c_str()) return std::nullopt;
    if (*end == '\0') return a;
    if (*end != '/') return std::nullopt;
    const char* rest = end + 1;
    const double b = std::strtod(rest, &end);
    if (end == rest || *end != '\0' || b == 0) return std::nullopt;
    return a / b;
}

// "ENV parameter: KEY = value", once per key, iff gasnett_verboseenv().
void display(const char* key, const std::string& value, int is_dflt) {
    if (!gasnett_verboseenv()) return;
    static std::mutex lock;
    static std::set<std::string> shown;
    std::lock_guard<std::mutex> guard(lock);
    if (!shown.insert(key).second) return;
    std::fprintf(stderr, "ENV parameter: %s = %s%s\n", key, value.c_str(), is_dflt ? "   (default)" : "");
    std::fflush(stderr);
}

// The value of `key`, or nullptr when unset or empty.
const char* value_of(const char* key) {
    const char* v = key ? std::getenv(key) : nullptr;
    return v && *v ? v : nullptr;
}

int backtrace_if_enabled(int fd) { return env_true("GASNET_BACKTRACE") ? gasnett_print_backtrace(fd) : 0; }

pthread_rwlock_t* rwlock_of(gasnett_rwlock_t* l) {
    static_assert(sizeof(pthread_rwlock_t) <= sizeof l->gasketi_storage, "gasnett_rwlock_t too small");
    static_assert(alignof(pthread_rwlock_t) <= alignof(gasnett_rwlock_t), "gasnett_rwlock_t underaligned");
    if (!l) fatal("gasnett_rwlock", "NULL lock");
    return reinterpret_cast<pthread_rwlock_t*>(l->gasketi_storage.gasketi_bytes);
}

void rw_check(const char* call, int err) {
    if (err) gasket_gasnett_pthread_fatal(call, err);
}

std::string exe_path() {
    char buf[4096];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

}  // namespace
}  // namespace gasket::gasnet::tools

using namespace gasket::gasnet::tools;

extern "C" {

gasnett_backtrace_fn_t gasnett_print_backtrace_ifenabled = &backtrace_if_enabled;

// ---- Timers, sleep ------------------------------------------------------
gasnett_tick_t gasnett_ticks_now(void) noexcept {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<gasnett_tick_t>(ts.tv_sec) * 1000000000u + static_cast<gasnett_tick_t>(ts.tv_nsec);
}

double gasnett_tick_granularityus(void) noexcept {
    static const double us = [] {
        gasnett_tick_t best = GASNETT_TICK_MAX;
        for (int i = 0; i < 1000; i++) {
            const gasnett_tick_t t0 = gasnett_ticks_now();
            gasnett_tick_t t1;
            while ((t1 = gasnett_ticks_now()) == t0) {}
            best = std::min(best, t1 - t0);
        }
        return static_cast<double>(best) / 1000.0;
    }();
    return us;
}

double gasnett_tick_overheadus(void) noexcept {
    static const double us = [] {
        constexpr int calls = 100000;
        const gasnett_tick_t t0 = gasnett_ticks_now();
        for (int i = 0; i < calls; i++) (void)gasnett_ticks_now();
        return static_cast<double>(gasnett_ticks_now() - t0) / calls / 1000.0;
    }();
    return us;
}

int gasnett_nsleep(uint64_t ns_delay) noexcept {
    if (ns_delay == 0) return 0;
    timespec ts;
    ts.tv_sec = static_cast<time_t>(ns_delay / 1000000000u);
    ts.tv_nsec = static_cast<long>(ns_delay % 1000000000u);
    return nanosleep(&ts, nullptr) == 0 ? 0 : -1;
}

// ---- System properties --------------------------------------------------
const char* gasnett_gethostname(void) noexcept {
    static const std::string name = [] {
        char buf[256] = {};
        if (gethostname(buf, sizeof buf - 1) != 0) return std::string();
        std::string s(buf);
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    }();
    return name.c_str();
}

const char* gasnett_exe_name(void) noexcept {
    static const std::string name = exe_path();
    return name.c_str();
}

int gasnett_cpu_count(void) noexcept {
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<int>(n) : 0;
}

uint64_t gasnett_getPhysMemSz(int failureIsFatal) noexcept {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
    if (failureIsFatal) fatal("gasnett_getPhysMemSz", "the physical memory size is unknown (sysconf failed)");
    return 0;
}

int gasnett_isLittleEndian(void) noexcept {
    const uint16_t one = 1;
    unsigned char first;
    std::memcpy(&first, &one, 1);
    return first == 1;
}

const char* gasnett_performance_warning_str(void) noexcept { return ""; }

const char* gasnett_release_version_str(void) noexcept {
    static const std::string text = std::to_string(GASNETT_RELEASE_VERSION_MAJOR) + "." +
                                    std::to_string(GASNETT_RELEASE_VERSION_MINOR) + "." +
                                    std::to_string(GASNETT_RELEASE_VERSION_PATCH);
    return text.c_str();
}

uint64_t gasnett_release_version(void) noexcept {
    return GASNETT_RELEASE_VERSION_MAJOR * 10000ull + GASNETT_RELEASE_VERSION_MINOR * 100ull +
           GASNETT_RELEASE_VERSION_PATCH;
}

// ---- Environment utilities ----------------------------------------------
char* gasnett_format_number(int64_t val, char* buf, size_t bufsz, int is_mem_size) noexcept {
    if (!buf || bufsz == 0) return buf;
    static const char* const units[] = {"TB", "GB", "MB", "KB"};
    if (is_mem_size) {
        for (int i = 0; i < 4; i++) {
            const int64_t unit = int64_t{1} << (40 - 10 * i);
            if (val != 0 && val % unit == 0) {
                std::snprintf(buf, bufsz, "%" PRId64 "%s", val / unit, units[i]);
                return buf;
            }
        }
        std::snprintf(buf, bufsz, "%" PRId64 "B", val);
        return buf;
    }
    std::snprintf(buf, bufsz, "%" PRId64, val);
    return buf;
}

int64_t gasnett_parse_int(const char* str, uint64_t mem_size_multiplier) noexcept {
    if (!str) fatal("gasnett_parse_int", "NULL string");
    const auto v = parse_int(str, mem_size_multiplier);
    if (!v)
        fatal("gasnett_parse_int", "'%s' is not %s", str,
              mem_size_multiplier ? "a memory size (number with optional B|KB|MB|GB|TB)"
                                  : "an integer (decimal or 0x hex) in int64_t range");
    return *v;
}

void gasnett_setenv(const char* key, const char* value) noexcept {
    if (!key || !*key || std::strchr(key, '=') || !value)
        fatal("gasnett_setenv", "bad arguments (key '%s', value '%s')", key ? key : "(null)", value ? value : "(null)");
    if (setenv(key, value, 1) != 0) fatal("gasnett_setenv", "setenv(%s) failed: %s", key, std::strerror(errno));
}

void gasnett_unsetenv(const char* key) noexcept {
    if (!key || !*key || std::strchr(key, '=')) fatal("gasnett_unsetenv", "bad key '%s'", key ? key : "(null)");
    unsetenv(key);
}

char* gasnett_getenv(const char* keyname) noexcept { return keyname ? std::getenv(keyname) : nullptr; }

char* gasnett_getenv_withdefault(const char* keyname, const char* defaultval) noexcept {
    const char* v = value_of(keyname);
    const char* result = v ? v : defaultval;
    display(keyname, result ? result : "(null)", v == nullptr);
    return const_cast<char*>(result);
}

int gasnett_getenv_yesno_withdefault(const char* keyname, int defaultval) noexcept {
    const char* v = value_of(keyname);
    int result = defaultval ? 1 : 0;
    if (v) {
        const auto yn = yes_no(trimmed(v));
        if (!yn) fatal("gasnett_getenv_yesno_withdefault", "%s='%s' is not yes or no (Y|YES|1 or N|NO|0)", keyname, v);
        result = *yn;
    }
    display(keyname, result ? "YES" : "NO", v == nullptr);
    return result;
}

int64_t gasnett_getenv_int_withdefault(const char* keyname, int64_t defaultval, uint64_t mem_size_multiplier) noexcept {
    const char* v = value_of(keyname);
    int64_t result = defaultval;
    if (v) {
        const auto parsed = parse_int(v, mem_size_multiplier);
        if (!parsed)
            fatal("gasnett_getenv_int_withdefault", "%s='%s' is not %s", keyname, v,
                  mem_size_multiplier ? "a memory size (number with optional B|KB|MB|GB|TB)"
                                      : "an integer (decimal or 0x hex) in int64_t range");
        result = *parsed;
    }
    gasnett_envint_display(keyname, result, v == nullptr, mem_size_multiplier != 0);
    return result;
}

double gasnett_getenv_dbl_withdefault(const char* keyname, double defaultval) noexcept {
    const char* v = value_of(keyname);
    double result = defaultval;
    if (v) {
        const auto parsed = parse_double(v);
        if (!parsed)
            fatal("gasnett_getenv_dbl_withdefault", "%s='%s' is not a number or fraction (1.5, -1e4, 3/8)", keyname, v);
        result = *parsed;
    }
    gasnett_envdbl_display(keyname, result, v == nullptr);
    return result;
}

int gasnett_verboseenv(void) noexcept {
    if (!env_true("GASNET_VERBOSEENV")) return 0;
    // Under a launcher, one process reports (rank 0), as GASNet's node 0 does.
    for (const char* rank_var : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"}) {
        const char* r = std::getenv(rank_var);
        if (r && *r) return std::strcmp(r, "0") == 0;
    }
    return 1;
}

void gasnett_envint_display(const char* key, int64_t val, int is_dflt, int is_mem_size) noexcept {
    char buf[64];
    display(key, gasnett_format_number(val, buf, sizeof buf, is_mem_size), is_dflt);
}

void gasnett_envstr_display(const char* key, const char* val, int is_dflt) noexcept {
    display(key, val ? val : "(null)", is_dflt);
}

void gasnett_envdbl_display(const char* key, double val, int is_dflt) noexcept {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", val);
    display(key, buf, is_dflt);
}

// ---- Backtracing and debugger attach ------------------------------------
void gasnett_freezeForDebuggerNow(volatile int* flag, const char* flagsymname) noexcept {
    if (!flag) fatal("gasnett_freezeForDebuggerNow", "NULL flag");
    if (!*flag) return;
    std::fprintf(stderr, "gasnett: process %d on %s frozen for a debugger: attach (gdb -p %d) and set %s = 0\n",
                 static_cast<int>(getpid()), gasnett_gethostname(), static_cast<int>(getpid()),
                 flagsymname ? flagsymname : "the flag");
    std::fflush(stderr);
    while (*flag) gasnett_nsleep(10000000);
}

void gasnett_freezeForDebuggerErr(void) noexcept {
    if (!env_true("GASNET_FREEZE_ON_ERROR")) return;
    gasket_gasnett_frozen = 1;  // freeze again after an earlier release
    gasnett_freezeForDebuggerNow(&gasket_gasnett_frozen, "gasket_gasnett_frozen");
}

void gasnett_backtrace_init(const char* exename) noexcept { (void)exename; }

int gasnett_print_backtrace(int fd) noexcept {
    void* frames[128];
    const int n = backtrace(frames, 128);
    if (n <= 0) return 1;
    backtrace_symbols_fd(frames, n, fd);
    return 0;
}

// ---- Miscellaneous tools ------------------------------------------------
void gasnett_sched_yield(void) noexcept { sched_yield(); }

void gasnett_flush_streams(void) noexcept {
    std::fflush(stdout);
    std::fflush(stderr);
}

void gasnett_close_streams(void) noexcept {
    std::fclose(stdin);
    std::fclose(stdout);
    std::fclose(stderr);
}

void gasnett_fatalerror_nopos(const char* msg, ...) noexcept {
    va_list ap;
    va_start(ap, msg);
    vfatal("FATAL ERROR: ", msg ? msg : "(null)", ap);
}

void gasket_gasnett_fatal_at(const char* file, int line, const char* func, const char* msg, ...) noexcept {
    char prefix[512];
    std::snprintf(prefix, sizeof prefix, "FATAL ERROR in %s at %s:%d: ", func ? func : "?", file ? file : "?", line);
    va_list ap;
    va_start(ap, msg);
    vfatal(prefix, msg ? msg : "(null)", ap);
}

void gasnett_killmyprocess(int exitcode) noexcept { _exit(exitcode); }

gasnett_sighandlerfn_t gasnett_reghandler(int sigtocatch, gasnett_sighandlerfn_t fp) noexcept {
    struct sigaction act {};
    struct sigaction old {};
    act.sa_handler = fp;
    sigemptyset(&act.sa_mask);
    if (sigaction(sigtocatch, &act, &old) != 0) return SIG_ERR;
    return old.sa_handler;
}

uint64_t gasnett_checksum(const void* p, int numbytes) noexcept {
    // 64-bit FNV-1a over the bytes.
    uint64_t h = 14695981039346656037ull;
    const auto* b = static_cast<const unsigned char*>(p);
    for (int i = 0; p && i < numbytes; i++) h = (h ^ b[i]) * 1099511628211ull;
    return numbytes > 0 && p ? h : 0;
}

size_t gasnett_count0s(const void* p, size_t numbytes) noexcept {
    const auto* b = static_cast<const unsigned char*>(p);
    return p ? static_cast<size_t>(std::count(b, b + numbytes, 0)) : 0;
}

size_t gasnett_count0s_copy(void* GASNETT_RESTRICT dst, const void* GASNETT_RESTRICT src, size_t numbytes) noexcept {
    if (numbytes) std::memcpy(dst, src, numbytes);
    return gasnett_count0s(src, numbytes);
}

int gasnett_maximize_rlimit(int res, const char* lim_desc) noexcept {
    const std::string var = std::string("GASNET_MAXIMIZE_") + (lim_desc ? lim_desc : "");
    if (lim_desc && !gasnett_getenv_yesno_withdefault(var.c_str(), 1)) return 1;
    rlimit lim;
    if (getrlimit(res, &lim) != 0) return 0;
    if (lim.rlim_cur == lim.rlim_max) return 1;
    lim.rlim_cur = lim.rlim_max;
    return setrlimit(res, &lim) == 0;
}

int gasnett_maximize_rlimits(void) noexcept {
    int ok = 1;
    ok &= gasnett_maximize_rlimit(RLIMIT_CPU, "RLIMIT_CPU");
    ok &= gasnett_maximize_rlimit(RLIMIT_DATA, "RLIMIT_DATA");
    ok &= gasnett_maximize_rlimit(RLIMIT_RSS, "RLIMIT_RSS");
    ok &= gasnett_maximize_rlimit(RLIMIT_STACK, "RLIMIT_STACK");
    ok &= gasnett_maximize_rlimit(RLIMIT_AS, "RLIMIT_AS");
    ok &= gasnett_maximize_rlimit(RLIMIT_NPROC, "RLIMIT_NPROC");
    ok &= gasnett_maximize_rlimit(RLIMIT_MEMLOCK, "RLIMIT_MEMLOCK");
    return ok;
}

int gasnett_set_affinity(int rank) noexcept {
    (void)rank;
    return 1;
}

char* gasket_gasnett_loc(const char* file, int line, const char* func) noexcept {
    const int n = std::snprintf(nullptr, 0, "%s at %s:%d", func ? func : "?", file ? file : "?", line);
    char* text = static_cast<char*>(std::malloc(static_cast<size_t>(n) + 1));
    if (text)
        std::snprintf(text, static_cast<size_t>(n) + 1, "%s at %s:%d", func ? func : "?", file ? file : "?", line);
    return text;
}

// ---- Reader/Writer locks, and the mutex wrappers' errors -----------------
void gasnett_rwlock_init(gasnett_rwlock_t* l) noexcept {
    std::memset(l, 0, sizeof *l);
    rw_check("gasnett_rwlock_init", pthread_rwlock_init(rwlock_of(l), nullptr));
}

void gasnett_rwlock_destroy(gasnett_rwlock_t* l) noexcept {
    rw_check("gasnett_rwlock_destroy", pthread_rwlock_destroy(rwlock_of(l)));
}

void gasnett_rwlock_rdlock(gasnett_rwlock_t* l) noexcept {
    int err;
    while ((err = pthread_rwlock_rdlock(rwlock_of(l))) == EAGAIN) sched_yield();  // reader limit: wait
    rw_check("gasnett_rwlock_rdlock", err);
}

void gasnett_rwlock_wrlock(gasnett_rwlock_t* l) noexcept {
    rw_check("gasnett_rwlock_wrlock", pthread_rwlock_wrlock(rwlock_of(l)));
}

void gasnett_rwlock_unlock(gasnett_rwlock_t* l) noexcept {
    rw_check("gasnett_rwlock_unlock", pthread_rwlock_unlock(rwlock_of(l)));
}

int gasnett_rwlock_tryrdlock(gasnett_rwlock_t* l) noexcept {
    const int err = pthread_rwlock_tryrdlock(rwlock_of(l));
    if (err != 0 && err != EBUSY && err != EAGAIN) rw_check("gasnett_rwlock_tryrdlock", err);
    return err;
}

int gasnett_rwlock_trywrlock(gasnett_rwlock_t* l) noexcept {
    const int err = pthread_rwlock_trywrlock(rwlock_of(l));
    if (err != 0 && err != EBUSY) rw_check("gasnett_rwlock_trywrlock", err);
    return err;
}

// err > 0: a pthread error code; the header's own checks pass -1 (the
// calling thread does not hold the mutex), -2 (it already holds it: a
// recursive lock), -3 (it holds it, asserted it does not).
void gasket_gasnett_pthread_fatal(const char* call, int err) noexcept {
    const char* what = err == -1   ? "the calling thread does not hold the mutex"
                       : err == -2 ? "recursive lock: the calling thread already holds the mutex"
                       : err == -3 ? "the calling thread holds the mutex"
                                   : std::strerror(err);
    fatal(call ? call : "gasnett", "%s (error %d)", what, err);
}

}  // extern "C"
