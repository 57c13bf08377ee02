// Rows formatted in pieces: the same bytes on one thread and on several, whatever the row count.
#include "convert/CsvPieces.h"

#include "convert/CsvExport.h"
#include "decode/ThreadPool.h"
#include "formats/mef3/MefRecording.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

std::string joined(const std::vector<std::string>& pieces)
{
    std::string all;
    for (const std::string& p : pieces) all += p;
    return all;
}

TEST(CsvPieces, EveryRowOnceInOrderOnAnyRunner)
{
    decode::ThreadPool two(2), four(4);
    core::InlineRunner inline1;
    for (const std::int64_t rows : {0, 1, 2, 3, 7, 8, 1000}) {
        std::string want;
        for (std::int64_t r = 0; r < rows; ++r) want += std::to_string(r) + "\n";
        for (core::TaskRunner* runner :
             {static_cast<core::TaskRunner*>(nullptr), static_cast<core::TaskRunner*>(&inline1),
              static_cast<core::TaskRunner*>(&two), static_cast<core::TaskRunner*>(&four)}) {
            std::vector<std::string> pieces{"stale text from a previous chunk"};
            formatInPieces(pieces, rows, runner, [](std::string& text, std::int64_t from, std::int64_t to) {
                for (std::int64_t r = from; r < to; ++r) text += std::to_string(r) + "\n";
            });
            EXPECT_EQ(joined(pieces), want) << rows << " rows, " << (runner ? runner->threadCount() : 0) << " threads";
            if (runner && rows >= 8) {
                EXPECT_EQ(pieces.size(), 2 * runner->threadCount());
            }
        }
    }
}

// A whole export on two threads writes the bytes of the export on one.
TEST(CsvPieces, AnExportOnTwoThreadsIsTheExportOnOne)
{
    auto r = formats::mef3::openMef3((test::testdata() / "mef3/legacy/multi_channel.mefd").string(), {});
    ASSERT_TRUE(r.ok());
    test::TempDir dir;
    CsvOptions o;
    o.range = {(*r)->info().start, (*r)->info().end};
    decode::ThreadPool pool(2);
    core::ReadControl threaded;
    threaded.runner = &pool;
    ASSERT_TRUE(exportCsv(**r, o, (dir.path() / "one.csv").string(), {}).ok());
    ASSERT_TRUE(exportCsv(**r, o, (dir.path() / "two.csv").string(), threaded).ok());
    const auto one = test::readBytes(dir.path() / "one.csv");
    EXPECT_GT(one.size(), 20'000u);
    EXPECT_EQ(one, test::readBytes(dir.path() / "two.csv"));
}

} // namespace
} // namespace lv::convert
