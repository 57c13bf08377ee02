// EDF test helpers (see EdfTestSupport.h).
#include "EdfTestSupport.h"

#include "core/Recording.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>

namespace lv::formats::edf::test {

namespace fs = std::filesystem;

std::vector<std::string> referenceFiles()
{
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(lv::test::testdata() / "edf")) {
        const std::string ext = e.path().extension().string();
        if (ext == ".edf" || ext == ".bdf") files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

MneReading readWithMne(const std::string& file)
{
    return lv::test::runPythonDump(LONGVIEW_EDF_TEST_DIR "/mne_dump.py", file);
}

std::vector<std::vector<double>> readAllPhysical(core::Recording& recording)
{
    const core::RecordingInfo& info = recording.info();
    std::vector<std::vector<double>> out;
    for (std::size_t c = 0; c < info.channels.size(); ++c) {
        core::ChannelSamples s;
        s.channel = c;
        s.raw.assign(static_cast<std::size_t>(info.channels[c].gridLength), 0x5a5a5a5a); // readRaw writes every sample
        const core::RawSlice slice{c, 0, s.raw};
        const core::Status st = recording.readRaw(std::span(&slice, 1), {});
        EXPECT_TRUE(st.ok()) << st.error().describe();
        out.push_back(core::toPhysical(s, info.channels[c].conversionFactor, info.channels[c].offset));
    }
    return out;
}

void setField(std::vector<std::uint8_t>& bytes, std::size_t at, std::size_t width, const std::string& text)
{
    std::fill(bytes.begin() + static_cast<std::ptrdiff_t>(at), bytes.begin() + static_cast<std::ptrdiff_t>(at + width),
              ' ');
    std::copy(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(std::min(text.size(), width)),
              bytes.begin() + static_cast<std::ptrdiff_t>(at));
}

std::size_t signalField(std::size_t ns, std::size_t column, std::size_t k)
{
    const std::size_t widths[] = {16, 80, 8, 8, 8, 8, 8, 80, 8, 32};
    std::size_t at = 256;
    for (std::size_t c = 0; c < column; ++c) at += widths[c] * ns;
    return at + k * widths[column];
}

} // namespace lv::formats::edf::test
