// The MDF 4 writer: the block tree first (record counts and data links patched at the end), then each group's
// records as transposed-deflate DZ blocks (compressed on the runner's other threads while the caller makes the next
// ones), then DL/HL lists and events.
#include "formats/mdf4/Mdf4Writer.h"

#include "core/UninitializedAllocator.h"
#include "formats/mdf4/Mdf4BlockWriter.h"
#include "formats/mdf4/Mdf4Transpose.h"

#include <algorithm>
#include <cstring>
#include <libdeflate.h>
#include <new>
#include <utility>

namespace lv::formats::mdf4 {

using core::ErrorCode;

namespace {

constexpr std::size_t kOutBytes = std::size_t{8} << 20; // written in pieces of this size
constexpr int kLevel = 3;               // 64 ch x 1 h: 2% larger than level 6, compressed in 40% less time
constexpr std::size_t kMaxInFlight = 4; // DZ blocks being compressed behind the caller at most (the memory declared)

std::uint32_t widthOf(ValueType type)
{
    switch (type) {
    case ValueType::Int16:
        return 2;
    case ValueType::Int32:
    case ValueType::Float32:
        return 4;
    case ValueType::Float64:
        return 8;
    }
    return 4;
}

std::uint8_t dataTypeOf(ValueType type)
{
    return type == ValueType::Float32 || type == ValueType::Float64 ? kFloatLe : kIntLe;
}

RecordLayout layoutOf(const GroupSpec& g)
{
    RecordLayout l;
    l.dataBytes = 8; // the master
    for (const ChannelSpec& c : g.channels) {
        l.offsets.push_back(l.dataBytes);
        l.widths.push_back(widthOf(c.type));
        l.dataBytes += widthOf(c.type);
    }
    l.invalidBytes = static_cast<std::uint32_t>((g.channels.size() + 7) / 8);
    return l;
}

// Where every block of the tree goes (computed before any is written, so links may point forward).
struct ChannelPlace {
    std::uint64_t cn = 0, name = 0, unit = 0, comment = 0, conversion = 0;
};
struct GroupPlace {
    std::uint64_t dg = 0, cg = 0, acquisition = 0, comment = 0;
    ChannelPlace master;
    std::vector<ChannelPlace> channels;
};

std::string historyXml(const FileSpec& spec)
{
    const std::string program = xmlEscape(spec.program);
    return "<FHcomment><TX>written by " + program + " " + xmlEscape(spec.version) + "</TX><tool_id>" + program +
           "</tool_id><tool_vendor>" + program + "</tool_vendor><tool_version>" + xmlEscape(spec.version) +
           "</tool_version></FHcomment>";
}

// Compresses one block: transposed to column order, then zlib-deflated. False when out of memory.
bool compressBlock(const std::vector<std::uint8_t>& records, std::uint32_t recordBytes,
                   std::vector<std::uint8_t>& zipped)
{
    try {
        const std::uint64_t n = records.size();
        thread_local core::UninitializedBytes transposed; // reused by the thread: no fresh pages per block
        transposed.resize(n);
        blockToColumnOrder(records.data(), n, recordBytes, transposed.data());
        libdeflate_compressor* c = libdeflate_alloc_compressor(kLevel);
        if (!c) return false;
        zipped.resize(libdeflate_zlib_compress_bound(c, n));
        const std::size_t got = libdeflate_zlib_compress(c, transposed.data(), n, zipped.data(), zipped.size());
        libdeflate_free_compressor(c);
        zipped.resize(got);
        return got != 0;
    } catch (const std::bad_alloc&) {
        return false;
    }
}

} // namespace

Mdf4Writer::~Mdf4Writer() = default; // m_temp removes the file unless published

core::Error Mdf4Writer::failure(const std::string& what, const io::SystemError& e) const
{
    return core::makeError(io::writeFailureCode(e), what + ": " + e.text, m_target);
}

core::Result<std::unique_ptr<Mdf4Writer>> Mdf4Writer::create(const std::string& target, FileSpec spec,
                                                             core::TaskRunner* runner)
{
    std::unique_ptr<Mdf4Writer> w(new Mdf4Writer);
    w->m_target = target;
    w->m_runner = runner;
    w->m_zipBytes = std::max<std::uint64_t>(1, spec.zipBytes);
    w->m_compress = spec.compress;
    auto temp = io::Temporary::create(target, io::Temporary::Kind::File);
    if (!temp) return temp.error();
    w->m_temp = std::move(*temp);
    for (GroupSpec& g : spec.groups) {
        Group group;
        group.layout = layoutOf(g);
        group.spec = std::move(g);
        w->m_groups.push_back(std::move(group));
    }
    LV_TRY(w->writeTree(spec));
    return w;
}

core::Status Mdf4Writer::writeTree(const FileSpec& spec)
{
    const std::string hdXml = commentXml("HDcomment", spec.comment), fhXml = historyXml(spec);
    std::uint64_t at = kIdentificationBytes + kHdBytes;
    const auto place = [&at](std::uint64_t bytes) { return std::exchange(at, at + bytes); };
    const std::uint64_t hdComment = place(textBlockBytes(hdXml));
    const std::uint64_t history = place(kFhBytes);
    const std::uint64_t historyComment = place(textBlockBytes(fhXml));
    std::vector<GroupPlace> places(m_groups.size());
    for (std::size_t i = 0; i < m_groups.size(); ++i) {
        const GroupSpec& g = m_groups[i].spec;
        GroupPlace& p = places[i];
        p.dg = place(kDgBytes);
        p.cg = place(kCgBytes);
        p.acquisition = place(textBlockBytes(g.acquisitionName));
        if (!g.comment.empty()) p.comment = place(textBlockBytes(g.comment));
        p.master = {place(kCnBytes), place(textBlockBytes("time")), place(textBlockBytes("s")), 0, 0};
        for (const ChannelSpec& c : g.channels) {
            ChannelPlace cp;
            cp.cn = place(kCnBytes);
            cp.name = place(textBlockBytes(c.name));
            if (!c.unit.empty()) cp.unit = place(textBlockBytes(c.unit));
            if (!c.comment.empty()) cp.comment = place(textBlockBytes(c.comment));
            if (c.linear) cp.conversion = place(kCcLinearBytes);
            p.channels.push_back(cp);
            m_groups[i].cnOffsets.push_back(cp.cn);
        }
        m_groups[i].dgOffset = p.dg;
        m_groups[i].cgOffset = p.cg;
    }

    LV_TRY(put(identificationBlock(spec.program)));
    LV_TRY(put(headerBlock({places.empty() ? 0 : places.front().dg, history, 0, hdComment, spec.startNs})));
    LV_TRY(put(metadataBlock(hdXml)));
    LV_TRY(put(historyBlock(historyComment, spec.historyNs)));
    LV_TRY(put(metadataBlock(fhXml)));
    for (std::size_t i = 0; i < m_groups.size(); ++i) {
        const Group& g = m_groups[i];
        const GroupPlace& p = places[i];
        LV_TRY(put(dataGroupBlock(i + 1 < places.size() ? places[i + 1].dg : 0, p.cg, 0)));
        LV_TRY(put(channelGroupBlock(
            {0, p.master.cn, p.acquisition, p.comment, 0, g.layout.dataBytes, g.layout.invalidBytes})));
        LV_TRY(put(textBlock(g.spec.acquisitionName)));
        if (p.comment != 0) LV_TRY(put(textBlock(g.spec.comment)));
        ChannelFields master;
        master.next = p.channels.empty() ? 0 : p.channels.front().cn;
        master.name = p.master.name;
        master.unit = p.master.unit;
        master.type = kChannelMaster;
        master.sync = kSyncTime;
        master.dataType = kFloatLe;
        master.bitCount = 64;
        LV_TRY(put(channelBlock(master)));
        LV_TRY(put(textBlock("time")));
        LV_TRY(put(textBlock("s")));
        for (std::size_t k = 0; k < p.channels.size(); ++k) {
            const ChannelSpec& c = g.spec.channels[k];
            const ChannelPlace& cp = p.channels[k];
            ChannelFields f;
            f.next = k + 1 < p.channels.size() ? p.channels[k + 1].cn : 0;
            f.name = cp.name;
            f.conversion = cp.conversion;
            f.unit = cp.unit;
            f.comment = cp.comment;
            f.dataType = dataTypeOf(c.type);
            f.byteOffset = g.layout.offsets[k];
            f.bitCount = g.layout.widths[k] * 8;
            f.flags = kInvalidationBitValid;
            f.invalidBit = static_cast<std::uint32_t>(k);
            LV_TRY(put(channelBlock(f)));
            LV_TRY(put(textBlock(c.name)));
            if (cp.unit != 0) LV_TRY(put(textBlock(c.unit)));
            if (cp.comment != 0) LV_TRY(put(textBlock(c.comment)));
            if (cp.conversion != 0) LV_TRY(put(linearConversionBlock(c.offset, c.factor)));
        }
    }
    if (m_size != at)
        return core::makeError(ErrorCode::WriteFailed, "MDF4 writer: the block tree is not where it was planned",
                               m_target, static_cast<std::int64_t>(m_size));
    return {};
}

core::Status Mdf4Writer::append(std::size_t group, std::span<const std::uint8_t> records)
{
    const std::uint32_t bytes = m_groups.at(group).layout.recordBytes();
    if (records.size() % bytes != 0)
        return core::makeError(ErrorCode::InvalidArgument, "MDF4 writer: a part of a record was appended", m_target);
    if (group != m_pendingGroup && !m_pending.empty()) LV_TRY(flushPending(true));
    m_pendingGroup = group;
    m_pending.insert(m_pending.end(), records.begin(), records.end());
    m_groups[group].records += records.size() / bytes;
    const std::uint64_t blockBytes = std::max<std::uint64_t>(1, m_zipBytes / bytes) * bytes;
    if (m_pending.size() >= blockBytes) LV_TRY(flushPending(false));
    return {};
}

void Mdf4Writer::addEvent(EventSpec event) { m_events.push_back(std::move(event)); }

// The pending records' whole blocks (with `all`, the last partial one too) handed over for compression (DZ; DT
// blocks are written at once).
core::Status Mdf4Writer::flushPending(bool all)
{
    if (m_pending.empty()) return {};
    const std::uint32_t columns = m_groups[m_pendingGroup].layout.recordBytes();
    const std::uint64_t blockBytes = std::max<std::uint64_t>(1, m_zipBytes / columns) * columns;
    std::size_t count = m_pending.size() / blockBytes;
    if (all && m_pending.size() % blockBytes != 0) ++count;
    if (count == 0) return {};
    if (!m_compress) return writePlain(count, blockBytes);
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint64_t from = i * blockBytes, n = std::min<std::uint64_t>(blockBytes, m_pending.size() - from);
        std::vector<std::uint8_t> records;
        if (!m_spare.empty()) { // a written block's buffer: no fresh pages per block
            records = std::move(m_spare.back());
            m_spare.pop_back();
        }
        records.assign(m_pending.begin() + static_cast<std::ptrdiff_t>(from),
                       m_pending.begin() + static_cast<std::ptrdiff_t>(from + n));
        LV_TRY(compressBehind(std::move(records)));
    }
    const std::uint64_t used = std::min<std::uint64_t>(count * blockBytes, m_pending.size());
    m_pending.erase(m_pending.begin(), m_pending.begin() + static_cast<std::ptrdiff_t>(used));
    return {};
}

// Blocks compressed behind the caller at most: two per thread of the runner (up to kMaxInFlight), so that its other
// threads always find one to take while the caller makes the next, and the caller compresses only what they leave
// when it catches up.
std::size_t Mdf4Writer::depth() const
{
    const std::size_t threads = m_runner ? m_runner->threadCount() : 1;
    return threads <= 1 ? 1 : std::min(2 * threads, kMaxInFlight);
}

// A block of the pending group's records compressed on the runner's other threads while the caller goes on. When
// depth() blocks are in flight, the oldest is written first, and the caller compresses the others' blocks meanwhile.
core::Status Mdf4Writer::compressBehind(std::vector<std::uint8_t> records)
{
    while (m_inFlight.size() >= depth())
        if (m_inFlight.front().jobs.done() || !compressNewestHere()) LV_TRY(writeOldest());
    InFlight& f = m_inFlight.emplace_back();
    f.group = m_pendingGroup;
    f.recordBytes = m_groups[m_pendingGroup].layout.recordBytes();
    f.records = std::move(records);
    f.jobs.start(m_runner, 1, [&f](std::size_t) { f.failed = !compressBlock(f.records, f.recordBytes, f.zipped); });
    return {};
}

// Compresses here the newest block in flight no other thread has started; false when there is none. The caller
// does this when it would otherwise wait for the oldest, so no thread waits while a block waits.
bool Mdf4Writer::compressNewestHere()
{
    for (auto it = m_inFlight.rbegin(); it != m_inFlight.rend(); ++it)
        if (it->jobs.runOneHere()) return true;
    return false;
}

// Waits for the oldest block in flight (compressing it here when no other thread has started it) and writes it.
core::Status Mdf4Writer::writeOldest()
{
    InFlight& f = m_inFlight.front();
    f.jobs.finish();
    if (f.failed)
        return core::makeError(ErrorCode::WriteFailed, "MDF4 writer: out of memory compressing a block", m_target);
    Group& g = m_groups[f.group];
    const std::uint64_t n = f.records.size();
    g.blocks.push_back(m_size);
    g.starts.push_back(g.streamBytes);
    g.streamBytes += n;
    LV_TRY(put(zippedHeader(n, f.zipped.size(), g.layout.recordBytes())));
    LV_TRY(putRaw(f.zipped));
    static constexpr std::uint8_t kZeros[8] = {};
    LV_TRY(putRaw(std::span(kZeros, aligned8(f.zipped.size()) - f.zipped.size())));
    m_spare.push_back(std::move(f.records));
    m_inFlight.pop_front();
    return {};
}

// The pending records as `count` DT blocks of `blockBytes` (the last one what is left).
core::Status Mdf4Writer::writePlain(std::size_t count, std::uint64_t blockBytes)
{
    Group& g = m_groups[m_pendingGroup];
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint64_t from = i * blockBytes, n = std::min<std::uint64_t>(blockBytes, m_pending.size() - from);
        g.blocks.push_back(m_size);
        g.starts.push_back(g.streamBytes);
        g.streamBytes += n;
        LV_TRY(put(plainHeader(n)));
        LV_TRY(putRaw(std::span(m_pending).subspan(from, n)));
        static constexpr std::uint8_t kZeros[8] = {};
        LV_TRY(putRaw(std::span(kZeros, aligned8(n) - n)));
    }
    const std::uint64_t used = std::min<std::uint64_t>(count * blockBytes, m_pending.size());
    m_pending.erase(m_pending.begin(), m_pending.begin() + static_cast<std::ptrdiff_t>(used));
    return {};
}

// The group's DZ blocks in DL blocks of kListEntries, chained, under an HL (DT blocks: no HL); the DG's data link
// set to the HL or the first DL.
core::Status Mdf4Writer::writeLists(Group& g)
{
    if (g.blocks.empty()) return {};
    std::vector<std::uint64_t> lists;
    std::uint64_t at = m_size;
    for (std::size_t first = 0; first < g.blocks.size(); first += kListEntries) {
        lists.push_back(at);
        at += dataListBytes(std::min(kListEntries, g.blocks.size() - first));
    }
    const std::uint64_t hl = at;
    for (std::size_t k = 0, first = 0; first < g.blocks.size(); ++k, first += kListEntries) {
        const std::size_t n = std::min(kListEntries, g.blocks.size() - first);
        LV_TRY(put(dataListBlock(k + 1 < lists.size() ? lists[k + 1] : 0, std::span(g.blocks).subspan(first, n),
                                 std::span(g.starts).subspan(first, n))));
    }
    if (m_compress) LV_TRY(put(headerListBlock(lists.front(), 1)));
    LV_TRY(flushOut());
    return patch(g.dgOffset + kDgDataLinkAt, m_compress ? hl : lists.front());
}

core::Status Mdf4Writer::writeEvents()
{
    if (m_events.empty()) return {};
    std::vector<std::uint64_t> ev(m_events.size()), name(m_events.size()), comment(m_events.size());
    std::vector<std::string> xml(m_events.size());
    std::uint64_t at = m_size;
    for (std::size_t i = 0; i < m_events.size(); ++i) {
        const EventSpec& e = m_events[i];
        ev[i] = std::exchange(at, at + eventBlockBytes(e.scope ? 1 : 0));
        name[i] = std::exchange(at, at + textBlockBytes(e.name));
        if (!e.comment.empty()) {
            xml[i] = commentXml("EVcomment", e.comment);
            comment[i] = std::exchange(at, at + textBlockBytes(xml[i]));
        }
    }
    for (std::size_t i = 0; i < m_events.size(); ++i) {
        const EventSpec& e = m_events[i];
        EventFields f;
        f.next = i + 1 < ev.size() ? ev[i + 1] : 0;
        f.name = name[i];
        f.comment = comment[i];
        f.rangeType = e.range == EventSpec::Range::Point   ? kRangePoint
                      : e.range == EventSpec::Range::Begin ? kRangeBegin
                                                           : kRangeEnd;
        if (e.range == EventSpec::Range::End && e.begin < ev.size()) f.range = ev[e.begin];
        f.cause = e.byTool ? kCauseTool : kCauseUser;
        f.baseValue = e.baseValue;
        f.factor = e.factor;
        if (e.scope) f.scopes.push_back(m_groups.at(e.scope->first).cnOffsets.at(e.scope->second));
        LV_TRY(put(eventBlock(f)));
        LV_TRY(put(textBlock(e.name)));
        if (comment[i] != 0) LV_TRY(put(metadataBlock(xml[i])));
    }
    LV_TRY(flushOut());
    return patch(kIdentificationBytes + kHdEventLinkAt, ev.front());
}

core::Status Mdf4Writer::finish()
{
    if (m_finished || m_committed)
        return core::makeError(ErrorCode::WriteFailed, "MDF4 writer: the output is finished", m_target);
    LV_TRY(flushPending(true));
    while (!m_inFlight.empty()) LV_TRY(writeOldest());
    for (Group& g : m_groups) LV_TRY(writeLists(g));
    LV_TRY(writeEvents());
    LV_TRY(flushOut());
    for (const Group& g : m_groups) LV_TRY(patch(g.cgOffset + kCgCycleCountAt, g.records));
    if (io::SystemError e = m_temp.file().syncData(); !e.ok()) return failure("cannot finish writing the output", e);
    m_finished = true;
    return {};
}

core::Status Mdf4Writer::commit()
{
    if (!m_finished) LV_TRY(finish());
    LV_TRY(m_temp.publish(m_target));
    m_committed = true;
    return {};
}

core::Status Mdf4Writer::put(const std::vector<std::uint8_t>& bytes) { return putRaw(bytes); }

core::Status Mdf4Writer::putRaw(std::span<const std::uint8_t> bytes)
{
    m_out.insert(m_out.end(), bytes.begin(), bytes.end());
    m_size += bytes.size();
    if (m_out.size() >= kOutBytes) return flushOut();
    return {};
}

core::Status Mdf4Writer::flushOut()
{
    if (m_out.empty()) return {};
    std::size_t done = 0;
    if (io::SystemError e = m_temp.file().writeAt(m_size - m_out.size(), m_out, done); !e.ok())
        return failure("cannot write the output", e);
    m_out.clear();
    return {};
}

core::Status Mdf4Writer::patch(std::uint64_t offset, std::uint64_t value)
{
    std::uint8_t bytes[8];
    std::memcpy(bytes, &value, 8); // little endian hosts only (core/LittleEndian.h)
    std::size_t done = 0;
    if (io::SystemError e = m_temp.file().writeAt(offset, bytes, done); !e.ok())
        return failure("cannot write the output", e);
    return {};
}

} // namespace lv::formats::mdf4
