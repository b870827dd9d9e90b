// SPDX-License-Identifier: GPL-3.0-or-later
#include "messages/messagelogview.h"

#include "core/timeformatter.h"
#include "messages/messagelog.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

MessageLogView::MessageLogView(MessageLog* log, QWidget* parent)
    : QWidget(parent)
    , m_log(log)
    , m_table(new QTableView(this))
{
    m_table->setModel(log);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(true);
    m_table->setTextElideMode(Qt::ElideNone);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    // Every row as tall as its wrapped text: the full message, whatever the panel's width.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // As wide as any time in the console's language: sized to its contents, the wrapped column measured its text
    // narrower than it is drawn and put "UTC" on a line of its own.
    const int widestTime = TimeFormatter::widestDisplayWidth(m_table->fontMetrics());
    m_table->horizontalHeader()->setSectionResizeMode(MessageLog::Time, QHeaderView::Interactive);
    m_table->setColumnWidth(MessageLog::Time,
        qMax(widestTime + 4 * m_table->fontMetrics().averageCharWidth(),
            m_table->horizontalHeader()->sectionSizeHint(MessageLog::Time)));
    m_table->horizontalHeader()->setSectionResizeMode(MessageLog::Text, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(MessageLog::Rows, QHeaderView::ResizeToContents);
    m_table->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_table->setToolTip(tr("Every message of this session; click “Show … rows” to open the rows it concerns"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table);

    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (index.column() == MessageLog::Rows)
            activate(index);
    });
    connect(m_table, &QTableView::activated, this, &MessageLogView::activate);
    // Follows the newest message, unless the operator scrolled up to read an older one. The range grows only once
    // the new row has its height, so it is the range change that scrolls.
    QScrollBar* bar = m_table->verticalScrollBar();
    connect(bar, &QScrollBar::valueChanged, this, [this, bar](int value) { m_following = value == bar->maximum(); });
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int maximum) {
        if (m_following)
            bar->setValue(maximum);
    });
}

QSize MessageLogView::sizeHint() const
{
    // About six messages of one line: enough to read the last few without taking the lists' room.
    return { 800, fontMetrics().height() * 10 };
}

void MessageLogView::activate(const QModelIndex& index)
{
    const QList<qint64> ids = m_log->data(index, MessageLog::RowIdsRole).value<QList<qint64>>();
    if (!ids.isEmpty())
        emit showRows(ids);
}
