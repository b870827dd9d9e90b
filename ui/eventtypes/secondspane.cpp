// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventtypes/secondspane.h"

#include "core/databaseclient.h"
#include "core/timeformatter.h"
#include "metrics/metricschart.h"

#include <QChart>
#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

SecondsPane::SecondsPane(DatabaseClient& reads, QWidget* parent)
    : QWidget(parent)
    , m_reads(reads)
    , m_chart(new MetricsChart(QString(), this))
    , m_caption(new QLabel(this))
    , m_tick(new QTimer(this))
{
    QValueAxis* perSecond = m_chart->addAxis(tr("rows per second"), Qt::AlignLeft);
    m_chart->addLine(tr("published"), perSecond, MetricsChart::counter(&MetricCounters::published));
    m_chart->addLine(tr("failed attempts"), perSecond, MetricsChart::counter(&MetricCounters::failedAttempts));
    m_chart->addLine(tr("went dead"), perSecond, MetricsChart::counter(&MetricCounters::deadLetters));
    m_chart->setMinimumHeight(220);
    m_caption->setWordWrap(true);
    m_caption->setObjectName(QStringLiteral("secondsCaption"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_caption);
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, this, &SecondsPane::refresh);
    setEventType({});
}

void SecondsPane::setEventType(const QString& eventType)
{
    m_eventType = eventType;
    m_chart->chart()->setTitle(eventType.isEmpty() ? tr("Last 5 minutes, per second: all event types")
                                                   : tr("Last 5 minutes, per second: %1").arg(eventType));
    if (isVisible())
        refresh();
}

void SecondsPane::setLive(bool live)
{
    m_live = live;
    followTimer();
}

bool SecondsPane::isFollowing() const
{
    return m_tick->isActive();
}

void SecondsPane::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    followTimer();
    refresh();
}

void SecondsPane::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    followTimer();
}

void SecondsPane::followTimer()
{
    if (m_live && isVisible())
        m_tick->start();
    else
        m_tick->stop();
}

void SecondsPane::refresh()
{
    // One read at a time: on a slow connection the ticks would queue a read a second ahead of the tab's other reads.
    if (m_reading)
        return;
    m_reading = true;
    m_reads.run<ThroughputRepository::Window>(
        this,
        [eventType = m_eventType](
            DbSession& session) { return ThroughputRepository(session).lastSeconds(WindowSeconds, eventType); },
        [this, eventType = m_eventType](const ThroughputRepository::Window& window) {
            m_reading = false;
            if (eventType != m_eventType) {
                refresh(); // another type was chosen meanwhile
                return;
            }
            present(window);
            emit refreshed({});
        },
        [this](const OutboxError& error) {
            m_reading = false;
            // The chart keeps what it showed; the caption says why it is not current.
            m_caption->setText(tr("Could not read the last seconds: %1").arg(error.message()));
            emit refreshed(error.message());
        });
}

void SecondsPane::present(const ThroughputRepository::Window& window)
{
    m_window = window;
    // The chart draws a bucket that ends after this instant as a part, apart from the line.
    m_chart->setPoints(window.points, 1, MetricsChart::displayZone(), window.completeUntil());
    if (window.runningRelays == 0) {
        m_caption->setText(tr("No relay is running: nothing is published or counted."));
    } else if (!window.countedUntil.isValid()) {
        m_caption->setText(tr("%n running relay(s), not all of which say how far they counted: every second shown may "
                              "still grow.",
            nullptr, window.runningRelays));
    } else {
        m_caption->setText(tr("Counted up to %1 by every running relay (%n relay(s)); later seconds are still being "
                              "counted and are drawn apart. Relays add their seconds once a second.",
            nullptr, window.runningRelays)
                               .arg(TimeFormatter::display(window.countedUntil)));
    }
}
