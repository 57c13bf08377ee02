// The .tmet field values the format and physics rule out, checked the same way on open and by validate.
#pragma once

#include "core/Error.h"
#include "formats/mef3/Metadata.h"

#include <optional>
#include <string>

namespace lv::formats::mef3 {

inline constexpr std::int64_t kSection2EncryptionOffset = 1024;
inline constexpr std::int64_t kSection3EncryptionOffset = 1025;
inline constexpr std::int64_t kConversionFactorOffset = 8760;
inline constexpr std::int64_t kRecordingTimeOffsetOffset = 13312;
inline constexpr double kMaxConversionFactor = 1e30; // |factor| above (or below 1 / it, not 0): damaged

// Corrupt (with the field's offset and value) when `m` holds: an encryption byte outside -2..2, or > 0 in a
// file without password fields (nothing could ever decrypt it); of a readable section 2, a sampling frequency
// outside the plausible rates or a units conversion factor that is not finite or of a magnitude over 1e30 or
// under 1e-30 (0 is allowed, see conversionFactorNote); of a readable section 3, a recording time offset
// that puts times outside the years 1900-2200 (kUutcNoEntry: none).
core::Status checkMetadataFields(const TimeSeriesMetadata& m, const std::string& path);

// A units conversion factor of 0 ("unknown" to some writers) is read as 1 (values as stored); the warning
// that says so (without the path), or nothing.
std::optional<std::string> conversionFactorNote(const TimeSeriesMetadata& m);

// The factor values are multiplied by: the stored one, 1 for 0.
double effectiveConversionFactor(const TimeSeriesSection2& s);

} // namespace lv::formats::mef3
