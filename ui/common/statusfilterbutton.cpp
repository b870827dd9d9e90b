// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/statusfilterbutton.h"

#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <utility>

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
    // Several states are chosen at once: a click (or Space) on one toggles it and leaves the menu open.
    menu->installEventFilter(this);
    setMenu(menu);
    setPopupMode(QToolButton::InstantPopup);
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    updateText();
}

bool StatusFilterButton::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != menu())
        return QToolButton::eventFilter(watched, event);
    QAction* action = nullptr;
    // A release that ends a press in the menu (not the drag that opened it from the button) with the left button.
    if (event->type() == QEvent::MouseButtonPress)
        m_pressedInMenu = static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton;
    if (event->type() == QEvent::MouseButtonRelease && std::exchange(m_pressedInMenu, false)
        && static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton)
        action = menu()->actionAt(static_cast<QMouseEvent*>(event)->position().toPoint());
    else if (event->type() == QEvent::KeyPress && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Space)
        action = menu()->activeAction();
    if (!action || !action->isCheckable() || !action->isEnabled())
        return QToolButton::eventFilter(watched, event);
    action->trigger();
    return true;
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
