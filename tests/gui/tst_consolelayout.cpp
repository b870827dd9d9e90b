// SPDX-License-Identifier: GPL-3.0-or-later
#include "audit/auditview.h"
#include "common/operatoractiondialog.h"
#include "connect/connectionbanner.h"
#include "core/timeformatter.h"
#include "db/schemamigrator.h"
#include "failures/failuresview.h"
#include "i18n/consolelanguage.h"
#include "keys/keystablemodel.h"
#include "keys/keysview.h"
#include "mainwindow/mainwindow.h"
#include "metrics/metricschart.h"
#include "metrics/metricspage.h"
#include "operations/outboxoperator.h"
#include "operations/publishpauses.h"
#include "outbox/outboxview.h"
#include "overview/overviewpage.h"
#include "overview/pausesmodel.h"
#include "overview/relayfleetmodel.h"
#include "overview/waitingrowsmodel.h"
#include "support/consoletesting.h"
#include "support/databasetestcase.h"
#include "support/guitesting.h"

#include <QAbstractButton>
#include <QChart>
#include <QDateTimeEdit>
#include <QFontDatabase>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <array>
#include <cmath>

namespace {

// A small laptop's screen, and the title bar a window manager puts above a window on it.
const QSize SmallScreen(1280, 800);
constexpr int TitleBar = 40;

// CIE76 colour difference: about 2 is the least an eye tells apart; series meant to be told apart at a glance need
// far more.
double deltaE(const QColor& a, const QColor& b)
{
    const auto lab = [](const QColor& colour) {
        const auto linear = [](double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
        const double r = linear(colour.redF());
        const double g = linear(colour.greenF());
        const double b = linear(colour.blueF());
        const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
        const double x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
        const double y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
        const double z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
        return std::array<double, 3> { 116 * y - 16, 500 * (x - y), 200 * (y - z) };
    };
    const auto [l1, a1, b1] = lab(a);
    const auto [l2, a2, b2] = lab(b);
    return std::hypot(l1 - l2, a1 - a2, b1 - b2);
}
constexpr double DistinctColours = 25;

// Where `widget` lies in `ancestor`.
QRect geometryIn(const QWidget* widget, const QWidget* ancestor)
{
    return QRect(widget->mapTo(ancestor, QPoint(0, 0)), widget->size());
}

// The panes of the Overview an operator reads: its tables, chart, texts and buttons, but not their parts (a table's
// header, the chart's view port).
QList<QWidget*> panesOf(QWidget* page)
{
    QList<QWidget*> panes;
    for (QWidget* widget : page->findChildren<QWidget*>()) {
        if (!widget->isVisibleTo(page) || widget->width() == 0)
            continue;
        if (!qobject_cast<QAbstractScrollArea*>(widget) && !qobject_cast<QLabel*>(widget)
            && !qobject_cast<QAbstractButton*>(widget))
            continue;
        bool part = false;
        for (QWidget* parent = widget->parentWidget(); parent != page; parent = parent->parentWidget())
            part = part || qobject_cast<QAbstractScrollArea*>(parent);
        if (!part)
            panes.append(widget);
    }
    return panes;
}

// What of `chart`'s vertical axis titles does not show whole: a title Qt Charts cut to "…" (it draws each rotated, as
// a text item of its own) or one longer than the plot is high. Empty when every one shows whole.
QString cutAxisTitles(const MetricsChart* chart)
{
    QCoreApplication::sendPostedEvents();
    QStringList titles;
    QStringList problems;
    const qreal height = chart->chart()->plotArea().height();
    for (const QAbstractAxis* axis : chart->chart()->axes(Qt::Vertical)) {
        titles.append(axis->titleText());
        const qreal length = QFontMetricsF(axis->titleFont()).horizontalAdvance(axis->titleText());
        if (length > height) {
            problems.append(QStringLiteral("“%1” is %2 px long, the plot %3 px high")
                                .arg(axis->titleText())
                                .arg(length, 0, 'f', 1)
                                .arg(height, 0, 'f', 1));
        }
    }
    QStringList shown;
    for (const QGraphicsItem* item : chart->scene()->items()) {
        const auto* text = dynamic_cast<const QGraphicsTextItem*>(item);
        if (text && text->isVisible() && text->rotation() == 270)
            shown.append(text->toPlainText());
    }
    titles.sort();
    shown.sort();
    if (shown != titles)
        problems.append(QStringLiteral("shown: %1").arg(shown.join(QStringLiteral(" | "))));
    return problems.isEmpty() ? QString()
                              : chart->chart()->title() + QStringLiteral(": ") + problems.join(QStringLiteral("; "));
}

} // namespace

// The console's window on a small screen, in English and Korean: its minimum size fits 1280×800 with every pane of an
// outage on the Overview (a pause, a failing relay and its error, nothing publishing), the panes never overlap, the
// charts keep the unfinished minute's dots inside their plots, show their axes' titles whole and give every series a
// colour of its own, the relays' cells cut short say themselves whole in their tooltips, the keys' times show whole,
// every table, dialog and picker writes times as TimeFormatter does, and Help → About says the version in the window's
// language. Every tab is saved at 1280×800 and 1400×900 in both (layout-*.png).
class TestConsoleLayout final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestConsoleLayout()
        : DatabaseTestCase(QStringLiteral("consolelayout"))
    { }

private:
    // An outage: rows failing on the broker, the only running relay failing for a minute and a half and nothing
    // published for ten, an event type paused, an operator's retry, the last hour's figures up to the current minute,
    // and idempotency keys whose times are the widest a day has (two-digit months, days and hours).
    void seedOutage()
    {
        db().reset();
        db().exec(QStringLiteral(
            "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, status, attempts, "
            "  last_error, next_attempt_at, published_at, created_at) "
            "SELECT 'order', g::text, 'order.created', jsonb_build_object('id', g), 'k' || g, s.status, "
            "  CASE WHEN s.status IN ('failed', 'dead') THEN 3 ELSE 0 END, "
            "  CASE WHEN s.status IN ('failed', 'dead') THEN 'connecting (amqp://guest:***@rabbit.internal:5672/"
            "?exchange=orders-events): could not connect to the broker: Connection refused' END, "
            "  now() + interval '2 minutes', CASE WHEN s.status = 'published' THEN now() - interval '10 minutes' END, "
            "  now() - (60 - g) * interval '1 minute' "
            "FROM generate_series(1, 40) g, LATERAL (SELECT CASE "
            "  WHEN g <= 5 THEN 'dead' WHEN g <= 10 THEN 'failed' WHEN g <= 20 THEN 'pending' "
            "  ELSE 'published' END AS status) s"));
        db().exec(QStringLiteral(
            "INSERT INTO relay_nodes (name, host, pid, version, sink, workers, batch_size, lease_ms, heartbeat_ms, "
            "  sink_up, last_error, last_error_at, failing_since, last_seen, stopped_at) VALUES "
            "('relay-eu-west-1a', 'relay-host-eu-west-1a.internal', 4395, '0.1.0 (schema version 25)', "
            "  'amqp://guest:***@rabbit.internal:5672/?exchange=orders-events', 2, 50, 30000, 3600000, false, "
            "  'connecting (amqp://guest:***@rabbit.internal:5672/?exchange=orders-events): could not connect to "
            "the broker: Connection refused', now(), now() - interval '95 seconds', now(), NULL), "
            "('relay-eu-west-1b', 'relay-host-eu-west-1b.internal', 4396, '0.1.0 (schema version 25)', "
            "  'amqp://guest:***@rabbit.internal:5672/?exchange=orders-events', 2, 50, 30000, 3600000, true, NULL, "
            "  NULL, NULL, now() - interval '1 hour', now() - interval '1 hour')"));
        PublishPauses(session()).pause(PauseScope::EventType, QStringLiteral("order.cancelled"),
            QStringLiteral("the cancellations' consumer is being redeployed"));
        OutboxOperator(session()).requeue(
            { 6 }, QStringLiteral("one to see whether the broker took it after the network change"));
        db().exec(QStringLiteral("INSERT INTO metric_rollups (bucket, shard, published, failed_attempts, requests, "
                                 "  executions, replays) "
                                 "SELECT date_trunc('minute', now()) - m * interval '1 minute', 0, 100 + m, m % 7, "
                                 "  120, 110, 10 FROM generate_series(0, 59) m"));
        db().exec(QStringLiteral(
            "INSERT INTO backlog_samples (bucket, sampled_at, pending, pending_capped, oldest_pending_ms, "
            "  last_pending, last_pending_capped, last_oldest_pending_ms) "
            "SELECT date_trunc('minute', now()) - m * interval '1 minute', now() - m * interval '1 minute', "
            "  20 + m, false, 1000 * m, 20 + m, false, 1000 * m FROM generate_series(0, 59) m"));
        db().exec(QStringLiteral(
            "INSERT INTO idempotency_keys (scope, idem_key, fingerprint, status, response_status, expires_at, "
            "  created_at, replay_count, last_replayed_at) "
            "SELECT 'orders', 'order-' || g, repeat('a', 64), 'completed', 201, "
            "  '2026-12-29 22:58:58+00'::timestamptz + g * interval '1 day', "
            "  '2026-12-28 23:58:58+00'::timestamptz - g * interval '1 minute', 1, "
            "  '2026-12-28 22:58:58+00'::timestamptz FROM generate_series(1, 30) g"));
    }

    static void addLanguages()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("ko") << QStringLiteral("ko");
    }

    // Each language on a small screen and on a larger one.
    static void addLanguagesAndScreens()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QSize>("size");
        for (const char* language : { "en", "ko" }) {
            for (const QSize size : { SmallScreen - QSize(0, TitleBar), QSize(1400, 900) }) {
                QTest::addRow("%s-%dx%d", language, size.width(), size.height())
                    << QString::fromLatin1(language) << size;
            }
        }
    }

    // The window in `language` at `size`, connected, once the Overview shows the whole outage.
    std::unique_ptr<MainWindow> openOnOutage(const QString& language, QSize size)
    {
        if (ConsoleLanguage::apply(language) != language)
            return nullptr;
        auto window = ConsoleTesting::openWindow(db().settings(), size);
        if (!window)
            return nullptr;
        const OverviewPage* overview = window->overview();
        if (!QTest::qWaitFor(
                [&] {
                    return overview->relays()->rowCount() == 2 && overview->pauses()->rowCount() == 1
                        && overview->waitingRows()->rowCount() == 5 && overview->warnsNothingPublishing();
                },
                10'000))
            return nullptr;
        // Until the layouts the rows changed have settled: laying one out may ask for another, and the window grows to
        // its minimum after them.
        QSize settled;
        for (int unchanged = 0, round = 0; unchanged < 3 && round < 40; ++round) {
            QTest::qWait(50);
            const QSize minimum = window->minimumSizeHint();
            unchanged = minimum == settled ? unchanged + 1 : 0;
            settled = minimum;
        }
        return window;
    }

private slots:
    void initTestCase()
    {
        GuiTesting::useOwnSettings(QStringLiteral("tst_consolelayout"));
        setUpDatabase();
        // Rendering Hangul needs a font that has it (fonts-noto-cjk); without one, Korean texts measure wrong.
        QVERIFY2(!QFontDatabase::families(QFontDatabase::Korean).isEmpty(), "no Korean font installed");
    }
    void init() { seedOutage(); }
    void cleanup()
    {
        ConsoleLanguage::apply(QStringLiteral("en"));
        TimeFormatter::setZone(TimeFormatter::Zone::Utc);
    }

    void windowFitsASmallScreen_data() { addLanguages(); }

    // The window grew taller than the screen as the pause and the outage showed up, and never shrank back.
    void windowFitsASmallScreen()
    {
        QFETCH(QString, language);
        const auto noAutoRefresh = ConsoleTesting::withoutAutoRefresh();
        const QSize room = SmallScreen - QSize(0, TitleBar);
        const auto window = openOnOutage(language, room);
        QVERIFY(window);
        const QSize minimum = window->minimumSizeHint();
        qInfo("minimum size %d×%d", minimum.width(), minimum.height());
        QVERIFY2(minimum.width() <= room.width() && minimum.height() <= room.height(),
            qPrintable(QStringLiteral("%1×%2").arg(minimum.width()).arg(minimum.height())));
        QCOMPARE(window->size(), room);
    }

    void overviewPanesDoNotOverlap_data() { addLanguages(); }

    // On a 1280×800 screen, also where a window manager holds the window to the screen below its minimum: the last
    // operator actions once covered the chart's legend. In an outage the relay's error and why the rows wait are in
    // view, not behind a scroll bar.
    void overviewPanesDoNotOverlap()
    {
        QFETCH(QString, language);
        const auto noAutoRefresh = ConsoleTesting::withoutAutoRefresh();
        const auto window = openOnOutage(language, SmallScreen);
        QVERIFY(window);
        window->setMinimumSize(1, 1); // as a window manager does, keeping the window on the screen
        window->resize(SmallScreen - QSize(0, TitleBar));
        QCoreApplication::sendPostedEvents();
        OverviewPage* overview = window->overview();
        const QList<QWidget*> panes = panesOf(overview);
        QVERIFY(panes.size() > 20);
        for (qsizetype i = 0; i < panes.size(); ++i) {
            const QRect one = geometryIn(panes.at(i), overview);
            QVERIFY2(overview->rect().contains(one),
                qPrintable(QStringLiteral("%1 %2 is cut off")
                               .arg(panes.at(i)->metaObject()->className(), panes.at(i)->objectName())));
            for (qsizetype j = i + 1; j < panes.size(); ++j) {
                const QRect other = geometryIn(panes.at(j), overview);
                QVERIFY2(!one.intersects(other),
                    qPrintable(QStringLiteral("%1 %2 (%3) and %4 %5 (%6) overlap")
                                   .arg(panes.at(i)->metaObject()->className(), panes.at(i)->objectName())
                                   .arg(QDebug::toString(one))
                                   .arg(panes.at(j)->metaObject()->className(), panes.at(j)->objectName())
                                   .arg(QDebug::toString(other))));
            }
        }
        const auto* actions = overview->findChild<QLabel*>(QStringLiteral("recentActions"));
        const auto* chart = overview->findChild<MetricsChart*>();
        QVERIFY(actions && chart);
        QVERIFY(!geometryIn(actions, overview).intersects(geometryIn(chart, overview)));

        // The failing relay's error and why the oldest row waits, in view with room to read them.
        const auto* relays = overview->findChild<QTableView*>(QStringLiteral("relays"));
        const auto* waiting = overview->findChild<QTableView*>(QStringLiteral("oldestUnpublished"));
        QVERIFY(relays && waiting);
        int failing = 0;
        while (
            relays->model()->index(failing, 0).data(RelayFleetModel::StateRole).toString() != QLatin1String("failing"))
            ++failing;
        for (const QModelIndex& cell : { relays->model()->index(failing, RelayFleetModel::LastError),
                 waiting->model()->index(0, WaitingRowsModel::Cause) }) {
            const auto* table = cell.model() == relays->model() ? relays : waiting;
            QVERIFY2(!table->horizontalScrollBar()->isVisible(), qPrintable(table->objectName()));
            const QRect shown = table->visualRect(cell);
            QVERIFY2(table->viewport()->rect().contains(shown) && shown.width() >= 250,
                qPrintable(QStringLiteral("%1: %2 in %3")
                               .arg(table->objectName(), QDebug::toString(shown),
                                   QDebug::toString(table->viewport()->rect()))));
        }
    }

    void relayCellsSayWhatTheyCutInTheirTooltips_data() { addLanguages(); }

    // In an outage the relay table gives its room to the last error, and cuts host, version and sink short: their
    // tooltips say them whole, as the last error's and the state's did.
    void relayCellsSayWhatTheyCutInTheirTooltips()
    {
        QFETCH(QString, language);
        const auto noAutoRefresh = ConsoleTesting::withoutAutoRefresh();
        const auto window = openOnOutage(language, SmallScreen - QSize(0, TitleBar));
        QVERIFY(window);
        const auto* table = window->overview()->findChild<QTableView*>(QStringLiteral("relays"));
        QVERIFY(table);
        const QAbstractItemModel* model = table->model();
        // As seedOutage() registered them.
        const QString sink = QStringLiteral("amqp://guest:***@rabbit.internal:5672/?exchange=orders-events");
        const QMap<QString, QStringList> whole {
            { QStringLiteral("relay-eu-west-1a"),
                { QStringLiteral("relay-host-eu-west-1a.internal"), QStringLiteral("4395") } },
            { QStringLiteral("relay-eu-west-1b"),
                { QStringLiteral("relay-host-eu-west-1b.internal"), QStringLiteral("4396") } },
        };
        QCOMPARE(model->rowCount(), whole.size());
        for (int row = 0; row < model->rowCount(); ++row) {
            const QString name = model->index(row, RelayFleetModel::Name).data().toString();
            QVERIFY2(whole.contains(name), qPrintable(name));
            const QModelIndex host = model->index(row, RelayFleetModel::Host);
            const QModelIndex version = model->index(row, RelayFleetModel::Version);
            const QModelIndex sinkCell = model->index(row, RelayFleetModel::Sink);
            // The sink is cut short indeed: the tooltip is where it shows whole.
            QVERIFY2(table->fontMetrics().horizontalAdvance(sinkCell.data().toString())
                    > table->horizontalHeader()->sectionSize(RelayFleetModel::Sink),
                qPrintable(sinkCell.data().toString()));
            for (const QModelIndex& cell : { host, version, sinkCell }) {
                const QString tip = cell.data(Qt::ToolTipRole).toString();
                QVERIFY2(tip.contains(cell.data().toString()),
                    qPrintable(
                        QStringLiteral("column %1: “%2” in “%3”").arg(cell.column()).arg(cell.data().toString(), tip)));
            }
            for (const QString& part : whole.value(name))
                QVERIFY2(host.data(Qt::ToolTipRole).toString().contains(part), qPrintable(part));
            QVERIFY(version.data(Qt::ToolTipRole).toString().contains(QStringLiteral("0.1.0 (schema version 25)")));
            QVERIFY(sinkCell.data(Qt::ToolTipRole).toString().contains(sink));
        }
    }

    void axisTitlesShowWhole_data() { addLanguagesAndScreens(); }

    // Every chart's value-axis titles whole, in both languages on a small screen and a larger one: "publish latency
    // (ms)" and "발행 지연 시간 (밀리초)" were longer than the plot was high, and the Retries chart's "구간당", beside
    // labels of one digit, was cut to "⋮" as well.
    void axisTitlesShowWhole()
    {
        QFETCH(QString, language);
        QFETCH(QSize, size);
        const auto noAutoRefresh = ConsoleTesting::withoutAutoRefresh();
        const auto window = openOnOutage(language, size);
        QVERIFY(window);
        auto* tabs = window->findChild<QTabWidget*>();
        tabs->setCurrentWidget(window->metricsPage());
        QTRY_VERIFY_WITH_TIMEOUT(!window->metricsPage()->points().isEmpty(), 10'000);
        QList<MetricsChart*> charts { window->overview()->findChild<MetricsChart*>() };
        for (const MetricsPage::Chart which : { MetricsPage::Chart::Duplicates, MetricsPage::Chart::Lag,
                 MetricsPage::Chart::Retries, MetricsPage::Chart::Throughput })
            charts.append(window->metricsPage()->chart(which));
        int titles = 0;
        for (MetricsChart* chart : charts) {
            tabs->setCurrentWidget(
                chart == charts.first() ? static_cast<QWidget*>(window->overview()) : window->metricsPage());
            QVERIFY(!chart->showsNoData());
            QTRY_COMPARE_WITH_TIMEOUT(cutAxisTitles(chart), QString(), 2'000);
            titles += chart->chart()->axes(Qt::Vertical).size();
        }
        QCOMPARE(titles, 10); // the overview's two, the Metrics tab's 2 + 3 + 2 + 1
    }

    void unfinishedMinuteStaysInThePlot_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800 screen") << SmallScreen - QSize(0, TitleBar);
        QTest::newRow("1400x900") << QSize(1400, 900);
    }

    // The dot of the minute under way, whole, inside the plot: it was drawn across the plot's right and bottom edges.
    void unfinishedMinuteStaysInThePlot()
    {
        QFETCH(QSize, size);
        const auto noAutoRefresh = ConsoleTesting::withoutAutoRefresh();
        const auto window = openOnOutage(QStringLiteral("en"), size);
        QVERIFY(window);
        auto* tabs = window->findChild<QTabWidget*>();
        tabs->setCurrentWidget(window->metricsPage()); // the last hour, up to now
        QTRY_VERIFY_WITH_TIMEOUT(!window->metricsPage()->points().isEmpty(), 10'000);
        QList<MetricsChart*> charts { window->overview()->findChild<MetricsChart*>() };
        for (const MetricsPage::Chart which : { MetricsPage::Chart::Duplicates, MetricsPage::Chart::Lag,
                 MetricsPage::Chart::Retries, MetricsPage::Chart::Throughput })
            charts.append(window->metricsPage()->chart(which));
        int dots = 0;
        for (MetricsChart* chart : charts) {
            tabs->setCurrentWidget(
                chart == charts.first() ? static_cast<QWidget*>(window->overview()) : window->metricsPage());
            const auto outside = [&]() -> QString {
                QCoreApplication::sendPostedEvents();
                const QRectF plot = chart->chart()->plotArea();
                for (QAbstractSeries* series : chart->chart()->series()) {
                    auto* dot = qobject_cast<QLineSeries*>(series);
                    if (!dot || dot->count() != 1)
                        continue;
                    // As Qt Charts 6.4 draws them: a light marker as wide as the marker size, a point that wide
                    // each side.
                    const qreal radius = dot->lightMarker().isNull() ? dot->markerSize() : dot->markerSize() / 2;
                    const QPointF at = chart->chart()->mapToPosition(dot->at(0), dot);
                    const QRectF drawn(at - QPointF(radius, radius), QSizeF(2 * radius, 2 * radius));
                    if (!plot.contains(drawn)) {
                        return QStringLiteral("%1: %2 at %3,%4 ±%5 outside %6,%7 %8×%9")
                            .arg(chart->chart()->title(), dot->name())
                            .arg(at.x())
                            .arg(at.y())
                            .arg(radius)
                            .arg(plot.x())
                            .arg(plot.y())
                            .arg(plot.width())
                            .arg(plot.height());
                    }
                }
                return {};
            };
            QTRY_COMPARE_WITH_TIMEOUT(outside(), QString(), 2'000);
            for (QAbstractSeries* series : chart->chart()->series()) {
                const QLineSeries* dot = chart->soFar(qobject_cast<QLineSeries*>(series));
                dots += dot && dot->count() == 1 ? 1 : 0;
            }
        }
        QVERIFY(dots >= 8); // the overview's two counts and the Metrics tab's
    }

    // Each line and warning level of a chart in a colour of its own: two lines shared a green, a line and the warning
    // level nearly a red. A line's dot of the unfinished minute is the line's colour.
    void everySeriesHasAColourOfItsOwn()
    {
        const auto noAutoRefresh = ConsoleTesting::withoutAutoRefresh();
        const auto window = openOnOutage(QStringLiteral("en"), SmallScreen);
        QVERIFY(window);
        const QList<MetricsChart*> charts = window->findChildren<MetricsChart*>();
        QVERIFY(charts.size() >= 6);
        for (MetricsChart* chart : charts) {
            QList<QLineSeries*> shown;
            for (QAbstractSeries* series : chart->chart()->series()) {
                const QList<QLegendMarker*> markers = chart->chart()->legend()->markers(series);
                if (!markers.isEmpty() && markers.first()->isVisible())
                    shown.append(qobject_cast<QLineSeries*>(series));
            }
            QVERIFY(shown.size() >= 3);
            for (qsizetype i = 0; i < shown.size(); ++i) {
                if (const QLineSeries* dot = chart->soFar(shown.at(i)))
                    QCOMPARE(dot->color().rgb(), shown.at(i)->color().rgb());
                for (qsizetype j = i + 1; j < shown.size(); ++j) {
                    const double distance = deltaE(shown.at(i)->color(), shown.at(j)->color());
                    QVERIFY2(distance >= DistinctColours,
                        qPrintable(QStringLiteral("%1: %2 %3 and %4 %5, ΔE %6")
                                       .arg(chart->chart()->title(), shown.at(i)->name(), shown.at(i)->color().name(),
                                           shown.at(j)->name(), shown.at(j)->color().name())
                                       .arg(distance, 0, 'f', 1)));
                }
            }
        }
    }

    void keysTimesShowWhole_data() { addLanguages(); }

    // "2026. 12. 28. 오후 10:58:58 UTC" was cut to "2026. 12. 28. 오후 10:58:58 …" in Korean.
    void keysTimesShowWhole()
    {
        QFETCH(QString, language);
        const auto noAutoRefresh = ConsoleTesting::withoutAutoRefresh();
        const auto window = openOnOutage(language, SmallScreen);
        QVERIFY(window);
        window->findChild<QTabWidget*>()->setCurrentWidget(window->keysView());
        const QTableView* table = window->keysView()->table();
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 30, 10'000);
        // The room an item view leaves beside a cell's text (QCommonStyle's viewItemDrawText).
        const int margins = 2 * (table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1);
        for (const TimeFormatter::Zone zone : { TimeFormatter::Zone::Utc, TimeFormatter::Zone::Local }) {
            TimeFormatter::setZone(zone);
            for (const int column : { KeysTableModel::LastReplay, KeysTableModel::Created, KeysTableModel::Expires }) {
                const int width = table->horizontalHeader()->sectionSize(column);
                const QString title = table->model()->headerData(column, Qt::Horizontal).toString();
                QVERIFY2(width >= table->horizontalHeader()->fontMetrics().horizontalAdvance(title) + margins,
                    qPrintable(title));
                for (int row = 0; row < table->model()->rowCount(); ++row) {
                    const QString text = table->model()->index(row, column).data().toString();
                    QVERIFY2(width >= table->fontMetrics().horizontalAdvance(text) + margins,
                        qPrintable(QStringLiteral("“%1” in %2 px").arg(text).arg(width)));
                }
            }
        }
    }

    void timesFollowTheFormatter_data() { addLanguages(); }

    // One way to write a time per language: the tables and panes as TimeFormatter::display() (the instant their
    // tooltips give), every picker, the pickers of the filters, of the Metrics tab and of a retry later's dialog, to
    // the minute in the same way, and the connection banner too. ISO dates in the pickers and the locale's short
    // years in the dialog made three.
    void timesFollowTheFormatter()
    {
        QFETCH(QString, language);
        const auto noAutoRefresh = ConsoleTesting::withoutAutoRefresh();
        const auto window = openOnOutage(language, QSize(1400, 900));
        QVERIFY(window);
        auto* tabs = window->findChild<QTabWidget*>();
        for (QWidget* tab : { static_cast<QWidget*>(window->outboxView()), static_cast<QWidget*>(window->keysView()),
                 static_cast<QWidget*>(window->auditView()), static_cast<QWidget*>(window->failuresView()) }) {
            tabs->setCurrentWidget(tab);
            const auto* table = tab->findChild<QTableView*>();
            QTRY_VERIFY_WITH_TIMEOUT(table->model()->rowCount() > 0, 10'000);
        }
        int instants = 0;
        for (const QTableView* table : window->findChildren<QTableView*>()) {
            const QAbstractItemModel* model = table->model();
            for (int row = 0; model && row < model->rowCount(); ++row) {
                for (int column = 0; column < model->columnCount(); ++column) {
                    const QModelIndex index = model->index(row, column);
                    // TimeFormatter::exact()'s first line: the instant in UTC.
                    const QDateTime instant = QDateTime::fromString(
                        index.data(Qt::ToolTipRole).toString().section(QLatin1Char('\n'), 0, 0), Qt::ISODateWithMs);
                    if (!instant.isValid())
                        continue;
                    ++instants;
                    QCOMPARE(index.data().toString(), TimeFormatter::display(instant));
                }
            }
        }
        QVERIFY2(instants >= 60, qPrintable(QString::number(instants)));

        const QString pickerFormat = TimeFormatter::pickerFormat(QLocale());
        const QList<QDateTimeEdit*> pickers = window->findChildren<QDateTimeEdit*>();
        QVERIFY(pickers.size() >= 8); // outbox, keys, audit: from and to; Metrics: from and to
        for (const QDateTimeEdit* picker : pickers) {
            QCOMPARE(picker->displayFormat(), pickerFormat);
            QCOMPARE(picker->text(), QLocale().toString(picker->dateTime(), pickerFormat));
        }
        OperatorActionDialog later(
            QStringLiteral("Retry"), { 1 }, QStringLiteral("Only failed rows move."), window.get());
        later.offerLater();
        QCOMPARE(later.dueAtEdit()->displayFormat(), pickerFormat);

        const QDateTime before = QDateTime::currentDateTime();
        window->banner()->showUnreachable(QStringLiteral("connection refused"), 2'000);
        const QDateTime after = QDateTime::currentDateTime();
        QVERIFY2(window->banner()->text().contains(TimeFormatter::display(before))
                || window->banner()->text().contains(TimeFormatter::display(after)),
            qPrintable(window->banner()->text()));
    }

    void aboutSaysTheVersionInTheWindowsLanguage_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("schemaVersion");
        QTest::newRow("en") << QStringLiteral("en") << QStringLiteral("(schema version %1)");
        QTest::newRow("ko") << QStringLiteral("ko") << QStringLiteral("(스키마 버전 %1)");
    }

    // Help → About in Korean said "(schema version 25)".
    void aboutSaysTheVersionInTheWindowsLanguage()
    {
        QFETCH(QString, language);
        QFETCH(QString, schemaVersion);
        QCOMPARE(ConsoleLanguage::apply(language), language);
        MainWindow window;
        QString text;
        ConsoleTesting::whenModalOpens<QMessageBox>(this, [&text](QMessageBox& box) {
            text = box.text();
            box.accept();
        });
        QMenu* help = window.menuBar()->actions().constLast()->menu();
        help->actions().constFirst()->trigger();
        QVERIFY2(text.contains(QStringLiteral(" " OUTBOX_PROJECT_VERSION " ")), qPrintable(text));
        QVERIFY2(text.contains(schemaVersion.arg(SchemaMigrator::latestVersion())), qPrintable(text));
    }

    void tabsAreRendered_data() { addLanguagesAndScreens(); }

    // Every tab on the outage, to look at: layout-LANGUAGE-WIDTHxHEIGHT-N.png.
    void tabsAreRendered()
    {
        QFETCH(QString, language);
        QFETCH(QSize, size);
        const auto noAutoRefresh = ConsoleTesting::withoutAutoRefresh();
        const auto window = openOnOutage(language, size);
        QVERIFY(window);
        auto* tabs = window->findChild<QTabWidget*>();
        for (int tab = 0; tab < tabs->count(); ++tab) {
            tabs->setCurrentIndex(tab);
            QTest::qWait(300); // the tab's read
            GuiTesting::saveScreenshot(*window,
                QStringLiteral("layout-%1-%2x%3-%4.png").arg(language).arg(size.width()).arg(size.height()).arg(tab));
        }
    }
};

QTEST_MAIN(TestConsoleLayout)
#include "tst_consolelayout.moc"
