// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "metrics/throughputrepository.h"

#include <QWidget>

class DatabaseClient;
class MetricsChart;
class QLabel;
class QTimer;

// The live view of the Event types tab: what the relays published and failed in each of the last five minutes'
// seconds, of one event type or of all, read again every second while the pane is shown and live updates are on.
// Seconds that some running relay has not counted yet are drawn apart (the chart's "so far" dot), never as a drop
// in the rate, and the caption says up to when the seconds are complete, or that no relay runs.
class SecondsPane final : public QWidget {
    Q_OBJECT
public:
    static constexpr int WindowSeconds = 300;

    explicit SecondsPane(DatabaseClient& reads, QWidget* parent = nullptr);

    // The event type to show; empty: all.
    void setEventType(const QString& eventType);
    const QString& eventType() const { return m_eventType; }
    // Off while the console's live updates are paused: the pane keeps what it shows.
    void setLive(bool live);
    // Whether it reads again every second now (shown, and live).
    bool isFollowing() const;
    void refresh();

    const ThroughputRepository::Window& window() const { return m_window; }
    MetricsChart* chart() const { return m_chart; }
    QLabel* caption() const { return m_caption; }

signals:
    // A read finished (shown, or failed with `error` non-empty).
    void refreshed(const QString& error);

protected:
    void showEvent(QShowEvent* event) final override;
    void hideEvent(QHideEvent* event) final override;

private:
    void present(const ThroughputRepository::Window& window);
    void followTimer();

    DatabaseClient& m_reads;
    bool m_reading = false; // a read is on its way
    MetricsChart* m_chart;
    QLabel* m_caption;
    QTimer* m_tick;
    QString m_eventType;
    ThroughputRepository::Window m_window;
    bool m_live = true;
};
