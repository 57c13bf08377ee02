// The MDF 4 writer read back by our reader: the block tree (names, units, types, conversions, counts), values and
// invalid samples exact, DZ blocks transposed under DL lists (chained when long) under an HL, events; nothing left
// behind when a writer is dropped or its target exists.
#include "formats/mdf4/Mdf4Writer.h"

#include "core/LittleEndian.h"
#include "decode/ThreadPool.h"
#include "formats/mdf4/Mdf4Block.h"
#include "formats/mdf4/Mdf4Data.h"
#include "formats/mdf4/Mdf4Structure.h"
#include "io/ByteSource.h"
#include "support/TestSupport.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <iomanip>

using namespace lv::formats::mdf4;
namespace fs = std::filesystem;

namespace {

// Reports several threads, runs every job inline: the writer's batches of blocks without threads.
class WideRunner final : public lv::core::TaskRunner {
public:
    void parallelFor(std::size_t count, const std::function<void(std::size_t)>& job) override
    {
        for (std::size_t i = 0; i < count; ++i) job(i);
    }
    std::size_t threadCount() const override { return 3; }
};

// Group 0: int16 "a" (linear, uV), int32 "b" (identity, no unit), float64 "c"; group 1: int32 "d" (linear).
FileSpec twoGroups(std::uint64_t zipBytes)
{
    FileSpec spec;
    spec.startNs = 1'700'000'000'123'456'000;
    spec.comment = "converted by test from <nowhere> & back";
    spec.program = "Longview";
    spec.version = "9.9";
    spec.historyNs = 1'800'000'000'000'000'000;
    spec.zipBytes = zipBytes;
    spec.groups.push_back({"256 Hz",
                           "",
                           {{"a", "uV", "", ValueType::Int16, true, 0.5, -3.25},
                            {"b", "", "", ValueType::Int32, false, 1.0, 0.0},
                            {"c", "degC", "a float", ValueType::Float64, false, 1.0, 0.0}}});
    spec.groups.push_back({"10 Hz", "", {{"d", "mV", "", ValueType::Int32, true, 1e-3, 0.0}}});
    return spec;
}

struct Expected {
    std::vector<double> time, a, b, c, d, dTime;
};

// Writes `n` records to group 0 (every 7th has "a" invalid, every 11th "b") and n / 10 to group 1.
Expected writeRecords(Mdf4Writer& w, std::size_t n)
{
    Expected e;
    const RecordLayout& l0 = w.layout(0);
    EXPECT_EQ(l0.dataBytes, 8u + 2 + 4 + 8);
    EXPECT_EQ(l0.invalidBytes, 1u);
    std::vector<std::uint8_t> records(n * l0.recordBytes(), 0);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint8_t* r = records.data() + i * l0.recordBytes();
        const double t = 0.5 + static_cast<double>(i) / 256.0;
        const auto a = static_cast<std::int16_t>(static_cast<int>(i % 65536) - 32768);
        const auto b = static_cast<std::int32_t>(i * 40503u);
        const double c = std::sin(static_cast<double>(i));
        std::memcpy(r, &t, 8);
        std::memcpy(r + l0.offsets[0], &a, 2);
        std::memcpy(r + l0.offsets[1], &b, 4);
        std::memcpy(r + l0.offsets[2], &c, 8);
        if (i % 7 == 0) r[l0.dataBytes] |= 1;
        if (i % 11 == 0) r[l0.dataBytes] |= 2;
        e.time.push_back(t);
        e.a.push_back(i % 7 == 0 ? NAN : a * 0.5 + -3.25);
        e.b.push_back(i % 11 == 0 ? NAN : static_cast<double>(b));
        e.c.push_back(c);
    }
    // In two appends, the second not a whole block: the writer keeps the remainder.
    EXPECT_TRUE(w.append(0, std::span(records).first(n / 3 * l0.recordBytes())).ok());
    EXPECT_TRUE(w.append(0, std::span(records).subspan(n / 3 * l0.recordBytes())).ok());
    const RecordLayout& l1 = w.layout(1);
    std::vector<std::uint8_t> slow(n / 10 * l1.recordBytes(), 0);
    for (std::size_t i = 0; i < n / 10; ++i) {
        std::uint8_t* r = slow.data() + i * l1.recordBytes();
        const double t = static_cast<double>(i) / 10.0;
        const auto d = static_cast<std::int32_t>(i) - 1'000'000'000;
        std::memcpy(r, &t, 8);
        std::memcpy(r + l1.offsets[0], &d, 4);
        e.dTime.push_back(t);
        e.d.push_back(d * 1e-3 + 0.0);
    }
    EXPECT_TRUE(w.append(1, slow).ok());
    return e;
}

const Channel* channelNamed(const ChannelGroup& g, const std::string& name)
{
    for (const Channel& c : g.channels)
        if (c.name == name) return &c;
    return nullptr;
}

void expectSame(const std::vector<double>& got, const std::vector<double>& want, const std::string& what)
{
    ASSERT_EQ(got.size(), want.size()) << what;
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i]))
            ASSERT_TRUE(std::isnan(got[i])) << what << " " << i;
        else
            ASSERT_EQ(got[i], want[i]) << what << " " << i << std::setprecision(17) << " " << got[i] << " " << want[i];
    }
}

class Mdf4Written : public ::testing::Test {
protected:
    lv::test::TempDir dir;
    std::string target() const { return (dir.path() / "out.mf4").string(); }
};

} // namespace

TEST_F(Mdf4Written, ReadsBackExactlyThroughOurReader)
{
    WideRunner runner;
    auto w = Mdf4Writer::create(target(), twoGroups(std::uint64_t{1} << 20), &runner);
    ASSERT_TRUE(w.ok()) << w.error().describe();
    const Expected e = writeRecords(**w, 200'000); // 4.6 MB: five DZ blocks of 1 MiB in group 0
    (*w)->addEvent({2'500'000, 1e-6, EventSpec::Range::Point, 0, "Note", "x < y", false, std::nullopt});
    ASSERT_TRUE((*w)->commit().ok());
    w->reset();

    auto file = lv::io::openFile(target());
    ASSERT_TRUE(file.ok()) << file.error().describe();
    auto s = readStructure(**file);
    ASSERT_TRUE(s.ok()) << s.error().describe();
    EXPECT_EQ(s->version, "4.10");
    EXPECT_EQ(s->program, "Longview");
    EXPECT_FALSE(s->unfinished);
    EXPECT_EQ(s->startNs, 1'700'000'000'123'456'000u);
    EXPECT_EQ(s->timeFlags, 0);
    EXPECT_EQ(s->comment, "<HDcomment><TX>converted by test from &lt;nowhere&gt; &amp; back</TX></HDcomment>");
    EXPECT_NE(s->eventLink, 0u);
    ASSERT_EQ(s->dataGroups.size(), 2u);
    const DataGroup& dg = s->dataGroups[0];
    ASSERT_EQ(dg.groups.size(), 1u);
    EXPECT_EQ(dg.recordIdBytes, 0);
    const ChannelGroup& g = dg.groups[0];
    EXPECT_EQ(g.acquisitionName, "256 Hz");
    EXPECT_EQ(g.cycleCount, 200'000u);
    ASSERT_EQ(g.channels.size(), 4u);
    const Channel& time = g.channels[0];
    EXPECT_EQ(time.name, "time");
    EXPECT_EQ(time.unit, "s");
    EXPECT_EQ(time.kind, ChannelKind::Master);
    EXPECT_EQ(time.sync, SyncKind::Time);
    EXPECT_EQ(time.dataType, DataType::FloatLe);
    const Channel* a = channelNamed(g, "a");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->unit, "uV");
    EXPECT_EQ(a->dataType, DataType::IntLe);
    EXPECT_EQ(a->bitCount, 16u);
    ASSERT_TRUE(a->hasConversion);
    EXPECT_EQ(a->conversion->kind, ConversionKind::Linear);
    EXPECT_TRUE(a->hasInvalidationBit());
    const Channel* b = channelNamed(g, "b");
    ASSERT_NE(b, nullptr);
    EXPECT_FALSE(b->hasConversion); // factor 1, offset 0: no CC
    EXPECT_EQ(b->bitCount, 32u);
    const Channel* c = channelNamed(g, "c");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->dataType, DataType::FloatLe);
    EXPECT_EQ(c->comment, "a float");

    auto records = readDataGroupBytes(**file, dg);
    ASSERT_TRUE(records.ok()) << records.error().describe();
    const auto values = [&](const DataGroup& d, const ChannelGroup& cg, const Channel& ch,
                            const std::vector<std::uint8_t>& r) {
        auto v = channelValues(**file, d, cg, ch, r);
        EXPECT_TRUE(v.ok()) << v.error().describe();
        return v.ok() ? *v : std::vector<double>{};
    };
    expectSame(values(dg, g, time, *records), e.time, "time");
    expectSame(values(dg, g, *a, *records), e.a, "a");
    expectSame(values(dg, g, *b, *records), e.b, "b");
    expectSame(values(dg, g, *c, *records), e.c, "c");
    const DataGroup& slow = s->dataGroups[1];
    auto slowRecords = readDataGroupBytes(**file, slow);
    ASSERT_TRUE(slowRecords.ok()) << slowRecords.error().describe();
    const ChannelGroup& sg = slow.groups[0];
    EXPECT_EQ(sg.cycleCount, 20'000u);
    expectSame(values(slow, sg, sg.channels[0], *slowRecords), e.dTime, "d time");
    expectSame(values(slow, sg, *channelNamed(sg, "d"), *slowRecords), e.d, "d");
}

// Every data group is an HL over DL blocks (chained past 1024 entries) of DZ blocks: transposed deflate of a DT,
// the record size as its parameter, whole records in every block.
TEST_F(Mdf4Written, DataIsTransposedDeflateUnderListsUnderAnHl)
{
    auto w = Mdf4Writer::create(target(), twoGroups(23 * 16)); // 16 records a block: 1250 blocks in group 0
    ASSERT_TRUE(w.ok()) << w.error().describe();
    const Expected e = writeRecords(**w, 20'000);
    ASSERT_TRUE((*w)->commit().ok());
    w->reset();
    auto file = lv::io::openFile(target());
    ASSERT_TRUE(file.ok());
    auto s = readStructure(**file);
    ASSERT_TRUE(s.ok()) << s.error().describe();
    auto hl = readBlock(**file, s->dataGroups[0].dataLink, {"HL"});
    ASSERT_TRUE(hl.ok()) << hl.error().describe();
    EXPECT_EQ(lv::core::le::u8(hl->data, 2), 1); // hl_zip_type: transposed deflate
    std::vector<std::uint64_t> zipped;
    int lists = 0;
    for (std::uint64_t at = hl->link(0); at != 0; ++lists) {
        auto dl = readBlock(**file, at, {"DL"});
        ASSERT_TRUE(dl.ok()) << dl.error().describe();
        const std::uint32_t count = lv::core::le::u32(dl->data, 4);
        EXPECT_LE(count, Mdf4Writer::kListEntries);
        for (std::uint32_t i = 0; i < count; ++i) {
            EXPECT_EQ(lv::core::le::u64(dl->data, 8 + i * 8), zipped.size() * 23 * 16); // offsets in the stream
            zipped.push_back(dl->link(1 + i));
        }
        at = dl->link(0);
    }
    EXPECT_EQ(lists, 2);
    ASSERT_EQ(zipped.size(), 1250u);
    for (const std::uint64_t at : zipped) {
        auto dz = readBlock(**file, at, {"DZ"});
        ASSERT_TRUE(dz.ok()) << dz.error().describe();
        EXPECT_EQ(std::string(reinterpret_cast<const char*>(dz->data.data()), 2), "DT");
        EXPECT_EQ(lv::core::le::u8(dz->data, 2), 1);                 // transposed deflate
        EXPECT_EQ(lv::core::le::u32(dz->data, 4), 23u);              // columns: the record size
        EXPECT_EQ(lv::core::le::u64(dz->data, 8), 23u * 16);         // whole records
        EXPECT_EQ(lv::core::le::u64(dz->data, 16), dz->length - 48); // exact length
    }
    auto records = readDataGroupBytes(**file, s->dataGroups[0]);
    ASSERT_TRUE(records.ok()) << records.error().describe();
    const ChannelGroup& g = s->dataGroups[0].groups[0];
    auto a = channelValues(**file, s->dataGroups[0], g, *channelNamed(g, "a"), *records);
    ASSERT_TRUE(a.ok());
    expectSame(*a, e.a, "a");
}

TEST_F(Mdf4Written, EventsKeepTheirRangesScopesAndTexts)
{
    auto w = Mdf4Writer::create(target(), twoGroups(std::uint64_t{1} << 20));
    ASSERT_TRUE(w.ok());
    (*w)->addEvent(
        {1'000, 1e-6, EventSpec::Range::Begin, 0, "Seiz", "", false, std::pair<std::size_t, std::size_t>(0, 1)});
    (*w)->addEvent(
        {3'000, 1e-6, EventSpec::Range::End, 0, "Seiz", "", false, std::pair<std::size_t, std::size_t>(0, 1)});
    (*w)->addEvent({5'000, 1e-6, EventSpec::Range::Point, 0, "Damaged", "block", true, std::nullopt});
    ASSERT_TRUE((*w)->commit().ok());
    w->reset();
    auto file = lv::io::openFile(target());
    ASSERT_TRUE(file.ok());
    auto s = readStructure(**file);
    ASSERT_TRUE(s.ok()) << s.error().describe();
    std::vector<Block> events;
    for (std::uint64_t at = s->eventLink; at != 0;) {
        auto ev = readBlock(**file, at, {"EV"});
        ASSERT_TRUE(ev.ok()) << ev.error().describe();
        events.push_back(*ev);
        at = ev->link(0);
    }
    ASSERT_EQ(events.size(), 3u);
    EXPECT_EQ(lv::core::le::u8(events[0].data, 2), 1); // range begin
    EXPECT_EQ(lv::core::le::u8(events[1].data, 2), 2); // range end
    EXPECT_EQ(events[1].link(2), events[0].offset);    // the end names its begin
    EXPECT_EQ(lv::core::le::u32(events[0].data, 8), 1u);
    EXPECT_EQ(events[0].link(5), s->dataGroups[0].groups[0].channels[2].offset); // channel "b"
    EXPECT_EQ(lv::core::le::i64(events[1].data, 16), 3'000);
    EXPECT_EQ(lv::core::le::f64(events[1].data, 24), 1e-6);
    EXPECT_EQ(lv::core::le::u8(events[2].data, 3), 2); // cause: tool
    auto name = readText(**file, events[2].link(3));
    ASSERT_TRUE(name.ok());
    EXPECT_EQ(*name, "Damaged");
    auto comment = readText(**file, events[2].link(4));
    ASSERT_TRUE(comment.ok());
    EXPECT_EQ(*comment, "block");
}

TEST_F(Mdf4Written, ADroppedWriterLeavesNothingAndAnExistingTargetIsKept)
{
    {
        auto w = Mdf4Writer::create(target(), twoGroups(std::uint64_t{1} << 20));
        ASSERT_TRUE(w.ok());
        writeRecords(**w, 1000);
    }
    EXPECT_TRUE(fs::is_empty(dir.path()));
    lv::test::writeBytes(target(), {1, 2, 3});
    auto w = Mdf4Writer::create(target(), twoGroups(std::uint64_t{1} << 20));
    ASSERT_TRUE(w.ok());
    writeRecords(**w, 1000);
    const lv::core::Status st = (*w)->commit();
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("already exists"), std::string::npos) << st.error().message;
    w->reset();
    EXPECT_EQ(lv::test::readBytes(target()), (std::vector<std::uint8_t>{1, 2, 3}));
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

// Blocks of several groups (appends that switch groups, as a wide file's export does) are compressed on the runner's
// other threads while the caller goes on, and written in the order they were made: the file of any runner is the
// file of none, byte for byte.
TEST_F(Mdf4Written, BlocksOfGroupsCompressedSideBySideMakeTheFileOfOneThread)
{
    const auto write = [&](lv::core::TaskRunner* runner, const std::string& name) {
        const std::string path = (dir.path() / name).string();
        auto w = Mdf4Writer::create(path, twoGroups(4096), runner);
        EXPECT_TRUE(w.ok());
        for (std::size_t round = 0; round < 40; ++round)
            for (std::size_t g = 0; g < 2; ++g) {
                const std::size_t bytes = (*w)->layout(g).recordBytes();
                std::vector<std::uint8_t> records((100 + 37 * round + 50 * g) * bytes);
                for (std::size_t i = 0; i < records.size(); ++i)
                    records[i] = static_cast<std::uint8_t>((i * 7 + round * 13 + g) % 251 < 60 ? i % 5 : i % 3);
                EXPECT_TRUE((*w)->append(g, records).ok());
            }
        EXPECT_TRUE((*w)->commit().ok());
        return lv::test::readBytes(path);
    };
    const std::vector<std::uint8_t> alone = write(nullptr, "alone.mf4");
    WideRunner wide;
    lv::decode::ThreadPool two(2);
    EXPECT_TRUE(write(&wide, "wide.mf4") == alone); // (not EXPECT_EQ: it would print every byte)
    EXPECT_TRUE(write(&two, "two.mf4") == alone);
    auto file = lv::io::openFile((dir.path() / "two.mf4").string());
    ASSERT_TRUE(file.ok());
    auto s = readStructure(**file);
    ASSERT_TRUE(s.ok()) << s.error().describe();
    EXPECT_EQ(s->dataGroups[0].groups[0].cycleCount, 40u * 100 + 37 * 780);
}

// A writer dropped while a pool's thread compresses its blocks waits for them (ASan: no use after free) and leaves
// nothing behind.
TEST_F(Mdf4Written, AWriterDroppedWithBlocksInFlightWaitsForThemAndLeavesNothing)
{
    lv::decode::ThreadPool two(2);
    for (int round = 0; round < 5; ++round) {
        {
            auto w = Mdf4Writer::create(target(), twoGroups(std::uint64_t{1} << 18), &two);
            ASSERT_TRUE(w.ok());
            writeRecords(**w, 60'000); // 1.4 MB: blocks of 256 KiB, several in flight
        }
        EXPECT_TRUE(fs::is_empty(dir.path()));
    }
}
