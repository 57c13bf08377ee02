// The spectrogram cache file: a round trip keeps every value bit for bit (empty columns too); damaged files are
// errors naming the file and the offset, never a crash or a wrong spectrogram.
#include "spectrum/SpectrogramFile.h"

#include "support/TestSupport.h"

#include <cstring>
#include <gtest/gtest.h>

namespace lv::spectrum {
namespace {

Spectrogram sample()
{
    Spectrogram s;
    s.start = 1'600'000'000'000'000;
    s.columnUs = 4'000'000;
    s.frequencies = {0, 0.5, 1, 1.5};
    s.columns = {{1, 2, 3, 4}, {}, {0.25f, 1e-20f, 0, 7}};
    s.segments = {3, 0, 1};
    return s;
}

TEST(SpectrogramFile, RoundTripsEveryValueAndTheEmptyColumns)
{
    test::TempDir dir;
    const std::string file = (dir.path() / "s.spectrogram").string();
    ASSERT_TRUE(saveSpectrogram(sample(), file).ok());
    auto back = loadSpectrogram(file);
    ASSERT_TRUE(back.ok()) << back.error().describe();
    EXPECT_EQ(back->start, sample().start);
    EXPECT_EQ(back->columnUs, sample().columnUs);
    EXPECT_EQ(back->frequencies, sample().frequencies);
    EXPECT_EQ(back->columns, sample().columns);
    EXPECT_EQ(back->segments, sample().segments);
}

TEST(SpectrogramFile, DamagedFilesAreErrorsAtTheirOffset)
{
    const std::vector<std::uint8_t> good = formatSpectrogram(sample());
    const auto fails = [](std::vector<std::uint8_t> bytes, const std::string& message) {
        auto r = parseSpectrogram(bytes, "x.spectrogram");
        ASSERT_FALSE(r.ok()) << message;
        EXPECT_EQ(r.error().message, message);
        EXPECT_EQ(r.error().path, "x.spectrogram");
    };
    std::vector<std::uint8_t> bytes = good;
    bytes[0] = 'X';
    fails(bytes, "spectrogram file expected (no LVSPGRAM header) (at byte 0)");
    bytes = good;
    bytes[8] = 2;
    fails(bytes, "spectrogram version 2 is not 1 (at byte 8)");
    bytes = good;
    bytes[28] = 0xff; // 255 bins
    fails(bytes, "spectrogram 255 frequency bins do not fit the file (at byte 28)");
    bytes = good;
    const double backwards = 0.25;
    std::memcpy(&bytes[36 + 16], &backwards, 8); // the third frequency below the second
    fails(bytes, "spectrogram frequencies do not rise from 0 (at byte 52)");
    bytes = good;
    const float negative = -1;
    std::memcpy(&bytes[68 + 4], &negative, 4); // the first column's first bin
    fails(bytes, "spectrogram power is negative or not finite (at byte 72)");
    bytes.assign(good.begin(), good.end() - 3); // (a resize to size() - 3 trips GCC's overflow warning under ASan)
    fails(bytes, "spectrogram column 2 ends past the end of the file (at byte 96)");
    bytes = good;
    bytes.push_back(0);
    fails(bytes, "spectrogram file is longer than its columns (at byte 112)");
}

} // namespace
} // namespace lv::spectrum
