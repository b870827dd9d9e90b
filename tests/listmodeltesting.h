#pragma once

#include "databaseworker.h"
#include "pagedtablemodel.h"

#include <QSignalSpy>
#include <QTest>

// What the console's list-model tests share.
namespace ListModelTesting {

// Opens `worker` on `settings` and waits until it is connected.
inline bool openWorker(DatabaseWorker& worker, const ConnectionSettings& settings)
{
    QSignalSpy connected(&worker, &DatabaseWorker::connected);
    worker.open(settings, false);
    return connected.wait(10'000);
}

// Fetches pages the way a view does while the user scrolls to the end. Use with QVERIFY: false when a page
// did not arrive in time.
inline bool scrollToEnd(PagedTableModel& model)
{
    QSignalSpy loaded(&model, &PagedTableModel::pageLoaded);
    if (model.isLoading() && !loaded.wait(10'000))
        return false;
    while (model.canFetchMore({})) {
        model.fetchMore({});
        if (!loaded.wait(10'000))
            return false;
    }
    return true;
}

} // namespace ListModelTesting
