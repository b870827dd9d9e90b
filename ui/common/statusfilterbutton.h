// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QToolButton>

// "Status: failed, dead ▾" — a drop-down of checkable statuses for a list filter. No status checked means
// every status.
class StatusFilterButton final : public QToolButton {
    Q_OBJECT
public:
    StatusFilterButton(const QStringList& statuses, QWidget* parent = nullptr);

    QStringList checkedStatuses() const;
    void setCheckedStatuses(const QStringList& statuses);

    // The checked names as statuses of the enum `names` maps (the button only offers names it knows).
    template<typename Names> static auto parsed(const Names& names, const QStringList& checked)
    {
        decltype(names.values()) statuses;
        for (const QString& name : checked) {
            if (const auto status = names.parse(name))
                statuses.append(*status);
        }
        return statuses;
    }

signals:
    void statusesChanged(const QStringList& statuses);

private:
    void updateText();
};
