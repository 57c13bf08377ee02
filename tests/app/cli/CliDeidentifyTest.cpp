// De-identification end to end: sources carrying identifying strings everywhere (EDF+ and MEF 3.0) converted with
// --anonymize --shift-dates N --drop-annotation-text to every target leave none of them in any output byte, and
// the outputs read back with the pseudonym and the start moved by exactly N days; without --anonymize the
// provenance names the source; random shifts, option forms and batch --json report what was used.
#include "IdentifyingSources.h"

#include "core/Version.h"
#include "support/ChildProcess.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

namespace lv::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kDay = 86'400'000'000;

std::string cli() { return LONGVIEW_CLI; }

// The CLI's stdout and stderr, merged, and its exit status.
lv::test::ChildResult runCli(std::vector<std::string> args)
{
    args.insert(args.begin(), cli());
    return lv::test::runChild(args);
}

// `info --json` of a path (stdout only).
nlohmann::json infoOf(const fs::path& path)
{
    std::string out;
    EXPECT_EQ(lv::test::run(cli() + " info --json '" + path.string() + "' 2>/dev/null", &out), 0) << path;
    auto j = nlohmann::json::parse(out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << out;
    return j;
}

// The pseudonym and shift the CLI printed: "longview-cli: de-identified as sub-..., dates shifted by N days".
struct Reported {
    std::string pseudonym;
    std::int64_t days = 0;
};
Reported reported(const std::string& output)
{
    const std::string prefix = "longview-cli: ", as = "de-identified as ", shifted = "dates shifted by ";
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(prefix, 0) != 0) continue;
        std::string_view rest = std::string_view(line).substr(prefix.size());
        Reported r;
        if (rest.substr(0, as.size()) == as) {
            r.pseudonym = std::string(rest.substr(as.size(), 12));
            rest.remove_prefix(std::min(rest.size(), as.size() + 14)); // the pseudonym and ", "
        }
        if (rest.substr(0, shifted.size()) != shifted) continue;
        r.days = std::stoll(std::string(rest.substr(shifted.size())));
        return r;
    }
    return {};
}

// Every file an output consists of: the file, every file under a session folder, a CSV's side files.
std::vector<fs::path> filesOf(const fs::path& output)
{
    std::vector<fs::path> files;
    if (fs::is_directory(output)) {
        for (const auto& e : fs::recursive_directory_iterator(output))
            if (e.is_regular_file()) files.push_back(e.path());
        return files;
    }
    files.push_back(output);
    if (output.extension() == ".csv") {
        const std::string stem = output.string().substr(0, output.string().size() - 4);
        files.emplace_back(stem + ".annotations.csv");
        files.emplace_back(stem + ".json");
    }
    return files;
}

class CliDeidentify : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_dir = new lv::test::TempDir;
        fs::create_directories(s_dir->path() / "src");
        s_edf = test::writeIdentifyingEdf(s_dir->path() / "src");
        s_mef = test::writeIdentifyingMef(s_dir->path() / "src");
    }
    static void TearDownTestSuite()
    {
        delete s_dir;
        s_dir = nullptr;
    }

    // Converts `source` to every target with the options; checks every output byte and what reads back.
    void expectNothingIdentifyingLeft(const fs::path& source, const std::vector<std::string>& shiftForm)
    {
        const nlohmann::json before = infoOf(source);
        ASSERT_EQ(before["start_uutc"].get<std::int64_t>(), test::kSourceStart);
        ASSERT_EQ(before["subject"]["name"], "Haagse Harry"); // the source does identify
        const std::string ext = source.extension().string().substr(1);
        for (const char* target : {"mefd", "edf", "bdf", "csv"}) {
            const fs::path out = dir.path() / ("from_" + ext + "." + target);
            std::vector<std::string> args{"convert", source.string(), out.string(), "--anonymize"};
            args.insert(args.end(), shiftForm.begin(), shiftForm.end());
            args.emplace_back("--drop-annotation-text");
            const auto r = runCli(args);
            ASSERT_EQ(r.exitStatus, 0) << target << ": " << r.output;
            const Reported used = reported(r.output);
            EXPECT_TRUE(lv::test::isPseudonym(used.pseudonym)) << r.output;
            EXPECT_EQ(used.days, -400) << r.output;
            for (const fs::path& file : filesOf(out)) {
                ASSERT_TRUE(fs::exists(file)) << file;
                EXPECT_EQ(test::findIdentifying(lv::test::readBytes(file)), "") << file;
                EXPECT_EQ(lv::test::readBytes(file).size(), fs::file_size(file));
            }
            const std::int64_t shiftedStart = test::kSourceStart - 400 * kDay;
            if (std::string(target) == "csv") {
                const auto side = nlohmann::json::parse(lv::test::readBytes(dir.path() / ("from_" + ext + ".json")));
                EXPECT_EQ(side["start_uutc"].get<std::int64_t>(), shiftedStart);
                EXPECT_EQ(side["source"]["paths"], nlohmann::json::array());
                EXPECT_EQ(side["source"]["deidentified"], true);
                continue;
            }
            const nlohmann::json after = infoOf(out);
            EXPECT_EQ(after["start_uutc"].get<std::int64_t>(), shiftedStart) << target;
            EXPECT_EQ(after["subject"]["id"], used.pseudonym) << target;
            for (const char* field : {"name", "sex", "birthdate"}) EXPECT_EQ(after["subject"][field], "") << target;
            for (const char* field : {"admin_code", "technician", "equipment", "location"})
                EXPECT_EQ(after["site"][field], "") << target;
            ASSERT_EQ(after["annotations"].size(), before["annotations"].size()) << target;
            for (std::size_t i = 0; i < after["annotations"].size(); ++i) {
                const auto &a = after["annotations"][i], &b = before["annotations"][i];
                EXPECT_EQ(a["time_uutc"].get<std::int64_t>(), b["time_uutc"].get<std::int64_t>() - 400 * kDay);
                // MEF keeps the type with an empty text; EDF+ writes the type as the text ("Annotation" for EDFA)
                const std::string type = b["type"];
                if (std::string(target) == "mefd") {
                    EXPECT_EQ(a["text"], "") << target;
                    EXPECT_EQ(a["type"], type) << target;
                } else {
                    EXPECT_EQ(a["text"], type == "EDFA" ? "Annotation" : type) << target;
                }
            }
            if (std::string(target) == "mefd") {
                EXPECT_EQ(after["description"], "converted by Longview " + std::string(core::kVersion) + " from " +
                                                    before["format"].get<std::string>() +
                                                    " (de-identified, dates shifted)");
            }
        }
    }

    static inline lv::test::TempDir* s_dir = nullptr;
    static inline fs::path s_edf, s_mef;
    lv::test::TempDir dir;
};

TEST_F(CliDeidentify, AnEdfSourceLeavesNothingIdentifyingInAnyTarget)
{
    const std::vector<std::uint8_t> header = lv::test::readBytes(s_edf);
    ASSERT_GE(header.size(), 256u);
    const auto field = [&](std::size_t at) {
        std::string f(header.begin() + static_cast<std::ptrdiff_t>(at),
                      header.begin() + static_cast<std::ptrdiff_t>(at + 80));
        return f.substr(0, f.find_last_not_of(' ') + 1);
    };
    EXPECT_EQ(field(8), "MCH-0234567 F 02-MAY-1951 Haagse_Harry");
    EXPECT_EQ(field(88), "Startdate 02-MAR-2002 EMG561 BK/JOP Sony");
    expectNothingIdentifyingLeft(s_edf, {"--shift-dates", "-400"});
}

TEST_F(CliDeidentify, AMefSourceLeavesNothingIdentifyingInAnyTarget)
{
    const nlohmann::json source = infoOf(s_mef);
    EXPECT_EQ(source["site"]["location"], "Leiden Lab 4");
    EXPECT_EQ(source["description"], "recorded at the Haagse ward");
    expectNothingIdentifyingLeft(s_mef, {"--shift-dates=-400"});
}

TEST_F(CliDeidentify, ADamagedBlocksFileIsCalledTheSource)
{
    const fs::path session = dir.path() / "Haagse_Harry_2002.mefd";
    lv::test::copyTree(s_mef, session);
    const fs::path tdat = session / "Fp1.timd/Fp1-000000.segd/Fp1-000000.tdat";
    std::vector<std::uint8_t> bytes = lv::test::readBytes(tdat);
    ASSERT_GT(bytes.size(), 1024u + 400u);
    bytes[1024 + 400] ^= 0x40; // inside the first block's samples: its CRC fails
    lv::test::writeBytes(tdat, bytes);
    for (const char* target : {"out.edf", "out.csv", "out.mefd"}) {
        const fs::path out = dir.path() / target;
        const auto r = runCli({"convert", session.string(), out.string(), "--anonymize", "--shift-dates", "-400",
                               "--drop-annotation-text", "--skip-damaged"});
        ASSERT_EQ(r.exitStatus, 0) << r.output;
        std::string all;
        for (const fs::path& file : filesOf(out)) {
            const auto content = lv::test::readBytes(file);
            EXPECT_EQ(test::findIdentifying(content), "") << file;
            all.append(content.begin(), content.end());
        }
        EXPECT_NE(all.find("damaged block in the source at byte "), std::string::npos) << target;
    }
}

TEST_F(CliDeidentify, WithoutAnonymizeTheProvenanceNamesTheSourceInMefAndCsvOutputs)
{
    const fs::path mef = dir.path() / "plain.mefd", csv = dir.path() / "plain.csv";
    const fs::path relative = fs::relative(s_edf); // recorded absolute and normal
    ASSERT_TRUE(relative.is_relative());
    for (const fs::path& out : {mef, csv}) {
        const auto r = runCli({"convert", relative.string(), out.string(), "--subject-id", "P-17"});
        ASSERT_EQ(r.exitStatus, 0) << r.output;
        EXPECT_NE(r.output.find("longview-cli: subject ID written as P-17"), std::string::npos) << r.output;
    }
    const nlohmann::json info = infoOf(mef);
    EXPECT_EQ(info["description"],
              "converted by Longview " + std::string(core::kVersion) + " from EDF+C " + fs::absolute(s_edf).string());
    EXPECT_EQ(info["subject"]["id"], "P-17");
    EXPECT_EQ(info["subject"]["name"], "Haagse Harry"); // --subject-id alone changes the ID only
    EXPECT_EQ(info["start_uutc"].get<std::int64_t>(), test::kSourceStart);
    const auto side = nlohmann::json::parse(lv::test::readBytes(dir.path() / "plain.json"));
    EXPECT_EQ(side["source"]["paths"], nlohmann::json::array({fs::absolute(s_edf).string()}));
    EXPECT_EQ(side["source"]["format"], "EDF+C");
    EXPECT_EQ(side["source"]["deidentified"], false);
    EXPECT_EQ(side["source"]["text"], info["description"]);
}

TEST_F(CliDeidentify, ARandomShiftIsReportedAndUsedExactly)
{
    // Without a value, also right before OUT (CLI11 leaves the required positional alone).
    const fs::path out = dir.path() / "random.edf";
    const auto r = runCli({"convert", s_mef.string(), "--anonymize", "--shift-dates", out.string()});
    ASSERT_EQ(r.exitStatus, 0) << r.output;
    const Reported used = reported(r.output);
    EXPECT_GE(-used.days, 365) << r.output; // 2002 minus at most ten years stays after 1985: into the past
    EXPECT_LE(-used.days, 3650) << r.output;
    const nlohmann::json info = infoOf(out);
    EXPECT_EQ(info["start_uutc"].get<std::int64_t>(), test::kSourceStart + used.days * kDay);
    EXPECT_EQ(info["subject"]["id"], used.pseudonym);
}

TEST_F(CliDeidentify, ABadShiftIsAUsageError)
{
    for (const char* bad : {"abc", "1.5", "2000000"}) {
        const auto r = runCli({"convert", s_edf.string(), (dir.path() / "x.edf").string(), "--shift-dates", bad});
        EXPECT_EQ(r.exitStatus, 2) << bad << ": " << r.output;
        EXPECT_NE(r.output.find("--shift-dates"), std::string::npos) << r.output;
    }
    EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST_F(CliDeidentify, BatchJsonSaysPerItemWhatWasUsed)
{
    std::string out;
    const fs::path to = dir.path() / "out";
    ASSERT_EQ(lv::test::run(cli() + " batch --to edf --out '" + to.string() + "' '" + s_edf.string() + "' '" +
                                s_mef.string() +
                                "' --anonymize --shift-dates --drop-annotation-text --json 2>/dev/null",
                            &out),
              0)
        << out;
    const auto j = nlohmann::json::parse(out);
    ASSERT_EQ(j["items"].size(), 2u);
    std::set<std::string> pseudonyms;
    for (const auto& item : j["items"]) {
        ASSERT_EQ(item["status"], "ok") << item.dump();
        const auto& d = item["deidentified"];
        EXPECT_EQ(d["anonymized"], true);
        EXPECT_EQ(d["annotation_text_dropped"], true);
        const std::string id = d["subject_id"];
        EXPECT_TRUE(lv::test::isPseudonym(id)) << id;
        pseudonyms.insert(id);
        const std::int64_t days = d["shift_days"];
        EXPECT_TRUE(days <= -365 && days >= -3650) << days;
        EXPECT_EQ(d["summary"], "de-identified as " + id + ", dates shifted by " + std::to_string(days) +
                                    " days, annotation texts dropped");
        const nlohmann::json info = infoOf(item["outputs"][0].get<std::string>());
        EXPECT_EQ(info["subject"]["id"], id);
        EXPECT_EQ(info["start_uutc"].get<std::int64_t>(), test::kSourceStart + days * kDay);
        for (const fs::path& file : filesOf(item["outputs"][0].get<std::string>()))
            EXPECT_EQ(test::findIdentifying(lv::test::readBytes(file)), "") << file;
    }
    EXPECT_EQ(pseudonyms.size(), 2u); // each input its own
}

} // namespace
} // namespace lv::cli
