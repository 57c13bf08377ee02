// The identifying sources: an EDF+ file written through exportEdf from a recording held in memory, a MEF session
// through SessionWriter, and the strings they must not leak.
#include "IdentifyingSources.h"

#include "convert/EdfExport.h"
#include "formats/mef3/SessionWriter.h"
#include "support/MemoryRecording.h"

#include <algorithm>
#include <cctype>
#include <gtest/gtest.h>

namespace lv::cli::test {

namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kSamples = 256 * 20;

std::vector<core::Annotation> annotations()
{
    return {{kSourceStart + 2'000'000, 0, "Note", "Harry complains of aura", std::nullopt},
            {kSourceStart + 5'000'000, 1'500'000, "Seiz", "Mr Haagse bit his tongue", std::string("Fp1")},
            {kSourceStart + 9'000'000, 0, "EDFA", "mother (MCH-0234567) entered", std::nullopt}};
}

} // namespace

fs::path writeIdentifyingEdf(const fs::path& dir)
{
    lv::test::MemoryRecording r;
    r.addChannel("Fp1", 256.0, kSourceStart, kSamples, 3);
    r.addChannel("Fp2", 256.0, kSourceStart, kSamples, 5);
    r.description.format = "MEF 3.0";
    r.description.subject = {"MCH-0234567", "Haagse Harry", "F", "1951-05-02"};
    r.description.site = {"EMG561", "BK/JOP", "Sony", ""};
    r.description.annotations = annotations();
    const fs::path path = dir / "Haagse_Harry_2002.edf";
    convert::EdfExportOptions o;
    o.range = {r.info().start, r.info().end};
    auto written = convert::exportEdf(r, o, path.string(), {});
    EXPECT_TRUE(written.ok()) << written.error().describe();
    return path;
}

fs::path writeIdentifyingMef(const fs::path& dir)
{
    const fs::path path = dir / "Haagse_Harry_2002.mefd";
    formats::mef3::WriterOptions o;
    o.blockSeconds = 1.0;
    o.subject = {"MCH-0234567", "Haagse Harry", "", ""};
    o.recordingLocation = "Leiden Lab 4";
    o.sessionDescription = "recorded at the Haagse ward";
    auto w = formats::mef3::SessionWriter::create(path.string(), o);
    EXPECT_TRUE(w.ok()) << w.error().describe();
    if (!w) return path;
    const core::SampleGrid grid{kSourceStart, 256.0};
    for (const char* name : {"Fp1", "Fp2"}) {
        auto c = (*w)->addChannel({name, 256.0, "uV", 0.5, "contact AX-12 near Harry's scar"});
        EXPECT_TRUE(c.ok());
        std::vector<std::int32_t> samples(kSamples);
        for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<std::int32_t>(i % 700) - 350;
        EXPECT_TRUE((*w)->append(*c, grid, 0, samples).ok());
    }
    for (const core::Annotation& a : annotations()) (*w)->addAnnotation(a);
    EXPECT_TRUE((*w)->finish().ok());
    return path;
}

std::vector<Identifying> identifyingStrings()
{
    return {{"haagse", true},          {"harry", true},
            {"MCH-0234567", false},    {"0234567", false},
            {"1951-05-02", false},     {"02-MAY-1951", false},
            {"02.05.51", false},       {"EMG561", false},
            {"BK/JOP", false},         {"Sony", false},
            {"Leiden", false},         {"Lab 4", false},
            {"AX-12", false},          {"complains of aura", false},
            {"bit his tongue", false}, {"entered", false},
            {"2002-03-02", false},     {"02-MAR-2002", false},
            {"02.03.02", false},       {"1015063200", false}};
}

std::string findIdentifying(const std::vector<std::uint8_t>& bytes)
{
    std::string lower(bytes.begin(), bytes.end());
    const std::string exact = lower;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
    for (const Identifying& s : identifyingStrings())
        if ((s.anyCase ? lower : exact).find(s.text) != std::string::npos) return s.text;
    return {};
}

} // namespace lv::cli::test
