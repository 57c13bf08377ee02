// Test helpers for CDF: the reference files, cdf-check (../shared/tools) run at test time, its dumps parsed, and
// ISO 8601 epochs as ns.
#pragma once

#include "formats/cdf/CdfFile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lv::test::cdf {

std::string dataDir(); // ../shared/testdata/cdf
formats::cdf::CdfFile openReference(const std::string& name);

// One dump row: the values of one record as texts (numbers in Python's repr, epochs in ISO 8601), or PAD.
struct DumpRow {
    std::int64_t record = 0;
    std::vector<std::string> values; // empty for PAD
};
// Parses "record,value" CSV (cdf-check --dump, or an expected/*.csv file).
std::vector<DumpRow> parseDump(const std::string& csv);
// `cdf-check FILE --dump VAR`; `status` gets the exit status.
std::vector<DumpRow> dump(const std::string& file, const std::string& variable, int* status);

// An ISO 8601 UTC time ("2015-06-30T23:59:60.123456789Z", any number of fraction digits) as ns since 1970, the
// digits below a ns dropped; a leap second (:60) as 23:59:59.999999999, as the reader gives it. nullopt if it is
// not such a time.
std::optional<std::int64_t> isoToNs(const std::string& text);

} // namespace lv::test::cdf
