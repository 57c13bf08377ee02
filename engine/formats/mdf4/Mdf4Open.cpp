// Opening an MDF 4 file as a recording: the block tree, each channel group's raster from its master times, and
// each channel's mapping to counts (integers as stored, floats quantized at a step chosen from their first values).
#include "formats/mdf4/Mdf4Recording.h"

#include "core/IrregularTimes.h"
#include "core/NameSet.h"
#include "core/Quantization.h"
#include "core/TimeFormat.h"
#include "decode/ThreadPool.h"
#include "formats/mdf4/Mdf4Block.h"
#include "formats/mdf4/Mdf4BlockCuts.h"
#include "formats/mdf4/Mdf4BlockWriter.h"
#include "formats/mdf4/Mdf4Conversion.h"
#include "formats/mdf4/Mdf4Counts.h"
#include "formats/mdf4/Mdf4Data.h"
#include "formats/mdf4/Mdf4Events.h"
#include "formats/mdf4/Mdf4GroupScan.h"
#include "formats/mdf4/Mdf4TextAnnotations.h"
#include "io/Path.h"
#include "io/WindowedSource.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <tuple>

namespace lv::formats::mdf4 {

namespace {

constexpr std::uint64_t kThreadedTreeBytes = std::uint64_t{8} << 20; // files from this size read their tree threaded
constexpr std::uint64_t kScanBudget = std::uint64_t{64} << 20;       // memory for the groups scanned side by side

// "channel group 3 (name)": numbered in file order over all data groups, as mdf-check numbers them.
std::string groupName(std::size_t number, const ChannelGroup& cg)
{
    std::string name = "channel group " + std::to_string(number);
    if (!cg.acquisitionName.empty()) name += " (" + cg.acquisitionName + ")";
    return name;
}

} // namespace

class Mdf4Opener {
public:
    // `tree`: the file through windows, for the blocks of the tree (events); data goes straight to m_r.m_file.
    Mdf4Opener(Mdf4Recording& r, io::ByteSourcePtr tree, core::TaskRunner* runner)
        : m_r(r)
        , m_tree(std::move(tree))
        , m_runner(runner)
    {}

    core::Status run()
    {
        Structure& s = m_r.m_structure;
        core::RecordingInfo& info = m_r.m_info;
        info.format = "MDF " + s.version;
        if (s.unfinished)
            info.warnings.push_back("the file is marked unfinished (UnFinMF): its writer did not close it; what it "
                                    "holds is read as far as its blocks are whole");
        if (s.timeFlags & 1u) limit("the start time is local time of an unknown zone, read as if it were UTC");
        info.start = static_cast<core::Uutc>(s.startNs / 1000);
        info.end = info.start;
        info.description = plainText(s.comment);
        info.channels.reserve(s.channelCount()); // at most one per CN: no regrowth of 36,424 ChannelInfo
        m_names.reserve(s.channelCount());
        m_channelAt.reserve(s.channelCount());
        m_r.m_channels.reserve(s.channelCount());
        LV_TRY(openDataGroups());
        for (const core::ChannelInfo& c : info.channels) info.end = std::max(info.end, c.end);
        std::uint64_t largest = 0; // two of each group's largest DZ block
        for (const Mdf4Recording::Group& g : m_r.m_groups) {
            std::uint64_t leaf = 0;
            for (const Leaf& l : g.stream.leaves)
                if (l.dz) leaf = std::max(leaf, l.bytes);
            largest += 2 * leaf;
        }
        m_r.m_leafCacheBudget = std::clamp(largest, std::uint64_t{64} << 20, std::uint64_t{512} << 20);
        std::sort(m_channelAt.begin(), m_channelAt.end());
        readAnnotations();
        for (const core::Annotation& a : info.annotations) info.end = std::max(info.end, a.time + a.durationUs);
        m_r.m_warned.assign(info.channels.size(), false);
        return {};
    }

private:
    // A warning about what this reader does not read exactly (not about the file): validate does not count it.
    void limit(std::string what)
    {
        m_r.m_limits.push_back(what);
        m_r.m_info.warnings.push_back(std::move(what));
    }

    // Events (EV) as annotations: a marker's name as type and its comment as text (how Mdf4Writer stores an
    // annotation); other events typed as mdf-check names them ("acquisition_interrupt"), name and comment as text; a
    // begin/end pair as one annotation with its duration. A damaged event list is a warning: the data is still read.
    void readAnnotations()
    {
        core::RecordingInfo& info = m_r.m_info;
        info.annotations.insert(info.annotations.end(), m_texts.begin(), m_texts.end()); // sorted with the events
        auto events = readEvents(*m_tree, m_r.m_structure);
        if (!events) {
            info.warnings.push_back("the events are not read: " + events.error().message);
            std::stable_sort(info.annotations.begin(), info.annotations.end(),
                             [](const core::Annotation& x, const core::Annotation& y) { return x.time < y.time; });
            return;
        }
        std::size_t notTimed = 0;
        for (const EventSpan& span : eventSpans(*events)) {
            const Event& e = (*events)[span.event];
            if (e.syncType != 1 || !std::isfinite(span.start) || !std::isfinite(span.duration) ||
                std::abs(span.start) > 1e12 || span.duration < 0 || span.duration > 1e12) {
                ++notTimed;
                continue;
            }
            core::Annotation a;
            a.time = info.start + std::llround(span.start * 1e6);
            a.durationUs = std::llround(span.duration * 1e6);
            if (e.type == kEventMarker && !e.name.empty()) { // a marker's name is its kind ("Note"), as we write them
                a.type = e.name;
                a.text = e.comment;
            } else {
                a.type = eventTypeName(e.type);
                a.text = e.name.empty() ? e.comment : e.comment.empty() ? e.name : e.name + ": " + e.comment;
            }
            if (e.scope.size() == 1)
                if (const auto it = std::lower_bound(m_channelAt.begin(), m_channelAt.end(),
                                                     std::make_pair(e.scope[0], std::size_t{0}));
                    it != m_channelAt.end() && it->first == e.scope[0])
                    a.channel = info.channels[it->second].name;
            info.annotations.push_back(std::move(a));
        }
        if (notTimed)
            limit(std::to_string(notTimed) +
                  " events are placed by angle, distance or record index, not time: not shown");
        std::stable_sort(info.annotations.begin(), info.annotations.end(),
                         [](const core::Annotation& a, const core::Annotation& b) { return a.time < b.time; });
    }

    // A data group's data as GroupScan reads it, ahead of its opening: per channel group (none for VLSD ones) the
    // group as the recording reads it, with its scan; the first error in the order an open in sequence meets it.
    struct DataGroupScan {
        core::Status status;
        std::vector<std::optional<std::pair<Mdf4Recording::Group, GroupScan>>> groups;
    };

    // The data groups scanned side by side in waves that fit kScanBudget (at least one group each), each wave then
    // opened in order.
    core::Status openDataGroups()
    {
        const std::vector<DataGroup>& groups = m_r.m_structure.dataGroups;
        for (std::size_t d = 0; d < groups.size();) {
            std::size_t end = d + 1;
            for (double bytes = scanBytes(groups[d]); end < groups.size(); ++end) {
                bytes += scanBytes(groups[end]);
                if (bytes > static_cast<double>(kScanBudget)) break;
            }
            std::vector<DataGroupScan> scans(end - d);
            if (scans.size() == 1) // one long group (a long recording): its blocks side by side
                scans[0] = scanDataGroup(d, m_runner);
            else
                core::runEach(m_runner, scans.size(), [&](std::size_t k) { scans[k] = scanDataGroup(d + k, nullptr); });
            for (std::size_t k = 0; k < scans.size(); ++k) LV_TRY(openDataGroup(scans[k]));
            d = end;
        }
        return {};
    }

    // At most the memory a data group's scan holds: its times, first values and (unsorted) records. In doubles: the
    // counts are the file's word, not yet checked against its data.
    static double scanBytes(const DataGroup& dg)
    {
        double bytes = 0;
        const bool unsorted = dg.recordIdBytes != 0 && dg.groups.size() > 1;
        for (const ChannelGroup& cg : dg.groups) {
            const auto records = static_cast<double>(cg.cycleCount);
            const auto firstValues = static_cast<double>(std::min(cg.cycleCount, kFirstValueCount));
            bytes += 8 * records + 8 * firstValues * static_cast<double>(cg.channels.size());
            if (unsorted) bytes += 2 * records * (static_cast<double>(cg.dataBytes) + cg.invalidBytes + 8);
        }
        return bytes;
    }

    DataGroupScan scanDataGroup(std::size_t d, core::TaskRunner* runner) const
    {
        DataGroupScan out;
        const DataGroup& dg = m_r.m_structure.dataGroups[d];
        auto stream = indexDataStream(*m_r.m_file, dg.dataLink);
        if (!stream) return {stream.error(), {}};
        const bool unsorted = dg.recordIdBytes != 0 && dg.groups.size() > 1;
        std::vector<std::uint8_t> all;
        if (unsorted) {
            all.resize(stream->bytes);
            if (core::Status read = readStreamRange(*m_r.m_file, *stream, 0, all); !read.ok()) return {read, {}};
        }
        out.groups.resize(dg.groups.size());
        for (std::size_t g = 0; g < dg.groups.size(); ++g) {
            const ChannelGroup& cg = dg.groups[g];
            if (cg.isVlsd()) continue;
            Mdf4Recording::Group group{d, g, *stream, 0, 0, nullptr, {}, {}, nullptr};
            group.idBytes = unsorted ? 0 : dg.recordIdBytes;
            group.recordBytes = group.idBytes + std::uint64_t{cg.dataBytes} + cg.invalidBytes;
            if (unsorted) {
                auto own = recordsOfGroup(*m_r.m_file, dg, cg, all);
                if (!own) return {own.error(), {}};
                group.ownRecords = std::make_shared<const std::vector<std::uint8_t>>(std::move(*own));
            }
            auto scan = GroupScanner(m_r, runner).scan(group);
            if (!scan) return {scan.error(), {}};
            out.groups[g].emplace(std::move(group), std::move(*scan));
        }
        return out;
    }

    core::Status openDataGroup(DataGroupScan& scan)
    {
        LV_TRY(scan.status);
        for (auto& group : scan.groups) {
            if (group) openChannelGroup(std::move(group->first), group->second);
            ++m_groupNumber;
        }
        return {};
    }

    void openChannelGroup(Mdf4Recording::Group group, GroupScan& s)
    {
        const DataGroup& dg = m_r.m_structure.dataGroups[group.dataGroup];
        const ChannelGroup& cg = dg.groups[group.channelGroup];
        if (s.skipped)
            limit(groupName(m_groupNumber, cg) + ": " + std::to_string(s.skipped) +
                  " channels that hold bytes are not shown");
        checkRecordCount(group, cg);
        if (s.numbers.empty() && s.texts.empty()) return;
        if (cg.cycleCount == 0) {
            limit(groupName(m_groupNumber, cg) + ": it holds no records");
            return;
        }
        const Channel* master = s.master;
        const bool timed = master && master->sync == SyncKind::Time;
        if (master && !timed)
            limit(groupName(m_groupNumber, cg) + ": its master is not a time; records are placed one per second");
        const std::span<const double> times = s.times.span();
        if (!s.texts.empty()) // auxiliary: damage there is a warning, the numbers are still read
            if (const core::Status read = textAnnotations(*m_r.m_file, dg, cg, s.texts, times, m_r.m_info.start,
                                                          m_texts, m_r.m_info.warnings);
                !read.ok())
                m_r.m_info.warnings.push_back(groupName(m_groupNumber, cg) +
                                              ": its texts are not read: " + read.error().describe());
        if (s.numbers.empty()) return;
        std::optional<core::Raster> raster = std::move(s.raster);
        if (!raster) {
            auto irregular = irregularTimes(times, cg);
            if (!irregular) return; // said
            group.timesNs = std::make_shared<const std::vector<std::int64_t>>(std::move(*irregular));
            raster = core::Raster{1.0, times[0], {core::RasterRun{0, 0, static_cast<std::int64_t>(cg.cycleCount)}}};
        }
        std::optional<ReductionData> reduction;
        if (!group.timesNs && timed && !cg.reductions.empty() && !group.ownRecords) {
            std::string why;
            reduction = chooseReduction(*m_r.m_file, cg, *master, times, 0.25 / raster->fs, why);
            if (!why.empty()) limit(groupName(m_groupNumber, cg) + ": its sample reduction is not used: " + why);
        }
        BlockCuts cuts = cutBlocks(*raster, group.recordBytes, reduction ? &*reduction : nullptr);
        group.blocks = std::move(cuts.blocks);
        group.blockRecord = std::move(cuts.firstRecord);
        const Extrema extrema{reduction ? &*reduction : nullptr, cuts.intervals};
        const core::SampleGrid grid{m_r.m_info.start + static_cast<core::Uutc>(std::llround(raster->firstTime * 1e6)),
                                    raster->fs};
        const std::string label = groupLabel(cg, cg.source);
        for (std::size_t k = 0; k < s.numbers.size(); ++k)
            addChannel(group, *s.numbers[k], *raster, grid, s.firstValues[k], label, extrema);
        m_r.m_groups.push_back(std::move(group));
    }

    // Master times (s after the start) in ns since 1970, for a group off any raster; nullopt (said) when they go
    // back or are not numbers.
    std::optional<std::vector<std::int64_t>> irregularTimes(std::span<const double> times, const ChannelGroup& cg)
    {
        std::vector<std::int64_t> ns(times.size());
        for (std::size_t i = 0; i < times.size(); ++i) {
            const double t = times[i];
            if (!std::isfinite(t) || std::abs(t) > 9e9 || (i && t < times[i - 1])) {
                limit(groupName(m_groupNumber, cg) + ": its times " +
                      (std::isfinite(t) && std::abs(t) <= 9e9 ? "go back" : "are not usable") + " at record " +
                      std::to_string(i) + ": its channels are not read");
                return std::nullopt;
            }
            ns[i] = m_r.m_structure.startNs + std::llround(t * 1e9);
        }
        return ns;
    }

    // What a group's data says against its header: as many records as the channel group counts, DZ rows of one
    // record each (sorted groups). No checksum covers either: a mismatch is said, and the channel group's count is
    // read.
    void checkRecordCount(const Mdf4Recording::Group& group, const ChannelGroup& cg)
    {
        const std::uint64_t held =
            (group.ownRecords ? group.ownRecords->size() : group.stream.bytes) / group.recordBytes;
        if (held != cg.cycleCount)
            m_r.m_info.warnings.push_back(groupName(m_groupNumber, cg) + ": its data holds " + std::to_string(held) +
                                          " records but its header counts " + std::to_string(cg.cycleCount) + "; " +
                                          std::to_string(cg.cycleCount) + " are read");
        for (const Leaf& leaf : group.stream.leaves)
            if (!group.ownRecords && leaf.columns != 0 && leaf.columns != group.recordBytes) {
                m_r.m_info.warnings.push_back(
                    groupName(m_groupNumber, cg) + ": its ##DZ block at byte " + std::to_string(leaf.block) +
                    " is transposed in rows of " + std::to_string(leaf.columns) + " bytes, not of its " +
                    std::to_string(group.recordBytes) + "-byte records: its values may be scrambled");
                break;
            }
    }

    // Where a group's block extrema come from: its reduction and the intervals that make up each block exactly.
    struct Extrema {
        const ReductionData* reduction = nullptr;
        const std::vector<std::pair<std::size_t, std::size_t>>& intervals;
    };

    // The group's blocks with channel c's extrema from the reduction, where whole intervals make up a block.
    // `step`: the channel's conversion factor (a quantized channel's counts are its values over it).
    void addExtrema(Mdf4Recording::ChannelRef& ref, const Mdf4Recording::Group& group, const Channel& c, double step,
                    const Extrema& extrema)
    {
        std::vector<core::BlockSpan> blocks = group.blocks;
        const bool quantized = ref.mapping == Mdf4Recording::Mapping::Quantized;
        bool any = false;
        for (std::size_t b = 0; b < blocks.size(); ++b) {
            const auto [k0, k1] = extrema.intervals[b];
            const auto counts = reducedCounts(*extrema.reduction, c, quantized, step, k0, k1);
            if (!counts) continue;
            std::tie(blocks[b].minimum, blocks[b].maximum) = *counts;
            blocks[b].hasExtrema = any = true;
        }
        if (!any) return;
        ref.extrema = static_cast<std::uint32_t>(m_r.m_extremaBlocks.size());
        m_r.m_extremaBlocks.push_back(std::move(blocks));
    }

    // `name`, or when a channel already has it "name [group D]" ("name [group D #n]"): set as `ch`'s name and
    // remembered (a view of ch.name: the channels' vector is reserved for every CN at open and never moves).
    void setUniqueName(core::ChannelInfo& ch, const std::string& name, std::size_t dg)
    {
        if (!m_names.contains(name)) {
            ch.name = name;
        } else {
            ch.name = name + " [group " + std::to_string(dg) + "]";
            for (int n = 2; m_names.contains(ch.name); ++n)
                ch.name = name + " [group " + std::to_string(dg) + " #" + std::to_string(n) + "]";
        }
        m_names.insert(ch.name);
    }

    // What the session browser says of a channel group: "channel group 3 (name), source S: comment" (the group's
    // source, or a channel's own).
    std::string groupLabel(const ChannelGroup& cg, const Source& from) const
    {
        std::string label = groupName(m_groupNumber, cg);
        if (const std::string source = from.label(); !source.empty()) label += ", source " + source;
        if (!cg.comment.empty()) label += ": " + cg.comment;
        return label;
    }

    void addChannel(const Mdf4Recording::Group& group, const Channel& c, const core::Raster& raster,
                    const core::SampleGrid& grid, const std::vector<double>& firstValues, const std::string& label,
                    const Extrema& extrema)
    {
        const ChannelGroup& cg = m_r.m_structure.dataGroups[group.dataGroup].groups[group.channelGroup];
        core::ChannelInfo& ch = m_r.m_info.channels.emplace_back(); // in place: 36,424 of them in wide files
        setUniqueName(ch, c.name, group.dataGroup);
        ch.fs = raster.fs;
        ch.unit = c.unit;
        ch.start = grid.origin;
        ch.description = c.comment;
        ch.group = c.source.present ? groupLabel(cg, c.source) : label; // a channel's own source over its group's
        if (group.timesNs) {
            core::describeIrregular(ch, *group.timesNs);
            ch.timeBase = static_cast<int>(m_r.m_groups.size());
        } else {
            core::describeRuns(ch, raster.runs);
        }
        Mdf4Recording::ChannelRef ref{m_r.m_groups.size(), static_cast<std::size_t>(&c - cg.channels.data()),
                                      Mdf4Recording::Mapping::Counts};
        if (storedAsCounts(c)) {
            ch.labelled = c.hasConversion && !isNumericConversion(*c.conversion); // texts: Recording::valueLabel
            if (ch.labelled)
                limit("channel " + ch.name + ": its values are texts (" + conversionName(c.conversion->kind) +
                      "): the plot draws their numbers, its readout and CSV give the texts");
            const bool linear = c.hasConversion && c.conversion->kind == ConversionKind::Linear;
            ch.conversionFactor = linear ? c.conversion->values[1] : 1.0;
            ch.offset = linear ? c.conversion->values[0] : 0.0;
        } else {
            ref.mapping = Mdf4Recording::Mapping::Quantized;
            const bool ieee = (c.dataType == DataType::FloatLe || c.dataType == DataType::FloatBe) &&
                              (c.bitCount == 32 || c.bitCount == 64) && !c.hasConversion;
            ch.floatBits = ieee ? static_cast<std::uint8_t>(c.bitCount) : 0;
            const core::QuantizationChoice q = core::storedStepOf(firstValues);
            ch.conversionFactor = q.factor;
            if (!q.exact)
                limit("channel " + ch.name + ": its values are read rounded to steps of " +
                      core::formatNumber(q.factor, 6) + (ch.unit.empty() ? "" : " " + ch.unit));
        }
        if (extrema.reduction) addExtrema(ref, group, c, ch.conversionFactor, extrema);
        m_channelAt.emplace_back(c.offset, m_r.m_info.channels.size() - 1);
        m_r.m_channels.push_back(ref);
    }

    Mdf4Recording& m_r;
    io::ByteSourcePtr m_tree;
    core::TaskRunner* m_runner; // scans data groups side by side, or null
    core::NameSet m_names;      // the channels' names so far (views of their ChannelInfo)
    std::vector<std::pair<std::uint64_t, std::size_t>> m_channelAt; // CN block offset -> channel index, sorted in run
    std::size_t m_groupNumber = 0;         // of the channel group being opened, VLSD groups counted
    std::vector<core::Annotation> m_texts; // text channels' strings
};

core::Result<std::unique_ptr<Mdf4Recording>> openMdf4(const std::string& path)
{
    auto file = io::openFile(path);
    if (!file) return file.error();
    return openMdf4(*file);
}

core::Result<std::unique_ptr<Mdf4Recording>> openMdf4(const io::ByteSourcePtr& file)
{
    // A large file on every core (up to 4): threads for a few milliseconds, not for small files.
    if (file->size() < kThreadedTreeBytes) return openMdf4(file, nullptr);
    decode::ThreadPool pool(std::min<std::size_t>(decode::ThreadPool::defaultThreadCount(), 4));
    return openMdf4(file, &pool);
}

core::Result<std::unique_ptr<Mdf4Recording>> openMdf4(const io::ByteSourcePtr& file, core::TaskRunner* runner)
{
    auto r = std::unique_ptr<Mdf4Recording>(new Mdf4Recording());
    r->m_file = file;
    r->m_info.path = file->path();
    auto structure = readStructure(*file, runner);
    if (!structure) return structure.error();
    r->m_structure = std::move(*structure);
    // The events' blocks through a few large reads, not one per block; data (DZ headers and the masters' columns,
    // scattered between the groups' trees) straight from the file: through windows, most of each window was data.
    LV_TRY(Mdf4Opener(*r, io::windowedSource(file, std::uint64_t{64} << 10), runner).run());
    return r;
}

bool looksLikeMdf4(const std::string& path)
{
    char magic[8] = {};
    std::ifstream in(io::toPath(path), std::ios::binary);
    return in.read(magic, sizeof magic) && std::memcmp(magic, "MDF     ", 8) == 0;
}

} // namespace lv::formats::mdf4
