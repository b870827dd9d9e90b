// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/dbsession.h"
#include "db/schemamigrator.h"
#include "db/unitofwork.h"
#include "metrics/metricsrepository.h"
#include "operations/auditrepository.h"
#include "operations/outboxoverview.h"
#include "outbox/outboxfilter.h"
#include "outbox/outboxrepository.h"
#include "support/databasetestcase.h"
#include "support/manpagetesting.h"
#include "support/processtesting.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <csignal>

namespace {

using CliRun = ProcessTesting::Run;
using ProcessTesting::finish;

QString describe(const CliRun& run)
{
    return QStringLiteral("exit %1\nstdout: %2\nstderr: %3")
        .arg(run.exitCode)
        .arg(QString::fromUtf8(run.out), QString::fromUtf8(run.err));
}

CliRun runCli(
    const QStringList& arguments, const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment())
{
    return ProcessTesting::run(QStringLiteral(OUTBOXCTL_PATH), arguments, environment);
}

// Bad input and failures must leave exactly one diagnostic line and nothing on stdout.
bool isOneDiagnostic(const CliRun& run)
{
    return run.out.isEmpty() && run.err.startsWith("outboxctl: ") && run.err.count('\n') == 1 && run.err.endsWith('\n');
}

} // namespace

// Evaluates `expression` (which usually runs outboxctl) exactly once.
#define EXPECT_EXIT(expression, code)                                                                                  \
    do {                                                                                                               \
        const CliRun checked = (expression);                                                                           \
        QVERIFY2(checked.exitCode == (code), qPrintable(describe(checked)));                                           \
    } while (false)

class TestOutboxctl final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestOutboxctl()
        : DatabaseTestCase(QStringLiteral("outboxctl"))
    { }

private slots:
    // --version names the program's version and the schema version it expects (what migrate applies).
    void versionNamesTheSchema()
    {
        const CliRun run = runCli({ QStringLiteral("--version") });
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(QString::fromUtf8(run.out),
            QStringLiteral("outboxctl %1 (schema version %2)\n")
                .arg(QStringLiteral(OUTBOX_PROJECT_VERSION))
                .arg(SchemaMigrator::latestVersion()));
    }

    void helpListsCommandsAndExitCodes()
    {
        const CliRun run = runCli({ QStringLiteral("--help") });
        EXPECT_EXIT(run, 0);
        for (const char* command : { "migrate", "create-order", "relay", "list", "requeue", "metrics", "purge" })
            QVERIFY2(run.out.contains(QByteArray("\n  ") + command + ' '), command);
        QVERIFY(run.out.contains("Exit codes:"));
        for (int code = 0; code <= 11; ++code)
            QVERIFY(run.out.contains(QByteArray("\n  ") + QByteArray::number(code) + "  "));
    }

    // The manual page has every command, every option each command's --help lists, the global options and every
    // exit code: they come from the same tables.
    void manPageListsWhatHelpLists()
    {
        const CliRun page = runCli({ QStringLiteral("--man-page") });
        EXPECT_EXIT(page, 0);
        const QString man = QString::fromUtf8(page.out);
        QVERIFY(man.startsWith(QStringLiteral(".TH \"OUTBOXCTL\" \"1\"")));
        const QString help = QString::fromUtf8(runCli({ QStringLiteral("--help") }).out);
        const QString commands = help.section(QStringLiteral("Commands:\n"), 1).section(QStringLiteral("\n\n"), 0, 0);
        QStringList names;
        for (const QString& line : commands.split(QLatin1Char('\n')))
            names.append(line.trimmed().section(QLatin1Char(' '), 0, 0));
        QVERIFY2(names.size() >= 12, qPrintable(names.join(QLatin1Char(' '))));
        for (const QString& name : names) {
            const QString section = ManPageTesting::subsection(man, name);
            QVERIFY2(!section.isEmpty(), qPrintable(name));
            const CliRun commandHelp = runCli({ name, QStringLiteral("--help") });
            EXPECT_EXIT(commandHelp, 0);
            const QStringList options = ManPageTesting::optionsOf(QString::fromUtf8(commandHelp.out));
            QVERIFY2(options.contains(QStringLiteral("dsn")), qPrintable(name));
            for (const QString& option : options)
                QVERIFY2(section.contains(ManPageTesting::entryOf(option)),
                    qPrintable(name + QStringLiteral(" --") + option));
        }
        const QString global
            = help.section(QStringLiteral("Global options"), 1).section(QStringLiteral("Exit codes:"), 0, 0);
        const QStringList globalOptions = ManPageTesting::optionsOf(global);
        QCOMPARE(globalOptions,
            (QStringList { QStringLiteral("dsn"), QStringLiteral("help"), QStringLiteral("version"),
                QStringLiteral("man-page") }));
        for (const QString& option : globalOptions)
            QVERIFY2(man.section(QStringLiteral(".SH \"COMMANDS\""), 0, 0).contains(ManPageTesting::entryOf(option)),
                qPrintable(option));
        for (int code = 0; code <= 10; ++code)
            QVERIFY2(man.section(QStringLiteral(".SH \"EXIT STATUS\""), 1)
                         .contains(QStringLiteral(".TP\n\\fB%1\\fR\n").arg(code)),
                qPrintable(QString::number(code)));
    }

    void subcommandHelp_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("option");
        QTest::newRow("migrate") << QStringLiteral("migrate") << QStringLiteral("--grant-roles");
        QTest::newRow("create-order") << QStringLiteral("create-order") << QStringLiteral("--key");
        QTest::newRow("relay") << QStringLiteral("relay") << QStringLiteral("--max-attempts");
        QTest::newRow("list") << QStringLiteral("list") << QStringLiteral("--after");
        QTest::newRow("requeue") << QStringLiteral("requeue") << QStringLiteral("--dry-run");
        QTest::newRow("metrics") << QStringLiteral("metrics") << QStringLiteral("--tz");
        QTest::newRow("purge") << QStringLiteral("purge") << QStringLiteral("--older-than");
    }

    void subcommandHelp()
    {
        QFETCH(QString, command);
        QFETCH(QString, option);
        // --help needs no database, so an unusable DSN must not matter.
        const CliRun run
            = runCli({ command, QStringLiteral("--help"), QStringLiteral("--dsn"), QStringLiteral("port=1") });
        EXPECT_EXIT(run, 0);
        QVERIFY(run.out.startsWith(QStringLiteral("Usage: outboxctl %1").arg(command).toUtf8()));
        QVERIFY(run.out.contains(option.toUtf8()));
        QVERIFY(run.out.contains("--dsn"));
    }

    void badInputIsOneLineAndAnExitCode_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("dsn"); // empty: the test database
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");

        auto row = [](const char* name, const QStringList& arguments, int exitCode, const QString& message,
                       const QString& dsn = {}) { QTest::newRow(name) << arguments << dsn << exitCode << message; };
        row("no command", {}, 2, QStringLiteral("no command given"));
        row("unknown command", { QStringLiteral("frobnicate") }, 2, QStringLiteral("unknown command 'frobnicate'"));
        row("unknown global flag", { QStringLiteral("--frob"), QStringLiteral("list") }, 2, QStringLiteral("'frob'"));
        row("unknown flag", { QStringLiteral("list"), QStringLiteral("outbox"), QStringLiteral("--frob") }, 2,
            QStringLiteral("Unknown option 'frob'"));
        row("missing option value", { QStringLiteral("list"), QStringLiteral("outbox"), QStringLiteral("--limit") }, 2,
            QStringLiteral("--limit"));
        row("list what missing", { QStringLiteral("list") }, 2, QStringLiteral("outbox or keys"));
        row("list what unknown", { QStringLiteral("list"), QStringLiteral("orders") }, 2,
            QStringLiteral("outbox or keys"));
        row("list limit not a number",
            { QStringLiteral("list"), QStringLiteral("keys"), QStringLiteral("--limit=ten") }, 2,
            QStringLiteral("--limit: invalid value 'ten'"));
        row("list limit zero", { QStringLiteral("list"), QStringLiteral("keys"), QStringLiteral("--limit=0") }, 2,
            QStringLiteral("from 1 to 10000"));
        row("list limit too large", { QStringLiteral("list"), QStringLiteral("keys"), QStringLiteral("--limit=10001") },
            2, QStringLiteral("from 1 to 10000"));
        row("list status of the other table",
            { QStringLiteral("list"), QStringLiteral("outbox"), QStringLiteral("--status"),
                QStringLiteral("completed") },
            2, QStringLiteral("--status: invalid value 'completed'"));
        row("list key status", { QStringLiteral("list"), QStringLiteral("keys"), QStringLiteral("--status=dead") }, 2,
            QStringLiteral("--status: invalid value 'dead'"));
        row("list cursor negative", { QStringLiteral("list"), QStringLiteral("outbox"), QStringLiteral("--after=-3") },
            2, QStringLiteral("--after: invalid value '-3'"));
        row("list format", { QStringLiteral("list"), QStringLiteral("outbox"), QStringLiteral("--format=xml") }, 2,
            QStringLiteral("--format: invalid value 'xml'"));
        row("relay workers", { QStringLiteral("relay"), QStringLiteral("--workers=65") }, 2,
            QStringLiteral("--workers: invalid value '65': expected an integer from 1 to 64"));
        row("relay batch", { QStringLiteral("relay"), QStringLiteral("--batch=0") }, 2, QStringLiteral("--batch"));
        row("relay lease", { QStringLiteral("relay"), QStringLiteral("--lease-seconds=soon") }, 2,
            QStringLiteral("--lease-seconds"));
        row("relay attempts", { QStringLiteral("relay"), QStringLiteral("--max-attempts=1001") }, 2,
            QStringLiteral("--max-attempts"));
        row("relay backoff",
            { QStringLiteral("relay"), QStringLiteral("--backoff-base-ms=500"), QStringLiteral("--backoff-max-ms=10") },
            2, QStringLiteral("--backoff-max-ms"));
        row("relay sink", { QStringLiteral("relay"), QStringLiteral("--sink=kafka:local") }, 2,
            QStringLiteral("invalid --sink 'kafka:local'"));
        row("relay fault rate", { QStringLiteral("relay"), QStringLiteral("--sink=fault:2") }, 2,
            QStringLiteral("failure rate"));
        row("relay unwritable file",
            { QStringLiteral("relay"), QStringLiteral("--sink=file:/nonexistent/dir/out.jsonl") }, 2,
            QStringLiteral("cannot open sink file"));
        row("requeue without reason", { QStringLiteral("requeue"), QStringLiteral("--status=dead") }, 2,
            QStringLiteral("--reason is required"));
        row("requeue blank reason",
            { QStringLiteral("requeue"), QStringLiteral("--id=1"), QStringLiteral("--reason=  ") }, 2,
            QStringLiteral("--reason is required"));
        row("requeue id and status",
            { QStringLiteral("requeue"), QStringLiteral("--id=1"), QStringLiteral("--status=dead"),
                QStringLiteral("--reason=x") },
            2, QStringLiteral("either --id, or --status and/or --signature"));
        row("requeue neither", { QStringLiteral("requeue"), QStringLiteral("--reason=x") }, 2,
            QStringLiteral("either --id, or --status and/or --signature"));
        row("requeue ids file without dry run",
            { QStringLiteral("requeue"), QStringLiteral("--status=dead"), QStringLiteral("--reason=x"),
                QStringLiteral("--ids-file=/tmp/x") },
            2, QStringLiteral("--ids-file needs --dry-run"));
        row("requeue ids file unwritable",
            { QStringLiteral("requeue"), QStringLiteral("--status=dead"), QStringLiteral("--reason=x"),
                QStringLiteral("--dry-run"), QStringLiteral("--ids-file=/nonexistent/dir/ids.txt") },
            2, QStringLiteral("--ids-file: cannot write /nonexistent/dir/ids.txt"));
        row("list payload search without a range",
            { QStringLiteral("list"), QStringLiteral("outbox"), QStringLiteral("--payload-contains=C-7") }, 2,
            QStringLiteral("--payload-contains needs --created-from"));
        row("edit without content", { QStringLiteral("edit"), QStringLiteral("--id=1"), QStringLiteral("--reason=x") },
            2, QStringLiteral("give --payload-file, --headers-file or both"));
        row("edit without id",
            { QStringLiteral("edit"), QStringLiteral("--payload-file=-"), QStringLiteral("--reason=x") }, 2,
            QStringLiteral("--id: invalid value ''"));
        row("edit unreadable file",
            { QStringLiteral("edit"), QStringLiteral("--id=1"), QStringLiteral("--payload-file=/nonexistent/p.json"),
                QStringLiteral("--reason=x") },
            2, QStringLiteral("--payload-file: cannot read /nonexistent/p.json"));
        row("edit both from standard input",
            { QStringLiteral("edit"), QStringLiteral("--id=1"), QStringLiteral("--payload-file=-"),
                QStringLiteral("--headers-file=-"), QStringLiteral("--reason=x") },
            2, QStringLiteral("only one of --payload-file and --headers-file"));
        row("edit without reason",
            { QStringLiteral("edit"), QStringLiteral("--id=1"), QStringLiteral("--payload-file=-") }, 2,
            QStringLiteral("--reason is required"));
        row("failures status", { QStringLiteral("failures"), QStringLiteral("--status=pending") }, 2,
            QStringLiteral("--status: invalid value 'pending'"));
        row("failures format", { QStringLiteral("failures"), QStringLiteral("--format=xml") }, 2,
            QStringLiteral("--format: invalid value 'xml'"));
        row("event-types cap", { QStringLiteral("event-types"), QStringLiteral("--cap=0") }, 2,
            QStringLiteral("--cap"));
        row("list created time",
            { QStringLiteral("list"), QStringLiteral("outbox"), QStringLiteral("--created-from=yesterday") }, 2,
            QStringLiteral("--created-from: invalid time 'yesterday'"));
        row("requeue bad id", { QStringLiteral("requeue"), QStringLiteral("--id=4,x"), QStringLiteral("--reason=x") },
            2, QStringLiteral("--id: invalid id 'x'"));
        row("requeue bad status",
            { QStringLiteral("requeue"), QStringLiteral("--status=pending"), QStringLiteral("--reason=x") }, 2,
            QStringLiteral("--status: invalid value 'pending'"));
        row("requeue bad duration",
            { QStringLiteral("requeue"), QStringLiteral("--status=dead"), QStringLiteral("--older-than=3 weeks"),
                QStringLiteral("--reason=x") },
            2, QStringLiteral("invalid duration '3 weeks': expected e.g. 30s, 5m, 2h, 7d"));
        row("requeue filter with ids",
            { QStringLiteral("requeue"), QStringLiteral("--id=1"), QStringLiteral("--older-than=1h"),
                QStringLiteral("--reason=x") },
            2, QStringLiteral("only apply to --status"));
        row("metrics unknown zone",
            { QStringLiteral("metrics"), QStringLiteral("--from=now-1h"), QStringLiteral("--to=now"),
                QStringLiteral("--tz=Mars/Olympus") },
            2, QStringLiteral("unknown time zone 'Mars/Olympus'"));
        row("metrics fixed offset zone",
            { QStringLiteral("metrics"), QStringLiteral("--from=now-1h"), QStringLiteral("--to=now"),
                QStringLiteral("--tz=UTC+01:00") },
            2, QStringLiteral("unknown time zone 'UTC+01:00': use an IANA name"));
        row("metrics bad time",
            { QStringLiteral("metrics"), QStringLiteral("--from=yesterday"), QStringLiteral("--to=now") }, 2,
            QStringLiteral("--from: invalid time 'yesterday'"));
        row("metrics bad relative time",
            { QStringLiteral("metrics"), QStringLiteral("--from=now-1y"), QStringLiteral("--to=now") }, 2,
            QStringLiteral("invalid duration '1y'"));
        row("metrics missing from", { QStringLiteral("metrics"), QStringLiteral("--to=now") }, 2,
            QStringLiteral("--from is required"));
        row("metrics window ending before it starts",
            { QStringLiteral("metrics"), QStringLiteral("--from=now"), QStringLiteral("--to=now-1h") }, 2,
            QStringLiteral("--from must not be after --to"));
        row("metrics bucket not offered",
            { QStringLiteral("metrics"), QStringLiteral("--from=now-1h"), QStringLiteral("--to=now"),
                QStringLiteral("--bucket=90s") },
            2, QStringLiteral("--bucket: invalid value '90s': expected one of 1m, 5m, 1h"));
        row("metrics format",
            { QStringLiteral("metrics"), QStringLiteral("--from=now-1h"), QStringLiteral("--to=now"),
                QStringLiteral("--format=table") },
            2, QStringLiteral("--format: invalid value 'table'"));
        row("metrics too many buckets",
            { QStringLiteral("metrics"), QStringLiteral("--from=now-30d"), QStringLiteral("--to=now") }, 2,
            QStringLiteral("more than"));
        row("purge nothing", { QStringLiteral("purge") }, 2,
            QStringLiteral("--keys, --outbox, --inbox, --relays or several"));
        row("purge outbox without age", { QStringLiteral("purge"), QStringLiteral("--outbox") }, 2,
            QStringLiteral("--outbox, --inbox and --relays need --older-than"));
        row("purge bad duration",
            { QStringLiteral("purge"), QStringLiteral("--outbox"), QStringLiteral("--older-than=5x") }, 2,
            QStringLiteral("invalid duration '5x'"));
        row("purge batch", { QStringLiteral("purge"), QStringLiteral("--keys"), QStringLiteral("--batch=0") }, 2,
            QStringLiteral("--batch"));
        row("purge inbox without age", { QStringLiteral("purge"), QStringLiteral("--inbox") }, 2,
            QStringLiteral("--outbox, --inbox and --relays need --older-than"));
        row("purge relays without age", { QStringLiteral("purge"), QStringLiteral("--relays") }, 2,
            QStringLiteral("--outbox, --inbox and --relays need --older-than"));
        row("relays format", { QStringLiteral("relays"), QStringLiteral("--format=csv") }, 2,
            QStringLiteral("--format: invalid value 'csv'"));
        row("relay metrics address", { QStringLiteral("relay"), QStringLiteral("--metrics-listen=localhost:x") }, 2,
            QStringLiteral("--metrics-listen: invalid value 'localhost:x'"));
        row("relay metrics port too large", { QStringLiteral("relay"), QStringLiteral("--metrics-listen=70000") }, 2,
            QStringLiteral("--metrics-listen: invalid value '70000'"));
        row("relay heartbeat", { QStringLiteral("relay"), QStringLiteral("--heartbeat-seconds=0") }, 2,
            QStringLiteral("--heartbeat-seconds"));
        row("relay blank name", { QStringLiteral("relay"), QStringLiteral("--name= ") }, 2,
            QStringLiteral("--name must not be blank"));
        row("log format", { QStringLiteral("relays"), QStringLiteral("--log-format=xml") }, 2,
            QStringLiteral("--log-format: invalid value 'xml'"));
        row("purge keys with age",
            { QStringLiteral("purge"), QStringLiteral("--keys"), QStringLiteral("--older-than=1d") }, 2,
            QStringLiteral("only they take it"));
        row("relay amqp without exchange",
            { QStringLiteral("relay"), QStringLiteral("--sink=amqp://u:hunter2@127.0.0.1/") }, 2,
            QStringLiteral("?exchange=NAME"));
        row("consume without broker",
            { QStringLiteral("consume"), QStringLiteral("--queue=q"), QStringLiteral("--consumer=c") }, 2,
            QStringLiteral("--from is required"));
        row("consume bad uri",
            { QStringLiteral("consume"), QStringLiteral("--from=amqp://u:hunter2@h/?exchange=e&colour=red"),
                QStringLiteral("--queue=q"), QStringLiteral("--consumer=c") },
            2, QStringLiteral("unknown parameter 'colour'"));
        row("consume without queue",
            { QStringLiteral("consume"), QStringLiteral("--from=amqp://h/"), QStringLiteral("--consumer=c") }, 2,
            QStringLiteral("--queue is required"));
        row("consume prefetch",
            { QStringLiteral("consume"), QStringLiteral("--from=amqp://h/"), QStringLiteral("--queue=q"),
                QStringLiteral("--consumer=c"), QStringLiteral("--prefetch=0") },
            2, QStringLiteral("--prefetch"));
        row("invalid dsn", { QStringLiteral("list"), QStringLiteral("outbox") }, 2, QStringLiteral("invalid DSN"),
            QStringLiteral("hots=localhost"));
        row("unterminated dsn", { QStringLiteral("migrate") }, 2, QStringLiteral("invalid DSN"),
            QStringLiteral("dbname='oops"));
        row("unreachable server", { QStringLiteral("list"), QStringLiteral("outbox") }, 5,
            QStringLiteral("cannot connect to PostgreSQL"), QStringLiteral("host=127.0.0.1 port=1 connect_timeout=5"));
        row("unreachable server for migrate", { QStringLiteral("migrate") }, 5,
            QStringLiteral("cannot connect to PostgreSQL"), QStringLiteral("host=127.0.0.1 port=1 connect_timeout=5"));
        row("authentication failed", { QStringLiteral("list"), QStringLiteral("keys") }, 5,
            QStringLiteral("cannot connect to PostgreSQL"),
            QStringLiteral("user=no_such_user_xyz password=wrong-password"));
    }

    void badInputIsOneLineAndAnExitCode()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, dsn);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const QString connection = dsn.isEmpty() ? db().dsn() : QStringLiteral("dbname=%1 %2").arg(db().name(), dsn);
        const CliRun run = runCli(QStringList { QStringLiteral("--dsn"), connection } + arguments);
        EXPECT_EXIT(run, exitCode);
        QVERIFY2(isOneDiagnostic(run), qPrintable(describe(run)));
        QVERIFY2(run.err.contains(message.toUtf8()), qPrintable(describe(run)));
        QVERIFY2(!run.err.contains("hunter2"), "a password was repeated in a message");
    }

    void dsnIsAcceptedBeforeAndAfterTheCommandAndFromTheEnvironment()
    {
        createOrder(QStringLiteral("k"), QStringLiteral("alice"), QStringLiteral("1"));
        const QStringList list { QStringLiteral("list"), QStringLiteral("keys"), QStringLiteral("--format=csv") };
        const CliRun before = runCli(QStringList { QStringLiteral("--dsn"), db().dsn() } + list);
        const CliRun after = runCli(list + QStringList { QStringLiteral("--dsn"), db().dsn() });
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("PGDATABASE"), db().name());
        const CliRun fromEnvironment = runCli(list, environment);
        // A --dsn after the command overrides one before it.
        const CliRun overridden
            = runCli(QStringList { QStringLiteral("--dsn"), QStringLiteral("host=127.0.0.1 port=1") } + list
                + QStringList { QStringLiteral("--dsn"), db().dsn() });
        for (const CliRun& run : { before, after, fromEnvironment, overridden }) {
            EXPECT_EXIT(run, 0);
            QCOMPARE(run.out.count("\r\n"), 2);
            QCOMPARE(run.out, before.out);
        }
    }

    void missingSchemaIsExitSixUntilMigrated()
    {
        TestDatabase empty(QStringLiteral("outboxctl_empty"));
        empty.openSession()->execScript(
            QStringLiteral("SET client_min_messages = warning; DROP SCHEMA public CASCADE; CREATE SCHEMA public"),
            QStringLiteral("wiping the schema"));
        const QStringList dsn { QStringLiteral("--dsn"), empty.dsn() };

        for (const QStringList& command : { QStringList { QStringLiteral("list"), QStringLiteral("outbox") },
                 QStringList { QStringLiteral("create-order"), QStringLiteral("--key=k"),
                     QStringLiteral("--customer=c"), QStringLiteral("--amount=1") },
                 QStringList { QStringLiteral("relay"), QStringLiteral("--once") },
                 QStringList {
                     QStringLiteral("requeue"), QStringLiteral("--status=dead"), QStringLiteral("--reason=x") },
                 QStringList { QStringLiteral("metrics"), QStringLiteral("--from=now-1h"), QStringLiteral("--to=now") },
                 QStringList { QStringLiteral("purge"), QStringLiteral("--keys") } }) {
            const CliRun run = runCli(dsn + command);
            EXPECT_EXIT(run, 6);
            QVERIFY2(isOneDiagnostic(run), qPrintable(describe(run)));
            QVERIFY(run.err.contains("run 'outboxctl migrate'"));
        }

        const CliRun migrate = runCli(dsn + QStringList { QStringLiteral("migrate") });
        EXPECT_EXIT(migrate, 0);
        QCOMPARE(migrate.out, QStringLiteral("schema version %1\n").arg(SchemaMigrator::latestVersion()).toUtf8());
        QCOMPARE(empty.scalar(QStringLiteral("SELECT max(version) FROM schema_migrations")).toInt(),
            SchemaMigrator::latestVersion());
        EXPECT_EXIT(runCli(dsn + QStringList { QStringLiteral("list"), QStringLiteral("outbox") }), 0);

        const CliRun again = runCli(dsn + QStringList { QStringLiteral("migrate"), QStringLiteral("--grant-roles") });
        EXPECT_EXIT(again, 0);
        QVERIFY(
            again.out.startsWith(QStringLiteral("schema version %1\n").arg(SchemaMigrator::latestVersion()).toUtf8()));
        QVERIFY(
            empty.scalar(QStringLiteral("SELECT count(*) FROM pg_roles WHERE rolname = 'outbox_operator'")).toLongLong()
            == 1);
    }

    // Migration 0007 needs pg_trgm. A user who may create tables but not extensions (no CREATE on the database) is
    // told exactly what a superuser has to run, nothing is applied, and once the extension exists migrate succeeds.
    void searchIndexesNeedAnExtensionAndSaySo()
    {
        TestDatabase bare(QStringLiteral("outboxctl_notrgm"));
        bare.openSession()->execScript(
            QStringLiteral("SET client_min_messages = warning; DROP SCHEMA public CASCADE; CREATE SCHEMA public"),
            QStringLiteral("wiping the schema"));
        const QString role = QStringLiteral("outbox_noext_%1").arg(QCoreApplication::applicationPid());
        const QString password = QStringLiteral("pw_%1").arg(QCoreApplication::applicationPid());
        auto admin = bare.openSession(QStringLiteral("admin"));
        admin->execScript(QStringLiteral("DROP ROLE IF EXISTS %1; CREATE ROLE %1 LOGIN PASSWORD '%2'; "
                                         "GRANT USAGE, CREATE ON SCHEMA public TO %1")
                              .arg(role, password),
            QStringLiteral("creating a role that may not create extensions"));
        const auto dropRole = qScopeGuard([&] {
            admin->execScript(QStringLiteral("SET client_min_messages = warning; DROP SCHEMA public CASCADE; "
                                             "CREATE SCHEMA public; DROP ROLE IF EXISTS %1")
                                  .arg(role),
                QStringLiteral("dropping the role"));
        });
        const QStringList dsn { QStringLiteral("--dsn"),
            QStringLiteral("dbname=%1 user=%2 password=%3").arg(bare.name(), role, password) };

        const CliRun refused = runCli(dsn + QStringList { QStringLiteral("migrate") });
        EXPECT_EXIT(refused, 7);
        QVERIFY2(isOneDiagnostic(refused), qPrintable(describe(refused)));
        QVERIFY2(refused.err.contains("CREATE EXTENSION pg_trgm;") && refused.err.contains(bare.name().toUtf8()),
            qPrintable(describe(refused)));
        QVERIFY(!bare.scalar(QStringLiteral("SELECT to_regclass('schema_migrations') IS NOT NULL")).toBool());

        admin->execScript(QStringLiteral("CREATE EXTENSION pg_trgm"), QStringLiteral("a superuser's part"));
        const CliRun migrated = runCli(dsn + QStringList { QStringLiteral("migrate") });
        EXPECT_EXIT(migrated, 0);
        QCOMPARE(migrated.out, QStringLiteral("schema version %1\n").arg(SchemaMigrator::latestVersion()).toUtf8());
    }

    void newerSchemaIsExitSix()
    {
        const int future = SchemaMigrator::latestVersion() + 1;
        db().exec(QStringLiteral("INSERT INTO schema_migrations (version, name) VALUES (?::int, 'from_the_future')"),
            { future });
        const CliRun list = ctl({ QStringLiteral("list"), QStringLiteral("keys") });
        const CliRun migrate = ctl({ QStringLiteral("migrate") });
        db().exec(QStringLiteral("DELETE FROM schema_migrations WHERE version = ?::int"), { future });
        for (const CliRun& run : { list, migrate }) {
            EXPECT_EXIT(run, 6);
            QVERIFY2(isOneDiagnostic(run), qPrintable(describe(run)));
            QVERIFY(run.err.contains("newer than this binary"));
        }
    }

    void serverErrorIsExitOne()
    {
        // A statement cancelled by statement_timeout is neither bad input nor a connection or schema problem.
        auto locker = db().openSession(QStringLiteral("locker"));
        UnitOfWork lock(*locker);
        locker->execScript(
            QStringLiteral("LOCK TABLE outbox IN ACCESS EXCLUSIVE MODE"), QStringLiteral("blocking reads"));
        const CliRun run
            = runCli({ QStringLiteral("--dsn"), db().dsn() + QStringLiteral(" options='-c statement_timeout=200'"),
                QStringLiteral("list"), QStringLiteral("outbox") });
        EXPECT_EXIT(run, 1);
        QVERIFY2(isOneDiagnostic(run), qPrintable(describe(run)));
        QVERIFY2(run.err.contains("statement timeout"), qPrintable(describe(run)));
    }

    // Qt would decode "order-\xfe" and "order-\xff" both as "order-\ufffd": one key for two requests.
    void aKeyWhoseBytesAreNotUtf8IsRefusedAndNothingIsWritten_data()
    {
        QTest::addColumn<QList<QByteArray>>("option");
        QTest::newRow("separate value") << QList<QByteArray> { "--key", "order-\xfe" };
        QTest::newRow("attached value") << QList<QByteArray> { "--key=order-\xff" };
    }

    void aKeyWhoseBytesAreNotUtf8IsRefusedAndNothingIsWritten()
    {
        QFETCH(QList<QByteArray>, option);
        const CliRun run = ProcessTesting::runWithBytes(QStringLiteral(OUTBOXCTL_PATH),
            QList<QByteArray> { "--dsn", db().dsn().toUtf8(), "create-order" } + option
                + QList<QByteArray> { "--customer", "alice", "--amount", "1" });
        EXPECT_EXIT(run, 2);
        QVERIFY2(isOneDiagnostic(run), qPrintable(describe(run)));
        QVERIFY2(run.err.contains("--key: the value is not valid UTF-8 (byte 0xf"), qPrintable(describe(run)));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM idempotency_keys")).toLongLong(), 0);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM orders")).toLongLong(), 0);
    }

    // The same for a global option, checked before any command runs.
    void aGlobalOptionWhoseBytesAreNotUtf8IsRefused()
    {
        const CliRun run
            = ProcessTesting::runWithBytes(QStringLiteral(OUTBOXCTL_PATH), { "--dsn", "dbname=\xff", "list", "keys" });
        EXPECT_EXIT(run, 2);
        QVERIFY2(isOneDiagnostic(run), qPrintable(describe(run)));
        QVERIFY2(run.err.contains("--dsn: the value is not valid UTF-8 (byte 0xff at character 8)"),
            qPrintable(describe(run)));
    }

    void createOrderCreatesAndReplays()
    {
        const CliRun created = createOrder(QStringLiteral("order-1"), QStringLiteral("alice"), QStringLiteral("12.5"));
        EXPECT_EXIT(created, 0);
        QCOMPARE(created.out.count('\n'), 1);
        const QJsonObject answer = created.json();
        QCOMPARE(answer.value(QStringLiteral("outcome")).toString(), QStringLiteral("created"));
        QCOMPARE(answer.value(QStringLiteral("http_status")).toInt(), 201);
        const QJsonObject response = answer.value(QStringLiteral("response")).toObject();
        QCOMPARE(response.value(QStringLiteral("amount")).toString(), QStringLiteral("12.50"));
        const qint64 orderId = response.value(QStringLiteral("id")).toInteger();
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT customer FROM orders WHERE id = ?::bigint"), { orderId }).toString(),
            QStringLiteral("alice"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE aggregate_id = ?::text"),
                         { QString::number(orderId) })
                     .toLongLong(),
            1);

        const CliRun replayed
            = createOrder(QStringLiteral("order-1"), QStringLiteral("alice"), QStringLiteral("12.50"));
        EXPECT_EXIT(replayed, 0);
        QCOMPARE(replayed.json().value(QStringLiteral("outcome")).toString(), QStringLiteral("replayed"));
        QCOMPARE(replayed.json().value(QStringLiteral("http_status")).toInt(), 201);
        QCOMPARE(replayed.json().value(QStringLiteral("response")).toObject(), response);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM orders")).toLongLong(), 1);
        // Counted when the replays are folded (relays and orders-service do it every few seconds).
        QCOMPARE(db().scalar(QStringLiteral("SELECT idempotency_fold_replays()")).toLongLong(), 1LL);
        QCOMPARE(db().scalar(QStringLiteral("SELECT replay_count FROM idempotency_keys")).toInt(), 1);
    }

    void createOrderOutcomes_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<int>("httpStatus");
        QTest::addColumn<qint64>("orders");

        QTest::newRow("created in another scope") << QStringList { QStringLiteral("--key=first"),
            QStringLiteral("--customer=alice"), QStringLiteral("--amount=10"), QStringLiteral("--scope=tenant-2") }
                                                  << 0 << QStringLiteral("created") << 201 << qint64(2);
        QTest::newRow("mismatch") << QStringList { QStringLiteral("--key=first"), QStringLiteral("--customer=mallory"),
            QStringLiteral("--amount=10") }
                                  << 4 << QStringLiteral("mismatch") << 422 << qint64(1);
        QTest::newRow("missing key") << QStringList { QStringLiteral("--customer=alice"),
            QStringLiteral("--amount=10") }
                                     << 2 << QStringLiteral("bad_request") << 400 << qint64(1);
        QTest::newRow("empty key") << QStringList { QStringLiteral("--key="), QStringLiteral("--customer=alice"),
            QStringLiteral("--amount=10") }
                                   << 2 << QStringLiteral("bad_request") << 400 << qint64(1);
        QTest::newRow("three fraction digits") << QStringList { QStringLiteral("--key=k2"),
            QStringLiteral("--customer=alice"), QStringLiteral("--amount=1.234") }
                                               << 2 << QStringLiteral("bad_request") << 400 << qint64(1);
        QTest::newRow("zero amount") << QStringList { QStringLiteral("--key=k2"), QStringLiteral("--customer=alice"),
            QStringLiteral("--amount=0") }
                                     << 2 << QStringLiteral("bad_request") << 400 << qint64(1);
        QTest::newRow("bad currency") << QStringList { QStringLiteral("--key=k2"), QStringLiteral("--customer=alice"),
            QStringLiteral("--amount=1"), QStringLiteral("--currency=EURO") }
                                      << 2 << QStringLiteral("bad_request") << 400 << qint64(1);
        QTest::newRow("over the limit") << QStringList { QStringLiteral("--key=big"),
            QStringLiteral("--customer=alice"), QStringLiteral("--amount=2000000") }
                                        << 8 << QStringLiteral("rejected") << 422 << qint64(1);
    }

    void createOrderOutcomes()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, outcome);
        QFETCH(int, httpStatus);
        QFETCH(qint64, orders);
        EXPECT_EXIT(createOrder(QStringLiteral("first"), QStringLiteral("alice"), QStringLiteral("10")), 0);

        const CliRun run = ctl(QStringList { QStringLiteral("create-order") } + arguments);
        EXPECT_EXIT(run, exitCode);
        QCOMPARE(run.out.count('\n'), 1);
        QCOMPARE(run.json().value(QStringLiteral("outcome")).toString(), outcome);
        QCOMPARE(run.json().value(QStringLiteral("http_status")).toInt(), httpStatus);
        QVERIFY(run.json()
                    .value(QStringLiteral("response"))
                    .toObject()
                    .contains(httpStatus == 201 ? QStringLiteral("id") : QStringLiteral("error")));
        QVERIFY(!run.json().contains(QStringLiteral("retry_after_seconds")));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM orders")).toLongLong(), orders);
    }

    void replayedRejectionKeepsItsExitCode()
    {
        const CliRun rejected
            = createOrder(QStringLiteral("big"), QStringLiteral("alice"), QStringLiteral("1000000.01"));
        EXPECT_EXIT(rejected, 8);
        const CliRun replayed
            = createOrder(QStringLiteral("big"), QStringLiteral("alice"), QStringLiteral("1000000.01"));
        EXPECT_EXIT(replayed, 8);
        QCOMPARE(replayed.json().value(QStringLiteral("outcome")).toString(), QStringLiteral("replayed"));
        QCOMPARE(replayed.json().value(QStringLiteral("http_status")).toInt(), 422);
        QCOMPARE(replayed.json().value(QStringLiteral("response")), rejected.json().value(QStringLiteral("response")));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM orders")).toLongLong(), 0);
    }

    void createOrderWhileTheFirstIsInProgress()
    {
        EXPECT_EXIT(createOrder(QStringLiteral("slow"), QStringLiteral("alice"), QStringLiteral("5")), 0);
        // Turn the completed key back into a claim whose worker is still busy for an hour.
        db().exec(QStringLiteral("UPDATE idempotency_keys SET status = 'in_progress', response_status = NULL, "
                                 "response_body = NULL, locked_until = now() + interval '1 hour'"));
        const CliRun run = createOrder(QStringLiteral("slow"), QStringLiteral("alice"), QStringLiteral("5"));
        EXPECT_EXIT(run, 3);
        QCOMPARE(run.json().value(QStringLiteral("outcome")).toString(), QStringLiteral("in_progress"));
        QCOMPARE(run.json().value(QStringLiteral("http_status")).toInt(), 409);
        const qint64 retryAfter = run.json().value(QStringLiteral("retry_after_seconds")).toInteger();
        QVERIFY2(retryAfter > 3500 && retryAfter <= 3600, qPrintable(describe(run)));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM orders")).toLongLong(), 1);
    }

    void createOrderRetryableFailureReleasesTheKey()
    {
        // A lock held on orders plus a short lock_timeout makes the insert fail with a transient error.
        auto locker = db().openSession(QStringLiteral("locker"));
        const QString dsn = db().dsn() + QStringLiteral(" options='-c lock_timeout=200'");
        const QStringList request { QStringLiteral("create-order"), QStringLiteral("--key=flaky"),
            QStringLiteral("--customer=alice"), QStringLiteral("--amount=3") };
        CliRun failed;
        {
            UnitOfWork lock(*locker);
            locker->execScript(QStringLiteral("LOCK TABLE orders IN SHARE MODE"), QStringLiteral("blocking inserts"));
            failed = runCli(QStringList { QStringLiteral("--dsn"), dsn } + request);
        }
        EXPECT_EXIT(failed, 9);
        QCOMPARE(failed.json().value(QStringLiteral("outcome")).toString(), QStringLiteral("failed"));
        QCOMPARE(failed.json().value(QStringLiteral("http_status")).toInt(), 503);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM orders")).toLongLong(), 0);
        QCOMPARE(db().scalar(QStringLiteral("SELECT failure_retryable FROM idempotency_keys")).toBool(), true);

        const CliRun retried = runCli(QStringList { QStringLiteral("--dsn"), dsn } + request);
        EXPECT_EXIT(retried, 0);
        QCOMPARE(retried.json().value(QStringLiteral("outcome")).toString(), QStringLiteral("created"));
    }

    void relayOncePublishesEverythingToAFile()
    {
        const int rows = 25;
        enqueue(rows);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("out.jsonl"));
        const CliRun run = ctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--workers=3"),
            QStringLiteral("--batch=4"), QStringLiteral("--sink"), QStringLiteral("file:") + path });
        EXPECT_EXIT(run, 0);
        QCOMPARE(run.out, QByteArray("claimed 25 published 25 failed 0 dead 0 fenced 0 rescued 0 handed back 0\n"));
        QVERIFY(run.err.contains(" started on "));
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published'")).toLongLong(),
            rows);

        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QCOMPARE(lines.size(), rows + 1);
        QVERIFY(lines.last().isEmpty());
        QSet<qint64> ids;
        for (qsizetype i = 0; i < rows; ++i) {
            QJsonParseError error;
            const QJsonObject message = QJsonDocument::fromJson(lines.at(i), &error).object();
            QVERIFY2(error.error == QJsonParseError::NoError, lines.at(i).constData());
            ids.insert(message.value(QStringLiteral("id")).toInteger());
        }
        QCOMPARE(ids.size(), rows);
    }

    void relayWithAFailingSinkLeavesRowsDead()
    {
        enqueue(6);
        const CliRun run = ctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--sink=fault:1"),
            QStringLiteral("--max-attempts=1") });
        EXPECT_EXIT(run, 0);
        QCOMPARE(run.out, QByteArray("claimed 6 published 0 failed 6 dead 6 fenced 0 rescued 0 handed back 0\n"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'dead'")).toLongLong(), 6);
    }

    // A relay killed between claim and completion leaves its batch in flight; once the lease has expired
    // the next relay rescues the rows and publishes them, so nothing is lost.
    void crashedRelayIsRescuedByTheNext()
    {
        // Rows of one ordering key, so of one lane: the ten are one batch (--batch=10), as written by a service.
        db().exec(QStringLiteral("SELECT outbox_enqueue('test', g::text, 'test.happened', '{\"n\":1}', "
                                 "  dedupe_key => 'test:' || g, ordering_key => 'test') "
                                 "FROM generate_series(1, 10) g"));
        const CliRun crashed = ctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--batch=10"),
            QStringLiteral("--sink=fault:0,0,3") });
        QCOMPARE(crashed.exitCode, 75);
        QVERIFY(crashed.out.isEmpty());
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'in_flight'")).toLongLong(),
            10);
        // The batch's lease is its lane's.
        db().exec(QStringLiteral("UPDATE outbox_lanes SET lease_expires_at = now() - interval '1 second' "
                                 "WHERE claimed_through IS NOT NULL"));

        const CliRun next = ctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--sink=null") });
        EXPECT_EXIT(next, 0);
        QCOMPARE(next.out, QByteArray("claimed 10 published 10 failed 0 dead 0 fenced 0 rescued 10 handed back 0\n"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages "
                                            "WHERE status = 'published' AND attempts = 2"))
                     .toLongLong(),
            10);
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT count(*) FROM outbox_attempts WHERE error LIKE '%presumed crashed'"))
                .toLongLong(),
            10);
    }

    void relayRetriesUntilPublishedOrDead()
    {
        const int rows = 40;
        enqueue(rows);
        // No backoff, so failed rows are due again at once and --once drains them to a final state.
        const CliRun run = ctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--workers=2"),
            QStringLiteral("--batch=5"), QStringLiteral("--sink=fault:0.5"), QStringLiteral("--max-attempts=3"),
            QStringLiteral("--backoff-base-ms=0") });
        EXPECT_EXIT(run, 0);
        const QRegularExpressionMatch totals
            = QRegularExpression(QStringLiteral("^claimed (\\d+) published (\\d+) failed (\\d+) dead (\\d+) fenced 0 "
                                                "rescued 0 handed back 0\n$"))
                  .match(QString::fromUtf8(run.out));
        QVERIFY2(totals.hasMatch(), qPrintable(describe(run)));
        const qint64 published = totals.captured(2).toLongLong();
        const qint64 failed = totals.captured(3).toLongLong();
        const qint64 dead = totals.captured(4).toLongLong();
        QCOMPARE(totals.captured(1).toLongLong(), published + failed);
        QCOMPARE(published + dead, qint64(rows));
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'published'")).toLongLong(),
            published);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox_messages WHERE status = 'dead'")).toLongLong(),
            dead);
    }

    void relayStopsGracefullyOnSignal_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
    }

    void relayStopsGracefullyOnSignal()
    {
        QFETCH(int, signal);
        enqueue(3);
        QProcess relay;
        QSignalSpy logged(&relay, &QProcess::readyReadStandardError);
        relay.start(QStringLiteral(OUTBOXCTL_PATH),
            { QStringLiteral("relay"), QStringLiteral("--dsn"), db().dsn(), QStringLiteral("--workers=2") });
        // The start line is logged once the signal watcher is in place.
        QByteArray log;
        for (;;) {
            log += relay.readAllStandardError();
            if (log.contains(" started on ") || !logged.wait(30'000))
                break;
        }
        QVERIFY2(log.contains(" started on "), log.constData());
        ::kill(pid_t(relay.processId()), signal);
        const CliRun run = finish(relay);
        EXPECT_EXIT(run, 0);
        QCOMPARE(run.outLines().size(), 1);
        QVERIFY2(QRegularExpression(
                     QStringLiteral("^claimed \\d+ published \\d+ failed 0 dead 0 fenced 0 rescued 0 handed back 0\n$"))
                     .match(QString::fromUtf8(run.out))
                     .hasMatch(),
            qPrintable(describe(run)));
    }

    void requeueDeadRowsWritesTheAuditLog()
    {
        enqueue(4);
        EXPECT_EXIT(ctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--sink=fault:1"),
                        QStringLiteral("--max-attempts=1") }),
            0);

        const CliRun dryRun = ctl({ QStringLiteral("requeue"), QStringLiteral("--status=dead"),
            QStringLiteral("--reason=x"), QStringLiteral("--dry-run") });
        EXPECT_EXIT(dryRun, 0);
        QCOMPARE(dryRun.out, QByteArray("dry run: would requeue 4 rows\nids: 1,2,3,4\n"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'dead'")).toLongLong(), 4);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 0);

        const CliRun run = ctl({ QStringLiteral("requeue"), QStringLiteral("--status"), QStringLiteral("dead"),
            QStringLiteral("--reason"), QStringLiteral("broker fixed") });
        EXPECT_EXIT(run, 0);
        QCOMPARE(run.out, QByteArray("requeued 4, left alone 0 (not failed, dead or discarded when applied)\n"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'pending' AND attempts = 0"))
                     .toLongLong(),
            4);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log WHERE action = 'requeue' "
                                            "AND reason = 'broker fixed' AND cardinality(entity_ids) = 4"))
                     .toLongLong(),
            1);
    }

    // One operator action is one audit entry with its full count, however many batches of 1,000 it took (each its own
    // transaction): in the audit log's list, in the Overview's last actions and in outboxctl audit, which prints
    // every id and state; a row of a later batch keeps that batch's own entry in its history.
    void aBulkActionIsOneAuditEntryWithItsFullCount_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<int>("rows");
        QTest::newRow("requeue, one batch") << QStringLiteral("requeue") << 270;
        QTest::newRow("requeue, one whole batch") << QStringLiteral("requeue") << 1000;
        QTest::newRow("requeue, more than one batch") << QStringLiteral("requeue") << 1270;
        QTest::newRow("discard, three batches") << QStringLiteral("discard") << 2270;
    }

    void aBulkActionIsOneAuditEntryWithItsFullCount()
    {
        QFETCH(QString, action);
        QFETCH(int, rows);
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                                 "  status, attempts, last_error) "
                                 "SELECT 'order', g::text, 'order.created', '{}', 'k' || g, 'dead', 10, 'boom' "
                                 "FROM generate_series(1, ?::int) g"),
            { rows });
        EXPECT_EXIT(ctl({ action, QStringLiteral("--status=dead"), QStringLiteral("--reason=after the fix") }), 0);

        AuditRepository audit(session());
        const QList<AuditEntry> listed = audit.page(AuditFilter {}, 10, 0);
        QCOMPARE(listed.size(), 1);
        QCOMPARE(listed.first().action, action);
        QCOMPARE(listed.first().rows, qint64(rows));
        const QList<AuditEntry> recent
            = OutboxOverview::load(session(), OutboxFilter::DefaultStuckThresholdMs).recentActions;
        QCOMPARE(recent.size(), 1);
        QCOMPARE(recent.first().rows, qint64(rows));

        const CliRun printed = ctl({ QStringLiteral("audit"), QStringLiteral("--format=json") });
        EXPECT_EXIT(printed, 0);
        const QJsonArray entries = printed.json().value(QStringLiteral("entries")).toArray();
        QCOMPARE(entries.size(), 1);
        const QJsonObject entry = entries.first().toObject();
        QCOMPARE(entry.value(QStringLiteral("rows")).toInteger(), qint64(rows));
        QStringList ids;
        for (int id = 1; id <= rows; ++id)
            ids.append(QString::number(id));
        QCOMPARE(entry.value(QStringLiteral("ids")).toString(), ids.join(QLatin1Char(',')));
        const QJsonObject after
            = QJsonDocument::fromJson(entry.value(QStringLiteral("state_after")).toString().toUtf8()).object();
        QCOMPARE(after.size(), rows);
        QCOMPARE(after.value(QString::number(rows)).toString(),
            action == QLatin1String("discard") ? QStringLiteral("discarded") : QStringLiteral("pending"));

        // The last row, of the last batch: its history names the batch that changed it, a continuation of the
        // action's entry when the action took more than one batch.
        const QList<AuditEntry> history = audit.forEntity(QStringLiteral("outbox"), rows, 10);
        QCOMPARE(history.size(), 1);
        QVERIFY(history.first().entityIds.contains(rows));
        QCOMPARE(history.first().actionId, rows > 1000 ? listed.first().id : 0LL);
    }

    // requeue --at: the rows wait for their time (a relay run before it publishes nothing) and are published once
    // it has come; the time must be in the future.
    void requeueLaterIsPublishedAtItsTime()
    {
        enqueue(2);
        db().exec(QStringLiteral("UPDATE outbox SET status = 'dead', attempts = 5, last_error = 'boom'"));
        const CliRun past = ctl({ QStringLiteral("requeue"), QStringLiteral("--status=dead"),
            QStringLiteral("--at=now-5m"), QStringLiteral("--reason=x") });
        EXPECT_EXIT(past, 2);
        QVERIFY2(isOneDiagnostic(past) && past.err.contains("is not in the future"), qPrintable(describe(past)));
        const CliRun garbled = ctl({ QStringLiteral("requeue"), QStringLiteral("--status=dead"),
            QStringLiteral("--at=tomorrow"), QStringLiteral("--reason=x") });
        EXPECT_EXIT(garbled, 2);
        QVERIFY2(garbled.err.contains("--at: invalid time 'tomorrow'"), qPrintable(describe(garbled)));
        // Discard has no time: it is not a retry.
        EXPECT_EXIT(ctl({ QStringLiteral("discard"), QStringLiteral("--status=dead"), QStringLiteral("--at=now+1h"),
                        QStringLiteral("--reason=x") }),
            2);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 0);

        // A time without an offset is UTC, as in list --created-from, whatever the machine's zone: two hours ahead
        // in UTC is not nine hours in the past in Seoul.
        const QString twoHoursAhead
            = db().scalar(QStringLiteral("SELECT to_char((now() + interval '2 hours') AT TIME ZONE 'UTC', "
                                         "'YYYY-MM-DD\"T\"HH24:MI:SS')"))
                  .toString();
        QProcessEnvironment seoul = QProcessEnvironment::systemEnvironment();
        seoul.insert(QStringLiteral("TZ"), QStringLiteral("Asia/Seoul"));
        const CliRun offsetless = runCli(
            { QStringLiteral("--dsn"), db().dsn(), QStringLiteral("requeue"), QStringLiteral("--status=dead"),
                QStringLiteral("--at=") + twoHoursAhead, QStringLiteral("--reason=x"), QStringLiteral("--dry-run") },
            seoul);
        EXPECT_EXIT(offsetless, 0);
        QVERIFY2(offsetless.out.contains(QString(twoHoursAhead + QLatin1Char('Z')).toUtf8()),
            qPrintable(describe(offsetless)));

        const QStringList later { QStringLiteral("requeue"), QStringLiteral("--status=dead"),
            QStringLiteral("--at=now+1h"), QStringLiteral("--reason=after the 06:00 deploy") };
        const CliRun dryRun = ctl(later + QStringList { QStringLiteral("--dry-run") });
        EXPECT_EXIT(dryRun, 0);
        QVERIFY2(
            QRegularExpression(
                QStringLiteral("^dry run: would requeue 2 rows, due at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\n"))
                .match(QString::fromUtf8(dryRun.out))
                .hasMatch(),
            qPrintable(describe(dryRun)));
        const CliRun run = ctl(later);
        EXPECT_EXIT(run, 0);
        QVERIFY2(run.out.startsWith("requeued 2, due at "), qPrintable(describe(run)));
        QCOMPARE(db().scalar(QStringLiteral(
                                 "SELECT string_agg(DISTINCT status || ' ' || attempts || ' ' || "
                                 "(next_attempt_at - now() BETWEEN interval '59 minutes' AND interval '1 hour'), ',') "
                                 "FROM outbox"))
                     .toString(),
            QStringLiteral("pending 0 true"));
        QVERIFY(db().scalar(QStringLiteral("SELECT details->>'next_attempt_at' FROM audit_log")).isValid());

        const CliRun early = ctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--sink=null") });
        EXPECT_EXIT(early, 0);
        QVERIFY2(early.out.startsWith("claimed 0 published 0"), qPrintable(describe(early)));
        // The time has come.
        db().exec(QStringLiteral("UPDATE outbox SET next_attempt_at = now() - interval '1 second'"));
        const CliRun due = ctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--sink=null") });
        EXPECT_EXIT(due, 0);
        QVERIFY2(due.out.startsWith("claimed 2 published 2"), qPrintable(describe(due)));
    }

    void requeueByIdSkipsRowsInOtherStates()
    {
        enqueue(5);
        EXPECT_EXIT(ctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--sink=fault:1"),
                        QStringLiteral("--max-attempts=1") }),
            0);
        db().exec(QStringLiteral("UPDATE outbox SET status = 'published', published_at = now() WHERE id = 2"));
        const QStringList byId { QStringLiteral("requeue"), QStringLiteral("--id=1,2"), QStringLiteral("--id"),
            QStringLiteral("4"), QStringLiteral("--id=4"), QStringLiteral("--reason=retry") };

        const CliRun dryRun = ctl(byId + QStringList { QStringLiteral("--dry-run") });
        EXPECT_EXIT(dryRun, 0);
        QVERIFY2(dryRun.out.contains("ids: 1,2,4\n"), qPrintable(describe(dryRun)));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'dead'")).toLongLong(), 4);

        const CliRun run = ctl(byId);
        EXPECT_EXIT(run, 0);
        QCOMPARE(run.out,
            QByteArray("requeued 2, left alone 1 (not failed, dead or discarded when applied)\nleft alone: 2\n"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT string_agg(id::text, ',' ORDER BY id) FROM outbox "
                                            "WHERE status = 'pending'"))
                     .toString(),
            QStringLiteral("1,4"));
    }

    // outboxctl discard: a dead head of an ordering key is given up on, audited; the rows that waited behind it flow;
    // requeue brings it back, but only when asked for discarded rows by name.
    void discardReleasesTheRowsWaitingBehindADeadRow()
    {
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', '9', 'order.updated', jsonb_build_object('n', g)) "
                                 "FROM generate_series(1, 3) AS g"));
        EXPECT_EXIT(ctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--sink=fault:1"),
                        QStringLiteral("--max-attempts=1") }),
            0);
        QCOMPARE(db().scalar(QStringLiteral("SELECT string_agg(status, ',' ORDER BY id) FROM outbox")).toString(),
            QStringLiteral("dead,waiting,waiting"));
        // outboxctl list --blocking: the dead row that holds its key back, and no other.
        const CliRun blocking = ctl({ QStringLiteral("list"), QStringLiteral("outbox"), QStringLiteral("--blocking"),
            QStringLiteral("--format=json") });
        EXPECT_EXIT(blocking, 0);
        const QJsonArray blockingRows = blocking.json().value(QStringLiteral("items")).toArray();
        QCOMPARE(blockingRows.size(), 1);
        QCOMPARE(blockingRows.first().toObject().value(QStringLiteral("id")).toInteger(), 1);
        const QString signature
            = db().scalar(QStringLiteral("SELECT error_signature FROM outbox WHERE status = 'dead'")).toString();
        const QStringList discard { QStringLiteral("discard"), QStringLiteral("--signature"), signature,
            QStringLiteral("--reason=order 9 was cancelled upstream") };

        const CliRun dryRun = ctl(discard + QStringList { QStringLiteral("--dry-run") });
        EXPECT_EXIT(dryRun, 0);
        QCOMPARE(dryRun.out, QByteArray("dry run: would discard 1 rows\nids: 1\n"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 0);

        const CliRun run = ctl(discard);
        EXPECT_EXIT(run, 0);
        QCOMPARE(run.out, QByteArray("discarded 1, left alone 0 (not failed or dead when applied)\n"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT string_agg(status, ',' ORDER BY id) FROM outbox")).toString(),
            QStringLiteral("discarded,pending,pending"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log WHERE action = 'discard' "
                                            "AND reason = 'order 9 was cancelled upstream' AND entity_ids = '{1}'"))
                     .toLongLong(),
            1);
        // Selected by its failure group: the entry names the group.
        QCOMPARE(db().scalar(QStringLiteral("SELECT details->>'signature' FROM audit_log WHERE action = 'discard'"))
                     .toString(),
            signature);
        EXPECT_EXIT(ctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--sink=null") }), 0);
        QCOMPARE(db().scalar(QStringLiteral("SELECT string_agg(status, ',' ORDER BY id) FROM outbox")).toString(),
            QStringLiteral("discarded,published,published"));
        // Discarding it again changes nothing and says so.
        const CliRun again = ctl({ QStringLiteral("discard"), QStringLiteral("--id=1"), QStringLiteral("--reason=x") });
        EXPECT_EXIT(again, 0);
        QCOMPARE(again.out, QByteArray("discarded 0, left alone 1 (not failed or dead when applied)\nleft alone: 1\n"));
        // Discard applies to failed and dead rows only.
        EXPECT_EXIT(
            ctl({ QStringLiteral("discard"), QStringLiteral("--status=discarded"), QStringLiteral("--reason=x") }), 2);

        // Its failure group no longer holds it, so a retry of the group leaves it alone; a retry of the discarded
        // rows brings it back, audited from discarded.
        const CliRun ofGroup = ctl({ QStringLiteral("requeue"), QStringLiteral("--signature"), signature,
            QStringLiteral("--reason=x"), QStringLiteral("--dry-run") });
        EXPECT_EXIT(ofGroup, 0);
        QCOMPARE(ofGroup.out, QByteArray("dry run: would requeue 0 rows\n"));
        const CliRun retried = ctl({ QStringLiteral("requeue"), QStringLiteral("--status=discarded"),
            QStringLiteral("--reason=order 9 is back") });
        EXPECT_EXIT(retried, 0);
        QCOMPARE(retried.out, QByteArray("requeued 1, left alone 0 (not failed, dead or discarded when applied)\n"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT status FROM outbox WHERE id = 1")).toString(),
            QStringLiteral("pending"));
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT state_before::text FROM audit_log WHERE action = 'requeue'")).toString(),
            QStringLiteral("{\"1\": \"discarded\"}"));
    }

    void requeueFiltersByErrorAndAge()
    {
        enqueue(3);
        db().exec(QStringLiteral("UPDATE outbox SET status = 'failed', last_error = 'Timeout talking to broker', "
                                 "updated_at = now() - interval '2 hours' WHERE id = 1"));
        db().exec(QStringLiteral("UPDATE outbox SET status = 'failed', last_error = 'timeout again' WHERE id = 2"));
        db().exec(QStringLiteral("UPDATE outbox SET status = 'failed', last_error = '100% refused', "
                                 "updated_at = now() - interval '2 hours' WHERE id = 3"));
        const QStringList base { QStringLiteral("requeue"), QStringLiteral("--status=failed"),
            QStringLiteral("--reason=x"), QStringLiteral("--dry-run") };
        QCOMPARE(ctl(base + QStringList { QStringLiteral("--error-like=TIMEOUT") }).out,
            QByteArray("dry run: would requeue 2 rows\nids: 1,2\n"));
        QCOMPARE(ctl(base + QStringList { QStringLiteral("--older-than=1h") }).out,
            QByteArray("dry run: would requeue 2 rows\nids: 1,3\n"));
        QCOMPARE(ctl(base + QStringList { QStringLiteral("--error-like=0%") }).out,
            QByteArray("dry run: would requeue 1 rows\nids: 3\n"));
        const CliRun capped = ctl(base + QStringList { QStringLiteral("--limit=2") });
        QCOMPARE(capped.out, QByteArray("dry run: would requeue 2 rows\nids: 1,2\n"));
        QVERIFY(capped.err.contains("--limit 2"));
    }

    // outboxctl edit: the difference first (a dry run stops there), then the row requeued with the new payload,
    // which the relay publishes as edited; audited with both versions; a row that is not failed, dead or discarded
    // any more is exit 11 with nothing written.
    void editRepublishesTheEditedPayload()
    {
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', '7', 'order.created', "
                                 "'{\"amount\": \"12.50\", \"n\": 12345678901234567890, \"sku\": \"A-1\"}')"));
        EXPECT_EXIT(ctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--sink=fault:1"),
                        QStringLiteral("--max-attempts=1") }),
            0);
        QCOMPARE(db().scalar(QStringLiteral("SELECT status FROM outbox")).toString(), QStringLiteral("dead"));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto writeFile = [&dir](const QString& name, const QByteArray& bytes) {
            QFile file(dir.filePath(name));
            if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
                qFatal("cannot write %s", qPrintable(file.fileName()));
            return file.fileName();
        };
        const QString payload = writeFile(
            QStringLiteral("payload.json"), "{\"sku\": \"A-1\", \"amount\": 12.50, \"n\": 12345678901234567890}");
        const QStringList edit { QStringLiteral("edit"), QStringLiteral("--id=1"), QStringLiteral("--payload-file"),
            payload, QStringLiteral("--reason=amount sent as text by client 2.3") };

        const CliRun dryRun = ctl(edit + QStringList { QStringLiteral("--dry-run") });
        EXPECT_EXIT(dryRun, 0);
        QCOMPARE(dryRun.out,
            QByteArray("payload: 1 line(s) removed, 1 added\n"
                       "  {\n"
                       "      \"n\": 12345678901234567890,\n"
                       "      \"sku\": \"A-1\",\n"
                       "-     \"amount\": \"12.50\"\n"
                       "+     \"amount\": 12.50\n"
                       "  }\n"
                       "headers: unchanged\n"
                       "dry run: would edit and requeue row 1 (dead)\n"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 0);
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT payload->>'amount' FROM outbox")).toString(), QStringLiteral("12.50"));

        const CliRun run = ctl(edit);
        EXPECT_EXIT(run, 0);
        QVERIFY2(run.out.endsWith("edited and requeued row 1 (was dead)\n"), qPrintable(describe(run)));
        QCOMPARE(db().scalar(QStringLiteral("SELECT status || ' ' || attempts FROM outbox")).toString(),
            QStringLiteral("pending 0"));
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT reason || ' ' || (details->'payload'->'before'->>'amount') || ' ' || "
                                       "jsonb_typeof(details->'payload'->'after'->'amount') FROM audit_log "
                                       "WHERE action = 'edit'"))
                .toString(),
            QStringLiteral("amount sent as text by client 2.3 12.50 number"));
        // outboxctl audit shows the details.
        const CliRun audit = ctl({ QStringLiteral("audit"), QStringLiteral("--format=json") });
        EXPECT_EXIT(audit, 0);
        const QJsonObject entry = audit.json().value(QStringLiteral("entries")).toArray().first().toObject();
        QCOMPARE(entry.value(QStringLiteral("action")).toString(), QStringLiteral("edit"));
        QVERIFY2(entry.value(QStringLiteral("details")).toString().contains(QStringLiteral("\"amount\": 12.50")),
            qPrintable(entry.value(QStringLiteral("details")).toString()));

        const QString out = dir.filePath(QStringLiteral("out.jsonl"));
        EXPECT_EXIT(ctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--sink"),
                        QStringLiteral("file:") + out }),
            0);
        QFile published(out);
        QVERIFY(published.open(QIODevice::ReadOnly));
        const QByteArray line = published.readAll();
        QVERIFY2(line.contains("\"payload\":{\"n\": 12345678901234567890, \"sku\": \"A-1\", \"amount\": 12.50}"),
            line.constData());

        // Published now: an edit no longer applies.
        const CliRun late = ctl(edit);
        EXPECT_EXIT(late, 11);
        QVERIFY2(isOneDiagnostic(late), qPrintable(describe(late)));
        QVERIFY2(late.err.contains("row 1 is published: only failed, dead or discarded rows can be edited"),
            qPrintable(describe(late)));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 1);
    }

    // What an edit refuses, each as one line and exit 2, with nothing written.
    void editRefusesBadContent_data()
    {
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<QByteArray>("headers"); // empty: no --headers-file
        QTest::addColumn<QString>("message");
        QTest::newRow("payload not JSON") << QByteArray("{\n  \"a\": 1\n  \"b\": 2\n}") << QByteArray()
                                          << QStringLiteral("the payload is not JSON: line 3, column 3");
        QTest::newRow("payload not UTF-8")
            << QByteArray("{\"a\": \"\xff\"}") << QByteArray() << QStringLiteral("is not valid UTF-8");
        QTest::newRow("payload NUL") << QByteArray("{\"a\": \"\\u0000\"}") << QByteArray()
                                     << QStringLiteral("PostgreSQL refuses the payload");
        QTest::newRow("headers not an object") << QByteArray("{\"a\": 2}") << QByteArray("[\"h\"]")
                                               << QStringLiteral("the headers must be a JSON object, not an array");
        QTest::newRow("nothing changes") << QByteArray("{ \"a\" : 1 }") << QByteArray("{}")
                                         << QStringLiteral("the edit changes nothing in row 1");
    }

    void editRefusesBadContent()
    {
        QFETCH(QByteArray, payload);
        QFETCH(QByteArray, headers);
        QFETCH(QString, message);
        db().exec(QStringLiteral("SELECT outbox_enqueue('order', '7', 'order.created', '{\"a\": 1}')"));
        db().exec(QStringLiteral("UPDATE outbox SET status = 'dead'"));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QStringList arguments { QStringLiteral("edit"), QStringLiteral("--id=1"), QStringLiteral("--reason=x") };
        for (const auto& [option, bytes] : { std::pair(QStringLiteral("payload-file"), payload),
                 std::pair(QStringLiteral("headers-file"), headers) }) {
            if (bytes.isEmpty())
                continue;
            QFile file(dir.filePath(option));
            QVERIFY(file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size());
            arguments << QStringLiteral("--") + option << file.fileName();
        }
        const CliRun run = ctl(arguments);
        EXPECT_EXIT(run, 2);
        QVERIFY2(isOneDiagnostic(run), qPrintable(describe(run)));
        QVERIFY2(run.err.contains(message.toUtf8()), qPrintable(describe(run)));
        QCOMPARE(db().scalar(QStringLiteral("SELECT status || payload::text FROM outbox")).toString(),
            QStringLiteral("dead{\"a\": 1}"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 0);
    }

    void viewerMayNotRequeue()
    {
        enqueue(2);
        db().exec(QStringLiteral("UPDATE outbox SET status = 'dead'"));
        const QString role = QStringLiteral("tst_cli_viewer_%1").arg(QCoreApplication::applicationPid());
        db().createLoginRole(role, QStringLiteral("outbox_viewer"));
        const QString viewerDsn = QStringLiteral("dbname=%1 user=%2 password=pw_%3")
                                      .arg(db().name(), role)
                                      .arg(QCoreApplication::applicationPid());

        const CliRun list
            = runCli({ QStringLiteral("--dsn"), viewerDsn, QStringLiteral("list"), QStringLiteral("outbox") });
        EXPECT_EXIT(list, 0);
        // A created range also reads the partitions' catalogue (migration 0021), which the role may read too.
        const CliRun recent = runCli({ QStringLiteral("--dsn"), viewerDsn, QStringLiteral("list"),
            QStringLiteral("outbox"), QStringLiteral("--created-from=now-1h"), QStringLiteral("--format=json") });
        EXPECT_EXIT(recent, 0);
        QCOMPARE(recent.json().value(QStringLiteral("items")).toArray().size(), 2);
        for (const QStringList& requeue :
            { QStringList { QStringLiteral("--status=dead") }, QStringList { QStringLiteral("--id=1,2") } }) {
            const CliRun run = runCli(QStringList { QStringLiteral("--dsn"), viewerDsn, QStringLiteral("requeue"),
                                          QStringLiteral("--reason=x") }
                + requeue);
            EXPECT_EXIT(run, 7);
            QVERIFY2(isOneDiagnostic(run), qPrintable(describe(run)));
            QVERIFY2(run.err.contains("outbox_operator"), qPrintable(describe(run)));
        }
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE status = 'dead'")).toLongLong(), 2);
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), 0);
        db().openSession()->execScript(QStringLiteral("DROP ROLE %1").arg(role), QStringLiteral("dropping the role"));
    }

    void listJsonPagesAreDisjoint_data()
    {
        QTest::addColumn<QString>("what");
        QTest::newRow("outbox") << QStringLiteral("outbox");
        QTest::newRow("keys") << QStringLiteral("keys");
    }

    void listJsonPagesAreDisjoint()
    {
        QFETCH(QString, what);
        for (int i = 1; i <= 7; ++i)
            EXPECT_EXIT(
                createOrder(QStringLiteral("page-%1").arg(i), QStringLiteral("c%1").arg(i), QStringLiteral("1")), 0);

        QList<qint64> seen;
        QJsonValue cursor;
        for (int page = 0; page < 3; ++page) {
            QStringList arguments { QStringLiteral("list"), what, QStringLiteral("--limit=3"),
                QStringLiteral("--format=json") };
            if (page > 0)
                arguments << QStringLiteral("--after") << cursor.toString();
            const CliRun run = ctl(arguments);
            EXPECT_EXIT(run, 0);
            QVERIFY(run.err.isEmpty());
            QJsonParseError error;
            const QJsonObject document = QJsonDocument::fromJson(run.out, &error).object();
            QCOMPARE(error.error, QJsonParseError::NoError);
            const QJsonArray items = document.value(QStringLiteral("items")).toArray();
            QCOMPARE(items.size(), page < 2 ? 3 : 1);
            for (const auto& item : items)
                seen.append(item.toObject().value(QStringLiteral("id")).toInteger());
            cursor = document.value(QStringLiteral("next_cursor"));
            if (page < 2)
                QCOMPARE(cursor.toString(), QString::number(seen.last()));
            else
                QVERIFY(cursor.isNull());
        }
        QCOMPARE(seen, (QList<qint64> { 7, 6, 5, 4, 3, 2, 1 }));
    }

    void listOutboxTableIsAlignedWithUtcTimes()
    {
        enqueue(3);
        const CliRun run = ctl({ QStringLiteral("list"), QStringLiteral("outbox"), QStringLiteral("--limit=2") });
        EXPECT_EXIT(run, 0);
        QCOMPARE(run.err, QByteArray("next page: --after 2\n"));
        const QList<QByteArray> lines = run.outLines();
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines.at(0).startsWith("id  event_type"));
        const qsizetype statusColumn = lines.at(0).indexOf("status");
        const qsizetype createdColumn = lines.at(0).indexOf("created_at");
        for (const QByteArray& line : lines.mid(1)) {
            QCOMPARE(line.mid(statusColumn, 8), QByteArray("pending "));
            QVERIFY2(QRegularExpression(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z "))
                         .match(QString::fromUtf8(line.mid(createdColumn)))
                         .hasMatch(),
                line.constData());
        }
        QVERIFY(lines.at(1).startsWith("3 "));
        QVERIFY(lines.at(2).startsWith("2 "));

        const CliRun last = ctl({ QStringLiteral("list"), QStringLiteral("outbox"), QStringLiteral("--after=2") });
        EXPECT_EXIT(last, 0);
        QVERIFY(last.err.isEmpty());
        QCOMPARE(last.outLines().size(), 2);
    }

    void listKeysCsvFollowsRfc4180()
    {
        const QString key = QStringLiteral("a,\"b\"");
        EXPECT_EXIT(createOrder(key, QStringLiteral("alice"), QStringLiteral("1")), 0);
        EXPECT_EXIT(createOrder(QStringLiteral("plain"), QStringLiteral("bob"), QStringLiteral("2")), 0);
        const CliRun run = ctl({ QStringLiteral("list"), QStringLiteral("keys"), QStringLiteral("--format"),
            QStringLiteral("csv"), QStringLiteral("--status"), QStringLiteral("completed") });
        EXPECT_EXIT(run, 0);
        QVERIFY(run.out.endsWith("\r\n"));
        QCOMPARE(run.out.count('\n'), run.out.count("\r\n"));
        const QList<QByteArray> records = run.out.split('\n');
        QCOMPARE(records.size(), 4);
        QCOMPARE(records.at(0),
            QByteArray("id,scope,key,status,failure_retryable,response_status,replay_count,last_replayed_at,order_id,"
                       "created_at,expires_at,fingerprint\r"));
        QVERIFY(records.at(1).startsWith("2,orders,plain,completed,,201,0,,2,"));
        QVERIFY2(records.at(2).startsWith("1,orders,\"a,\"\"b\"\"\",completed,,201,0,,1,"), records.at(2).constData());
    }

    void metricsCountReplays()
    {
        EXPECT_EXIT(createOrder(QStringLiteral("m"), QStringLiteral("alice"), QStringLiteral("1")), 0);
        for (int i = 0; i < 3; ++i)
            EXPECT_EXIT(createOrder(QStringLiteral("m"), QStringLiteral("alice"), QStringLiteral("1")), 0);
        EXPECT_EXIT(createOrder(QStringLiteral("m"), QStringLiteral("bob"), QStringLiteral("1")), 4);

        const CliRun csv = ctl({ QStringLiteral("metrics"), QStringLiteral("--from"), QStringLiteral("now-10m"),
            QStringLiteral("--to"), QStringLiteral("now") });
        EXPECT_EXIT(csv, 0);
        const QList<QByteArray> records = csv.out.split('\n');
        QCOMPARE(records.at(0),
            QByteArray("bucket_start,requests,executions,replays,mismatches,in_progress_rejections,duplicate_hit_rate,"
                       "published,publish_latency_p50_ms,publish_latency_p95_ms,publish_latency_p99_ms,"
                       "publish_latency_max_ms,failed_attempts,retry_rate,dead_letters,lease_rescues,backlog,"
                       "backlog_capped,oldest_pending_age_ms,consumed,consumer_duplicates,backlog_last,"
                       "oldest_pending_age_ms_last\r"));
        qint64 requests = 0;
        qint64 replays = 0;
        for (const QByteArray& record : records.mid(1, records.size() - 2)) {
            const QList<QByteArray> fields = record.chopped(1).split(',');
            QCOMPARE(fields.size(), 23);
            requests += fields.at(1).toLongLong();
            replays += fields.at(3).toLongLong();
        }
        QCOMPARE(requests, 5);
        QCOMPARE(replays, 3);

        const CliRun json = ctl({ QStringLiteral("metrics"), QStringLiteral("--from=now-2h"),
            QStringLiteral("--to=now"), QStringLiteral("--bucket=1h"), QStringLiteral("--format=json") });
        EXPECT_EXIT(json, 0);
        const QJsonArray series = json.json().value(QStringLiteral("series")).toArray();
        QVERIFY(series.size() >= 2);
        qint64 jsonReplays = 0;
        qint64 jsonMismatches = 0;
        for (const auto& value : series) {
            const QJsonObject point = value.toObject();
            QCOMPARE(point.size(), 23);
            const qint64 bucketRequests = point.value(QStringLiteral("requests")).toInteger();
            const qint64 bucketReplays = point.value(QStringLiteral("replays")).toInteger();
            jsonReplays += bucketReplays;
            jsonMismatches += point.value(QStringLiteral("mismatches")).toInteger();
            if (bucketRequests > 0) {
                QCOMPARE(point.value(QStringLiteral("duplicate_hit_rate")).toDouble(),
                    std::round(10'000.0 * double(bucketReplays) / double(bucketRequests)) / 10'000.0);
            } else {
                QVERIFY(point.value(QStringLiteral("duplicate_hit_rate")).isNull());
            }
            // Nothing was published and no relay sampled the backlog: undefined, not zero.
            QVERIFY(point.value(QStringLiteral("retry_rate")).isNull());
            QVERIFY(point.value(QStringLiteral("publish_latency_p50_ms")).isNull());
            QVERIFY(point.value(QStringLiteral("publish_latency_max_ms")).isNull());
            QVERIFY(point.value(QStringLiteral("backlog")).isNull());
        }
        QCOMPARE(jsonReplays, 3);
        QCOMPARE(jsonMismatches, 1);

        const CliRun local = ctl({ QStringLiteral("metrics"), QStringLiteral("--from=now-5m"),
            QStringLiteral("--to=now"), QStringLiteral("--tz=local") });
        EXPECT_EXIT(local, 0);
        QVERIFY(local.out.startsWith("bucket_start,requests,"));
    }

    // A backlog that peaks and drains within one minute, as three relay samples leave it: the minute keeps the
    // peak of each gauge (the CSV's backlog and oldest_pending_age_ms, what the charts draw) and its last sample
    // beside it; a coarser bucket keeps the peak of its minutes.
    void metricsKeepTheBacklogPeak()
    {
        {
            const std::unique_ptr<DbSession> relaySession = db().openSession();
            UnitOfWork uow(*relaySession); // one transaction, one now(): one minute
            MetricsRepository metrics(*relaySession);
            metrics.recordBacklogSample(BacklogSample { 351, false, 22'000 });
            metrics.recordBacklogSample(BacklogSample { 636, false, 40'000 });
            metrics.recordBacklogSample(BacklogSample { 5, false, 297 });
            // The minute before, in the same transaction: whenever it runs, the two are neighbours.
            relaySession->exec(
                QStringLiteral("INSERT INTO backlog_samples (bucket, sampled_at, pending, pending_capped, "
                               "  oldest_pending_ms, last_pending, last_pending_capped, last_oldest_pending_ms) "
                               "VALUES (date_trunc('minute', now()) - interval '1 minute', now(), 900, false, "
                               "  70000, 3, false, 100)"),
                {}, QStringLiteral("the minute before"));
            uow.commit();
        }

        const CliRun csv
            = ctl({ QStringLiteral("metrics"), QStringLiteral("--from=now-10m"), QStringLiteral("--to=now") });
        EXPECT_EXIT(csv, 0);
        const QList<QByteArray> header = csv.out.split('\n').at(0).chopped(1).split(',');
        const auto column = [&](const char* name) { return header.indexOf(QByteArray(name)); };
        QList<QList<QByteArray>> sampled;
        for (const QByteArray& record : csv.out.split('\n').mid(1)) {
            const QList<QByteArray> fields = record.chopped(1).split(',');
            if (fields.size() == header.size() && !fields.at(column("backlog")).isEmpty())
                sampled.append(fields);
        }
        QCOMPARE(sampled.size(), 2);
        const QList<QByteArray>& incident = sampled.last();
        QCOMPARE(incident.at(column("backlog")), QByteArray("636"));
        QCOMPARE(incident.at(column("oldest_pending_age_ms")), QByteArray("40000"));
        QCOMPARE(incident.at(column("backlog_last")), QByteArray("5"));
        QCOMPARE(incident.at(column("oldest_pending_age_ms_last")), QByteArray("297"));

        const CliRun hourly = ctl({ QStringLiteral("metrics"), QStringLiteral("--from=now-2h"),
            QStringLiteral("--to=now"), QStringLiteral("--bucket=1h"), QStringLiteral("--format=json") });
        EXPECT_EXIT(hourly, 0);
        qint64 peak = 0;
        qint64 last = -1;
        for (const QJsonValue& value : hourly.json().value(QStringLiteral("series")).toArray()) {
            const QJsonObject point = value.toObject();
            if (point.value(QStringLiteral("backlog")).isNull())
                continue;
            peak = qMax(peak, point.value(QStringLiteral("backlog")).toInteger());
            last = point.value(QStringLiteral("backlog_last")).toInteger();
        }
        QCOMPARE(peak, 900LL); // the minute before, whichever hour holds it
        QCOMPARE(last, 5LL); // the newest hour's last sample is the newest minute's
    }

    void metricsBucketsFollowTheTimeZone_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QStringList>("bucketStarts");

        QTest::newRow("utc 5m") << QStringList { QStringLiteral("--from=2026-01-01T00:00:00Z"),
            QStringLiteral("--to=2026-01-01T00:15:00Z"), QStringLiteral("--bucket=5m") }
                                << QStringList { QStringLiteral("2026-01-01T00:00:00+00:00"),
                                       QStringLiteral("2026-01-01T00:05:00+00:00"),
                                       QStringLiteral("2026-01-01T00:10:00+00:00") };
        QTest::newRow("kolkata local times")
            << QStringList { QStringLiteral("--from=2026-01-01T00:00"), QStringLiteral("--to=2026-01-01T03:00"),
                   QStringLiteral("--bucket=1h"), QStringLiteral("--tz=Asia/Kolkata") }
            << QStringList { QStringLiteral("2026-01-01T00:00:00+05:30"), QStringLiteral("2026-01-01T01:00:00+05:30"),
                   QStringLiteral("2026-01-01T02:00:00+05:30") };
        QTest::newRow("offset input, berlin output") << QStringList { QStringLiteral("--from=2026-11-30T05:00:00Z"),
            QStringLiteral("--to=2026-11-30T07:00:00+01:00"), QStringLiteral("--bucket=1h"),
            QStringLiteral("--tz=Europe/Berlin") } << QStringList { QStringLiteral("2026-11-30T06:00:00+01:00") };
        QTest::newRow("across the DST change") << QStringList {
            QStringLiteral("--from=2026-03-29T01:00:00+01:00"), QStringLiteral("--to=2026-03-29T04:00:00+02:00"),
            QStringLiteral("--bucket=1h"), QStringLiteral("--tz=Europe/Berlin")
        } << QStringList { QStringLiteral("2026-03-29T01:00:00+01:00"), QStringLiteral("2026-03-29T03:00:00+02:00") };
    }

    void metricsBucketsFollowTheTimeZone()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QStringList, bucketStarts);
        const CliRun run = ctl(QStringList { QStringLiteral("metrics") } + arguments);
        EXPECT_EXIT(run, 0);
        const QList<QByteArray> records = run.out.split('\n');
        QCOMPARE(records.size(), bucketStarts.size() + 2);
        for (qsizetype i = 0; i < bucketStarts.size(); ++i)
            QCOMPARE(records.at(i + 1), bucketStarts.at(i).toUtf8() + ",0,0,0,0,0,,0,,,,,0,,0,0,,,,0,0,,\r");
    }

    void purgeDeletesExpiredKeysAndOldPublishedRows()
    {
        for (int i = 1; i <= 3; ++i)
            EXPECT_EXIT(createOrder(QStringLiteral("p%1").arg(i), QStringLiteral("c"), QStringLiteral("1")), 0);
        db().exec(QStringLiteral("UPDATE idempotency_keys SET expires_at = now() - interval '1 minute' WHERE id <= 2"));
        // Off the log, as rows of the old layout were: a row published eight days ago goes, the others of its
        // partition stay (a row of the log goes only with its whole partition).
        db().exec(QStringLiteral("UPDATE outbox SET status = 'pending' WHERE status IS NULL"));
        EXPECT_EXIT(ctl({ QStringLiteral("relay"), QStringLiteral("--once") }), 0);
        db().exec(QStringLiteral("UPDATE outbox SET published_at = now() - interval '8 days' WHERE id = 1"));

        const CliRun keys = ctl({ QStringLiteral("purge"), QStringLiteral("--keys"), QStringLiteral("--batch=1") });
        EXPECT_EXIT(keys, 0);
        QCOMPARE(keys.out, QByteArray("purged 2 expired keys\n"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM idempotency_keys")).toLongLong(), 1);

        // The rows are in the open partition, opened less than the default day ago: it stays open, they stay.
        const CliRun young
            = ctl({ QStringLiteral("purge"), QStringLiteral("--outbox"), QStringLiteral("--older-than=7d") });
        EXPECT_EXIT(young, 0);
        QCOMPARE(young.out, QByteArray("purged 0 published outbox rows\n"));

        const CliRun both = ctl({ QStringLiteral("purge"), QStringLiteral("--keys"), QStringLiteral("--outbox"),
            QStringLiteral("--older-than=7d"), QStringLiteral("--partition-age=0s") });
        EXPECT_EXIT(both, 0);
        QCOMPARE(both.out, QByteArray("purged 0 expired keys\npurged 1 published outbox rows\n"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT string_agg(id::text, ',' ORDER BY id) FROM outbox")).toString(),
            QStringLiteral("2,3"));

        const CliRun misplaced
            = ctl({ QStringLiteral("purge"), QStringLiteral("--keys"), QStringLiteral("--partition-age=1h") });
        EXPECT_EXIT(misplaced, 2);
        QVERIFY2(misplaced.err.contains("--partition-age goes with --outbox only"), qPrintable(describe(misplaced)));
    }

    // A relay registers, signs off when done, is listed with its state and totals, and is purged once gone.
    void relaysListsTheRegistryAndPurgeRemovesTheGone()
    {
        enqueue(4);
        EXPECT_EXIT(ctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--name=cli-relay") }), 0);
        const CliRun listed = ctl({ QStringLiteral("relays"), QStringLiteral("--format=json") });
        EXPECT_EXIT(listed, 0);
        const QJsonArray relays = listed.json().value(QStringLiteral("relays")).toArray();
        QCOMPARE(relays.size(), 1);
        const QJsonObject relay = relays.first().toObject();
        QCOMPARE(relay.value(QStringLiteral("name")).toString(), QStringLiteral("cli-relay"));
        QCOMPARE(relay.value(QStringLiteral("state")).toString(), QStringLiteral("stopped"));
        QCOMPARE(relay.value(QStringLiteral("published")).toInt(), 4);
        QCOMPARE(relay.value(QStringLiteral("sink")).toString(), QStringLiteral("null"));
        QVERIFY(!relay.value(QStringLiteral("stopped_at")).isNull());

        const CliRun table = ctl({ QStringLiteral("relays") });
        EXPECT_EXIT(table, 0);
        QCOMPARE(table.outLines().size(), 2);
        QVERIFY2(table.outLines().at(1).contains("cli-relay") && table.outLines().at(1).contains("stopped"),
            table.out.constData());

        const CliRun recent
            = ctl({ QStringLiteral("purge"), QStringLiteral("--relays"), QStringLiteral("--older-than=1h") });
        EXPECT_EXIT(recent, 0);
        QCOMPARE(recent.out, QByteArray("purged 0 gone relays\n"));
        db().exec(QStringLiteral("UPDATE relay_nodes SET last_seen = now() - interval '2 hours'"));
        const CliRun old
            = ctl({ QStringLiteral("purge"), QStringLiteral("--relays"), QStringLiteral("--older-than=1h") });
        EXPECT_EXIT(old, 0);
        QCOMPARE(old.out, QByteArray("purged 1 gone relays\n"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM relay_nodes")).toLongLong(), 0);
    }

    // forget-relays: by id or by state, a dry run that lists them, an audited reason; a running relay and an id
    // that is not in the registry are left alone and said so.
    void forgetRelaysRemovesThoseThatDoNotRun()
    {
        EXPECT_EXIT(ctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--name=old-relay") }), 0);
        const qint64 id = db().scalar(QStringLiteral("SELECT id FROM relay_nodes")).toLongLong();
        EXPECT_EXIT(
            ctl({ QStringLiteral("forget-relays"), QStringLiteral("--state=alive"), QStringLiteral("--reason=x") }), 2);
        EXPECT_EXIT(ctl({ QStringLiteral("forget-relays"), QStringLiteral("--reason=x") }), 2);
        const CliRun dryRun = ctl({ QStringLiteral("forget-relays"), QStringLiteral("--state=stopped"),
            QStringLiteral("--reason=old version"), QStringLiteral("--dry-run") });
        EXPECT_EXIT(dryRun, 0);
        QCOMPARE(dryRun.outLines().size(), 2);
        QCOMPARE(dryRun.outLines().at(0), QByteArray("dry run: would forget 1 relays (a running one is left alone)"));
        QVERIFY2(dryRun.outLines().at(1).startsWith(QByteArray::number(id) + " old-relay on ")
                && dryRun.outLines().at(1).endsWith("(stopped)"),
            dryRun.out.constData());
        QCOMPARE(db().scalar(QStringLiteral("SELECT count(*) FROM relay_nodes")).toLongLong(), 1);

        // By id, however many relays were seen since: 10,000 later registrations push it out of the recent ones.
        db().exec(QStringLiteral("INSERT INTO relay_nodes (name, host, pid, version, sink, workers, batch_size, "
                                 "  lease_ms, heartbeat_ms, last_seen, stopped_at) "
                                 "SELECT 'later-' || g, 'h', g, 'v', 'null:', 1, 1, 30000, 5000, now(), now() "
                                 "FROM generate_series(1, 10000) AS g"));
        const CliRun run = ctl({ QStringLiteral("forget-relays"), QStringLiteral("--id"),
            QStringLiteral("%1,999999").arg(id), QStringLiteral("--reason=old version") });
        EXPECT_EXIT(run, 0);
        QCOMPARE(run.out, QByteArray("forgot 1, left alone 0 (running when applied)\n"));
        QVERIFY2(run.err.contains("there is no relay 999999 in the registry"), qPrintable(describe(run)));
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT count(*) FROM relay_nodes WHERE name = 'old-relay'")).toLongLong(), 0);
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT action || ' ' || entity || ' ' || reason || ' ' || state_before::text "
                                       "FROM audit_log"))
                .toString(),
            QStringLiteral("forget relay relay old version {\"%1\": \"stopped\"}").arg(id));
    }

    // `event-types`: a row per type, a column per state, capped counts as N+, the oldest unpublished age.
    void eventTypesListsEachTypeByState()
    {
        db().exec(
            QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                           "  status) "
                           "SELECT 'order', g::text, CASE WHEN g <= 4 THEN 'order.created' ELSE 'order.paid' END, "
                           "  '{}', 'e' || g, CASE WHEN g <= 3 THEN 'pending' ELSE 'dead' END "
                           "FROM generate_series(1, 5) g"));
        const CliRun json
            = ctl({ QStringLiteral("event-types"), QStringLiteral("--format=json"), QStringLiteral("--cap=2") });
        EXPECT_EXIT(json, 0);
        const QJsonArray types = json.json().value(QStringLiteral("event_types")).toArray();
        QCOMPARE(types.size(), 2);
        const QJsonObject created = types.at(0).toObject();
        QCOMPARE(created.value(QStringLiteral("event_type")).toString(), QStringLiteral("order.created"));
        QCOMPARE(created.value(QStringLiteral("pending")).toString(), QStringLiteral("2+"));
        QCOMPARE(created.value(QStringLiteral("dead")).toInt(), 1);
        QCOMPARE(created.value(QStringLiteral("published")).toInt(), 0);
        QVERIFY(created.value(QStringLiteral("oldest_unpublished_seconds")).isDouble());
        const QJsonObject paid = types.at(1).toObject();
        QCOMPARE(paid.value(QStringLiteral("dead")).toInt(), 1);
        QVERIFY(paid.value(QStringLiteral("oldest_unpublished_seconds")).isNull());

        const CliRun table = ctl({ QStringLiteral("event-types") });
        EXPECT_EXIT(table, 0);
        QCOMPARE(table.outLines().size(), 3); // header and two types
        QVERIFY2(table.outLines().at(0).startsWith("event_type"), table.out.constData());
    }

    // --per-second: a line for every second of the window, of one type or all, the relays' counts in it, and whether
    // it is complete; with no relay running, a warning says nothing is counted.
    void eventTypesPerSecondListsTheLastSeconds()
    {
        const qint64 threeAgo
            = db().scalar(QStringLiteral("SELECT epoch_ms(date_trunc('second', now()) - interval '3 seconds')"))
                  .toLongLong();
        db().exec(QStringLiteral("INSERT INTO outbox_throughput_seconds (second, event_type, published, failed, dead) "
                                 "VALUES (to_timestamp(?::bigint / 1000.0), 'order.created', 7, 2, 1), "
                                 "(to_timestamp(?::bigint / 1000.0), 'order.paid', 5, 0, 0)"),
            { threeAgo, threeAgo });
        const CliRun json
            = ctl({ QStringLiteral("event-types"), QStringLiteral("--per-second"), QStringLiteral("--seconds=10"),
                QStringLiteral("--event-type=order.created"), QStringLiteral("--format=json") });
        EXPECT_EXIT(json, 0);
        const QJsonArray seconds = json.json().value(QStringLiteral("seconds")).toArray();
        QCOMPARE(seconds.size(), 10);
        int found = 0;
        for (const QJsonValue& value : seconds) {
            const QJsonObject second = value.toObject();
            const QDateTime at
                = QDateTime::fromString(second.value(QStringLiteral("second")).toString(), Qt::ISODateWithMs);
            if (at.toMSecsSinceEpoch() == threeAgo) {
                ++found;
                QCOMPARE(second.value(QStringLiteral("published")).toInt(), 7);
                QCOMPARE(second.value(QStringLiteral("failed")).toInt(), 2);
                QCOMPARE(second.value(QStringLiteral("dead")).toInt(), 1);
                QCOMPARE(second.value(QStringLiteral("complete")).toBool(), true);
            } else {
                QCOMPARE(second.value(QStringLiteral("published")).toInt(), 0);
            }
        }
        QCOMPARE(found, 1);
        // The second still running is not complete.
        QCOMPARE(seconds.last().toObject().value(QStringLiteral("complete")).toBool(), false);
        QVERIFY2(json.err.contains("no relay is running"), json.err.constData());

        EXPECT_EXIT(ctl({ QStringLiteral("event-types"), QStringLiteral("--event-type=order.created") }), 2);
        EXPECT_EXIT(
            ctl({ QStringLiteral("event-types"), QStringLiteral("--per-second"), QStringLiteral("--seconds=0") }), 2);
    }

    // `failures` groups by cause; a group's id selects it in `list` and `requeue`; dry runs stay short.
    void failuresGroupsAndTheirIdSelectsTheRows()
    {
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                                 "  status, attempts, last_error) "
                                 "SELECT 'order', g::text, 'order.created', '{}', 'f' || g, "
                                 "  CASE WHEN g <= 25 THEN 'failed' ELSE 'dead' END, 2, "
                                 "  CASE WHEN g <= 30 THEN 'message size ' || (g * 100) || ' larger than max 64' "
                                 "       ELSE 'connect to 10.1.1.' || g || ':5672 failed' END "
                                 "FROM generate_series(1, 34) g"));
        const CliRun json = ctl({ QStringLiteral("failures"), QStringLiteral("--format=json") });
        EXPECT_EXIT(json, 0);
        const QJsonArray groups = json.json().value(QStringLiteral("groups")).toArray();
        QCOMPARE(groups.size(), 2);
        const QJsonObject size = groups.at(0).toObject();
        QCOMPARE(
            size.value(QStringLiteral("signature")).toString(), QStringLiteral("message size <n> larger than max <n>"));
        QCOMPARE(size.value(QStringLiteral("rows")).toInt(), 30);
        QCOMPARE(size.value(QStringLiteral("failed")).toInt(), 25);
        QCOMPARE(size.value(QStringLiteral("dead")).toInt(), 5);
        QCOMPARE(size.value(QStringLiteral("event_types")).toString(), QStringLiteral("order.created"));
        QVERIFY(size.value(QStringLiteral("sample_error")).toString().startsWith(QStringLiteral("message size ")));
        const QString id = size.value(QStringLiteral("id")).toString();

        const CliRun table = ctl({ QStringLiteral("failures"), QStringLiteral("--status=dead") });
        EXPECT_EXIT(table, 0);
        QCOMPARE(table.outLines().size(), 3); // header and two groups
        QVERIFY2(table.outLines().at(1).startsWith(id.toUtf8()), table.out.constData());

        const CliRun listed = ctl({ QStringLiteral("list"), QStringLiteral("outbox"), QStringLiteral("--signature"), id,
            QStringLiteral("--status=dead"), QStringLiteral("--format=json") });
        EXPECT_EXIT(listed, 0);
        QCOMPARE(listed.json().value(QStringLiteral("items")).toArray().size(), 5);

        QTemporaryDir dir;
        const QString idsFile = dir.filePath(QStringLiteral("ids.txt"));
        const CliRun dryRun = ctl({ QStringLiteral("requeue"), QStringLiteral("--signature"), id,
            QStringLiteral("--reason=frame size raised"), QStringLiteral("--dry-run"), QStringLiteral("--ids-file"),
            idsFile });
        EXPECT_EXIT(dryRun, 0);
        QCOMPARE(dryRun.outLines().at(0), QByteArray("dry run: would requeue 30 rows"));
        QCOMPARE(
            dryRun.outLines().at(1), QByteArray("ids: 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 and 10 more"));
        QFile written(idsFile);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll().count('\n'), 30);

        const CliRun requeued = ctl({ QStringLiteral("requeue"), QStringLiteral("--signature"), id,
            QStringLiteral("--reason=frame size raised") });
        EXPECT_EXIT(requeued, 0);
        // The action in the audit log, with who and why.
        const CliRun audit = ctl({ QStringLiteral("audit"), QStringLiteral("--action=requeue"),
            QStringLiteral("--since=1h"), QStringLiteral("--format=json") });
        EXPECT_EXIT(audit, 0);
        const QJsonArray entries = audit.json().value(QStringLiteral("entries")).toArray();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(
            entries.at(0).toObject().value(QStringLiteral("reason")).toString(), QStringLiteral("frame size raised"));
        QCOMPARE(entries.at(0).toObject().value(QStringLiteral("rows")).toInt(), 30);
        QVERIFY(entries.at(0).toObject().value(QStringLiteral("ids")).toString().startsWith(QStringLiteral("1,2,3,")));
        QVERIFY(audit.json().value(QStringLiteral("next_cursor")).isNull());
        const CliRun nobody = ctl({ QStringLiteral("audit"), QStringLiteral("--actor=nobody") });
        EXPECT_EXIT(nobody, 0);
        QCOMPARE(nobody.outLines().size(), 1); // the header only
        QCOMPARE(requeued.outLines().at(0),
            QByteArray("requeued 30, left alone 0 (not failed, dead or discarded when applied)"));
        QCOMPARE(
            db().scalar(QStringLiteral("SELECT count(*) FROM outbox WHERE status IN ('failed', 'dead')")).toInt(), 4);

        EXPECT_EXIT(
            ctl({ QStringLiteral("requeue"), QStringLiteral("--signature"), id, QStringLiteral("--reason=x") }), 2);
        const CliRun unknown
            = ctl({ QStringLiteral("list"), QStringLiteral("outbox"), QStringLiteral("--signature=0123456789ab") });
        EXPECT_EXIT(unknown, 2);
        QVERIFY2(isOneDiagnostic(unknown) && unknown.err.contains("no failure group has the id '0123456789ab'"),
            qPrintable(describe(unknown)));
        const CliRun keys = ctl({ QStringLiteral("list"), QStringLiteral("keys"), QStringLiteral("--event-type=x") });
        EXPECT_EXIT(keys, 2);
        QVERIFY2(keys.err.contains("--event-type applies to outbox rows only"), qPrintable(describe(keys)));
        const CliRun byError
            = ctl({ QStringLiteral("list"), QStringLiteral("outbox"), QStringLiteral("--error-contains=10.1.1.33"),
                QStringLiteral("--created-from=now-1h"), QStringLiteral("--format=json") });
        EXPECT_EXIT(byError, 0);
        QCOMPARE(byError.json().value(QStringLiteral("items")).toArray().size(), 1);
        const CliRun future = ctl({ QStringLiteral("list"), QStringLiteral("outbox"),
            QStringLiteral("--created-from=2999-01-01T00:00:00Z"), QStringLiteral("--format=json") });
        EXPECT_EXIT(future, 0);
        QCOMPARE(future.json().value(QStringLiteral("items")).toArray().size(), 0);
    }

    // For log collectors: every diagnostic line is one JSON object with a timestamp and a level.
    void logFormatJsonIsOneObjectPerLine()
    {
        enqueue(2);
        const CliRun run
            = ctl({ QStringLiteral("relay"), QStringLiteral("--once"), QStringLiteral("--log-format=json") });
        EXPECT_EXIT(run, 0);
        const QList<QByteArray> lines = run.err.trimmed().split('\n');
        QVERIFY2(!lines.isEmpty() && !lines.first().isEmpty(), run.err.constData());
        for (const QByteArray& line : lines) {
            QJsonParseError error;
            const QJsonObject entry = QJsonDocument::fromJson(line, &error).object();
            QVERIFY2(error.error == QJsonParseError::NoError, line.constData());
            QVERIFY(QDateTime::fromString(entry.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs).isValid());
            QVERIFY(QStringList({ QStringLiteral("info"), QStringLiteral("warning"), QStringLiteral("error") })
                        .contains(entry.value(QStringLiteral("level")).toString()));
            QCOMPARE(entry.value(QStringLiteral("program")).toString(), QStringLiteral("outboxctl"));
            QVERIFY(!entry.value(QStringLiteral("message")).toString().isEmpty());
        }
        QVERIFY2(run.err.contains("\"message\":\"relay ") && run.err.contains(" started on "), run.err.constData());
        const CliRun bad
            = ctl({ QStringLiteral("list"), QStringLiteral("nothing"), QStringLiteral("--log-format=json") });
        EXPECT_EXIT(bad, 2);
        QCOMPARE(QJsonDocument::fromJson(bad.err).object().value(QStringLiteral("level")).toString(),
            QStringLiteral("error"));
    }

    // The systemd unit's command line, with the example environment file's values, is one this binary accepts.
    void theSystemdUnitsCommandLineRuns()
    {
        QFile unit(QStringLiteral(OUTBOX_SOURCE_DIR "/resources/systemd/outbox-relay@.service"));
        QFile example(QStringLiteral(OUTBOX_SOURCE_DIR "/resources/systemd/outbox-relay.env.example"));
        QVERIFY(
            unit.open(QIODevice::ReadOnly | QIODevice::Text) && example.open(QIODevice::ReadOnly | QIODevice::Text));
        QHash<QString, QString> environment;
        for (const QByteArray& line : example.readAll().split('\n')) {
            const qsizetype equals = line.indexOf('=');
            if (!line.startsWith('#') && equals > 0)
                environment.insert(QString::fromUtf8(line.left(equals)), QString::fromUtf8(line.mid(equals + 1)));
        }
        // Where a test can publish and listen.
        environment.insert(QStringLiteral("RELAY_SINK"), QStringLiteral("null"));
        environment.insert(QStringLiteral("RELAY_METRICS_LISTEN"), QStringLiteral("0"));
        const QString text = QString::fromUtf8(unit.readAll()).replace(QStringLiteral("\\\n"), QStringLiteral(" "));
        const QRegularExpressionMatch exec
            = QRegularExpression(QStringLiteral("^ExecStart=(.*)$"), QRegularExpression::MultilineOption).match(text);
        QVERIFY(exec.hasMatch());
        QStringList arguments = exec.captured(1).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        QCOMPARE(arguments.takeFirst(), QStringLiteral("/usr/bin/outboxctl"));
        for (QString& argument : arguments) {
            argument.replace(QStringLiteral("%H"), QStringLiteral("host"))
                .replace(QStringLiteral("%i"), QStringLiteral("orders"));
            const QRegularExpressionMatch variable
                = QRegularExpression(QStringLiteral("^\\$\\{(\\w+)\\}$")).match(argument);
            if (variable.hasMatch()) {
                QVERIFY2(environment.contains(variable.captured(1)), qPrintable(variable.captured(1)));
                argument = environment.value(variable.captured(1));
            }
        }
        enqueue(3);
        const CliRun run = ctl(arguments + QStringList { QStringLiteral("--once") });
        EXPECT_EXIT(run, 0);
        QCOMPARE(run.out, QByteArray("claimed 3 published 3 failed 0 dead 0 fenced 0 rescued 0 handed back 0\n"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT name FROM relay_nodes")).toString(), QStringLiteral("host-orders"));
    }

private:
    CliRun ctl(const QStringList& arguments) const
    {
        return runCli(QStringList { QStringLiteral("--dsn"), db().dsn() } + arguments);
    }

    CliRun createOrder(const QString& key, const QString& customer, const QString& amount) const
    {
        return ctl({ QStringLiteral("create-order"), QStringLiteral("--key"), key, QStringLiteral("--customer"),
            customer, QStringLiteral("--amount"), amount });
    }

    void enqueue(int count)
    {
        auto session = db().openSession();
        OutboxRepository outbox(*session);
        for (int i = 1; i <= count; ++i) {
            outbox.enqueue(
                NewOutboxMessage { QStringLiteral("test"), QString::number(i), QStringLiteral("test.happened"),
                    QByteArrayLiteral("{\"n\":1}"), QByteArrayLiteral("{}"), QStringLiteral("test:%1").arg(i) });
        }
    }
};

QTEST_GUILESS_MAIN(TestOutboxctl)
#include "tst_outboxctl.moc"
