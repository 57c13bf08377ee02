// Exclusive creation + lock for temporaries, sweeping abandoned ones, atomic or linked no-replace moves.
#include "io/Temporary.h"

#include "io/FileSystem.h"
#include "io/Path.h"

#include <atomic>
#include <filesystem>
#include <utility>

namespace lv::io {

using core::ErrorCode;
using core::makeError;
namespace fs = std::filesystem;
using Kind = SystemError::Kind;

namespace {

std::atomic<unsigned> g_counter{0};

// "<digits>-<digits>": the part after ".tmp-" of the names Temporary makes (and only those).
bool isTemporarySuffix(const std::string& s)
{
    const auto dash = s.find('-');
    const auto digits = [](const std::string& t) {
        return !t.empty() && t.find_first_not_of("0123456789") == std::string::npos;
    };
    return dash != std::string::npos && digits(s.substr(0, dash)) && digits(s.substr(dash + 1));
}

void removeObject(const std::string& path)
{
    std::error_code ec;
    fs::remove_all(toPath(path), ec);
}

core::Error exists(const std::string& to)
{
    return makeError(ErrorCode::WriteFailed, "the output already exists; choose a new name", to);
}

core::Error cannotMove(const std::string& to, const SystemError& e)
{
    return makeError(writeFailureCode(e), "cannot move the finished output into place: " + e.text, to);
}

core::Error cannotCreate(const std::string& target, bool directory, const SystemError& e)
{
    return makeError(writeFailureCode(e),
                     std::string(directory ? "cannot create a temporary folder beside the output: "
                                           : "cannot create a temporary file beside the output: ") +
                         e.text,
                     target);
}

// Check, then move: not atomic; only where the file system offers neither of the atomic routes.
core::Status checkThenRename(const std::string& from, const std::string& to)
{
    std::error_code ec;
    if (fs::exists(fs::symlink_status(toPath(to), ec))) return exists(to);
    if (SystemError e = moveReplacing(toPath(from), toPath(to)); !e.ok())
        return e.kind == Kind::Exists ? exists(to) : cannotMove(to, e);
    return {};
}

// A hard link fails when `to` exists, so it is the no-replace step; then `from` goes.
SystemError linkThenRemove(const std::string& from, const std::string& to)
{
    std::error_code ec;
    fs::create_hard_link(toPath(from), toPath(to), ec);
    if (ec == std::errc::file_exists) return {Kind::Exists, ec.message()};
    if (ec == std::errc::operation_not_permitted || ec == std::errc::not_supported ||
        ec == std::errc::function_not_supported || ec == std::errc::invalid_argument ||
        ec == std::errc::cross_device_link || ec == std::errc::too_many_links)
        return {Kind::Unsupported, ec.message()};
    if (ec) return {Kind::Other, ec.message()};
    fs::remove(toPath(from), ec);
    return {};
}

} // namespace

Temporary::~Temporary() { drop(); }

Temporary::Temporary(Temporary&& other) noexcept
    : m_path(std::exchange(other.m_path, {}))
    , m_file(std::move(other.m_file))
    , m_kind(other.m_kind)
{}

Temporary& Temporary::operator=(Temporary&& other) noexcept
{
    if (this != &other) {
        drop();
        m_path = std::exchange(other.m_path, {});
        m_file = std::move(other.m_file);
        m_kind = other.m_kind;
    }
    return *this;
}

core::Result<Temporary> Temporary::create(const std::string& target, Kind kind)
{
    removeDeadTemporaries(target);
    const bool directory = kind == Kind::Directory;
    for (int attempt = 0; attempt < 1000; ++attempt) {
        Temporary t;
        t.m_kind = kind;
        const std::string name =
            target + ".tmp-" + std::to_string(processId()) + "-" + std::to_string(g_counter.fetch_add(1));
        SystemError e;
        if (directory) {
            e = createFolder(toPath(name));
            if (e.ok()) {
                t.m_path = name;
                e = t.m_file.open(toPath(name), NativeFile::Mode::Folder);
            }
        } else {
            e = t.m_file.open(toPath(name), NativeFile::Mode::CreateNew);
            if (e.ok()) t.m_path = name;
        }
        if (e.kind == SystemError::Kind::Exists && t.m_path.empty()) continue;
        if (!e.ok()) return cannotCreate(target, directory, e);
        if (!t.m_file.lockExclusive(true))
            return makeError(ErrorCode::WriteFailed, "cannot lock the temporary output", target);
        if (!t.m_file.isAt(toPath(name))) { // removed by another run's sweep before we held the lock
            t.m_file = NativeFile();
            t.m_path.clear();
            continue;
        }
        return t;
    }
    return makeError(ErrorCode::WriteFailed, "cannot find a free temporary name beside the output", target);
}

core::Status Temporary::publish(const std::string& target)
{
    LV_TRY(renameNoReplace(m_path, target)); // still locked (open) while it moves: no sweep takes it meanwhile
    m_path.clear();
    m_file = NativeFile();
    return {};
}

void Temporary::drop()
{
    if (!m_path.empty()) removeObject(m_path);
    m_path.clear();
    m_file = NativeFile();
}

void removeDeadTemporaries(const std::string& target)
{
    const fs::path t = toPath(target);
    const fs::path parent = t.parent_path().empty() ? fs::path(".") : t.parent_path();
    const std::string prefix = toUtf8(t.filename()) + ".tmp-";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(parent, ec)) {
        const std::string name = toUtf8(entry.path().filename());
        if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
            !isTemporarySuffix(name.substr(prefix.size())))
            continue;
        removeIfAbandoned(entry.path());
    }
}

core::Status linkNoReplace(const std::string& from, const std::string& to)
{
    const SystemError e = linkThenRemove(from, to);
    if (e.ok()) return {};
    return e.kind == Kind::Exists ? exists(to) : cannotMove(to, e);
}

core::Status renameNoReplace(const std::string& from, const std::string& to)
{
    const SystemError moved = moveNoReplace(toPath(from), toPath(to));
    if (moved.ok()) return {};
    if (moved.kind == Kind::Exists) return exists(to);
    if (moved.kind != Kind::Unsupported) return cannotMove(to, moved);
    std::error_code ec;
    if (fs::is_regular_file(fs::symlink_status(toPath(from), ec))) {
        const SystemError linked = linkThenRemove(from, to);
        if (linked.ok()) return {};
        if (linked.kind == Kind::Exists) return exists(to);
        if (linked.kind != Kind::Unsupported) return cannotMove(to, linked);
    }
    return checkThenRename(from, to);
}

} // namespace lv::io
