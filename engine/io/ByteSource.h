// Random-access byte sources: a file, a byte range of a file (tar member), or memory.
#pragma once

#include "core/Error.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace lv::io {

class ByteSource {
public:
    virtual ~ByteSource() = default;
    virtual const std::string& path() const = 0; // the name used in error messages
    virtual std::uint64_t size() const = 0;
    // Reads exactly out.size() bytes at offset; a short read is a Truncated error naming path and offset.
    virtual core::Status readAt(std::uint64_t offset, std::span<std::uint8_t> out) const = 0;

    // A hint that [offset, offset + size) will be read soon: a file asks for it to be read into the page cache
    // (one request, not waited for); other sources ignore it. Never an error.
    virtual void willNeed(std::uint64_t offset, std::uint64_t size) const;

    core::Result<std::vector<std::uint8_t>> readAll() const;
    core::Result<std::vector<std::uint8_t>> read(std::uint64_t offset, std::uint64_t count) const;
};

using ByteSourcePtr = std::shared_ptr<const ByteSource>;

// Opens a regular file read-only.
core::Result<ByteSourcePtr> openFile(const std::string& path);
// A regular file opened on first use (size or read): many files can be named cheaply, few are opened. An open
// that fails then is reported by the read (size() gives 0).
ByteSourcePtr lazyFile(std::string path);

// The whole content of a regular file.
core::Result<std::vector<std::uint8_t>> readFile(const std::string& path);

// The bytes [offset, offset + size) of another source, named `path` in errors.
ByteSourcePtr subrange(ByteSourcePtr parent, std::uint64_t offset, std::uint64_t size, std::string path);

// An in-memory copy (tests and fuzzing).
ByteSourcePtr memorySource(std::vector<std::uint8_t> bytes, std::string path);

} // namespace lv::io
