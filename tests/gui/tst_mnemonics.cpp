// SPDX-License-Identifier: GPL-3.0-or-later
#include "i18n/consolelanguage.h"
#include "mainwindow/mainwindow.h"
#include "operations/publishpauses.h"
#include "outbox/editcontentdialog.h"
#include "outbox/outboxtablemodel.h"
#include "outbox/outboxview.h"
#include "overview/overviewpage.h"
#include "overview/pausesmodel.h"
#include "support/consoletesting.h"
#include "support/databasetestcase.h"
#include "support/guitesting.h"

#include <QAbstractButton>
#include <QApplication>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>

namespace {

// What Alt+letter reaches: a menu, a tab, a button, a menu's item.
struct Mnemonic {
    QString owner;
    QKeySequence keys;
};

void add(QList<Mnemonic>& to, const QString& owner, const QString& text)
{
    const QKeySequence keys = QKeySequence::mnemonic(text);
    if (!keys.isEmpty())
        to.append({ owner + QStringLiteral(" “") + text + QStringLiteral("”"), keys });
}

// The letters two owners in `container` share, one line each.
QStringList clashes(const QString& container, const QList<Mnemonic>& mnemonics)
{
    QStringList found;
    for (qsizetype i = 0; i < mnemonics.size(); ++i) {
        for (qsizetype j = i + 1; j < mnemonics.size(); ++j) {
            if (mnemonics.at(i).keys == mnemonics.at(j).keys)
                found.append(
                    QStringLiteral("%1: %2 is %3 and %4")
                        .arg(container, mnemonics.at(i).keys.toString(), mnemonics.at(i).owner, mnemonics.at(j).owner));
        }
    }
    return found;
}

// The demo (app/console/demowindow) adds its Demo menu before Help, and "About the demo" to Help: letters the window
// keeps free for them.
QString demoMenuTitle()
{
    return QCoreApplication::translate("DemoConsole", "&Demo");
}
QString aboutTheDemo()
{
    return QCoreApplication::translate("DemoConsole", "About the &demo");
}

// The clashes among the items of `menu` and of each of its submenus; `help` is the Help menu.
void addMenus(QStringList& found, QMenu* menu, const QString& path, const QMenu* help)
{
    QList<Mnemonic> items;
    if (menu == help)
        add(items, QStringLiteral("the demo's item"), aboutTheDemo());
    for (QAction* action : menu->actions()) {
        if (action->isSeparator())
            continue;
        add(items, QStringLiteral("item"), action->text());
        if (action->menu())
            addMenus(found, action->menu(), path + QStringLiteral(" → ") + action->text(), help);
    }
    found += clashes(path, items);
}

// Presses Alt+`letter` on the window, as the operator does.
void pressMnemonic(QWidget* window, const QString& text)
{
    const QKeyCombination keys = QKeySequence::mnemonic(text)[0];
    QTest::keyClick(window, keys.key(), keys.keyboardModifiers());
}

} // namespace

// Alt+letter in the main window, in English and Korean: one letter for one thing the window offers at once (the
// menus of the menu bar, the demo's Demo menu among them, the tabs, and the buttons of the tab in front) and one per
// item within each menu; the letter of each tab and menu reaches it; Alt+E is Edit and retry on the failed row
// selected in the Outbox tab, as the operator's guide says. Alt+A opened the Failures tab instead of the Actions menu,
// Alt+D the Audit tab instead of the Demo menu.
class TestMnemonics final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestMnemonics()
        : DatabaseTestCase(QStringLiteral("mnemonics"))
    { }

private:
    static void addLanguages()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("ko") << QStringLiteral("ko");
    }

    // The window in `language`, connected and active, the Overview showing a pause (and so Resume).
    std::unique_ptr<MainWindow> openActiveWindow(const QString& language)
    {
        if (ConsoleLanguage::apply(language) != language)
            return nullptr;
        auto window = ConsoleTesting::openWindow(db().settings());
        if (!window)
            return nullptr;
        QApplication::setActiveWindow(window.get());
        if (!QTest::qWaitForWindowActive(window.get())
            || !QTest::qWaitFor([&] { return window->overview()->pauses()->rowCount() == 1; }, 10'000))
            return nullptr;
        return window;
    }

private slots:
    void initTestCase()
    {
        GuiTesting::useOwnSettings(QStringLiteral("tst_mnemonics"));
        setUpDatabase();
    }

    void init()
    {
        db().reset();
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                                 "  status, attempts, last_error) "
                                 "VALUES ('order', '1', 'order.created', '{\"id\": 1}', 'k1', 'failed', 3, "
                                 "  'broker unavailable: connection refused')"));
        PublishPauses(session()).pause(
            PauseScope::EventType, QStringLiteral("order.cancelled"), QStringLiteral("consumer redeployed"));
    }

    void cleanup() { ConsoleLanguage::apply(QStringLiteral("en")); }

    void noLetterIsTakenTwice_data() { addLanguages(); }

    void noLetterIsTakenTwice()
    {
        QFETCH(QString, language);
        const auto noAutoRefresh = ConsoleTesting::withoutAutoRefresh();
        const auto window = openActiveWindow(language);
        QVERIFY(window);
        QVERIFY2(!window->menuBar()->findChild<QMenu*>(QStringLiteral("demoMenu")), "a window without the demo");
        auto* tabs = window->findChild<QTabWidget*>();
        QStringList found;
        int buttons = 0;
        for (int tab = 0; tab < tabs->count(); ++tab) {
            tabs->setCurrentIndex(tab);
            QList<Mnemonic> shown;
            add(shown, QStringLiteral("the demo's menu"), demoMenuTitle());
            for (QAction* menu : window->menuBar()->actions())
                add(shown, QStringLiteral("menu"), menu->text());
            // The tab bars in view (the main one, and a detail pane's) and the buttons and labelled fields.
            for (const QTabBar* bar : window->findChildren<QTabBar*>()) {
                for (int i = 0; bar->isVisibleTo(window.get()) && i < bar->count(); ++i)
                    add(shown, QStringLiteral("tab"), bar->tabText(i));
            }
            for (const QAbstractButton* button : window->findChildren<QAbstractButton*>()) {
                if (button->isVisibleTo(window.get()) && !QKeySequence::mnemonic(button->text()).isEmpty()) {
                    add(shown, QStringLiteral("button"), button->text());
                    ++buttons;
                }
            }
            for (const QLabel* label : window->findChildren<QLabel*>()) {
                if (label->buddy() && label->isVisibleTo(window.get()))
                    add(shown, QStringLiteral("label"), label->text());
            }
            found += clashes(QStringLiteral("with the tab “%1” in front").arg(tabs->tabText(tab)), shown);
        }
        QVERIFY(buttons >= 10); // the Overview's, the Outbox tab's, the Failures tab's…
        for (QAction* menu : window->menuBar()->actions())
            addMenus(found, menu->menu(), menu->text(), window->menuBar()->actions().constLast()->menu());
        found.removeDuplicates();
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
    }

    void altLetterReachesWhatItNames_data() { addLanguages(); }

    void altLetterReachesWhatItNames()
    {
        QFETCH(QString, language);
        const auto noAutoRefresh = ConsoleTesting::withoutAutoRefresh();
        const auto window = openActiveWindow(language);
        QVERIFY(window);
        auto* tabs = window->findChild<QTabWidget*>();
        for (int tab = tabs->count() - 1; tab >= 0; --tab) {
            pressMnemonic(window.get(), tabs->tabText(tab));
            QVERIFY2(tabs->currentIndex() == tab, qPrintable(tabs->tabText(tab)));
        }
        for (QAction* title : window->menuBar()->actions()) {
            pressMnemonic(window.get(), title->text());
            QTRY_VERIFY2_WITH_TIMEOUT(
                QApplication::activePopupWidget() == title->menu(), qPrintable(title->text()), 2'000);
            title->menu()->close();
            QTRY_VERIFY(!QApplication::activePopupWidget());
        }
        QCOMPARE(tabs->currentIndex(), 0); // a menu's letter left the tabs alone
    }

    void altEEditsTheSelectedRow_data() { addLanguages(); }

    // The operator's guide: "select it and choose Edit and retry… (Alt+E, the context menu or the Actions menu)".
    void altEEditsTheSelectedRow()
    {
        QFETCH(QString, language);
        const auto noAutoRefresh = ConsoleTesting::withoutAutoRefresh();
        const auto window = openActiveWindow(language);
        QVERIFY(window);
        OutboxView& outbox = *window->outboxView();
        ConsoleTesting::showOutboxTab(*window);
        QVERIFY(ConsoleTesting::waitForRows(outbox, 1));
        outbox.table()->selectRow(0);
        QTRY_VERIFY(outbox.editSelectedAction()->isEnabled());
        bool opened = false;
        ConsoleTesting::whenModalOpens<EditContentDialog>(this, [&opened](EditContentDialog& dialog) {
            opened = true;
            dialog.reject();
        });
        QTest::keyClick(window.get(), Qt::Key_E, Qt::AltModifier);
        QTRY_VERIFY_WITH_TIMEOUT(opened, 10'000);
    }
};

QTEST_MAIN(TestMnemonics)
#include "tst_mnemonics.moc"
