// SPDX-License-Identifier: GPL-3.0-or-later
#include "connect/connectdialog.h"
#include "connect/passwordkeychain.h"
#include "connect/recentconnections.h"
#include "db/outboxerror.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

// The dialog only validates and parses with libpq, so no database is needed.
class TestConnectDialog final : public QObject {
    Q_OBJECT

    static constexpr char Secret[] = "Hunter2-do-not-store";

    struct Fields {
        QLineEdit* host;
        QLineEdit* port;
        QLineEdit* database;
        QLineEdit* user;
        QLineEdit* password;
        QComboBox* sslMode;
        QLineEdit* dsn;
        QComboBox* recent;
        QLabel* error;
    };

    static Fields fieldsOf(const ConnectDialog& dialog)
    {
        return { dialog.findChild<QLineEdit*>(QStringLiteral("host")),
            dialog.findChild<QLineEdit*>(QStringLiteral("port")),
            dialog.findChild<QLineEdit*>(QStringLiteral("database")),
            dialog.findChild<QLineEdit*>(QStringLiteral("user")),
            dialog.findChild<QLineEdit*>(QStringLiteral("password")),
            dialog.findChild<QComboBox*>(QStringLiteral("sslMode")),
            dialog.findChild<QLineEdit*>(QStringLiteral("dsn")), dialog.findChild<QComboBox*>(QStringLiteral("recent")),
            dialog.findChild<QLabel*>(QStringLiteral("error")) };
    }

    // What a row types into the dialog. Every member has an initialiser, so that rows name only the fields
    // they fill without -Wmissing-field-initializers.
    struct Input {
        QString host {};
        QString port {};
        QString database {};
        QString user {};
        QString password {};
        QString sslMode = QStringLiteral("prefer");
        QString dsn {};
    };

    static void addInputRow(const char* name, const Input& input, const QString& conninfo, const QString& error = {})
    {
        QTest::newRow(name) << input.host << input.port << input.database << input.user << input.password
                            << input.sslMode << input.dsn << conninfo << error;
    }

    static void selectSslMode(QComboBox* combo, const QString& mode)
    {
        const int index = combo->findData(mode);
        QVERIFY(index >= 0);
        combo->setCurrentIndex(index);
    }

    // The dialog asks it whether a keychain answers; tst_keychain tests what it does with one.
    PasswordKeychain m_keychain { QStringLiteral("outbox-console-test-connectdialog") };

    // A fresh settings file per test, like the console's own but somewhere we can read it.
    QString settingsPath() const { return m_dir->filePath(QStringLiteral("console.ini")); }

private slots:
    void initTestCase()
    {
        // Placeholders and display names reflect the libpq environment: make it known.
        for (const char* variable : { "PGHOST", "PGHOSTADDR", "PGPORT", "PGUSER", "PGDATABASE", "PGPASSWORD",
                 "PGPASSFILE", "PGSERVICE", "PGSSLMODE" })
            qunsetenv(variable);
        qputenv("PGUSER", "envuser");
        qputenv("PGPORT", "6543");
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void fieldsBecomeSettings_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("port");
        QTest::addColumn<QString>("database");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");
        QTest::addColumn<QString>("sslMode");
        QTest::addColumn<QString>("dsn");
        QTest::addColumn<QString>("conninfo"); // expected
        QTest::addColumn<QString>("error"); // expected start of the message; empty when valid

        addInputRow("every field",
            { .host = "db.internal",
                .port = "5433",
                .database = "orders",
                .user = "alice",
                .password = R"(it's \ secret)",
                .sslMode = "verify-full" },
            R"(host='db.internal' port='5433' dbname='orders' user='alice' password='it\'s \\ secret' )"
            R"(sslmode='verify-full')");
        addInputRow("empty means the environment", {}, "");
        addInputRow("default ssl mode is left to libpq", { .host = "db.internal" }, "host='db.internal'");
        addInputRow("surrounding blanks trimmed",
            { .host = " db.internal ", .port = " 5433", .database = "orders ", .password = " pw " },
            "host='db.internal' port='5433' dbname='orders' password=' pw '");
        addInputRow("multi-host ports", { .host = "a.internal,b.internal", .port = "5432,5433" },
            "host='a.internal,b.internal' port='5432,5433'");
        addInputRow("URI with sslmode", { .dsn = "postgresql://alice@db.internal:5433/orders?sslmode=require" },
            "postgresql://alice@db.internal:5433/orders?sslmode=require");
        addInputRow("DSN wins over fields",
            { .host = "ignored.internal",
                .port = "nonsense",
                .sslMode = "require",
                .dsn = "host=db.internal dbname=orders" },
            "host=db.internal dbname=orders");
        addInputRow("malformed DSN", { .dsn = "host=db.internal dbname" }, "host=db.internal dbname",
            "invalid DSN: missing \"=\"");
        addInputRow("malformed URI", { .dsn = "postgresql://db.internal/orders?ssl" },
            "postgresql://db.internal/orders?ssl", "invalid DSN: ");
        addInputRow("unknown keyword", { .dsn = "hots=db.internal" }, "hots=db.internal",
            "invalid DSN: invalid connection option \"hots\"");
        addInputRow("non-numeric port", { .host = "db.internal", .port = "54x2" }, "host='db.internal' port='54x2'",
            "invalid port \"54x2\"");
        addInputRow("port out of range", { .host = "db.internal", .port = "65536" }, "host='db.internal' port='65536'",
            "invalid port \"65536\"");
        addInputRow("semicolon the driver cannot pass", { .host = "db;internal" }, "host='db;internal'",
            "invalid DSN: the value");
    }

    void fieldsBecomeSettings()
    {
        QFETCH(QString, host);
        QFETCH(QString, port);
        QFETCH(QString, database);
        QFETCH(QString, user);
        QFETCH(QString, password);
        QFETCH(QString, sslMode);
        QFETCH(QString, dsn);
        QFETCH(QString, conninfo);
        QFETCH(QString, error);

        QSettings settings(settingsPath(), QSettings::IniFormat);
        ConnectDialog dialog { RecentConnections(settings), m_keychain };
        const Fields fields = fieldsOf(dialog);
        fields.host->setText(host);
        fields.port->setText(port);
        fields.database->setText(database);
        fields.user->setText(user);
        fields.password->setText(password);
        selectSslMode(fields.sslMode, sslMode);
        fields.dsn->setText(dsn);
        QCOMPARE(dialog.conninfo(), conninfo);

        QString thrown;
        try {
            dialog.settings();
        } catch (const OutboxError& e) {
            QCOMPARE(e.kind(), OutboxError::Kind::InvalidInput);
            thrown = e.message();
        }
        QVERIFY2(error.isEmpty() ? thrown.isEmpty() : thrown.startsWith(error), qPrintable(thrown));

        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QTest::keyClick(fields.dsn->isEnabled() ? fields.dsn : fields.host, Qt::Key_Return);
        if (error.isEmpty()) {
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
            QVERIFY(!dialog.isVisible());
            QVERIFY(fields.error->isHidden());
        } else {
            QCOMPARE(dialog.result(), int(QDialog::Rejected));
            QVERIFY(dialog.isVisible());
            QVERIFY(fields.error->isVisible());
            QCOMPARE(fields.error->text(), thrown);
        }
    }

    void escapeCancels()
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        ConnectDialog dialog { RecentConnections(settings), m_keychain };
        fieldsOf(dialog).host->setText(QStringLiteral("db.internal"));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QTest::keyClick(fieldsOf(dialog).host, Qt::Key_Escape);
        QVERIFY(!dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
    }

    void connectFailureShownAgain()
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        ConnectDialog dialog { RecentConnections(settings), m_keychain };
        const QString message = QStringLiteral("cannot connect to PostgreSQL: connection refused");
        dialog.setError(message);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(fieldsOf(dialog).error->isVisible());
        QCOMPARE(fieldsOf(dialog).error->text(), message);
        dialog.setError({});
        QVERIFY(fieldsOf(dialog).error->isHidden());
    }

    void tabOrderFollowsTheForm()
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        RecentConnections recent(settings);
        recent.remember(QStringLiteral("host=db.internal"));
        QSignalSpy keychainKnown(&m_keychain, &PasswordKeychain::availabilityKnown);
        ConnectDialog dialog { recent, m_keychain };
        // Remember takes its place in the order once a keychain has answered (tst_keychain runs without one, too).
        QVERIFY(keychainKnown.wait(10'000));
        QStringList expected { "host", "port", "database", "user", "password", "sslMode", "dsn" };
        if (dialog.keychainAvailable())
            expected.append(QStringLiteral("rememberPassword")); // Forget is disabled: nothing is stored
        dialog.show();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        QCOMPARE(QApplication::focusWidget(), fieldsOf(dialog).recent); // first, to pick a connection at once
        QStringList order;
        for (int i = 0; i < expected.size() + 1; ++i) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            QWidget* focus = QApplication::focusWidget();
            const auto* button = qobject_cast<QPushButton*>(focus);
            order.append(button ? button->text() : focus->objectName());
        }
        QCOMPARE(order.mid(0, expected.size()), expected);
        QVERIFY(order.mid(expected.size()).contains(QStringLiteral("&Connect"))
            || order.mid(expected.size()).contains(QStringLiteral("Cancel")));

        // With a DSN, tabbing skips the fields it replaces.
        fieldsOf(dialog).dsn->setText(QStringLiteral("service=orders"));
        fieldsOf(dialog).recent->setFocus();
        QTest::keyClick(fieldsOf(dialog).recent, Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), fieldsOf(dialog).dsn);
    }

    void dsnDisablesFields()
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        ConnectDialog dialog { RecentConnections(settings), m_keychain };
        const Fields fields = fieldsOf(dialog);
        QVERIFY(fields.host->isEnabled());
        QCOMPARE(fields.password->echoMode(), QLineEdit::Password);
        fields.dsn->setText(QStringLiteral("postgresql://db.internal/orders"));
        for (QWidget* field : std::initializer_list<QWidget*> {
                 fields.host, fields.port, fields.database, fields.user, fields.password, fields.sslMode })
            QVERIFY(!field->isEnabled());
        fields.dsn->setText(QStringLiteral("  "));
        QVERIFY(fields.host->isEnabled());
        QVERIFY(fields.sslMode->isEnabled());
    }

    void placeholdersNameTheEnvironment()
    {
        qputenv("PGHOST", "db.from-env");
        qputenv("PGPASSWORD", Secret);
        qputenv("PGSSLMODE", "require");
        QSettings settings(settingsPath(), QSettings::IniFormat);
        ConnectDialog dialog { RecentConnections(settings), m_keychain };
        qunsetenv("PGHOST");
        qunsetenv("PGPASSWORD");
        qunsetenv("PGSSLMODE");
        const Fields fields = fieldsOf(dialog);
        QCOMPARE(fields.host->placeholderText(), QStringLiteral("db.from-env (from PGHOST)"));
        QCOMPARE(fields.port->placeholderText(), QStringLiteral("6543 (from PGPORT)"));
        QVERIFY(fields.database->placeholderText().contains(QStringLiteral("PGDATABASE unset")));
        QCOMPARE(fields.password->placeholderText(), QStringLiteral("from PGPASSWORD"));
        QCOMPARE(fields.sslMode->currentData().toString(), QStringLiteral("require"));
        QCOMPARE(fields.sslMode->currentText(), QStringLiteral("require (from PGSSLMODE)"));
        QCOMPARE(dialog.conninfo(), QString()); // the environment's ssl mode is not overridden
        selectSslMode(fields.sslMode, QStringLiteral("prefer"));
        QCOMPARE(dialog.conninfo(), QStringLiteral("sslmode='prefer'"));

        ConnectDialog plain { RecentConnections(settings), m_keychain };
        QCOMPARE(fieldsOf(plain).host->placeholderText(), QStringLiteral("local socket (PGHOST unset)"));
        QCOMPARE(fieldsOf(plain).sslMode->currentText(), QStringLiteral("prefer (default)"));
    }

    void displayName_data()
    {
        QTest::addColumn<QString>("dsn");
        QTest::addColumn<QString>("expected");
        QTest::newRow("explicit") << "host=db.internal port=5433 dbname=orders user=alice password=x"
                                  << "alice@db.internal:5433/orders";
        QTest::newRow("URI with password") << "postgresql://alice:x@db.internal/orders"
                                           << "alice@db.internal:6543/orders";
        QTest::newRow("environment fills in") << ""
                                              << "envuser@[local]:6543/envuser";
        QTest::newRow("hostaddr") << "hostaddr=192.0.2.7 dbname=orders"
                                  << "envuser@192.0.2.7:6543/orders";
        QTest::newRow("named service") << "service=orders user=bob"
                                       << "bob@[service orders]";
        QTest::newRow("invalid") << "host"
                                 << "";
    }

    void displayName()
    {
        QFETCH(QString, dsn);
        QFETCH(QString, expected);
        QSettings settings(settingsPath(), QSettings::IniFormat);
        ConnectDialog dialog { RecentConnections(settings), m_keychain };
        fieldsOf(dialog).dsn->setText(dsn);
        QCOMPARE(dialog.displayName(), expected);
    }

    void passwordNeverStored_data()
    {
        QTest::addColumn<QString>("password"); // typed into the field
        QTest::addColumn<QString>("dsn");
        const QString secret = QLatin1String(Secret);
        QTest::newRow("password field") << secret << "";
        QTest::newRow("URI") << "" << QStringLiteral("postgresql://alice:%1@db.internal/orders").arg(secret);
        QTest::newRow("URI query") << "" << QStringLiteral("postgresql://db.internal/orders?password=%1").arg(secret);
        QTest::newRow("key=value")
            << "" << QStringLiteral("host=db.internal password='%1' sslpassword=%1 sslmode=require").arg(secret);
    }

    void passwordNeverStored()
    {
        QFETCH(QString, password);
        QFETCH(QString, dsn);
        {
            QSettings settings(settingsPath(), QSettings::IniFormat);
            RecentConnections recent(settings);
            ConnectDialog dialog { recent, m_keychain };
            const Fields fields = fieldsOf(dialog);
            fields.host->setText(QStringLiteral("db.internal"));
            fields.user->setText(QStringLiteral("alice"));
            fields.password->setText(password);
            fields.dsn->setText(dsn);
            dialog.accept();
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
            QVERIFY(dialog.conninfo().contains(QLatin1String(Secret)));
            recent.remember(dialog.conninfo());
            QCOMPARE(recent.entries().size(), 1);
            QVERIFY(!recent.entries().first().contains(QLatin1String(Secret)));
            QVERIFY(recent.entries().first().contains(QLatin1String("host='db.internal'")));
            QVERIFY(!dialog.displayName().contains(QLatin1String(Secret)));
            settings.sync();
            QCOMPARE(settings.status(), QSettings::NoError);
        }
        QFile file(settingsPath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(bytes.contains("db.internal"));
        QVERIFY2(!bytes.contains(Secret), bytes.constData());
        QVERIFY(!bytes.contains("password"));
    }

    void recentOrderDedupeAndLimit()
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        RecentConnections recent(settings);
        QVERIFY(recent.entries().isEmpty());
        for (int i = 1; i <= 12; ++i)
            recent.remember(QStringLiteral("host=h%1 dbname=orders").arg(i));
        QCOMPARE(recent.entries().size(), RecentConnections::MaxEntries);
        QCOMPARE(recent.entries().first(), QStringLiteral("dbname='orders' host='h12'"));
        QCOMPARE(recent.entries().last(), QStringLiteral("dbname='orders' host='h3'"));

        // The same connection written differently, and with a password, is one entry, moved to the front.
        recent.remember(QStringLiteral("postgresql://h5/orders?password=pw"));
        QStringList entries = recent.entries();
        QCOMPARE(entries.size(), RecentConnections::MaxEntries);
        QCOMPARE(entries.first(), QStringLiteral("dbname='orders' host='h5'"));
        QCOMPARE(entries.count(QStringLiteral("dbname='orders' host='h5'")), 1);
        QCOMPARE(entries.at(1), QStringLiteral("dbname='orders' host='h12'"));

        // "Everything from the environment" is a connection too.
        recent.remember(QString());
        QCOMPARE(recent.entries().first(), QString());

        // A second RecentConnections on the same file sees the same list: nothing lives only in memory.
        settings.sync();
        QSettings reread(settingsPath(), QSettings::IniFormat);
        QCOMPARE(RecentConnections(reread).entries(), recent.entries());

        QVERIFY_THROWS_EXCEPTION(OutboxError, recent.remember(QStringLiteral("host=h1 dbname")));
        QCOMPARE(RecentConnections(reread).entries(), recent.entries());
    }

    void choosingRecentFillsFields()
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        RecentConnections recent(settings);
        recent.remember(QStringLiteral("postgresql://alice:pw@db.internal:5433/orders?sslmode=require"));
        recent.remember(QStringLiteral("service=orders connect_timeout=5"));
        ConnectDialog dialog { recent, m_keychain };
        const Fields fields = fieldsOf(dialog);
        QCOMPARE(fields.recent->count(), 2);
        QCOMPARE(fields.recent->currentIndex(), -1); // nothing filled in until the operator chooses
        QCOMPARE(fields.recent->itemText(0), QStringLiteral("[service orders]"));
        QCOMPARE(fields.recent->itemText(1), QStringLiteral("alice@db.internal:5433/orders"));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));

        // What the fields cannot hold goes to the DSN field.
        fields.password->setText(QStringLiteral("typed for another server"));
        QTest::keyClick(fields.recent, Qt::Key_Down);
        QCOMPARE(fields.recent->currentIndex(), 0);
        QCOMPARE(fields.dsn->text(), QStringLiteral("service='orders' connect_timeout='5'"));
        QVERIFY(!fields.host->isEnabled());
        QVERIFY(fields.password->text().isEmpty());

        QTest::keyClick(fields.recent, Qt::Key_Down);
        QCOMPARE(fields.recent->currentIndex(), 1);
        QVERIFY(fields.dsn->text().isEmpty());
        QVERIFY(fields.host->isEnabled());
        QCOMPARE(fields.host->text(), QStringLiteral("db.internal"));
        QCOMPARE(fields.port->text(), QStringLiteral("5433"));
        QCOMPARE(fields.database->text(), QStringLiteral("orders"));
        QCOMPARE(fields.user->text(), QStringLiteral("alice"));
        QVERIFY(fields.password->text().isEmpty());
        QCOMPARE(fields.sslMode->currentData().toString(), QStringLiteral("require"));
        QCOMPARE(dialog.displayName(), QStringLiteral("alice@db.internal:5433/orders"));
        QCOMPARE(dialog.conninfo(),
            QStringLiteral("host='db.internal' port='5433' dbname='orders' user='alice' sslmode='require'"));

        // Enter on the combo connects with what it filled in.
        QTest::keyClick(fields.recent, Qt::Key_Return);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }

    // Renders the dialog as an operator would see it after a failed attempt, for a look at the layout.
    void rendersOffscreen()
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        RecentConnections recent(settings);
        recent.remember(QStringLiteral("postgresql://alice@db.internal:5433/orders?sslmode=require"));
        ConnectDialog dialog { recent, m_keychain };
        const Fields fields = fieldsOf(dialog);
        fields.host->setText(QStringLiteral("db.internal"));
        fields.user->setText(QStringLiteral("alice"));
        fields.password->setText(QStringLiteral("secret"));
        dialog.setError(QStringLiteral("cannot connect to PostgreSQL: connection to server at \"db.internal\" "
                                       "(192.0.2.7), port 5432 failed: Connection refused"));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));

        const QImage image = dialog.grab().toImage();
        QVERIFY(!image.isNull());
        const QString path = QDir::current().filePath(QStringLiteral("connectdialog.png"));
        QVERIFY(image.save(path));
        const QRgb background = image.pixel(0, 0);
        qsizetype differing = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x)
                differing += image.pixel(x, y) != background;
        }
        QVERIFY2(differing > image.width() * image.height() / 50, qPrintable(QString::number(differing)));
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

QTEST_MAIN(TestConnectDialog)
#include "tst_connectdialog.moc"
