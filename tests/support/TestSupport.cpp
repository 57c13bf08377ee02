// Implementation of the shared test helpers.
#include "support/TestSupport.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>

namespace lv::test {

namespace fs = std::filesystem;

fs::path testdata() { return fs::path(LONGVIEW_TESTDATA); }

std::map<std::string, TruthChannel> readTruth(const fs::path& csv)
{
    std::ifstream in(csv);
    if (!in) throw std::runtime_error("cannot open " + csv.string());
    std::string line;
    std::getline(in, line);
    std::vector<std::string> columns;
    std::stringstream header(line);
    for (std::string c; std::getline(header, c, ',');) columns.push_back(c);
    std::map<std::string, TruthChannel> truth;
    while (std::getline(in, line)) {
        std::stringstream row(line);
        std::string cell;
        for (std::size_t i = 0; std::getline(row, cell, ','); ++i) {
            const std::string& col = columns.at(i);
            const bool isRaw = col.ends_with("_raw"), isScaled = col.ends_with("_scaled");
            if (!isRaw && !isScaled) continue;
            TruthChannel& ch = truth[col.substr(0, col.rfind('_'))];
            const bool nan = cell == "nan";
            if (isRaw)
                ch.raw.push_back(nan ? std::nullopt : std::optional<std::int64_t>(std::llround(std::stod(cell))));
            else
                ch.scaled.push_back(nan ? std::nullopt : std::optional<double>(std::stod(cell)));
        }
    }
    return truth;
}

std::vector<ManifestCase> readManifest(const fs::path& folder)
{
    std::ifstream in(folder / "manifest.json");
    const nlohmann::json j = nlohmann::json::parse(in);
    std::vector<ManifestCase> cases;
    for (const auto& c : j.at("cases")) {
        ManifestCase m;
        m.name = c.at("name");
        m.folder = folder;
        auto text = [&](const char* key) { return c.at(key).is_null() ? std::string() : c.at(key).get<std::string>(); };
        m.password = text("password");
        m.password1 = text("password1");
        m.password2 = text("password2");
        for (const auto& [name, ch] : c.at("channels").items())
            m.channels[name] =
                ManifestChannel{ch.at("fs"), ch.at("ufact"), ch.at("start_time"), ch.at("end_time"), ch.at("nsamp")};
        cases.push_back(std::move(m));
    }
    return cases;
}

std::vector<ManifestCase> allMefCases()
{
    std::vector<ManifestCase> all = readManifest(testdata() / "mef3" / "legacy");
    for (ManifestCase& c : readManifest(testdata() / "mef3" / "meflib")) all.push_back(std::move(c));
    return all;
}

TempDir::TempDir()
{
    std::random_device rd;
    m_path = fs::temp_directory_path() / ("longview-test-" + std::to_string(rd()) + std::to_string(rd()));
    fs::create_directories(m_path);
}

TempDir::~TempDir()
{
    std::error_code ec;
    fs::remove_all(m_path, ec);
}

void copyTree(const fs::path& from, const fs::path& to)
{
    fs::copy(from, to, fs::copy_options::recursive);
    fs::permissions(to, fs::perms::owner_all, fs::perm_options::add);
    for (const auto& e : fs::recursive_directory_iterator(to))
        fs::permissions(e.path(),
                        fs::perms::owner_read | fs::perms::owner_write |
                            (e.is_directory() ? fs::perms::owner_exec : fs::perms::none),
                        fs::perm_options::add);
}

std::vector<std::uint8_t> readBytes(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const fs::path& file, const std::vector<std::uint8_t>& bytes)
{
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

int run(const std::string& command, std::string* output)
{
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return -1;
    std::array<char, 4096> buf{};
    std::string text;
    for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0;) text.append(buf.data(), n);
    const int status = ::pclose(pipe);
    if (output) *output = std::move(text);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool isPseudonym(std::string_view s)
{
    const auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
    return s.size() == 12 && s.substr(0, 4) == "sub-" && std::all_of(s.begin() + 4, s.end(), hex);
}

} // namespace lv::test
