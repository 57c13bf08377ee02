// Opening an MDF 4 file as a recording: the block tree, each channel group's raster from its master times, and
// each channel's mapping to counts (integers as stored, floats quantized at a step chosen from their first values).
#include "formats/mdf4/Mdf4Recording.h"

#include "core/IrregularTimes.h"
#include "core/NameSet.h"
#include "core/Quantization.h"
#include "core/TimeFormat.h"
#include "formats/mdf4/Mdf4Block.h"
#include "formats/mdf4/Mdf4BlockCuts.h"
#include "formats/mdf4/Mdf4BlockWriter.h"
#include "formats/mdf4/Mdf4Conversion.h"
#include "formats/mdf4/Mdf4Counts.h"
#include "formats/mdf4/Mdf4Data.h"
#include "formats/mdf4/Mdf4Events.h"
#include "formats/mdf4/Mdf4TextAnnotations.h"
#include "io/LargeArray.h"
#include "io/Path.h"
#include "io/WindowedSource.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <tuple>

namespace lv::formats::mdf4 {

namespace {

constexpr std::size_t kQuantizationSamples = 65536; // values looked at to choose a float channel's step

// Little-endian float64 values from eight byte columns of `rows` bytes each (a transposed DZ block's rows): value r
// is bytes columns[j * rows + r], j = 0..7, low byte first.
void joinDoubleColumns(const std::uint8_t* columns, std::uint64_t rows, std::span<double> out)
{
    for (std::size_t r = 0; r < out.size(); ++r) {
        std::uint64_t word = 0;
        for (std::uint64_t j = 0; j < 8; ++j) word |= std::uint64_t{columns[j * rows + r]} << (8 * j);
        out[r] = std::bit_cast<double>(word);
    }
}

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
    Mdf4Opener(Mdf4Recording& r, io::ByteSourcePtr tree) : m_r(r), m_tree(std::move(tree)) {}

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
        m_r.m_channels.reserve(s.channelCount());
        for (std::size_t d = 0; d < s.dataGroups.size(); ++d) LV_TRY(openDataGroup(d));
        for (const core::ChannelInfo& c : info.channels) info.end = std::max(info.end, c.end);
        std::uint64_t largest = 0; // two of each group's largest DZ block
        for (const Mdf4Recording::Group& g : m_r.m_groups) {
            std::uint64_t leaf = 0;
            for (const Leaf& l : g.stream.leaves)
                if (l.dz) leaf = std::max(leaf, l.bytes);
            largest += 2 * leaf;
        }
        m_r.m_leafCacheBudget = std::clamp(largest, std::uint64_t{64} << 20, std::uint64_t{512} << 20);
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
                if (const auto it = m_channelAt.find(e.scope[0]); it != m_channelAt.end())
                    a.channel = info.channels[it->second].name;
            info.annotations.push_back(std::move(a));
        }
        if (notTimed)
            limit(std::to_string(notTimed) +
                  " events are placed by angle, distance or record index, not time: not shown");
        std::stable_sort(info.annotations.begin(), info.annotations.end(),
                         [](const core::Annotation& a, const core::Annotation& b) { return a.time < b.time; });
    }

    core::Status openDataGroup(std::size_t d)
    {
        const DataGroup& dg = m_r.m_structure.dataGroups[d];
        auto stream = indexDataStream(*m_r.m_file, dg.dataLink);
        if (!stream) return stream.error();
        const bool unsorted = dg.recordIdBytes != 0 && dg.groups.size() > 1;
        std::vector<std::uint8_t> all;
        if (unsorted) {
            all.resize(stream->bytes);
            LV_TRY(readStreamRange(*m_r.m_file, *stream, 0, all));
        }
        for (std::size_t g = 0; g < dg.groups.size(); ++g) {
            const ChannelGroup& cg = dg.groups[g];
            if (cg.isVlsd()) {
                ++m_groupNumber;
                continue;
            }
            Mdf4Recording::Group group{d, g, *stream, 0, 0, nullptr, {}, {}, nullptr};
            group.idBytes = unsorted ? 0 : dg.recordIdBytes;
            group.recordBytes = group.idBytes + std::uint64_t{cg.dataBytes} + cg.invalidBytes;
            if (unsorted) {
                auto own = recordsOfGroup(*m_r.m_file, dg, cg, all);
                if (!own) return own.error();
                group.ownRecords = std::make_shared<const std::vector<std::uint8_t>>(std::move(*own));
            }
            LV_TRY(openChannelGroup(std::move(group)));
            ++m_groupNumber;
        }
        return {};
    }

    const Channel* masterOf(const ChannelGroup& cg)
    {
        for (const Channel& c : cg.channels)
            if (c.isMaster()) return &c;
        return nullptr;
    }

    core::Status openChannelGroup(Mdf4Recording::Group group)
    {
        const DataGroup& dg = m_r.m_structure.dataGroups[group.dataGroup];
        const ChannelGroup& cg = dg.groups[group.channelGroup];
        const std::uint64_t available =
            group.ownRecords ? group.ownRecords->size() : (group.recordBytes ? group.stream.bytes : 0);
        if (group.recordBytes == 0 || available / group.recordBytes < cg.cycleCount)
            return corrupt(*m_r.m_file, cg.offset,
                           "the data holds fewer records than its channel group's " + std::to_string(cg.cycleCount));
        std::vector<const Channel*> numbers, texts;
        std::size_t skipped = 0;
        for (const Channel& c : cg.channels) {
            if (c.isMaster()) continue;
            if (isTextChannel(c)) {
                texts.push_back(&c);
                continue;
            }
            if (!isNumber(c)) {
                ++skipped;
                continue;
            }
            LV_TRY(checkChannelLayout(*m_r.m_file, cg, c));
            numbers.push_back(&c);
        }
        if (skipped)
            limit(groupName(m_groupNumber, cg) + ": " + std::to_string(skipped) +
                  " channels that hold bytes are not shown");
        checkRecordCount(group, cg);
        if (numbers.empty() && texts.empty()) return {};
        if (cg.cycleCount == 0) {
            limit(groupName(m_groupNumber, cg) + ": it holds no records");
            return {};
        }
        const Channel* master = masterOf(cg);
        if (master) LV_TRY(checkChannelLayout(*m_r.m_file, cg, *master));
        io::LargeArray<double> times(cg.cycleCount); // 8 bytes a record: tens of MB for long files
        std::vector<std::vector<double>> firstValues(numbers.size());
        std::vector<std::size_t> quantized; // the channels whose first values choose their step
        for (std::size_t k = 0; k < numbers.size(); ++k)
            if (!storedAsCounts(*numbers[k])) quantized.push_back(k);
        const bool timed = master && master->sync == SyncKind::Time;
        const auto visit = [&](const std::uint8_t* record, std::uint64_t i) {
            times[i] = timed ? physicalValue(cg, *master, record, i) : static_cast<double>(i);
            if (i >= kQuantizationSamples) return;
            for (std::size_t k : quantized) firstValues[k].push_back(physicalValue(cg, *numbers[k], record, i));
        };
        // Whole records as long as first values are wanted; then, where the blocks allow, the time column alone.
        const std::uint64_t whole = quantized.empty() ? 0 : std::min(cg.cycleCount, kQuantizationSamples);
        const std::uint64_t columnsFrom = timed ? mastersAloneFrom(group, *master, whole) : cg.cycleCount;
        LV_TRY(scan(group, visit, 0, columnsFrom));
        if (columnsFrom < cg.cycleCount) LV_TRY(readMasters(group, *master, columnsFrom, times.span()));
        if (master && master->sync != SyncKind::Time)
            limit(groupName(m_groupNumber, cg) + ": its master is not a time; records are placed one per second");
        if (!texts.empty()) // auxiliary: damage there is a warning, the numbers are still read
            if (const core::Status read = textAnnotations(*m_r.m_file, dg, cg, texts, times.span(), m_r.m_info.start,
                                                          m_texts, m_r.m_info.warnings);
                !read.ok())
                m_r.m_info.warnings.push_back(groupName(m_groupNumber, cg) +
                                              ": its texts are not read: " + read.error().describe());
        if (numbers.empty()) return {};
        std::optional<core::Raster> raster = core::fitRaster(times.span());
        if (!raster) {
            auto irregular = irregularTimes(times.span(), cg);
            if (!irregular) return {}; // said
            group.timesNs = std::make_shared<const std::vector<std::int64_t>>(std::move(*irregular));
            raster = core::Raster{1.0, times[0], {core::RasterRun{0, 0, static_cast<std::int64_t>(cg.cycleCount)}}};
        }
        std::optional<ReductionData> reduction;
        if (!group.timesNs && timed && !cg.reductions.empty() && !group.ownRecords) {
            std::string why;
            reduction = chooseReduction(*m_r.m_file, cg, *master, times.span(), 0.25 / raster->fs, why);
            if (!why.empty()) limit(groupName(m_groupNumber, cg) + ": its sample reduction is not used: " + why);
        }
        BlockCuts cuts = cutBlocks(*raster, group.recordBytes, reduction ? &*reduction : nullptr);
        group.blocks = std::move(cuts.blocks);
        group.blockRecord = std::move(cuts.firstRecord);
        const Extrema extrema{reduction ? &*reduction : nullptr, cuts.intervals};
        const core::SampleGrid grid{m_r.m_info.start + static_cast<core::Uutc>(std::llround(raster->firstTime * 1e6)),
                                    raster->fs};
        const std::string label = groupLabel(cg, cg.source);
        for (std::size_t k = 0; k < numbers.size(); ++k)
            addChannel(group, *numbers[k], *raster, grid, firstValues[k], label, extrema);
        m_r.m_groups.push_back(std::move(group));
        return {};
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

    // The first record from which every DZ block is transposed in rows of whole records and starts on one, at or
    // after record `from` on a block boundary, so that the time column can be inflated alone; the cycle count when
    // there is none (DT, plain deflate, unsorted groups, a master with an invalidation bit, a virtual master).
    std::uint64_t mastersAloneFrom(const Mdf4Recording::Group& group, const Channel& master, std::uint64_t from)
    {
        const ChannelGroup& cg = m_r.m_structure.dataGroups[group.dataGroup].groups[group.channelGroup];
        const std::uint64_t rb = group.recordBytes;
        if (group.ownRecords || master.kind == ChannelKind::VirtualMaster || master.hasInvalidationBit() ||
            master.allInvalid())
            return cg.cycleCount;
        std::uint64_t start = cg.cycleCount;
        for (auto it = group.stream.leaves.rbegin(); it != group.stream.leaves.rend(); ++it) {
            const bool columns = it->dz && it->columns == rb && it->streamOffset % rb == 0 && it->bytes % rb == 0;
            if (!columns || it->streamOffset / rb < from) break;
            start = std::min(start, it->streamOffset / rb);
        }
        return start;
    }

    // Master times of records [from, cycle count) from the first columns of each transposed DZ block.
    core::Status readMasters(const Mdf4Recording::Group& group, const Channel& master, std::uint64_t from,
                             std::span<double> times)
    {
        const ChannelGroup& cg = m_r.m_structure.dataGroups[group.dataGroup].groups[group.channelGroup];
        const std::uint64_t rb = group.recordBytes;
        const std::uint64_t begin = group.idBytes + master.byteOffset;
        const std::uint64_t end = begin + (std::uint64_t{master.bitOffset} + master.bitCount + 7) / 8;
        std::vector<std::uint8_t> record(end), columns; // one buffer for every leaf: no fresh pages each time
        // A little-endian float64 on whole bytes (the usual time master): its eight byte columns put together.
        const bool plainDouble = master.dataType == DataType::FloatLe && master.bitCount == 64 && master.bitOffset == 0;
        for (const Leaf& leaf : group.stream.leaves) {
            const std::uint64_t first = leaf.streamOffset / rb, rows = leaf.bytes / rb;
            if (first < from || first >= cg.cycleCount) continue;
            LV_TRY(readLeafPrefix(*m_r.m_file, leaf, end * rows, columns));
            if (plainDouble) {
                const std::uint64_t n = std::min(rows, cg.cycleCount - first);
                joinDoubleColumns(columns.data() + begin * rows, rows, {times.data() + first, n});
                if (master.hasConversion)
                    for (double& t : std::span(times.data() + first, n)) t = convert(*master.conversion, t);
                continue;
            }
            for (std::uint64_t r = 0; r < rows && first + r < cg.cycleCount; ++r) {
                for (std::uint64_t c = begin; c < end; ++c) record[c] = columns[c * rows + r];
                times[first + r] = physicalValue(cg, master, record.data() + group.idBytes, first + r);
            }
        }
        return {};
    }

    template <class Visit>
    core::Status scan(const Mdf4Recording::Group& group, Visit&& visit, std::uint64_t from, std::uint64_t to)
    {
        const std::uint64_t chunk = std::max<std::uint64_t>(1, (std::uint64_t{8} << 20) / group.recordBytes);
        core::UninitializedBytes bytes;
        for (std::uint64_t first = from; first < to; first += chunk) {
            const std::uint64_t n = std::min(chunk, to - first);
            LV_TRY(m_r.readRecords(group, static_cast<std::int64_t>(first), static_cast<std::int64_t>(n), bytes));
            for (std::uint64_t i = 0; i < n; ++i)
                visit(bytes.data() + i * group.recordBytes + group.idBytes, first + i);
        }
        return {};
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
        m_channelAt[c.offset] = m_r.m_info.channels.size() - 1;
        m_r.m_channels.push_back(ref);
    }

    Mdf4Recording& m_r;
    io::ByteSourcePtr m_tree;
    core::NameSet m_names;                            // the channels' names so far (views of their ChannelInfo)
    std::map<std::uint64_t, std::size_t> m_channelAt; // CN block offset -> the channel's index in the recording
    std::size_t m_groupNumber = 0;                    // of the channel group being opened, VLSD groups counted
    std::vector<core::Annotation> m_texts;            // text channels' strings
};

core::Result<std::unique_ptr<Mdf4Recording>> openMdf4(const std::string& path)
{
    auto file = io::openFile(path);
    if (!file) return file.error();
    return openMdf4(*file);
}

core::Result<std::unique_ptr<Mdf4Recording>> openMdf4(const io::ByteSourcePtr& file)
{
    auto r = std::unique_ptr<Mdf4Recording>(new Mdf4Recording());
    // The tree's blocks through a few large reads, not one per block; data (DZ headers and the masters' columns,
    // scattered between the groups' trees) straight from the file: through windows, most of each window was data.
    const io::ByteSourcePtr tree = io::windowedSource(file, std::uint64_t{64} << 10);
    r->m_file = file;
    r->m_info.path = file->path();
    auto structure = readStructure(*tree);
    if (!structure) return structure.error();
    r->m_structure = std::move(*structure);
    LV_TRY(Mdf4Opener(*r, tree).run());
    return r;
}

bool looksLikeMdf4(const std::string& path)
{
    char magic[8] = {};
    std::ifstream in(io::toPath(path), std::ios::binary);
    return in.read(magic, sizeof magic) && std::memcmp(magic, "MDF     ", 8) == 0;
}

} // namespace lv::formats::mdf4
