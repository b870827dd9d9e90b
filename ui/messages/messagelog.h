// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>
#include <QString>

// What the console said: every message of the status bar (operator actions and their outcome, the demo's faults,
// connection changes, exports, the keychain, the language) in the order said, oldest first, each with the time it
// was said on this computer's clock and the outbox rows it concerns. The one path every message takes: the status
// bar shows the newest, the Messages panel all of them, so none vanishes after a few seconds.
class MessageLog final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Text, Rows, ColumnCount };
    enum Role { RowIdsRole = Qt::UserRole + 1 };
    // The oldest messages give way beyond this many.
    static constexpr int Capacity = 1000;

    struct Entry {
        QDateTime at; // this computer's clock, not the server's
        QString text; // complete
        QList<qint64> rows; // outbox rows it concerns; empty: none
        int repeats = 1; // the same text said again at once counts here instead of filling the log
    };

    explicit MessageLog(QObject* parent = nullptr);

    // Adds `text` (and the rows it concerns). The same text and rows as the newest entry count as a repeat of it.
    void post(const QString& text, const QList<qint64>& rows = {});

    const QList<Entry>& entries() const { return m_entries; }

    int rowCount(const QModelIndex& parent = {}) const final override;
    int columnCount(const QModelIndex& parent = {}) const final override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final override;

    // The link text of an entry's rows, e.g. "Show 30 rows"; empty without rows.
    static QString rowsLink(const Entry& entry);

signals:
    // After every post, with the entry as it now is: what the status bar shows.
    void posted(const MessageLog::Entry& entry);

private:
    QList<Entry> m_entries;
};
