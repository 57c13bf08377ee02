// Validation walks the session layout itself, so damage that stops the reader is reported, not fatal.
#include "formats/mef3/Validator.h"

#include "formats/mef3/BlockMap.h"
#include "formats/mef3/Crc32.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/Metadata.h"
#include "formats/mef3/MetadataChecks.h"
#include "formats/mef3/Records.h"
#include "formats/mef3/RedBlock.h"
#include "formats/mef3/SessionLayout.h"
#include "formats/mef3/TimeSeriesIndex.h"

#include <algorithm>

namespace lv::formats::mef3 {

namespace {

class Checker {
public:
    Checker(const io::FileTree& tree, std::string password, const core::CancelToken* cancel)
        : m_tree(tree)
        , m_password(std::move(password))
        , m_cancel(cancel)
    {}
    bool cancelled() const { return m_cancel && m_cancel->cancelled(); }

    void segment(const SegmentFiles& files);
    void records(const std::string& base);
    std::vector<Problem> take() { return std::move(m_problems); }
    void problem(const std::string& path, std::int64_t offset, std::string what)
    {
        m_problems.push_back({path, offset, std::move(what)});
    }

private:
    void problem(const core::Error& e) { m_problems.push_back({e.path, e.offset, e.message}); }
    bool load(const std::string& file, std::vector<std::uint8_t>& bytes);
    void blocks(const TimeSeriesIndex& index, const std::string& dataFile, const TimeSeriesMetadata* metadata);
    void decode(RedBlockHeader h, std::span<const std::uint8_t> bytes, const std::string& path, std::int64_t offset,
                const std::string& block);

    const io::FileTree& m_tree;
    std::string m_password;
    const core::CancelToken* m_cancel = nullptr;
    Access m_access;
    bool m_accessDecided = false;
    std::vector<Problem> m_problems;
    std::vector<std::int32_t> m_samples;
};

// Decodes a block whose header and CRC are right: what a read would refuse (differences that run past the block),
// validate reports. Blocks encrypted at a level the password does not open are not decoded.
void Checker::decode(RedBlockHeader h, std::span<const std::uint8_t> bytes, const std::string& path,
                     std::int64_t offset, const std::string& block)
{
    if (h.sampleCount > kMaxBlockSamples)
        return problem(path, offset, block + " claims more samples than a block holds");
    if (const int level = h.encryptionLevel(); level > 0) {
        const auto& key = level == 1 ? m_access.level1Key : m_access.level2Key;
        if (!key) return;
        aesDecrypt(*key, std::span(h.statistics).first(16));
    }
    m_samples.resize(h.sampleCount);
    if (auto decoded = decodeRed(h, bytes, m_samples); !decoded)
        problem(path, offset, block + ": " + decoded.error().message);
}

bool Checker::load(const std::string& file, std::vector<std::uint8_t>& bytes)
{
    auto source = m_tree.open(file);
    if (!source) return problem(source.error()), false;
    auto all = (*source)->readAll();
    if (!all) return problem(all.error()), false;
    bytes = std::move(*all);
    return true;
}

void Checker::blocks(const TimeSeriesIndex& index, const std::string& dataFile, const TimeSeriesMetadata* metadata)
{
    std::vector<std::uint8_t> data;
    if (!load(dataFile, data)) return;
    const std::string path = m_tree.displayPath(dataFile);
    auto header = parseUniversalHeader(data, path, "tdat");
    if (!header) return problem(header.error());
    // No body CRC check: writers (meflib included) seed it differently; the block CRCs cover every byte.
    std::int64_t samples = 0, lastTime = INT64_MIN;
    std::uint32_t maxBytes = 0, maxSamples = 0;
    for (std::size_t i = 0; i < index.entries.size(); ++i) {
        if (cancelled()) return;
        const IndexEntry& e = index.entries[i];
        const std::string block = "RED block " + std::to_string(i);
        if (e.fileOffset < 1024 || e.blockBytes < kRedHeaderBytes ||
            static_cast<std::uint64_t>(e.fileOffset) + e.blockBytes > data.size()) {
            problem(path, e.fileOffset, block + " lies outside the file");
            continue;
        }
        const std::span<const std::uint8_t> bytes(data.data() + e.fileOffset, e.blockBytes);
        const RedBlockHeader h = parseRedHeader(bytes);
        if (h.blockBytes != e.blockBytes || h.sampleCount != e.sampleCount || h.startTime != e.startTime)
            problem(path, e.fileOffset, block + " header disagrees with its index entry");
        if (!redCrcOk(h, bytes)) problem(path, e.fileOffset, block + " CRC mismatch");
        if (auto values = checkRedHeaderValues(h); !values)
            problem(path, e.fileOffset, block + ": " + values.error().message);
        else if (redCrcOk(h, bytes))
            decode(h, bytes, path, e.fileOffset, block);
        const bool noTime = e.startTime == kUutcNoEntry; // no start time: said, and left out of the order check
        if (noTime) problem(path, e.fileOffset, block + " has no start time");
        const std::int64_t t = noTime ? lastTime : e.startTime < 0 ? -e.startTime : e.startTime;
        if (t < lastTime) problem(path, e.fileOffset, block + " starts before the previous block");
        lastTime = t;
        samples += e.sampleCount;
        maxBytes = std::max(maxBytes, e.blockBytes);
        maxSamples = std::max(maxSamples, e.sampleCount);
    }
    const std::uint64_t indexed = index.entries.empty() ? kUniversalHeaderBytes
                                                        : static_cast<std::uint64_t>(index.entries.back().fileOffset) +
                                                              index.entries.back().blockBytes;
    if (data.size() > indexed)
        problem(path, static_cast<std::int64_t>(indexed),
                std::to_string(data.size() - indexed) +
                    " bytes past the last indexed block (an interrupted append; run recover)");
    if (header->numberOfEntries != static_cast<std::int64_t>(index.entries.size()))
        problem(path, 32,
                "header counts " + std::to_string(header->numberOfEntries) + " blocks, the index " +
                    std::to_string(index.entries.size()) + " (an interrupted append? run recover)");
    if (!metadata || !metadata->section2Readable) return;
    const std::string tmet = m_tree.displayPath(dataFile.substr(0, dataFile.size() - 4) + "tmet");
    const TimeSeriesSection2& s = metadata->section2;
    if (s.numberOfSamples != samples)
        problem(tmet, 8920,
                "metadata counts " + std::to_string(s.numberOfSamples) + " samples, the index " +
                    std::to_string(samples));
    if (s.numberOfBlocks != static_cast<std::int64_t>(index.entries.size()))
        problem(tmet, 8928,
                "metadata counts " + std::to_string(s.numberOfBlocks) + " blocks, the index " +
                    std::to_string(index.entries.size()));
    if (s.maximumBlockBytes < maxBytes)
        problem(tmet, 8936, "maximum block bytes is smaller than a block (an interrupted append? run recover)");
    if (s.maximumBlockSamples < maxSamples)
        problem(tmet, 8944, "maximum block samples is smaller than a block (an interrupted append? run recover)");
}

void Checker::segment(const SegmentFiles& files)
{
    std::vector<std::uint8_t> bytes;
    std::optional<TimeSeriesMetadata> metadata;
    if (load(files.base + ".tmet", bytes)) {
        const std::string path = m_tree.displayPath(files.base + ".tmet");
        auto header = parseUniversalHeader(bytes, path, "tmet");
        if (header && !m_accessDecided && !m_password.empty())
            m_access = validatePassword(m_password, header->passwords);
        m_accessDecided = m_accessDecided || header.ok();
        auto parsed = parseTimeSeriesMetadata(bytes, path, m_access);
        if (parsed) {
            if (auto fields = checkMetadataFields(*parsed, path); !fields) problem(fields.error());
            if (auto note = conversionFactorNote(*parsed)) problem(path, kConversionFactorOffset, *note);
            metadata = std::move(*parsed);
        } else {
            problem(parsed.error());
        }
    }
    if (!load(files.base + ".tidx", bytes)) return;
    auto index = parseTimeSeriesIndex(bytes, m_tree.displayPath(files.base + ".tidx"));
    if (!index) return problem(index.error());
    if (index->uncommittedEntries)
        problem(core::makeError(
            core::ErrorCode::Corrupt,
            std::to_string(index->uncommittedEntries) +
                " index entries past the header's count (an interrupted append; run recover)",
            m_tree.displayPath(files.base + ".tidx"),
            static_cast<std::int64_t>(kUniversalHeaderBytes + index->entries.size() * kIndexEntryBytes)));
    blocks(*index, files.base + ".tdat", metadata ? &*metadata : nullptr);
}

void Checker::records(const std::string& base)
{
    if (base.empty()) return;
    std::vector<std::uint8_t> bytes;
    if (!load(base + ".rdat", bytes)) return;
    const std::string path = m_tree.displayPath(base + ".rdat");
    auto parsed = parseRecords(bytes, path, m_access);
    if (!parsed) return problem(parsed.error());
    // As for data files, the record CRCs (checked by parseRecords) stand in for the body CRC.
    if (load(base + ".ridx", bytes))
        if (auto h = parseUniversalHeader(bytes, m_tree.displayPath(base + ".ridx"), "ridx"); !h) problem(h.error());
    for (const std::string& w : parsed->warnings) problem(path, -1, w.substr(w.find(": ") + 2));
}

// Whether a problem already names the file `text` starts with (a warning begins with its file's path).
bool alreadyNamed(const std::vector<Problem>& problems, const std::string& text)
{
    return std::any_of(problems.begin(), problems.end(), [&](const Problem& p) {
        return !p.path.empty() && text.compare(0, p.path.size(), p.path) == 0;
    });
}

// What opening the session finds that the file walk does not: rates against header spans, block times against the
// headers, grid bounds, the times against the present. Each, unless a problem already names its file.
void openCheck(const std::string& path, const std::string& password, std::vector<Problem>& problems)
{
    auto recording = openMef3(path, OpenOptions{password});
    if (!recording) {
        const core::Error& e = recording.error();
        if (e.code == core::ErrorCode::Cancelled || e.code == core::ErrorCode::PasswordRequired ||
            e.code == core::ErrorCode::WrongPassword || alreadyNamed(problems, e.path))
            return;
        problems.push_back({e.path, e.offset, e.message});
        return;
    }
    const OpenWarnings& w = (*recording)->openWarnings();
    std::vector<std::string> found;
    for (const auto& list : w.channels) found.insert(found.end(), list.begin(), list.end());
    found.insert(found.end(), w.checks.begin(), w.checks.end());
    for (const std::string& text : found)
        if (!alreadyNamed(problems, text)) problems.push_back({"", -1, text});
}

} // namespace

core::Result<std::vector<Problem>> validateSession(const std::string& path, const std::string& password,
                                                   const core::CancelToken* cancel)
{
    auto layout = discoverSession(path);
    if (!layout) { // a damaged archive or a segment short of a file: a problem found, not a failure to look
        const core::Error& e = layout.error();
        if (e.code != core::ErrorCode::Corrupt && e.code != core::ErrorCode::Truncated) return e;
        return std::vector<Problem>{{e.path, e.offset, e.message}};
    }
    Checker check(*layout->tree, password, cancel);
    check.records(layout->recordsBase);
    for (const ChannelFiles& channel : layout->channels) {
        if (channel.segments.empty())
            check.problem(layout->tree->displayPath(channel.dir), -1, "channel has no segments");
        check.records(channel.recordsBase);
        for (const SegmentFiles& segment : channel.segments) {
            if (check.cancelled()) break;
            check.segment(segment);
            check.records(segment.recordsBase);
        }
    }
    if (check.cancelled()) return core::makeError(core::ErrorCode::Cancelled, "validation cancelled");
    std::vector<Problem> problems = check.take();
    openCheck(path, password, problems);
    return problems;
}

} // namespace lv::formats::mef3
