// The Convert dialog's channel list: a checkbox per channel, its output name (editable: renaming), All / Visible /
// None buttons and a filter by name.
#pragma once

#include "core/RecordingInfo.h"

#include <QWidget>
#include <vector>

class QLineEdit;
class QTableWidget;

namespace lv::widgets {

class ConvertChannelTable : public QWidget {
    Q_OBJECT
public:
    explicit ConvertChannelTable(QWidget* parent = nullptr);

    // The recording's channels, those in `visible` checked (every one when it is empty).
    void setChannels(const core::RecordingInfo& info, const std::vector<std::size_t>& visible);
    void checkAll();
    void checkVisible();
    void checkNone();
    void setFilter(const QString& text); // rows whose name does not contain it (case-insensitive) are hidden
    void setChecked(const QString& name, bool on);
    void setOutputName(const QString& name, const QString& output);

    std::vector<std::size_t> checkedChannels() const; // in the recording's order
    // "a,b" of the checked channels' input names; empty when every channel is checked (the job's "all").
    QString channelList() const;
    // "old=new,..." for checked channels whose output name differs (ConvertJob::rename).
    QString renameSpec() const;

signals:
    void changed();

private:
    QLineEdit* m_filter;
    QTableWidget* m_table;
    std::vector<std::size_t> m_visible;
};

} // namespace lv::widgets
