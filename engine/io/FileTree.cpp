// Directory and tar implementations of FileTree.
#include "io/FileTree.h"

#include "io/TarIndex.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <system_error>

namespace lv::io {

using core::ErrorCode;
using core::makeError;
namespace fs = std::filesystem;

std::string joinPath(const std::string& dir, const std::string& name)
{
    if (dir.empty()) return name;
    if (name.empty()) return dir;
    return dir + "/" + name;
}

namespace {

void sortByName(std::vector<TreeEntry>& entries)
{
    std::sort(entries.begin(), entries.end(), [](const TreeEntry& a, const TreeEntry& b) { return a.name < b.name; });
}

class DirectoryTree final : public FileTree {
public:
    explicit DirectoryTree(std::string root) : m_root(std::move(root)) {}
    const std::string& rootPath() const override { return m_root; }
    std::string displayPath(const std::string& file) const override { return joinPath(m_root, file); }

    core::Result<std::vector<TreeEntry>> list(const std::string& dir) const override
    {
        std::error_code ec;
        std::vector<TreeEntry> entries;
        const std::string path = displayPath(dir);
        for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
            TreeEntry e;
            e.name = it->path().filename().string();
            e.isDirectory = it->is_directory(ec);
            if (!e.isDirectory) e.size = it->file_size(ec);
            const auto mtime = it->last_write_time(ec);
            e.mtimeNs = std::chrono::duration_cast<std::chrono::nanoseconds>(mtime.time_since_epoch()).count();
            ec.clear();
            entries.push_back(std::move(e));
        }
        if (ec) return makeError(ErrorCode::Io, "cannot list directory: " + ec.message(), path);
        sortByName(entries);
        return entries;
    }

    core::Result<ByteSourcePtr> open(const std::string& file) const override { return openFile(displayPath(file)); }

private:
    std::string m_root;
};

class TarTree final : public FileTree {
public:
    TarTree(std::string root, ByteSourcePtr archive, const std::vector<TarMember>& members)
        : m_root(std::move(root))
        , m_archive(std::move(archive))
    {
        for (const TarMember& m : members) addMember(m);
    }
    const std::string& rootPath() const override { return m_root; }
    std::string displayPath(const std::string& file) const override { return m_root + ":" + file; }
    std::optional<ByteRange> archiveRange(const std::string& file) const override
    {
        auto it = m_files.find(file);
        if (it == m_files.end()) return std::nullopt;
        return ByteRange{it->second.dataOffset, it->second.size};
    }

    core::Result<std::vector<TreeEntry>> list(const std::string& dir) const override
    {
        auto it = m_dirs.find(dir);
        if (it == m_dirs.end())
            return makeError(ErrorCode::NotFound, "no such directory in the archive", displayPath(dir));
        return it->second;
    }

    core::Result<ByteSourcePtr> open(const std::string& file) const override
    {
        auto it = m_files.find(file);
        if (it == m_files.end())
            return makeError(ErrorCode::NotFound, "no such file in the archive", displayPath(file));
        return archiveMember(m_archive, m_root, file, {it->second.dataOffset, it->second.size});
    }

private:
    static std::pair<std::string, std::string> split(const std::string& path)
    {
        const auto slash = path.rfind('/');
        if (slash == std::string::npos) return {"", path};
        return {path.substr(0, slash), path.substr(slash + 1)};
    }

    // Records an entry in its parent directory listing, creating parents that the archive left implicit.
    void addEntry(const std::string& path, TreeEntry entry)
    {
        auto [parent, name] = split(path);
        entry.name = name;
        const bool known = m_dirs.count(parent) != 0;
        auto& listing = m_dirs[parent];
        auto same = std::find_if(listing.begin(), listing.end(),
                                 [&leaf = entry.name](const TreeEntry& e) { return e.name == leaf; });
        if (same == listing.end()) {
            listing.push_back(std::move(entry));
            sortByName(listing);
        }
        if (!known && !parent.empty()) addEntry(parent, TreeEntry{{}, true, 0, 0});
    }

    void addMember(const TarMember& m)
    {
        TreeEntry e{{}, m.isDirectory, m.size, m.mtime * 1000000000};
        if (m.isDirectory)
            m_dirs[m.path];
        else
            m_files[m.path] = m;
        addEntry(m.path, e);
    }

    std::string m_root;
    ByteSourcePtr m_archive;
    std::map<std::string, std::vector<TreeEntry>> m_dirs;
    std::map<std::string, TarMember> m_files;
};

} // namespace

std::optional<ByteRange> FileTree::archiveRange(const std::string&) const { return std::nullopt; }

ByteSourcePtr archiveMember(ByteSourcePtr archive, const std::string& archivePath, const std::string& file,
                            ByteRange range)
{
    return subrange(std::move(archive), range.offset, range.size, archivePath + ":" + file);
}

core::Result<FileTreePtr> openDirectoryTree(const std::string& path)
{
    std::error_code ec;
    if (!fs::is_directory(path, ec)) return makeError(ErrorCode::NotFound, "not a directory", path);
    return FileTreePtr(std::make_shared<DirectoryTree>(path));
}

core::Result<FileTreePtr> openTarTree(const std::string& archivePath)
{
    auto archive = openFile(archivePath);
    if (!archive) return archive.error();
    auto members = indexTar(**archive);
    if (!members) return members.error();
    return FileTreePtr(std::make_shared<TarTree>(archivePath, *archive, std::move(*members)));
}

} // namespace lv::io
