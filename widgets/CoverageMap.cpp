// Column states from envelope flags, own gaps and pyramid NaN bins; the image painted run by run, state by state.
#include "CoverageMap.h"

#include "cache/SampleTimes.h"
#include "view/ViewSession.h"

#include <QPainter>
#include <algorithm>
#include <cmath>
#include <optional>
#include <span>

namespace lv::widgets {

namespace {

constexpr double kNoDecodeSmear = 1e9; // every partly covered block adds its stored extrema: nothing is decoded

// Columns [a, b) that the time range [t0, t1) touches.
std::pair<std::size_t, std::size_t> columnsOf(const CoverageMap& map, core::Uutc t0, core::Uutc t1)
{
    const double d = static_cast<double>(std::max<core::Uutc>(map.range.duration(), 1));
    const double w = static_cast<double>(map.columns);
    const auto clampColumn = [&](double c) { return static_cast<std::size_t>(std::clamp(c, 0.0, w)); };
    std::size_t a = clampColumn(std::floor(static_cast<double>(t0 - map.range.start) / d * w));
    std::size_t b = clampColumn(std::ceil(static_cast<double>(t1 - map.range.start) / d * w));
    while (a > 0 && map.timeOf(a) > t0) --a; // exact against timeOf's integer edges
    while (a < b && map.timeOf(a + 1) <= t0) ++a;
    while (b < map.columns && map.timeOf(b) < t1) ++b;
    while (b > a && map.timeOf(b - 1) >= t1) --b;
    return {a, b};
}

void mark(std::vector<Coverage>& row, std::pair<std::size_t, std::size_t> columns, Coverage state)
{
    for (std::size_t k = columns.first; k < columns.second; ++k) row[k] = std::max(row[k], state);
}

QColor opaque(QColor c)
{
    c.setAlpha(255);
    return c;
}

QColor mix(const QColor& a, const QColor& b, double f)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - f) + b.redF() * f),
                            static_cast<float>(a.greenF() * (1 - f) + b.greenF() * f),
                            static_cast<float>(a.blueF() * (1 - f) + b.blueF() * f));
}

} // namespace

core::Uutc CoverageMap::timeOf(std::size_t column) const
{
    if (columns == 0) return range.start;
    return range.start + static_cast<core::Uutc>(static_cast<__int128>(range.duration()) *
                                                 static_cast<__int128>(column) / static_cast<__int128>(columns));
}

bool CoverageMap::complete() const
{
    for (const auto& row : channels)
        if (std::find(row.begin(), row.end(), Coverage::Unchecked) != row.end()) return false;
    return true;
}

CoverageMap computeCoverage(view::ViewSession& session, const GapBands& bands, std::size_t columns,
                            const core::CancelToken& cancel)
{
    const core::RecordingInfo& info = session.info();
    CoverageMap map;
    map.range = {info.start, info.end};
    map.columns = columns;
    core::ReadControl control;
    control.cancel = &cancel;
    const core::BlockSource& source = *session.context().source;
    const std::uint32_t bin = session.pyramid().binSamples();
    for (std::size_t c = 0; c < info.channels.size(); ++c) {
        if (cancel.cancelled()) return {};
        std::vector<Coverage> row(columns, Coverage::None);
        const core::ChannelInfo& ch = info.channels[c];
        const core::SampleGrid grid = ch.grid();
        // The times of samples [first, end): from the grid, or an irregular channel's own times.
        const auto timesOf = [&](std::int64_t first, std::int64_t end) {
            if (!ch.irregular) return core::TimeRange{grid.timeOf(first), grid.timeOf(end)};
            const auto span = cache::timeSpanOf(session.context().times, ch, c, first, end);
            return span ? *span : core::TimeRange{};
        };
        const auto [a, b] = columnsOf(map, ch.start, ch.end);
        if (b > a && ch.gridLength > 0) {
            const std::span<const core::BlockSpan> blocks = source.blocks(c);
            // The envelope decodes a block that has neither stored extrema nor bins (EDF before its pyramid); an
            // irregular channel has no grid envelope: block by block.
            const bool decodeFree =
                !ch.irregular && std::all_of(blocks.begin(), blocks.end(), [&](const core::BlockSpan& s) {
                    return s.hasExtrema || session.pyramid().find(c, static_cast<std::size_t>(&s - blocks.data()));
                });
            auto envelope =
                decodeFree ? session.envelope(c, {std::max(map.timeOf(a), ch.start), std::min(map.timeOf(b), ch.end)},
                                              b - a, kNoDecodeSmear, control)
                           : core::Result<std::vector<cache::EnvelopeColumn>>(
                                 core::makeError(core::ErrorCode::Unsupported, "would decode", ch.name));
            if (envelope) {
                for (std::size_t k = a; k < b; ++k) {
                    const cache::EnvelopeColumn& col = (*envelope)[k - a];
                    Coverage s = col.hasData ? (col.nanUnchecked ? Coverage::Unchecked : Coverage::Data) : row[k];
                    if (col.hasGap) s = Coverage::Gap;
                    row[k] = s;
                }
            } else { // block by block: summarised ones are data, the others unchecked; gaps from the gap list
                if (cancel.cancelled()) return {};
                for (std::size_t j = 0; j < blocks.size(); ++j) {
                    const core::TimeRange t = timesOf(blocks[j].first, blocks[j].first + blocks[j].count);
                    mark(row, columnsOf(map, t.start, t.end),
                         session.pyramid().find(c, j) ? Coverage::Data : Coverage::Unchecked);
                }
                for (const core::TimeRange& g : ch.gaps) mark(row, columnsOf(map, g.start, g.end), Coverage::Gap);
            }
            // NaN runs: the channel's own gaps (how MEF writers keep them), and NaN samples the pyramid's bins saw.
            for (const core::TimeRange& r : bands.channels.at(c))
                mark(row, columnsOf(map, r.start, r.end), Coverage::NaN);
            for (std::size_t j = 0; j < blocks.size(); ++j) {
                const std::optional<cache::BlockBins> bins = session.pyramid().find(c, j);
                if (!bins || !bins->anyNaN) continue;
                for (std::size_t k = 0; k < bins->hasNaN.size(); ++k) {
                    if (!bins->hasNaN[k]) continue;
                    const std::int64_t first = blocks[j].first + static_cast<std::int64_t>(k * bin);
                    const std::int64_t end = std::min<std::int64_t>(first + bin, blocks[j].first + blocks[j].count);
                    const core::TimeRange t = timesOf(first, end);
                    mark(row, columnsOf(map, t.start, t.end), Coverage::NaN);
                }
            }
        }
        map.channels.push_back(std::move(row));
    }
    return map;
}

QImage renderCoverage(const CoverageMap& map, QSize size, const Theme& theme)
{
    QImage image(size.expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    image.fill(theme.plotBackground);
    if (map.channels.empty() || map.columns == 0) return image;
    QPainter p(&image);
    const double rowH = static_cast<double>(image.height()) / static_cast<double>(map.channels.size());
    const double colW = static_cast<double>(image.width()) / static_cast<double>(map.columns);
    const QColor colours[] = {theme.plotBackground, theme.coverage, mix(theme.coverage, theme.plotBackground, 0.55),
                              opaque(theme.gapBand), opaque(theme.nanBand)};
    for (auto state : {Coverage::Data, Coverage::Unchecked, Coverage::Gap, Coverage::NaN})
        for (std::size_t c = 0; c < map.channels.size(); ++c) {
            const std::vector<Coverage>& row = map.channels[c];
            const double top = rowH * static_cast<double>(c);
            const double h = std::max(rowH - (rowH > 3 ? 1 : 0), 1.0);
            for (std::size_t k = 0; k < row.size();) {
                if (row[k] != state) {
                    ++k;
                    continue;
                }
                std::size_t e = k;
                while (e < row.size() && row[e] == state) ++e;
                double x0 = colW * static_cast<double>(k), x1 = std::max(colW * static_cast<double>(e), x0 + 1);
                if (state == Coverage::NaN && x1 - x0 < 3) { // short NaN runs stay findable
                    x0 -= 1;
                    x1 += 1;
                }
                p.fillRect(QRectF(x0, top, x1 - x0, h), colours[static_cast<int>(state)]);
                k = e;
            }
        }
    return image;
}

} // namespace lv::widgets
