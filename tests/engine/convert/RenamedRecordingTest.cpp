// --rename: channels (and the annotations on them) go out under new names; the samples are the input's.
#include "support/TestSupport.h"

#include "convert/RenamedRecording.h"
#include "formats/RecordingOpener.h"

#include <gtest/gtest.h>

namespace lv::convert {
namespace {

std::unique_ptr<core::Recording> open(const std::string& session)
{
    auto r = formats::openRecording({(test::testdata() / "mef3/legacy" / session).string(), "", ""});
    EXPECT_TRUE(r.ok()) << r.error().describe();
    return r ? std::move(*r) : nullptr;
}

TEST(RenamedRecording, ChannelsAndTheirAnnotationsTakeTheNewNamesAndReadTheSame)
{
    auto inner = open("with_annotations.mefd");
    ASSERT_TRUE(inner);
    const core::RecordingInfo before = inner->info();
    ASSERT_EQ(before.channels[0].name, "ch1");
    const auto onChannel = [](const core::RecordingInfo& info, const std::string& name) {
        return std::count_if(info.annotations.begin(), info.annotations.end(),
                             [&](const core::Annotation& a) { return a.channel == name; });
    };
    ASSERT_GT(onChannel(before, "ch1"), 0);
    std::vector<std::size_t> first = {0};
    const core::TimeRange all{before.start, before.end};
    auto expected = core::readRange(*inner, first, all, {});
    ASSERT_TRUE(expected.ok());
    auto renamed = RenamedRecording::wrap(std::move(inner), "ch1=EEG Fp1");
    ASSERT_TRUE(renamed.ok()) << renamed.error().describe();
    const core::RecordingInfo& after = (*renamed)->info();
    EXPECT_EQ(after.channels[0].name, "EEG Fp1");
    EXPECT_EQ(onChannel(after, "EEG Fp1"), onChannel(before, "ch1"));
    EXPECT_EQ(onChannel(after, "ch1"), 0);
    EXPECT_EQ(after.annotations.size(), before.annotations.size());
    auto samples = core::readRange(**renamed, first, all, {});
    ASSERT_TRUE(samples.ok());
    EXPECT_EQ((*samples)[0].raw, (*expected)[0].raw);
}

TEST(RenamedRecording, BadPairsUnknownNamesAndClashesAreRefused)
{
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"ch1", "--rename \"ch1\" is not OLD=NEW"},
        {"=a", "--rename \"=a\" is not OLD=NEW"},
        {"ch1=", "--rename \"ch1=\" is not OLD=NEW"},
        {"ch1=a=b", "--rename \"ch1=a=b\" is not OLD=NEW"},
        {"nope=a", "--rename: no channel \"nope\" to rename"},
        {"ch1=a,ch1=b", "--rename names channel \"ch1\" twice"},
        {"ch1=ch2", "--rename: two channels would be named \"ch2\""},
    };
    for (const auto& [text, message] : cases) {
        auto r = RenamedRecording::wrap(open("multi_channel.mefd"), text);
        ASSERT_FALSE(r.ok()) << text;
        EXPECT_EQ(r.error().code, core::ErrorCode::InvalidArgument);
        EXPECT_EQ(r.error().message, message);
    }
    auto swapped = RenamedRecording::wrap(open("multi_channel.mefd"), "ch1=ch2,ch2=ch1");
    ASSERT_TRUE(swapped.ok()) << swapped.error().describe();
    EXPECT_EQ((*swapped)->info().channels[0].name, "ch2");
    EXPECT_EQ((*swapped)->info().channels[1].name, "ch1");
}

} // namespace
} // namespace lv::convert
