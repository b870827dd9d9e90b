// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/outagetracker.h"
#include "db/retrydelay.h"

#include <QTest>

// How a long-running process tells its log about an outage (once as it begins, once as it ends), and how long
// it waits between reconnects.
class TestOutageTracker final : public QObject {
    Q_OBJECT

    struct Line {
        QtMsgType level;
        QString text;
    };

    QList<Line> m_lines;

    OutageTracker::Log collect()
    {
        return [this](QtMsgType level, const QString& text) { m_lines.append({ level, text }); };
    }

private slots:
    void init() { m_lines.clear(); }

    void upStaysSilent()
    {
        OutageTracker database(QStringLiteral("database"), collect());
        database.reportUp();
        database.reportUp();
        QVERIFY(m_lines.isEmpty());
        QVERIFY(database.isUp());
        QVERIFY(database.problem().isEmpty());
    }

    // However many threads and retries run into it, an outage is one warning when it begins and one line when it
    // ends; a reason that changes at once (refused, then starting up) only updates what /healthz reports.
    void anOutageIsOneLineEachWay()
    {
        OutageTracker database(QStringLiteral("database"), collect());
        database.reportDown(QStringLiteral("claiming outbox rows: server closed the connection unexpectedly"));
        for (int retry = 0; retry < 5; ++retry)
            database.reportDown(QStringLiteral("connecting: connection refused"));
        QVERIFY(!database.isUp());
        QCOMPARE(database.problem(), QStringLiteral("connecting: connection refused"));
        QCOMPARE(m_lines.size(), 1);
        QCOMPARE(m_lines.at(0).level, QtWarningMsg);
        QVERIFY2(m_lines.at(0).text.startsWith(
                     QStringLiteral("database unavailable: claiming outbox rows: server closed the connection")),
            qPrintable(m_lines.at(0).text));
        QVERIFY2(m_lines.at(0).text.contains(QStringLiteral("0.5 s doubling to 30 s")), qPrintable(m_lines.at(0).text));

        database.reportUp();
        database.reportUp();
        QCOMPARE(m_lines.size(), 2);
        QCOMPARE(m_lines.at(1).level, QtInfoMsg);
        QVERIFY2(m_lines.at(1).text.startsWith(QStringLiteral("database available again after ")),
            qPrintable(m_lines.at(1).text));
        QVERIFY(database.isUp());
        QVERIFY(database.problem().isEmpty());

        // The next outage is a story of its own.
        database.reportDown(QStringLiteral("connecting: the database system is starting up"));
        QCOMPARE(m_lines.size(), 3);
        QVERIFY(m_lines.at(2).text.startsWith(QStringLiteral("database unavailable: connecting: the database")));
    }

    // Whether an outage ended after an instant: what a thread whose connection (or failure) is older than the last
    // recovery asks, to tell a leftover of that outage from a new one (OutboxRelay, orders-service).
    void recoveredSinceTellsAFailureOlderThanTheLastRecovery()
    {
        using Clock = std::chrono::steady_clock;
        OutageTracker database(QStringLiteral("database"), collect());
        const Clock::time_point before = Clock::now();
        QVERIFY(!database.recoveredSince(before));
        database.reportUp(); // up all along: nothing ended
        QVERIFY(!database.recoveredSince(before));
        database.reportDown(QStringLiteral("timed out"));
        QVERIFY(!database.recoveredSince(before));
        database.reportUp();
        QVERIFY(database.recoveredSince(before));
        QVERIFY(!database.recoveredSince(Clock::now()));
    }

    // A reason is text, never a format: the vhost "/" of an AMQP URI is written "%2F".
    void aPercentSignInTheReasonStaysAsItIs()
    {
        OutageTracker sink(QStringLiteral("sink"), collect());
        const QString reason = QStringLiteral("connecting (amqp://guest@10.0.0.1:5672/%2F?exchange=events): a socket "
                                              "error occurred %1 %3");
        sink.reportDown(reason);
        QCOMPARE(m_lines.size(), 1);
        QCOMPARE(m_lines.at(0).text,
            QStringLiteral("sink unavailable: %1; retrying with backoff (0.5 s doubling to 30 s, with jitter)")
                .arg(reason));
        QCOMPARE(sink.problem(), reason);
    }

    void reconnectDelaysDoubleWithJitterUpToThirtySeconds()
    {
        RetryDelay delay;
        qint64 ceiling = RetryDelay::FirstMs;
        for (int attempt = 1; attempt <= 12; ++attempt) {
            const qint64 ms = delay.next();
            QVERIFY2(ms >= ceiling / 2 && ms <= ceiling,
                qPrintable(QStringLiteral("attempt %1 waited %2 ms, outside [%3, %4]")
                               .arg(attempt)
                               .arg(ms)
                               .arg(ceiling / 2)
                               .arg(ceiling)));
            ceiling = qMin(ceiling * 2, RetryDelay::MaxMs);
        }
        delay.reset();
        QVERIFY(delay.next() <= RetryDelay::FirstMs);
    }

    // Jitter: relays that lost the same database at the same moment do not come back in lockstep.
    void delaysOfSeveralProcessesSpreadOut()
    {
        QSet<qint64> firstWaits;
        for (int process = 0; process < 20; ++process) {
            RetryDelay delay;
            for (int attempt = 0; attempt < 5; ++attempt)
                delay.next();
            firstWaits.insert(delay.next());
        }
        QVERIFY2(firstWaits.size() > 10, qPrintable(QString::number(firstWaits.size())));
    }
};

QTEST_GUILESS_MAIN(TestOutageTracker)
#include "tst_outagetracker.moc"
