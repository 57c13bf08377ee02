// Zarr export: every array of stores we write (v2 and v3) read back by zarr-check (python3-zarr and zarrita, which
// must agree) to the source's counts, the mask or NaN pattern to its gaps, irregular channels' times to the ns; and
// an existing output refused, a cancelled write leaving nothing.
#include "convert/Targets.h"
#include "formats/RecordingOpener.h"
#include "support/MemoryRecording.h"
#include "support/RecordingReads.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<core::Recording> openReference(const std::string& path)
{
    auto r = formats::openRecording({(lv::test::testdata() / path).string(), {}, {}, false});
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
    return r.ok() ? std::move(*r) : nullptr;
}

core::Result<ExportOutcome> write(core::Recording& r, const std::string& out, int version,
                                  ZarrValues values = ZarrValues::Counts, const core::ReadControl& control = {})
{
    Selection all;
    all.range = {r.info().start, r.info().end};
    for (std::size_t c = 0; c < r.info().channels.size(); ++c) all.channels.push_back(c);
    TargetOptions o;
    o.zarrVersion = version;
    o.zarrValues = values;
    return exportTo(r, all, o, out, control);
}

std::string zarrCheck(const std::string& store, const std::string& arguments, int* status)
{
    std::string out;
    *status = lv::test::run((lv::test::testdata().parent_path() / "tools" / "zarr-check").string() + " '" + store +
                                "' " + arguments + " 2>&1",
                            &out);
    return out;
}

// zarr-check --dump: the value texts by index.
std::vector<std::string> dump(const std::string& store, const std::string& array)
{
    int status = 0;
    std::istringstream in(zarrCheck(store, "--dump '" + array + "'", &status));
    EXPECT_EQ(status, 0) << array;
    std::vector<std::string> values;
    std::string line;
    std::getline(in, line); // index,value
    while (std::getline(in, line)) values.push_back(line.substr(line.find(',') + 1));
    return values;
}

// The store's listing: no spec problem, and the node of each array by path.
std::map<std::string, nlohmann::json> nodes(const std::string& store)
{
    int status = 0;
    const std::string out = zarrCheck(store, "--json", &status);
    EXPECT_EQ(status, 0) << out;
    std::map<std::string, nlohmann::json> byPath;
    if (status != 0) return byPath;
    const nlohmann::json j = nlohmann::json::parse(out);
    EXPECT_TRUE(j["differences"].empty()) << j["differences"].dump();
    for (const auto& n : j["nodes"]) byPath[n["path"].get<std::string>()] = n;
    return byPath;
}

// Every channel's counts against the store: values where a sample is, 0 and mask 0 where none (counts), or NaN.
void expectStoreHolds(core::Recording& r, const std::string& store, ZarrValues values, std::size_t channels)
{
    const auto listing = nodes(store);
    for (std::size_t c = 0; c < std::min(channels, r.info().channels.size()); ++c) {
        const core::ChannelInfo& ch = r.info().channels[c];
        SCOPED_TRACE(ch.name);
        const std::vector<std::int32_t> want = lv::test::everyCount(r, c);
        const bool missing = std::count(want.begin(), want.end(), core::kNoSample) > 0;
        ASSERT_TRUE(listing.count("/" + ch.name)) << "no array " << ch.name;
        const nlohmann::json& node = listing.at("/" + ch.name);
        const std::vector<std::string> got = dump(store, ch.name);
        ASSERT_EQ(got.size(), want.size());
        if (values == ZarrValues::Counts) {
            EXPECT_EQ(node["attributes"]["scale_factor"].get<double>(), ch.conversionFactor);
            EXPECT_EQ(listing.count("/" + ch.name + ".mask"), missing ? 1u : 0u);
            const std::vector<std::string> mask = missing ? dump(store, ch.name + ".mask") : std::vector<std::string>();
            for (std::size_t i = 0; i < want.size(); ++i) {
                const bool present = want[i] != core::kNoSample;
                ASSERT_EQ(got[i], std::to_string(present ? want[i] : 0)) << i;
                if (missing) {
                    ASSERT_EQ(mask[i], present ? "1" : "0") << i;
                }
            }
        } else {
            for (std::size_t i = 0; i < want.size(); ++i) {
                if (want[i] == core::kNoSample) {
                    ASSERT_EQ(got[i], "NaN") << i;
                    continue;
                }
                const double physical = want[i] * ch.conversionFactor + ch.offset;
                const double expected = values == ZarrValues::Float32 ? static_cast<float>(physical) : physical;
                ASSERT_EQ(std::stod(got[i]), expected) << i;
            }
        }
    }
}

TEST(ZarrExport, MefSessionsWithGapsAndNaNRunsReadBackByBothReaders)
{
    for (const std::string name : {"nan_gap_long", "multi_segment", "with_annotations"}) {
        SCOPED_TRACE(name);
        auto source = openReference("mef3/legacy/" + name + ".mefd");
        ASSERT_TRUE(source);
        lv::test::TempDir dir;
        const std::string v2 = (dir.path() / (name + ".zarr")).string();
        auto outcome = write(*source, v2, 2);
        ASSERT_TRUE(outcome.ok()) << outcome.error().describe();
        EXPECT_EQ(outcome->files, std::vector<std::string>{v2});
        EXPECT_TRUE(fs::exists(fs::path(v2) / ".zmetadata"));
        expectStoreHolds(*source, v2, ZarrValues::Counts, 2);
        const auto root = nodes(v2).at("/")["attributes"];
        EXPECT_EQ(root["annotations"].size(), source->info().annotations.size());
        EXPECT_EQ(root["format"], "MEF 3.0");
        const std::string v3 = (dir.path() / (name + "-v3.zarr")).string();
        ASSERT_TRUE(write(*source, v3, 3).ok());
        expectStoreHolds(*source, v3, ZarrValues::Counts, 1);
    }
}

// Three chunks of 1 MiB (262,144 int32 counts), the middle one all in a gap (not written: it reads as the fill value),
// the last one partial; a name with a '/' as a node name.
TEST(ZarrExport, LongChannelsSpanSeveralChunksAndAChunkInAGapIsNotWritten)
{
    lv::test::MemoryRecording m;
    m.description.format = "test";
    m.description.path = "memory";
    m.addChannel("A/B", 256, 1'600'000'000'000'000, 700'000, 3000, 260'000, 530'000);
    lv::test::TempDir dir;
    for (int version : {2, 3}) {
        const std::string out = (dir.path() / ("long" + std::to_string(version) + ".zarr")).string();
        ASSERT_TRUE(write(m, out, version).ok());
        int status = 0;
        const std::string listing = zarrCheck(out, "", &status);
        EXPECT_EQ(status, 0) << listing;
        EXPECT_NE(listing.find("array /A_B shape=[700000] chunks=[262144]"), std::string::npos) << listing;
        EXPECT_NE(listing.find("chunks_stored=2/3"), std::string::npos) << listing;
        const auto values = dump(out, "A_B");
        const auto mask = dump(out, "A_B.mask");
        ASSERT_EQ(values.size(), 700'000u);
        ASSERT_EQ(mask.size(), 700'000u);
        for (std::size_t i = 0; i < values.size(); ++i) {
            const bool gap = i >= 260'000 && i < 530'000;
            ASSERT_EQ(values[i], gap ? "0" : std::to_string(static_cast<std::int32_t>(i % 1000) * 3000)) << i;
            ASSERT_EQ(mask[i], gap ? "0" : "1") << i;
        }
        EXPECT_EQ(nodes(out).at("/A_B")["attributes"]["name"], "A/B");
    }
}

TEST(ZarrExport, FloatArraysHoldPhysicalValuesWithNaNWhereNoSampleIs)
{
    auto source = openReference("mef3/legacy/nan_gap_long.mefd");
    ASSERT_TRUE(source);
    lv::test::TempDir dir;
    for (const auto& [version, values] : {std::pair{2, ZarrValues::Float32}, std::pair{3, ZarrValues::Float64}}) {
        const std::string out = (dir.path() / ("f" + std::to_string(version) + ".zarr")).string();
        ASSERT_TRUE(write(*source, out, version, values).ok());
        expectStoreHolds(*source, out, values, 1);
    }
}

TEST(ZarrExport, IrregularChannelsHaveTheirTimesToTheNanosecond)
{
    auto source = openReference("mdf4/Vector_SingleDZ_Unsorted.MF4");
    ASSERT_TRUE(source);
    std::size_t c = 0;
    while (c < source->info().channels.size() && !source->info().channels[c].irregular) ++c;
    ASSERT_LT(c, source->info().channels.size());
    const core::ChannelInfo& ch = source->info().channels[c];
    lv::test::TempDir dir;
    const std::string out = (dir.path() / "events.zarr").string();
    ASSERT_TRUE(write(*source, out, 3).ok());
    std::vector<std::int64_t> times(static_cast<std::size_t>(ch.sampleCount));
    const core::TimeSlice slice{c, 0, times};
    ASSERT_TRUE(source->readTimes(std::span(&slice, 1), {}).ok());
    const std::vector<std::string> got = dump(out, ch.name + ".time");
    ASSERT_EQ(got.size(), times.size());
    for (std::size_t i = 0; i < times.size(); ++i) ASSERT_EQ(got[i], std::to_string(times[i])) << i;
    EXPECT_EQ(nodes(out).at("/" + ch.name)["attributes"]["times"], ch.name + ".time");
}

// The checker itself on stores the reference implementations wrote (testdata/zarr's NOTICE gives their values):
// python3-zarr's v2 store and zarrita's v3 one, unwritten chunks as the fill value.
TEST(ZarrExport, TheCheckerReadsTheReferenceImplementationsStores)
{
    const std::string v2 = (lv::test::testdata() / "zarr/v2_python-zarr_zstd.zarr").string();
    const auto signals = dump(v2, "recording/signals");
    ASSERT_EQ(signals.size(), 2500u);
    for (std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{2499}}) {
        std::string row;
        for (int k : {1, 7, 31, 127})
            row += (row.empty() ? "" : " ") + std::to_string(static_cast<long>((i * k) % 60001) - 30000);
        EXPECT_EQ(signals[i], row) << i;
    }
    const auto time = dump(v2, "recording/time");
    ASSERT_EQ(time.size(), 2500u);
    EXPECT_EQ(time[1], "0.00390625");
    EXPECT_EQ(time[1500], "NaN"); // chunk 1 never written
    const std::string v3 = (lv::test::testdata() / "zarr/v3_zarrita_zstd_nan.zarr").string();
    const auto index = dump(v3, "recording/sample_index");
    ASSERT_EQ(index.size(), 2500u);
    EXPECT_EQ(index[3], std::to_string(3 * 1000000007LL));
    EXPECT_EQ(nodes(v3).at("/recording")["attributes"]["start_time"], "2024-03-01T10:20:30.250Z");
}

TEST(ZarrExport, AnExistingOutputIsRefusedAndACancelledWriteLeavesNothing)
{
    auto source = openReference("mef3/legacy/multi_segment.mefd");
    ASSERT_TRUE(source);
    lv::test::TempDir dir;
    fs::create_directory(dir.path() / "taken.zarr");
    auto refused = write(*source, (dir.path() / "taken.zarr").string(), 2);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().describe(),
              (dir.path() / "taken.zarr").string() + ": the output already exists; choose a new name");
    core::CancelToken cancel;
    cancel.cancel();
    core::ReadControl control;
    control.cancel = &cancel;
    auto cancelled = write(*source, (dir.path() / "gone.zarr").string(), 2, ZarrValues::Counts, control);
    ASSERT_FALSE(cancelled.ok());
    EXPECT_EQ(cancelled.error().code, core::ErrorCode::Cancelled);
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(dir.path())) left.push_back(e.path().filename().string());
    EXPECT_EQ(left, std::vector<std::string>{"taken.zarr"});
    auto four = write(*source, (dir.path() / "four.zarr").string(), 4);
    ASSERT_FALSE(four.ok());
    EXPECT_EQ(four.error().message, "Zarr version 4 is not written (2 or 3)");
}

} // namespace
} // namespace lv::convert
