// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <functional>

class QWidget;

// Runs `react` after each resize of a widget one does not subclass (a table's viewport), for what is fitted to it.
class ResizeWatcher final : public QObject {
public:
    // Owned by `watched`.
    ResizeWatcher(QWidget* watched, std::function<void()> react);

protected:
    bool eventFilter(QObject* watched, QEvent* event) final override;

private:
    std::function<void()> m_react;
};
