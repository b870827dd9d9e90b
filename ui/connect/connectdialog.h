// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "connect/recentconnections.h"
#include "db/connectionsettings.h"
#include "db/conninfo.h"

#include <QDialog>

class PasswordKeychain;
class QCheckBox;
class QComboBox;
class QPushButton;
class QFormLayout;
class QLabel;
class QLineEdit;

// Asks where to connect: host, port, database, user, password and SSL mode, a pasted URI or key=value DSN,
// or one of the recent connections. Empty fields leave the value to libpq's environment. The dialog only
// validates: the main window connects on its worker thread, so the GUI never waits for the network, and
// reports a failure back with setError() before showing the dialog again. A recent connection whose password is in
// the keychain fills the password in; "Remember" asks the main window to store it once the connection works.
class ConnectDialog final : public QDialog {
    Q_OBJECT
public:
    ConnectDialog(const RecentConnections& recent, PasswordKeychain& keychain, QWidget* parent = nullptr);

    // The DSN field (without surrounding blanks, which pasting tends to bring), or a key=value string of the
    // filled fields. It holds the password: give it to RecentConnections::remember() once connected (which
    // drops the password), never to a log.
    QString conninfo() const;
    // What conninfo() describes, parsed by libpq. Throws OutboxError(InvalidInput) naming what is wrong.
    ConnectionSettings settings() const;
    // "user@host:port/db", never with the password; empty while the input is invalid.
    QString displayName() const;

    // The password typed, or the one a pasted DSN holds; empty if none.
    QString password() const;
    // Whether to keep the password in the keychain once connected; false while no keychain answers.
    bool rememberPassword() const;
    bool keychainAvailable() const { return m_keychainAvailable; }

    // Puts `conninfo` (a --dsn that failed, say) in the DSN field as it was given, to be corrected, not retyped.
    void setConninfo(const QString& conninfo);
    // Shows `message` (a connect failure, say) above the buttons; an empty one hides the error line.
    void setError(const QString& message);

    // Closes the dialog only for valid input; otherwise the error line says what is wrong.
    void accept() final override;

private:
    bool usesDsn() const;
    void updateFieldsEnabled();
    void fill(const Conninfo::Options& options);
    void setKeychainAvailable(bool available, const QString& reason);
    void showStoredPassword(const QString& identity, const QString& password);
    void showNoStoredPassword(const QString& identity);

    QComboBox* m_recent;
    QLineEdit* m_host;
    QLineEdit* m_port;
    QLineEdit* m_database;
    QLineEdit* m_user;
    QLineEdit* m_password;
    QCheckBox* m_remember;
    QPushButton* m_forget;
    QComboBox* m_sslMode;
    QLineEdit* m_dsn;
    QLabel* m_error;
    QFormLayout* m_form;
    QString m_defaultSslMode; // not passed on, so PGSSLMODE or a service file still decides
    QList<Conninfo::Options> m_recentOptions; // parallel to m_recent's items
    PasswordKeychain& m_keychain;
    bool m_keychainAvailable = false;
    QString m_chosenIdentity; // the recent connection last chosen; keychain answers for others are stale
    QString m_storedIdentity; // the one whose password came from the keychain (Forget removes it)
};
