// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/editcontentdialog.h"

#include "core/databaseclient.h"
#include "operations/jsonsyntax.h"
#include "operations/linediff.h"
#include "operations/outboxoperator.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTextEdit>
#include <QVBoxLayout>

static constexpr int DiffContext = 3;

static QPlainTextEdit* jsonEditor(const QString& text, QWidget* parent)
{
    auto* editor = new QPlainTextEdit(text, parent);
    editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    editor->setTabChangesFocus(true);
    return editor;
}

// A page of the dialog: a column that starts with `intro`, added to `pages`.
static QVBoxLayout* addPage(QStackedWidget* pages, const QString& intro)
{
    auto* page = new QWidget(pages);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(intro, page);
    label->setWordWrap(true);
    layout->addWidget(label);
    pages->addWidget(page);
    return layout;
}

EditContentDialog::EditContentDialog(DatabaseClient& actions, const ContentEditPreview& row, QWidget* parent)
    : QDialog(parent)
    , m_actions(actions)
    , m_row(row)
    , m_pages(new QStackedWidget(this))
    , m_editors(new QTabWidget(this))
    , m_payload(jsonEditor(row.current.payload, this))
    , m_headers(jsonEditor(row.current.headers, this))
    , m_problem(new QLabel(this))
    , m_review(new QPushButton(tr("Re&view changes…"), this))
    , m_difference(new QTextEdit(this))
    , m_reason(new QLineEdit(this))
    , m_back(new QPushButton(tr("&Back"), this))
    , m_confirm(new QPushButton(tr("&Edit and retry"), this))
{
    setWindowTitle(tr("Edit and retry row %1").arg(row.id));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_pages);

    // The editors.
    QVBoxLayout* editLayout = addPage(m_pages,
        tr("Row %1 is %2. Change what it carries to its consumers; once you confirm, it goes back to pending with the "
           "new content and a fresh attempt budget. Its event type, aggregate and keys stay.")
            .arg(row.id)
            .arg(OutboxStatusNames.name(row.status)));
    m_editors->addTab(m_payload, tr("&Payload"));
    m_editors->addTab(m_headers, tr("&Headers"));
    editLayout->addWidget(m_editors, 1);
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText);
    editLayout->addWidget(m_problem);

    // The difference and the reason.
    QVBoxLayout* reviewLayout = addPage(m_pages,
        tr("The difference as the database will store it. The row is edited only if it is still failed, dead or "
           "discarded and still carries what you edited when the action runs; otherwise nothing is written and you are "
           "told."));
    m_difference->setReadOnly(true);
    m_difference->setObjectName(QStringLiteral("difference"));
    reviewLayout->addWidget(m_difference, 1);
    auto* reasonLabel = new QLabel(tr("&Reason (recorded in the audit log with both versions):"), this);
    reasonLabel->setBuddy(m_reason);
    m_reason->setPlaceholderText(tr("e.g. amount sent as text by the old client, fixed by hand"));
    reviewLayout->addWidget(reasonLabel);
    reviewLayout->addWidget(m_reason);

    auto* buttons = new QDialogButtonBox(this);
    buttons->addButton(m_back, QDialogButtonBox::ResetRole);
    buttons->addButton(m_review, QDialogButtonBox::ActionRole);
    buttons->addButton(m_confirm, QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    layout->addWidget(buttons);

    connect(m_payload, &QPlainTextEdit::textChanged, this, &EditContentDialog::checkSyntax);
    connect(m_headers, &QPlainTextEdit::textChanged, this, &EditContentDialog::checkSyntax);
    connect(m_review, &QPushButton::clicked, this, &EditContentDialog::review);
    connect(m_back, &QPushButton::clicked, this, [this] {
        m_pages->setCurrentIndex(0);
        checkSyntax();
    });
    connect(m_reason, &QLineEdit::textChanged, this, &EditContentDialog::checkSyntax);
    connect(m_confirm, &QPushButton::clicked, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    checkSyntax();
    m_payload->setFocus();
    resize(720, 520);
}

QString EditContentDialog::reason() const
{
    return m_reason->text().trimmed();
}

QString EditContentDialog::problem() const
{
    return m_problem->isHidden() ? QString() : m_problem->text();
}

bool EditContentDialog::isReviewing() const
{
    return m_pages->currentIndex() == 1;
}

QString EditContentDialog::differenceText() const
{
    return m_difference->toPlainText();
}

void EditContentDialog::showProblem(const QString& text)
{
    m_problem->setText(text);
    // Fixed colours, like the action dialog's warning: they must read the same on light and dark palettes.
    m_problem->setStyleSheet(
        text.isEmpty() ? QString() : QStringLiteral("background: #b58900; color: black; padding: 6px;"));
    m_problem->setVisible(!text.isEmpty());
}

void EditContentDialog::checkSyntax()
{
    const bool reviewing = isReviewing();
    m_back->setVisible(reviewing);
    m_review->setVisible(!reviewing);
    m_confirm->setVisible(reviewing);
    m_confirm->setEnabled(reviewing && !reason().isEmpty());
    if (reviewing)
        return;
    QString problem;
    if (const auto payload = JsonSyntax::check(m_payload->toPlainText()))
        problem = tr("Payload: %1").arg(syntaxProblemText(*payload));
    else if (const auto headers = JsonSyntax::check(m_headers->toPlainText()))
        problem = tr("Headers: %1").arg(syntaxProblemText(*headers));
    else if (m_payload->toPlainText() == m_row.current.payload && m_headers->toPlainText() == m_row.current.headers)
        problem = tr("Nothing is changed yet.");
    showProblem(problem);
    m_review->setEnabled(problem.isEmpty() && !m_reviewRunning);
}

QString EditContentDialog::syntaxProblemText(const JsonSyntax::Problem& problem)
{
    switch (problem.kind) {
    case JsonSyntax::Problem::Kind::Empty:
        return tr("empty: a JSON value is required, e.g. {} or null");
    case JsonSyntax::Problem::Kind::SeveralValues:
        return tr("more than one JSON value: put them in an array or object");
    case JsonSyntax::Problem::Kind::Syntax:
        break;
    }
    return tr("line %1, column %2: %3").arg(problem.line).arg(problem.column).arg(problem.reason);
}

void EditContentDialog::review()
{
    m_reviewRunning = true;
    m_review->setEnabled(false);
    const qint64 id = m_row.id;
    const QString payload = m_payload->toPlainText();
    const QString headers = m_headers->toPlainText();
    m_actions.run<ContentEditPreview>(
        this,
        [id, payload, headers](
            DbSession& session) { return OutboxOperator(session).previewEdit(id, payload, headers); },
        [this](const ContentEditPreview& preview) {
            m_reviewRunning = false;
            showReview(preview);
            emit reviewFinished();
        },
        [this](const OutboxError& error) {
            m_reviewRunning = false;
            checkSyntax();
            showProblem(error.message());
            emit reviewFinished();
        });
}

void EditContentDialog::showReview(const ContentEditPreview& preview)
{
    if (!preview.editable()) {
        checkSyntax();
        showProblem(tr("Row %1 is %2 by now: only failed, dead or discarded rows can be edited.")
                        .arg(preview.id)
                        .arg(OutboxStatusNames.name(preview.status)));
        return;
    }
    // The guard the edit is applied under is the content the operator started from, not what Review read: another
    // edit made meanwhile would otherwise be reverted without a word.
    if (preview.current != m_row.current) {
        checkSyntax();
        showProblem(tr("Row %1 was changed while you edited it: its payload or headers are not what you started from. "
                       "Cancel and open it again to edit what it carries now.")
                        .arg(preview.id));
        return;
    }
    if (!preview.changesSomething()) {
        checkSyntax();
        showProblem(tr("The database would store exactly what the row carries now: the edit changes only the layout. "
                       "To publish the row as it is, retry it."));
        return;
    }
    m_reviewed = preview;
    m_difference->setHtml(differenceHtml(preview));
    m_pages->setCurrentIndex(1);
    checkSyntax();
    m_reason->setFocus();
}

QString EditContentDialog::differenceHtml(const ContentEditPreview& preview)
{
    QString html;
    const auto section = [&html](const QString& title, const QString& before, const QString& after) {
        const LineDiff diff(before, after);
        html += QStringLiteral("<p><b>%1</b></p>").arg(title.toHtmlEscaped());
        if (diff.isEmpty()) {
            html += QStringLiteral("<p>%1</p>").arg(tr("unchanged").toHtmlEscaped());
            return;
        }
        html += QStringLiteral("<pre>");
        // The marks say it without colour too; the colours are fixed, with black text, for any palette.
        for (const QString& line : diff.unified(DiffContext)) {
            const QString escaped = line.toHtmlEscaped();
            if (line.startsWith(QLatin1String("- ")))
                html += QStringLiteral("<span style=\"background:#ffd7d5;color:black\">%1</span>\n").arg(escaped);
            else if (line.startsWith(QLatin1String("+ ")))
                html += QStringLiteral("<span style=\"background:#ccffd8;color:black\">%1</span>\n").arg(escaped);
            else
                html += escaped + QLatin1Char('\n');
        }
        html += QStringLiteral("</pre>");
    };
    section(tr("Payload"), preview.current.payload, preview.proposed.payload);
    section(tr("Headers"), preview.current.headers, preview.proposed.headers);
    return html;
}
