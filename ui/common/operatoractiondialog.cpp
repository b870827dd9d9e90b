// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/operatoractiondialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

static constexpr int ListedIds = 1000;

OperatorActionDialog::OperatorActionDialog(
    const QString& verb, const QList<qint64>& ids, const QString& guard, QWidget* parent)
    : QDialog(parent)
    , m_notice(new QLabel(this))
    , m_reason(new QLineEdit(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("%1 %n outbox row(s)", nullptr, int(ids.size())).arg(verb));
    auto* layout = new QVBoxLayout(this);
    auto* summary
        = new QLabel(tr("<b>%1 %n row(s).</b> %2", nullptr, int(ids.size())).arg(verb, guard.toHtmlEscaped()), this);
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
    m_reason->setPlaceholderText(tr("e.g. broker fixed after incident 4711"));
    layout->addWidget(reasonLabel);
    layout->addWidget(m_reason);

    QPushButton* ok = m_buttons->button(QDialogButtonBox::Ok);
    ok->setText(tr("%1 %n row(s)", nullptr, int(ids.size())).arg(verb));
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

QString OperatorActionDialog::reason() const
{
    return m_reason->text().trimmed();
}
