// File (NativeFile), subrange and memory implementations of ByteSource.
#include "io/ByteSource.h"

#include "io/NativeFile.h"
#include "io/Path.h"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace lv::io {

using core::ErrorCode;
using core::makeError;

core::Result<std::vector<std::uint8_t>> ByteSource::readAll() const { return read(0, size()); }

core::Result<std::vector<std::uint8_t>> ByteSource::read(std::uint64_t offset, std::uint64_t count) const
{
    const std::uint64_t total = size();
    if (offset > total || count > total - offset) {  // before allocating: a count read from a file can be absurd
        LV_TRY(readAt(std::min(offset, total), {})); // a file opened on first use says why it could not be
        return makeError(ErrorCode::Truncated,
                         "file is truncated: needed " + std::to_string(count) + " bytes but it has " +
                             std::to_string(total > offset ? total - offset : 0) + " from here",
                         path(), static_cast<std::int64_t>(offset));
    }
    std::vector<std::uint8_t> bytes(count);
    LV_TRY(readAt(offset, bytes));
    return bytes;
}

void ByteSource::willNeed(std::uint64_t, std::uint64_t) const {}

namespace {

core::Error truncated(const std::string& path, std::uint64_t offset, std::size_t want, std::uint64_t size)
{
    return makeError(ErrorCode::Truncated,
                     "file is truncated: needed " + std::to_string(want) + " bytes but it has " +
                         std::to_string(size > offset ? size - offset : 0) + " from here",
                     path, static_cast<std::int64_t>(offset));
}

class FileSource final : public ByteSource {
public:
    FileSource(NativeFile file, std::uint64_t size, std::string path)
        : m_file(std::move(file))
        , m_size(size)
        , m_path(std::move(path))
    {}
    const std::string& path() const override { return m_path; }
    std::uint64_t size() const override { return m_size; }

    core::Status readAt(std::uint64_t offset, std::span<std::uint8_t> out) const override
    {
        if (offset > m_size || out.size() > m_size - offset) return truncated(m_path, offset, out.size(), m_size);
        std::size_t done = 0;
        if (SystemError e = m_file.readAt(offset, out, done); !e.ok())
            return makeError(ErrorCode::Io, "read failed: " + e.text, m_path, static_cast<std::int64_t>(offset + done));
        if (done < out.size()) return truncated(m_path, offset, out.size(), offset + done);
        return {};
    }

    void willNeed(std::uint64_t offset, std::uint64_t size) const override { m_file.willNeed(offset, size); }

private:
    NativeFile m_file;
    std::uint64_t m_size;
    std::string m_path;
};

class SubrangeSource final : public ByteSource {
public:
    SubrangeSource(ByteSourcePtr parent, std::uint64_t offset, std::uint64_t size, std::string path)
        : m_parent(std::move(parent))
        , m_offset(offset)
        , m_size(size)
        , m_path(std::move(path))
    {}
    const std::string& path() const override { return m_path; }
    std::uint64_t size() const override { return m_size; }
    core::Status readAt(std::uint64_t offset, std::span<std::uint8_t> out) const override
    {
        if (offset > m_size || out.size() > m_size - offset) return truncated(m_path, offset, out.size(), m_size);
        core::Status status = m_parent->readAt(m_offset + offset, out);
        if (!status.ok()) {
            core::Error e = status.error();
            e.path = m_path;
            e.offset = static_cast<std::int64_t>(offset);
            return e;
        }
        return {};
    }

private:
    ByteSourcePtr m_parent;
    std::uint64_t m_offset;
    std::uint64_t m_size;
    std::string m_path;
};

class MemorySource final : public ByteSource {
public:
    MemorySource(std::vector<std::uint8_t> bytes, std::string path) : m_bytes(std::move(bytes)), m_path(std::move(path))
    {}
    const std::string& path() const override { return m_path; }
    std::uint64_t size() const override { return m_bytes.size(); }
    core::Status readAt(std::uint64_t offset, std::span<std::uint8_t> out) const override
    {
        if (offset > m_bytes.size() || out.size() > m_bytes.size() - offset)
            return truncated(m_path, offset, out.size(), m_bytes.size());
        if (!out.empty()) std::memcpy(out.data(), m_bytes.data() + offset, out.size());
        return {};
    }

private:
    std::vector<std::uint8_t> m_bytes;
    std::string m_path;
};

} // namespace

core::Result<ByteSourcePtr> openFile(const std::string& path)
{
    NativeFile file;
    if (SystemError e = file.open(toPath(path), NativeFile::Mode::Read); !e.ok())
        return makeError(e.kind == SystemError::Kind::NotFound ? ErrorCode::NotFound : ErrorCode::Io,
                         "cannot open: " + e.text, path);
    std::uint64_t size = 0;
    if (!file.isRegularFile() || !file.size(size).ok()) return makeError(ErrorCode::Io, "not a regular file", path);
    return ByteSourcePtr(std::make_shared<FileSource>(std::move(file), size, path));
}

ByteSourcePtr subrange(ByteSourcePtr parent, std::uint64_t offset, std::uint64_t size, std::string path)
{
    return std::make_shared<SubrangeSource>(std::move(parent), offset, size, std::move(path));
}

ByteSourcePtr memorySource(std::vector<std::uint8_t> bytes, std::string path)
{
    return std::make_shared<MemorySource>(std::move(bytes), std::move(path));
}

namespace {

class LazyFileSource final : public ByteSource {
public:
    explicit LazyFileSource(std::string path) : m_path(std::move(path)) {}
    const std::string& path() const override { return m_path; }
    std::uint64_t size() const override { return opened() ? m_file->size() : 0; }
    core::Status readAt(std::uint64_t offset, std::span<std::uint8_t> out) const override
    {
        if (!opened()) return m_error;
        return m_file->readAt(offset, out);
    }

private:
    bool opened() const
    {
        std::call_once(m_once, [this] {
            auto file = openFile(m_path);
            if (file)
                m_file = *file;
            else
                m_error = file.error();
        });
        return m_file != nullptr;
    }
    std::string m_path;
    mutable std::once_flag m_once;
    mutable ByteSourcePtr m_file;
    mutable core::Error m_error;
};

} // namespace

ByteSourcePtr lazyFile(std::string path) { return std::make_shared<LazyFileSource>(std::move(path)); }

core::Result<std::vector<std::uint8_t>> readFile(const std::string& path)
{
    auto source = openFile(path);
    if (!source) return source.error();
    return (*source)->readAll();
}

} // namespace lv::io
