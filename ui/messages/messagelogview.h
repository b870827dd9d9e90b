// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class MessageLog;
class QTableView;

// The Messages panel: every message of the console with its time, the whole text wrapped (never cut), newest at the
// bottom, and a link to the rows it concerns. It follows the newest message unless the operator scrolled up to read.
class MessageLogView final : public QWidget {
    Q_OBJECT
public:
    MessageLogView(MessageLog* log, QWidget* parent = nullptr);

    QTableView* table() const { return m_table; }
    QSize sizeHint() const final override;

signals:
    // The operator opened an entry's rows (its link, or Enter or a double click on the entry).
    void showRows(const QList<qint64>& ids);

private:
    void activate(const QModelIndex& index);

    MessageLog* m_log;
    QTableView* m_table;
    bool m_following = true; // at the newest message: stay there as new ones come
};
