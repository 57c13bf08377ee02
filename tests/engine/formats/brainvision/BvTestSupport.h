// BrainVision test helpers: the reference file sets of make_reference.py (written once per test process), what MNE
// reads from a header (mne_bv_dump.py), and every value our reader gives on the data points.
#pragma once

#include "core/Recording.h"
#include "support/PythonDump.h"
#include "support/TestSupport.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lv::formats::brainvision::test {

// The folder holding the reference cases (make_reference.py run once per process).
const std::filesystem::path& referenceFolder();
// The header of case `name`.
std::string referenceHeader(const std::string& name);
// Case `name`'s truth.json.
nlohmann::json referenceTruth(const std::string& name);
inline const std::vector<std::string> kReferenceCases = {"mux_int16", "vec_int32_latin1", "float_segments",
                                                         "vec_float_v2"};

using MneReading = lv::test::PythonDump; // values per channel in the header's unit
// Runs /usr/bin/python3 mne_bv_dump.py; fails the test (and returns an empty reading) when it does not run.
MneReading readWithMne(const std::string& header);

// Every channel's physical values at its data points (the grid samples inside its segments, gaps left out), NaN
// where a data point has no sample.
std::vector<std::vector<double>> dataPointValues(core::Recording& recording);

} // namespace lv::formats::brainvision::test
