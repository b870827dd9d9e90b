// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/databaseclient.h"
#include "core/pagedlistmodelbase.h"

#include <QSignalSpy>
#include <QTest>
#include <memory>

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

// True once every result `worker` produced for earlier requests has been delivered to `context` (results come
// back in submission order). Use with QVERIFY.
inline bool drain(DatabaseClient& worker, QObject* context)
{
    const auto done = std::make_shared<bool>(false);
    worker.run<int>(
        context, [](DbSession&) { return 0; }, [done](int) { *done = true; });
    return QTest::qWaitFor([&done] { return *done; }, 10'000);
}

// Asks `model` for `wide` and, while that first page is still on its way, for `narrow`, the way an operator
// narrows a filter; returns how many pages the model announced once every answer is in (-1 if one never came).
// A model that drops the stale page announces exactly one.
template<typename Model, typename Filter>
int pagesAnnouncedAfterNarrowing(Model& model, DatabaseClient& worker, const Filter& wide, const Filter& narrow)
{
    QSignalSpy loaded(&model, &PagedListModelBase::pageLoaded);
    model.setFilter(wide);
    model.setFilter(narrow);
    if (!loaded.wait(10'000) || !QTest::qWaitFor([&model] { return !model.isLoading(); }, 10'000)
        || !drain(worker, &model))
        return -1;
    return int(loaded.size());
}

} // namespace ListModelTesting
