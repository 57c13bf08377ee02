// Batch planning: recordings found under folders, outputs named by the inputs' layout and made distinct, shards
// that are disjoint and cover the list.
#include "support/TestSupport.h"

#include "convert/BatchPlan.h"

#include <fstream>
#include <gtest/gtest.h>
#include <set>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

void touch(const fs::path& p)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "x";
}

class BatchPlanning : public ::testing::Test {
protected:
    void SetUp() override
    {
        in = dir.path() / "in";
        out = dir.path() / "out";
        touch(in / "b/r1.edf");
        touch(in / "b/r1.bdf"); // the same name as r1.edf once converted
        touch(in / "a/s.mefd.tar");
        touch(in / "a/notes.txt");                                    // not a recording
        touch(in / "a/x.edf.tmp-1-2");                                // a writer's temporary
        fs::create_directories(in / "a/m.mefd/c.timd/c-000000.segd"); // a session: not searched into
        touch(in / "a/m.mefd/c.timd/inner.edf");
        touch(in / "c/UPPER.EDF");
    }
    std::vector<std::string> outputs(const std::vector<BatchItem>& items) const
    {
        std::vector<std::string> names;
        for (const BatchItem& i : items) names.push_back(fs::path(i.output).lexically_relative(out).string());
        return names;
    }

    test::TempDir dir;
    fs::path in, out;
};

TEST_F(BatchPlanning, FoldersAreSearchedSortedAndTheirLayoutKept)
{
    auto plan = planBatch({in.string()}, out.string(), "mefd");
    ASSERT_TRUE(plan.ok()) << plan.error().describe();
    const std::vector<std::string> expected = {"a/m.mefd", "a/s.mefd", "b/r1_bdf.mefd", "b/r1_edf.mefd",
                                               "c/UPPER.mefd"};
    EXPECT_EQ(outputs(*plan), expected);
    EXPECT_EQ((*plan)[0].input, (in / "a/m.mefd").string());
    EXPECT_FALSE((*plan)[0].renamed);
    EXPECT_TRUE((*plan)[2].renamed);
    EXPECT_TRUE((*plan)[3].renamed);
}

TEST_F(BatchPlanning, AFileArgumentKeepsItsNameAndTheOutputFolderIsNotSearched)
{
    touch(in / "out2/done.edf");
    auto plan = planBatch({(in / "b/r1.edf").string(), in.string()}, (in / "out2").string(), "edf");
    ASSERT_TRUE(plan.ok()) << plan.error().describe();
    std::vector<std::string> names;
    for (const BatchItem& i : *plan) names.push_back(fs::path(i.output).lexically_relative(in / "out2").string());
    // r1.edf is given twice (as a file, then found in its folder): taken once, at its file argument's name, so
    // r1.bdf alone becomes b/r1.edf.
    const std::vector<std::string> expected = {"a/m.edf", "a/s.edf", "b/r1.edf", "c/UPPER.edf", "r1.edf"};
    EXPECT_EQ(names, expected);
}

TEST_F(BatchPlanning, MissingInputsAndFilesThatAreNoRecordingAreRefused)
{
    auto missing = planBatch({(in / "nope").string()}, out.string(), "edf");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, core::ErrorCode::NotFound);
    EXPECT_EQ(missing.error().path, (in / "nope").string());
    auto text = planBatch({(in / "a/notes.txt").string()}, out.string(), "edf");
    ASSERT_FALSE(text.ok());
    EXPECT_EQ(text.error().code, core::ErrorCode::InvalidArgument);
    EXPECT_EQ(text.error().message, "not a recording (.mefd, .mefd.tar, .edf or .bdf) nor a folder");
}

TEST(BatchShards, ShardsAreDisjointAndCoverTheListForOneToSevenTasks)
{
    std::vector<BatchItem> items;
    for (int i = 0; i < 23; ++i) items.push_back({"in" + std::to_string(i), "out" + std::to_string(i), false});
    for (std::size_t n = 1; n <= 7; ++n) {
        std::multiset<std::string> seen;
        std::size_t smallest = items.size(), largest = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const auto mine = shardOf(items, {i, n});
            smallest = std::min(smallest, mine.size());
            largest = std::max(largest, mine.size());
            for (const BatchItem& b : mine) seen.insert(b.input);
        }
        EXPECT_EQ(seen.size(), items.size()) << n;
        for (const BatchItem& b : items) EXPECT_EQ(seen.count(b.input), 1u) << n << " " << b.input;
        EXPECT_LE(largest - smallest, 1u) << n; // balanced
    }
}

TEST(BatchShards, ShardTextsAreIOfNFromZero)
{
    auto s = parseShard("3/4");
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->index, 3u);
    EXPECT_EQ(s->count, 4u);
    for (const char* bad : {"4/4", "1", "a/2", "1/0", "-1/3", "1/2/3", "/2", "1/"}) {
        auto r = parseShard(bad);
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_EQ(r.error().message, std::string("--shard \"") + bad +
                                         "\" is not I/N with 0 <= I < N (a job array of N tasks numbered from 0)");
    }
}

} // namespace
} // namespace lv::convert
