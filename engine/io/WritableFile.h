// A file written in place at explicit offsets, with sync and truncate; errors name the file and offset.
#pragma once

#include "core/Error.h"
#include "io/NativeFile.h"

#include <cstdint>
#include <span>
#include <string>

namespace lv::io {

class WritableFile {
public:
    // Creates `path` (it must not exist) or opens an existing file for reading and writing.
    static core::Result<WritableFile> create(const std::string& path);
    static core::Result<WritableFile> openExisting(const std::string& path);

    core::Status writeAt(std::uint64_t offset, std::span<const std::uint8_t> bytes);
    core::Status readAt(std::uint64_t offset, std::span<std::uint8_t> out) const;
    core::Status sync();                       // data and size reach the disk
    core::Status truncate(std::uint64_t size); // drops everything from `size` on
    core::Result<std::uint64_t> size() const;
    core::Status close();
    const std::string& path() const { return m_path; }

private:
    core::Error failure(const std::string& what, const SystemError& e, std::uint64_t offset) const;
    NativeFile m_file;
    std::string m_path;
};

// Makes a rename or a new entry in `dir` durable.
core::Status syncDirectory(const std::string& dir);

// Writes `bytes` to a temporary file beside `path` and renames it over `path`; with `durable` the file is
// synced before the rename and the directory after it.
core::Status replaceFile(const std::string& path, std::span<const std::uint8_t> bytes, bool durable);

} // namespace lv::io
