// A session directory built under a temporary name beside its target, removed unless released.
#pragma once

#include <string>

namespace lv::convert {

class TempTarget {
public:
    TempTarget() = default;
    ~TempTarget(); // removes the temporary directory unless released
    TempTarget(const TempTarget&) = delete;
    TempTarget& operator=(const TempTarget&) = delete;

    // A free "<target>.tmp-<pid>-<n>" name (not created), or empty. Temporaries of earlier runs whose
    // process no longer exists (killed, crashed) are removed first.
    std::string reserve(const std::string& target);
    // Renames the temporary directory to the target; afterwards nothing is removed.
    bool commit(const std::string& target);

private:
    std::string m_path;
};

} // namespace lv::convert
