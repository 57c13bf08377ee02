// Session recovery: remove unfinished temporaries, then recover each channel's segments in order.
#include "formats/mef3/SessionRecovery.h"

#include "formats/mef3/Records.h"
#include "formats/mef3/SegmentWriter.h"
#include "formats/mef3/SessionLayout.h"
#include "formats/mef3/SessionWriter.h"
#include "io/ByteSource.h"

#include <algorithm>
#include <filesystem>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;
namespace fs = std::filesystem;

namespace {

std::string relative(const fs::path& p, const std::string& root)
{
    return fs::path(p).lexically_relative(root).string();
}

// Temporary files and directories of writes that never finished (".segd.tmp", "*.tmp-<pid>").
void removeLeftovers(const std::string& path, RecoveryReport& report)
{
    std::vector<fs::path> found;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(path, ec); it != fs::recursive_directory_iterator(); ++it) {
        const std::string name = it->path().filename().string();
        if (name.ends_with(".segd.tmp") || name.find(".tmp-") != std::string::npos) {
            found.push_back(it->path());
            if (it->is_directory(ec)) it.disable_recursion_pending();
        }
    }
    for (const fs::path& p : found) {
        fs::remove_all(p, ec);
        report.dropped.push_back(relative(p, path) + ": removed (an unfinished write)");
        report.changed = true;
    }
}

void describe(const SegmentRecovery& r, const std::string& segment, RecoveryReport& report)
{
    report.kept.push_back(segment + ": " + std::to_string(r.blocksKept) + " blocks, " + std::to_string(r.samplesKept) +
                          " samples" + (r.rewritten ? " (index and metadata rebuilt)" : ""));
    if (r.blocksIndexed >= 0 && r.blocksIndexed != r.blocksKept)
        report.kept.back() += ", the index had " + std::to_string(r.blocksIndexed);
    if (r.bytesDropped)
        report.dropped.push_back(segment + ": " + std::to_string(r.bytesDropped) +
                                 " bytes of data cut off: " + r.stopReason);
    report.changed = report.changed || r.rewritten;
}

bool cancelled(const core::CancelToken* cancel) { return cancel && cancel->cancelled(); }

void recoverChannel(SegmentSetup channel, const std::string& root, RecoveryReport& report,
                    const core::CancelToken* cancel)
{
    std::int64_t startSample = 0;
    for (int number : segmentNumbers(channel)) {
        if (cancelled(cancel)) return;
        channel.segmentNumber = number;
        channel.startSample = startSample;
        const std::string name = relative(channel.directory(), root);
        auto r = SegmentWriter::recover(channel);
        if (!r) {
            report.dropped.push_back(name + ": not recovered: " + r.error().message);
            continue;
        }
        describe(*r, name, report);
        const int keepNumber = number;
        channel = r->setup; // the next segment falls back on this identity
        channel.segmentNumber = keepNumber;
        startSample += r->samplesKept;
    }
}

// A session- or channel-level record file that does not parse (its header is damaged) is moved aside to
// "<name>.damaged" with its index, so the session reads without the warning; damaged single records stay (the
// reader skips them with a warning).
void recoverRecords(const std::string& root, const std::string& base, const Access& keys, RecoveryReport& report)
{
    if (base.empty()) return;
    const std::string rdat = (fs::path(root) / base).string() + ".rdat";
    auto bytes = io::readFile(rdat);
    core::Status damage = bytes ? core::Status{} : core::Status{bytes.error()};
    if (bytes)
        if (auto parsed = parseRecords(*bytes, rdat, keys); !parsed) damage = parsed.error();
    if (damage.ok()) return;
    std::error_code ec;
    for (const char* ext : {".rdat", ".ridx"}) {
        const std::string file = (fs::path(root) / base).string() + ext;
        fs::rename(file, file + ".damaged", ec);
    }
    report.dropped.push_back(relative(rdat, root) + ": " + damage.error().message + ": moved aside to " +
                             relative(rdat + ".damaged", root) + " (with its .ridx)");
    report.changed = true;
}

void recoverAllRecords(const std::string& path, const Access& keys, RecoveryReport& report)
{
    auto layout = discoverSession(path);
    if (!layout) return;
    recoverRecords(path, layout->recordsBase, keys, report);
    for (const ChannelFiles& channel : layout->channels) recoverRecords(path, channel.recordsBase, keys, report);
}

} // namespace

core::Result<RecoveryReport> recoverSession(const std::string& path, const std::string& password,
                                            const core::CancelToken* cancel)
{
    std::error_code ec;
    if (!fs::is_directory(path, ec))
        return makeError(ErrorCode::InvalidArgument, "recover works on a .mefd directory (extract archives first)",
                         path);
    auto fields = sessionPasswordFields(path);
    if (!fields) return fields.error();
    Access keys;
    if (!fields->empty()) {
        if (password.empty())
            return makeError(ErrorCode::PasswordRequired, "the session is encrypted; recovering needs its password",
                             path);
        keys = validatePassword(password, *fields);
        if (keys.level == 0) return makeError(ErrorCode::WrongPassword, "the password does not open the session", path);
    }
    RecoveryReport report;
    removeLeftovers(path, report);
    const std::string session = sessionNameOf(path);
    for (const std::string& name : sessionChannelNames(path)) {
        SegmentSetup channel;
        channel.channelDir = path;
        channel.channelDir += "/" + name + ".timd";
        channel.channelName = name;
        channel.sessionName = session;
        channel.validation = *fields;
        channel.keys = keys;
        channel.durability = Durability::Full;
        recoverChannel(channel, path, report, cancel);
        if (cancelled(cancel)) return makeError(ErrorCode::Cancelled, "recovery cancelled");
    }
    recoverAllRecords(path, keys, report);
    return report;
}

} // namespace lv::formats::mef3
