// Output that appears whole or not at all: written to a temporary file beside the target, renamed on commit.
#pragma once

#include "core/Error.h"

#include <cstdio>
#include <string>
#include <string_view>

namespace lv::io {

class AtomicFile {
public:
    AtomicFile() = default;
    ~AtomicFile(); // removes the temporary file unless committed
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    // Creates "<target>.tmp-XXXXXX" in the target's directory.
    core::Status open(const std::string& target);
    core::Status write(std::string_view bytes);
    // Flushes, syncs to disk and renames over the target.
    core::Status commit();
    const std::string& target() const { return m_target; }

private:
    core::Error failure(const std::string& what) const;
    std::string m_target;
    std::string m_temp;
    std::FILE* m_file = nullptr;
    bool m_committed = false;
};

} // namespace lv::io
