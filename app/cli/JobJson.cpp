// JSON of a JobResult.
#include "JobJson.h"

#include "common/ErrorText.h"

namespace lv::cli {

nlohmann::json jobResultJson(const convert::JobResult& r)
{
    nlohmann::json perChannel = nlohmann::json::array();
    for (const convert::ChannelCount& c : r.perChannel)
        perChannel.push_back({{"name", c.name}, {"samples", c.samples}, {"annotations", c.annotations}});
    const bool cancelled = !r.ok && r.error.code == core::ErrorCode::Cancelled;
    nlohmann::json j = {
        {"status", r.ok        ? "ok"
                   : cancelled ? "cancelled"
                               : "failed"},
        {"outputs", r.outputs},
        {"seconds", r.seconds},
        {"samples", r.samples},
        {"channels", r.channels},
        {"annotations", r.annotations},
        {"user_annotations", r.userAnnotations},
        {"annotation_file", r.annotationFile.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.annotationFile)},
        {"per_channel", perChannel},
        {"warnings", r.warnings}};
    if (!r.ok) j["error"] = app::errorText(r.error, app::Audience::Gui);
    if (const convert::Deidentification& d = r.deidentified; d.active() || d.shiftRequested)
        j["deidentified"] = {
            {"anonymized", d.anonymize},
            {"subject_id", d.subjectId.empty() ? nlohmann::json(nullptr) : nlohmann::json(d.subjectId)},
            {"shift_days", d.shiftDays},
            {"annotation_text_dropped", d.dropAnnotationText},
            {"summary", d.summary()}};
    return j;
}

} // namespace lv::cli
