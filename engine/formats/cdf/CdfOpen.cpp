// Opening a CDF file: which variables are channels, their epochs' raster, units, fill values and steps.
#include "formats/cdf/CdfRecording.h"

#include "core/IrregularTimes.h"
#include "core/Quantization.h"
#include "core/TextEncoding.h"
#include "core/TimeFormat.h"
#include "core/UninitializedAllocator.h"
#include "formats/cdf/CdfTime.h"
#include "io/Path.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>

namespace lv::formats::cdf {

namespace {

// Values looked at to choose a float variable's step.
constexpr std::int64_t kStepRecords = 4096;

bool storedAsCounts(std::int32_t type)
{
    return type == kInt1 || type == kInt2 || type == kInt4 || type == kUint1 || type == kUint2 || type == kByte;
}

// "B", "B[2]", "B[1,2]": a value's name, its indices over the varying dimensions in row-major order.
std::string componentName(const Variable& v, std::size_t index)
{
    std::vector<std::size_t> sizes;
    for (std::size_t d = 0; d < v.dims.size(); ++d)
        if (v.dimVarys[d]) sizes.push_back(static_cast<std::size_t>(v.dims[d]));
    if (sizes.empty()) return v.name;
    std::vector<std::size_t> at(sizes.size());
    for (std::size_t d = sizes.size(); d-- > 0;) {
        at[d] = index % sizes[d];
        index /= sizes[d];
    }
    std::string name = v.name + "[";
    for (std::size_t d = 0; d < at.size(); ++d) {
        if (d > 0) name += ',';
        name += std::to_string(at[d]);
    }
    return name + "]";
}

} // namespace

class CdfOpener {
public:
    explicit CdfOpener(CdfRecording& r) : m_r(r) {}

    core::Status run()
    {
        const Structure& s = m_r.m_file.structure();
        m_r.m_info.format =
            "CDF " + std::to_string(s.version) + "." + std::to_string(s.release) + "." + std::to_string(s.increment);
        for (const char* name : {"Logical_source_description", "TITLE", "Title", "Project"})
            if (m_r.m_info.description.empty()) m_r.m_info.description = globalText(name);
        std::vector<std::string> left;
        for (std::size_t i = 0; i < s.variables.size(); ++i) {
            const Variable& v = s.variables[i];
            if (isEpoch(v.type)) continue;
            auto added = addVariable(i);
            if (!added) return added.error();
            if (!*added) left.push_back(v.name);
        }
        if (!left.empty()) {
            std::string names;
            for (std::size_t k = 0; k < left.size() && k < 8; ++k) names += (k ? ", " : "") + left[k];
            if (left.size() > 8) names += ", ...";
            limit(std::to_string(left.size()) + " variable" + (left.size() == 1 ? " is" : "s are") +
                  " not channels (texts, no records, or no epoch as DEPEND_0): " + names);
        }
        if (m_r.m_info.channels.empty())
            return core::makeError(core::ErrorCode::Unsupported,
                                   "no numeric variable with records depends on an epoch variable (DEPEND_0): "
                                   "nothing to show",
                                   s.path);
        m_r.m_info.start = m_r.m_info.channels.front().start;
        m_r.m_info.end = m_r.m_info.channels.front().end;
        for (const core::ChannelInfo& ch : m_r.m_info.channels) {
            m_r.m_info.start = std::min(m_r.m_info.start, ch.start);
            m_r.m_info.end = std::max(m_r.m_info.end, ch.end);
        }
        return {};
    }

private:
    void limit(std::string what)
    {
        m_r.m_info.warnings.push_back(what);
        m_r.m_limits.push_back(std::move(what));
    }
    std::string globalText(const char* name) const
    {
        const Attribute* a = m_r.m_file.structure().attribute(name);
        if (!a || !a->global) return {};
        for (const Entry& e : a->entries)
            if (const std::string t = entryText(e); !t.empty()) return core::utf8OrLatin1(t);
        return {};
    }
    const Entry* entry(const char* attribute, const Variable& v) const
    {
        const Attribute* a = m_r.m_file.structure().attribute(attribute);
        return a && !a->global ? m_r.m_file.structure().entryOf(*a, v) : nullptr;
    }
    std::string text(const char* attribute, const Variable& v) const
    {
        const Entry* e = entry(attribute, v);
        return e ? core::utf8OrLatin1(entryText(*e)) : std::string();
    }
    // A float variable's pad value (the VDR's, else CDF's default -1e30): values the writer never gave. Integers
    // keep theirs, often a valid value (0).
    std::optional<double> padOf(const Variable& v) const
    {
        if (!isFloat(v.type)) return std::nullopt;
        if (!v.pad.empty()) return numberAt(v.type, m_r.m_file.structure().order, v.pad.data());
        if (v.type == kReal4 || v.type == kFloat) return static_cast<double>(-1e30f);
        if (isFloat(v.type)) return -1e30;
        return std::nullopt;
    }
    std::optional<double> number(const char* attribute, const Variable& v) const
    {
        const Entry* e = entry(attribute, v);
        return e ? entryNumber(*e, m_r.m_file.structure().order, v.type) : std::nullopt;
    }

    // false when `index` is not a channel variable; an error only for a read that fails.
    core::Result<bool> addVariable(std::size_t index);
    // The time axis of `epoch`'s first `records` records, or nullopt (said in a warning) when they have none.
    core::Result<std::optional<std::size_t>> axisOf(std::size_t epoch, std::int64_t records);
    void describe(core::ChannelInfo& ch, const CdfRecording::TimeAxis& axis) const;

    CdfRecording& m_r;
    std::map<std::pair<std::size_t, std::int64_t>, std::optional<std::size_t>> m_axisOf;
    std::map<std::size_t, std::shared_ptr<const std::vector<std::int64_t>>> m_epochs;
    std::map<std::size_t, double> m_rates; // of the grid axes
};

core::Result<bool> CdfOpener::addVariable(std::size_t index)
{
    const Structure& s = m_r.m_file.structure();
    const Variable& v = s.variables[index];
    const Variable* epoch = s.variable(text("DEPEND_0", v));
    if (!entry("DEPEND_0", v)) // files without ISTP attributes: the first epoch variable with as many records
        for (const Variable& e : s.variables)
            if (!epoch && isEpoch(e.type) && e.records() == v.records()) epoch = &e;
    if (!isNumber(v.type) || !v.recordVaries || v.heldRecords() < 1 || !epoch || !isEpoch(epoch->type) ||
        epoch->heldRecords() < 1)
        return false;
    const auto epochIndex = static_cast<std::size_t>(epoch - s.variables.data());
    auto axis = axisOf(epochIndex, std::min(v.heldRecords(), epoch->heldRecords()));
    if (!axis) return axis.error();
    if (!*axis) return true; // said
    const std::optional<double> fill = number("FILLVAL", v), pad = padOf(v);
    const std::optional<double> low = number("VALIDMIN", v), high = number("VALIDMAX", v);
    const std::string unit = text("UNITS", v), field = text("FIELDNAM", v), about = text("CATDESC", v);
    const std::size_t values = v.valuesPerRecord();
    core::UninitializedBytes first, held;
    if (!storedAsCounts(v.type)) { // the step of the others from their first records and valid range
        const std::int64_t n = std::min(v.heldRecords(), kStepRecords);
        first.resize(static_cast<std::size_t>(n) * v.recordBytes());
        held.resize(static_cast<std::size_t>(n));
        LV_TRY(m_r.m_file.records(v, 0, n, first, held));
    }
    for (std::size_t k = 0; k < values; ++k) {
        core::ChannelInfo& ch = m_r.m_info.channels.emplace_back();
        ch.name = componentName(v, k);
        ch.unit = core::utf8OrLatin1(unit);
        ch.group = values > 1 ? "variable " + v.name : std::string();
        ch.description = field.empty() ? about : field;
        if (!field.empty() && !about.empty() && about != field) ch.description.append(": ").append(about);
        if (low && high)
            ch.description += std::string(ch.description.empty() ? "" : "; ") + "valid " + core::formatNumber(*low, 9) +
                              " to " + core::formatNumber(*high, 9);
        const CdfRecording::ChannelRef ref{index, **axis, storedIndex(v, s.rowMajor, k), fill, pad};
        if (!storedAsCounts(v.type)) {
            std::vector<double> seen;
            for (std::size_t r = 0; r < held.size(); ++r) {
                const double x =
                    numberAt(v.type, s.order, first.data() + r * v.recordBytes() + ref.element * v.valueBytes());
                if (held[r] && std::isfinite(x) && x != fill && x != pad) seen.push_back(x);
            }
            for (const auto& bound : {low, high})
                if (bound && std::isfinite(*bound) && !(fill && *bound == *fill)) seen.push_back(*bound);
            const core::QuantizationChoice q = core::storedStepOf(seen);
            ch.conversionFactor = q.factor;
            ch.floatBits = isFloat(v.type) ? static_cast<std::uint8_t>(8 * typeSize(v.type)) : 0;
            if (!q.exact)
                limit("channel " + ch.name + ": its values are read rounded to steps of " +
                      core::formatNumber(q.factor, 6) + (ch.unit.empty() ? "" : " " + ch.unit));
        }
        describe(ch, m_r.m_axes[**axis]);
        m_r.m_channels.push_back(ref);
    }
    return true;
}

core::Result<std::optional<std::size_t>> CdfOpener::axisOf(std::size_t epoch, std::int64_t records)
{
    if (auto it = m_axisOf.find({epoch, records}); it != m_axisOf.end()) return it->second;
    std::optional<std::size_t>& made = m_axisOf[{epoch, records}];
    const Variable& v = m_r.m_file.structure().variables[epoch];
    auto& all = m_epochs[epoch];
    if (!all) {
        auto times = m_r.m_file.times(v);
        if (!times) return times.error();
        all = std::make_shared<const std::vector<std::int64_t>>(std::move(*times));
    }
    const std::span<const std::int64_t> times(all->data(), static_cast<std::size_t>(records));
    for (std::size_t r = 0; r < times.size(); ++r)
        if (times[r] == kNoTime || (r > 0 && times[r] < times[r - 1])) {
            m_r.m_info.warnings.push_back(
                "epoch variable " + v.name + ": record " + std::to_string(r) +
                (times[r] == kNoTime ? " has no time (a fill or pad value)" : " goes back in time") +
                ": the variables that depend on it are left out");
            return made;
        }
    CdfRecording::TimeAxis axis;
    axis.variable = epoch;
    std::vector<double, core::UninitializedAllocator<double>> seconds(times.size());
    for (std::size_t r = 0; r < times.size(); ++r) seconds[r] = static_cast<double>(times[r] - times[0]) * 1e-9;
    axis.timesNs = times.size() == all->size()
                       ? all
                       : std::make_shared<const std::vector<std::int64_t>>(times.begin(), times.end());
    if (auto raster = core::fitRaster(seconds)) {
        axis.runs = std::move(raster->runs);
        m_rates[m_r.m_axes.size()] = raster->fs;
    } else {
        axis.irregular = true;
        axis.runs = {core::RasterRun{0, 0, records}}; // sample i is record i
    }
    for (const core::RasterRun& run : axis.runs)
        for (std::int64_t at = 0; at < run.count; at += CdfRecording::kBlockRecords)
            axis.blocks.push_back({run.firstGrid + at,
                                   static_cast<std::uint32_t>(std::min(CdfRecording::kBlockRecords, run.count - at)), 0,
                                   0, false});
    made = m_r.m_axes.size();
    m_r.m_axes.push_back(std::move(axis));
    return made;
}

void CdfOpener::describe(core::ChannelInfo& ch, const CdfRecording::TimeAxis& axis) const
{
    const std::vector<std::int64_t>& times = *axis.timesNs;
    if (axis.irregular) {
        core::describeIrregular(ch, times);
        ch.timeBase = static_cast<int>(&axis - m_r.m_axes.data());
        return;
    }
    ch.fs = m_rates.at(static_cast<std::size_t>(&axis - m_r.m_axes.data()));
    ch.start = core::nsToUs(times.front());
    core::describeRuns(ch, axis.runs);
}

core::Result<std::unique_ptr<CdfRecording>> openCdf(const std::string& path)
{
    auto file = io::openFile(path);
    if (!file) return file.error();
    return openCdf(*file);
}

core::Result<std::unique_ptr<CdfRecording>> openCdf(const io::ByteSourcePtr& file)
{
    auto opened = CdfFile::open(file);
    if (!opened) return opened.error();
    auto r = std::unique_ptr<CdfRecording>(new CdfRecording(std::move(*opened)));
    r->m_info.path = file->path();
    LV_TRY(CdfOpener(*r).run());
    return r;
}

bool looksLikeCdf(const std::string& path)
{
    if (io::toPath(path).extension() == ".cdf" || io::toPath(path).extension() == ".CDF") return true;
    std::uint8_t magic[8] = {};
    std::ifstream in(io::toPath(path), std::ios::binary);
    return in.read(reinterpret_cast<char*>(magic), sizeof magic) && hasCdfMagic(magic);
}

} // namespace lv::formats::cdf
