// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class ArgumentParser;
class DbSession;

// --signature, as list, requeue and failures take it: a failure group's id (12 hex digits, as `outboxctl failures`
// shows it) or the signature's full text.
namespace SignatureOption {

// The signature that `--signature` names; an id no current failure group has is a usage error.
QString resolve(const ArgumentParser& parser, DbSession& session);

} // namespace SignatureOption
