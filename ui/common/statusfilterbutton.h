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

signals:
    void statusesChanged(const QStringList& statuses);

protected:
    bool eventFilter(QObject* watched, QEvent* event) final override;

private:
    void updateText();

    bool m_pressedInMenu = false;
};
