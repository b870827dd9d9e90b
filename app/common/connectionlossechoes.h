// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Qt's PostgreSQL driver warns once per prepared statement when a session whose connection is gone closes
// ("Unable to free statement: no connection to the server"): dozens of lines for one outage, which the program
// has already reported once in its own words (DbSession::echoesALostConnection).
namespace ConnectionLossEchoes {

// Drops those messages from Qt's message handling; every other message goes to the handler installed before.
void dropFromQtMessages();

} // namespace ConnectionLossEchoes
