// A read-only tree of files: a directory on disk or the members of a tar archive, read in place.
#pragma once

#include "core/Error.h"
#include "io/ByteSource.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lv::io {

struct TreeEntry {
    std::string name; // the last path component
    bool isDirectory = false;
    std::uint64_t size = 0;
    std::int64_t mtimeNs = 0; // modification time, nanoseconds since the epoch
};

// A byte range [offset, offset + size) of a file.
struct ByteRange {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
};

class FileTree {
public:
    virtual ~FileTree() = default;
    // What the user named: the directory or the archive.
    virtual const std::string& rootPath() const = 0;
    // Entries of a directory given relative to the root ("" is the root, '/' separates), sorted by name.
    virtual core::Result<std::vector<TreeEntry>> list(const std::string& dir) const = 0;
    virtual core::Result<ByteSourcePtr> open(const std::string& file) const = 0;
    // A path for messages: "dir/file" on disk, "archive.tar:member" in an archive.
    virtual std::string displayPath(const std::string& file) const = 0;
    // Where an archive member's bytes lie in the archive; nullopt for a directory tree or a missing file.
    virtual std::optional<ByteRange> archiveRange(const std::string& file) const;
};

using FileTreePtr = std::shared_ptr<const FileTree>;

core::Result<FileTreePtr> openDirectoryTree(const std::string& path);
core::Result<FileTreePtr> openTarTree(const std::string& archivePath);

// Member `file` of the archive `archive` (the file at `archivePath`) at a range known from an earlier index, named
// as an archive tree names it; the archive is not indexed again.
ByteSourcePtr archiveMember(ByteSourcePtr archive, const std::string& archivePath, const std::string& file,
                            ByteRange range);

// Joins two relative tree paths.
std::string joinPath(const std::string& dir, const std::string& name);

} // namespace lv::io
