// Appends, segments and interrupted commits: what a reader and the validator see after each step.
#include "formats/mef3/SessionWriter.h"

#include "formats/mef3/MefRecording.h"
#include "formats/mef3/TimeSeriesIndex.h"
#include "formats/mef3/Validator.h"
#include "support/TestSupport.h"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>

namespace lv::formats::mef3 {
namespace {

namespace fs = std::filesystem;
constexpr core::Uutc kStart = 1'700'000'000'000'000;

std::vector<std::int32_t> signal(std::size_t n, std::int32_t seed)
{
    std::vector<std::int32_t> v(n);
    std::uint32_t x = 2463534242u + static_cast<std::uint32_t>(seed);
    for (std::size_t i = 0; i < n; ++i) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        v[i] = static_cast<std::int32_t>(i % 97) * 40 - 2000 + static_cast<std::int32_t>(x % 64);
    }
    return v;
}

// Channel 0 over its whole extent, gaps as kNoSample.
std::vector<std::int32_t> readChannel(const std::string& path, std::size_t channel = 0,
                                      std::vector<std::string>* warnings = nullptr)
{
    auto r = openMef3(path, {});
    EXPECT_TRUE(r.ok()) << r.error().describe();
    if (!r) return {};
    if (warnings) *warnings = (*r)->info().warnings;
    const core::ChannelInfo& ch = (*r)->info().channels.at(channel);
    const std::size_t channels[] = {channel};
    auto got = core::readRange(**r, channels, {ch.start, ch.end}, {});
    EXPECT_TRUE(got.ok());
    return got ? got->front().raw : std::vector<std::int32_t>{};
}

std::vector<std::string> problems(const std::string& path)
{
    auto found = validateSession(path, "");
    EXPECT_TRUE(found.ok());
    std::vector<std::string> out;
    if (found)
        for (const Problem& p : *found) out.push_back(p.path + ": " + p.what);
    return out;
}

struct Appending : ::testing::Test {
    test::TempDir dir;
    std::string path = (dir.path() / "s.mefd").string();
    core::SampleGrid grid{kStart, 256.0};
    WriterOptions options{1.0, "", "", nullptr, Durability::Full, {}, {}};

    void writeFirst(const std::vector<std::int32_t>& samples)
    {
        auto w = SessionWriter::create(path, options);
        ASSERT_TRUE(w.ok()) << w.error().describe();
        ASSERT_TRUE((*w)->addChannel({"a", 256.0, "uV", 0.5, ""}).ok());
        ASSERT_TRUE((*w)->append(0, grid, 0, samples).ok());
        ASSERT_TRUE((*w)->finish().ok());
    }
};

TEST_F(Appending, AppendExtendsTheLastSegmentAndKeepsGaps)
{
    const auto a = signal(1000, 1), b = signal(700, 2), c = signal(300, 3);
    writeFirst(a);
    auto w = SessionWriter::open(path, options);
    ASSERT_TRUE(w.ok()) << w.error().describe();
    ASSERT_EQ((*w)->channelCount(), 1u);
    EXPECT_EQ((*w)->channelSetup(0).conversionFactor, 0.5);
    ASSERT_TRUE((*w)->append(0, grid, 1000, b).ok());
    ASSERT_TRUE((*w)->append(0, grid, 1700 + 256 * 3, c).ok()); // three seconds later
    ASSERT_TRUE((*w)->finish().ok());

    std::vector<std::int32_t> expected = a;
    expected.insert(expected.end(), b.begin(), b.end());
    expected.insert(expected.end(), 256 * 3, core::kNoSample);
    expected.insert(expected.end(), c.begin(), c.end());
    EXPECT_EQ(readChannel(path), expected);
    EXPECT_FALSE(fs::exists(dir.path() / "s.mefd/a.timd/a-000001.segd"));
    EXPECT_EQ(problems(path), std::vector<std::string>{});
}

TEST_F(Appending, ChannelsWithDifferentAndFractionalRatesReadBackExactly)
{
    const double rates[] = {256.0, 100.5, 1000.0 / 3.0};
    std::vector<std::vector<std::int32_t>> data;
    auto w = SessionWriter::create(path, options);
    ASSERT_TRUE(w.ok());
    for (std::size_t c = 0; c < 3; ++c) {
        ASSERT_TRUE((*w)->addChannel({"c" + std::to_string(c), rates[c], "uV", 0.5, ""}).ok());
        data.push_back(signal(static_cast<std::size_t>(rates[c] * 37), static_cast<std::int32_t>(c)));
        ASSERT_TRUE((*w)->append(c, {kStart, rates[c]}, 0, data[c]).ok());
    }
    ASSERT_TRUE((*w)->finish().ok());
    auto r = openMef3(path, {});
    ASSERT_TRUE(r.ok());
    for (std::size_t c = 0; c < 3; ++c) {
        EXPECT_EQ((*r)->info().channels[c].fs, rates[c]);
        EXPECT_TRUE((*r)->info().channels[c].gaps.empty()) << c;
        EXPECT_EQ(readChannel(path, c), data[c]) << c;
    }
    EXPECT_EQ(problems(path), std::vector<std::string>{});
}

TEST_F(Appending, StartSegmentContinuesInANewSegment)
{
    const auto a = signal(1000, 1), b = signal(500, 2);
    auto w = SessionWriter::create(path, options);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->addChannel({"a", 256.0, "uV", 0.5, ""}).ok());
    ASSERT_TRUE((*w)->append(0, grid, 0, a).ok());
    ASSERT_TRUE((*w)->startSegment(0).ok());
    ASSERT_TRUE((*w)->append(0, grid, 1000, b).ok());
    ASSERT_TRUE((*w)->finish().ok());
    ASSERT_TRUE(fs::exists(dir.path() / "s.mefd/a.timd/a-000001.segd/a-000001.tmet"));

    std::vector<std::int32_t> expected = a;
    expected.insert(expected.end(), b.begin(), b.end());
    EXPECT_EQ(readChannel(path), expected); // contiguous in time: no gap between the segments
    auto r = openMef3(path, {});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*r)->info().channels[0].segments.size(), 2u);
    EXPECT_EQ(problems(path), std::vector<std::string>{});
}

TEST_F(Appending, AnUncommittedAppendIsInvisibleAndCutOffOnReopen)
{
    const auto a = signal(1024, 1), b = signal(3 << 20, 2), c = signal(512, 3); // b: past the 1 MiB write buffer
    writeFirst(a);
    {
        auto w = SessionWriter::open(path, options);
        ASSERT_TRUE(w.ok());
        ASSERT_TRUE((*w)->append(0, grid, 1024, b).ok()); // blocks reach the .tdat, no commit
    }                                                     // dropped like a killed process: nothing more is written
    EXPECT_EQ(readChannel(path), a);
    const auto found = problems(path);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_NE(found[0].find("bytes past the last indexed block"), std::string::npos) << found[0];

    auto w = SessionWriter::open(path, options);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->append(0, grid, 1024, c).ok());
    ASSERT_TRUE((*w)->finish().ok());
    std::vector<std::int32_t> expected = a;
    expected.insert(expected.end(), c.begin(), c.end());
    EXPECT_EQ(readChannel(path), expected);
    EXPECT_EQ(problems(path), std::vector<std::string>{});
}

TEST_F(Appending, IndexEntriesPastTheCountAreIgnoredWithAWarning)
{
    const auto a = signal(1024, 1);
    writeFirst(a);
    const fs::path tidx = dir.path() / "s.mefd/a.timd/a-000000.segd/a-000000.tidx";
    {
        std::ofstream out(tidx, std::ios::binary | std::ios::app); // as if killed between entries and header
        const std::vector<char> entry(kIndexEntryBytes, 7);
        out.write(entry.data(), static_cast<std::streamsize>(entry.size()));
    }
    std::vector<std::string> warnings;
    EXPECT_EQ(readChannel(path, 0, &warnings), a);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("1 index entries past the last commit ignored"), std::string::npos) << warnings[0];
    EXPECT_EQ(problems(path).size(), 1u);
    auto w = SessionWriter::open(path, options); // reopening cuts them off
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->finish().ok());
    EXPECT_EQ(fs::file_size(tidx), 1024 + 4 * kIndexEntryBytes);
    EXPECT_EQ(problems(path), std::vector<std::string>{});
}

TEST_F(Appending, AppendingToAnEncryptedSessionNeedsItsPassword)
{
    options.level1Password = "one";
    options.level2Password = "two";
    writeFirst(signal(256, 1));
    WriterOptions none{1.0, "", "", nullptr, Durability::Fast, {}, {}};
    auto missing = SessionWriter::open(path, none);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().message, "the session is encrypted; appending needs its password");
    WriterOptions wrong{1.0, "three", "", nullptr, Durability::Fast, {}, {}};
    auto refused = SessionWriter::open(path, wrong);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, core::ErrorCode::WrongPassword);
    WriterOptions levelOne{1.0, "one", "", nullptr, Durability::Fast, {}, {}};
    auto partial = SessionWriter::open(path, levelOne);
    ASSERT_FALSE(partial.ok());
    EXPECT_EQ(partial.error().message, "appending needs the password that opens the metadata");
    auto w = SessionWriter::open(path, options);
    ASSERT_TRUE(w.ok()) << w.error().describe();
    ASSERT_TRUE((*w)->append(0, grid, 256, signal(256, 2)).ok());
    ASSERT_TRUE((*w)->finish().ok());
    auto r = openMef3(path, {"two"});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*r)->info().channels[0].sampleCount, 512);
}

TEST_F(Appending, AnnotationsAddedOnAppendJoinTheExistingRecords)
{
    writeFirst(signal(512, 1));
    {
        auto w = SessionWriter::open(path, options);
        ASSERT_TRUE(w.ok());
        (*w)->addAnnotation({kStart + 1000, 0, "Note", "first", std::nullopt});
        ASSERT_TRUE((*w)->finish().ok());
    }
    auto w = SessionWriter::open(path, options);
    ASSERT_TRUE(w.ok());
    (*w)->addAnnotation({kStart + 2000, 0, "Note", "second", std::nullopt});
    (*w)->addAnnotation({kStart + 3000, 0, "Note", "on a", std::string("a")});
    ASSERT_TRUE((*w)->finish().ok());
    auto r = openMef3(path, {});
    ASSERT_TRUE(r.ok());
    const auto& notes = (*r)->info().annotations;
    ASSERT_EQ(notes.size(), 3u);
    EXPECT_EQ(notes[0].text, "first");
    EXPECT_EQ(notes[1].text, "second");
    EXPECT_EQ(notes[2].text, "on a");
    EXPECT_EQ(notes[2].channel, std::optional<std::string>("a"));
}

TEST_F(Appending, NoteSeizAndEdfaRecordsRoundTripAtSessionAndChannelLevel)
{
    auto w = SessionWriter::create(path, options);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->addChannel({"a", 256.0, "uV", 0.5, ""}).ok());
    ASSERT_TRUE((*w)->append(0, grid, 0, signal(2560, 1)).ok());
    const std::vector<core::Annotation> written{
        {kStart + 1'000'000, 0, "Note", "note on the session", std::nullopt},
        {kStart + 2'000'000, 4'500'000, "Seiz", "seizure, left temporal", std::nullopt},
        {kStart + 3'000'000, 250'000, "EDFA", "EDF+ annotation", std::nullopt},
        {kStart + 4'000'000, 1'000'000, "Seiz", "on channel a", std::string("a")},
        {kStart + 5'000'000, 0, "Note", "note on a", std::string("a")},
    };
    for (const core::Annotation& a : written) (*w)->addAnnotation(a);
    ASSERT_TRUE((*w)->finish().ok());
    auto r = openMef3(path, {});
    ASSERT_TRUE(r.ok());
    const auto& read = (*r)->info().annotations;
    ASSERT_EQ(read.size(), written.size());
    for (std::size_t i = 0; i < written.size(); ++i) {
        EXPECT_EQ(read[i].time, written[i].time) << i;
        EXPECT_EQ(read[i].durationUs, written[i].durationUs) << i;
        EXPECT_EQ(read[i].type, written[i].type) << i;
        EXPECT_EQ(read[i].text, written[i].text) << i;
        EXPECT_EQ(read[i].channel, written[i].channel) << i;
    }
    EXPECT_EQ(problems(path), std::vector<std::string>{});
}

TEST_F(Appending, PhysicalValuesRoundTripWithTheInferredResolutionAndNaNRunsBecomeGaps)
{
    const auto k = signal(20'000, 4);
    std::vector<double> v;
    for (std::int32_t c : k) v.push_back(c * 0.0625);
    for (std::size_t i : {10u, 5000u, 5001u, 5002u}) v[i] = std::nan("");
    std::fill(v.begin() + 8000, v.begin() + 11'000, std::nan("")); // 3000 samples, longer than a second
    const core::QuantizationChoice q = core::chooseQuantization(v, 0.0);
    ASSERT_EQ(q.factor, 0.0625);
    auto w = SessionWriter::create(path, options);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->addChannel({"a", 256.0, "uV", q.factor, ""}).ok());
    ASSERT_TRUE((*w)->appendPhysical(0, grid, 0, v).ok());
    ASSERT_TRUE((*w)->finish().ok());
    EXPECT_EQ((*w)->quantizationError(0).maxAbs, 0.0);
    EXPECT_EQ((*w)->quantizationError(0).values, 20'000 - 3004);
    const auto raw = readChannel(path);
    ASSERT_EQ(raw.size(), v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (std::isnan(v[i]))
            ASSERT_EQ(raw[i], core::kNoSample) << i;
        else
            ASSERT_EQ(raw[i] * 0.0625, v[i]) << i;
    }
    auto r = openMef3(path, {});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*r)->info().channels[0].gaps.size(), 3u); // 1, 3 and 3000 missing samples
}

} // namespace
} // namespace lv::formats::mef3
