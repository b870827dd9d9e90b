// SPDX-License-Identifier: GPL-3.0-or-later
#include "connect/connectdialog.h"
#include "connect/passwordkeychain.h"
#include "connect/recentconnections.h"
#include "core/timeformatter.h"
#include "i18n/consolelanguage.h"
#include "keys/keysview.h"
#include "mainwindow/mainwindow.h"
#include "support/guitesting.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFontDatabase>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

namespace {

const QString TranslationsDir = QStringLiteral(OUTBOX_SOURCE_DIR "/resources/translations");

struct Message {
    QString context;
    QString source;
    QStringList translations; // one per numerus form
    QString type; // unfinished, obsolete, vanished; empty when finished
    bool numerus = false;
};

QList<Message> readTs(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    QList<Message> messages;
    QString context;
    Message message;
    bool inTranslation = false;
    bool numerusForms = false;
    QString text;
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            if (xml.name() == QLatin1String("name")) {
                context = xml.readElementText();
            } else if (xml.name() == QLatin1String("message")) {
                message
                    = { context, {}, {}, {}, xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes") };
            } else if (xml.name() == QLatin1String("source")) {
                message.source = xml.readElementText();
            } else if (xml.name() == QLatin1String("translation")) {
                message.type = xml.attributes().value(QLatin1String("type")).toString();
                inTranslation = true;
                numerusForms = false;
                text.clear();
            } else if (xml.name() == QLatin1String("numerusform")) {
                numerusForms = true;
                message.translations.append(xml.readElementText());
            }
        } else if (xml.isCharacters() && inTranslation && !numerusForms) {
            text += xml.text();
        } else if (xml.isEndElement() && xml.name() == QLatin1String("translation")) {
            if (!numerusForms)
                message.translations.append(text);
            inTranslation = false;
        } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
            messages.append(message);
        }
    }
    if (xml.hasError())
        qFatal("%s: %s", qPrintable(path), qPrintable(xml.errorString()));
    return messages;
}

QStringList placeholders(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral("%L?[1-9n]"));
    QStringList found;
    for (const QRegularExpressionMatch& match : pattern.globalMatch(text))
        found.append(match.captured());
    found.sort();
    found.removeDuplicates();
    return found;
}

// The mnemonic letters: "&File" has one; "&&" is a literal ampersand.
int accelerators(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral("&(?!&)[^\\s;]"));
    QString plain = text;
    plain.remove(QStringLiteral("&&"));
    int count = 0;
    for (QRegularExpressionMatchIterator it = pattern.globalMatch(plain); it.hasNext(); it.next())
        ++count;
    return count;
}

// Words a Korean operator reads as they are: names of products, formats and protocols, the SQL API's own words for
// statuses and roles, libpq's variables, and the language menu's names.
const QStringList KeptAsWritten = { QStringLiteral("PostgreSQL"), QStringLiteral("RabbitMQ"), QStringLiteral("CSV"),
    QStringLiteral("JSON"), QStringLiteral("UTC"), QStringLiteral("DSN"), QStringLiteral("URI"), QStringLiteral("SSL"),
    QStringLiteral("SQL"), QStringLiteral("libpq"), QStringLiteral("English"), QStringLiteral("pending"),
    QStringLiteral("in_flight"), QStringLiteral("published"), QStringLiteral("failed"), QStringLiteral("dead"),
    QStringLiteral("waiting"), QStringLiteral("discarded"), QStringLiteral("paused"), QStringLiteral("in_progress"),
    QStringLiteral("completed"), QStringLiteral("prefer"), QStringLiteral("disable"), QStringLiteral("allow"),
    QStringLiteral("require"), QStringLiteral("verify"), QStringLiteral("full"), QStringLiteral("postgresql"),
    QStringLiteral("host"), QStringLiteral("dbname"), QStringLiteral("user"), QStringLiteral("db"),
    QStringLiteral("GPL"), QStringLiteral("later"), QStringLiteral("KiB"), QStringLiteral("MiB") };

// A text with English words outside KeptAsWritten and not one Hangul syllable: left untranslated in Korean mode.
bool englishOnly(const QString& text)
{
    static const QRegularExpression hangul(QStringLiteral("[\\x{AC00}-\\x{D7A3}]"));
    static const QRegularExpression markup(QStringLiteral("<[^>]*>|&\\w+;"));
    static const QRegularExpression word(QStringLiteral("[A-Za-z][A-Za-z_']{2,}"));
    if (hangul.match(text).hasMatch())
        return false;
    QString plain = text;
    plain.remove(markup).remove(QLatin1Char('&'));
    for (const QRegularExpressionMatch& match : word.globalMatch(plain)) {
        const QString found = match.captured();
        // Environment variables (PGHOST) and identifiers (outbox_operator) are names, not words.
        const bool name = found.toUpper() == found || found.contains(QLatin1Char('_'));
        if (!name && !KeptAsWritten.contains(found))
            return true;
    }
    return false;
}

// Every text `root` shows or explains: labels, buttons, tabs, menus, placeholders, combo items, column headers,
// chart titles and tool tips, each with where it was found.
QList<QPair<QString, QString>> visibleTexts(QWidget* root)
{
    QList<QPair<QString, QString>> texts;
    const auto add = [&texts](const QObject* where, const QString& what, const QString& text) {
        if (!text.trimmed().isEmpty())
            texts.append(
                { QStringLiteral("%1 %2 (%3)").arg(where->metaObject()->className(), where->objectName(), what),
                    text });
    };
    QList<QWidget*> widgets = root->findChildren<QWidget*>();
    widgets.prepend(root);
    for (QWidget* widget : widgets) {
        add(widget, QStringLiteral("tool tip"), widget->toolTip());
        if (widget->isWindow())
            add(widget, QStringLiteral("title"), widget->windowTitle());
        if (auto* label = qobject_cast<QLabel*>(widget))
            add(label, QStringLiteral("text"), label->text());
        if (auto* button = qobject_cast<QAbstractButton*>(widget))
            add(button, QStringLiteral("text"), button->text());
        if (auto* box = qobject_cast<QGroupBox*>(widget))
            add(box, QStringLiteral("title"), box->title());
        if (auto* line = qobject_cast<QLineEdit*>(widget))
            add(line, QStringLiteral("placeholder"), line->placeholderText());
        if (auto* combo = qobject_cast<QComboBox*>(widget)) {
            add(combo, QStringLiteral("placeholder"), combo->placeholderText());
            for (int i = 0; i < combo->count(); ++i)
                add(combo, QStringLiteral("item"), combo->itemText(i));
        }
        if (auto* tabs = qobject_cast<QTabWidget*>(widget)) {
            for (int i = 0; i < tabs->count(); ++i)
                add(tabs, QStringLiteral("tab"), tabs->tabText(i));
        }
        if (auto* menu = qobject_cast<QMenu*>(widget))
            add(menu, QStringLiteral("title"), menu->title());
        if (auto* view = qobject_cast<QAbstractItemView*>(widget); view && view->model()) {
            for (int column = 0; column < view->model()->columnCount(); ++column)
                add(view, QStringLiteral("header"), view->model()->headerData(column, Qt::Horizontal).toString());
        }
        if (auto* chartView = qobject_cast<QChartView*>(widget)) {
            QChart* chart = chartView->chart();
            add(chartView, QStringLiteral("chart title"), chart->title());
            for (QAbstractSeries* series : chart->series())
                add(chartView, QStringLiteral("series"), series->name());
            for (QAbstractAxis* axis : chart->axes())
                add(chartView, QStringLiteral("axis"), axis->titleText());
        }
    }
    for (QAction* action : root->findChildren<QAction*>()) {
        if (!action->isSeparator()) {
            add(action, QStringLiteral("action"), action->text());
            add(action, QStringLiteral("action tool tip"), action->toolTip());
        }
    }
    return texts;
}

} // namespace

// The console in Korean and English: the .ts files are complete and in step with the sources, the Korean uses the
// established terms, the whole main window and the connect dialog speak Korean (the PNGs are saved), dates, numbers
// and sizes follow the language's locale, and the system's language is taken when none is chosen.
class TestTranslations final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { GuiTesting::useOwnSettings(QStringLiteral("tst_translations")); }

    void tsFileIsComplete_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("numerusForms");
        QTest::newRow("ko") << QStringLiteral("outbox-console_ko.ts") << 1;
        QTest::newRow("en") << QStringLiteral("outbox-console_en.ts") << 2;
    }

    void tsFileIsComplete()
    {
        QFETCH(QString, file);
        QFETCH(int, numerusForms);
        const QList<Message> messages = readTs(TranslationsDir + QLatin1Char('/') + file);
        QVERIFY(messages.size() > 400);
        QStringList problems;
        for (const Message& message : messages) {
            const QString where = QStringLiteral("%1 \"%2\"").arg(message.context, message.source.left(60));
            if (!message.type.isEmpty())
                problems.append(QStringLiteral("%1: %2").arg(where, message.type));
            if (message.numerus && message.translations.size() != numerusForms)
                problems.append(QStringLiteral("%1: %2 plural forms").arg(where).arg(message.translations.size()));
            for (const QString& translation : message.translations) {
                if (translation.trimmed().isEmpty())
                    problems.append(where + QStringLiteral(": empty"));
                if (placeholders(translation) != placeholders(message.source))
                    problems.append(where + QStringLiteral(": placeholders differ"));
                if (accelerators(message.source) != accelerators(translation))
                    problems.append(where + QStringLiteral(": the mnemonic is lost or doubled"));
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // lupdate over the sources, into copies of the .ts files: a text added to the code without a translation shows
    // up there as unfinished.
    void tsFilesCoverEveryText()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QStringList copies;
        for (const char* name : { "outbox-console_ko.ts", "outbox-console_en.ts" }) {
            const QString copy = dir.filePath(QLatin1String(name));
            QVERIFY(QFile::copy(TranslationsDir + QLatin1Char('/') + QLatin1String(name), copy));
            QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
            copies.append(copy);
        }
        QProcess lupdate;
        lupdate.setProcessChannelMode(QProcess::MergedChannels);
        lupdate.start(QStringLiteral(LUPDATE_PATH),
            QStringList { QStringLiteral("@" TRANSLATED_SOURCES_LIST), QStringLiteral("-no-obsolete"),
                QStringLiteral("-locations"), QStringLiteral("none"), QStringLiteral("-ts") }
                + copies);
        QVERIFY(lupdate.waitForFinished(120'000));
        QVERIFY2(lupdate.exitCode() == 0, lupdate.readAll().constData());
        for (const QString& copy : copies) {
            QStringList missing;
            for (const Message& message : readTs(copy)) {
                if (message.type == QLatin1String("unfinished"))
                    missing.append(QStringLiteral("%1 \"%2\"").arg(message.context, message.source));
            }
            QVERIFY2(missing.isEmpty(),
                qPrintable(QStringLiteral("%1: not translated (run `ninja update_translations`, then translate):\n%2")
                               .arg(QFileInfo(copy).fileName(), missing.join(QLatin1Char('\n')))));
        }
    }

    void koreanUsesTheEstablishedTerms_data()
    {
        QTest::addColumn<QString>("english");
        QTest::addColumn<QString>("korean");
        QTest::newRow("idempotency key") << QStringLiteral("(?i)\\bidempotency[ -]keys?\\b")
                                         << QStringLiteral("멱등성 키");
        // Not the table in "UPDATE on outbox" nor outbox_operator nor the program outbox-console: names stay.
        QTest::newRow("outbox") << QStringLiteral("(?i)(?<!on )\\boutbox\\b(?![-_.])") << QStringLiteral("아웃박스");
        // Not the command "outboxctl requeue".
        QTest::newRow("retry") << QStringLiteral("(?i)(?<!outboxctl )\\b(retry|requeue)") << QStringLiteral("재시도");
        // Not a relay "presumed dead": that is a process that stopped, not a message.
        QTest::newRow("dead letter") << QStringLiteral("(?i)(?<!presumed )\\bdead\\b")
                                     << QStringLiteral("배달 못한 메시지");
    }

    void koreanUsesTheEstablishedTerms()
    {
        QFETCH(QString, english);
        QFETCH(QString, korean);
        const QRegularExpression pattern(english);
        QVERIFY(pattern.isValid());
        int uses = 0;
        QStringList others;
        for (const Message& message : readTs(TranslationsDir + QStringLiteral("/outbox-console_ko.ts"))) {
            if (!pattern.match(message.source).hasMatch())
                continue;
            ++uses;
            for (const QString& translation : message.translations) {
                if (!translation.contains(korean))
                    others.append(QStringLiteral("\"%1\" -> \"%2\"").arg(message.source, translation));
            }
        }
        QVERIFY2(uses > 0, "the term is not used at all: the pattern is wrong");
        QVERIFY2(others.isEmpty(), qPrintable(others.join(QLatin1Char('\n'))));
    }

    void mainWindowSpeaksKorean()
    {
        QCOMPARE(ConsoleLanguage::apply(QStringLiteral("ko")), QStringLiteral("ko"));
        // Rendering Hangul needs a font that has it (fonts-noto-cjk), else the PNG shows boxes.
        QVERIFY2(!QFontDatabase::families(QFontDatabase::Korean).isEmpty(), "no Korean font installed");
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        GuiTesting::saveScreenshot(window, QStringLiteral("console-ko-main.png"));
        // Every column of the keys list says what it holds, in full (the fingerprint's header was once blank).
        window.findChild<QTabWidget*>()->setCurrentWidget(window.keysView());
        const QHeaderView* keysHeader = window.keysView()->table()->horizontalHeader();
        for (int column = 0; column < keysHeader->count(); ++column) {
            if (keysHeader->isSectionHidden(column))
                continue;
            const QString title = keysHeader->model()->headerData(column, Qt::Horizontal).toString();
            QVERIFY2(!title.isEmpty(), qPrintable(QString::number(column)));
            QVERIFY2(keysHeader->sectionSize(column) >= keysHeader->fontMetrics().horizontalAdvance(title),
                qPrintable(QStringLiteral("'%1' in %2 px").arg(title).arg(keysHeader->sectionSize(column))));
        }
        GuiTesting::saveScreenshot(window, QStringLiteral("console-ko-keys.png"));
        window.findChild<QTabWidget*>()->setCurrentIndex(0);
        QSettings settings;
        PasswordKeychain keychain(QStringLiteral("outbox-console-test-translations"));
        QSignalSpy keychainKnown(&keychain, &PasswordKeychain::availabilityKnown);
        ConnectDialog dialog(RecentConnections(settings), keychain, &window);
        QVERIFY(keychainKnown.wait(10'000)); // its tooltip is one of the texts checked
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        GuiTesting::saveScreenshot(dialog, QStringLiteral("console-ko-connect.png"));

        QStringList english;
        int texts = 0;
        for (QWidget* root : std::initializer_list<QWidget*> { &window, &dialog }) {
            for (const auto& [where, text] : visibleTexts(root)) {
                ++texts;
                if (englishOnly(text))
                    english.append(QStringLiteral("%1: \"%2\"").arg(where, text));
            }
        }
        QVERIFY2(texts > 200, qPrintable(QString::number(texts))); // the walk reached every page
        QVERIFY2(english.isEmpty(), qPrintable(english.join(QLatin1Char('\n'))));
        // Qt's own buttons come from qtbase_ko.
        QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("취소"));
        ConsoleLanguage::apply(QStringLiteral("en"));
    }

    // The check above must catch a text left in English.
    void englishTextIsCaught_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("caught");
        QTest::newRow("english") << QStringLiteral("&Retry selected") << true;
        QTest::newRow("korean") << QStringLiteral("선택한 행 재시도(&R)") << false;
        QTest::newRow("korean with a product name") << QStringLiteral("PostgreSQL에 연결") << false;
        QTest::newRow("names only") << QStringLiteral("PGHOST · outbox_operator · JSON") << false;
        QTest::newRow("status words") << QStringLiteral("pending, dead") << false;
        QTest::newRow("markup around english") << QStringLiteral("<b>Stuck rows</b>") << true;
    }

    void englishTextIsCaught()
    {
        QFETCH(QString, text);
        QFETCH(bool, caught);
        QCOMPARE(englishOnly(text), caught);
    }

    void formatsFollowTheLanguage_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("instant");
        QTest::addColumn<QString>("duration");
        QTest::addColumn<QString>("count");
        QTest::addColumn<QString>("size");
        // LANG=C for this test (tests/CMakeLists.txt): English is en_US, Korean ko_KR.
        QTest::newRow("ko") << QStringLiteral("ko") << QStringLiteral("2026. 12. 1. 오후 6:05:07 UTC")
                            << QStringLiteral("3분 20초") << QStringLiteral("1,234,567") << QStringLiteral("1.50 KiB");
        QTest::newRow("en") << QStringLiteral("en") << QStringLiteral("12/1/2026 6:05:07 PM UTC")
                            << QStringLiteral("3 min 20 s") << QStringLiteral("1,234,567")
                            << QStringLiteral("1.50 KiB");
    }

    void formatsFollowTheLanguage()
    {
        QFETCH(QString, language);
        QFETCH(QString, instant);
        QFETCH(QString, duration);
        QFETCH(QString, count);
        QFETCH(QString, size);
        ConsoleLanguage::apply(language);
        TimeFormatter::setZone(TimeFormatter::Zone::Utc);
        QCOMPARE(TimeFormatter::display(QDateTime(QDate(2026, 12, 1), QTime(18, 5, 7), Qt::UTC)), instant);
        QCOMPARE(TimeFormatter::duration(200'000), duration);
        QCOMPARE(QLocale().toString(1'234'567), count);
        QCOMPARE(QLocale().formattedDataSize(1536), size);
        ConsoleLanguage::apply(QStringLiteral("en"));
    }

    // View → Language writes the choice; the next start reads it back. A value edited into nonsense means the
    // system's language again.
    void languageChoicePersists()
    {
        const QString path = QDir::current().filePath(QStringLiteral("tst_translations-language.ini"));
        QFile::remove(path);
        {
            QSettings settings(path, QSettings::IniFormat);
            QCOMPARE(ConsoleLanguage::chosen(settings), QString());
            ConsoleLanguage::choose(settings, QStringLiteral("ko"));
        }
        QSettings reread(path, QSettings::IniFormat);
        QCOMPARE(ConsoleLanguage::chosen(reread), QStringLiteral("ko"));
        reread.setValue(QStringLiteral("view/language"), QStringLiteral("tlh"));
        QCOMPARE(ConsoleLanguage::chosen(reread), QString());
        ConsoleLanguage::choose(reread, QString());
        QVERIFY(!reread.contains(QStringLiteral("view/language")));
    }

    void languageMenuStoresTheChoice()
    {
        QSettings().remove(QStringLiteral("view/language"));
        MainWindow window;
        auto* menu = window.findChild<QMenu*>(QStringLiteral("languageMenu"));
        QVERIFY(menu);
        QStringList names;
        QAction* korean = nullptr;
        for (QAction* action : menu->actions()) {
            names.append(action->text());
            if (action->data().toString() == QLatin1String("ko"))
                korean = action;
        }
        QCOMPARE(names,
            (QStringList { QStringLiteral("System language"), QStringLiteral("English"), QStringLiteral("한국어") }));
        QVERIFY(menu->actions().constFirst()->isChecked());
        korean->trigger();
        QCOMPARE(QSettings().value(QStringLiteral("view/language")).toString(), QStringLiteral("ko"));
        QVERIFY(korean->isChecked());
        MainWindow next;
        auto* nextMenu = next.findChild<QMenu*>(QStringLiteral("languageMenu"));
        QVERIFY(nextMenu->actions().at(2)->isChecked());
        QSettings().remove(QStringLiteral("view/language"));
    }

    // With no choice, the system's language (LANG, LANGUAGE): tests/CMakeLists.txt runs this once with LANG=C and
    // once with LANG=ko_KR.UTF-8, and says in OUTBOX_TEST_EXPECT_LANGUAGE which to expect.
    void systemLanguageIsFollowed()
    {
        const QString expected = qEnvironmentVariable("OUTBOX_TEST_EXPECT_LANGUAGE");
        QVERIFY2(!expected.isEmpty(), "OUTBOX_TEST_EXPECT_LANGUAGE is not set");
        QCOMPARE(ConsoleLanguage::apply(QString()), expected);
        QCOMPARE(MainWindow::tr("Outbox Console"),
            expected == QLatin1String("ko") ? QStringLiteral("아웃박스 콘솔") : QStringLiteral("Outbox Console"));
        ConsoleLanguage::apply(QStringLiteral("en"));
    }
};

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
