// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/resizewatcher.h"

#include <QEvent>
#include <QWidget>

ResizeWatcher::ResizeWatcher(QWidget* watched, std::function<void()> react)
    : QObject(watched)
    , m_react(std::move(react))
{
    watched->installEventFilter(this);
}

bool ResizeWatcher::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Resize)
        m_react();
    return QObject::eventFilter(watched, event);
}
