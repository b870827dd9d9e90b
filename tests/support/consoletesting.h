// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/operatoractiondialog.h"
#include "db/connectionsettings.h"
#include "mainwindow/mainwindow.h"
#include "outbox/outboxtablemodel.h"
#include "outbox/outboxview.h"

#include <QApplication>
#include <QLineEdit>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <functional>
#include <memory>

// What the tests of the whole console share (header-only: only the tests that link the console's libraries
// include it): a main window connected to a database, and answers to the operator-action dialog.
namespace ConsoleTesting {

// Where a main window reads its auto-refresh interval in seconds (0: off) as it opens, and saves it as it closes.
inline const QString AutoRefreshSecondsKey = QStringLiteral("view/autoRefreshSeconds");

// The auto-refresh off for the windows opened while the returned guard lives, then the default again: declare it
// before the window, which saves its own interval as it closes.
[[nodiscard]] inline auto withoutAutoRefresh()
{
    QSettings().setValue(AutoRefreshSecondsKey, 0);
    return qScopeGuard([] { QSettings().remove(AutoRefreshSecondsKey); });
}

// A shown main window of `size`, connected to `settings`; nullptr if it did not connect within 10 s.
inline std::unique_ptr<MainWindow> openWindow(const ConnectionSettings& settings, QSize size = QSize(1400, 900))
{
    auto window = std::make_unique<MainWindow>();
    window->resize(size);
    window->show();
    QSignalSpy connected(window.get(), &MainWindow::connected);
    window->connectTo(settings, QStringLiteral("test"));
    if (!connected.wait(10'000))
        return nullptr;
    return window;
}

// Runs `inDialog` on the modal dialog of type `Dialog` as soon as it opens (an action's dialog opens after a read on
// the action worker). `owner` owns the poll.
template<typename Dialog> void whenModalOpens(QObject* owner, const std::function<void(Dialog&)>& inDialog)
{
    auto* poll = new QTimer(owner);
    poll->setInterval(10);
    QObject::connect(poll, &QTimer::timeout, owner, [poll, inDialog] {
        auto* dialog = qobject_cast<Dialog*>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        poll->stop();
        poll->deleteLater();
        inDialog(*dialog);
    });
    poll->start();
}

// Runs `inDialog` on the OperatorActionDialog as soon as it opens, then accepts it with `reason`, or rejects it when
// `reason` is empty. `owner` owns the poll.
inline void answerNextDialog(
    QObject* owner, const QString& reason, const std::function<void(OperatorActionDialog&)>& inDialog = {})
{
    whenModalOpens<OperatorActionDialog>(owner, [reason, inDialog](OperatorActionDialog& dialog) {
        if (inDialog)
            inDialog(dialog);
        if (reason.isEmpty()) {
            dialog.reject();
            return;
        }
        dialog.findChild<QLineEdit*>(QStringLiteral("reason"))->setText(reason);
        dialog.accept();
    });
}

// Refreshes act on the visible tab, as an operator sees it.
inline void showOutboxTab(MainWindow& window)
{
    window.findChild<QTabWidget*>()->setCurrentWidget(window.outboxView());
}

// Selects the rows of `ids` in the outbox list; each must be loaded.
inline void selectIds(OutboxView& view, const QList<qint64>& ids)
{
    view.table()->clearSelection();
    for (qint64 id : ids) {
        const int row = view.model()->rowOfId(id);
        QVERIFY(row >= 0);
        view.table()->selectionModel()->select(
            view.model()->index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
}

// Waits until the outbox list has loaded and holds `rows` rows; false after 10 s.
inline bool waitForRows(OutboxView& view, int rows)
{
    return QTest::qWaitFor([&] { return !view.model()->isLoading() && view.model()->rowCount() == rows; }, 10'000);
}

} // namespace ConsoleTesting
