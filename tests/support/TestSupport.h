// Test helpers: reference data paths, truth CSV and manifest loading, temporary directories.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace lv::test {

// The read-only reference data folder (../shared/testdata beside the repository).
std::filesystem::path testdata();

// One column pair of a truth CSV: stored counts and scaled values, nullopt where the truth says "nan".
struct TruthChannel {
    std::vector<std::optional<std::int64_t>> raw;
    std::vector<std::optional<double>> scaled;
};
// Reads CASE.truth.csv ("index,<ch>_raw,<ch>_scaled,...").
std::map<std::string, TruthChannel> readTruth(const std::filesystem::path& csv);

struct ManifestChannel {
    double fs = 0;
    double ufact = 0;
    std::int64_t start = 0;
    std::int64_t end = 0;
    std::int64_t samples = 0;
};
struct ManifestCase {
    std::string name;
    std::filesystem::path folder;
    std::string password; // the level-2 ("password") entry, or empty
    std::string password1;
    std::string password2;
    std::map<std::string, ManifestChannel> channels;
};
// gtest prints a case by its name.
inline void PrintTo(const ManifestCase& c, std::ostream* os) { *os << c.name; }

// Every case of <folder>/manifest.json.
std::vector<ManifestCase> readManifest(const std::filesystem::path& folder);
// Cases of both MEF reference folders.
std::vector<ManifestCase> allMefCases();

// A fresh directory removed at scope exit.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

// Copies a tree and makes every copied file writable.
void copyTree(const std::filesystem::path& from, const std::filesystem::path& to);

std::vector<std::uint8_t> readBytes(const std::filesystem::path& file);
void writeBytes(const std::filesystem::path& file, const std::vector<std::uint8_t>& bytes);

// Runs a shell command; returns its exit status and fills `output` with stdout (and stderr when merged).
int run(const std::string& command, std::string* output = nullptr);

// Whether `s` has the shape of a de-identification pseudonym: "sub-" and eight lowercase hex digits. (No
// std::regex: GCC 12 warns of an uninitialised std::function inside it under the asan preset's -O1.)
bool isPseudonym(std::string_view s);

} // namespace lv::test
