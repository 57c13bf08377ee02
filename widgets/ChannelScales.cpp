// Fits are kept per channel (Auto) or per unit (common sensitivity); exact frames replace coarse ones.
#include "ChannelScales.h"

#include <algorithm>

namespace lv::widgets {

void ChannelScales::setSensitivity(const Sensitivity& s)
{
    m_sensitivity = s;
    m_gain = 1.0;
    m_channelGain.clear();
    if (s.isAuto()) m_channelFit.clear();
}

void ChannelScales::setTypeSensitivity(core::ChannelType type, const Sensitivity& s)
{
    if (s.isAuto())
        m_typeSensitivity.erase(type);
    else
        m_typeSensitivity[type] = s;
}

void ChannelScales::setGain(double gain)
{
    gain = std::clamp(gain, 1e-3, 1e3);
    if (!m_sensitivity.isAuto()) { // a fixed sensitivity stays a plain value; the types' keep their ratio to it
        const double factor = std::clamp(m_sensitivity.value * m_gain / gain, 1e-12, 1e12) / m_sensitivity.value;
        m_sensitivity.value *= factor;
        for (auto& [type, s] : m_typeSensitivity) s.value = std::clamp(s.value * factor, 1e-12, 1e12);
        gain = 1.0;
    }
    m_gain = gain;
}

void ChannelScales::scaleChannel(std::size_t channel, double factor)
{
    double& g = m_channelGain.try_emplace(channel, 1.0).first->second;
    g = std::clamp(g * factor, 1e-3, 1e3);
}

double ChannelScales::channelFactor(std::size_t channel) const
{
    const auto it = m_channelGain.find(channel);
    return it == m_channelGain.end() ? 1.0 : it->second;
}

void ChannelScales::setChannelSensitivity(std::size_t channel, const Sensitivity& s)
{
    if (s.isAuto())
        m_channelSensitivity.erase(channel);
    else
        m_channelSensitivity[channel] = s;
}

void ChannelScales::forgetChannelsFrom(std::size_t first)
{
    std::erase_if(m_channelSensitivity, [first](const auto& e) { return e.first >= first; });
    std::erase_if(m_channelGain, [first](const auto& e) { return e.first >= first; });
    std::erase_if(m_channelFit, [first](const auto& e) { return e.first >= first; });
}

void ChannelScales::forgetRecording()
{
    m_channelSensitivity.clear();
    m_channelGain.clear();
    m_channelFit.clear();
    m_unitFit.clear();
}

void ChannelScales::fit(const TraceFrame& frame, const std::function<Kind(std::size_t)>& kindOf)
{
    std::map<std::string, double> widest;
    for (const ChannelTrace& t : frame.traces) {
        if (!(t.high > t.low)) continue;
        const double half = (t.high - t.low) / 2;
        Fit& own = m_channelFit[t.channel];
        if (frame.exact || !own.exact) own = {half, frame.exact}; // Auto follows every exact page
        const Kind kind = kindOf(t.channel);
        if (!fixedFor(t.channel, kind)) widest[kind.unit] = std::max(widest[kind.unit], half);
    }
    for (const auto& [unit, half] : widest) {
        Fit& shared = m_unitFit[unit];
        if (!shared.exact) shared = {half, frame.exact}; // a common scale stays put once it is fitted exactly
    }
}

double ChannelScales::unitsPerDivision(std::size_t channel, const Kind& kind, double divisionMm) const
{
    const Sensitivity* fixed = fixedFor(channel, kind);
    double base = fixed ? fixed->unitsPerDivision(kind.unit, divisionMm) : 0.0;
    if (!fixed) {
        const Fit* fit = nullptr;
        if (m_sensitivity.isAuto()) {
            const auto it = m_channelFit.find(channel);
            fit = it == m_channelFit.end() ? nullptr : &it->second;
        } else {
            const auto it = m_unitFit.find(kind.unit);
            fit = it == m_unitFit.end() ? nullptr : &it->second;
        }
        if (!fit || !(fit->half > 0)) return 0.0;
        base = fit->half / kLaneFill;
    }
    const auto cg = m_channelGain.find(channel);
    return base / (m_gain * (cg == m_channelGain.end() ? 1.0 : cg->second));
}

const Sensitivity* ChannelScales::fixedFor(std::size_t channel, const Kind& kind) const
{
    const auto mine = m_channelSensitivity.find(channel);
    if (mine != m_channelSensitivity.end() && mine->second.unitsPerDivision(kind.unit, 1.0) > 0) return &mine->second;
    if (m_sensitivity.isAuto()) return nullptr;
    const auto own = m_typeSensitivity.find(kind.type);
    if (own != m_typeSensitivity.end() && own->second.unitsPerDivision(kind.unit, 1.0) > 0) return &own->second;
    return m_sensitivity.unitsPerDivision(kind.unit, 1.0) > 0 ? &m_sensitivity : nullptr;
}

} // namespace lv::widgets
