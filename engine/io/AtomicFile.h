// Output that appears whole or not at all: written to a locked temporary beside the target, moved on commit.
#pragma once

#include "core/Error.h"
#include "io/Temporary.h"

#include <cstdint>
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

    // Creates the locked temporary "<target>.tmp-<pid>-<n>" in the target's directory (Temporary), after
    // removing what killed writers to that target left.
    core::Status open(const std::string& target);
    core::Status write(std::string_view bytes);
    // Flushes, syncs to disk and closes the temporary (no more writes), without moving it: outputs that belong
    // together are all finished before any of them is committed.
    core::Status finish();
    // finish() unless done, then moves the file to the target unless one exists by then (an Io error
    // "the output already exists; choose a new name"; the temporary is removed).
    core::Status commit();
    const std::string& target() const { return m_target; }

private:
    core::Error failure(const std::string& what) const;
    void startWriteback();

    static constexpr std::uint64_t kWritebackBytes = std::uint64_t{16} << 20;
    std::string m_target;
    Temporary m_temp;
    std::uint64_t m_written = 0;       // bytes written so far
    std::uint64_t m_writebackFrom = 0; // the disk writes of [0, this) have been started
    std::FILE* m_file = nullptr;
    bool m_finished = false;
    bool m_committed = false;
};

} // namespace lv::io
