// Records of every type the reader knows, built here byte by byte, read back as annotations; damage warns.
#include "support/TestSupport.h"

#include "core/LittleEndian.h"
#include "formats/mef3/Crc32.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/Records.h"

#include <cstring>
#include <gtest/gtest.h>

namespace lv::formats::mef3 {
namespace {

namespace le = core::le;
using Bytes = std::vector<std::uint8_t>;

void putText(Bytes& b, std::size_t at, const std::string& s) { std::memcpy(b.data() + at, s.data(), s.size()); }

// One record: 24-byte header (CRC over bytes 4..end), body padded to 16 with 0x7E.
Bytes record(const std::string& type, std::int64_t time, Bytes body)
{
    while (body.size() % 16) body.push_back(0x7E);
    Bytes r(24 + body.size(), 0);
    putText(r, 4, type);
    r[9] = 1;
    le::store<std::uint32_t>(&r[12], static_cast<std::uint32_t>(body.size()));
    le::store<std::int64_t>(&r[16], time);
    std::copy(body.begin(), body.end(), r.begin() + 24);
    le::store<std::uint32_t>(&r[0], crc32(std::span(r).subspan(4)));
    return r;
}

Bytes rdat(const std::vector<Bytes>& records)
{
    Bytes file(1024, 0);
    putText(file, 8, "rdat");
    file[13] = 3, file[14] = 0, file[15] = 1;
    le::store<std::int64_t>(&file[32], static_cast<std::int64_t>(records.size()));
    for (const Bytes& r : records) file.insert(file.end(), r.begin(), r.end());
    le::store<std::uint32_t>(&file[4], crc32(std::span(file).subspan(1024)));
    le::store<std::uint32_t>(&file[0], crc32(std::span(file).subspan(4, 1020)));
    return file;
}

Bytes textBody(std::size_t fixed, const std::string& text)
{
    Bytes b(fixed + text.size() + 1, 0);
    putText(b, fixed, text);
    return b;
}

std::vector<Bytes> everyType()
{
    Bytes edfa = textBody(8, "spindle");
    le::store<std::int64_t>(&edfa[0], 1500000);
    Bytes seiz(1312 + 272, 0);
    le::store<std::int64_t>(&seiz[16], 42000000);
    le::store<std::int32_t>(&seiz[24], 1);
    putText(seiz, 32, "clinician");
    putText(seiz, 288, "focal onset");
    putText(seiz, 1312, "LA1");
    Bytes curs(160, 0);
    le::store<double>(&curs[24], 12.5);
    putText(curs, 32, "peak");
    Bytes epoc(192, 0);
    le::store<std::int64_t>(&epoc[24], 30000000);
    putText(epoc, 32, "N2");
    putText(epoc, 64, "sleep stage");
    Bytes csti(200, 0);
    putText(csti, 0, "naming");
    le::store<std::int64_t>(&csti[64], 250000);
    putText(csti, 72, "picture");
    putText(csti, 136, "dog");
    Bytes esti(416, 0);
    le::store<double>(&esti[0], 2.0);
    le::store<double>(&esti[8], 50.0);
    le::store<std::int64_t>(&esti[16], 300);
    putText(esti, 32, "biphasic");
    putText(esti, 160, "LA1");
    putText(esti, 288, "LA2");
    return {record("Note", -1000, textBody(0, "hello")),
            record("SyLg", -2000, textBody(0, "log line")),
            record("EDFA", -3000, edfa),
            record("Seiz", -4000, seiz),
            record("Curs", -5000, curs),
            record("Epoc", -6000, epoc),
            record("CSti", -7000, csti),
            record("ESti", -8000, esti),
            record("Xyzw", -9000, Bytes(16, 1))};
}

TEST(Records, EveryKnownTypeIsReadFully)
{
    auto parsed = parseRecords(rdat(everyType()), "r.rdat", {});
    ASSERT_TRUE(parsed.ok()) << parsed.error().describe();
    EXPECT_TRUE(parsed->warnings.empty());
    const auto& r = parsed->records;
    ASSERT_EQ(r.size(), 9u);
    EXPECT_EQ(r[0].text, "hello");
    EXPECT_EQ(r[0].time, -1000);
    EXPECT_EQ(r[1].text, "log line");
    EXPECT_EQ(r[2].text, "spindle");
    EXPECT_EQ(r[2].durationUs, 1500000);
    EXPECT_EQ(r[3].text, "focal onset; marker: clinician; channels: LA1");
    EXPECT_EQ(r[3].durationUs, 42000000);
    EXPECT_EQ(r[4].text, "peak; value: 12.5");
    EXPECT_EQ(r[5].text, "sleep stage; epoch type: N2");
    EXPECT_EQ(r[5].durationUs, 30000000);
    EXPECT_EQ(r[6].text, "task: naming; stimulus: picture; response: dog");
    EXPECT_EQ(r[6].durationUs, 250000);
    EXPECT_EQ(r[7].text, "amplitude: 2; frequency: 50; pulse width: 300; waveform: biphasic; anode: LA1; cathode: LA2");
    EXPECT_EQ(r[8].type, "Xyzw");
    EXPECT_EQ(r[8].text, "");
}

TEST(Records, DamagedRecordWarnsAndCutOffStopsTheWalk)
{
    Bytes file = rdat(everyType());
    file[1024 + 30] ^= 1; // inside the first record's body
    auto parsed = parseRecords(file, "r.rdat", {});
    ASSERT_TRUE(parsed.ok());
    ASSERT_EQ(parsed->warnings.size(), 1u);
    EXPECT_EQ(parsed->warnings[0], "r.rdat (record 0 at byte 1024): record CRC mismatch");
    file.resize(1024 + 24 + 8);
    auto cut = parseRecords(file, "r.rdat", {});
    ASSERT_TRUE(cut.ok());
    EXPECT_TRUE(cut->records.empty());
    ASSERT_EQ(cut->warnings.size(), 1u);
    EXPECT_EQ(cut->warnings[0],
              "r.rdat (record 0 at byte 1024): body runs past the end of the file; the remaining records are not read");
}

// Session-level records become whole-recording annotations at true times (the RTO applied).
TEST(Records, SessionLevelRecordsHaveNoChannel)
{
    test::TempDir dir;
    const auto session = dir.path() / "s.mefd";
    test::copyTree(test::testdata() / "mef3/meflib/meflib_rto.mefd", session);
    test::writeBytes(session / "s.rdat", rdat({record("Note", -18000000000 - 5000000, textBody(0, "session note"))}));
    test::writeBytes(session / "s.ridx", Bytes(1024, 0));
    auto r = openMef3(session.string(), {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const auto& a = (*r)->info().annotations;
    ASSERT_EQ(a.size(), 1u);
    EXPECT_EQ(a[0].text, "session note");
    EXPECT_EQ(a[0].time, 1704103200000000 + 5000000);
    EXPECT_FALSE(a[0].channel.has_value());
}

} // namespace
} // namespace lv::formats::mef3
