// How each channel is drawn: its type (colour, a type's sensitivity), polarity and offset; each change re-renders.
#include "TracePlot.h"

#include <cmath>

namespace lv::widgets {

QString TracePlot::unitOf(std::size_t channel) const
{
    return m_info ? QString::fromStdString(m_info->channels.at(channel).unit) : QString();
}

ChannelScales::Kind TracePlot::kindOf(std::size_t channel) const
{
    return {unitOf(channel).toStdString(), channelType(channel)};
}

void TracePlot::setChannelType(std::size_t channel, core::ChannelType type)
{
    if (channel >= m_types.size() || m_types[channel] == type) return;
    m_types[channel] = type;
    if (m_frame) m_scales.fit(*m_frame, [this](std::size_t c) { return kindOf(c); });
    // Its colour, and maybe its type's sensitivity. Not scaleChanged: the types are applied while a recording opens,
    // before its remembered view is restored, and that signal saves the view.
    scheduleRender();
    updateAxes();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TracePlot::setChannelColours(std::map<std::size_t, QColor> colours)
{
    m_colours = std::move(colours);
    scheduleRender();
}

QColor TracePlot::colourOf(std::size_t channel) const
{
    const auto it = m_colours.find(channel);
    return it != m_colours.end() ? it->second : m_theme.typeColor(channelType(channel));
}

core::ChannelType TracePlot::channelType(std::size_t channel) const
{
    return channel < m_types.size() ? m_types[channel] : core::ChannelType::Other;
}

void TracePlot::setTypeSensitivity(core::ChannelType type, const Sensitivity& s)
{
    m_scales.setTypeSensitivity(type, s);
    if (m_frame) m_scales.fit(*m_frame, [this](std::size_t c) { return kindOf(c); });
    amplitudeChanged();
}

void TracePlot::setChannelSensitivity(std::size_t channel, const Sensitivity& s)
{
    m_scales.setChannelSensitivity(channel, s);
    if (m_frame) m_scales.fit(*m_frame, [this](std::size_t c) { return kindOf(c); });
    amplitudeChanged();
}

void TracePlot::setInverted(std::size_t channel, bool inverted)
{
    if (isInverted(channel) == inverted) return;
    if (inverted)
        m_inverted.insert(channel);
    else
        m_inverted.erase(channel);
    amplitudeChanged();
}

void TracePlot::setChannelOffset(std::size_t channel, double offset)
{
    if (!std::isfinite(offset)) return;
    if (channelOffset(channel) == offset) return;
    if (offset == 0)
        m_offsets.erase(channel);
    else
        m_offsets[channel] = offset;
    amplitudeChanged();
}

double TracePlot::channelOffset(std::size_t channel) const
{
    const auto it = m_offsets.find(channel);
    return it == m_offsets.end() ? 0.0 : it->second;
}

void TracePlot::setBitViews(std::map<std::size_t, BitView> views)
{
    m_bitViews = std::move(views);
    updateAxes(); // the labels
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TracePlot::setFilterLabel(std::set<std::size_t> channels, const QString& label)
{
    std::map<std::size_t, QString> labels;
    for (std::size_t c : channels) labels[c] = label;
    setFilterLabels(std::move(labels));
}

void TracePlot::setFilterLabels(std::map<std::size_t, QString> labels)
{
    m_filtered = std::move(labels);
    updateAxes(); // the labels
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString TracePlot::filterLabel(std::size_t channel) const
{
    const auto it = m_filtered.find(channel);
    return it == m_filtered.end() ? QString() : it->second;
}

void TracePlot::setDisplayChannels(const core::RecordingInfo* info, const GapBands* bands, std::size_t first,
                                   const std::vector<core::ChannelType>& types)
{
    if (!m_info || !info) return;
    std::erase_if(m_inverted, [first](std::size_t c) { return c >= first; });
    std::erase_if(m_offsets, [first](const auto& e) { return e.first >= first; });
    std::erase_if(m_filtered, [first](const auto& e) { return e.first >= first; });
    std::erase_if(m_colours, [first](const auto& e) { return e.first >= first; });
    m_scales.forgetChannelsFrom(first);
    m_types.resize(first);
    m_types.insert(m_types.end(), types.begin(), types.end());
    m_info = info;
    m_bands = bands;
    m_frame.reset(); // its lanes may be gone
    m_channels.clear();
    m_renders.drop();
    m_traces->clear();
    updateLanes();
    updateAxes();
    updateBands();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

BitView TracePlot::bitView(std::size_t channel) const
{
    const auto it = m_bitViews.find(channel);
    return it == m_bitViews.end() ? BitView::Value : it->second;
}

double TracePlot::laneCenter(std::size_t channel, double low, double high) const
{
    const double mid = high >= low ? (low + high) / 2 : 0.0; // DC removed per page
    return mid - (isInverted(channel) ? -1.0 : 1.0) * channelOffset(channel);
}

} // namespace lv::widgets
