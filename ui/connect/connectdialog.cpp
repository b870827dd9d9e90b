// SPDX-License-Identifier: GPL-3.0-or-later
#include "connect/connectdialog.h"

#include "connect/passwordkeychain.h"
#include "db/outboxerror.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <initializer_list>

static const QStringList SslModes = { QStringLiteral("prefer"), QStringLiteral("disable"), QStringLiteral("allow"),
    QStringLiteral("require"), QStringLiteral("verify-ca"), QStringLiteral("verify-full") };

// Where libpq takes the value of an empty field from, so that an operator who relies on PGHOST or a service
// file sees that leaving it empty is fine, and what it will be.
static QString fallbackHint(const char* variable, const QString& libpqDefault)
{
    const QString value = qEnvironmentVariable(variable);
    const QString hint = value.isEmpty() ? ConnectDialog::tr("%1 (%2 unset)").arg(libpqDefault, QLatin1String(variable))
                                         : ConnectDialog::tr("%1 (from %2)").arg(value, QLatin1String(variable));
    const QString service = qEnvironmentVariable("PGSERVICE");
    // A service file's values come before the environment variables.
    return service.isEmpty() ? hint : ConnectDialog::tr("service %1, else %2").arg(service, hint);
}

static QFrame* separator()
{
    auto* line = new QFrame;
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Sunken);
    return line;
}

// libpq checks ports only when it connects, after the dialog has closed: catch a typo while it is still open.
static void checkPorts(const QString& ports)
{
    // One port, or one per host of a multi-host list, where an empty one means the default.
    for (const QString& entry : ports.split(QLatin1Char(','))) {
        const QString port = entry.trimmed();
        bool ok = false;
        const int number = port.toInt(&ok);
        if (!port.isEmpty() && (!ok || number < 1 || number > 65535)) {
            throw OutboxError(OutboxError::Kind::InvalidInput,
                ConnectDialog::tr("invalid port \"%1\": expected a number from 1 to 65535").arg(port));
        }
    }
}

ConnectDialog::ConnectDialog(const RecentConnections& recent, PasswordKeychain& keychain, QWidget* parent)
    : QDialog(parent)
    , m_recent(new QComboBox(this))
    , m_host(new QLineEdit(this))
    , m_port(new QLineEdit(this))
    , m_database(new QLineEdit(this))
    , m_user(new QLineEdit(this))
    , m_password(new QLineEdit(this))
    , m_remember(new QCheckBox(tr("Re&member the password in the keychain"), this))
    , m_forget(new QPushButton(tr("&Forget the stored password"), this))
    , m_sslMode(new QComboBox(this))
    , m_dsn(new QLineEdit(this))
    , m_error(new QLabel(this))
    , m_form(new QFormLayout)
    , m_keychain(keychain)
{
    setWindowTitle(tr("Connect to PostgreSQL"));
    // Names for style sheets, accessibility tools and tests.
    m_recent->setObjectName(QStringLiteral("recent"));
    m_host->setObjectName(QStringLiteral("host"));
    m_port->setObjectName(QStringLiteral("port"));
    m_database->setObjectName(QStringLiteral("database"));
    m_user->setObjectName(QStringLiteral("user"));
    m_password->setObjectName(QStringLiteral("password"));
    m_remember->setObjectName(QStringLiteral("rememberPassword"));
    m_forget->setObjectName(QStringLiteral("forgetPassword"));
    m_sslMode->setObjectName(QStringLiteral("sslMode"));
    m_dsn->setObjectName(QStringLiteral("dsn"));
    m_error->setObjectName(QStringLiteral("error"));

    for (const QString& entry : recent.entries()) {
        try {
            Conninfo::Options options = Conninfo::parseWithoutSecrets(entry);
            m_recent->addItem(Conninfo::displayName(options));
            m_recent->setItemData(m_recent->count() - 1,
                entry.isEmpty() ? tr("everything from the libpq environment") : entry, Qt::ToolTipRole);
            m_recentOptions.append(std::move(options));
        } catch (const OutboxError&) {
            // An entry edited by hand into something libpq rejects is not worth a complaint here.
        }
    }
    m_recent->setCurrentIndex(-1);
    m_recent->setPlaceholderText(m_recentOptions.isEmpty() ? tr("none yet") : tr("choose one to fill in the fields"));
    m_recent->setEnabled(!m_recentOptions.isEmpty());
    connect(m_recent, &QComboBox::activated, this, [this](int index) { fill(m_recentOptions.at(index)); });

    m_host->setPlaceholderText(fallbackHint("PGHOST", tr("local socket")));
    m_port->setPlaceholderText(fallbackHint("PGPORT", QStringLiteral("5432")));
    m_database->setPlaceholderText(fallbackHint("PGDATABASE", tr("same as the user")));
    m_user->setPlaceholderText(fallbackHint("PGUSER", tr("your login name")));
    m_password->setEchoMode(QLineEdit::Password);
    const QString passFile = qEnvironmentVariable("PGPASSFILE", QStringLiteral("~/.pgpass"));
    m_password->setPlaceholderText(qEnvironmentVariableIsEmpty("PGPASSWORD")
            ? tr("from %1 if needed (PGPASSWORD unset)").arg(passFile)
            : tr("from PGPASSWORD"));

    // The mode libpq would choose anyway is marked, and conninfo() leaves it out, so that a service file's
    // sslmode still applies.
    const QString sslModeVariable = qEnvironmentVariable("PGSSLMODE");
    m_defaultSslMode = SslModes.contains(sslModeVariable) ? sslModeVariable : SslModes.first();
    for (const QString& mode : SslModes) {
        if (mode != m_defaultSslMode)
            m_sslMode->addItem(mode, mode);
        else if (sslModeVariable.isEmpty())
            m_sslMode->addItem(tr("%1 (default)").arg(mode), mode);
        else
            m_sslMode->addItem(tr("%1 (from PGSSLMODE)").arg(mode), mode);
    }
    m_sslMode->setCurrentIndex(m_sslMode->findData(m_defaultSslMode));

    m_dsn->setPlaceholderText(tr("postgresql://user@host/db or host=… dbname=…"));
    m_dsn->setToolTip(tr("A libpq connection URI or key=value string, e.g. service=orders. "
                         "When it is set, the fields above are ignored."));
    m_dsn->setClearButtonEnabled(true);
    // Wide enough to read the placeholders, which say what an empty field stands for.
    for (QLineEdit* field : { m_host, m_port, m_database, m_user, m_password, m_dsn }) {
        const QFontMetrics metrics = field->fontMetrics();
        field->setMinimumWidth(metrics.horizontalAdvance(field->placeholderText()) + 2 * metrics.height());
    }
    connect(m_dsn, &QLineEdit::textChanged, this, &ConnectDialog::updateFieldsEnabled);

    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse); // to copy a server message into a ticket
    QPalette errorPalette = m_error->palette();
    errorPalette.setColor(QPalette::WindowText, QColor(0xc0, 0x1c, 0x28));
    m_error->setPalette(errorPalette);
    m_error->hide();

    // Unusable until the keychain has answered; the probe takes a D-Bus round trip, never the GUI thread's time.
    setKeychainAvailable(false, tr("asking the keychain…"));
    m_forget->setEnabled(false);
    connect(&m_keychain, &PasswordKeychain::availabilityKnown, this, &ConnectDialog::setKeychainAvailable);
    connect(&m_keychain, &PasswordKeychain::loaded, this, &ConnectDialog::showStoredPassword);
    connect(&m_keychain, &PasswordKeychain::notStored, this, &ConnectDialog::showNoStoredPassword);
    connect(&m_keychain, &PasswordKeychain::forgotten, this, &ConnectDialog::showNoStoredPassword);
    connect(&m_keychain, &PasswordKeychain::failed, this, [this](const QString& identity, const QString& message) {
        if (identity == m_chosenIdentity)
            setError(tr("Keychain: %1").arg(message));
    });
    connect(m_forget, &QPushButton::clicked, this, [this] {
        if (!m_storedIdentity.isEmpty())
            m_keychain.forget(m_storedIdentity);
    });
    m_keychain.probe();

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->addButton(tr("&Connect"), QDialogButtonBox::AcceptRole)->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ConnectDialog::reject);

    m_form->addRow(tr("&Recent:"), m_recent);
    m_form->addRow(separator());
    m_form->addRow(tr("&Host:"), m_host);
    m_form->addRow(tr("&Port:"), m_port);
    m_form->addRow(tr("&Database:"), m_database);
    m_form->addRow(tr("&User:"), m_user);
    m_form->addRow(tr("Pass&word:"), m_password);
    m_form->addRow(tr("SS&L mode:"), m_sslMode);
    m_form->addRow(separator());
    m_form->addRow(tr("&Or URI / DSN:"), m_dsn);
    // Below both: the password remembered is the field's or the one a pasted DSN holds.
    auto* keychainRow = new QHBoxLayout;
    keychainRow->addWidget(m_remember);
    keychainRow->addWidget(m_forget);
    keychainRow->addStretch();
    m_form->addRow(QString(), keychainRow);
    // Created beside the password field, tabbed to where they are shown.
    setTabOrder(m_dsn, m_remember);
    setTabOrder(m_remember, m_forget);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(m_form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
}

QString ConnectDialog::conninfo() const
{
    if (usesDsn())
        return m_dsn->text().trimmed();
    Conninfo::Options options;
    const auto add = [&options](const char* keyword, const QString& value) {
        if (!value.isEmpty())
            options.append({ QLatin1String(keyword), value });
    };
    add("host", m_host->text().trimmed());
    add("port", m_port->text().trimmed());
    add("dbname", m_database->text().trimmed());
    add("user", m_user->text().trimmed());
    add("password", m_password->text()); // untrimmed: a space may be part of it
    const QString sslMode = m_sslMode->currentData().toString();
    if (sslMode != m_defaultSslMode)
        add("sslmode", sslMode);
    return Conninfo::compose(options);
}

ConnectionSettings ConnectDialog::settings() const
{
    if (!usesDsn())
        checkPorts(m_port->text());
    return ConnectionSettings::fromDsn(conninfo());
}

QString ConnectDialog::displayName() const
{
    try {
        return Conninfo::displayName(Conninfo::parseWithoutSecrets(conninfo()));
    } catch (const OutboxError&) {
        return {};
    }
}

QString ConnectDialog::password() const
{
    try {
        for (const Conninfo::Option& option : Conninfo::parse(conninfo())) {
            if (option.keyword == QLatin1String("password"))
                return option.value;
        }
    } catch (const OutboxError&) { }
    return {};
}

bool ConnectDialog::rememberPassword() const
{
    return m_keychainAvailable && m_remember->isChecked();
}

void ConnectDialog::setKeychainAvailable(bool available, const QString& reason)
{
    m_keychainAvailable = available;
    m_remember->setEnabled(available);
    if (!available)
        m_remember->setChecked(false);
    // A recent connection chosen before the keychain answered gets its password now.
    if (available && !m_chosenIdentity.isEmpty() && m_storedIdentity.isEmpty())
        m_keychain.load(m_chosenIdentity);
    m_remember->setToolTip(available
            ? tr("Kept in the desktop's keychain (Secret Service) under this connection, never in the settings file")
            : tr("No keychain is available, so the password cannot be remembered: %1").arg(reason));
}

void ConnectDialog::showStoredPassword(const QString& identity, const QString& password)
{
    if (identity != m_chosenIdentity)
        return;
    m_password->setText(password);
    m_remember->setChecked(true);
    m_storedIdentity = identity;
    m_forget->setEnabled(true);
}

void ConnectDialog::showNoStoredPassword(const QString& identity)
{
    if (identity != m_chosenIdentity)
        return;
    if (identity == m_storedIdentity)
        m_password->clear(); // it came from the keychain, which no longer has it
    m_storedIdentity.clear();
    m_remember->setChecked(false);
    m_forget->setEnabled(false);
}

void ConnectDialog::setConninfo(const QString& conninfo)
{
    m_dsn->setText(conninfo);
}

void ConnectDialog::setError(const QString& message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

void ConnectDialog::accept()
{
    try {
        settings(); // the main window asks again when it connects; here it only has to parse
    } catch (const OutboxError& error) {
        setError(error.message());
        return;
    }
    setError({});
    QDialog::accept();
}

bool ConnectDialog::usesDsn() const
{
    return !m_dsn->text().trimmed().isEmpty();
}

void ConnectDialog::updateFieldsEnabled()
{
    const bool enabled = !usesDsn();
    for (QWidget* field :
        std::initializer_list<QWidget*> { m_host, m_port, m_database, m_user, m_password, m_sslMode }) {
        field->setEnabled(enabled);
        m_form->labelForField(field)->setEnabled(enabled);
    }
}

void ConnectDialog::fill(const Conninfo::Options& options)
{
    QHash<QString, QString> values;
    for (const auto& [keyword, value] : options)
        values.insert(keyword, value);
    static const QStringList fieldKeywords = { QStringLiteral("host"), QStringLiteral("port"), QStringLiteral("dbname"),
        QStringLiteral("user"), QStringLiteral("sslmode") };
    const bool fitsFields = SslModes.contains(values.value(QStringLiteral("sslmode"), m_defaultSslMode))
        && std::all_of(
            options.begin(), options.end(), [](const auto& option) { return fieldKeywords.contains(option.first); });

    // Entries have no password, and the one typed for the previous connection is not for this one: the keychain's,
    // if it has one, arrives as showStoredPassword().
    m_password->clear();
    m_storedIdentity.clear();
    m_forget->setEnabled(false);
    m_remember->setChecked(false);
    m_chosenIdentity = Conninfo::compose(options);
    if (m_keychainAvailable)
        m_keychain.load(m_chosenIdentity);
    m_dsn->setText(fitsFields ? QString() : Conninfo::compose(options));
    m_host->setText(fitsFields ? values.value(QStringLiteral("host")) : QString());
    m_port->setText(fitsFields ? values.value(QStringLiteral("port")) : QString());
    m_database->setText(fitsFields ? values.value(QStringLiteral("dbname")) : QString());
    m_user->setText(fitsFields ? values.value(QStringLiteral("user")) : QString());
    const QString sslMode = fitsFields ? values.value(QStringLiteral("sslmode"), m_defaultSslMode) : m_defaultSslMode;
    m_sslMode->setCurrentIndex(m_sslMode->findData(sslMode));
    setError({});
}
