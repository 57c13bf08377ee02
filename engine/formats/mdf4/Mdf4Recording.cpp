// Reading an MDF 4 recording: blocks of whole records, each channel's field taken out as counts; inflated DZ leaves
// kept in a small cache, since every channel of a group reads the same leaves.
#include "formats/mdf4/Mdf4Recording.h"

#include "formats/mdf4/Mdf4Block.h"
#include "formats/mdf4/Mdf4Conversion.h"
#include "formats/mdf4/Mdf4Data.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <future>
#include <map>
#include <set>

namespace lv::formats::mdf4 {

namespace { // Byte-aligned little-endian integers of T at `at` in each record, kNoSample where the invalidation bit is
            // set:
// the common layout, read without the general bit-field path (a third of a DZ read's time went there).
template <class T>
void takeIntegers(const std::uint8_t* records, std::uint64_t recordBytes, std::uint64_t at, bool checkBit,
                  std::uint64_t bitByte, std::uint8_t mask, std::span<std::int32_t> out)
{
    for (std::size_t i = 0; i < out.size(); ++i) {
        const std::uint8_t* record = records + i * recordBytes;
        T v;
        std::memcpy(&v, record + at, sizeof v);
        out[i] = checkBit && (record[bitByte] & mask) ? core::kNoSample : static_cast<std::int32_t>(v);
    }
}

} // namespace

// Single flight: a block another thread is inflating is waited for, not inflated twice.
Mdf4Recording::Bytes Mdf4Recording::leafBytes(const Group& group, std::size_t leaf) const
{
    const std::uint64_t key = group.stream.leaves[leaf].block; // the DZ block's offset: one leaf of the file
    std::promise<Bytes> mine;
    std::shared_future<Bytes> theirs;
    {
        std::lock_guard lock(m_mutex);
        for (auto it = m_leafCache.begin(); it != m_leafCache.end(); ++it)
            if (it->first == key) {
                m_leafCache.splice(m_leafCache.begin(), m_leafCache, it);
                return it->second;
            }
        if (const auto it = m_inflating.find(key); it != m_inflating.end())
            theirs = it->second;
        else
            m_inflating[key] = mine.get_future().share();
    }
    if (theirs.valid()) return theirs.get();
    auto bytes = readLeaf(*m_file, group.stream.leaves[leaf]);
    Bytes shared = bytes ? std::make_shared<const core::UninitializedBytes>(std::move(*bytes)) : nullptr;
    {
        std::lock_guard lock(m_mutex);
        m_inflating.erase(key);
        if (shared) {
            m_leafCache.emplace_front(key, shared);
            m_leafCacheBytes += shared->size();
            while (m_leafCacheBytes > m_leafCacheBudget && m_leafCache.size() > 1) {
                m_leafCacheBytes -= m_leafCache.back().second->size();
                m_leafCache.pop_back();
            }
        }
    }
    mine.set_value(shared);
    return shared;
}

core::Status Mdf4Recording::readRecords(const Group& group, std::int64_t first, std::int64_t count,
                                        core::UninitializedBytes& out) const
{
    const std::uint64_t begin = static_cast<std::uint64_t>(first) * group.recordBytes;
    const std::uint64_t bytes = static_cast<std::uint64_t>(count) * group.recordBytes;
    out.resize(bytes);
    if (group.ownRecords) {
        if (begin + bytes > group.ownRecords->size()) return corrupt(*m_file, 0, "records beyond the data");
        std::memcpy(out.data(), group.ownRecords->data() + begin, bytes);
        return {};
    }
    const std::vector<Leaf>& leaves = group.stream.leaves;
    if (begin + bytes > group.stream.bytes) return corrupt(*m_file, 0, "records beyond the data");
    const auto after = [](std::uint64_t at, const Leaf& l) { return at < l.streamOffset + l.bytes; };
    for (auto it = std::upper_bound(leaves.begin(), leaves.end(), begin, after);
         it != leaves.end() && it->streamOffset < begin + bytes; ++it) {
        const std::uint64_t from = std::max(begin, it->streamOffset);
        const std::uint64_t to = std::min(begin + bytes, it->streamOffset + it->bytes);
        std::uint8_t* dst = out.data() + (from - begin);
        if (!it->dz) {
            LV_TRY(m_file->readAt(it->dataAt + (from - it->streamOffset), {dst, to - from}));
            continue;
        }
        const auto leaf = leafBytes(group, static_cast<std::size_t>(it - leaves.begin()));
        if (!leaf) return readLeaf(*m_file, *it).error(); // the cache keeps no failures: read again for the error
        std::memcpy(dst, leaf->data() + (from - it->streamOffset), to - from);
    }
    return {};
}

std::span<const core::BlockSpan> Mdf4Recording::blocks(std::size_t channel) const
{
    const ChannelRef& ref = m_channels[channel];
    return ref.extrema != kNoExtrema ? m_extremaBlocks[ref.extrema] : m_groups[ref.group].blocks;
}

void Mdf4Recording::warnOnce(std::size_t channel, const std::string& what) const
{
    std::lock_guard lock(m_mutex);
    if (m_warned[channel]) return;
    m_warned[channel] = true;
    m_warnings.push_back("channel " + m_info.channels[channel].name + ": " + what);
}

bool Mdf4Recording::takeAligned(const Group& group, const ChannelGroup& cg, const Channel& c,
                                const std::uint8_t* records, std::span<std::int32_t> out) const
{
    if constexpr (std::endian::native != std::endian::little) return false;
    const bool isSigned = c.dataType == DataType::IntLe, isUnsigned = c.dataType == DataType::UintLe;
    if (c.bitOffset != 0 || !(isSigned || isUnsigned) || c.kind == ChannelKind::VirtualData) return false;
    if (c.allInvalid()) {
        std::fill(out.begin(), out.end(), core::kNoSample);
        return true;
    }
    const std::uint64_t at = group.idBytes + c.byteOffset, rb = group.recordBytes;
    const bool check = c.hasInvalidationBit();
    const std::uint64_t bitByte = group.idBytes + cg.dataBytes + c.invalidBit / 8;
    const auto mask = static_cast<std::uint8_t>(1u << (c.invalidBit % 8));
    switch (c.bitCount) {
    case 8:
        isSigned ? takeIntegers<std::int8_t>(records, rb, at, check, bitByte, mask, out)
                 : takeIntegers<std::uint8_t>(records, rb, at, check, bitByte, mask, out);
        return true;
    case 16:
        isSigned ? takeIntegers<std::int16_t>(records, rb, at, check, bitByte, mask, out)
                 : takeIntegers<std::uint16_t>(records, rb, at, check, bitByte, mask, out);
        return true;
    case 32:
        if (!isSigned) return false; // uint32 is not held as counts
        takeIntegers<std::int32_t>(records, rb, at, check, bitByte, mask, out);
        return true;
    default:
        return false;
    }
}

void Mdf4Recording::extract(std::size_t channel, const std::uint8_t* records, std::int64_t firstRecord,
                            std::span<std::int32_t> out) const
{
    const ChannelRef& ref = m_channels[channel];
    const Group& group = m_groups[ref.group];
    const ChannelGroup& cg = m_structure.dataGroups[group.dataGroup].groups[group.channelGroup];
    const Channel& c = cg.channels[ref.channel];
    if (ref.mapping == Mapping::Counts && takeAligned(group, cg, c, records, out)) return;
    const double factor = m_info.channels[channel].conversionFactor;
    bool outOfRange = false;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const std::uint8_t* record = records + i * group.recordBytes + group.idBytes;
        if (ref.mapping == Mapping::Counts) {
            out[i] = sampleInvalid(cg, c, record) ? core::kNoSample : static_cast<std::int32_t>(rawValue(c, record));
            continue;
        }
        const double v = physicalValue(cg, c, record, static_cast<std::uint64_t>(firstRecord) + i);
        const double q = std::round(v / factor);
        const bool fits = q > -2147483648.0 && q <= 2147483647.0;
        outOfRange = outOfRange || (std::isfinite(v) && !fits);
        out[i] = fits ? static_cast<std::int32_t>(q) : core::kNoSample;
    }
    if (outOfRange) warnOnce(channel, "values beyond 2^31 steps of its resolution are read as missing");
}

core::Status Mdf4Recording::decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                                        const core::ReadControl&) const
{
    const Group& group = m_groups[m_channels[channel].group];
    const core::BlockSpan& span = group.blocks[block];
    thread_local core::UninitializedBytes bytes;
    LV_TRY(readRecords(group, group.blockRecord[block], span.count, bytes));
    extract(channel, bytes.data(), group.blockRecord[block], out.first(std::min<std::size_t>(span.count, out.size())));
    return {};
}

namespace {

// Samples [from, to) of `slice` (positions in the channel) as missing.
void fillMissing(const core::RawSlice& slice, std::int64_t from, std::int64_t to)
{
    if (from < to)
        std::fill_n(slice.out.begin() + (from - slice.firstSample), static_cast<std::size_t>(to - from),
                    core::kNoSample);
}

} // namespace

// One job per (group, block) that any slice needs: the records the slices need from it are read once and every
// slice's channel taken out of them, into the slice's own range.
core::Status Mdf4Recording::readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control)
{
    std::map<std::pair<std::size_t, std::size_t>, std::vector<Piece>> byBlock; // (group, block) -> pieces
    for (std::size_t s = 0; s < slices.size(); ++s) {
        const core::RawSlice& slice = slices[s];
        const std::size_t g = m_channels[slice.channel].group;
        const std::int64_t from = slice.firstSample, to = from + static_cast<std::int64_t>(slice.out.size());
        const std::vector<core::BlockSpan>& list = m_groups[g].blocks;
        auto it = std::upper_bound(list.begin(), list.end(), from,
                                   [](std::int64_t at, const core::BlockSpan& b) { return at < b.first + b.count; });
        std::int64_t covered = from; // the jobs write their pieces whole: only what no block holds is filled here
        for (; it != list.end() && it->first < to; ++it) {
            const Piece piece{s, std::max(from, it->first), std::min<std::int64_t>(to, it->first + it->count)};
            fillMissing(slice, covered, piece.from);
            covered = piece.to;
            byBlock[{g, static_cast<std::size_t>(it - list.begin())}].push_back(piece);
        }
        fillMissing(slice, covered, to);
    }
    std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::vector<Piece>>> jobs;
    jobs.reserve(byBlock.size());
    for (auto& [key, pieces] : byBlock) jobs.emplace_back(key, std::move(pieces));
    const std::vector<std::pair<std::size_t, std::size_t>> ahead =
        control.runner && control.runner->threadCount() > 1 ? leavesAhead(jobs) : decltype(leavesAhead(jobs)){};
    std::vector<core::Status> results(jobs.size());
    std::atomic<std::uint64_t> done{0};
    const auto run = [&](std::size_t k) {
        if (k < ahead.size()) { // inflated while the others take the current block's records apart
            (void)leafBytes(m_groups[ahead[k].first], ahead[k].second);
            return;
        }
        const std::size_t j = k - ahead.size();
        const auto missing = [&] { // a job that takes nothing out leaves its pieces missing
            for (const Piece& p : jobs[j].second) fillMissing(slices[p.slice], p.from, p.to);
        };
        if (control.cancel && control.cancel->cancelled()) {
            results[j] = core::makeError(core::ErrorCode::Cancelled, "cancelled", m_info.path);
            return missing();
        }
        const auto [g, block] = jobs[j].first;
        const Group& group = m_groups[g];
        const core::BlockSpan& b = group.blocks[block];
        std::int64_t lo = b.first + b.count, hi = b.first;
        for (const Piece& p : jobs[j].second) lo = std::min(lo, p.from), hi = std::max(hi, p.to);
        const std::int64_t firstRecord = group.blockRecord[block] + (lo - b.first);
        thread_local core::UninitializedBytes bytes;
        results[j] = readRecords(group, firstRecord, hi - lo, bytes);
        if (!results[j].ok()) return missing();
        for (const Piece& p : jobs[j].second) {
            const core::RawSlice& slice = slices[p.slice];
            extract(slice.channel, bytes.data() + static_cast<std::size_t>(p.from - lo) * group.recordBytes,
                    firstRecord + (p.from - lo),
                    slice.out.subspan(static_cast<std::size_t>(p.from - slice.firstSample),
                                      static_cast<std::size_t>(p.to - p.from)));
        }
        if (control.progress) control.progress(++done, jobs.size());
    };
    if (control.runner)
        control.runner->parallelFor(ahead.size() + jobs.size(), run);
    else
        for (std::size_t j = 0; j < jobs.size(); ++j) run(j);
    if (control.forwardOnly) dropLeavesBehind(slices);
    for (core::Status& s : results) LV_TRY(std::move(s));
    return {};
}

std::uint64_t Mdf4Recording::cachedLeafBytes() const
{
    std::lock_guard lock(m_mutex);
    return m_leafCacheBytes;
}

void Mdf4Recording::dropLeavesBehind(std::span<const core::RawSlice> slices) const
{
    std::map<std::size_t, std::uint64_t> behind; // group -> stream bytes no later read of its channels needs
    for (const core::RawSlice& slice : slices) {
        if (slice.out.empty()) continue;
        const std::size_t g = m_channels[slice.channel].group;
        const Group& group = m_groups[g];
        if (group.blocks.empty()) continue;
        const std::int64_t to = slice.firstSample + static_cast<std::int64_t>(slice.out.size());
        const auto it =
            std::upper_bound(group.blocks.begin(), group.blocks.end(), to - 1,
                             [](std::int64_t at, const core::BlockSpan& b) { return at < b.first + b.count; });
        const std::int64_t records = it == group.blocks.end()
                                         ? group.blockRecord.back() + group.blocks.back().count // all of them
                                         : group.blockRecord[static_cast<std::size_t>(it - group.blocks.begin())] +
                                               std::max<std::int64_t>(0, to - it->first);
        const std::uint64_t bytes = static_cast<std::uint64_t>(records) * group.recordBytes;
        const auto [at, fresh] = behind.try_emplace(g, bytes);
        if (!fresh) at->second = std::min(at->second, bytes);
    }
    std::vector<std::uint64_t> done; // DZ blocks wholly behind: leaves are in stream order
    for (const auto& [g, bytes] : behind)
        for (const Leaf& l : m_groups[g].stream.leaves) {
            if (l.streamOffset + l.bytes > bytes) break;
            if (l.dz) done.push_back(l.block);
        }
    std::lock_guard lock(m_mutex);
    for (auto e = m_leafCache.begin(); e != m_leafCache.end();) {
        if (std::find(done.begin(), done.end(), e->first) == done.end()) {
            ++e;
            continue;
        }
        m_leafCacheBytes -= e->second->size();
        e = m_leafCache.erase(e);
    }
}

bool Mdf4Recording::leafPending(std::uint64_t key) const
{
    std::lock_guard lock(m_mutex);
    return !m_inflating.count(key) &&
           std::none_of(m_leafCache.begin(), m_leafCache.end(), [&](const auto& e) { return e.first == key; });
}

// The DZ blocks to inflate before the jobs take records apart, each once, on as many threads as there are (jobs
// that share a block would otherwise wait for one thread to inflate it): those the jobs read that are not cached
// nor being inflated (as many as half the cache holds: more would evict the first before their jobs run), then the
// block after the last one each group's jobs read, since a reader going forward asks
// for it next (a read of one block at a time keeps one thread busy otherwise).
std::vector<std::pair<std::size_t, std::size_t>> Mdf4Recording::leavesAhead(
    const std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::vector<Piece>>>& jobs) const
{
    std::map<std::size_t, std::int64_t> lastRecord; // group -> the last record the jobs read
    std::vector<std::pair<std::size_t, std::size_t>> ahead;
    std::set<std::uint64_t> listed;
    std::uint64_t listedBytes = 0;
    for (const auto& [key, pieces] : jobs) {
        const Group& group = m_groups[key.first];
        const core::BlockSpan& b = group.blocks[key.second];
        std::int64_t lo = b.first + b.count, hi = b.first;
        for (const Piece& p : pieces) lo = std::min(lo, p.from), hi = std::max(hi, p.to);
        const std::int64_t first = group.blockRecord[key.second] + (lo - b.first), last = first + (hi - lo) - 1;
        lastRecord[key.first] = std::max(lastRecord[key.first], last);
        if (group.ownRecords) continue;
        const std::vector<Leaf>& leaves = group.stream.leaves;
        const auto after = [](std::uint64_t x, const Leaf& l) { return x < l.streamOffset + l.bytes; };
        const std::uint64_t begin = static_cast<std::uint64_t>(first) * group.recordBytes,
                            end = static_cast<std::uint64_t>(last + 1) * group.recordBytes;
        for (auto it = std::upper_bound(leaves.begin(), leaves.end(), begin, after);
             it != leaves.end() && it->streamOffset < end; ++it)
            if (it->dz && listedBytes < m_leafCacheBudget / 2 && listed.insert(it->block).second &&
                leafPending(it->block)) {
                ahead.emplace_back(key.first, static_cast<std::size_t>(it - leaves.begin()));
                listedBytes += it->bytes;
            }
    }
    for (const auto& [g, record] : lastRecord) {
        const std::vector<Leaf>& leaves = m_groups[g].stream.leaves;
        const std::uint64_t at = static_cast<std::uint64_t>(record) * m_groups[g].recordBytes;
        const auto it = std::upper_bound(leaves.begin(), leaves.end(), at,
                                         [](std::uint64_t x, const Leaf& l) { return x < l.streamOffset + l.bytes; });
        if (m_groups[g].ownRecords || it == leaves.end() || it + 1 == leaves.end() || !(it + 1)->dz) continue;
        if (listed.insert((it + 1)->block).second && leafPending((it + 1)->block))
            ahead.emplace_back(g, static_cast<std::size_t>(it + 1 - leaves.begin()));
    }
    return ahead;
}

core::Status Mdf4Recording::readTimes(std::span<const core::TimeSlice> slices, const core::ReadControl& control)
{
    for (const core::TimeSlice& slice : slices) {
        if (slice.channel >= m_channels.size())
            return core::makeError(core::ErrorCode::InvalidArgument,
                                   "no channel number " + std::to_string(slice.channel));
        const auto& times = m_groups[m_channels[slice.channel].group].timesNs;
        if (!times) {
            LV_TRY(Recording::readTimes(std::span(&slice, 1), control));
            continue;
        }
        if (slice.firstSample < 0 || slice.firstSample + static_cast<std::int64_t>(slice.outNs.size()) >
                                         static_cast<std::int64_t>(times->size()))
            return core::makeError(core::ErrorCode::InvalidArgument,
                                   "samples beyond channel " + m_info.channels[slice.channel].name);
        std::copy_n(times->begin() + slice.firstSample, slice.outNs.size(), slice.outNs.begin());
    }
    return {};
}

core::Result<core::SampleSpan> Mdf4Recording::samplesIn(std::size_t channel, core::TimeRange range)
{
    if (channel >= m_channels.size() || !m_groups[m_channels[channel].group].timesNs)
        return Recording::samplesIn(channel, range);
    const std::vector<std::int64_t>& times = *m_groups[m_channels[channel].group].timesNs;
    const auto first = std::lower_bound(times.begin(), times.end(), core::usToNs(range.start));
    const auto last = std::lower_bound(first, times.end(), core::usToNs(range.end));
    return core::SampleSpan{first - times.begin(), last - first};
}

std::string Mdf4Recording::valueLabel(std::size_t channel, std::int32_t count) const
{
    if (channel >= m_channels.size() || !m_info.channels[channel].labelled || count == core::kNoSample) return {};
    const ChannelRef& ref = m_channels[channel];
    const Group& group = m_groups[ref.group];
    const Channel& c = m_structure.dataGroups[group.dataGroup].groups[group.channelGroup].channels[ref.channel];
    return convertToText(*c.conversion, static_cast<double>(count)).value_or(std::string());
}

std::vector<std::string> Mdf4Recording::takeWarnings()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_warnings, {});
}

} // namespace lv::formats::mdf4
