// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/databaseclient.h"
#include "core/latestrequest.h"
#include "core/pagedlistmodelbase.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <functional>
#include <utility>

// A list of `Row`s (each with an `id`) matching a `Filter`, newest first, loaded page by page on the
// database worker as the view scrolls (canFetchMore/fetchMore). Every reload takes a new LatestRequest ticket; a page
// that arrives for an older one (the filter changed meanwhile) is dropped. Memory grows only with
// what the operator has scrolled through, never with the table. A subclass that translates texts declares
// Q_DECLARE_TR_FUNCTIONS(ItsName): a template cannot have Q_OBJECT, and the inherited tr() would look its texts up
// under PagedListModelBase, where the translation files do not have them.
template<typename Row, typename Filter> class PagedListModel : public PagedListModelBase {
public:
    struct Page {
        QList<Row> rows;
        QDateTime serverNow;
    };
    using PageQuery = std::function<Page(DbSession&, const Filter&, qint64 beforeId, int limit)>;
    using RowsQuery = std::function<QList<Row>(DbSession&, const QList<qint64>& ids)>;

    static constexpr int DefaultPageSize = 200;

    int rowCount(const QModelIndex& parent = {}) const final override
    {
        return parent.isValid() ? 0 : int(m_rows.size());
    }

    bool canFetchMore(const QModelIndex& parent) const final override
    {
        return !parent.isValid() && !m_exhausted && !m_failed && !isLoading();
    }

    void fetchMore(const QModelIndex& parent) final override
    {
        if (canFetchMore(parent))
            requestPage();
    }

    const Filter& filter() const { return m_filter; }
    // Drops every loaded row (they matched another filter) and reads the first page of `filter`.
    void setFilter(const Filter& filter)
    {
        m_filter = filter;
        startOver(Rows::Drop);
    }

    void setPageSize(int rows) { m_pageSize = rows; }

    // Reads the first page again; the loaded rows stay until it replaces them. A reload that fails (the
    // database unreachable) leaves the list as it was, with failure() saying why, rather than empty.
    void reload() { startOver(Rows::KeepUntilReplaced); }

    // Re-reads the rows first..last in place (the visible ones, after a change notification), keeping
    // their positions so the selection and the scroll position stay where they are.
    void refreshRows(int first, int last)
    {
        QList<qint64> ids;
        for (int row = qMax(first, 0); row <= last && row < m_rows.size(); ++row)
            ids.append(m_rows.at(row).id);
        if (ids.isEmpty())
            return;
        m_worker.template runLatest<QList<Row>>(
            m_requests, this, [query = m_rowsQuery, ids](DbSession& session) { return query(session, ids); },
            [this](const QList<Row>& fresh) {
                for (const Row& row : fresh) {
                    const int index = rowOfId(row.id);
                    if (index < 0)
                        continue;
                    m_rows[index] = row;
                    emit dataChanged(this->index(index, 0), this->index(index, columnCount() - 1));
                }
            },
            [this](const OutboxError& error) { emit loadFailed(error.message()); });
    }

    void cancelLoading() final override
    {
        if (!isLoading())
            return;
        // A new ticket: the cancelled statement's error is not a failure to report.
        m_requests.next();
        m_worker.cancelRunning();
        // As after a failure, only a reload reads again.
        m_failed = true;
        m_replacing = false;
        emit loadCancelled();
        setLoading(false);
    }

    const Row& rowAt(int row) const { return m_rows.at(row); }
    // Rows are newest first, but not always in id order (a created-time range orders by created time).
    int rowOfId(qint64 id) const { return m_rowOfId.value(id, -1); }
    // The database's clock when the last page was read.
    const QDateTime& serverNow() const { return m_serverNow; }

protected:
    PagedListModel(DatabaseClient& worker, PageQuery pageQuery, RowsQuery rowsQuery, QObject* parent)
        : PagedListModelBase(parent)
        , m_worker(worker)
        , m_pageQuery(std::move(pageQuery))
        , m_rowsQuery(std::move(rowsQuery))
    { }

private:
    enum class Rows { Drop, KeepUntilReplaced };
    void startOver(Rows rows)
    {
        m_requests.next();
        m_exhausted = false;
        m_failed = false;
        setFailure({});
        m_replacing = rows == Rows::KeepUntilReplaced && !m_rows.isEmpty();
        if (!m_replacing) {
            beginResetModel();
            m_rows.clear();
            m_rowOfId.clear();
            endResetModel();
        }
        setLoading(false);
        requestPage();
    }

    void requestPage()
    {
        setLoading(true);
        const bool first = m_replacing || m_rows.isEmpty();
        const qint64 cursor = first ? 0 : m_rows.last().id;
        // A page read for an earlier filter (it changed while the page was on its way) is dropped.
        m_worker.template runLatest<Page>(
            m_requests, this,
            [query = m_pageQuery, filter = m_filter, cursor, limit = m_pageSize](
                DbSession& session) { return query(session, filter, cursor, limit); },
            [this, first](const Page& page) {
                m_serverNow = page.serverNow;
                m_exhausted = page.rows.size() < m_pageSize;
                if (std::exchange(m_replacing, false)) {
                    beginResetModel();
                    m_rows = page.rows;
                    m_rowOfId.clear();
                    for (qsizetype i = 0; i < m_rows.size(); ++i)
                        m_rowOfId.insert(m_rows.at(i).id, int(i));
                    endResetModel();
                } else if (!page.rows.isEmpty()) {
                    beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + page.rows.size() - 1));
                    for (qsizetype i = 0; i < page.rows.size(); ++i)
                        m_rowOfId.insert(page.rows.at(i).id, int(m_rows.size() + i));
                    m_rows += page.rows;
                    endInsertRows();
                }
                setLoading(false);
                emit pageLoaded(first);
            },
            [this](const OutboxError& error) {
                // No automatic retry: the view would ask again at once. A reload (after reconnecting,
                // on refresh) starts over.
                m_failed = true;
                m_replacing = false;
                setFailure(error.message());
                setLoading(false);
                emit loadFailed(error.message());
            });
    }

    DatabaseClient& m_worker;
    PageQuery m_pageQuery;
    RowsQuery m_rowsQuery;
    Filter m_filter;
    QList<Row> m_rows;
    QHash<qint64, int> m_rowOfId;
    QDateTime m_serverNow;
    LatestRequest m_requests;
    int m_pageSize = DefaultPageSize;
    bool m_exhausted = false;
    bool m_failed = false;
    bool m_replacing = false; // the page on its way replaces the rows loaded so far
};
