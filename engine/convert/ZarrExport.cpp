// Channel by channel, a few chunks at a time: read the counts, then compress and write each chunk on the runner.
#include "convert/ZarrExport.h"

#include "convert/Provenance.h"
#include "convert/TempTarget.h"
#include "convert/ZarrMetadata.h"
#include "core/BlockSource.h"
#include "core/ReadJobs.h"
#include "core/TimeFormat.h"
#include "io/FileSystem.h"
#include "io/Path.h"
#include "io/WritableFile.h"

#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <set>

namespace lv::convert {

using core::ErrorCode;
using core::makeError;

namespace {

constexpr std::int64_t kChunkBytes = std::int64_t{1} << 20; // uncompressed bytes of one chunk
constexpr std::int64_t kBatchChunks = 8;                    // chunks read, then compressed in parallel
constexpr int kLevel = 3;

// What one channel becomes.
struct ChannelPlan {
    std::size_t channel = 0;
    std::string node;
    core::SampleSpan span;
    ZarrArray values, mask, times;
};

// Every count of `channel` fits int16: blocks with stored extrema say so without decoding, and EDF samples are
// 16-bit by definition; else int32.
bool fitsInt16(const core::Recording& r, std::size_t channel)
{
    if (r.info().format.rfind("EDF", 0) == 0) return true;
    const core::BlockSource* blocks = r.blockSource();
    if (!blocks || !blocks->storesExtrema()) return false;
    bool fits = true;
    const bool listed = blocks->visitBlocks(channel, 0, r.info().channels[channel].gridLength,
                                            [&](std::size_t, const core::BlockSpan& b) {
                                                fits = b.hasExtrema && b.minimum >= -32768 && b.maximum <= 32767;
                                                return fits;
                                            });
    return listed && fits;
}

nlohmann::json channelAttributes(const core::ChannelInfo& ch, core::Recording& r, const ChannelPlan& p, bool counts)
{
    std::int64_t firstNs = 0;
    if (ch.irregular) {
        std::vector<std::int64_t> t(1);
        const core::TimeSlice slice{p.channel, p.span.first, t};
        firstNs = p.span.count > 0 && r.readTimes(std::span(&slice, 1), {}).ok() ? t[0] : core::usToNs(ch.start);
    } else {
        firstNs = core::usToNs(ch.grid().timeOf(p.span.first));
    }
    nlohmann::json a = {{"name", ch.name},
                        {"units", ch.unit},
                        {"sampling_rate_hz", ch.fs},
                        {"irregular", ch.irregular},
                        {"start_time", core::formatIso(core::nsToUs(firstNs))},
                        {"start_time_ns", firstNs}};
    if (counts) {
        a["scale_factor"] = ch.conversionFactor;
        a["add_offset"] = ch.offset;
    }
    if (!ch.description.empty()) a["description"] = ch.description;
    if (!ch.prefilter.empty()) a["prefilter"] = ch.prefilter;
    if (ch.irregular) a["times"] = p.node + ".time";
    return a;
}

// Chunks hold little-endian values, copied as the machine holds them: every platform Longview builds for is
// little-endian.
static_assert(std::endian::native == std::endian::little);

enum class Kind { Int16, Int32, Float32, Float64 };

template <typename T>
void store(const std::vector<std::int32_t>& counts, std::uint8_t* out, T (*value)(std::int32_t, double, double),
           double factor, double offset)
{
    for (std::size_t i = 0; i < counts.size(); ++i) {
        const T v = value(counts[i], factor, offset);
        std::memcpy(out + i * sizeof(T), &v, sizeof(T));
    }
}

// Counts to the array's values, little-endian: counts as they are (0 where missing), or physical values (NaN).
void encode(Kind kind, const std::vector<std::int32_t>& counts, double factor, double offset, std::uint8_t* out)
{
    constexpr std::int32_t kNone = core::kNoSample;
    switch (kind) {
    case Kind::Int16:
        return store<std::int16_t>(
            counts, out, [](std::int32_t c, double, double) { return static_cast<std::int16_t>(c == kNone ? 0 : c); },
            factor, offset);
    case Kind::Int32:
        return store<std::int32_t>(
            counts, out, [](std::int32_t c, double, double) { return c == kNone ? 0 : c; }, factor, offset);
    case Kind::Float32:
        return store<float>(
            counts, out,
            [](std::int32_t c, double f, double o) {
                return c == kNone ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(c * f + o);
            },
            factor, offset);
    case Kind::Float64:
        return store<double>(
            counts, out,
            [](std::int32_t c, double f, double o) {
                return c == kNone ? std::numeric_limits<double>::quiet_NaN() : c * f + o;
            },
            factor, offset);
    }
}

class ZarrWriter {
public:
    ZarrWriter(core::Recording& r, const TargetOptions& o, std::string root, const core::ReadControl& control)
        : m_r(r)
        , m_o(o)
        , m_root(std::move(root))
        , m_control(control)
    {}

    using Arrays = std::vector<std::pair<std::string, ZarrArray>>;
    core::Status writeChannel(ChannelPlan& p, Arrays& arrays);
    std::uint64_t total = 0;
    std::uint64_t done = 0;

private:
    // Writes `bytes` of chunk `k` of the array at `node`, compressed.
    core::Status writeChunk(const std::string& node, std::int64_t k, std::span<const std::uint8_t> bytes) const;
    core::Status folder(const std::string& node) const;
    core::Status values(ChannelPlan& p, bool& anyMissing);
    core::Status times(ChannelPlan& p);
    core::Status advance(std::uint64_t n);

    core::Recording& m_r;
    const TargetOptions& m_o;
    std::string m_root;
    const core::ReadControl& m_control;
};

core::Status ZarrWriter::folder(const std::string& node) const
{
    const std::filesystem::path dir = io::toPath(m_root) / io::toPath(node);
    for (const auto& d : {dir, dir / "c"}) {
        if (d == dir / "c" && m_o.zarrVersion != 3) break;
        if (io::SystemError e = io::createFolder(d); !e.ok())
            return makeError(ErrorCode::WriteFailed, "cannot create the folder: " + e.text, io::toUtf8(d));
    }
    return {};
}

core::Status ZarrWriter::writeChunk(const std::string& node, std::int64_t k, std::span<const std::uint8_t> bytes) const
{
    std::vector<std::uint8_t> packed(ZSTD_compressBound(bytes.size()));
    const std::size_t size = ZSTD_compress(packed.data(), packed.size(), bytes.data(), bytes.size(), kLevel);
    const std::string path =
        io::toUtf8(io::toPath(m_root) / io::toPath(node) / io::toPath(zarrChunkKey(m_o.zarrVersion, k)));
    if (ZSTD_isError(size)) return makeError(ErrorCode::WriteFailed, ZSTD_getErrorName(size), path);
    auto file = io::WritableFile::create(path);
    if (!file) return file.error();
    LV_TRY(file->writeAt(0, std::span(packed.data(), size)));
    return file->close();
}

core::Status ZarrWriter::advance(std::uint64_t n)
{
    done += n;
    if (m_control.progress) m_control.progress(done, total);
    if (m_control.cancel && m_control.cancel->cancelled())
        return makeError(ErrorCode::Cancelled, "conversion cancelled");
    return {};
}

core::Status ZarrWriter::values(ChannelPlan& p, bool& anyMissing)
{
    const core::ChannelInfo& ch = m_r.info().channels[p.channel];
    const std::int64_t chunk = p.values.chunk;
    const std::string dtype = p.values.dtype;
    const std::size_t item = zarrItemSize(dtype);
    const Kind kind = dtype == "int16"     ? Kind::Int16
                      : dtype == "int32"   ? Kind::Int32
                      : dtype == "float32" ? Kind::Float32
                                           : Kind::Float64;
    const std::int64_t chunks = (p.span.count + chunk - 1) / chunk;
    core::ReadControl quiet = m_control;
    quiet.progress = nullptr;
    std::atomic<bool> missing = false;
    for (std::int64_t k0 = 0; k0 < chunks; k0 += kBatchChunks) {
        const std::int64_t n = std::min(kBatchChunks, chunks - k0);
        std::vector<std::vector<std::int32_t>> counts(static_cast<std::size_t>(n));
        std::vector<core::RawSlice> slices;
        for (std::int64_t j = 0; j < n; ++j) {
            const std::int64_t first = (k0 + j) * chunk, length = std::min(chunk, p.span.count - first);
            counts[static_cast<std::size_t>(j)].assign(static_cast<std::size_t>(chunk), core::kNoSample);
            slices.push_back({p.channel, p.span.first + first,
                              std::span(counts[static_cast<std::size_t>(j)]).first(static_cast<std::size_t>(length))});
        }
        LV_TRY(m_r.readRaw(slices, quiet));
        LV_TRY(core::runReadJobs(static_cast<std::size_t>(n), quiet, [&](std::size_t j) -> core::Status {
            const std::vector<std::int32_t>& c = counts[j];
            const std::int64_t valid = static_cast<std::int64_t>(slices[j].out.size());
            std::vector<std::uint8_t> bytes(static_cast<std::size_t>(chunk) * item),
                mask(static_cast<std::size_t>(chunk));
            bool any = false, gap = false;
            for (std::size_t i = 0; i < c.size(); ++i) {
                const bool present = c[i] != core::kNoSample;
                any = any || present;
                gap = gap || (!present && static_cast<std::int64_t>(i) < valid);
                mask[i] = present ? 1 : 0;
            }
            encode(kind, c, ch.conversionFactor, ch.offset, bytes.data());
            if (gap) missing = true;
            if (!any) return {}; // no sample: the chunk reads as the fill value
            const auto k = k0 + static_cast<std::int64_t>(j);
            LV_TRY(writeChunk(p.node, k, bytes));
            return zarrIsFloat(dtype) ? core::Status() : writeChunk(p.node + ".mask", k, mask);
        }));
        for (const core::DamagedBlock& d : m_r.takeDamage()) (void)d; // read as missing, as any gap
        std::uint64_t batch = 0;
        for (const core::RawSlice& s : slices) batch += s.out.size();
        LV_TRY(advance(batch));
    }
    anyMissing = missing;
    return {};
}

core::Status ZarrWriter::times(ChannelPlan& p)
{
    const std::int64_t chunk = p.times.chunk;
    std::vector<std::int64_t> t(static_cast<std::size_t>(chunk));
    for (std::int64_t first = 0, k = 0; first < p.span.count; first += chunk, ++k) {
        const std::int64_t n = std::min(chunk, p.span.count - first);
        std::fill(t.begin(), t.end(), 0);
        const core::TimeSlice slice{p.channel, p.span.first + first, std::span(t).first(static_cast<std::size_t>(n))};
        LV_TRY(m_r.readTimes(std::span(&slice, 1), m_control));
        LV_TRY(writeChunk(p.node + ".time", k,
                          std::span(reinterpret_cast<const std::uint8_t*>(t.data()), t.size() * sizeof(std::int64_t))));
    }
    return {};
}

core::Status ZarrWriter::writeChannel(ChannelPlan& p, Arrays& arrays)
{
    const bool counts = !zarrIsFloat(p.values.dtype);
    LV_TRY(folder(p.node));
    if (counts) LV_TRY(folder(p.node + ".mask"));
    bool anyMissing = false;
    LV_TRY(values(p, anyMissing));
    if (counts && anyMissing) {
        p.values.attributes["mask"] = p.node + ".mask";
        arrays.emplace_back(p.node, p.values);
        arrays.emplace_back(p.node + ".mask", p.mask);
    } else {
        arrays.emplace_back(p.node, p.values);
        std::error_code ec;
        if (counts) std::filesystem::remove_all(io::toPath(m_root) / io::toPath(p.node + ".mask"), ec);
    }
    if (m_r.info().channels[p.channel].irregular) {
        LV_TRY(folder(p.node + ".time"));
        LV_TRY(times(p));
        arrays.emplace_back(p.node + ".time", p.times);
    }
    return {};
}

core::Status writeText(const std::filesystem::path& path, const nlohmann::json& json)
{
    const std::string text = json.dump(2);
    auto file = io::WritableFile::create(io::toUtf8(path));
    if (!file) return file.error();
    LV_TRY(file->writeAt(0, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size())));
    return file->close();
}

nlohmann::json rootAttributes(const core::Recording& r, const Selection& s, const TargetOptions& o,
                              const std::vector<ChannelPlan>& plans)
{
    const core::RecordingInfo& info = r.info();
    nlohmann::json annotations = nlohmann::json::array();
    for (const core::Annotation& a : info.annotations) {
        if (a.time < s.range.start || a.time >= s.range.end) continue;
        nlohmann::json j = {{"time", core::formatIso(a.time)},
                            {"time_ns", core::usToNs(a.time)},
                            {"duration_s", static_cast<double>(a.durationUs) * 1e-6},
                            {"type", a.type},
                            {"text", a.text}};
        if (a.channel) j["channel"] = *a.channel;
        annotations.push_back(std::move(j));
    }
    nlohmann::json channels = nlohmann::json::array();
    for (const ChannelPlan& p : plans) channels.push_back(p.node);
    const Provenance provenance = provenanceOr(o.provenance, info);
    return {{"source", provenance.text()},
            {"format", info.format},
            {"start_time", core::formatIso(s.range.start)},
            {"end_time", core::formatIso(s.range.end)},
            {"times_known", info.timesKnown},
            {"channels", channels},
            {"annotations", annotations}};
}

// v2: .zgroup, .zattrs and, per array, .zarray and .zattrs; all of them again in .zmetadata. v3: zarr.json per node.
core::Status writeMetadata(const std::string& root, int version, const nlohmann::json& attributes,
                           const ZarrWriter::Arrays& arrays)
{
    const std::filesystem::path dir = io::toPath(root);
    if (version == 3) {
        LV_TRY(writeText(dir / "zarr.json", zarrV3Group(attributes)));
        for (const auto& [node, a] : arrays) LV_TRY(writeText(dir / io::toPath(node) / "zarr.json", zarrV3Array(a)));
        return {};
    }
    nlohmann::json all = {{".zgroup", {{"zarr_format", 2}}}, {".zattrs", attributes}};
    for (const auto& [node, a] : arrays) {
        nlohmann::json attrs = a.attributes;
        attrs["_ARRAY_DIMENSIONS"] = {a.dimension};
        all[node + "/.zarray"] = zarrV2Array(a);
        all[node + "/.zattrs"] = attrs;
    }
    for (const auto& [key, value] : all.items()) LV_TRY(writeText(dir / io::toPath(key), value));
    return writeText(dir / ".zmetadata", {{"zarr_consolidated_format", 1}, {"metadata", all}});
}

std::string dtypeOf(const core::Recording& r, std::size_t channel, ZarrValues values)
{
    if (values == ZarrValues::Float32) return "float32";
    if (values == ZarrValues::Float64) return "float64";
    return fitsInt16(r, channel) ? "int16" : "int32";
}

core::Result<std::vector<ChannelPlan>> plansOf(core::Recording& r, const Selection& s, const TargetOptions& o)
{
    std::vector<ChannelPlan> plans;
    std::set<std::string> names = {".zgroup", ".zattrs", ".zmetadata", "zarr.json"};
    for (const std::size_t c : s.channels) {
        const core::ChannelInfo& ch = r.info().channels[c];
        ChannelPlan p;
        p.channel = c;
        auto span = r.samplesIn(c, s.range);
        if (!span) return span.error();
        p.span = *span;
        std::string node = zarrNodeName(ch.name);
        for (int n = 2; names.count(node) || names.count(node + ".mask") || names.count(node + ".time"); ++n)
            node = zarrNodeName(ch.name) + "_" + std::to_string(n);
        for (const char* suffix : {"", ".mask", ".time"}) names.insert(node + suffix);
        p.node = node;
        const std::string dtype = dtypeOf(r, c, o.zarrValues);
        const auto chunkOf = [&](const std::string& t) { // 1 MiB, or the whole array when it is shorter
            return std::clamp<std::int64_t>(p.span.count, 1, kChunkBytes / static_cast<std::int64_t>(zarrItemSize(t)));
        };
        const std::string dimension = node + "_sample";
        p.values = ZarrArray{dtype, p.span.count, chunkOf(dtype), kLevel, {}, dimension};
        p.values.attributes = channelAttributes(ch, r, p, !zarrIsFloat(dtype));
        p.mask = ZarrArray{"uint8", p.span.count, p.values.chunk, kLevel, {{"mask_of", node}}, dimension};
        p.times = ZarrArray{"int64",
                            p.span.count,
                            chunkOf("int64"),
                            kLevel,
                            {{"times_of", node}, {"units", "ns since 1970-01-01T00:00:00Z"}},
                            dimension};
        plans.push_back(std::move(p));
    }
    return plans;
}

} // namespace

core::Result<ExportOutcome> exportZarr(core::Recording& recording, const Selection& selection,
                                       const TargetOptions& options, const std::string& output,
                                       const core::ReadControl& control)
{
    if (options.zarrVersion != 2 && options.zarrVersion != 3)
        return makeError(ErrorCode::InvalidArgument,
                         "Zarr version " + std::to_string(options.zarrVersion) + " is not written (2 or 3)");
    auto plans = plansOf(recording, selection, options);
    if (!plans) return plans.error();
    TempTarget temp;
    auto root = temp.reserve(output);
    if (!root) return root.error();
    ZarrWriter writer(recording, options, *root, control);
    for (const ChannelPlan& p : *plans) writer.total += static_cast<std::uint64_t>(p.span.count);
    ZarrWriter::Arrays arrays;
    for (ChannelPlan& p : *plans) LV_TRY(writer.writeChannel(p, arrays));
    LV_TRY(writeMetadata(*root, options.zarrVersion, rootAttributes(recording, selection, options, *plans), arrays));
    LV_TRY(temp.commit(output));
    return ExportOutcome{{output}, {}, {}};
}

} // namespace lv::convert
