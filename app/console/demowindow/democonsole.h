// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAction>
#include <QObject>
#include <QPointer>

class DemoSystem;
class MainWindow;

class QWidget;

// The console's side of `outbox-console --demo`: the window shows each step of the demo's start as it begins (the
// servers take seconds), connects once they are up, and gains the Demo menu (faults to practise on, the repair of the
// unroutable events) and Help → About the demo. What each fault did goes to the message log. stop() stops the demo
// with a small window saying what is stopping, since that too takes seconds after the main window is gone.
class DemoConsole final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoConsole)
public:
    DemoConsole(MainWindow& window, DemoSystem& system);

    // Starts the demo; the window follows it. A start that fails is said in a message box, then failed() follows.
    void start();
    void stop();
    // The message box a demo that cannot start ends with (also when DemoSystem itself cannot be made).
    static void sayCannotStart(QWidget* parent, const QString& why);

    QAction* startConsumerAction() const { return m_startConsumer; }
    QAction* stopConsumerAction() const { return m_stopConsumer; }
    QAction* fixRoutingAction() const { return m_fixRouting; }
    QAction* raiseQueueLimitAction() const { return m_raiseQueueLimit; }

signals:
    void failed();

private:
    void addMenu();

    MainWindow& m_window;
    DemoSystem& m_system;
    QPointer<QAction> m_startConsumer;
    QPointer<QAction> m_stopConsumer;
    QPointer<QAction> m_fixRouting;
    QPointer<QAction> m_raiseQueueLimit;
};
