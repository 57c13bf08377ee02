// longview-cli convert and merge on a session with one flipped bit in a RED block's compressed data: refused
// (exit 3, file and offset named, nothing written) by default, a gap with a warning and a "Damaged" annotation in
// every target with --skip-damaged, and the unchecked samples with --no-verify-crc.
#include "support/TestSupport.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace lv::cli {
namespace {

namespace fs = std::filesystem;

constexpr int kDamagedEntry = 3;        // the flipped block's index entry
constexpr std::size_t kRedHeader = 304; // RED block header bytes; the compressed data follows

// Runs the CLI; stdout into `out`, stderr into `err`.
int runCli(const std::string& args, std::string& out, std::string& err, const fs::path& errFile)
{
    const int status = test::run(std::string(LONGVIEW_CLI) + " " + args + " 2>" + errFile.string(), &out);
    const auto bytes = test::readBytes(errFile);
    err.assign(bytes.begin(), bytes.end());
    return status;
}

std::int64_t load64(const std::vector<std::uint8_t>& b, std::size_t at)
{
    std::int64_t v = 0;
    std::memcpy(&v, b.data() + at, sizeof v);
    return v;
}

std::uint32_t load32(const std::vector<std::uint8_t>& b, std::size_t at)
{
    std::uint32_t v = 0;
    std::memcpy(&v, b.data() + at, sizeof v);
    return v;
}

std::vector<std::string> lines(const fs::path& file)
{
    std::ifstream in(file);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

class CliCrc : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_session = m_dir.path() / "s.mefd";
        m_err = m_errDir.path() / "stderr.txt";
        std::string out, err;
        ASSERT_EQ(runCli("synth " + m_session.string() +
                             " --channels 2 --hours 0.01 --fs 256 --no-gaps "
                             "--block-seconds 1 --threads 1",
                         out, err, m_err),
                  0)
            << err;
        ASSERT_EQ(runCli("info --json " + m_session.string(), out, err, m_err), 0) << err;
        const auto info = nlohmann::json::parse(out);
        m_channel = info.at("channels").at(0).at("name").get<std::string>();
        m_samples = info.at("channels").at(0).at("samples").get<std::int64_t>();
        const fs::path segment = m_session / (m_channel + ".timd") / (m_channel + "-000000.segd");
        m_tdat = segment / (m_channel + "-000000.tdat");
        const auto tidx = test::readBytes(segment / (m_channel + "-000000.tidx"));
        const std::size_t entry = 1024 + 56 * kDamagedEntry;
        ASSERT_GE(tidx.size(), entry + 56);
        m_offset = load64(tidx, entry);
        m_blockSamples = load32(tidx, entry + 24);
        auto data = test::readBytes(m_tdat);
        ASSERT_GT(load32(tidx, entry + 28), kRedHeader + 16);
        data[static_cast<std::size_t>(m_offset) + kRedHeader + 8] ^= 0x10;
        test::writeBytes(m_tdat, data);
        ASSERT_EQ(runCli("synth " + (m_dir.path() / "later.mefd").string() +
                             " --channels 2 --hours 0.01 --fs 256 --no-gaps --block-seconds 1 --threads 1 "
                             "--start 2025-01-01T00:01:00Z",
                         out, err, m_err),
                  0)
            << err;
    }

    std::string message() const
    {
        return m_tdat.string() + ": RED block " + std::to_string(kDamagedEntry) + ": CRC mismatch (at byte " +
               std::to_string(m_offset) + ")";
    }
    std::string warning() const { return message() + "; its samples read as missing"; }
    std::string annotationText() const
    {
        return "damaged block in " + m_tdat.string() + " at byte " + std::to_string(m_offset) + ", samples missing";
    }
    // The entries of the temporary folder other than the two sessions.
    std::vector<std::string> leftovers() const
    {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(m_dir.path()))
            if (e.path() != m_session && e.path().filename() != "later.mefd") out.push_back(e.path().string());
        return out;
    }
    std::int64_t samplesOf(const fs::path& recording, std::string& err)
    {
        std::string out;
        EXPECT_EQ(runCli("stats --json " + recording.string(), out, err, m_err), 0) << err;
        return nlohmann::json::parse(out).at("channels").at(0).at("samples").get<std::int64_t>();
    }

    test::TempDir m_dir, m_errDir;
    fs::path m_session, m_err, m_tdat;
    std::string m_channel;
    std::int64_t m_samples = 0, m_offset = 0, m_blockSamples = 0;
};

TEST_F(CliCrc, ConvertRefusesADamagedBlockNamingFileAndOffset)
{
    for (const char* name : {"out.csv", "out.edf", "out.mefd"}) {
        std::string out, err;
        const fs::path target = m_dir.path() / name;
        EXPECT_EQ(runCli("convert " + m_session.string() + " " + target.string(), out, err, m_err), 3) << name;
        EXPECT_EQ(err, "longview-cli: " + message() + " (the file is damaged)\n") << name;
        EXPECT_EQ(leftovers(), std::vector<std::string>{}) << name;
    }
    std::string out, err;
    EXPECT_EQ(runCli("stats " + m_session.string(), out, err, m_err), 3);
    EXPECT_NE(err.find(message()), std::string::npos) << err;
}

TEST_F(CliCrc, ConvertSkipDamagedGapsWarnsAndAnnotatesCsv)
{
    std::string out, err;
    const fs::path csv = m_dir.path() / "out.csv";
    ASSERT_EQ(
        runCli("convert " + m_session.string() + " " + csv.string() + " --skip-damaged --time uutc", out, err, m_err),
        0)
        << err;
    EXPECT_EQ(err, "longview-cli: warning: " + warning() + "\n");
    std::int64_t filled = 0, empty = 0;
    std::vector<std::string> comments;
    for (const std::string& line : lines(csv)) {
        if (line.rfind("#", 0) == 0) {
            comments.push_back(line);
            continue;
        }
        if (line.rfind("time", 0) == 0) continue;
        const std::size_t a = line.find(','), b = line.find(',', a + 1);
        (b == a + 1 ? empty : filled) += 1;
    }
    EXPECT_EQ(filled, m_samples - m_blockSamples);
    EXPECT_EQ(empty, m_blockSamples);
    ASSERT_EQ(comments.size(), 2u);
    EXPECT_EQ(comments[1].rfind("# Damaged " + m_channel + " at ", 0), 0u) << comments[1];
    EXPECT_NE(comments[1].find(": " + annotationText()), std::string::npos) << comments[1];
}

TEST_F(CliCrc, ConvertSkipDamagedGapsWarnsAndAnnotatesMefAndEdf)
{
    for (const char* name : {"out.mefd", "out.edf"}) {
        std::string out, err;
        const fs::path target = m_dir.path() / name;
        ASSERT_EQ(runCli("convert " + m_session.string() + " " + target.string() + " --skip-damaged", out, err, m_err),
                  0)
            << err;
        EXPECT_NE(err.find("longview-cli: warning: " + warning() + "\n"), std::string::npos) << err;
        ASSERT_EQ(runCli("info --json " + target.string(), out, err, m_err), 0) << err;
        const auto annotations = nlohmann::json::parse(out).at("annotations");
        const bool mef = std::string(name) == "out.mefd";
        const std::string text =
            mef ? "Damaged: " + annotationText() : "Damaged " + m_channel + ": " + annotationText();
        const auto found = std::find_if(annotations.begin(), annotations.end(), [&](const auto& a) {
            return a.at("text").template get<std::string>() == text;
        });
        ASSERT_NE(found, annotations.end()) << name << ": " << annotations.dump();
        if (mef) {
            EXPECT_EQ(found->at("channel"), m_channel);
            EXPECT_EQ(samplesOf(target, err), m_samples - m_blockSamples) << err;
        }
    }
}

TEST_F(CliCrc, ConvertNoVerifyCrcExportsTheUncheckedSamples)
{
    std::string out, err;
    const fs::path target = m_dir.path() / "out.mefd";
    ASSERT_EQ(runCli("convert " + m_session.string() + " " + target.string() + " --no-verify-crc", out, err, m_err), 0)
        << err;
    EXPECT_EQ(err, "");
    EXPECT_EQ(samplesOf(target, err), m_samples);
    ASSERT_EQ(runCli("stats --no-verify-crc " + m_session.string(), out, err, m_err), 0) << err;
}

TEST_F(CliCrc, MergeRefusesSkipsOrIgnoresADamagedBlock)
{
    std::string out, err;
    const std::string inputs = m_session.string() + " " + (m_dir.path() / "later.mefd").string() + " ";
    const fs::path csv = m_dir.path() / "merged.csv";
    EXPECT_EQ(runCli("merge " + inputs + csv.string(), out, err, m_err), 3);
    EXPECT_EQ(err, "longview-cli: " + message() + " (the file is damaged)\n");
    EXPECT_EQ(leftovers(), std::vector<std::string>{});

    ASSERT_EQ(runCli("merge " + inputs + csv.string() + " --skip-damaged", out, err, m_err), 0) << err;
    EXPECT_EQ(err, "longview-cli: warning: " + m_session.string() + ": " + warning() + "\n");
    const auto text = lines(csv);
    EXPECT_EQ(std::count_if(text.begin(), text.end(),
                            [&](const std::string& l) { return l.find("# Damaged " + m_channel) == 0; }),
              1);
    fs::remove(csv);

    const fs::path mef = m_dir.path() / "merged.mefd";
    ASSERT_EQ(runCli("merge " + inputs + mef.string() + " --no-verify-crc", out, err, m_err), 0) << err;
    EXPECT_EQ(samplesOf(mef, err), 2 * m_samples);
}

} // namespace
} // namespace lv::cli
