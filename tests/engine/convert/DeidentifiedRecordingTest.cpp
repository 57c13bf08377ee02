// De-identification: the wrapped description (identity and free text out, every time moved by whole days, grids
// and samples unchanged), the damaged block's file hidden, the random choices within their ranges, and a job's use.
#include "convert/DeidentifiedRecording.h"
#include "convert/ConvertJob.h"
#include "convert/Deidentify.h"
#include "support/MemoryRecording.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>

namespace lv::convert {
namespace {

constexpr core::Uutc kStart = 1'015'063'200'000'000; // 2002-03-02T10:00:00Z
constexpr core::Uutc kDay = 86'400'000'000;

std::unique_ptr<test::MemoryRecording> identifyingSource()
{
    auto r = std::make_unique<test::MemoryRecording>();
    r->addChannel("Fp1", 256.0, kStart, 2560, 1, 512, 768);
    r->addChannel("Fp2", 256.0, kStart, 2560, 2);
    core::RecordingInfo& info = r->description;
    info.format = "EDF+C";
    info.path = "/data/Haagse_Harry_2002.edf";
    info.subject = {"MCH-0234567", "Haagse Harry", "F", "1951-05-02"};
    info.site = {"EMG561", "BK/JOP", "Sony", "Leiden Lab 4"};
    info.description = "recorded at the Haagse ward";
    info.channels[0].description = "contact AX-12 near Harry's scar";
    info.annotations = {{kStart + 1'000'000, 500'000, "EDFA", "Harry complains of aura", std::nullopt},
                        {kStart + 3'000'000, 0, "Seiz", "Haagse onset", std::string("Fp1")}};
    r->damage = {{0, 1024, 256, "/data/Haagse_Harry_2002.edf", 12345}};
    return r;
}

Deidentification everything(std::int64_t days)
{
    Deidentification d;
    d.anonymize = true;
    d.subjectId = "sub-1a2b3c4d";
    d.shiftDays = days;
    d.shiftRequested = true;
    d.dropAnnotationText = true;
    return d;
}

TEST(DeidentifiedRecording, IdentityAndFreeTextAreRemovedAndEveryTimeMovesByWholeDays)
{
    auto source = identifyingSource();
    const core::RecordingInfo before = source->info();
    auto wrapped = DeidentifiedRecording::wrap(std::move(source), everything(-812));
    const core::RecordingInfo& after = wrapped->info();
    const core::Uutc shift = -812 * kDay;
    EXPECT_EQ(after.subject.id, "sub-1a2b3c4d");
    EXPECT_EQ(after.subject.name, "");
    EXPECT_EQ(after.subject.sex, "");
    EXPECT_EQ(after.subject.birthdate, "");
    EXPECT_EQ(after.site.adminCode, "");
    EXPECT_EQ(after.site.technician, "");
    EXPECT_EQ(after.site.equipment, "");
    EXPECT_EQ(after.site.location, "");
    EXPECT_EQ(after.description, "");
    EXPECT_EQ(after.path, "");
    EXPECT_EQ(after.format, before.format);
    EXPECT_EQ(after.start, before.start + shift);
    EXPECT_EQ(after.end, before.end + shift);
    ASSERT_EQ(after.channels.size(), before.channels.size());
    for (std::size_t c = 0; c < after.channels.size(); ++c) {
        const core::ChannelInfo &a = after.channels[c], &b = before.channels[c];
        EXPECT_EQ(a.description, "");
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.start, b.start + shift);
        EXPECT_EQ(a.end, b.end + shift);
        EXPECT_EQ(a.fs, b.fs);
        EXPECT_EQ(a.gridLength, b.gridLength);
        EXPECT_EQ(a.sampleCount, b.sampleCount);
        EXPECT_EQ(a.conversionFactor, b.conversionFactor);
        ASSERT_EQ(a.segments.size(), b.segments.size());
        for (std::size_t s = 0; s < a.segments.size(); ++s)
            EXPECT_EQ(a.segments[s], (core::TimeRange{b.segments[s].start + shift, b.segments[s].end + shift}));
        ASSERT_EQ(a.gaps.size(), b.gaps.size());
        for (std::size_t g = 0; g < a.gaps.size(); ++g)
            EXPECT_EQ(a.gaps[g], (core::TimeRange{b.gaps[g].start + shift, b.gaps[g].end + shift}));
    }
    EXPECT_EQ(after.channels[0].gaps.size(), 1u);
    ASSERT_EQ(after.annotations.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(after.annotations[i].time, before.annotations[i].time + shift);
        EXPECT_EQ(after.annotations[i].durationUs, before.annotations[i].durationUs);
        EXPECT_EQ(after.annotations[i].type, before.annotations[i].type);
        EXPECT_EQ(after.annotations[i].text, "");
        EXPECT_EQ(after.annotations[i].channel, before.annotations[i].channel);
    }
}

TEST(DeidentifiedRecording, SamplesReadTheSameAndADamagedBlocksFileIsCalledTheSource)
{
    auto plain = identifyingSource();
    core::ReadControl control;
    control.skipDamagedBlocks = true;
    const std::vector<std::size_t> both = {0, 1};
    auto want = core::readRange(*plain, both, {plain->info().start, plain->info().end}, control);
    ASSERT_TRUE(want.ok());
    ASSERT_EQ(plain->takeDamage().size(), 1u);

    auto wrapped = DeidentifiedRecording::wrap(identifyingSource(), everything(400));
    auto got = core::readRange(*wrapped, both, {wrapped->info().start, wrapped->info().end}, control);
    ASSERT_TRUE(got.ok());
    for (std::size_t c = 0; c < 2; ++c) {
        EXPECT_EQ((*got)[c].firstSample, (*want)[c].firstSample);
        EXPECT_EQ((*got)[c].raw, (*want)[c].raw);
    }
    const auto damage = wrapped->takeDamage();
    ASSERT_EQ(damage.size(), 1u);
    EXPECT_EQ(damage[0].path, "the source");
    EXPECT_EQ(damage[0].offset, 12345u);
    const core::Annotation a = core::damageAnnotation(wrapped->info(), damage[0]);
    EXPECT_EQ(a.text, "damaged block in the source at byte 12345, samples missing");
    EXPECT_EQ(a.time, kStart + 400 * kDay + 4'000'000); // sample 1024 at 256 Hz, on the moved grid
}

TEST(DeidentifiedRecording, AShiftAloneKeepsTheIdentityAndTheDamagedBlocksFile)
{
    Deidentification d;
    d.shiftDays = 30;
    auto wrapped = DeidentifiedRecording::wrap(identifyingSource(), d);
    EXPECT_EQ(wrapped->info().subject.name, "Haagse Harry");
    EXPECT_EQ(wrapped->info().site.equipment, "Sony");
    EXPECT_EQ(wrapped->info().annotations[0].text, "Harry complains of aura");
    EXPECT_EQ(wrapped->info().start, kStart + 30 * kDay);
    core::ReadControl control;
    control.skipDamagedBlocks = true;
    const std::vector<std::size_t> first = {0};
    ASSERT_TRUE(core::readRange(*wrapped, first, {wrapped->info().start, wrapped->info().end}, control).ok());
    const auto damage = wrapped->takeDamage();
    ASSERT_EQ(damage.size(), 1u);
    EXPECT_EQ(damage[0].path, "/data/Haagse_Harry_2002.edf");
}

TEST(DeidentifiedRecording, NothingAskedGivesTheRecordingItself)
{
    auto source = identifyingSource();
    core::Recording* raw = source.get();
    EXPECT_EQ(DeidentifiedRecording::wrap(std::move(source), {}).get(), raw);
}

TEST(Deidentify, PseudonymsAreSubAndEightHexDigitsAndDiffer)
{
    std::set<std::string> seen;
    for (int i = 0; i < 20; ++i) {
        const std::string p = randomPseudonym();
        EXPECT_TRUE(test::isPseudonym(p)) << p;
        seen.insert(p);
    }
    EXPECT_GT(seen.size(), 15u);
    EXPECT_EQ(randomPseudonym([] { return std::uint64_t{0x1a2b3c4d}; }), "sub-1a2b3c4d");
}

TEST(Deidentify, RandomShiftsGoBack365To3650DaysOrForwardWhenThatPasses1985)
{
    constexpr core::Uutc k1985 = 473'385'600'000'000;
    std::uint64_t next = 0;
    const RandomSource counting = [&] { return next++; };
    std::set<std::int64_t> seen;
    for (int i = 0; i < 3286; ++i) seen.insert(randomShiftDays(kStart, counting));
    EXPECT_EQ(seen.size(), 3286u); // every value of the range, each once
    EXPECT_EQ(*seen.begin(), -3650);
    EXPECT_EQ(*seen.rbegin(), -365);
    for (int i = 0; i < 200; ++i) {
        const std::int64_t d = randomShiftDays(kStart);
        EXPECT_TRUE(d <= -365 && d >= -3650) << d;
    }
    // 1990-01-01: 3650 days back is 1980, so forward; 365 back stays in 1989.
    const core::Uutc start1990 = 631'152'000'000'000;
    EXPECT_EQ(randomShiftDays(start1990, [] { return std::uint64_t{3650 - 365}; }), 3650);
    EXPECT_EQ(randomShiftDays(start1990, [] { return std::uint64_t{0}; }), -365);
    // Exactly 1985-01-01 after the shift is allowed; a microsecond earlier is not.
    EXPECT_EQ(randomShiftDays(k1985 + 365 * kDay, [] { return std::uint64_t{0}; }), -365);
    EXPECT_EQ(randomShiftDays(k1985 + 365 * kDay - 1, [] { return std::uint64_t{0}; }), 365);
    for (int i = 0; i < 200; ++i) {
        const std::int64_t d = randomShiftDays(start1990);
        EXPECT_TRUE((d >= 365 && d <= 3650) || (d <= -365 && start1990 + d * kDay >= k1985)) << d;
    }
}

TEST(Deidentify, ResolveChoosesWhatWasLeftOpenAndRefusesHugeShifts)
{
    auto source = identifyingSource();
    DeidentifyOptions o;
    o.anonymize = true;
    o.shiftDatesRandom = true;
    auto d = resolveDeidentification(o, source->info(), [] { return std::uint64_t{0xdeadbeef00000007}; });
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->subjectId, "sub-00000007");
    EXPECT_EQ(d->shiftDays, -(365 + static_cast<std::int64_t>(0xdeadbeef00000007 % 3286)));
    EXPECT_EQ(d->summary(),
              "de-identified as sub-00000007, dates shifted by " + std::to_string(d->shiftDays) + " days");

    o.subjectId = "P-17";
    o.shiftDays = -400;
    o.dropAnnotationText = true;
    d = resolveDeidentification(o, source->info());
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->subjectId, "P-17");
    EXPECT_EQ(d->shiftDays, -400);
    EXPECT_EQ(d->summary(), "de-identified as P-17, dates shifted by -400 days, annotation texts dropped");

    o.shiftDays = kMaxShiftDays + 1;
    d = resolveDeidentification(o, source->info());
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.error().code, core::ErrorCode::InvalidArgument);
    EXPECT_EQ(d.error().message, "--shift-dates 1000001: at most 1000000 days either way");
}

TEST(Deidentify, RelativeTimesAreNotShiftedAndAWarningSaysSo)
{
    auto source = identifyingSource();
    source->description.timesKnown = false;
    DeidentifyOptions o;
    o.shiftDays = 100;
    auto d = resolveDeidentification(o, source->info());
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->shiftDays, 0);
    EXPECT_EQ(d->summary(), "dates not shifted");
    ASSERT_EQ(d->warnings.size(), 1u);
    const core::Uutc start = source->info().start;
    auto wrapped = DeidentifiedRecording::wrap(std::move(source), *d);
    EXPECT_EQ(wrapped->info().start, start);
    const auto warnings = wrapped->takeWarnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("relative"), std::string::npos);
    EXPECT_TRUE(wrapped->takeWarnings().empty());
}

TEST(Deidentify, AConversionMovesItsSelectionAndRecordsItsProvenance)
{
    std::unique_ptr<core::Recording> r = identifyingSource();
    DeidentifyOptions o;
    o.anonymize = true;
    o.shiftDays = 10;
    Selection selection{{0}, {kStart, kStart + 5'000'000}};
    TargetOptions target;
    auto d = deidentifyConversion(r, o, {"rel/Haagse_Harry_2002.edf"}, selection, target);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(selection.range, (core::TimeRange{kStart + 10 * kDay, kStart + 10 * kDay + 5'000'000}));
    EXPECT_EQ(r->info().start, kStart + 10 * kDay);
    EXPECT_TRUE(target.provenance.sources.empty());
    EXPECT_EQ(target.provenance.text(), std::string("converted by Longview ") + target.provenance.version +
                                            " from EDF+C (de-identified, dates shifted)");

    std::unique_ptr<core::Recording> plain = identifyingSource();
    TargetOptions kept;
    ASSERT_TRUE(deidentifyConversion(plain, {}, {"rel/Haagse_Harry_2002.edf"}, selection, kept).ok());
    const std::string absolute = (std::filesystem::current_path() / "rel/Haagse_Harry_2002.edf").string();
    EXPECT_EQ(kept.provenance.sources, std::vector<std::string>{absolute});
    EXPECT_EQ(kept.provenance.text(),
              std::string("converted by Longview ") + kept.provenance.version + " from EDF+C " + absolute);
}

TEST(Deidentify, AJobResolvesWrapsAndSaysWhatItUsed)
{
    test::TempDir dir;
    ConvertJob job;
    job.inputs = {(test::testdata() / "edf/ref_edflib.edf").string()};
    job.output = (dir.path() / "x.csv").string();
    job.selection.channels = "EEG Fp1"; // a CSV holds one rate
    job.deidentify.anonymize = true;
    job.deidentify.shiftDays = 10;
    const JobResult result = runConvertJob(job, {});
    ASSERT_TRUE(result.ok) << result.error.describe();
    EXPECT_TRUE(test::isPseudonym(result.deidentified.subjectId)) << result.deidentified.subjectId;
    EXPECT_EQ(result.deidentified.shiftDays, 10);
    constexpr core::Uutc kSourceStart = 1'709'288'430'250'000; // ref_edflib.edf: 2024-03-01T10:20:30.25Z
    const auto side = nlohmann::json::parse(test::readBytes(dir.path() / "x.json"));
    EXPECT_EQ(side["start_uutc"].get<core::Uutc>(), kSourceStart + 10 * kDay);
    EXPECT_EQ(side["source"]["paths"], nlohmann::json::array());
    EXPECT_EQ(side["source"]["deidentified"], true);

    ConvertJob plain = job; // no de-identification: the path is recorded, the times kept
    plain.output = (dir.path() / "y.csv").string();
    plain.deidentify = {};
    ASSERT_TRUE(runConvertJob(plain, {}).ok);
    const auto kept = nlohmann::json::parse(test::readBytes(dir.path() / "y.json"));
    EXPECT_EQ(kept["start_uutc"].get<core::Uutc>(), kSourceStart);
    const std::string normal = std::filesystem::absolute(job.inputs.front()).lexically_normal().string();
    EXPECT_EQ(kept["source"]["paths"], nlohmann::json::array({normal})); // absolute, without ".."
}

} // namespace
} // namespace lv::convert
