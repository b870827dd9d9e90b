// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QWidget>

class QCheckBox;
class QDateTimeEdit;

// "☐ Created from [date] ☐ to [date]": an optional lower and upper bound for a list filter. Each bound
// counts only while its checkbox is ticked, and its editor is enabled only then.
class TimeRangeFilter final : public QWidget {
    Q_OBJECT
public:
    // `fromText` labels the lower bound, e.g. "Created from".
    explicit TimeRangeFilter(const QString& fromText, QWidget* parent = nullptr);

    QDateTime from() const; // inclusive; invalid when unchecked
    QDateTime to() const; // exclusive; invalid when unchecked
    // An invalid instant unchecks its bound and leaves the editor's date for the next time it is ticked.
    // Does not emit rangeChanged(), like the other filter controls' setters.
    void setRange(const QDateTime& from, const QDateTime& to);

signals:
    void rangeChanged();

private:
    QCheckBox* m_fromEnabled;
    QDateTimeEdit* m_from;
    QCheckBox* m_toEnabled;
    QDateTimeEdit* m_to;
};
