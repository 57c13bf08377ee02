// A conversion job's result as JSON, the same for convert, merge and every batch item.
#pragma once

#include "convert/ConvertJob.h"

#include <nlohmann/json.hpp>

namespace lv::cli {

// {"status", "outputs", "seconds", "samples", "channels", "annotations", "per_channel", "warnings"}, "error"
// (the user's sentence) when the job failed, and "deidentified" ({"anonymized", "subject_id", "shift_days",
// "annotation_text_dropped", "summary"}: the pseudonym and shift used) when de-identification was asked for.
nlohmann::json jobResultJson(const convert::JobResult& result);

} // namespace lv::cli
