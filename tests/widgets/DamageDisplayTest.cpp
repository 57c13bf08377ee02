// A block that fails its CRC is built into frames as a damaged run (a red band, with a status message), never as
// data and never as a NaN run.
#include "TraceBuilder.h"
#include "WidgetTestMain.h"

#include "view/ViewSession.h"

#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

using namespace lv;
namespace fs = std::filesystem;

class DamageDisplayTest : public QObject {
    Q_OBJECT
private slots:
    void aDamagedBlockIsADamagedRunNotDataNorNaN()
    {
        QTemporaryDir dir;
        const fs::path session = fs::path(dir.path().toStdString()) / "s.mefd";
        fs::copy(fs::path(LONGVIEW_TESTDATA) / "mef3/legacy/multi_segment.mefd", session, fs::copy_options::recursive);
        const fs::path tdat = session / "ch1.timd/ch1-000001.segd/ch1-000001.tdat";
        std::vector<char> bytes;
        {
            std::ifstream in(tdat, std::ios::binary);
            bytes.assign(std::istreambuf_iterator<char>(in), {});
        }
        bytes.at(1024 + 304 + 8) ^= 0x10; // inside block 0's compressed data, after its 304-byte header
        std::ofstream(tdat, std::ios::binary | std::ios::trunc).write(bytes.data(), std::streamsize(bytes.size()));

        auto opened = view::ViewSession::open(session.string(), {});
        QVERIFY(opened.ok());
        view::ViewSession& s = **opened;
        const core::ChannelInfo& ch = s.info().channels[0];
        const auto blocks = s.context().source->blocks(0);
        QCOMPARE(blocks.size(), std::size_t{2});
        const core::SampleGrid grid = ch.grid();
        const core::TimeRange damaged{grid.timeOf(blocks[1].first), grid.timeOf(blocks[1].first + blocks[1].count)};

        for (const std::size_t columns : {std::size_t{4000}, std::size_t{40}}) { // samples, then an envelope
            widgets::FrameRequest request{1, {ch.start, ch.end}, {0}, columns, true, 0.5};
            core::CancelToken cancel;
            auto frame = widgets::buildFrame(s, request, cancel);
            QVERIFY(frame);
            QVERIFY2(frame->error.empty(), frame->error.c_str());
            const widgets::ChannelTrace& t = frame->traces.at(0);
            QCOMPARE(t.damagedRuns.size(), std::size_t{1});
            QCOMPARE(t.damagedRuns[0].start, damaged.start);
            QCOMPARE(t.damagedRuns[0].end, std::min(damaged.end, ch.end));
            QVERIFY(t.nanRuns.empty()); // damaged, not NaN
            // No value is drawn inside the damaged block (a column straddling its start may show block 0).
            const double margin = double(ch.end - ch.start) / double(columns) + 1;
            for (std::size_t i = 0; i < t.x.size(); ++i)
                if (t.x[i] * 1e6 + double(s.info().start) > double(damaged.start) + margin)
                    QVERIFY2(std::isnan(t.y[i]), "a value drawn inside the damaged block");
            if (columns == 4000) // the first frame that decoded the block says so, once
                QCOMPARE(frame->damage,
                         std::vector<std::string>{tdat.string() + ": RED block 0: CRC mismatch (at byte 1024); "
                                                                  "shown as damaged"});
            else
                QVERIFY(frame->damage.empty());
        }
    }
};

LONGVIEW_GUILESS_TEST(DamageDisplayTest)
#include "DamageDisplayTest.moc"
