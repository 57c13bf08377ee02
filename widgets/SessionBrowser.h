// The session browser dock: a tree of recording > channels (rate, unit, samples, gaps, NaN runs) > segments, with
// a check box per channel to show or hide it, drag to reorder the channels, and a properties table for the
// selected item.
#pragma once

#include "GapBands.h"
#include "TraceFrame.h"

#include "core/ChannelType.h"
#include "core/RecordingInfo.h"

#include <QWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace lv::widgets {

class SessionBrowser : public QWidget {
    Q_OBJECT
public:
    explicit SessionBrowser(QWidget* parent = nullptr);

    void setRecording(const core::RecordingInfo* info, const GapBands* bands);
    void setVisibleChannels(const std::vector<std::size_t>& channels);
    void setChannelTypes(const std::vector<core::ChannelType>& types); // the Type column, per channel
    void setChannelOrder(const std::vector<std::size_t>& order);       // these channels first, in this order
    std::vector<std::size_t> checkedChannels() const;                  // in the tree's (display) order
    QTreeWidget* tree() const { return m_tree; }
    QTreeWidget* properties() const { return m_properties; }

signals:
    void visibleChannelsChanged(const std::vector<std::size_t>& channels);
    void jumpRequested(qint64 uutc);
    // The context menu's Channel Type: for the channel clicked, or every selected one when it is among them.
    void channelTypeChosen(const std::vector<std::size_t>& channels, lv::core::ChannelType type);
    void invertRequested(const std::vector<std::size_t>& channels); // the context menu's Invert Polarity
    void offsetRequested(const std::vector<std::size_t>& channels); // the context menu's Offset...
    void bitViewChosen(const std::vector<std::size_t>& channels, lv::widgets::BitView view); // Show As
    // Draw Samples As (irregular channels): 1 points, 0 steps, -1 as View > Irregular Channels says.
    void irregularDrawingChosen(const std::vector<std::size_t>& channels, int points);

private:
    void showProperties(QTreeWidgetItem* item);
    void showMenu(const QPoint& at);

    QTreeWidget* m_tree;
    QTreeWidget* m_properties;
    const core::RecordingInfo* m_info = nullptr;
    const GapBands* m_bands = nullptr;
    bool m_updating = false;
};

// "2025-01-01 10:00:00.000 UTC"
QString formatUtc(core::Uutc t);
// "2 h 03 min", "12.5 s"
QString formatDuration(std::int64_t microseconds);

} // namespace lv::widgets
