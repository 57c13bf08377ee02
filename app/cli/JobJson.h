// A conversion job's result as JSON, the same for convert, merge and every batch item.
#pragma once

#include "convert/ConvertJob.h"

#include <nlohmann/json.hpp>

namespace lv::cli {

// {"status", "outputs", "seconds", "samples", "channels", "annotations", "per_channel", "warnings"} and "error"
// (the user's sentence) when the job failed.
nlohmann::json jobResultJson(const convert::JobResult& result);

} // namespace lv::cli
