// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "demo/privatecluster.h"

#include <QObject>
#include <QProcess>
#include <QUrl>
#include <memory>

// The whole system on one machine, for `outbox-console --demo`: a private PostgreSQL, the orders service,
// a relay whose broker fails part of the time (so rows retry and some go dead), and a load generator sending
// duplicate-heavy traffic. stop() (and the destructor) end every process and remove the cluster.
class DemoSystem final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoSystem)
public:
    struct Programs {
        QString ordersService;
        QString outboxctl;
    };

    // Finds the programs next to `applicationDir` (an installed bin directory) or in a build tree beside it.
    static Programs locate(const QString& applicationDir);

    DemoSystem(Programs programs, const QString& keepDir = {}, QObject* parent = nullptr);
    ~DemoSystem() final override;

    // Starts the cluster and the schema synchronously, then the processes; ready() follows once the service
    // listens and traffic flows. Throws OutboxError naming what could not start.
    void start();
    void stop();

    ConnectionSettings settings() const { return m_cluster.settings(); }
    const QUrl& serviceUrl() const { return m_serviceUrl; }
    const PrivateCluster& cluster() const { return m_cluster; }

signals:
    void ready();
    // A demo process ended on its own (not through stop()); `output` is its last lines.
    void processFailed(const QString& program, const QString& output);

private:
    QProcess* launch(const QString& program, const QStringList& arguments);
    void startClients();

    Programs m_programs;
    PrivateCluster m_cluster;
    QUrl m_serviceUrl;
    QList<QProcess*> m_processes;
    bool m_stopping = false;
};
