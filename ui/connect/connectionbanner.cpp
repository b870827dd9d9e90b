// SPDX-License-Identifier: GPL-3.0-or-later
#include "connect/connectionbanner.h"

#include "core/timeformatter.h"

#include <QTimer>

ConnectionBanner::ConnectionBanner(QWidget* parent)
    : QLabel(parent)
    , m_hideRestored(new QTimer(this))
{
    m_hideRestored->setSingleShot(true);
    connect(m_hideRestored, &QTimer::timeout, this, &QWidget::hide);
    setWordWrap(true);
    setMargin(8);
    setAutoFillBackground(true);
    hide();
}

void ConnectionBanner::showWarning(const QString& text)
{
    m_hideRestored->stop();
    // Fixed colours: the warning must read the same on light and dark palettes.
    setStyleSheet(QStringLiteral("background: #b58900; color: black;"));
    setText(text);
    show();
}

QString ConnectionBanner::lostSince() const
{
    return TimeFormatter::display(m_lostAt);
}

void ConnectionBanner::showLost(const QString& message)
{
    if (!m_lostAt.isValid())
        m_lostAt = QDateTime::currentDateTime();
    showWarning(tr("<b>Connection to the database lost</b> — %1. Reconnecting… The lists resume when the "
                   "connection is back. Operator actions commit batch by batch: repeat an interrupted one to finish "
                   "it; rows it already moved are left alone.")
                    .arg(message.toHtmlEscaped()));
}

void ConnectionBanner::showUnreachable(const QString& message, int nextAttemptInMs)
{
    if (!m_lostAt.isValid())
        m_lostAt = QDateTime::currentDateTime();
    // Whole seconds, rounded up: "in 0 s" while an attempt is still ahead would read as a hang.
    const int nextAttemptInSeconds = (nextAttemptInMs + 999) / 1000;
    showWarning(
        tr("<b>The database is unreachable</b> since %1 — %2. Next attempt in %3 s. The lists show what "
           "they showed at %1 and resume when the connection is back; repeat an interrupted operator action to finish "
           "it.")
            .arg(lostSince(), message.toHtmlEscaped(), QString::number(nextAttemptInSeconds)));
}

void ConnectionBanner::showRestored()
{
    m_lostAt = QDateTime();
    // A change of server stays the news for a while: a connection that was idle on the old server may notice its
    // loss only after the others came back (a cut link: at its TCP user timeout), and when it is back too, what
    // the operator should read is still that the database failed over.
    const qint64 serverChangeLeftMs = m_serverChange.isEmpty() ? 0 : ServerChangedMs - m_serverChangedAt.elapsed();
    if (serverChangeLeftMs <= 0)
        m_serverChange.clear();
    if (isHidden() && m_serverChange.isEmpty())
        return;
    setStyleSheet(QStringLiteral("background: #859900; color: black;"));
    if (m_serverChange.isEmpty()) {
        setText(tr("<b>Reconnected.</b>"));
        m_hideRestored->start(RestoredMs);
    } else {
        setText(m_serverChange);
        m_hideRestored->start(int(serverChangeLeftMs));
    }
    show();
}

void ConnectionBanner::noteServerChanged(const QString& before, const QString& after)
{
    m_serverChange = tr("<b>Reconnected to another server</b>, %1 (was %2): the database failed over. The lists "
                        "show the new server's rows.")
                         .arg(after.toHtmlEscaped(), before.toHtmlEscaped());
    m_serverChangedAt.start();
}

void ConnectionBanner::dismiss()
{
    m_lostAt = QDateTime();
    m_serverChange.clear();
    m_hideRestored->stop();
    hide();
}
