// Draws a frame's traces into an image off the UI thread (one line per run of points between NaNs, per lane,
// in device pixels), so that the UI thread only blits it: replots stay cheap however many channels are shown.
#pragma once

#include "TraceFrame.h"

#include <QColor>
#include <QImage>
#include <QSize>
#include <vector>

namespace lv::widgets {

struct LaneMapping {
    std::size_t channel = 0;
    int lane = 0;        // 0 at the top
    double center = 0.0; // physical value drawn at the lane's middle
    double scale = 1.0;  // lane heights per physical unit
    QColor color;        // invalid: RenderSpec::color
};

struct RenderSpec {
    std::uint64_t id = 0; // the render request (stale results are dropped)
    QSize pixels;         // device pixels of the data area
    double devicePixelRatio = 1.0;
    double x0 = 0.0; // seconds from the recording's start at the left and right edges
    double x1 = 1.0;
    int lanes = 1;
    std::vector<LaneMapping> mapping;
    QColor color;
    bool clipToLanes = true; // values beyond a lane drawn at its edge (flat), never over the neighbours
};

QImage renderTraces(const TraceFrame& frame, const RenderSpec& spec);

// The same picture drawn with QPainter polylines (cosmetic pen, no antialiasing): the reference that tests compare
// renderTraces with, and the previous version in the benchmark (about 10x slower on long traces).
QImage renderTracesWithQPainter(const TraceFrame& frame, const RenderSpec& spec);

} // namespace lv::widgets
