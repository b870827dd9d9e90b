// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/statusfilterbutton.h"

#include <QMenu>

StatusFilterButton::StatusFilterButton(const QStringList& statuses, QWidget* parent)
    : QToolButton(parent)
{
    auto* menu = new QMenu(this);
    for (const QString& status : statuses) {
        QAction* action = menu->addAction(status);
        action->setCheckable(true);
        connect(action, &QAction::toggled, this, [this] {
            updateText();
            emit statusesChanged(checkedStatuses());
        });
    }
    setMenu(menu);
    setPopupMode(QToolButton::InstantPopup);
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    updateText();
}

QStringList StatusFilterButton::checkedStatuses() const
{
    QStringList checked;
    for (const QAction* action : menu()->actions()) {
        if (action->isChecked())
            checked.append(action->text());
    }
    return checked;
}

void StatusFilterButton::setCheckedStatuses(const QStringList& statuses)
{
    const QSignalBlocker blocker(this);
    for (QAction* action : menu()->actions()) {
        const QSignalBlocker actionBlocker(action);
        action->setChecked(statuses.contains(action->text()));
    }
    updateText();
}

void StatusFilterButton::updateText()
{
    const QStringList checked = checkedStatuses();
    setText(checked.isEmpty() ? tr("Status: all") : tr("Status: %1").arg(checked.join(QStringLiteral(", "))));
}
