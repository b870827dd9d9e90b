// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/databaseclient.h"
#include "core/pagedlistmodelbase.h"

#include <QSignalSpy>
#include <QTest>

// What the console's list-model tests share.
namespace ListModelTesting {

// Opens `worker` on `settings` and waits until it is connected.
inline bool openWorker(DatabaseClient& worker, const ConnectionSettings& settings)
{
    QSignalSpy connected(&worker, &DatabaseClient::connected);
    worker.open(settings, false);
    return connected.wait(10'000);
}

// Fetches pages the way a view does while the user scrolls to the end. Use with QVERIFY: false when a page
// did not arrive in time.
inline bool scrollToEnd(PagedListModelBase& model)
{
    QSignalSpy loaded(&model, &PagedListModelBase::pageLoaded);
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
