// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/pagedlistmodelbase.h"

#include <QDateTime>
#include <QJsonArray>
#include <QList>
#include <QMenu>
#include <QScrollBar>
#include <QTableView>
#include <functional>

class QAction;
class QHBoxLayout;
class QLineEdit;
class QSettings;
class QSplitter;
class QTimer;

// What the console's lists (a PagedListModel in a QTableView beside a detail pane) share, so every list
// looks and behaves alike.
namespace ListViewSetup {

// Whole rows, extended selection, alternating colours, one compact line per row, movable columns and a
// custom context menu. No sorting: the keyset order (by id) is the only one the database can page in.
void setUpTable(QTableView* table, QAbstractItemModel* model);

// Makes `columns` wide enough for a timestamp as TimeFormatter shows it.
void fitInstantColumns(QTableView* table, std::initializer_list<int> columns);

// The filter bar on top, `table` (set up with setUpTable) beside its detail pane in `splitter`, and below them
// `bottomBar` (action buttons, or nothing) ending in "1,200 rows loaded · scroll for more" (or, while a page takes
// longer than 300 ms, "Searching…" with a Cancel button).
void layOut(
    QWidget* view, QWidget* filterBar, QSplitter* splitter, QTableView* table, QWidget* detail, QHBoxLayout* bottomBar);

// The look of a small table that each load replaces (the Overview's, the event types): whole rows, no editing,
// compact rows, columns fitted to their contents but the last.
void setUpSnapshotTable(QTableView* table, QAbstractItemModel* model, const QString& name);

// The room a filter edit needs beside its placeholder: frame, text margins and the clear button.
inline constexpr int PlaceholderPadding = 44;

// A free-text filter field with a clear button, never narrower than its placeholder.
QLineEdit* filterEdit(const QString& placeholder, QWidget* parent);
// "Clear" at the end of a filter bar; `clear` shows every row again.
void addClearButton(QHBoxLayout* filterBar, const QString& toolTip, std::function<void()> clear);
// Restarted by every filter edit: the list reloads once the operator pauses, not on every keystroke.
QTimer* filterDelay(QObject* parent);

// True when `model` already shows `filter` completely, so applying it again would only reload the same rows.
// A list that failed or came back empty is read again: the operator may be retrying.
template<typename Model, typename Filter> bool alreadyShows(const Model& model, const Filter& filter)
{
    return filter == model.filter() && !model.isLoading() && model.rowCount() > 0;
}

// A context-menu entry that narrows what `view` shows: its current filter, changed by `narrow`.
template<typename View, typename Narrow>
void addNarrowingAction(QMenu& menu, const QString& text, View* view, Narrow narrow)
{
    menu.addAction(text, view, [view, narrow] {
        auto filter = view->filter();
        narrow(filter);
        view->showFilter(filter);
    });
}

// The ids (read with `idRole`) of the selected rows, ascending.
QList<qint64> selectedIds(const QTableView* table, int idRole);

// Keeps a detail pane (`shown`, `show`) on the row the operator is looking at: the current row if it is selected, else
// the lowest selected id; 0 (an empty pane) when nothing is selected.
void followSelection(QTableView* table, int idRole, std::function<qint64()> shown, std::function<void(qint64)> show);

// A reload's first page (or a snapshot's refresh) replaces the rows in one model reset, which clears the selection:
// the ids selected at that moment (also those selected while the page was on its way) are selected again where they
// still are. Once per table.
void keepSelectionAcrossResets(
    QTableView* table, QAbstractItemModel* model, int idRole, std::function<int(qint64)> rowOfId);
template<typename Model> void keepSelectionAcrossResets(QTableView* table, Model* model)
{
    keepSelectionAcrossResets(table, model, Model::IdRole, [model](qint64 id) { return model->rowOfId(id); });
}

// The table property holding the id of the row that was at the top before a reload (refresh()), for the reload to
// put back there.
inline constexpr char ReloadAnchorProperty[] = "reloadAnchor";

// For a PagedListModel's table, once: keepSelectionAcrossResets(), and a reload that refresh() starts while the
// operator works on the list keeps the rows they see where they are (see refresh()).
template<typename Model> void keepSelectionAndPlace(QTableView* table, Model* model)
{
    keepSelectionAcrossResets(table, model);
    QObject::connect(model, &PagedListModelBase::pageLoaded, table, [table, model](bool first) {
        const qint64 anchor = table->property(ReloadAnchorProperty).toLongLong();
        if (!first)
            return;
        table->setProperty(ReloadAnchorProperty, QVariant());
        const int row = anchor == 0 ? -1 : model->rowOfId(anchor);
        if (row > 0)
            table->scrollTo(model->index(row, 0), QAbstractItemView::PositionAtTop);
    });
    // A reload that did not arrive (failed, cancelled, or dropped for a new filter, which empties the list at once)
    // leaves nothing for a later first page to act on.
    const auto forget = [table] { table->setProperty(ReloadAnchorProperty, QVariant()); };
    QObject::connect(model, &PagedListModelBase::loadFailed, table, forget);
    QObject::connect(model, &PagedListModelBase::loadCancelled, table, forget);
    QObject::connect(model, &QAbstractItemModel::modelReset, table, [model, forget] {
        if (model->rowCount() == 0)
            forget();
    });
}

// Re-reads what `table` shows of a PagedListModel without losing the selection or the scroll position: at the top
// of the list it reloads (so new rows appear), further down it refreshes the visible rows in place. While the
// operator works on the list (a row selected, or the pointer over it), the reload puts the new rows above the ones
// they see instead of pushing those down under the pointer: the scroll bar says there are new rows, scrolling up
// shows them. (keepSelectionAndPlace() must have been called.)
template<typename Model> void refresh(QTableView* table, Model* model)
{
    if (table->verticalScrollBar()->value() == 0) {
        const bool atWork = table->selectionModel()->hasSelection() || table->viewport()->underMouse();
        table->setProperty(
            ReloadAnchorProperty, atWork && model->rowCount() > 0 ? QVariant(model->rowAt(0).id) : QVariant());
        model->reload();
        return;
    }
    const int first = table->rowAt(0);
    const int last = table->rowAt(table->viewport()->height() - 1);
    model->refreshRows(first, last < 0 ? model->rowCount() - 1 : last);
}

// "Copy as JSON" (Ctrl+C in the table, enabled while rows are selected): the selected rows as an indented
// JSON array on the clipboard, as `rowsJson` writes the selected rows (the export definitions' JSON, so a
// copied row reads like `outboxctl list --format json`).
QAction* addCopyAsJsonAction(QTableView* table, std::function<QJsonArray(const QList<int>& rows)> rowsJson);

// Column layout and splitter position under `group` (e.g. "outbox/header", "outbox/splitter"); saved only once the
// splitter (laid out by layOut()) was shown, else what was saved before stays.
void saveState(QSettings& settings, const QString& group, const QTableView* table, const QSplitter* splitter);
void restoreState(const QSettings& settings, const QString& group, QTableView* table, QSplitter* splitter);

} // namespace ListViewSetup
