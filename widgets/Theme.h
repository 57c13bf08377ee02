// Light and dark colour sets for the application palette, the plot and the overview strip.
#pragma once

#include "core/ChannelType.h"

#include <QColor>
#include <QPalette>
#include <QString>
#include <array>

namespace lv::widgets {

struct Theme {
    QString name; // "light" or "dark"
    QPalette palette;
    QColor plotBackground;
    QColor axis;
    QColor text;
    QColor grid;
    QColor trace;          // every channel's line
    QColor gapBand;        // recording-wide "no data"
    QColor nanBand;        // a channel's NaN run / own gap
    QColor damageBand;     // a channel's damaged block (failed its CRC)
    QColor annotation;     // markers and labels
    QColor userAnnotation; // the user's own markers and labels
    QColor span;           // an annotation's duration
    QColor coverage;       // overview: data present
    QColor window;         // overview: the current view
    QColor cursor;
    // Traces by channel type (core::ChannelType's order: EEG, EOG, EMG, ECG, respiration, trigger, other).
    std::array<QColor, 7> types;
    QColor typeColor(core::ChannelType type) const { return types[static_cast<std::size_t>(type)]; }

    static Theme light();
    static Theme dark();
    static Theme named(const QString& name); // unknown names: light
};

} // namespace lv::widgets
