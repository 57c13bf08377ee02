// EDF test helpers: the reference files, MNE's reading of a file (through mne_dump.py), byte edits of headers.
#pragma once

#include "formats/edf/EdfRecording.h"
#include "support/PythonDump.h"
#include "support/TestSupport.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lv::formats::edf::test {

// Every *.edf / *.bdf file of ../shared/testdata/edf, sorted.
std::vector<std::string> referenceFiles();

// What MNE reads from `file`: meta.json parsed, and per channel its physical values.
using MneReading = lv::test::PythonDump;
// Runs /usr/bin/python3 mne_dump.py; fails the test (and returns an empty reading) when it does not run.
MneReading readWithMne(const std::string& file);

// Every physical value of every channel, NaN where there is no sample.
std::vector<std::vector<double>> readAllPhysical(core::Recording& recording);

// Writes `text` left-aligned and space-padded into bytes[at, at + width).
void setField(std::vector<std::uint8_t>& bytes, std::size_t at, std::size_t width, const std::string& text);
// Byte offset of field `column` (0 label ... 8 samples per record) of signal k in a header of ns signals.
std::size_t signalField(std::size_t ns, std::size_t column, std::size_t k);

} // namespace lv::formats::edf::test
