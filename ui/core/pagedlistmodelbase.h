// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>

// The signals and loading state of the console's lazily loaded lists (PagedListModel is a template,
// which moc cannot process).
class PagedListModelBase : public QAbstractTableModel {
    Q_OBJECT
public:
    bool isLoading() const { return m_loading; }

signals:
    void loadingChanged(bool loading);
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

private:
    bool m_loading = false;
};
