// Directory walk of a session: *.timd channels, *.segd segments, optional records at each level.
#include "formats/mef3/SessionLayout.h"

#include <filesystem>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;

namespace {

bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string stem(const std::string& name) { return name.substr(0, name.rfind('.')); }

bool hasFile(const std::vector<io::TreeEntry>& entries, const std::string& name)
{
    for (const io::TreeEntry& e : entries)
        if (!e.isDirectory && e.name == name) return true;
    return false;
}

// "<dir>/<base>" when both <base>.rdat and <base>.ridx are in the listing.
std::string recordsIn(const std::vector<io::TreeEntry>& entries, const std::string& dir, const std::string& base)
{
    if (hasFile(entries, base + ".rdat") && hasFile(entries, base + ".ridx")) return io::joinPath(dir, base);
    return {};
}

// The one .rdat/.ridx pair of a session folder whose records are named after an earlier folder name (the folder
// was renamed), with a warning; empty when there is none or more than one.
std::string renamedRecords(const std::vector<io::TreeEntry>& entries, SessionLayout& layout, const std::string& folder)
{
    std::vector<std::string> pairs;
    for (const io::TreeEntry& e : entries)
        if (!e.isDirectory && endsWith(e.name, ".rdat") && hasFile(entries, stem(e.name) + ".ridx"))
            pairs.push_back(stem(e.name));
    if (pairs.size() != 1) return {};
    layout.warnings.push_back("session records " + pairs.front() + ".rdat do not match the folder name " + folder +
                              " (renamed?): read them as the session's records");
    return io::joinPath(layout.sessionDir, pairs.front());
}

core::Status discoverChannels(SessionLayout& layout)
{
    auto entries = layout.tree->list(layout.sessionDir);
    if (!entries) return entries.error();
    const std::string folder =
        std::filesystem::path(layout.sessionDir.empty() ? layout.tree->rootPath() : layout.sessionDir)
            .filename()
            .string();
    layout.recordsBase = recordsIn(*entries, layout.sessionDir, stem(folder));
    if (layout.recordsBase.empty()) layout.recordsBase = renamedRecords(*entries, layout, folder);
    for (const io::TreeEntry& e : *entries) {
        if (!e.isDirectory) continue;
        if (endsWith(e.name, ".vidd")) {
            layout.warnings.push_back("video channel " + e.name + " skipped: video is not supported");
        } else if (endsWith(e.name, ".timd")) {
            auto channel = discoverChannel(*layout.tree, io::joinPath(layout.sessionDir, e.name), e.name);
            if (!channel) return channel.error();
            layout.channels.push_back(std::move(*channel));
        }
    }
    if (layout.channels.empty())
        return makeError(ErrorCode::NotFound, "no time-series channel (*.timd) in the session",
                         layout.tree->displayPath(layout.sessionDir));
    return {};
}

// In an archive, the session is the single top-level *.mefd directory (or the root itself).
core::Result<std::string> sessionDirInArchive(const io::FileTree& tree)
{
    auto top = tree.list("");
    if (!top) return top.error();
    for (const io::TreeEntry& e : *top)
        if (e.isDirectory && endsWith(e.name, ".mefd")) return e.name;
    return std::string();
}

} // namespace

core::Result<ChannelFiles> discoverChannel(const io::FileTree& tree, const std::string& dir, const std::string& dirName)
{
    auto entries = tree.list(dir);
    if (!entries) return entries.error();
    ChannelFiles channel;
    channel.name = stem(dirName);
    channel.dir = dir;
    channel.recordsBase = recordsIn(*entries, dir, channel.name);
    for (const io::TreeEntry& e : *entries) {
        if (!e.isDirectory || !endsWith(e.name, ".segd")) continue;
        const std::string segDir = io::joinPath(dir, e.name);
        auto files = tree.list(segDir);
        if (!files) return files.error();
        const std::string base = stem(e.name);
        for (const char* kind : {".tmet", ".tidx", ".tdat"}) // a member lost from an archive, a file deleted
            if (!hasFile(*files, base + kind))
                return makeError(ErrorCode::Corrupt, "segment folder has no " + base + kind, tree.displayPath(segDir));
        SegmentFiles segment{io::joinPath(segDir, base), recordsIn(*files, segDir, base)};
        channel.segments.push_back(std::move(segment));
    }
    return channel;
}

core::Result<SessionLayout> discoverSession(const std::string& rawPath)
{
    std::string path = rawPath;
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    std::error_code ec;
    SessionLayout layout;
    if (std::filesystem::is_regular_file(path, ec)) {
        auto tree = io::openTarTree(path);
        if (!tree) return tree.error();
        layout.tree = *tree;
        auto dir = sessionDirInArchive(*layout.tree);
        if (!dir) return dir.error();
        layout.sessionDir = *dir;
    } else if (endsWith(path, ".timd")) {
        const std::filesystem::path p(path);
        auto tree = io::openDirectoryTree(p.has_parent_path() ? p.parent_path().string() : ".");
        if (!tree) return tree.error();
        layout.tree = *tree;
        auto channel = discoverChannel(*layout.tree, p.filename().string(), p.filename().string());
        if (!channel) return channel.error();
        layout.channels.push_back(std::move(*channel));
        return layout;
    } else {
        auto tree = io::openDirectoryTree(path);
        if (!tree) return tree.error();
        layout.tree = *tree;
    }
    LV_TRY(discoverChannels(layout));
    return layout;
}

} // namespace lv::formats::mef3
