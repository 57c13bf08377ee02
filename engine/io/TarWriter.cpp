// ustar headers written field by field; members copied in 1 MiB pieces; extraction into a temporary folder.
#include "io/TarWriter.h"

#include "io/AtomicFile.h"
#include "io/ByteSource.h"
#include "io/TarIndex.h"
#include "io/Temporary.h"
#include "io/WritableFile.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <vector>

namespace lv::io {

using core::ErrorCode;
using core::makeError;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kBlock = 512;
constexpr std::uint64_t kPiece = 1u << 20;

void octal(std::array<char, kBlock>& h, std::size_t at, std::size_t width, std::uint64_t value)
{
    std::snprintf(&h[at], width, "%0*llo", static_cast<int>(width - 1), static_cast<unsigned long long>(value));
}

// The ustar header of one member; false when the path does not fit name (100) + prefix (155).
bool header(const std::string& path, bool directory, std::uint64_t size, std::array<char, kBlock>& h)
{
    h.fill(0);
    std::string name = directory ? path + "/" : path, prefix;
    if (name.size() > 100) {
        const auto split = name.rfind('/', name.size() - 2 > 155 ? 155 : name.size() - 2);
        if (split == std::string::npos || split > 155 || name.size() - split - 1 > 100) return false;
        prefix = name.substr(0, split);
        name = name.substr(split + 1);
    }
    std::memcpy(&h[0], name.data(), name.size());
    octal(h, 100, 8, directory ? 0755 : 0644);
    octal(h, 108, 8, 0);
    octal(h, 116, 8, 0);
    octal(h, 124, 12, directory ? 0 : size);
    octal(h, 136, 12, 0);
    h[156] = directory ? '5' : '0';
    std::memcpy(&h[257], "ustar", 6);
    std::memcpy(&h[263], "00", 2);
    std::memcpy(&h[345], prefix.data(), prefix.size());
    std::memset(&h[148], ' ', 8);
    unsigned sum = 0;
    for (char c : h) sum += static_cast<unsigned char>(c);
    std::snprintf(&h[148], 7, "%06o", sum);
    return true;
}

core::Status addFile(AtomicFile& out, const fs::path& file, const std::string& member, std::uint64_t size,
                     std::array<char, kBlock>& h)
{
    if (!header(member, false, size, h))
        return makeError(ErrorCode::InvalidArgument, "path too long for ustar", member);
    LV_TRY(out.write(std::string_view(h.data(), kBlock)));
    auto source = openFile(file.string());
    if (!source) return source.error();
    for (std::uint64_t at = 0; at < size; at += kPiece) {
        auto bytes = (*source)->read(at, std::min(kPiece, size - at));
        if (!bytes) return bytes.error();
        LV_TRY(out.write(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size())));
    }
    const std::string pad((kBlock - size % kBlock) % kBlock, '\0');
    return out.write(pad);
}

// One member's bytes into a new file at `dest`.
core::Status copyMember(const ByteSource& archive, const TarMember& m, const std::string& dest)
{
    auto out = WritableFile::create(dest);
    if (!out) return out.error();
    for (std::uint64_t at = 0; at < m.size; at += kPiece) {
        auto bytes = archive.read(m.dataOffset + at, std::min(kPiece, m.size - at));
        if (!bytes) return bytes.error();
        LV_TRY(out->writeAt(at, *bytes));
    }
    return out->close();
}

bool safeMember(const std::string& path)
{
    if (path.empty() || path.front() == '/') return false;
    for (const auto& part : fs::path(path))
        if (part == "..") return false;
    return true;
}

} // namespace

core::Status writeTar(const std::string& dir, const std::string& archivePath, const core::CancelToken* cancel)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return makeError(ErrorCode::NotFound, "not a directory", dir);
    const fs::path root = fs::path(dir).lexically_normal();
    const std::string top = (root.filename().empty() ? root.parent_path() : root).filename().string();
    std::map<std::string, std::pair<fs::path, bool>> entries; // member path -> (file, is directory)
    entries[top] = {root, true};
    for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
        entries[top + "/" + fs::relative(it->path(), root).generic_string()] = {it->path(), it->is_directory()};
    if (ec) return makeError(ErrorCode::Io, "cannot list: " + ec.message(), dir);

    if (fs::exists(fs::symlink_status(archivePath, ec)))
        return makeError(ErrorCode::InvalidArgument, "the output already exists; choose a new name", archivePath);
    AtomicFile out;
    LV_TRY(out.open(archivePath));
    std::array<char, kBlock> h{};
    for (const auto& [member, entry] : entries) {
        if (cancel && cancel->cancelled()) return makeError(ErrorCode::Cancelled, "archiving cancelled");
        if (entry.second) {
            if (!header(member, true, 0, h))
                return makeError(ErrorCode::InvalidArgument, "path too long for ustar", member);
            LV_TRY(out.write(std::string_view(h.data(), kBlock)));
        } else {
            LV_TRY(addFile(out, entry.first, member, fs::file_size(entry.first), h));
        }
    }
    LV_TRY(out.write(std::string(2 * kBlock, '\0')));
    return out.commit();
}

core::Status extractTar(const std::string& archivePath, const std::string& targetDir, const core::CancelToken* cancel)
{
    auto archive = openFile(archivePath);
    if (!archive) return archive.error();
    auto members = indexTar(**archive);
    if (!members) return members.error();
    for (const TarMember& m : *members)
        if (!safeMember(m.path))
            return makeError(ErrorCode::Corrupt, "member \"" + m.path + "\" would land outside the target",
                             archivePath);
    std::error_code ec;
    fs::path created; // the outermost folder this extraction creates (removed again on failure)
    for (fs::path p = fs::absolute(targetDir, ec); !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
        created = p;
        if (p == p.parent_path()) break;
    }
    fs::create_directories(targetDir, ec);
    if (ec) {
        const core::Error error =
            makeError(io::writeFailureCode(ec), "cannot create the folder: " + ec.message(), targetDir);
        if (!created.empty()) fs::remove_all(created, ec);
        return error;
    }
    // A locked temporary, so that concurrent extractions into one folder each get their own and a killed one's
    // is removed by the next extraction of that archive there. Errors name the target (where the user looks),
    // never the working folder; a folder we made is removed.
    auto temp =
        Temporary::create((fs::path(targetDir) / (".extract-" + fs::path(archivePath).filename().string())).string(),
                          Temporary::Kind::Directory);
    if (!temp) {
        if (!created.empty()) fs::remove_all(created, ec);
        return temp.error();
    }
    const fs::path work = temp->path();
    auto cleanup = [&] {
        temp->drop();
        if (!created.empty()) fs::remove_all(created, ec);
    };
    std::vector<std::string> tops;
    for (const TarMember& m : *members) {
        if (cancel && cancel->cancelled()) return cleanup(), makeError(ErrorCode::Cancelled, "extraction cancelled");
        const std::string top = m.path.substr(0, m.path.find('/'));
        if (std::find(tops.begin(), tops.end(), top) == tops.end()) {
            if (fs::exists(fs::path(targetDir) / top, ec))
                return cleanup(), makeError(ErrorCode::InvalidArgument, "already exists; extract elsewhere",
                                            (fs::path(targetDir) / top).string());
            tops.push_back(top);
        }
        const fs::path dest = work / m.path;
        const std::string shown = (fs::path(targetDir) / m.path).string();
        fs::create_directories(m.isDirectory ? dest : dest.parent_path(), ec);
        if (ec) return cleanup(), makeError(io::writeFailureCode(ec), "cannot write: " + ec.message(), shown);
        if (m.isDirectory) continue;
        if (core::Status copied = copyMember(**archive, m, dest.string()); !copied) {
            core::Error error = copied.error();
            if (error.path == dest.string()) error.path = shown;
            return cleanup(), error;
        }
    }
    for (const std::string& top : tops)
        if (core::Status moved = renameNoReplace((work / top).string(), (fs::path(targetDir) / top).string()); !moved)
            return cleanup(), moved.error();
    return {};
}

} // namespace lv::io
