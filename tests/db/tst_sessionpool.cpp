// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "db/sessionpool.h"
#include "support/databasetestcase.h"

#include <QSet>
#include <QTest>
#include <condition_variable>
#include <future>
#include <mutex>

namespace {

// A gate the pool's tasks wait at until the test opens it, so the test knows what is running and what waits.
class Gate final {
public:
    void wait()
    {
        std::unique_lock lock(m_mutex);
        ++m_arrived;
        m_changed.notify_all();
        m_changed.wait(lock, [this] { return m_open; });
    }
    // Blocks until `count` tasks are waiting at the gate.
    void awaitArrivals(int count)
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_arrived >= count; });
    }
    void open()
    {
        const std::lock_guard lock(m_mutex);
        m_open = true;
        m_changed.notify_all();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    int m_arrived = 0;
    bool m_open = false;
};

qint64 backendPid(SessionPool::Connection& connection)
{
    QSqlQuery& q = connection.session().exec(QStringLiteral("SELECT pg_backend_pid()"), {}, QStringLiteral("pid"));
    q.next();
    return q.value(0).toLongLong();
}

} // namespace

class TestSessionPool final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestSessionPool()
        : DatabaseTestCase(QStringLiteral("sessionpool"))
    { }

private slots:
    // Each worker has a connection of its own: as many tasks as workers run at once, each on another backend.
    void workersRunAtOnceOnTheirOwnConnections()
    {
        constexpr int Workers = 3;
        Gate gate;
        std::mutex mutex;
        QSet<qint64> pids;
        {
            SessionPool pool(db().settings(), QStringLiteral("pool-test"), Workers, 10);
            for (int i = 0; i < Workers; ++i) {
                QVERIFY(pool.trySubmit([&](SessionPool::Connection& connection) {
                    const qint64 pid = backendPid(connection);
                    {
                        const std::lock_guard lock(mutex);
                        pids.insert(pid);
                    }
                    gate.wait();
                }));
            }
            gate.awaitArrivals(Workers); // all three hold their connection at the same time
            gate.open();
        }
        QCOMPARE(pids.size(), Workers);
    }

    // While every worker is busy, `capacity` tasks may wait; one more is refused and never runs. Work submitted
    // with submit() is not counted against the capacity. Destroying the pool runs everything accepted.
    void aFullQueueRefusesAndTheRestRuns()
    {
        Gate gate;
        std::atomic<int> ran { 0 };
        const auto counted = [&](SessionPool::Connection&) { ++ran; };
        {
            SessionPool pool(db().settings(), QStringLiteral("pool-test"), 1, 2);
            QVERIFY(pool.trySubmit([&](SessionPool::Connection&) { gate.wait(); }));
            gate.awaitArrivals(1);
            QVERIFY(pool.trySubmit(counted));
            QVERIFY(pool.trySubmit(counted));
            QCOMPARE(pool.waiting(), 2);
            QVERIFY(!pool.trySubmit([&](SessionPool::Connection&) { ran += 100; }));
            pool.submit(counted);
            QCOMPARE(pool.waiting(), 2);
            gate.open();
        }
        QCOMPARE(ran.load(), 3);
    }

    // A connection the server dropped fails the task that finds it broken; the worker's next task gets a new one.
    void aLostConnectionIsReplaced()
    {
        SessionPool pool(db().settings(), QStringLiteral("pool-test"), 1, 10);
        const auto run = [&pool](const std::function<qint64(SessionPool::Connection&)>& task) {
            auto promise = std::make_shared<std::promise<qint64>>();
            std::future<qint64> result = promise->get_future();
            pool.trySubmit([promise, task](SessionPool::Connection& connection) {
                try {
                    promise->set_value(task(connection));
                } catch (const OutboxError& error) {
                    promise->set_value(error.kind() == OutboxError::Kind::Connection ? -1 : -2);
                }
            });
            return result.get();
        };
        const qint64 first = run(backendPid);
        QVERIFY(first > 0);
        QVERIFY(db().scalar(QStringLiteral("SELECT pg_terminate_backend(?::int)"), { first }).toBool());
        QCOMPARE(run(backendPid), -1LL); // the task that meets the dropped connection is told so
        const qint64 second = run(backendPid);
        QVERIFY2(second > 0 && second != first, qPrintable(QString::number(second)));
    }
};

QTEST_GUILESS_MAIN(TestSessionPool)
#include "tst_sessionpool.moc"
