// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "demo/privatecluster.h"
#include "support/processtesting.h"

#include <QDir>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

// The demo's private PostgreSQL: starts from nothing, serves only its own socket, and leaves nothing behind.
class TestPrivateCluster final : public QObject {
    Q_OBJECT

private slots:
    void startsServesAndCleansUp()
    {
        QString directory;
        {
            PrivateCluster cluster;
            directory = cluster.directory();
            cluster.start();
            QVERIFY(cluster.isRunning());
            QVERIFY(ProcessTesting::processesMentioning(directory) > 0);
            DbSession session(cluster.settings(), QStringLiteral("private"));
            QCOMPARE(SchemaMigrator(session).migrate(), SchemaMigrator::latestVersion());
            QSqlQuery& q = session.exec(
                QStringLiteral("SELECT current_setting('listen_addresses')"), {}, QStringLiteral("listen addresses"));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toString(), QString()); // no TCP listener at all
        }
        QVERIFY(!QDir(directory).exists());
        QCOMPARE(ProcessTesting::processesMentioning(directory), 0);
    }

    void keptDirectorySurvivesARestart()
    {
        QTemporaryDir parent;
        // The server may run as another user (when the test runs as root), who must be able to reach the directory.
        QFile::setPermissions(parent.path(), QFile::permissions(parent.path()) | QFile::ExeGroup | QFile::ExeOther);
        const QString keep = parent.filePath(QStringLiteral("demo-data"));
        {
            PrivateCluster cluster(keep);
            cluster.start();
            DbSession session(cluster.settings(), QStringLiteral("private"));
            SchemaMigrator(session).migrate();
            session.execScript(
                QStringLiteral("INSERT INTO orders (customer, amount, currency) VALUES ('kept', 1, 'EUR')"),
                QStringLiteral("seed"));
        }
        QVERIFY(QFile::exists(keep + QStringLiteral("/data/PG_VERSION")));
        QCOMPARE(ProcessTesting::processesMentioning(keep), 0);
        PrivateCluster again(keep);
        again.start();
        DbSession session(again.settings(), QStringLiteral("private"));
        QSqlQuery& q = session.exec(QStringLiteral("SELECT customer FROM orders"), {}, QStringLiteral("read back"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("kept"));
    }
};

QTEST_GUILESS_MAIN(TestPrivateCluster)
#include "tst_privatecluster.moc"
