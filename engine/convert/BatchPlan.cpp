// Finding recordings, naming their outputs, sharding.
#include "convert/BatchPlan.h"

#include "core/AsciiLower.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>

namespace lv::convert {

namespace fs = std::filesystem;
using core::ErrorCode;
using core::makeError;

namespace {

bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The recording extension of a path ("mefd.tar", "mefd", "edf", "bdf"), or empty when it is none.
std::string recordingExtension(const fs::path& p, bool isDirectory)
{
    const std::string name = core::asciiLower(p.filename().string());
    if (name.find(".tmp-") != std::string::npos) return {}; // a writer's temporary
    if (isDirectory) return endsWith(name, ".mefd") ? "mefd" : "";
    for (const char* ext : {"mefd.tar", "edf", "bdf"})
        if (endsWith(name, std::string(".") + ext)) return ext;
    return {};
}

struct Found {
    fs::path input;
    fs::path relative; // the output's path under outDir before its extension is replaced
    std::string sourceExtension;
};

bool inside(const fs::path& p, const fs::path& dir)
{
    const fs::path rel = p.lexically_relative(dir);
    return !rel.empty() && *rel.begin() != "..";
}

void search(const fs::path& folder, const fs::path& outDir, std::vector<Found>& found)
{
    std::error_code ec;
    fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const fs::path p = it->path();
        const bool directory = it->is_directory(ec);
        if (directory && (inside(fs::weakly_canonical(p), outDir) || fs::weakly_canonical(p) == outDir)) {
            it.disable_recursion_pending();
            continue;
        }
        const std::string ext = recordingExtension(p, directory);
        if (ext.empty()) continue;
        if (directory) it.disable_recursion_pending();
        found.push_back({p, p.lexically_relative(folder), ext});
    }
}

fs::path withExtension(const fs::path& relative, const std::string& sourceExt, const std::string& ext,
                       const std::string& suffix)
{
    std::string name = relative.filename().string();
    name = name.substr(0, name.size() - sourceExt.size() - 1);
    return relative.parent_path() / (name + suffix + "." + ext);
}

// Outputs named alike get the source extension (r_edf.mefd, r_bdf.mefd), then a number, in sorted order.
void nameOutputs(std::vector<Found>& found, const fs::path& outDir, const std::string& ext,
                 std::vector<BatchItem>& items)
{
    std::map<std::string, int> uses;
    for (const Found& f : found) ++uses[withExtension(f.relative, f.sourceExtension, ext, "").string()];
    std::set<std::string> taken;
    for (const Found& f : found) {
        const std::string plain = withExtension(f.relative, f.sourceExtension, ext, "").string();
        std::string name = plain;
        if (uses[plain] > 1) {
            std::string source = f.sourceExtension;
            std::replace(source.begin(), source.end(), '.', '_');
            name = withExtension(f.relative, f.sourceExtension, ext, "_" + source).string();
            for (int n = 2; taken.count(name); ++n)
                name =
                    withExtension(f.relative, f.sourceExtension, ext, "_" + source + "_" + std::to_string(n)).string();
        }
        taken.insert(name);
        items.push_back({f.input.string(), (outDir / name).string(), name != plain});
    }
}

} // namespace

core::Result<std::vector<BatchItem>> planBatch(const std::vector<std::string>& inputs, const std::string& outDir,
                                               const std::string& extension)
{
    const fs::path out = fs::weakly_canonical(fs::absolute(outDir));
    std::vector<Found> found;
    for (const std::string& input : inputs) {
        const fs::path p(input);
        std::error_code ec;
        const fs::file_status st = fs::status(p, ec);
        if (ec || !fs::exists(st)) return makeError(ErrorCode::NotFound, "no such file or directory", input);
        const bool directory = fs::is_directory(st);
        const std::string ext = recordingExtension(p, directory);
        if (!ext.empty()) {
            found.push_back({p, p.filename(), ext});
        } else if (directory) {
            search(p, out, found);
        } else {
            return makeError(ErrorCode::InvalidArgument,
                             "not a recording (.mefd, .mefd.tar, .edf or .bdf) nor a folder", input);
        }
    }
    std::set<fs::path> seen; // a recording given twice (as a file and inside a folder) is taken once, as first given
    std::erase_if(found, [&](const Found& f) { return !seen.insert(fs::weakly_canonical(f.input)).second; });
    std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
        return a.relative != b.relative ? a.relative < b.relative : a.input < b.input;
    });
    std::vector<BatchItem> items;
    nameOutputs(found, out, extension, items);
    return items;
}

core::Result<Shard> parseShard(const std::string& text)
{
    const auto slash = text.find('/');
    Shard s;
    const auto number = [](std::string_view part, std::size_t& v) {
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        return ec == std::errc() && end == part.data() + part.size() && !part.empty();
    };
    const std::string_view all(text);
    if (slash == std::string::npos || !number(all.substr(0, slash), s.index) ||
        !number(all.substr(slash + 1), s.count) || s.count == 0 || s.index >= s.count)
        return makeError(ErrorCode::InvalidArgument,
                         "--shard \"" + text +
                             "\" is not I/N with 0 <= I < N (a job array of N tasks numbered from 0)");
    return s;
}

std::vector<BatchItem> shardOf(const std::vector<BatchItem>& items, Shard shard)
{
    std::vector<BatchItem> mine;
    for (std::size_t i = shard.index; i < items.size(); i += shard.count) mine.push_back(items[i]);
    return mine;
}

} // namespace lv::convert
