// WritableFile on NativeFile: system failures worded with the file and offset.
#include "io/WritableFile.h"

#include "io/FileSystem.h"
#include "io/Path.h"

#include <filesystem>
#include <utility>

namespace lv::io {

using core::ErrorCode;
using core::makeError;

core::Error WritableFile::failure(const std::string& what, const SystemError& e, std::uint64_t offset) const
{
    return makeError(writeFailureCode(e), what + ": " + e.text, m_path, static_cast<std::int64_t>(offset));
}

core::Result<WritableFile> WritableFile::create(const std::string& path)
{
    WritableFile f;
    f.m_path = path;
    if (SystemError e = f.m_file.open(toPath(path), NativeFile::Mode::CreateNew); !e.ok())
        return makeError(writeFailureCode(e), "cannot create: " + e.text, path);
    return f;
}

core::Result<WritableFile> WritableFile::openExisting(const std::string& path)
{
    WritableFile f;
    f.m_path = path;
    if (SystemError e = f.m_file.open(toPath(path), NativeFile::Mode::ReadWrite); !e.ok())
        return makeError(writeFailureCode(e), "cannot open for writing: " + e.text, path);
    return f;
}

core::Status WritableFile::writeAt(std::uint64_t offset, std::span<const std::uint8_t> bytes)
{
    std::size_t done = 0;
    if (SystemError e = m_file.writeAt(offset, bytes, done); !e.ok()) return failure("cannot write", e, offset + done);
    return {};
}

core::Status WritableFile::readAt(std::uint64_t offset, std::span<std::uint8_t> out) const
{
    std::size_t done = 0;
    if (SystemError e = m_file.readAt(offset, out, done); !e.ok())
        return makeError(ErrorCode::Io, "cannot read: " + e.text, m_path, static_cast<std::int64_t>(offset + done));
    if (done < out.size())
        return makeError(ErrorCode::Truncated, "file ends early", m_path, static_cast<std::int64_t>(offset + done));
    return {};
}

core::Status WritableFile::sync()
{
    if (SystemError e = m_file.syncData(); !e.ok()) return failure("cannot sync to disk", e, 0);
    return {};
}

core::Status WritableFile::truncate(std::uint64_t size)
{
    if (SystemError e = m_file.truncate(size); !e.ok()) return failure("cannot truncate", e, size);
    return {};
}

core::Result<std::uint64_t> WritableFile::size() const
{
    std::uint64_t bytes = 0;
    if (SystemError e = m_file.size(bytes); !e.ok()) return failure("cannot stat", e, 0);
    return bytes;
}

core::Status WritableFile::close()
{
    if (SystemError e = m_file.close(); !e.ok()) return failure("cannot close", e, 0);
    return {};
}

core::Status syncDirectory(const std::string& dir)
{
    if (SystemError e = syncFolder(toPath(dir)); !e.ok())
        return makeError(writeFailureCode(e), "cannot sync the directory: " + e.text, dir);
    return {};
}

core::Status replaceFile(const std::string& path, std::span<const std::uint8_t> bytes, bool durable)
{
    const std::string temp = path + ".tmp-" + std::to_string(processId());
    std::error_code ec;
    std::filesystem::remove(toPath(temp), ec);
    auto file = WritableFile::create(temp);
    if (!file) return file.error();
    core::Status written = file->writeAt(0, bytes);
    if (written && durable) written = file->sync();
    if (written) written = file->close();
    if (written)
        if (SystemError e = moveReplacing(toPath(temp), toPath(path)); !e.ok())
            written = makeError(ErrorCode::WriteFailed, "cannot move into place: " + e.text, path);
    if (!written) {
        std::filesystem::remove(toPath(temp), ec);
        return written;
    }
    if (durable) return syncDirectory(toUtf8(toPath(path).parent_path()));
    return {};
}

} // namespace lv::io
