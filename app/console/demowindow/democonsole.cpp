// SPDX-License-Identifier: GPL-3.0-or-later
#include "demowindow/democonsole.h"

#include "demo/demosystem.h"
#include "mainwindow/mainwindow.h"

#include <QAction>
#include <QCoreApplication>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTextStream>

DemoConsole::DemoConsole(MainWindow& window, DemoSystem& system)
    : m_window(window)
    , m_system(system)
{
    // In this object's context: a demo that outlives it (stopping in its destructor) says nothing to a window it no
    // longer follows.
    connect(&system, &DemoSystem::stage, this, [this](const QString& what) { m_window.postMessage(what); });
    connect(&system, &DemoSystem::injected, this, [this](const QString& what) { m_window.postMessage(what); });
    connect(&system, &DemoSystem::processFailed, this, [this](const QString& program, const QString& output) {
        const QString stopped = tr("%1 stopped:\n%2").arg(program, output);
        m_window.postMessage(stopped);
        QMessageBox::warning(&m_window, tr("Demo process ended"), stopped);
    });
    connect(&system, &DemoSystem::serversStarted, this, [this] {
        m_window.connectTo(m_system.settings(), tr("the demo database"));
        addMenu();
    });
    connect(&system, &DemoSystem::ready, this, [this] {
        QTextStream out(stdout);
        for (const QString& line : m_system.components())
            out << line << Qt::endl;
        m_window.postMessage(tr("The demo runs: orders flow through the outbox"));
    });
    connect(&system, &DemoSystem::startFailed, this, [this](const QString& why) {
        sayCannotStart(&m_window, why);
        emit failed();
    });
}

void DemoConsole::sayCannotStart(QWidget* parent, const QString& why)
{
    QMessageBox::critical(parent, tr("Cannot start the demo"), why);
}

void DemoConsole::start()
{
    m_system.start();
}

void DemoConsole::stop()
{
    // The main window is gone by now; without this the demo would seem to have quit while its servers still stop.
    QLabel notice;
    notice.setWindowTitle(tr("Stopping the demo"));
    notice.setMargin(24);
    notice.setMinimumWidth(notice.fontMetrics().averageCharWidth() * 48);
    // stop() holds the event loop until it is done: each step is shown as it begins by handing the window system
    // what it needs to map and paint the notice (user input stays queued; the demo ignores its processes' ends by
    // then).
    const auto showNow = [&notice] {
        notice.repaint();
        QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    };
    const QMetaObject::Connection said
        = connect(&m_system, &DemoSystem::stage, &notice, [&notice, &showNow](const QString& what) {
              notice.setText(what);
              showNow();
          });
    notice.setText(tr("Stopping the demo…"));
    notice.show();
    showNow();
    m_system.stop();
    disconnect(said);
}

void DemoConsole::addMenu()
{
    // On stdout the components' line "demo: rabbitmq none (why)" says it.
    if (!m_system.brokerAbsence().isEmpty()) {
        const QString absence = tr("Demo without RabbitMQ: %1").arg(m_system.brokerAbsence());
        m_window.statusBar()->addPermanentWidget(new QLabel(absence));
        m_window.postMessage(absence);
    }
    QMenuBar* bar = m_window.menuBar();
    QMenu* help = bar->actions().constLast()->menu();
    auto* demo = new QMenu(tr("&Demo"), &m_window);
    demo->setObjectName(QStringLiteral("demoMenu"));
    bar->insertMenu(bar->actions().constLast(), demo);
    const bool broker = m_system.broker() != nullptr;
    m_fixRouting = demo->addAction(tr("&Fix the routing of order.cancelled"), &m_system, &DemoSystem::fixRouting);
    demo->addSeparator();
    demo->addAction(tr("Stop the &broker for 30 s"), &m_system, [this] { m_system.stopBrokerFor(30'000); })
        ->setEnabled(broker);
    demo->addAction(tr("&Kill the relay (restarted after 5 s)"), &m_system, &DemoSystem::killRelay);
    demo->addAction(tr("&Restart PostgreSQL (immediate stop)"), &m_system, &DemoSystem::restartDatabase);
    m_stopConsumer = demo->addAction(tr("Stop the &consumer"), &m_system, &DemoSystem::stopConsumer);
    m_startConsumer = demo->addAction(tr("S&tart the consumer"), &m_system, &DemoSystem::startConsumer);
    // Only what can be done is offered: the consumer is started or stopped, never twice.
    const auto followConsumer = [stop = m_stopConsumer.data(), start = m_startConsumer.data(), broker](bool running) {
        stop->setEnabled(broker && running);
        start->setEnabled(broker && !running);
    };
    followConsumer(m_system.isConsumerRunning());
    // In the actions' context (one menu holds both): they follow the demo as long as they exist.
    connect(&m_system, &DemoSystem::consumerRunningChanged, m_startConsumer, followConsumer);
    m_raiseQueueLimit = demo->addAction(tr("Raise the queue &limit"), &m_system, &DemoSystem::raiseQueueLimit);
    // A repair is offered until it is made: a second would change nothing.
    const auto followRepairs = [this, broker] {
        m_fixRouting->setEnabled(broker && !m_system.isRoutingFixed());
        m_raiseQueueLimit->setEnabled(broker && !m_system.isQueueLimitRaised());
    };
    followRepairs();
    connect(&m_system, &DemoSystem::repairsChanged, m_raiseQueueLimit, followRepairs);
    help->addAction(tr("About the &demo"), this, [this] {
        QString text
            = tr("<b>The demo</b><p>orders-service → outbox → relay (publisher confirms) → exchange %1 → queue "
                 "%2 → consumer (inbox) → order counts. Order cancellations have no queue until the routing "
                 "is fixed (Demo menu).</p>")
                  .arg(DemoSystem::Exchange, DemoSystem::CountsQueue);
        for (const QString& line : m_system.components())
            text += QStringLiteral("<p><tt>%1</tt></p>").arg(line.toHtmlEscaped());
        QMessageBox::about(&m_window, tr("About the demo"), text);
    });
}
