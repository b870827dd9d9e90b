// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>

// The signals and loading state of the console's lazily loaded lists (PagedListModel is a template,
// which moc cannot process).
class PagedListModelBase : public QAbstractTableModel {
    Q_OBJECT
public:
    bool isLoading() const { return m_loading; }
    // Why the last read failed (empty unless it did): the rows shown are from before it.
    const QString& failure() const { return m_failure; }

    // Gives up on the page being read (a search the operator does not want to wait for): its statement is
    // cancelled on the server and the list keeps the rows it has until the next reload.
    virtual void cancelLoading() = 0;

signals:
    void loadingChanged(bool loading);
    // The page being read was given up on (cancelLoading), just before loading ends.
    void loadCancelled();
    void loadFailed(const QString& message);
    // A page arrived; `first` is true for the first page after a reload.
    void pageLoaded(bool first);

protected:
    using QAbstractTableModel::QAbstractTableModel;

    void setLoading(bool loading)
    {
        if (m_loading == loading)
            return;
        m_loading = loading;
        emit loadingChanged(loading);
    }
    void setFailure(const QString& failure) { m_failure = failure; }

private:
    bool m_loading = false;
    QString m_failure;
};
