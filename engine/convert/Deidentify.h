// De-identification for sharing recordings: what the user asks for (DeidentifyOptions), made concrete against one
// recording (a random pseudonym and date shift chosen: Deidentification), and applied to a conversion.
#pragma once

#include "convert/Selection.h"
#include "convert/Targets.h"
#include "core/Recording.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lv::convert {

inline constexpr std::int64_t kMicrosecondsPerDay = 86'400'000'000;
inline constexpr std::int64_t kMaxShiftDays = 1'000'000;            // about 2,700 years either way
inline constexpr core::Uutc kEarliestEdfDate = 473'385'600'000'000; // 1985-01-01T00:00:00Z
inline constexpr std::int64_t kRandomShiftDaysMin = 365;            // a random shift moves 365..3650 days
inline constexpr std::int64_t kRandomShiftDaysMax = 3650;

struct DeidentifyOptions {
    bool anonymize = false;                // subject (but its ID), site, descriptions and source paths out
    std::string subjectId;                 // the subject ID written; with anonymize and empty: "sub-" + 8 hex digits
    std::optional<std::int64_t> shiftDays; // move every time by this many days
    bool shiftDatesRandom = false;         // move every time by a random number of days (when shiftDays is unset)
    bool dropAnnotationText = false;       // annotation texts emptied, types kept

    bool requested() const
    {
        return anonymize || !subjectId.empty() || shiftDays || shiftDatesRandom || dropAnnotationText;
    }
};

// A de-identification made concrete: what DeidentifiedRecording does, and what the user is told it did.
struct Deidentification {
    bool anonymize = false;
    std::string subjectId;      // written as the subject's ID; empty: the source's is kept
    std::int64_t shiftDays = 0; // 0: times kept
    bool shiftRequested = false;
    bool dropAnnotationText = false;
    std::vector<std::string> warnings; // e.g. relative times, which are not shifted

    bool active() const { return anonymize || !subjectId.empty() || shiftDays != 0 || dropAnnotationText; }
    std::int64_t shiftUs() const { return shiftDays * kMicrosecondsPerDay; }
    // "de-identified as sub-1a2b3c4d, dates shifted by -812 days, annotation texts dropped"; empty when nothing
    // was asked for.
    std::string summary() const;
};

// Random numbers for the choices (std::random_device when empty; tests pass their own).
using RandomSource = std::function<std::uint64_t()>;

// A random shift of 365..3650 days into the past; forward instead when the past would put `start` before
// 1985-01-01 (the earliest date EDF holds).
std::int64_t randomShiftDays(core::Uutc start, const RandomSource& random = {});
// "sub-" + 8 lower-case hex digits.
std::string randomPseudonym(const RandomSource& random = {});

// The concrete choices for `info`. InvalidArgument for a shift beyond kMaxShiftDays. A source with relative times
// (timesKnown false) is not shifted: a warning says so.
core::Result<Deidentification> resolveDeidentification(const DeidentifyOptions& options,
                                                       const core::RecordingInfo& info,
                                                       const RandomSource& random = {});

// What a conversion job does: resolves `options` against the recording, wraps it (DeidentifiedRecording), moves
// `selection`'s range (given in the source's times) by the shift, and records the provenance (without paths when
// anonymized) in `target`. `inputs` are the job's input paths.
core::Result<Deidentification> deidentifyConversion(std::unique_ptr<core::Recording>& recording,
                                                    const DeidentifyOptions& options,
                                                    const std::vector<std::string>& inputs, Selection& selection,
                                                    TargetOptions& target);

} // namespace lv::convert
