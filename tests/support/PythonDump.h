// Test support: what a Python dump script (an oracle such as MNE, run by /usr/bin/python3) read from a file.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lv::test {

struct PythonDump {
    nlohmann::json meta;                     // OUTDIR/meta.json
    std::vector<std::vector<double>> values; // OUTDIR/<k>.f64 for each entry of meta["channels"]
};

// Runs `/usr/bin/python3 SCRIPT FILE OUTDIR` into a fresh folder and reads what it wrote (float64 little-endian
// values per channel); fails the test, and returns an empty dump, when the script does not run.
PythonDump runPythonDump(const std::string& script, const std::string& file);

} // namespace lv::test
