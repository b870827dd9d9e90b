// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/latestrequest.h"
#include "db/connectionsettings.h"
#include "db/dbsession.h"
#include "db/outboxerror.h"
#include "operations/sessioninfo.h"

#include <QObject>
#include <QPointer>
#include <QThread>
#include <functional>
#include <memory>

class DatabaseWorker;
class QueryCanceller;

// A job's failure on its way back to the GUI thread. The worker looks at `error` for a lost connection, and reports
// that, before `report` hands the failure on: a view's failure then arrives as part of an outage already told, not as
// a message of its own ahead of it.
struct FailedWork {
    OutboxError error;
    std::function<void()> report;
};

// Database work off the GUI thread. The worker owns one connection, opened in its own thread (Qt 6.4: a
// QSqlDatabase is used only by the thread that opened it). Work runs there in submission order; its result,
// an immutable value, is handed to a callback on the GUI thread, and only if the callback's context object
// still exists. Work never touches a widget or a model.
//
// A lost connection is reported (connectionLost), reopened with backoff (each failed attempt reported:
// stillUnreachable), and reported again (reconnected);
// work submitted meanwhile fails with a connection error. Change notifications (LISTEN outbox_changed) are
// re-subscribed on every reconnect and arrive as changed().
class DatabaseClient final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DatabaseClient)
public:
    explicit DatabaseClient(QString purpose, QObject* parent = nullptr);
    ~DatabaseClient() final override;

    // run() for a view that drops stale results: `done` or `failed` is called only if no later ticket was taken
    // from `requests` meanwhile. `requests` must belong to `context`, which outlives it.
    template<typename Result>
    void runLatest(const LatestRequest& requests, QObject* context, std::function<Result(DbSession&)> work,
        std::function<void(Result)> done, std::function<void(const OutboxError&)> failed = {})
    {
        const quint64 ticket = requests.current();
        run<Result>(
            context, std::move(work),
            [&requests, ticket, done = std::move(done)](Result result) {
                if (requests.isLatest(ticket))
                    done(std::move(result));
            },
            [&requests, ticket, failed = std::move(failed)](const OutboxError& error) {
                if (failed && requests.isLatest(ticket))
                    failed(error);
            });
    }

    // What a failed first attempt to connect leads to, besides connectFailed(): nothing, the caller deciding (the
    // console's reads, whose failure opens the connect dialog), or attempts with backoff as after a lost connection,
    // reconnected() once one works (the console's other connections, to a server that just let the reads in: a
    // refusal there is passing, such as its connection limit).
    enum class FirstFailure { Report, Retry };

    // Connects (again) with `settings`; answers with connected() or connectFailed().
    void open(const ConnectionSettings& settings, bool listen, FirstFailure firstFailure = FirstFailure::Report);

    // Runs `work(session)` on the worker thread; then `done(result)` or `failed(error)` on the GUI thread, unless
    // `context` (an object of the GUI thread) has been deleted by then.
    template<typename Result>
    void run(QObject* context, std::function<Result(DbSession&)> work, std::function<void(Result)> done,
        std::function<void(const OutboxError&)> failed = {})
    {
        post([worker = this, context = QPointer<QObject>(context), work = std::move(work), done = std::move(done),
                 failed = std::move(failed)](DbSession* session) {
            // Posted to the worker object, which outlives this job (its destructor joins the thread); whether the
            // context still exists is asked on the context's own thread, the only one that may delete it.
            auto deliver = [worker, context](std::function<void()> callback) {
                QMetaObject::invokeMethod(
                    worker,
                    [context, callback = std::move(callback)] {
                        if (context)
                            callback();
                    },
                    Qt::QueuedConnection);
            };
            if (!session) {
                if (failed)
                    deliver([failed] { failed(notConnected()); });
                return;
            }
            try {
                Result result = work(*session);
                deliver([done, result = std::move(result)] { done(result); });
            } catch (const OutboxError& error) {
                throw FailedWork { error, [deliver, failed, error] {
                                      if (failed)
                                          deliver([failed, error] { failed(error); });
                                  } };
            } catch (const std::exception& error) {
                if (failed) {
                    deliver([failed, error = OutboxError(OutboxError::Kind::Other, QString::fromUtf8(error.what()))] {
                        failed(error);
                    });
                }
            }
        });
    }

    // Asks the server to cancel the statement the worker runs now, if any (a search the operator gave up on): the
    // work fails with SQLSTATE 57014 and the connection stays. Returns at once.
    void cancelRunning();

    // Runs the liveness check now rather than at the next heartbeat: when another connection to the same server was
    // just lost, this one likely was too, and is better told now than after the other one is back. A connection
    // that is lost already makes its next attempt now instead: another one just came back.
    void checkNow();

    // Interval of the liveness check that notices a dropped connection while the console is idle.
    static constexpr int HeartbeatMs = 5000;

signals:
    void connected(const SessionInfo& info);
    void connectFailed(const QString& message);
    void connectionLost(const QString& message);
    // A reconnect attempt failed (`message` says why); the next one starts in `nextAttemptInMs`.
    void stillUnreachable(const QString& message, int nextAttemptInMs);
    void reconnected(const SessionInfo& info);
    void changed();

private:
    static OutboxError notConnected();
    void post(std::function<void(DbSession*)> job);

    QThread m_thread;
    std::shared_ptr<QueryCanceller> m_canceller; // shared with the worker, which aims it at its connection
    DatabaseWorker* m_inThread; // lives in m_thread; deleted there when it finishes
};
