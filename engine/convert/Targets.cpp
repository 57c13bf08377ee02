// The writable targets: CSV, MEF 3.0, EDF+, BDF+, MDF 4, BrainVision and Zarr.
#include "convert/Targets.h"

#include "convert/BrainVisionExport.h"
#include "convert/CsvSideFiles.h"
#include "convert/Mdf4Export.h"
#include "convert/MefExport.h"
#include "convert/ZarrExport.h"

namespace lv::convert {

namespace {

// Each writer's buffers at most (chunk of counts, formatted text or records, an output's 8 MiB piece), from their
// chunk sizes. MEF: a group of 16 channels' chunks (4 MiB) and write buffers (1 MiB each) and encoded blocks.
constexpr std::uint64_t kCsvWorkingBytes = std::uint64_t{72} << 20;
constexpr std::uint64_t kMefWorkingBytes = std::uint64_t{32} << 20;
constexpr std::uint64_t kEdfWorkingBytes = std::uint64_t{40} << 20;
// MDF 4: a chunk of counts (4 MiB) and its records, up to 4 DZ blocks of 4 MiB in flight (records, compressed copy)
// and a transposed copy per thread compressing (4 at most), the 8 MiB output piece.
constexpr std::uint64_t kMdf4WorkingBytes = std::uint64_t{64} << 20;
// Zarr: a batch of 8 chunks of counts (8 MiB each at most, as int32 of 1 MiB of int16) and, per chunk compressed at
// once, its bytes, mask and zstd output.
constexpr std::uint64_t kZarrWorkingBytes = std::uint64_t{48} << 20;
// BrainVision: a chunk of counts (4 MiB) and its data points (at most as many bytes).
constexpr std::uint64_t kBrainVisionWorkingBytes = std::uint64_t{16} << 20;

core::Result<ExportOutcome> writeCsv(core::Recording& r, const Selection& s, const TargetOptions& o,
                                     const std::string& output, const core::ReadControl& control)
{
    const CsvOptions csv{s.channels, s.range,      o.raw,          o.time,
                         o.fillGaps, o.provenance, o.csvDelimiter, o.csvDecimalComma};
    LV_TRY(exportCsv(r, csv, output, control));
    const CsvSideFiles side = csvSideFiles(output);
    return ExportOutcome{csvOutputs(r.info(), csv, output), {side.annotations, side.json}, {}};
}

core::Result<ExportOutcome> writeMef(core::Recording& r, const Selection& s, const TargetOptions& o,
                                     const std::string& output, const core::ReadControl& control)
{
    const MefExportOptions mef{s.channels, s.range, o.blockSeconds, o.level1Password, o.level2Password, o.provenance};
    LV_TRY(exportMef(r, mef, output, control));
    return ExportOutcome{{output}, {}, {}};
}

core::Result<ExportOutcome> writeEdf(core::Recording& r, const Selection& s, const TargetOptions& o,
                                     const std::string& output, const core::ReadControl& control, bool bdf)
{
    auto result = exportEdf(r, EdfExportOptions{s.channels, s.range, bdf, o.gaps, o.fillValue}, output, control);
    if (!result) return result.error();
    return ExportOutcome{std::move(result->files), {}, std::move(result->warnings)};
}

bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

const std::vector<TargetFormat>& targetFormats()
{
    using namespace std::placeholders;
    static const std::vector<TargetFormat> formats = {
        {"csv", "CSV tables (one on the common grid, one per irregular channel group)", writeCsv, kCsvWorkingBytes,
         true},
        {"mefd", "MEF 3.0 session", writeMef, kMefWorkingBytes},
        {"edf", "EDF+ (16-bit)", std::bind(writeEdf, _1, _2, _3, _4, _5, false), kEdfWorkingBytes},
        {"bdf", "BDF+ (24-bit)", std::bind(writeEdf, _1, _2, _3, _4, _5, true), kEdfWorkingBytes},
        {"mf4", "ASAM MDF 4.10 file", exportMdf4, kMdf4WorkingBytes, true},
        {"vhdr", "BrainVision (.vhdr, .vmrk, .eeg)", exportBrainVision, kBrainVisionWorkingBytes},
        {"zarr", "Zarr store (v2 or v3; zstd chunks)", exportZarr, kZarrWorkingBytes, true},
    };
    return formats;
}

const TargetFormat* targetForOutput(const std::string& output)
{
    for (const TargetFormat& f : targetFormats())
        if (endsWith(output, "." + f.extension)) return &f;
    return nullptr;
}

const TargetFormat* targetForExtension(const std::string& extension)
{
    for (const TargetFormat& f : targetFormats())
        if (f.extension == extension) return &f;
    return nullptr;
}

std::string knownTargetNames()
{
    const auto& all = targetFormats();
    std::string words = "a ";
    for (std::size_t i = 0; i < all.size(); ++i)
        words += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + ("." + all[i].extension);
    return words + " name";
}

core::Result<ExportOutcome> exportTo(core::Recording& recording, const Selection& selection,
                                     const TargetOptions& options, const std::string& output,
                                     const core::ReadControl& control)
{
    const TargetFormat* target = targetForOutput(output);
    if (!target)
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "cannot tell the output format of \"" + output + "\": use " + knownTargetNames());
    return target->write(recording, selection, options, output, control);
}

} // namespace lv::convert
