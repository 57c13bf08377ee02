// Random pseudonyms and date shifts, their resolution against a recording, and the job's one call.
#include "convert/Deidentify.h"

#include "convert/DeidentifiedRecording.h"
#include "convert/Provenance.h"

#include <cstdio>
#include <random>

namespace lv::convert {

using core::ErrorCode;
using core::makeError;

namespace {

std::uint64_t draw(const RandomSource& random)
{
    if (random) return random();
    std::random_device device;
    return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

} // namespace

std::int64_t randomShiftDays(core::Uutc start, const RandomSource& random)
{
    const auto span = static_cast<std::uint64_t>(kRandomShiftDaysMax - kRandomShiftDaysMin + 1);
    const std::int64_t days = kRandomShiftDaysMin + static_cast<std::int64_t>(draw(random) % span);
    return start - days * kMicrosecondsPerDay < kEarliestEdfDate ? days : -days;
}

std::string randomPseudonym(const RandomSource& random)
{
    char text[16];
    std::snprintf(text, sizeof text, "sub-%08x", static_cast<unsigned>(draw(random) & 0xffffffffU));
    return text;
}

std::string Deidentification::summary() const
{
    std::vector<std::string> parts;
    if (anonymize) parts.push_back("de-identified as " + subjectId);
    if (!anonymize && !subjectId.empty()) parts.push_back("subject ID written as " + subjectId);
    if (shiftDays != 0) parts.push_back("dates shifted by " + std::to_string(shiftDays) + " days");
    if (shiftRequested && shiftDays == 0) parts.emplace_back("dates not shifted");
    if (dropAnnotationText) parts.emplace_back("annotation texts dropped");
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
    return out;
}

core::Result<Deidentification> resolveDeidentification(const DeidentifyOptions& options,
                                                       const core::RecordingInfo& info, const RandomSource& random)
{
    Deidentification d;
    d.anonymize = options.anonymize;
    d.dropAnnotationText = options.dropAnnotationText;
    d.subjectId = options.subjectId;
    if (d.anonymize && d.subjectId.empty()) d.subjectId = randomPseudonym(random);
    d.shiftRequested = options.shiftDays.has_value() || options.shiftDatesRandom;
    if (options.shiftDays && (*options.shiftDays > kMaxShiftDays || *options.shiftDays < -kMaxShiftDays))
        return makeError(ErrorCode::InvalidArgument, "--shift-dates " + std::to_string(*options.shiftDays) +
                                                         ": at most " + std::to_string(kMaxShiftDays) +
                                                         " days either way");
    if (!d.shiftRequested) return d;
    if (!info.timesKnown) {
        d.warnings.emplace_back("the source's times are relative (its true dates are unknown): --shift-dates has "
                                "nothing to move, the times are written as they are");
        return d;
    }
    d.shiftDays = options.shiftDays ? *options.shiftDays : randomShiftDays(info.start, random);
    return d;
}

core::Result<Deidentification> deidentifyConversion(std::unique_ptr<core::Recording>& recording,
                                                    const DeidentifyOptions& options,
                                                    const std::vector<std::string>& inputs, Selection& selection,
                                                    TargetOptions& target)
{
    auto resolved = resolveDeidentification(options, recording->info(), {});
    if (!resolved) return resolved.error();
    target.provenance = provenanceOf(inputs, recording->info().format, resolved->anonymize, resolved->shiftDays != 0);
    const std::int64_t shift = resolved->shiftUs();
    selection.range = {core::saturatingAdd(selection.range.start, shift),
                       core::saturatingAdd(selection.range.end, shift)};
    recording = DeidentifiedRecording::wrap(std::move(recording), *resolved);
    return resolved;
}

} // namespace lv::convert
