// View > Filter: the display filter of the channels of voltage types (EEG, EOG, EMG, ECG), computed with the
// frames on the worker threads (widgets/FilteredTrace) and named in their labels.
#include "MainWindow.h"

#include "FilterDialog.h"
#include "TraceLoader.h"
#include "TracePlot.h"

#include "filter/FilterSpec.h"

#include <QActionGroup>
#include <QMenu>
#include <QStatusBar>
#include <algorithm>
#include <map>

namespace lv::widgets {

namespace {

// The filters EEG readers use every day: the ACNS defaults with the mains notch of each continent.
constexpr std::pair<const char*, const char*> kPresets[] = {
    {"HP 0.5 LP 70 N50", "hp=0.5,lp=70,notch=50"},
    {"HP 1 LP 35 N50", "hp=1,lp=35,notch=50"},
    {"HP 0.5 LP 70 N60", "hp=0.5,lp=70,notch=60"},
    {"HP 1 LP 35 N60", "hp=1,lp=35,notch=60"},
    {"HP 0.5", "hp=0.5"},
    {"LP 70", "lp=70"},
};

bool filtersType(core::ChannelType t)
{
    return t == core::ChannelType::Eeg || t == core::ChannelType::Eog || t == core::ChannelType::Emg ||
           t == core::ChannelType::Ecg;
}

} // namespace

QString MainWindow::displayFilter() const { return setting("view/displayFilter", QString()).toString(); }

bool MainWindow::setDisplayFilter(const QString& spec)
{
    auto parsed = filter::parseFilterSpec(spec.trimmed().toStdString());
    if (!parsed) return false;
    remember("view/displayFilter", parsed->any() ? QString::fromStdString(filter::filterSpecText(*parsed)) : QString());
    for (QAction* a : actions())
        if (a->property("filterSpec").isValid()) a->setChecked(a->property("filterSpec").toString() == displayFilter());
    if (m_loader->info()) {
        applyDisplayFilter();
        viewChanged();
    }
    return true;
}

void MainWindow::applyDisplayFilter()
{
    const core::RecordingInfo* info = m_loader->displayInfo(); // a montage's lanes too
    if (!info) return;
    auto spec = filter::parseFilterSpec(displayFilter().toStdString());
    const filter::FilterSpec chosen = spec ? *spec : filter::FilterSpec{};
    std::vector<std::size_t> channels;
    for (std::size_t c = 0; c < info->channels.size(); ++c)
        if (filtersType(m_plot->channelType(c))) channels.push_back(c);
    m_loader->setDisplayFilter(chosen, channels);
    std::map<std::size_t, QString> labels; // a derivation's own filter is its own label
    for (const auto& [c, spec] : m_loader->filteredChannels())
        labels[c] = QString::fromStdString(filter::filterLabel(spec));
    const std::size_t unfiltered = chosen.any() ? channels.size() - std::min(channels.size(), labels.size()) : 0;
    if (unfiltered > 0) // sampled too slowly for an edge of the filter
        statusBar()->showMessage(tr("%1: %n channel(s) drawn unfiltered, sampled below twice the filter's highest edge",
                                    nullptr, static_cast<int>(unfiltered))
                                     .arg(QString::fromStdString(filter::filterLabel(chosen))),
                                 30000);
    m_plot->setFilterLabels(std::move(labels));
}

void MainWindow::createFilterActions(QMenu* view)
{
    QMenu* menu = view->addMenu(tr("&Filter"));
    auto* group = new QActionGroup(this);
    const auto add = [&](const QString& name, const QString& spec, const char* object) {
        QAction* a = menu->addAction(name);
        a->setObjectName(object);
        a->setCheckable(true);
        a->setProperty("filterSpec", spec);
        a->setChecked(spec == displayFilter());
        group->addAction(a);
        addAction(a); // found by setDisplayFilter
        connect(a, &QAction::triggered, this, [this, spec] { setDisplayFilter(spec); });
    };
    add(tr("&Off"), QString(), "filterOffAction");
    for (const auto& [name, spec] : kPresets)
        add(QString::fromUtf8(name), QString::fromUtf8(spec), "filterPresetAction");
    menu->addSeparator();
    QAction* custom = menu->addAction(tr("&Custom..."));
    custom->setObjectName("filterCustomAction");
    connect(custom, &QAction::triggered, this, [this] {
        // The response is drawn at the rate most of the filtered channels have.
        std::map<double, int> rates;
        if (const core::RecordingInfo* info = m_loader->info())
            for (std::size_t c = 0; c < info->channels.size(); ++c)
                if (filtersType(m_plot->channelType(c)) && !info->channels[c].irregular) ++rates[info->channels[c].fs];
        const double fs = rates.empty() ? 256.0 : std::max_element(rates.begin(), rates.end(), [](auto& a, auto& b) {
                                                      return a.second < b.second;
                                                  })->first;
        FilterDialog dialog(displayFilter().isEmpty() ? QString("hp=0.5,lp=70,notch=50") : displayFilter(), fs, this);
        if (dialog.exec() == QDialog::Accepted) setDisplayFilter(dialog.spec());
    });
}

} // namespace lv::widgets
