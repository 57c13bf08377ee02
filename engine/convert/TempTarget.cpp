// Temporary output directories: unique names, stale ones of dead processes removed, rename on commit.
#include "convert/TempTarget.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace lv::convert {

namespace fs = std::filesystem;

namespace {

void removeStale(const std::string& target)
{
    const fs::path parent = fs::absolute(target).parent_path();
    const std::string prefix = fs::path(target).filename().string() + ".tmp-";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(parent, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) != 0) continue;
        const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
        if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) fs::remove_all(entry.path(), ec);
    }
}

} // namespace

TempTarget::~TempTarget()
{
    std::error_code ec;
    if (!m_path.empty()) fs::remove_all(m_path, ec);
}

std::string TempTarget::reserve(const std::string& target)
{
    removeStale(target);
    for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string candidate = target + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(attempt);
        std::error_code ec;
        if (!fs::exists(candidate, ec)) return m_path = candidate;
    }
    return {};
}

bool TempTarget::commit(const std::string& target)
{
    if (std::rename(m_path.c_str(), target.c_str()) != 0) return false;
    m_path.clear();
    return true;
}

} // namespace lv::convert
