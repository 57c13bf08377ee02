// A CDF 3 file written for benchmarks: a TIME_TT2000 epoch on a fixed rate and numeric z variables (REAL4 vectors
// or INT2 scalars) that depend on it, stored in VVRs or per-variable GZIP CVVRs of a given number of records.
#pragma once

#include <cstdint>
#include <string>

namespace lv::bench {

struct CdfSpec {
    int variables = 32;            // numeric z variables besides the epoch
    int components = 3;            // values per record (dims [components]), 1 for scalars
    bool integers = false;         // INT2 instead of REAL4
    std::int64_t records = 100000; // per variable
    double rate = 32.0;            // epochs per second
    std::int64_t recordsPerLeaf = 65536;
    bool gzip = false; // per-variable GZIP (level 6) CVVRs
    std::string key() const;
};

// Writes the file at `path` (replaced); aborts on failure.
void writeCdf(const CdfSpec& spec, const std::string& path);
// The file of `spec` in the benchmark cache folder (LONGVIEW_BENCH_DIR or the system's temporary one), written once.
std::string ensureCdf(const CdfSpec& spec);

} // namespace lv::bench
