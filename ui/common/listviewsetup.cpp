// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/listviewsetup.h"

#include "core/timeformatter.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <memory>

namespace ListViewSetup {

static constexpr int FilterDelayMs = 400;
static constexpr int SearchingAfterMs = 300;

// "1,200 rows loaded · scroll for more"; while a page takes longer than SearchingAfterMs, "Searching…" and a Cancel
// button that gives up on it.
static QWidget* loadStatus(PagedListModelBase* model, QWidget* parent)
{
    auto* status = new QWidget(parent);
    auto* label = new QLabel(status);
    label->setObjectName(QStringLiteral("loadStatus"));
    auto* cancel = new QToolButton(status);
    cancel->setObjectName(QStringLiteral("cancelSearch"));
    cancel->setText(QCoreApplication::translate("ListViewSetup", "Cancel"));
    cancel->setToolTip(QCoreApplication::translate("ListViewSetup", "Stop this search on the server"));
    cancel->hide();
    auto* layout = new QHBoxLayout(status);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label);
    layout->addWidget(cancel);
    auto* slow = new QTimer(status);
    slow->setSingleShot(true);
    slow->setInterval(SearchingAfterMs);
    auto cancelled = std::make_shared<bool>(false);
    const auto update = [label, cancel, slow, model, cancelled] {
        const bool searching = model->isLoading() && !slow->isActive();
        cancel->setVisible(searching);
        const QString more
            = model->canFetchMore({}) ? QCoreApplication::translate("ListViewSetup", " · scroll for more") : QString();
        if (model->isLoading()) {
            label->setText(searching ? QCoreApplication::translate("ListViewSetup", "Searching…")
                                     : QCoreApplication::translate("ListViewSetup", "Loading…"));
        } else if (*cancelled) {
            label->setText(QCoreApplication::translate("ListViewSetup",
                "Search cancelled · %n row(s) loaded · F5 searches again", nullptr, model->rowCount()));
        } else {
            label->setText(
                QCoreApplication::translate("ListViewSetup", "%n row(s) loaded%1", nullptr, model->rowCount())
                    .arg(more));
        }
    };
    QObject::connect(model, &QAbstractItemModel::rowsInserted, label, update);
    QObject::connect(model, &QAbstractItemModel::modelReset, label, update);
    QObject::connect(model, &PagedListModelBase::loadingChanged, label, [slow, cancelled, update](bool loading) {
        if (loading) {
            *cancelled = false;
            slow->start();
        } else {
            slow->stop();
        }
        update();
    });
    QObject::connect(model, &PagedListModelBase::loadCancelled, label, [cancelled] { *cancelled = true; });
    QObject::connect(slow, &QTimer::timeout, label, update);
    QObject::connect(cancel, &QToolButton::clicked, model, &PagedListModelBase::cancelLoading);
    update();
    return status;
}

void setUpTable(QTableView* table, QAbstractItemModel* model)
{
    table->setModel(model);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setStretchLastSection(true);
    table->horizontalHeader()->setSectionsMovable(true);
    table->setContextMenuPolicy(Qt::CustomContextMenu);
    table->setSortingEnabled(false);
}

void fitInstantColumns(QTableView* table, std::initializer_list<int> columns)
{
    // The language's dates and times, not ISO's: Korean ones are a third wider ("2026. 12. 28. 오후 10:58:58 UTC").
    const int widest = TimeFormatter::widestDisplayWidth(table->fontMetrics());
    for (int column : columns)
        table->setColumnWidth(column, qMax(widest + 16, table->horizontalHeader()->sectionSizeHint(column)));
}

namespace {

    // Marks a splitter once it has been shown: only then are its sizes the operator's (or the layout's), not those of
    // children that were never laid out.
    class ShownMarker final : public QObject {
    public:
        using QObject::QObject;
        static constexpr char Property[] = "outboxShown";

    protected:
        bool eventFilter(QObject* watched, QEvent* event) final override
        {
            if (event->type() == QEvent::Show)
                watched->setProperty(Property, true);
            return false;
        }
    };

} // namespace

void layOut(
    QWidget* view, QWidget* filterBar, QSplitter* splitter, QTableView* table, QWidget* detail, QHBoxLayout* bottomBar)
{
    splitter->installEventFilter(new ShownMarker(splitter));
    splitter->addWidget(table);
    splitter->addWidget(detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    bottomBar->addStretch(1);
    bottomBar->addWidget(loadStatus(qobject_cast<PagedListModelBase*>(table->model()), view));
    auto* layout = new QVBoxLayout(view);
    layout->addWidget(filterBar);
    layout->addWidget(splitter, 1);
    layout->addLayout(bottomBar);
}

void setUpSnapshotTable(QTableView* table, QAbstractItemModel* model, const QString& name)
{
    table->setModel(model);
    table->setObjectName(name);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setStretchLastSection(true);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

QLineEdit* filterEdit(const QString& placeholder, QWidget* parent)
{
    auto* edit = new QLineEdit(parent);
    edit->setPlaceholderText(placeholder);
    edit->setClearButtonEnabled(true);
    // Never narrower than what it says it filters, whatever else the bar holds (a failure group's chip, a range):
    // "Eve…" names nothing. The room beside the text is the frame's, the margins' and the clear button's.
    edit->setMinimumWidth(edit->fontMetrics().horizontalAdvance(placeholder) + PlaceholderPadding);
    return edit;
}

void addClearButton(QHBoxLayout* filterBar, const QString& toolTip, std::function<void()> clear)
{
    auto* button = new QToolButton;
    button->setText(QCoreApplication::translate("ListViewSetup", "Clear"));
    button->setToolTip(toolTip);
    filterBar->addWidget(button);
    QObject::connect(button, &QToolButton::clicked, button, std::move(clear));
}

QTimer* filterDelay(QObject* parent)
{
    auto* timer = new QTimer(parent);
    timer->setSingleShot(true);
    timer->setInterval(FilterDelayMs);
    return timer;
}

QList<qint64> selectedIds(const QTableView* table, int idRole)
{
    QList<qint64> ids;
    for (const QModelIndex& index : table->selectionModel()->selectedRows())
        ids.append(index.data(idRole).toLongLong());
    std::sort(ids.begin(), ids.end());
    return ids;
}

static qint64 focusedId(const QTableView* table, int idRole)
{
    const QModelIndex current = table->selectionModel()->currentIndex();
    if (current.isValid() && table->selectionModel()->isRowSelected(current.row()))
        return current.data(idRole).toLongLong();
    const QList<qint64> ids = selectedIds(table, idRole);
    return ids.isEmpty() ? 0 : ids.first();
}

void followSelection(QTableView* table, int idRole, std::function<qint64()> shown, std::function<void(qint64)> show)
{
    QObject::connect(table->selectionModel(), &QItemSelectionModel::selectionChanged, table,
        [table, idRole, shown = std::move(shown), show = std::move(show)] {
            const qint64 id = focusedId(table, idRole);
            if (id != shown())
                show(id);
        });
}

void keepSelectionAcrossResets(
    QTableView* table, QAbstractItemModel* model, int idRole, std::function<int(qint64)> rowOfId)
{
    auto selected = std::make_shared<QList<qint64>>();
    QObject::connect(model, &QAbstractItemModel::modelAboutToBeReset, table,
        [table, idRole, selected] { *selected = selectedIds(table, idRole); });
    QObject::connect(
        model, &QAbstractItemModel::modelReset, table, [table, model, selected, rowOfId = std::move(rowOfId)] {
            const QList<qint64> ids = std::exchange(*selected, {});
            QItemSelection selection;
            for (const qint64 id : ids) {
                const int row = rowOfId(id);
                if (row >= 0)
                    selection.select(model->index(row, 0), model->index(row, model->columnCount() - 1));
            }
            if (!selection.isEmpty())
                table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
        });
}

QAction* addCopyAsJsonAction(QTableView* table, std::function<QJsonArray(const QList<int>& rows)> rowsJson)
{
    auto* action = new QAction(QCoreApplication::translate("ListViewSetup", "Copy as &JSON"), table);
    action->setShortcut(QKeySequence::Copy);
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    table->addAction(action);
    QObject::connect(action, &QAction::triggered, table, [table, rowsJson = std::move(rowsJson)] {
        QList<int> rows;
        for (const QModelIndex& index : table->selectionModel()->selectedRows())
            rows.append(index.row());
        QApplication::clipboard()->setText(
            QString::fromUtf8(QJsonDocument(rowsJson(rows)).toJson(QJsonDocument::Indented)));
    });
    // A model reset clears the selection without announcing it.
    const auto update = [table, action] { action->setEnabled(table->selectionModel()->hasSelection()); };
    QObject::connect(table->selectionModel(), &QItemSelectionModel::selectionChanged, action, update);
    QObject::connect(table->model(), &QAbstractItemModel::modelReset, action, update);
    update();
    return action;
}

void saveState(QSettings& settings, const QString& group, const QTableView* table, const QSplitter* splitter)
{
    // A tab the operator never opened this time: what was saved before stays (saving its unlaid-out sizes gave the
    // list a third of the width on every later start).
    if (!splitter->property(ShownMarker::Property).toBool())
        return;
    settings.setValue(group + QStringLiteral("/header"), table->horizontalHeader()->saveState());
    settings.setValue(group + QStringLiteral("/splitter"), splitter->saveState());
}

void restoreState(const QSettings& settings, const QString& group, QTableView* table, QSplitter* splitter)
{
    table->horizontalHeader()->restoreState(settings.value(group + QStringLiteral("/header")).toByteArray());
    splitter->restoreState(settings.value(group + QStringLiteral("/splitter")).toByteArray());
}

} // namespace ListViewSetup
