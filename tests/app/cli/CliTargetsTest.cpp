// longview-cli targets and text: concurrent conversions to one target (one wins, the other exits 4), killed
// conversions' temporaries removed by the next run, hostile names kept in their CSV cells, no raw terminal
// escapes from `info`.
#include "formats/mef3/SessionWriter.h"
#include "io/Temporary.h"
#include "support/ChildProcess.h"
#include "support/TestSupport.h"

#include <array>
#include <future>
#include <gtest/gtest.h>

namespace lv::cli {
namespace {

namespace fs = std::filesystem;

std::string cli() { return LONGVIEW_CLI; }

test::ChildResult runCli(std::vector<std::string> args)
{
    args.insert(args.begin(), cli());
    return test::runChild(args);
}

std::vector<std::string> namesIn(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// The files a conversion to `name` writes, sorted: a CSV has its annotations and JSON side files.
std::vector<std::string> outputsOf(const std::string& name)
{
    if (!name.ends_with(".csv")) return {name};
    const std::string stem = name.substr(0, name.size() - 4);
    return {stem + ".annotations.csv", name, stem + ".json"};
}

// The size of the first "<target>.tmp-*" in the target's folder, or -1.
std::int64_t temporarySize(const fs::path& target)
{
    for (const auto& e : fs::directory_iterator(target.parent_path())) {
        const std::string name = e.path().filename().string();
        if (name.rfind(target.filename().string() + ".tmp-", 0) != 0) continue;
        std::error_code ec;
        const auto size = e.is_directory(ec) ? std::uintmax_t(1) : fs::file_size(e.path(), ec);
        return ec ? -1 : static_cast<std::int64_t>(size);
    }
    return -1;
}

// A session big enough that converting it takes a few seconds (16 channels, 0.25 h at 256 Hz).
class CliTargets : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_dir = new test::TempDir;
        const auto made = runCli({"synth", input(), "--channels", "16", "--hours", "0.25", "--no-gaps"});
        ASSERT_EQ(made.exitStatus, 0) << made.output;
    }
    static void TearDownTestSuite()
    {
        delete s_dir;
        s_dir = nullptr;
    }
    static std::string input() { return (s_dir->path() / "in.mefd").string(); }

    // Starts two `convert IN target` at once; their results.
    static std::array<test::ChildResult, 2> convertTwiceAtOnce(const std::string& target)
    {
        auto a = std::async(std::launch::async, [&] { return runCli({"convert", input(), target}); });
        auto b = std::async(std::launch::async, [&] { return runCli({"convert", input(), target}); });
        return {a.get(), b.get()};
    }

    // Two conversions at once: one exits 0, the other 4 naming the target; the target equals a conversion
    // made alone, and no temporary is left.
    void expectOneWinner(const std::string& name)
    {
        test::TempDir dir;
        const fs::path target = dir.path() / name;
        const auto both = convertTwiceAtOnce(target.string());
        const int winners = (both[0].exitStatus == 0) + (both[1].exitStatus == 0);
        ASSERT_EQ(winners, 1) << both[0].output << "\n" << both[1].output;
        const test::ChildResult& loser = both[0].exitStatus == 0 ? both[1] : both[0];
        EXPECT_EQ(loser.exitStatus, 4) << loser.output;
        EXPECT_NE(loser.output.find(target.string() + ": the output already exists; choose a new name"),
                  std::string::npos)
            << loser.output;
        EXPECT_EQ(namesIn(dir.path()), outputsOf(name));
        const fs::path alone = dir.path() / ("alone-" + name);
        ASSERT_EQ(runCli({"convert", input(), alone.string()}).exitStatus, 0);
        EXPECT_TRUE(test::readBytes(target) == test::readBytes(alone));
    }

    // A conversion killed once its temporary exists: the temporary stays; the next conversion to the target
    // succeeds and removes it. (Outputs are written in 8 MiB pieces: a small one may hold no byte until its end.)
    void expectKilledTemporaryRemoved(const std::vector<std::string>& command, const fs::path& target)
    {
        std::vector<std::string> argv{cli()};
        argv.insert(argv.end(), command.begin(), command.end());
        const auto killed = test::runChildKilledWhen(argv, [&] { return temporarySize(target) >= 0; });
        ASSERT_TRUE(killed.killed) << killed.output;
        ASSERT_GE(temporarySize(target), 0) << "the kill left no temporary";
        ASSERT_FALSE(fs::exists(target));
        const auto again = test::runChild(argv);
        ASSERT_EQ(again.exitStatus, 0) << again.output;
        EXPECT_EQ(temporarySize(target), -1) << "a temporary is left";
    }

    static inline test::TempDir* s_dir = nullptr;
};

TEST_F(CliTargets, TwoConversionsToOneCsvOneWinsTheOtherExits4) { expectOneWinner("out.csv"); }

TEST_F(CliTargets, TwoConversionsToOneEdfOneWinsTheOtherExits4) { expectOneWinner("out.edf"); }

TEST_F(CliTargets, AKilledCsvConversionsTemporaryIsRemovedByTheNext)
{
    test::TempDir dir;
    const fs::path target = dir.path() / "out.csv";
    expectKilledTemporaryRemoved({"convert", input(), target.string()}, target);
    EXPECT_EQ(namesIn(dir.path()), outputsOf("out.csv"));
}

TEST_F(CliTargets, AKilledEdfConversionsTemporaryIsRemovedByTheNext)
{
    test::TempDir dir;
    const fs::path target = dir.path() / "out.bdf";
    expectKilledTemporaryRemoved({"convert", input(), target.string()}, target);
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"out.bdf"});
}

TEST_F(CliTargets, AKilledZarrConversionsTemporaryIsRemovedByTheNext)
{
    test::TempDir dir;
    const fs::path target = dir.path() / "out.zarr";
    expectKilledTemporaryRemoved({"convert", input(), target.string(), "--zarr-version", "3"}, target);
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"out.zarr"});
    EXPECT_TRUE(fs::exists(target / "zarr.json"));
}

// --zarr-version and --zarr-dtype reach the writer; other values are usage errors (exit 2).
TEST_F(CliTargets, ZarrOptionsChooseTheVersionAndTheValues)
{
    test::TempDir dir;
    const fs::path v2 = dir.path() / "f.zarr";
    const auto made = runCli({"convert", input(), v2.string(), "--end", "+1", "--zarr-dtype", "float64"});
    ASSERT_EQ(made.exitStatus, 0) << made.output;
    const auto zarray = test::readBytes(v2 / "ch001" / ".zarray");
    EXPECT_NE(std::string(zarray.begin(), zarray.end()).find("\"dtype\": \"<f8\""), std::string::npos);
    EXPECT_TRUE(fs::exists(v2 / ".zmetadata"));
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"--zarr-version", "4"}, std::vector<std::string>{"--zarr-dtype", "int8"}}) {
        std::vector<std::string> args = {"convert", input(), (dir.path() / "bad.zarr").string()};
        args.insert(args.end(), bad.begin(), bad.end());
        const auto r = runCli(args);
        EXPECT_EQ(r.exitStatus, 2) << r.output;
        EXPECT_FALSE(fs::exists(dir.path() / "bad.zarr"));
    }
}

TEST_F(CliTargets, AKilledArchivesTemporaryIsRemovedByTheNext)
{
    test::TempDir dir;
    const fs::path target = dir.path() / "in.mefd.tar";
    expectKilledTemporaryRemoved({"archive", input(), target.string()}, target);
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"in.mefd.tar"});
}

TEST_F(CliTargets, ALiveWritersTemporaryIsNeverRemoved)
{
    test::TempDir dir;
    const fs::path target = dir.path() / "out.csv";
    auto live = io::Temporary::create(target.string(), io::Temporary::Kind::File); // held by this process
    ASSERT_TRUE(live.ok());
    const auto r = runCli({"convert", input(), target.string(), "--end", "+1"});
    ASSERT_EQ(r.exitStatus, 0) << r.output;
    EXPECT_TRUE(fs::exists(live->path()));
}

TEST_F(CliTargets, ArchiveRefusesAnExistingTarget)
{
    test::TempDir dir;
    const fs::path target = dir.path() / "s.mefd.tar";
    test::writeBytes(target, {'x'});
    const auto r = runCli({"archive", input(), target.string()});
    EXPECT_EQ(r.exitStatus, 2) << r.output;
    EXPECT_NE(r.output.find(target.string() + ": the output already exists; choose a new name"), std::string::npos)
        << r.output;
    EXPECT_EQ(test::readBytes(target), std::vector<std::uint8_t>{'x'});
}

// A one-second session of channels with the given names, and one annotation with `text`.
void writeSession(const fs::path& path, const std::vector<std::string>& names, const std::string& text)
{
    auto w = formats::mef3::SessionWriter::create(path.string(), {});
    ASSERT_TRUE(w.ok()) << w.error().describe();
    const core::Uutc start = 1'700'000'000'000'000;
    for (std::size_t c = 0; c < names.size(); ++c) {
        auto index = (*w)->addChannel({names[c], 10.0, "uV", 1.0, ""});
        ASSERT_TRUE(index.ok()) << index.error().describe();
        std::vector<std::int32_t> counts(10);
        for (std::size_t i = 0; i < counts.size(); ++i) counts[i] = static_cast<std::int32_t>(100 * c + i);
        ASSERT_TRUE((*w)->append(*index, {start, 10.0}, 0, counts).ok());
    }
    (*w)->addAnnotation({start + 500'000, 0, "Note", text, std::nullopt});
    ASSERT_TRUE((*w)->finish().ok());
}

// The cells of one CSV record (RFC 4180).
std::vector<std::string> cells(const std::string& line)
{
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            out.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            out.emplace_back();
        } else {
            out.back() += c;
        }
    }
    return out;
}

TEST(CliText, HostileChannelNamesStayInTheirCsvCells)
{
    test::TempDir dir;
    const fs::path session = dir.path() / "s.mefd";
    writeSession(session, {"=1+2", "a,b", "@SUM(A1)", "q\"r"}, "note");
    const fs::path csv = dir.path() / "out.csv";
    const auto r = runCli({"convert", session.string(), csv.string(), "--raw"});
    ASSERT_EQ(r.exitStatus, 0) << r.output;
    const auto bytes = test::readBytes(csv);
    std::vector<std::string> lines;
    std::string line;
    for (char c : std::string(bytes.begin(), bytes.end())) {
        if (c != '\n') {
            line += c;
            continue;
        }
        lines.push_back(line);
        line.clear();
    }
    ASSERT_EQ(lines.size(), 12u);
    // The reader lists channels in name order.
    EXPECT_EQ(lines[0], "\"# units: =1+2=counts @SUM(A1)=counts a,b=counts q\"\"r=counts\"");
    EXPECT_EQ(lines[1], "time,'=1+2,'@SUM(A1),\"a,b\",\"q\"\"r\"");
    EXPECT_EQ(cells(lines[0]).size(), 1u);
    EXPECT_EQ(cells(lines[1]), (std::vector<std::string>{"time", "'=1+2", "'@SUM(A1)", "a,b", "q\"r"}));
    // Every row has its five cells, each channel's value in its own column (channel c wrote 100 c + i).
    const int written[] = {0, 2, 1, 3};
    for (std::size_t row = 2; row < lines.size(); ++row) {
        const auto c = cells(lines[row]);
        ASSERT_EQ(c.size(), 5u) << lines[row];
        for (std::size_t k = 0; k < 4; ++k)
            EXPECT_EQ(c[k + 1], std::to_string(100 * written[k] + static_cast<int>(row) - 2)) << lines[row];
    }
}

TEST(CliText, InfoPrintsNoRawTerminalEscape)
{
    test::TempDir dir;
    const fs::path session = dir.path() / "s.mefd";
    writeSession(session, {"ch\x1b]0;x\x07"},
                 "\x1b[31mred\x1b[0m \xc2\x9b"
                 "2J");
    const auto text = runCli({"info", session.string()});
    ASSERT_EQ(text.exitStatus, 0) << text.output;
    EXPECT_EQ(text.output.find('\x1b'), std::string::npos) << text.output;
    EXPECT_EQ(text.output.find("\xc2\x9b"), std::string::npos) << text.output;
    EXPECT_NE(text.output.find("\\e[31mred\\e[0m \\u009b2J"), std::string::npos) << text.output;
    EXPECT_NE(text.output.find("ch\\e]0;x\\x07"), std::string::npos) << text.output;
    const auto json = runCli({"info", "--json", session.string()});
    ASSERT_EQ(json.exitStatus, 0) << json.output;
    EXPECT_EQ(json.output.find('\x1b'), std::string::npos) << json.output;
    EXPECT_EQ(json.output.find("\xc2\x9b"), std::string::npos) << json.output;
    EXPECT_NE(json.output.find("\\u001b[31mred\\u001b[0m \\u009b2J"), std::string::npos) << json.output;
}

} // namespace
} // namespace lv::cli
