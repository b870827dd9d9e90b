// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/connectionsettings.h"

#include <QString>

// A private, throwaway PostgreSQL server for demos: initdb and pg_ctl from the installed server binaries,
// data in a temporary directory, listening only on a Unix socket inside that directory (no TCP port unless
// listenOnTcp() asks for one, so nothing else on the machine can reach it). PostgreSQL refuses to run as root, so when
// the caller is root the server runs as the unprivileged `postgres` user. stop() (also called by the destructor) shuts
// the server down and removes the directory unless it was given to keep.
class PrivateCluster final {
    Q_DISABLE_COPY_MOVE(PrivateCluster)
public:
    // Creates the data directory below `keepDir` when it is not empty (and keeps it after stop()), else in a
    // new temporary directory that stop() removes. Throws OutboxError (kind Other) naming what failed.
    explicit PrivateCluster(const QString& keepDir = {});
    ~PrivateCluster();

    // Also listens on TCP at `address`:`port` and lets clients from the network `clients` (CIDR) in without a
    // password: for tests whose clients sit in other network namespaces. Takes effect at the next start().
    void listenOnTcp(const QString& address, quint16 port, const QString& clients);
    // A DSN that reaches the server over that TCP address.
    QString tcpDsn() const;

    void start();
    // Never throws: a server already gone (stopped or killed by hand) is stopped, and one that will not stop is said
    // with qWarning; the directory is removed either way (unless kept).
    void stop();
    // Stops the server the way a crash or a failover looks to its clients (pg_ctl stop -m immediate: no
    // checkpoint, every connection cut), keeping the data; start() brings it back through crash recovery. A server
    // already gone is left as it is.
    void crash();

    bool isRunning() const { return m_running; }
    const QString& directory() const { return m_directory; }
    // Connects as the cluster's superuser through its socket.
    ConnectionSettings settings() const;
    QString dsn() const;

    // The server's binaries: PG_BINDIR if set, else the newest /usr/lib/postgresql/*/bin.
    static QString binDirectory();

private:
    void run(const QString& program, const QStringList& arguments) const;
    // pg_ctl stop in `mode`, unless the server is gone already.
    void stopServer(const QString& mode) const;

    QString m_directory;
    bool m_keep = false;
    bool m_running = false;
    QString m_user; // the operating-system user the server runs as
    QString m_tcpAddress; // empty: Unix socket only
    quint16 m_tcpPort = 0;
    QString m_tcpClients;
};
