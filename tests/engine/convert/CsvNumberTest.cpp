// CSV values at the channel's resolution: the shortest decimal that reads back to its stored count, on chosen
// values and on every sample of every reference recording (MEF and EDF/BDF).
#include "support/TestSupport.h"

#include "convert/CsvExport.h"
#include "convert/CsvNumber.h"
#include "formats/RecordingOpener.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <sstream>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

std::string value(std::int32_t count, double factor, double offset = 0)
{
    std::string out;
    appendCountValue(out, count, factor, offset);
    return out;
}

std::int64_t countOf(const std::string& text, double factor, double offset)
{
    double v = 0;
    std::from_chars(text.data(), text.data() + text.size(), v);
    return std::llround((v - offset) / factor);
}

TEST(CsvNumber, CountsAreWrittenAtTheirResolution)
{
    EXPECT_EQ(value(297, 0.1), "29.7");
    EXPECT_EQ(value(3812, 0.001), "3.812");
    EXPECT_EQ(value(-7, 1.0), "-7");
    EXPECT_EQ(value(0, 0.1), "0");
    EXPECT_EQ(value(300, 0.1), "30");
    EXPECT_EQ(value(1, 0.09155413138017852), "0.1");         // 0.1 / 0.0915... rounds to 1
    EXPECT_EQ(value(-32768, 0.0976592, -3200.0), "-6400.1"); // -6400 would be count -32767
    EXPECT_EQ(value(3, 1e-9), "3e-09");
    EXPECT_EQ(value(0, 0.1, 3e-13), "0"); // an offset that is a rounding residue (EDF physical ranges)
}

TEST(CsvNumber, TheDecimalFactorsFastPathWritesWhatTheSearchWrites)
{
    std::mt19937 random(11);
    std::uniform_int_distribution<std::int32_t> any(std::numeric_limits<std::int32_t>::min() + 1,
                                                    std::numeric_limits<std::int32_t>::max());
    std::uniform_int_distribution<std::int32_t> small(-100000, 100000);
    for (double factor : {1.0, 0.1, 0.01, 0.001, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 0.2, 0.5, 0.0915}) {
        const CountFormat format(factor, 0.0);
        std::vector<std::int32_t> counts = {0,   1,    -1,  10,      -10,
                                            300, -300, 297, 1000000, std::numeric_limits<std::int32_t>::max()};
        for (int i = 0; i < 20000; ++i) counts.push_back(i % 2 ? any(random) : small(random));
        for (std::int32_t c : counts) {
            std::string fast;
            format.append(fast, c);
            ASSERT_EQ(fast, value(c, factor)) << factor << " " << c;
        }
    }
    std::string withOffset; // an offset: the search
    CountFormat(0.1, 0.05).append(withOffset, 3);
    EXPECT_EQ(withOffset, value(3, 0.1, 0.05));
}

TEST(CsvNumber, EveryValueReadsBackToItsCountAndNoShorterOneDoes)
{
    std::mt19937 random(7);
    std::uniform_int_distribution<std::int32_t> counts(-8'388'608, 8'388'607);
    const double factors[] = {0.1, 0.001, 0.09155413138017852, 1.0, 3.0517578125e-05, 0.25, 123.456, 1e-9, -0.5};
    const double offsets[] = {0.0, -3200.5, 12.25};
    for (double factor : factors)
        for (double offset : offsets)
            for (int i = 0; i < 2000; ++i) {
                const std::int32_t count = counts(random);
                const std::string text = value(count, factor, offset);
                ASSERT_EQ(countOf(text, factor, offset), count) << text << " " << factor << " " << offset;
                // One decimal fewer (rounded) names another count.
                const auto point = text.find('.');
                if (point == std::string::npos || text.find('e') != std::string::npos) continue;
                const int decimals = static_cast<int>(text.size() - point - 1);
                char buf[64];
                const double v = static_cast<double>(count) * factor + offset;
                const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals - 1);
                EXPECT_NE(countOf(std::string(buf, r.ptr), factor, offset), count) << text;
            }
}

// Every cell of a CSV, row by row (the header lines skipped).
std::vector<std::vector<std::string>> cells(const fs::path& csv)
{
    std::ifstream in(csv);
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#' || line.rfind("time", 0) == 0) continue;
        std::vector<std::string> row;
        std::stringstream s(line);
        for (std::string cell; std::getline(s, cell, ',');) row.push_back(cell);
        rows.push_back(std::move(row));
    }
    return rows;
}

TEST(CsvNumber, EveryReferenceRecordingsValuesParseBackToTheExactCounts)
{
    std::vector<fs::path> files;
    for (const char* folder : {"mef3/legacy", "mef3/meflib", "edf"})
        for (const auto& e : fs::directory_iterator(test::testdata() / folder)) {
            const std::string name = e.path().filename().string();
            const bool encrypted = name.find("enc") != std::string::npos;
            if (!encrypted &&
                (e.path().extension() == ".mefd" || e.path().extension() == ".edf" || e.path().extension() == ".bdf"))
                files.push_back(e.path());
        }
    ASSERT_GE(files.size(), 10u);
    std::size_t checked = 0;
    test::TempDir dir;
    for (const fs::path& file : files) {
        auto r = formats::openRecording({file.string(), "", ""});
        ASSERT_TRUE(r.ok()) << r.error().describe();
        const core::RecordingInfo& info = (*r)->info();
        for (std::size_t c = 0; c < info.channels.size(); ++c) { // one channel a file: rates may differ
            const core::ChannelInfo& ch = info.channels[c];
            CsvOptions o;
            o.channels = {c};
            o.range = {info.start, info.end};
            const fs::path physical = dir.path() / ("p" + std::to_string(checked) + ".csv");
            const fs::path raw = dir.path() / ("r" + std::to_string(checked) + ".csv");
            ASSERT_TRUE(exportCsv(**r, o, physical.string(), {}).ok()) << file;
            o.raw = true;
            ASSERT_TRUE(exportCsv(**r, o, raw.string(), {}).ok()) << file;
            const auto values = cells(physical), counts = cells(raw);
            ASSERT_EQ(values.size(), counts.size()) << file;
            for (std::size_t i = 0; i < values.size(); ++i) {
                ASSERT_EQ(values[i].size(), counts[i].size());
                if (values[i].size() < 2 || values[i][1].empty()) continue;
                ASSERT_EQ(countOf(values[i][1], ch.conversionFactor, ch.offset), std::stoll(counts[i][1]))
                    << file << " " << ch.name << " row " << i << ": " << values[i][1];
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 50'000u);
}

} // namespace
} // namespace lv::convert
