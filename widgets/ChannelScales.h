// What one division (a lane's height) means for each channel: its type's sensitivity, else the common one of its
// unit, or (Auto) its own fit to the page, times the gains.
#pragma once

#include "Sensitivity.h"
#include "TraceFrame.h"

#include "core/ChannelType.h"

#include <functional>
#include <map>
#include <string>

namespace lv::widgets {

class ChannelScales {
public:
    static constexpr double kLaneFill = 0.45; // a fit: half a lane holds this fraction of the half-range at gain 1

    const Sensitivity& sensitivity() const { return m_sensitivity; }
    void setSensitivity(const Sensitivity& s); // gains reset; Auto forgets the fits
    // A type's own sensitivity (EOG at 20 uV/mm beside EEG at 7 uV/mm), used for channels of that type whose unit it
    // converts to while the common one is not Auto; Auto (the default) removes it. Kept across recordings.
    void setTypeSensitivity(core::ChannelType type, const Sensitivity& s);
    const std::map<core::ChannelType, Sensitivity>& typeSensitivities() const { return m_typeSensitivity; }
    double gain() const { return m_gain; }
    void setGain(double gain); // all channels; a fixed sensitivity takes it into its value (gain stays 1)
    void scaleChannel(std::size_t channel, double factor);
    double channelFactor(std::size_t channel) const; // what scaleChannel made of it (1: none)
    const std::map<std::size_t, double>& channelFactors() const { return m_channelGain; }
    // A channel's own sensitivity (a montage derivation's), over its type's and the common one and shown even when
    // the common one is Auto; an Auto one removes it.
    void setChannelSensitivity(std::size_t channel, const Sensitivity& s);
    void forgetRecording();                     // fits and channel factors of the previous recording dropped
    void forgetChannelsFrom(std::size_t first); // and of the channels from `first` on (a montage's lanes)

    // Fits from a frame's robust extents. Auto: each channel from every exact frame (the page shown; a coarse frame
    // only while it has none). A common sensitivity: units it does not convert to (e.g. degC beside uV) share one
    // fit, the widest half-range of their channels on the first exact frame, kept while the pages change.
    struct Kind {
        std::string unit;
        core::ChannelType type = core::ChannelType::Other;
    };
    void fit(const TraceFrame& frame, const std::function<Kind(std::size_t)>& kindOf);

    // The channel's value per division of `divisionMm` millimetres; 0: not known yet.
    double unitsPerDivision(std::size_t channel, const Kind& kind, double divisionMm) const;
    // The fixed sensitivity the channel of this kind shows (its own, its type's or the common one), or nothing (a
    // fit): its label can say "uV/mm".
    const Sensitivity* fixedFor(std::size_t channel, const Kind& kind) const;

private:
    struct Fit {
        double half = 0.0;
        bool exact = false;
    };

    Sensitivity m_sensitivity{7.0, Sensitivity::Per::Millimetre, "uV"};
    double m_gain = 1.0;
    std::map<core::ChannelType, Sensitivity> m_typeSensitivity;
    std::map<std::size_t, double> m_channelGain;
    std::map<std::size_t, Sensitivity> m_channelSensitivity;
    std::map<std::size_t, Fit> m_channelFit; // Auto
    std::map<std::string, Fit> m_unitFit;    // common sensitivity, units it does not convert to
};

} // namespace lv::widgets
