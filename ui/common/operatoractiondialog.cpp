// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/operatoractiondialog.h"

#include "core/timeformatter.h"

#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

static constexpr int ListedIds = 1000;

OperatorActionDialog::OperatorActionDialog(
    const QString& verb, const QList<qint64>& ids, const QString& guard, QWidget* parent, Subject subject)
    : QDialog(parent)
    , m_notice(new QLabel(this))
    , m_reason(new QLineEdit(this))
    , m_when(new QWidget(this))
    , m_later(new QRadioButton(tr("&Later, at"), m_when))
    , m_dueAt(new QDateTimeEdit(m_when))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    const int count = int(ids.size());
    const bool relays = subject == Subject::Relays;
    setWindowTitle(
        (relays ? tr("%1 %n relay(s)", nullptr, count) : tr("%1 %n outbox row(s)", nullptr, count)).arg(verb));
    auto* layout = new QVBoxLayout(this);
    auto* summary = new QLabel(
        (relays ? tr("<b>%1 %n relay(s).</b> %2", nullptr, count) : tr("<b>%1 %n row(s).</b> %2", nullptr, count))
            .arg(verb, guard.toHtmlEscaped()),
        this);
    summary->setWordWrap(true);
    layout->addWidget(summary);
    m_notice->setWordWrap(true);
    m_notice->setTextFormat(Qt::PlainText);
    m_notice->setObjectName(QStringLiteral("notice"));
    m_notice->hide();
    layout->addWidget(m_notice);

    QStringList listed;
    for (qsizetype i = 0; i < qMin<qsizetype>(ids.size(), ListedIds); ++i)
        listed.append(QString::number(ids.at(i)));
    QString idText = listed.join(QStringLiteral(", "));
    if (ids.size() > ListedIds)
        idText += tr(" … and %n more", nullptr, int(ids.size() - ListedIds));
    auto* idList = new QPlainTextEdit(idText, this);
    idList->setReadOnly(true);
    idList->setMaximumHeight(120);
    layout->addWidget(new QLabel(tr("Ids:"), this));
    layout->addWidget(idList);

    auto* reasonLabel = new QLabel(tr("&Reason (recorded in the audit log):"), this);
    reasonLabel->setBuddy(m_reason);
    m_reason->setObjectName(QStringLiteral("reason"));
    m_reason->setPlaceholderText(tr("e.g. broker fixed after incident 4711"));
    layout->addWidget(reasonLabel);
    layout->addWidget(m_reason);

    // When: now, or later (after a fix is deployed, outside the consumers' busy hour). Shown by offerLater().
    auto* when = new QHBoxLayout(m_when);
    when->setContentsMargins(0, 0, 0, 0);
    auto* now = new QRadioButton(tr("&Now"), m_when);
    now->setChecked(true);
    when->addWidget(new QLabel(tr("When:"), m_when));
    when->addWidget(now);
    when->addWidget(m_later);
    m_dueAt->setCalendarPopup(true);
    m_dueAt->setDisplayFormat(TimeFormatter::pickerFormat(QLocale()));
    m_dueAt->setEnabled(false);
    when->addWidget(m_dueAt);
    when->addStretch(1);
    connect(m_later, &QRadioButton::toggled, m_dueAt, &QWidget::setEnabled);
    m_when->hide();
    layout->addWidget(m_when);

    QPushButton* ok = m_buttons->button(QDialogButtonBox::Ok);
    ok->setText((relays ? tr("%1 %n relay(s)", nullptr, count) : tr("%1 %n row(s)", nullptr, count)).arg(verb));
    ok->setEnabled(false);
    connect(m_reason, &QLineEdit::textChanged, this,
        [ok](const QString& text) { ok->setEnabled(!text.trimmed().isEmpty()); });
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);
    m_reason->setFocus();
    resize(520, sizeHint().height());
}

void OperatorActionDialog::setNotice(const QString& text, bool warning)
{
    m_noticeIsWarning = warning;
    m_notice->setText(warning ? QStringLiteral("⚠ ") + text : text);
    // Fixed colours, like the connection banner's: the warning must read the same on light and dark palettes.
    m_notice->setStyleSheet(warning ? QStringLiteral("background: #b58900; color: black; padding: 6px;") : QString());
    m_notice->setVisible(!text.isEmpty());
    resize(width(), sizeHint().height());
}

QString OperatorActionDialog::notice() const
{
    return m_notice->isHidden() ? QString() : m_notice->text();
}

void OperatorActionDialog::offerLater()
{
    // An hour from now, on the minute: a time the operator adjusts rather than types.
    const QDateTime now = QDateTime::currentDateTime();
    const QDateTime inAnHour = now.addSecs(3600);
    m_dueAt->setDateTime(QDateTime(inAnHour.date(), QTime(inAnHour.time().hour(), inAnHour.time().minute())));
    m_dueAt->setMinimumDateTime(now);
    m_when->show();
    resize(width(), sizeHint().height());
}

QDateTime OperatorActionDialog::dueAt() const
{
    // Asked after the dialog closed, when nothing in it is visible: whether it was offered at all.
    return !m_when->isHidden() && m_later->isChecked() ? m_dueAt->dateTime().toUTC() : QDateTime();
}

QString OperatorActionDialog::reason() const
{
    return m_reason->text().trimmed();
}
