// SPDX-License-Identifier: GPL-3.0-or-later
#include "connect/connectdialog.h"
#include "connect/passwordkeychain.h"
#include "connect/recentconnections.h"
#include "mainwindow/mainwindow.h"
#include "support/databasetestcase.h"
#include "support/guitesting.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <functional>
#include <optional>

// Passwords in the keychain, against a real Secret Service: .ci/test runs the tests in a private D-Bus session with
// gnome-keyring-daemon (tests/support/with-keychain), and this executable twice: once with it
// (OUTBOX_TEST_KEYCHAIN=present) and once with the session bus pointing nowhere (absent). secret-tool, libsecret's
// own client, checks what the keychain holds independently of QtKeychain.
class TestKeychain final : public DatabaseTestCase {
    Q_OBJECT

    static constexpr char Service[] = "outbox-console-test-keychain";

    static bool keychainExpected()
    {
        const QString expected = qEnvironmentVariable("OUTBOX_TEST_KEYCHAIN");
        if (expected != QLatin1String("present") && expected != QLatin1String("absent"))
            qFatal("OUTBOX_TEST_KEYCHAIN must say present or absent");
        return expected == QLatin1String("present");
    }

    // What the Secret Service holds for `identity`, through secret-tool (QtKeychain's attributes: server, user).
    static std::optional<QString> lookUp(const QString& identity)
    {
        QProcess tool;
        tool.start(QStringLiteral("secret-tool"),
            { QStringLiteral("lookup"), QStringLiteral("server"), QLatin1String(Service), QStringLiteral("user"),
                identity });
        if (!tool.waitForFinished(10'000))
            qFatal("secret-tool did not finish");
        if (tool.exitCode() != 0)
            return std::nullopt;
        return QString::fromUtf8(tool.readAllStandardOutput());
    }

    // Runs `action`, which either connects `window` or opens a modal ConnectDialog; returns the dialog's error line
    // once it is shown, and closes it. Nothing: no dialog came up.
    static std::optional<QString> errorOfTheDialogOpenedBy(
        const std::function<void()>& action, bool* connected, MainWindow& window)
    {
        QString error;
        bool shown = false;
        QTimer poll;
        QObject::connect(&poll, &QTimer::timeout, [&] {
            if (auto* dialog = qobject_cast<ConnectDialog*>(QApplication::activeModalWidget())) {
                shown = true;
                error = dialog->findChild<QLabel*>(QStringLiteral("error"))->text();
                dialog->reject();
            }
        });
        poll.start(50);
        QSignalSpy connectedSpy(&window, &MainWindow::connected);
        action();
        if (!QTest::qWaitFor([&] { return shown || !connectedSpy.isEmpty(); }, 20'000))
            qWarning("neither connected nor asked within 20 s");
        *connected = !connectedSpy.isEmpty();
        return shown ? std::optional<QString>(error) : std::nullopt;
    }

    QString identity() const { return PasswordKeychain::identity(m_operatorConninfo); }

public:
    TestKeychain()
        : DatabaseTestCase(QStringLiteral("keychain"))
    { }

private slots:
    void initTestCase()
    {
        GuiTesting::useOwnSettings(QStringLiteral("tst_keychain"));
        setUpDatabase();
        // A role with a password of its own: libpq's PGPASSWORD (the superuser's) cannot log it in, so a connection
        // that works got its password from the keychain.
        // Roles are the cluster's, not the database's: the name is this process's, as tst_keychain_absent runs
        // beside it.
        m_role = QStringLiteral("keychain_operator_%1").arg(QCoreApplication::applicationPid());
        db().createLoginRole(m_role, QStringLiteral("outbox_operator"));
        m_password = QStringLiteral("pw_%1").arg(QCoreApplication::applicationPid());
        m_operatorConninfo = QStringLiteral("%1 user=%2").arg(db().dsn(), m_role);
    }

    void init()
    {
        QSettings().clear();
        PasswordKeychain keychain { QString::fromLatin1(Service) };
        QSignalSpy done(&keychain, &PasswordKeychain::forgotten);
        QSignalSpy failed(&keychain, &PasswordKeychain::failed);
        keychain.forget(identity());
        QVERIFY(QTest::qWaitFor([&] { return !done.isEmpty() || !failed.isEmpty(); }, 10'000));
    }

    void probeTellsWhetherAKeychainAnswers()
    {
        PasswordKeychain keychain { QString::fromLatin1(Service) };
        QSignalSpy known(&keychain, &PasswordKeychain::availabilityKnown);
        keychain.probe();
        QVERIFY(known.wait(10'000));
        QCOMPARE(known.constFirst().at(0).toBool(), keychainExpected());
        // Without one, the reason is there to show.
        QCOMPARE(known.constFirst().at(1).toString().isEmpty(), keychainExpected());
    }

    void storeLoadForget()
    {
        PasswordKeychain keychain { QString::fromLatin1(Service) };
        QSignalSpy stored(&keychain, &PasswordKeychain::stored);
        QSignalSpy failed(&keychain, &PasswordKeychain::failed);
        keychain.store(identity(), m_password);
        QVERIFY(QTest::qWaitFor([&] { return !stored.isEmpty() || !failed.isEmpty(); }, 10'000));
        if (!keychainExpected()) {
            QCOMPARE(failed.size(), 1);
            QCOMPARE(failed.constFirst().at(0).toString(), identity());
            return;
        }
        QCOMPARE(stored.size(), 1);
        QCOMPARE(lookUp(identity()), std::optional<QString>(m_password));

        QSignalSpy loaded(&keychain, &PasswordKeychain::loaded);
        keychain.load(identity());
        QVERIFY(loaded.wait(10'000));
        QCOMPARE(loaded.constFirst().at(1).toString(), m_password);

        QSignalSpy forgotten(&keychain, &PasswordKeychain::forgotten);
        keychain.forget(identity());
        QVERIFY(forgotten.wait(10'000));
        QCOMPARE(lookUp(identity()), std::nullopt);
        QSignalSpy notStored(&keychain, &PasswordKeychain::notStored);
        keychain.load(identity());
        QVERIFY(notStored.wait(10'000));
    }

    // The connect dialog: a recent connection fills in its stored password; Forget removes it from the keychain.
    // Without a keychain, Remember is disabled and says why.
    void connectDialogUsesTheKeychain()
    {
        QSettings settings;
        RecentConnections(settings).remember(m_operatorConninfo);
        PasswordKeychain keychain { QString::fromLatin1(Service) };
        if (keychainExpected()) {
            QSignalSpy stored(&keychain, &PasswordKeychain::stored);
            keychain.store(identity(), m_password);
            QVERIFY(stored.wait(10'000));
        }
        QSignalSpy known(&keychain, &PasswordKeychain::availabilityKnown);
        ConnectDialog dialog(RecentConnections(settings), keychain);
        QVERIFY(known.wait(10'000));
        auto* remember = dialog.findChild<QCheckBox*>(QStringLiteral("rememberPassword"));
        auto* forget = dialog.findChild<QPushButton*>(QStringLiteral("forgetPassword"));
        auto* password = dialog.findChild<QLineEdit*>(QStringLiteral("password"));
        auto* recent = dialog.findChild<QComboBox*>(QStringLiteral("recent"));
        if (!keychainExpected()) {
            QVERIFY(!remember->isEnabled());
            QVERIFY(!remember->isChecked());
            QVERIFY2(remember->toolTip().startsWith(QStringLiteral("No keychain is available")),
                qPrintable(remember->toolTip()));
            QCOMPARE(remember->toolTip(),
                QStringLiteral("No keychain is available, so the password cannot be remembered: %1")
                    .arg(known.constFirst().at(1).toString()));
            QVERIFY(!forget->isEnabled());
            QVERIFY(!dialog.rememberPassword());
            return;
        }
        QVERIFY(remember->isEnabled());
        QVERIFY(!forget->isEnabled());
        recent->setCurrentIndex(0);
        emit recent->activated(0);
        QTRY_COMPARE_WITH_TIMEOUT(password->text(), m_password, 10'000);
        QVERIFY(remember->isChecked());
        QVERIFY(forget->isEnabled());
        QVERIFY(dialog.rememberPassword());

        forget->click();
        QTRY_VERIFY_WITH_TIMEOUT(!forget->isEnabled(), 10'000);
        QVERIFY(password->text().isEmpty());
        QVERIFY(!remember->isChecked());
        QCOMPARE(lookUp(identity()), std::nullopt);
    }

    // At start, the most recent connection with its password in the keychain connects without a dialog; with a
    // wrong one stored the dialog opens with the server's refusal; with none it opens at once.
    void startReconnectsWithTheStoredPassword_data()
    {
        QTest::addColumn<QString>("stored"); // empty: nothing stored
        QTest::addColumn<bool>("connects");
        QTest::addColumn<QString>("error"); // what the dialog says, when it opens (empty: nothing)
        if (!keychainExpected()) {
            // The start-up read of the stored password fails, and the dialog says why.
            QTest::newRow("no keychain") << QString() << false << QStringLiteral("Keychain: ");
            return;
        }
        QTest::newRow("right password") << QStringLiteral("right") << true << QString();
        QTest::newRow("wrong password") << QStringLiteral("wrong") << false
                                        << QStringLiteral("password authentication failed");
        QTest::newRow("nothing stored") << QString() << false << QString();
    }

    void startReconnectsWithTheStoredPassword()
    {
        QFETCH(QString, stored);
        QFETCH(bool, connects);
        QFETCH(QString, error);
        {
            QSettings settings;
            RecentConnections(settings).remember(m_operatorConninfo);
        }
        MainWindow window;
        if (!stored.isEmpty()) {
            QSignalSpy done(&window.keychain(), &PasswordKeychain::stored);
            window.keychain().store(
                identity(), stored == QLatin1String("right") ? m_password : QStringLiteral("not-the-password"));
            QVERIFY(done.wait(10'000));
        } else if (keychainExpected()) { // what an earlier row stored
            QSignalSpy done(&window.keychain(), &PasswordKeychain::forgotten);
            window.keychain().forget(identity());
            QVERIFY(done.wait(10'000));
        }
        bool connected = false;
        const std::optional<QString> dialogError
            = errorOfTheDialogOpenedBy([&window] { window.reconnectOrAsk(); }, &connected, window);
        QVERIFY2(connected == connects, qPrintable(dialogError.value_or(QStringLiteral("(no dialog)"))));
        if (connects) {
            QVERIFY(!dialogError);
            QCOMPARE(window.session().user, m_role);
            QVERIFY(window.forgetPasswordAction()->isEnabled());
            // The settings file never sees it.
            QFile file(QSettings().fileName());
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY(!file.readAll().contains(m_password.toUtf8()));
            return;
        }
        QVERIFY2(dialogError, "the connect dialog did not open");
        if (error.isEmpty())
            QCOMPARE(*dialogError, QString());
        else
            QVERIFY2(dialogError->contains(error), qPrintable(*dialogError));
    }

    // A recent entry edited by hand into something libpq rejects: the dialog opens and says what is wrong.
    void startWithABrokenRecentEntryAsks()
    {
        QSettings().setValue(QStringLiteral("connections/recent"), QStringList { QStringLiteral("hots=db.internal") });
        MainWindow window;
        bool connected = false;
        const std::optional<QString> dialogError
            = errorOfTheDialogOpenedBy([&window] { window.reconnectOrAsk(); }, &connected, window);
        QVERIFY(!connected);
        QVERIFY2(dialogError, "the connect dialog did not open");
        QVERIFY2(dialogError->contains(QStringLiteral("invalid connection option \"hots\"")), qPrintable(*dialogError));
    }

private:
    QString m_role;
    QString m_password;
    QString m_operatorConninfo;
};

QTEST_MAIN(TestKeychain)
#include "tst_keychain.moc"
