// .tmet field checks shared by the reader (MefLoad) and the validator.
#include "formats/mef3/MetadataChecks.h"

#include "core/TimeFormat.h"

#include <cmath>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;

namespace {

constexpr std::int64_t kYear1900 = -2'208'988'800'000'000; // uUTC of 1900-01-01
constexpr std::int64_t kYear2200 = 7'258'118'400'000'000;  // uUTC of 2200-01-01

core::Status checkEncryption(int level, const TimeSeriesMetadata& m, int section, std::int64_t offset,
                             const std::string& path)
{
    const std::string what = "section " + std::to_string(section) + " encryption " + std::to_string(level);
    if (level < -2 || level > 2)
        return makeError(ErrorCode::Corrupt, what + " is not a MEF encryption level (-2 to 2)", path, offset);
    if (level > 0 && m.header.passwords.empty())
        return makeError(ErrorCode::Corrupt, what + " names a password, but the file has no password fields", path,
                         offset);
    return {};
}

core::Status checkSection2(const TimeSeriesSection2& s, const std::string& path)
{
    if (const std::string problem = core::samplingRateProblem(s.samplingFrequency, "sampling frequency");
        !problem.empty())
        return makeError(ErrorCode::Corrupt, problem, path, kSamplingFrequencyOffset);
    const double f = std::abs(s.unitsConversionFactor);
    if (!std::isfinite(f) || f > kMaxConversionFactor || (f != 0.0 && f < 1.0 / kMaxConversionFactor))
        return makeError(ErrorCode::Corrupt,
                         "units conversion factor " + core::formatNumber(s.unitsConversionFactor) +
                             " is not finite or beyond 1e30 in magnitude (or below 1e-30)",
                         path, kConversionFactorOffset);
    return {};
}

core::Status checkSection3(const Section3& s, const std::string& path)
{
    const std::int64_t rto = s.recordingTimeOffset;
    if (rto == kUutcNoEntry || (rto >= kYear1900 && rto < kYear2200)) return {};
    return makeError(ErrorCode::Corrupt,
                     "recording time offset " + std::to_string(rto) + " us lies outside the years 1900-2200", path,
                     kRecordingTimeOffsetOffset);
}

} // namespace

core::Status checkMetadataFields(const TimeSeriesMetadata& m, const std::string& path)
{
    LV_TRY(checkEncryption(m.section2Encryption, m, 2, kSection2EncryptionOffset, path));
    LV_TRY(checkEncryption(m.section3Encryption, m, 3, kSection3EncryptionOffset, path));
    if (m.section2Readable) LV_TRY(checkSection2(m.section2, path));
    if (m.section3Readable) LV_TRY(checkSection3(m.section3, path));
    return {};
}

std::optional<std::string> conversionFactorNote(const TimeSeriesMetadata& m)
{
    if (!m.section2Readable || m.section2.unitsConversionFactor != 0.0) return std::nullopt;
    return "units conversion factor 0 (unknown): values are given as stored (factor 1)";
}

double effectiveConversionFactor(const TimeSeriesSection2& s)
{
    return s.unitsConversionFactor == 0.0 ? 1.0 : s.unitsConversionFactor;
}

} // namespace lv::formats::mef3
