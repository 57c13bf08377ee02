// Tree items carry (kind, index) in their data; properties are rebuilt from RecordingInfo on selection; only
// channels drag, only the recording item takes drops (so a drag reorders channels and nothing else).
#include "SessionBrowser.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QHeaderView>
#include <QMenu>
#include <QSplitter>
#include <QTimeZone>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <tuple>

namespace lv::widgets {

namespace {

enum Kind { kRecording = 1, kChannel = 2, kSegment = 3 };
constexpr int kKindRole = Qt::UserRole;
constexpr int kIndexRole = Qt::UserRole + 1;
constexpr int kTimeRole = Qt::UserRole + 2;

std::size_t countIntersecting(const std::vector<core::TimeRange>& ranges, core::TimeRange window)
{
    return static_cast<std::size_t>(std::count_if(ranges.begin(), ranges.end(), [&](const core::TimeRange& r) {
        return r.start < window.end && r.end > window.start;
    }));
}

void addProperty(QTreeWidget* table, const QString& name, const QString& value);

// The subject and site fields the format and the password give (empty ones are not listed).
void addIdentityRows(QTreeWidget* table, const core::RecordingInfo& info)
{
    const std::pair<const char*, const std::string*> rows[] = {
        {QT_TRANSLATE_NOOP("SessionBrowser", "Subject ID"), &info.subject.id},
        {QT_TRANSLATE_NOOP("SessionBrowser", "Subject name"), &info.subject.name},
        {QT_TRANSLATE_NOOP("SessionBrowser", "Sex"), &info.subject.sex},
        {QT_TRANSLATE_NOOP("SessionBrowser", "Birth date"), &info.subject.birthdate},
        {QT_TRANSLATE_NOOP("SessionBrowser", "Administration code"), &info.site.adminCode},
        {QT_TRANSLATE_NOOP("SessionBrowser", "Technician"), &info.site.technician},
        {QT_TRANSLATE_NOOP("SessionBrowser", "Equipment"), &info.site.equipment},
        {QT_TRANSLATE_NOOP("SessionBrowser", "Location"), &info.site.location}};
    for (const auto& [name, value] : rows)
        if (!value->empty())
            addProperty(table, QCoreApplication::translate("SessionBrowser", name), QString::fromStdString(*value));
}

void addProperty(QTreeWidget* table, const QString& name, const QString& value)
{
    auto* item = new QTreeWidgetItem(table, {name, value});
    item->setToolTip(1, value);
}

} // namespace

QString formatUtc(core::Uutc t)
{
    const auto ms = static_cast<qint64>(t >= 0 ? t / 1000 : (t - 999) / 1000);
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc()).toString("yyyy-MM-dd HH:mm:ss.zzz") + " UTC";
}

QString formatDuration(std::int64_t us)
{
    const double s = static_cast<double>(us) / 1e6;
    if (s < 60) return QString::number(s, 'g', 6) + " s";
    const auto whole = static_cast<long long>(s);
    if (s < 3600) return QString("%1 min %2 s").arg(whole / 60).arg(whole % 60, 2, 10, QChar('0'));
    return QString("%1 h %2 min").arg(whole / 3600).arg((whole / 60) % 60, 2, 10, QChar('0'));
}

SessionBrowser::SessionBrowser(QWidget* parent)
    : QWidget(parent)
    , m_tree(new QTreeWidget)
    , m_properties(new QTreeWidget)
{
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_tree);
    split->addWidget(m_properties);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    m_tree->setHeaderLabels(
        {tr("Name"), tr("Rate (Hz)"), tr("Unit"), tr("Samples"), tr("Gaps"), tr("NaN runs"), tr("Type")});
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_tree, &QWidget::customContextMenuRequested, this, &SessionBrowser::showMenu);
    m_tree->setRootIsDecorated(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setDragDropMode(QAbstractItemView::InternalMove); // channels reorder by drag, within the recording
    m_tree->invisibleRootItem()->setFlags(m_tree->invisibleRootItem()->flags() & ~Qt::ItemIsDropEnabled);
    connect(m_tree->model(), &QAbstractItemModel::rowsInserted, this, [this] {
        if (!m_updating) QTimer::singleShot(0, this, [this] { emit visibleChannelsChanged(checkedChannels()); });
    });
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_properties->setHeaderLabels({tr("Property"), tr("Value")});
    m_properties->setRootIsDecorated(false);
    m_properties->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) { showProperties(item); });
    connect(m_tree, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int column) {
        if (!m_updating && column == 0 && item->data(0, kKindRole).toInt() == kChannel)
            emit visibleChannelsChanged(checkedChannels());
    });
    connect(m_tree, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        const QVariant t = item->data(0, kTimeRole);
        if (t.isValid()) emit jumpRequested(t.toLongLong());
    });
}

void SessionBrowser::setRecording(const core::RecordingInfo* info, const GapBands* bands)
{
    m_updating = true;
    m_info = info;
    m_bands = bands;
    m_tree->clear();
    m_properties->clear();
    if (info && bands) {
        const QString path = QString::fromStdString(info->path);
        auto* root = new QTreeWidgetItem(m_tree, {path.section('/', -1, -1, QString::SectionSkipEmpty)});
        root->setToolTip(0, path);
        root->setData(0, kKindRole, kRecording);
        root->setFlags((root->flags() | Qt::ItemIsDropEnabled) & ~Qt::ItemIsDragEnabled);
        root->setData(0, kTimeRole, QVariant::fromValue<qint64>(info->start));
        root->setText(4, QString::number(bands->recording.size()));
        for (std::size_t c = 0; c < info->channels.size(); ++c) {
            const core::ChannelInfo& ch = info->channels[c];
            auto* item =
                new QTreeWidgetItem(root, {QString::fromStdString(ch.name), QString::number(ch.fs, 'g', 10),
                                           QString::fromStdString(ch.unit), QString::number(ch.sampleCount),
                                           QString::number(countIntersecting(bands->recording, {ch.start, ch.end})),
                                           QString::number(bands->channels[c].size())});
            item->setData(0, kKindRole, kChannel);
            item->setData(0, kIndexRole, static_cast<qulonglong>(c));
            item->setData(0, kTimeRole, QVariant::fromValue<qint64>(ch.start));
            item->setFlags((item->flags() | Qt::ItemIsUserCheckable | Qt::ItemIsDragEnabled) & ~Qt::ItemIsDropEnabled);
            item->setCheckState(0, Qt::Checked);
            for (std::size_t s = 0; s < ch.segments.size(); ++s) {
                const core::TimeRange& r = ch.segments[s];
                auto* seg = new QTreeWidgetItem(
                    item, {tr("segment %1").arg(s + 1), "", "", "", QString::number(countIntersecting(ch.gaps, r))});
                seg->setToolTip(0, formatUtc(r.start) + " – " + formatUtc(r.end));
                seg->setData(0, kKindRole, kSegment);
                seg->setData(0, kIndexRole, static_cast<qulonglong>(s));
                seg->setData(0, kTimeRole, QVariant::fromValue<qint64>(r.start));
                seg->setFlags(seg->flags() & ~(Qt::ItemIsDragEnabled | Qt::ItemIsDropEnabled));
            }
        }
        root->setExpanded(true);
        m_tree->setCurrentItem(root);
    }
    m_updating = false;
}

void SessionBrowser::setVisibleChannels(const std::vector<std::size_t>& channels)
{
    if (m_tree->topLevelItemCount() == 0) return;
    m_updating = true;
    QTreeWidgetItem* root = m_tree->topLevelItem(0);
    for (int i = 0; i < root->childCount(); ++i) {
        QTreeWidgetItem* item = root->child(i);
        const auto c = item->data(0, kIndexRole).toULongLong();
        const bool on = std::find(channels.begin(), channels.end(), c) != channels.end();
        item->setCheckState(0, on ? Qt::Checked : Qt::Unchecked);
    }
    m_updating = false;
}

void SessionBrowser::setChannelTypes(const std::vector<core::ChannelType>& types)
{
    if (m_tree->topLevelItemCount() == 0) return;
    QTreeWidgetItem* root = m_tree->topLevelItem(0);
    std::vector<std::pair<QTreeWidgetItem*, QString>> changes;
    for (int i = 0; i < root->childCount(); ++i) {
        QTreeWidgetItem* item = root->child(i);
        const auto c = static_cast<std::size_t>(item->data(0, kIndexRole).toULongLong());
        const QString text = c < types.size() ? QString::fromUtf8(core::channelTypeName(types[c]).data()) : QString();
        if (c < types.size() && item->text(6) != text) changes.emplace_back(item, text);
    }
    // Each change of a shown item makes the view measure the whole column again (it sizes to its contents): many
    // (a recording's first types: 60 ms for 128 channels) are made to items out of the tree, put back at once.
    const bool many = changes.size() > 16;
    QList<QTreeWidgetItem*> items = many ? root->takeChildren() : QList<QTreeWidgetItem*>();
    for (auto& [item, text] : changes) item->setText(6, text);
    if (many) root->addChildren(items);
}

void SessionBrowser::setChannelOrder(const std::vector<std::size_t>& order)
{
    if (m_tree->topLevelItemCount() == 0) return;
    m_updating = true;
    QTreeWidgetItem* root = m_tree->topLevelItem(0);
    QList<QTreeWidgetItem*> items = root->takeChildren();
    const auto rank = [&](QTreeWidgetItem* item) {
        const auto c = static_cast<std::size_t>(item->data(0, kIndexRole).toULongLong());
        return static_cast<std::size_t>(std::find(order.begin(), order.end(), c) - order.begin());
    };
    std::stable_sort(items.begin(), items.end(),
                     [&](QTreeWidgetItem* a, QTreeWidgetItem* b) { return rank(a) < rank(b); });
    root->addChildren(items);
    m_updating = false;
}

void SessionBrowser::showMenu(const QPoint& at)
{
    QTreeWidgetItem* clicked = m_tree->itemAt(at);
    if (!clicked || clicked->data(0, kKindRole).toInt() != kChannel) return;
    std::vector<std::size_t> channels;
    const QList<QTreeWidgetItem*> selected = m_tree->selectedItems();
    for (QTreeWidgetItem* item : selected.contains(clicked) ? selected : QList<QTreeWidgetItem*>{clicked})
        if (item->data(0, kKindRole).toInt() == kChannel)
            channels.push_back(static_cast<std::size_t>(item->data(0, kIndexRole).toULongLong()));
    QMenu menu(this);
    menu.addAction(tr("&Invert Polarity"), this, [this, channels] { emit invertRequested(channels); });
    menu.addAction(tr("&Offset..."), this, [this, channels] { emit offsetRequested(channels); });
    QMenu* show = menu.addMenu(tr("&Show As"));
    for (const auto& [view, text] :
         {std::pair{BitView::Value, tr("&Values")}, std::pair{BitView::Trigger, tr("&Trigger Code (Bits 0-15)")},
          std::pair{BitView::Status, tr("&Status Bits (16-23)")}})
        show->addAction(text, this, [this, channels, view] { emit bitViewChosen(channels, view); });
    if (std::any_of(channels.begin(), channels.end(), [this](std::size_t c) {
            return m_info && c < m_info->channels.size() && m_info->channels[c].irregular;
        })) {
        QMenu* drawing = menu.addMenu(tr("&Draw Samples As"));
        for (const auto& [points, text, object] :
             {std::tuple{0, tr("&Steps"), "channelStepsAction"}, std::tuple{1, tr("&Points"), "channelPointsAction"},
              std::tuple{-1, tr("As the &View Menu Says"), "channelIrregularDefaultAction"}})
            drawing
                ->addAction(text, this,
                            [this, channels, points = points] { emit irregularDrawingChosen(channels, points); })
                ->setObjectName(object);
    }
    QMenu* types = menu.addMenu(tr("Channel &Type"));
    for (core::ChannelType t : core::kChannelTypes)
        types->addAction(QString::fromUtf8(core::channelTypeName(t).data()), this,
                         [this, channels, t] { emit channelTypeChosen(channels, t); });
    menu.exec(m_tree->viewport()->mapToGlobal(at));
}

std::vector<std::size_t> SessionBrowser::checkedChannels() const
{
    std::vector<std::size_t> out;
    if (m_tree->topLevelItemCount() == 0) return out;
    QTreeWidgetItem* root = m_tree->topLevelItem(0);
    for (int i = 0; i < root->childCount(); ++i)
        if (root->child(i)->checkState(0) == Qt::Checked)
            out.push_back(static_cast<std::size_t>(root->child(i)->data(0, kIndexRole).toULongLong()));
    return out;
}

void SessionBrowser::showProperties(QTreeWidgetItem* item)
{
    m_properties->clear();
    if (!item || !m_info) return;
    const int kind = item->data(0, kKindRole).toInt();
    const auto index = static_cast<std::size_t>(item->data(0, kIndexRole).toULongLong());
    if (kind == kRecording) {
        addProperty(m_properties, tr("Format"), QString::fromStdString(m_info->format));
        addProperty(m_properties, tr("Path"), QString::fromStdString(m_info->path));
        if (m_info->timesKnown) {
            addProperty(m_properties, tr("Start"), formatUtc(m_info->start));
            addProperty(m_properties, tr("End"), formatUtc(m_info->end));
        } else {
            addProperty(m_properties, tr("Start"), tr("unknown (needs the level-2 password)"));
        }
        addProperty(m_properties, tr("Duration"), formatDuration(m_info->end - m_info->start));
        addProperty(m_properties, tr("Times known"),
                    m_info->timesKnown ? tr("yes") : tr("no: shown relative to the start (level-1 access)"));
        addProperty(m_properties, tr("Channels"), QString::number(m_info->channels.size()));
        addProperty(m_properties, tr("Recording-wide gaps"), QString::number(m_bands->recording.size()));
        addProperty(m_properties, tr("Annotations"), QString::number(m_info->annotations.size()));
        addIdentityRows(m_properties, *m_info);
        for (const std::string& w : m_info->warnings)
            addProperty(m_properties, tr("Warning"), QString::fromStdString(w));
    } else if (kind == kChannel) {
        const core::ChannelInfo& ch = m_info->channels.at(index);
        addProperty(m_properties, tr("Name"), QString::fromStdString(ch.name));
        addProperty(m_properties, ch.irregular ? tr("Sampling rate (median; irregular times)") : tr("Sampling rate"),
                    QString::number(ch.fs, 'g', 12) + " Hz");
        addProperty(m_properties, tr("Unit"), QString::fromStdString(ch.unit));
        addProperty(m_properties, tr("Conversion factor"), QString::number(ch.conversionFactor, 'g', 12));
        addProperty(m_properties, tr("Start"), formatUtc(ch.start));
        addProperty(m_properties, tr("End"), formatUtc(ch.end));
        addProperty(m_properties, tr("Stored samples"), QString::number(ch.sampleCount));
        if (!ch.irregular) addProperty(m_properties, tr("Grid points"), QString::number(ch.gridLength));
        addProperty(m_properties, tr("Segments"), QString::number(ch.segments.size()));
        addProperty(m_properties, tr("Gaps (all)"), QString::number(ch.gaps.size()));
        addProperty(m_properties, tr("Own gaps / NaN runs"), QString::number(m_bands->channels.at(index).size()));
        if (!ch.description.empty())
            addProperty(m_properties, tr("Description"), QString::fromStdString(ch.description));
        if (!ch.group.empty()) addProperty(m_properties, tr("Recorded in"), QString::fromStdString(ch.group));
    } else if (kind == kSegment) {
        const core::ChannelInfo& ch = m_info->channels.at(item->parent()->data(0, kIndexRole).toULongLong());
        const core::TimeRange& r = ch.segments.at(index);
        addProperty(m_properties, tr("Channel"), QString::fromStdString(ch.name));
        addProperty(m_properties, tr("Start"), formatUtc(r.start));
        addProperty(m_properties, tr("End"), formatUtc(r.end));
        addProperty(m_properties, tr("Duration"), formatDuration(r.duration()));
    }
}

} // namespace lv::widgets
