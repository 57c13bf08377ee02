// longview-cli end to end: subcommands, JSON fields, CSV against the truth, exit statuses and messages.
#include "support/TestSupport.h"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace lv::cli {
namespace {

namespace fs = std::filesystem;

std::string cli() { return LONGVIEW_CLI; }
std::string ref(const std::string& rel) { return (test::testdata() / rel).string(); }

int runCli(const std::string& args, std::string& out, bool mergeStderr = false)
{
    return test::run(cli() + " " + args + (mergeStderr ? " 2>&1" : " 2>/dev/null"), &out);
}

TEST(Cli, HelpListsSubcommandsAndVersionPrints)
{
    std::string out;
    EXPECT_EQ(runCli("--help", out), 0);
    for (const char* command : {"info", "convert", "stats", "archive", "extract", "validate", "recover", "synth"})
        EXPECT_NE(out.find(command), std::string::npos);
    EXPECT_EQ(runCli("--version", out), 0);
    EXPECT_EQ(out.rfind("longview-cli 0.", 0), 0u) << out;
}

TEST(Cli, UsageErrorsExitTwo)
{
    std::string out;
    EXPECT_EQ(runCli("", out), 2);
    EXPECT_EQ(runCli("info", out), 2);
    EXPECT_EQ(runCli("frobnicate x", out), 2);
    EXPECT_EQ(runCli("stats " + ref("mef3/legacy/plain_single.mefd") + " --threads 0", out), 2);
    EXPECT_EQ(runCli("convert " + ref("mef3/legacy/plain_single.mefd") + " /tmp/x.csv --channels nope", out, true), 2);
    EXPECT_NE(out.find("no channel \"nope\" (channels: ch1)"), std::string::npos) << out;
}

TEST(Cli, ConvertCsvDelimiterAndDecimalComma)
{
    test::TempDir dir;
    const std::string in = ref("mef3/legacy/multi_channel.mefd");
    const std::string out = (dir.path() / "o.csv").string();
    std::string text;
    ASSERT_EQ(runCli("convert " + in + " " + out + " --end +0.007 --delimiter semicolon --decimal-comma", text), 0);
    std::ifstream f(out, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    EXPECT_EQ(s.str(), "# units: ch1=uV ch2=uV\ntime;ch1;ch2\n0;1,397;-2,21\n0,003906;3,812;20,81\n");
    const std::string tab = (dir.path() / "t.csv").string();
    ASSERT_EQ(runCli("convert " + in + " " + tab + " --end +0.007 --delimiter TAB", text), 0);
    std::ifstream t(tab, std::ios::binary);
    std::stringstream ts;
    ts << t.rdbuf();
    EXPECT_EQ(ts.str(), "# units: ch1=uV ch2=uV\ntime\tch1\tch2\n0\t1.397\t-2.21\n0.003906\t3.812\t20.81\n");
    // A decimal comma with the comma delimiter is refused (exit 2), and nothing is written.
    const std::string bad = (dir.path() / "b.csv").string();
    EXPECT_EQ(runCli("convert " + in + " " + bad + " --decimal-comma", text, true), 2);
    EXPECT_NE(text.find("a decimal comma needs a semicolon or tab delimiter"), std::string::npos) << text;
    EXPECT_FALSE(fs::exists(bad));
    EXPECT_EQ(runCli("convert " + in + " " + bad + " --delimiter pipe", text, true), 2);
}

TEST(Cli, InfoJsonHasTheContractFields)
{
    std::string out;
    ASSERT_EQ(runCli("info --json " + ref("mef3/meflib/meflib_rto.mefd"), out), 0);
    const auto j = nlohmann::json::parse(out);
    EXPECT_EQ(j.at("format"), "MEF 3.0");
    EXPECT_EQ(j.at("start_uutc"), 1704103200000000);
    EXPECT_EQ(j.at("end_uutc"), 1704103500000000);
    const auto& la1 = j.at("channels").at(0);
    EXPECT_EQ(la1.at("name"), "LA1");
    EXPECT_EQ(la1.at("fs"), 256.0);
    EXPECT_EQ(la1.at("unit"), "uV");
    EXPECT_EQ(la1.at("conversion_factor"), 0.1);
    EXPECT_EQ(la1.at("samples"), 76800);
    EXPECT_EQ(la1.at("segments").size(), 1u);
    ASSERT_EQ(la1.at("gaps").size(), 1u);
    EXPECT_EQ(la1.at("gaps").at(0).at(1).get<std::int64_t>() - la1.at("gaps").at(0).at(0).get<std::int64_t>(),
              20000000);
    EXPECT_TRUE(j.at("annotations").is_array());

    ASSERT_EQ(runCli("info --json " + ref("mef3/legacy/with_annotations.mefd"), out), 0);
    const auto a = nlohmann::json::parse(out).at("annotations");
    ASSERT_EQ(a.size(), 2u);
    EXPECT_EQ(a.at(0).at("type"), "Note");
    EXPECT_EQ(a.at(0).at("text"), "onset");
    EXPECT_EQ(a.at(0).at("channel"), "ch1");
    EXPECT_EQ(a.at(0).at("time_uutc"), 1577836800100000);
}

TEST(Cli, UnreadableInputExitsThreeNamingTheFile)
{
    std::string out;
    EXPECT_EQ(runCli("info /nonexistent/x.mefd", out, true), 3);
    EXPECT_EQ(out, "longview-cli: /nonexistent/x.mefd: no such file or directory\n");
    const std::string enc = ref("mef3/legacy/enc_both.mefd");
    EXPECT_EQ(runCli("info " + enc + " --password wrong", out, true), 3);
    EXPECT_EQ(out, "longview-cli: " + enc +
                       "/ch1.timd/ch1-000000.segd/ch1-000000.tmet: wrong password: it is neither the "
                       "level-1 nor the level-2 password of this session (check the password)\n");
    EXPECT_EQ(runCli("stats " + enc, out, true), 3);
    EXPECT_NE(out.find("needs the level-1 password (give it with --password)"), std::string::npos) << out;
}

// Every reference case exported through the CLI equals its truth, raw and scaled.
TEST(Cli, ConvertReproducesEveryTruthCsv)
{
    for (const test::ManifestCase& c : test::allMefCases()) {
        SCOPED_TRACE(c.name);
        test::TempDir dir;
        const std::string in = (c.folder / (c.name + ".mefd")).string();
        const std::string pw = c.password.empty() ? "" : " --password " + c.password;
        std::string out;
        ASSERT_EQ(
            runCli("convert " + in + " " + (dir.path() / "raw.csv").string() + " --raw --time uutc --fill-gaps" + pw,
                   out),
            0);
        ASSERT_EQ(
            runCli("convert " + in + " " + (dir.path() / "phys.csv").string() + " --fill-gaps --threads 1" + pw, out),
            0);
        const auto truth = test::readTruth(c.folder / (c.name + ".truth.csv"));
        std::ifstream raw(dir.path() / "raw.csv"), phys(dir.path() / "phys.csv");
        std::string r, p, header;
        std::getline(raw, header), std::getline(raw, header), std::getline(phys, p), std::getline(phys, p);
        std::vector<std::string> names;
        std::stringstream hs(header);
        for (std::string n; std::getline(hs, n, ',');) names.push_back(n);
        std::size_t row = 0;
        for (; std::getline(raw, r) && std::getline(phys, p); ++row) {
            std::stringstream rs(r), ps(p);
            std::string rc, pc;
            std::getline(rs, rc, ','), std::getline(ps, pc, ',');
            for (std::size_t k = 1; k < names.size(); ++k) {
                std::getline(rs, rc, ','), std::getline(ps, pc, ',');
                const auto& t = truth.at(names[k]);
                if (row >= t.raw.size()) continue; // beyond this channel's end
                if (!t.raw[row]) {
                    ASSERT_TRUE(rc.empty() && pc.empty()) << "row " << row;
                } else {
                    ASSERT_EQ(std::stoll(rc), *t.raw[row]) << "row " << row;
                    // The shortest decimal that identifies the count (29.7, not the product 29.700000000000003).
                    const std::int64_t count = *t.raw[row];
                    if (count == 0) {
                        ASSERT_EQ(std::stod(pc), 0.0) << "row " << row;
                    } else {
                        const double factor = *t.scaled[row] / static_cast<double>(count);
                        ASSERT_EQ(std::llround(std::stod(pc) / factor), count) << "row " << row << ": " << pc;
                        ASSERT_NEAR(std::stod(pc), *t.scaled[row], std::abs(factor) / 2) << "row " << row;
                    }
                }
            }
        }
        EXPECT_EQ(row, truth.begin()->second.raw.size());
    }
}

TEST(Cli, ConvertToMefWithPasswordsAndBlockLength)
{
    test::TempDir dir;
    const std::string out = (dir.path() / "copy.mefd").string();
    std::string text;
    ASSERT_EQ(runCli("convert " + ref("mef3/meflib/meflib_rto.mefd") + " " + out +
                         " --block-seconds 2.5 --level1-password alpha --level2-password omega --channels LA1",
                     text),
              0);
    EXPECT_EQ(runCli("info " + out, text, true), 3);
    EXPECT_NE(text.find("needs the level-1 password"), std::string::npos) << text;
    ASSERT_EQ(runCli("info --json " + out + " --password omega", text), 0);
    const auto j = nlohmann::json::parse(text);
    ASSERT_EQ(j.at("channels").size(), 1u);
    EXPECT_EQ(j.at("channels").at(0).at("samples"), 76800);
    EXPECT_EQ(j.at("channels").at(0).at("gaps").size(), 1u);
    EXPECT_EQ(runCli("convert " + ref("mef3/meflib/meflib_rto.mefd") + " " + out, text, true), 2);
    EXPECT_NE(text.find(out + ": the output already exists; choose a new name"), std::string::npos) << text;
    EXPECT_EQ(runCli("convert " + ref("mef3/meflib/meflib_rto.mefd") + " " + out + ".gdf", text, true), 2);
    EXPECT_NE(text.find("use a .csv, .mefd, .edf, .bdf, .mf4, .vhdr or .zarr name"), std::string::npos) << text;
}

TEST(Cli, ArchiveReadsInPlaceAndExtracts)
{
    test::TempDir dir;
    const std::string tar = (dir.path() / "s.mefd.tar").string();
    std::string direct, archived;
    ASSERT_EQ(runCli("archive " + ref("mef3/meflib/meflib_rto.mefd") + " " + tar, direct), 0);
    ASSERT_EQ(runCli("stats --json " + ref("mef3/meflib/meflib_rto.mefd"), direct), 0);
    ASSERT_EQ(runCli("stats --json " + tar, archived), 0);
    auto a = nlohmann::json::parse(direct), b = nlohmann::json::parse(archived);
    a.erase("seconds"), b.erase("seconds");
    EXPECT_EQ(a, b);
    ASSERT_EQ(runCli("extract " + tar + " " + (dir.path() / "out").string(), direct), 0);
    EXPECT_TRUE(fs::exists(dir.path() / "out/meflib_rto.mefd/LA2.timd/LA2-000000.segd/LA2-000000.tdat"));
}

TEST(Cli, ValidateExitsZeroOneOrThree)
{
    test::TempDir dir;
    std::string out;
    EXPECT_EQ(runCli("validate " + ref("mef3/meflib/meflib_rto.mefd"), out), 0);
    test::copyTree(test::testdata() / "mef3/meflib/meflib_rto.mefd", dir.path() / "s.mefd");
    const fs::path tdat = dir.path() / "s.mefd/LA2.timd/LA2-000000.segd/LA2-000000.tdat";
    auto bytes = test::readBytes(tdat);
    bytes[1024 + 500] ^= 1;
    test::writeBytes(tdat, bytes);
    EXPECT_EQ(runCli("validate " + (dir.path() / "s.mefd").string(), out), 1);
    EXPECT_EQ(out, tdat.string() + ": RED block 0 CRC mismatch (at byte 1024)\n");
    EXPECT_EQ(runCli("validate --json " + (dir.path() / "s.mefd").string(), out), 1);
    const auto json = nlohmann::json::parse(out);
    EXPECT_EQ(json["ok"], false);
    EXPECT_EQ(json["format"], "MEF 3.0");
    ASSERT_EQ(json["problems"].size(), 1u);
    EXPECT_EQ(json["problems"][0]["path"], tdat.string());
    EXPECT_EQ(json["problems"][0]["offset"], 1024);
    EXPECT_EQ(json["problems"][0]["what"], "RED block 0 CRC mismatch");
    EXPECT_EQ(runCli("validate --json " + ref("mef3/meflib/meflib_rto.mefd"), out), 0);
    EXPECT_EQ(nlohmann::json::parse(out)["problems"], nlohmann::json::array());
    EXPECT_EQ(runCli("validate /nonexistent.mefd", out), 3);
}

TEST(Cli, StatsJsonCountsGapsAndSamples)
{
    std::string out;
    ASSERT_EQ(runCli("stats --json --threads 2 " + ref("mef3/legacy/nan_gap_long.mefd"), out), 0);
    const auto ch = nlohmann::json::parse(out).at("channels").at(0);
    EXPECT_EQ(ch.at("samples"), 1400);
    EXPECT_EQ(ch.at("gaps"), 1);
    EXPECT_EQ(ch.at("gap_duration_us"), 2343750);
    EXPECT_EQ(ch.at("nan_count"), 0);
}

TEST(Cli, ConvertRangeWithPlusSecondsAndIsoTimes)
{
    test::TempDir dir;
    std::string out;
    const fs::path csv = dir.path() / "w.csv";
    ASSERT_EQ(runCli("convert " + ref("mef3/meflib/meflib_rto.mefd") + " " + csv.string() +
                         " --channels LA2 --start +10 --end 2024-01-01T10:00:10.01Z --time iso",
                     out),
              0);
    std::ifstream in(csv);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    ASSERT_EQ(lines.size(), 2u + 3u); // 10.000000, 10.003906, 10.007813 (7812.5 us rounds half away from zero)
    EXPECT_EQ(lines[2].substr(0, 33), "2024-01-01T10:00:10.000000+00:00,");
    EXPECT_EQ(lines[4].substr(0, 33), "2024-01-01T10:00:10.007813+00:00,");
}

} // namespace
} // namespace lv::cli
