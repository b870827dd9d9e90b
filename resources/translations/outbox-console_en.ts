<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>AuditSubject</name>
    <message numerus="yes">
        <source>%n relay(s)</source>
        <translation>
            <numerusform>%n relay</numerusform>
            <numerusform>%n relays</numerusform>
        </translation>
    </message>
    <message>
        <source>relay %1</source>
        <translation>relay %1</translation>
    </message>
    <message>
        <source>event type %1</source>
        <translation>event type %1</translation>
    </message>
    <message numerus="yes">
        <source>%1, %Ln held row(s) let go</source>
        <translation>
            <numerusform>%1, %Ln held row let go</numerusform>
            <numerusform>%1, %Ln held rows let go</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln outbox row(s)</source>
        <translation>
            <numerusform>%Ln outbox row</numerusform>
            <numerusform>%Ln outbox rows</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AuditTableModel</name>
    <message>
        <source>When</source>
        <translation>When</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>Who</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Action</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>Rows</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Reason</translation>
    </message>
</context>
<context>
    <name>AuditView</name>
    <message>
        <source>Who (database user)</source>
        <translation>Who (database user)</translation>
    </message>
    <message>
        <source>From</source>
        <translation>From</translation>
    </message>
    <message>
        <source>&amp;Show rows</source>
        <translation>&amp;Show rows</translation>
    </message>
    <message>
        <source>Every action</source>
        <translation>Every action</translation>
    </message>
    <message>
        <source>Requeue</source>
        <translation>Requeue</translation>
    </message>
    <message>
        <source>Release lease</source>
        <translation>Release lease</translation>
    </message>
    <message>
        <source>Show every action</source>
        <translation>Show every action</translation>
    </message>
    <message>
        <source>Select an action to see its reason, its rows and their states.</source>
        <translation>Select an action to see its reason, its rows and their states.</translation>
    </message>
    <message>
        <source>Open the rows this action touched in the outbox list</source>
        <translation>Open the rows this action touched in the outbox list</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Discard</translation>
    </message>
    <message>
        <source>Edit and retry</source>
        <translation>Edit and retry</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>unchanged</translation>
    </message>
    <message>
        <source>Payload (- before, + after):</source>
        <translation>Payload (- before, + after):</translation>
    </message>
    <message>
        <source>Headers (- before, + after):</source>
        <translation>Headers (- before, + after):</translation>
    </message>
    <message>
        <source>Forget relay</source>
        <translation>Forget relay</translation>
    </message>
    <message>
        <source>From the failure group: %1</source>
        <translation>From the failure group: %1</translation>
    </message>
    <message>
        <source>Due at: %1</source>
        <translation>Due at: %1</translation>
    </message>
    <message>
        <source>Relay</source>
        <translation>Relay</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>Row</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Before</translation>
    </message>
    <message>
        <source>After</source>
        <translation>After</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… and %n more</numerusform>
            <numerusform>… and %n more</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 by %2 at %3 — %4
Reason: %5
</source>
        <translation>%1 by %2 at %3 — %4
Reason: %5
</translation>
    </message>
    <message>
        <source>Reading the edit…</source>
        <translation>Reading the edit…</translation>
    </message>
    <message>
        <source>The edit could not be read: %1</source>
        <translation>The edit could not be read: %1</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Resume</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more, being read</source>
        <translation>
            <numerusform>… and %n more, being read</numerusform>
            <numerusform>… and %n more, being read</numerusform>
        </translation>
    </message>
    <message>
        <source>The action&apos;s other rows could not be read: %1</source>
        <translation>The action&apos;s other rows could not be read: %1</translation>
    </message>
</context>
<context>
    <name>BulkActionRunner</name>
    <message numerus="yes">
        <source>%1 %n row(s)…</source>
        <translation>
            <numerusform>%1 %n row…</numerusform>
            <numerusform>%1 %n rows…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <source>%1 (%2 unset)</source>
        <translation>%1 (%2 unset)</translation>
    </message>
    <message>
        <source>%1 (from %2)</source>
        <translation>%1 (from %2)</translation>
    </message>
    <message>
        <source>service %1, else %2</source>
        <translation>service %1, else %2</translation>
    </message>
    <message>
        <source>invalid port &quot;%1&quot;: expected a number from 1 to 65535</source>
        <translation>invalid port &quot;%1&quot;: expected a number from 1 to 65535</translation>
    </message>
    <message>
        <source>Connect to PostgreSQL</source>
        <translation>Connect to PostgreSQL</translation>
    </message>
    <message>
        <source>everything from the libpq environment</source>
        <translation>everything from the libpq environment</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>none yet</translation>
    </message>
    <message>
        <source>choose one to fill in the fields</source>
        <translation>choose one to fill in the fields</translation>
    </message>
    <message>
        <source>local socket</source>
        <translation>local socket</translation>
    </message>
    <message>
        <source>same as the user</source>
        <translation>same as the user</translation>
    </message>
    <message>
        <source>your login name</source>
        <translation>your login name</translation>
    </message>
    <message>
        <source>from %1 if needed (PGPASSWORD unset)</source>
        <translation>from %1 if needed (PGPASSWORD unset)</translation>
    </message>
    <message>
        <source>from PGPASSWORD</source>
        <translation>from PGPASSWORD</translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation>%1 (default)</translation>
    </message>
    <message>
        <source>%1 (from PGSSLMODE)</source>
        <translation>%1 (from PGSSLMODE)</translation>
    </message>
    <message>
        <source>postgresql://user@host/db or host=… dbname=…</source>
        <translation>postgresql://user@host/db or host=… dbname=…</translation>
    </message>
    <message>
        <source>A libpq connection URI or key=value string, e.g. service=orders. When it is set, the fields above are ignored.</source>
        <translation>A libpq connection URI or key=value string, e.g. service=orders. When it is set, the fields above are ignored.</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>&amp;Connect</translation>
    </message>
    <message>
        <source>&amp;Recent:</source>
        <translation>&amp;Recent:</translation>
    </message>
    <message>
        <source>&amp;Host:</source>
        <translation>&amp;Host:</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation>&amp;Port:</translation>
    </message>
    <message>
        <source>&amp;Database:</source>
        <translation>&amp;Database:</translation>
    </message>
    <message>
        <source>&amp;User:</source>
        <translation>&amp;User:</translation>
    </message>
    <message>
        <source>Pass&amp;word:</source>
        <translation>Pass&amp;word:</translation>
    </message>
    <message>
        <source>SS&amp;L mode:</source>
        <translation>SS&amp;L mode:</translation>
    </message>
    <message>
        <source>&amp;Or URI / DSN:</source>
        <translation>&amp;Or URI / DSN:</translation>
    </message>
    <message>
        <source>Re&amp;member the password in the keychain</source>
        <translation>Re&amp;member the password in the keychain</translation>
    </message>
    <message>
        <source>&amp;Forget the stored password</source>
        <translation>&amp;Forget the stored password</translation>
    </message>
    <message>
        <source>asking the keychain…</source>
        <translation>asking the keychain…</translation>
    </message>
    <message>
        <source>Keychain: %1</source>
        <translation>Keychain: %1</translation>
    </message>
    <message>
        <source>Kept in the desktop&apos;s keychain (Secret Service) under this connection, never in the settings file</source>
        <translation>Kept in the desktop&apos;s keychain (Secret Service) under this connection, never in the settings file</translation>
    </message>
    <message>
        <source>No keychain is available, so the password cannot be remembered: %1</source>
        <translation>No keychain is available, so the password cannot be remembered: %1</translation>
    </message>
</context>
<context>
    <name>ConnectionBanner</name>
    <message>
        <source>&lt;b&gt;Reconnected.&lt;/b&gt;</source>
        <translation>&lt;b&gt;Reconnected.&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;The database is unreachable&lt;/b&gt; since %1 — %2. Next attempt in %3 s. The lists show what they showed at %1 and resume when the connection is back; repeat an interrupted operator action to finish it.</source>
        <translation>&lt;b&gt;The database is unreachable&lt;/b&gt; since %1 — %2. Next attempt in %3 s. The lists show what they showed at %1 and resume when the connection is back; repeat an interrupted operator action to finish it.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Connection to the database lost&lt;/b&gt; — %1. Reconnecting… The lists resume when the connection is back. Operator actions commit batch by batch: repeat an interrupted one to finish it; rows it already moved are left alone.</source>
        <translation>&lt;b&gt;Connection to the database lost&lt;/b&gt; — %1. Reconnecting… The lists resume when the connection is back. Operator actions commit batch by batch: repeat an interrupted one to finish it; rows it already moved are left alone.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Reconnected to another server&lt;/b&gt;, %1 (was %2): the database failed over. The lists show the new server&apos;s rows.</source>
        <translation>&lt;b&gt;Reconnected to another server&lt;/b&gt;, %1 (was %2): the database failed over. The lists show the new server&apos;s rows.</translation>
    </message>
</context>
<context>
    <name>ConsoleCommandLine</name>
    <message>
        <source>PostgreSQL URI or key=value connection string; without it a connection dialog opens.</source>
        <translation>PostgreSQL URI or key=value connection string; without it a connection dialog opens.</translation>
    </message>
    <message>
        <source>DSN</source>
        <translation>DSN</translation>
    </message>
    <message>
        <source>Start a private PostgreSQL and RabbitMQ, the orders service, a relay, a consumer and duplicate-heavy traffic, and open the console on them. Quitting removes it all.</source>
        <translation>Start a private PostgreSQL and RabbitMQ, the orders service, a relay, a consumer and duplicate-heavy traffic, and open the console on them. Quitting removes it all.</translation>
    </message>
    <message>
        <source>Like --demo, but keep the demo database in DIR (and reuse it next time).</source>
        <translation>Like --demo, but keep the demo database in DIR (and reuse it next time).</translation>
    </message>
    <message>
        <source>DIR</source>
        <translation>DIR</translation>
    </message>
    <message>
        <source>Print the manual page (roff), which the package installs.</source>
        <translation>Print the manual page (roff), which the package installs.</translation>
    </message>
    <message>
        <source>Inspect and repair idempotency keys and the transactional outbox.

Exit codes: 0 success, 1 the console could not start (no display, the demo failed), 2 bad usage.</source>
        <translation>Inspect and repair idempotency keys and the transactional outbox.

Exit codes: 0 success, 1 the console could not start (no display, the demo failed), 2 bad usage.</translation>
    </message>
    <message>
        <source>%1 (schema version %2)</source>
        <translation>%1 (schema version %2)</translation>
    </message>
    <message>
        <source>outbox-console: %1 (see &apos;outbox-console --help&apos;)</source>
        <translation>outbox-console: %1 (see &apos;outbox-console --help&apos;)</translation>
    </message>
    <message>
        <source>unexpected argument &apos;%1&apos;</source>
        <translation>unexpected argument &apos;%1&apos;</translation>
    </message>
</context>
<context>
    <name>DatabaseClient</name>
    <message>
        <source>not connected to the database (reconnecting)</source>
        <translation>not connected to the database (reconnecting)</translation>
    </message>
</context>
<context>
    <name>DemoConsole</name>
    <message>
        <source>%1 stopped:
%2</source>
        <translation>%1 stopped:
%2</translation>
    </message>
    <message>
        <source>Demo process ended</source>
        <translation>Demo process ended</translation>
    </message>
    <message>
        <source>the demo database</source>
        <translation>the demo database</translation>
    </message>
    <message>
        <source>The demo runs: orders flow through the outbox</source>
        <translation>The demo runs: orders flow through the outbox</translation>
    </message>
    <message>
        <source>Cannot start the demo</source>
        <translation>Cannot start the demo</translation>
    </message>
    <message>
        <source>Stopping the demo</source>
        <translation>Stopping the demo</translation>
    </message>
    <message>
        <source>Stopping the demo…</source>
        <translation>Stopping the demo…</translation>
    </message>
    <message>
        <source>Demo without RabbitMQ: %1</source>
        <translation>Demo without RabbitMQ: %1</translation>
    </message>
    <message>
        <source>&amp;Demo</source>
        <translation>&amp;Demo</translation>
    </message>
    <message>
        <source>&amp;Fix the routing of order.cancelled</source>
        <translation>&amp;Fix the routing of order.cancelled</translation>
    </message>
    <message>
        <source>Stop the &amp;broker for 30 s</source>
        <translation>Stop the &amp;broker for 30 s</translation>
    </message>
    <message>
        <source>&amp;Kill the relay (restarted after 5 s)</source>
        <translation>&amp;Kill the relay (restarted after 5 s)</translation>
    </message>
    <message>
        <source>&amp;Restart PostgreSQL (immediate stop)</source>
        <translation>&amp;Restart PostgreSQL (immediate stop)</translation>
    </message>
    <message>
        <source>Stop the &amp;consumer</source>
        <translation>Stop the &amp;consumer</translation>
    </message>
    <message>
        <source>S&amp;tart the consumer</source>
        <translation>S&amp;tart the consumer</translation>
    </message>
    <message>
        <source>Raise the queue &amp;limit</source>
        <translation>Raise the queue &amp;limit</translation>
    </message>
    <message>
        <source>About the &amp;demo</source>
        <translation>About the &amp;demo</translation>
    </message>
    <message>
        <source>&lt;b&gt;The demo&lt;/b&gt;&lt;p&gt;orders-service → outbox → relay (publisher confirms) → exchange %1 → queue %2 → consumer (inbox) → order counts. Order cancellations have no queue until the routing is fixed (Demo menu).&lt;/p&gt;</source>
        <translation>&lt;b&gt;The demo&lt;/b&gt;&lt;p&gt;orders-service → outbox → relay (publisher confirms) → exchange %1 → queue %2 → consumer (inbox) → order counts. Order cancellations have no queue until the routing is fixed (Demo menu).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>About the demo</source>
        <translation>About the demo</translation>
    </message>
</context>
<context>
    <name>DemoSystem</name>
    <message>
        <source>started without RabbitMQ: the relay publishes into a fault-injecting sink</source>
        <translation>started without RabbitMQ: the relay publishes into a fault-injecting sink</translation>
    </message>
    <message>
        <source>rabbitmq-server is not installed: the relay publishes into a fault-injecting sink</source>
        <translation>rabbitmq-server is not installed: the relay publishes into a fault-injecting sink</translation>
    </message>
    <message>
        <source>RabbitMQ did not start (%1): the relay publishes into a fault-injecting sink</source>
        <translation>RabbitMQ did not start (%1): the relay publishes into a fault-injecting sink</translation>
    </message>
    <message>
        <source>Routing fixed: queue %1 is bound for order.cancelled; retry the dead rows to publish them</source>
        <translation>Routing fixed: queue %1 is bound for order.cancelled; retry the dead rows to publish them</translation>
    </message>
    <message numerus="yes">
        <source>Broker stopped for %n second(s): rows wait, and drain when it is back</source>
        <translation>
            <numerusform>Broker stopped for %n second: rows wait, and drain when it is back</numerusform>
            <numerusform>Broker stopped for %n seconds: rows wait, and drain when it is back</numerusform>
        </translation>
    </message>
    <message>
        <source>Broker back after the outage</source>
        <translation>Broker back after the outage</translation>
    </message>
    <message numerus="yes">
        <source>The relay ended (%1); it is restarted in %n second(s)</source>
        <translation>
            <numerusform>The relay ended (%1); it is restarted in %n second</numerusform>
            <numerusform>The relay ended (%1); it is restarted in %n seconds</numerusform>
        </translation>
    </message>
    <message>
        <source>Relay restarted: it takes over the leases of the one before when they expire</source>
        <translation>Relay restarted: it takes over the leases of the one before when they expire</translation>
    </message>
    <message>
        <source>PostgreSQL stopped with -m immediate; every connection is cut</source>
        <translation>PostgreSQL stopped with -m immediate; every connection is cut</translation>
    </message>
    <message>
        <source>PostgreSQL is back after crash recovery</source>
        <translation>PostgreSQL is back after crash recovery</translation>
    </message>
    <message>
        <source>Queue %1 may hold 100,000 messages now; retry the refused rows</source>
        <translation>Queue %1 may hold 100,000 messages now; retry the refused rows</translation>
    </message>
    <message>
        <source>Consumer stopped: order.created events wait in queue %1; past %2 the broker refuses them</source>
        <translation>Consumer stopped: order.created events wait in queue %1; past %2 the broker refuses them</translation>
    </message>
    <message>
        <source>Consumer started: it drains queue %1, and its inbox drops what it applied before</source>
        <translation>Consumer started: it drains queue %1, and its inbox drops what it applied before</translation>
    </message>
    <message>
        <source>killed with SIGKILL from the Demo menu</source>
        <translation>killed with SIGKILL from the Demo menu</translation>
    </message>
    <message>
        <source>killed by a signal</source>
        <translation>killed by a signal</translation>
    </message>
    <message>
        <source>exit code %1; its last line: %2</source>
        <translation>exit code %1; its last line: %2</translation>
    </message>
    <message>
        <source>Starting PostgreSQL…</source>
        <translation>Starting PostgreSQL…</translation>
    </message>
    <message>
        <source>Creating the schema…</source>
        <translation>Creating the schema…</translation>
    </message>
    <message>
        <source>Starting RabbitMQ…</source>
        <translation>Starting RabbitMQ…</translation>
    </message>
    <message>
        <source>Starting the orders service, the consumer, the relay and the traffic…</source>
        <translation>Starting the orders service, the consumer, the relay and the traffic…</translation>
    </message>
    <message>
        <source>Starting the orders service, the relay and the traffic…</source>
        <translation>Starting the orders service, the relay and the traffic…</translation>
    </message>
    <message>
        <source>Stopping the demo&apos;s processes…</source>
        <translation>Stopping the demo&apos;s processes…</translation>
    </message>
    <message>
        <source>Stopping RabbitMQ…</source>
        <translation>Stopping RabbitMQ…</translation>
    </message>
    <message>
        <source>Stopping PostgreSQL…</source>
        <translation>Stopping PostgreSQL…</translation>
    </message>
</context>
<context>
    <name>EditContentDialog</name>
    <message>
        <source>Re&amp;view changes…</source>
        <translation>Re&amp;view changes…</translation>
    </message>
    <message>
        <source>&amp;Back</source>
        <translation>&amp;Back</translation>
    </message>
    <message>
        <source>&amp;Edit and retry</source>
        <translation>&amp;Edit and retry</translation>
    </message>
    <message>
        <source>Edit and retry row %1</source>
        <translation>Edit and retry row %1</translation>
    </message>
    <message>
        <source>Row %1 is %2. Change what it carries to its consumers; once you confirm, it goes back to pending with the new content and a fresh attempt budget. Its event type, aggregate and keys stay.</source>
        <translation>Row %1 is %2. Change what it carries to its consumers; once you confirm, it goes back to pending with the new content and a fresh attempt budget. Its event type, aggregate and keys stay.</translation>
    </message>
    <message>
        <source>&amp;Payload</source>
        <translation>&amp;Payload</translation>
    </message>
    <message>
        <source>&amp;Headers</source>
        <translation>&amp;Headers</translation>
    </message>
    <message>
        <source>The difference as the database will store it. The row is edited only if it is still failed, dead or discarded and still carries what you edited when the action runs; otherwise nothing is written and you are told.</source>
        <translation>The difference as the database will store it. The row is edited only if it is still failed, dead or discarded and still carries what you edited when the action runs; otherwise nothing is written and you are told.</translation>
    </message>
    <message>
        <source>&amp;Reason (recorded in the audit log with both versions):</source>
        <translation>&amp;Reason (recorded in the audit log with both versions):</translation>
    </message>
    <message>
        <source>e.g. amount sent as text by the old client, fixed by hand</source>
        <translation>e.g. amount sent as text by the old client, fixed by hand</translation>
    </message>
    <message>
        <source>Payload: %1</source>
        <translation>Payload: %1</translation>
    </message>
    <message>
        <source>Headers: %1</source>
        <translation>Headers: %1</translation>
    </message>
    <message>
        <source>Nothing is changed yet.</source>
        <translation>Nothing is changed yet.</translation>
    </message>
    <message>
        <source>empty: a JSON value is required, e.g. {} or null</source>
        <translation>empty: a JSON value is required, e.g. {} or null</translation>
    </message>
    <message>
        <source>more than one JSON value: put them in an array or object</source>
        <translation>more than one JSON value: put them in an array or object</translation>
    </message>
    <message>
        <source>line %1, column %2: %3</source>
        <translation>line %1, column %2: %3</translation>
    </message>
    <message>
        <source>Row %1 is %2 by now: only failed, dead or discarded rows can be edited.</source>
        <translation>Row %1 is %2 by now: only failed, dead or discarded rows can be edited.</translation>
    </message>
    <message>
        <source>The database would store exactly what the row carries now: the edit changes only the layout. To publish the row as it is, retry it.</source>
        <translation>The database would store exactly what the row carries now: the edit changes only the layout. To publish the row as it is, retry it.</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>unchanged</translation>
    </message>
    <message>
        <source>Payload</source>
        <translation>Payload</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>Headers</translation>
    </message>
    <message>
        <source>Row %1 was changed while you edited it: its payload or headers are not what you started from. Cancel and open it again to edit what it carries now.</source>
        <translation>Row %1 was changed while you edited it: its payload or headers are not what you started from. Cancel and open it again to edit what it carries now.</translation>
    </message>
</context>
<context>
    <name>EventTypesModel</name>
    <message>
        <source>At least %1: counting stops after %2 rows have been read, so that it stays cheap on large tables</source>
        <translation>At least %1: counting stops after %2 rows have been read, so that it stays cheap on large tables</translation>
    </message>
    <message>
        <source>%1+</source>
        <translation>%1+</translation>
    </message>
    <message>
        <source>Event type</source>
        <translation>Event type</translation>
    </message>
    <message>
        <source>Oldest unpublished</source>
        <translation>Oldest unpublished</translation>
    </message>
</context>
<context>
    <name>EventTypesView</name>
    <message>
        <source>Double-click a count to see those rows, or a name to see all rows of the type</source>
        <translation>Double-click a count to see those rows, or a name to see all rows of the type</translation>
    </message>
    <message>
        <source>The outbox holds no rows.</source>
        <translation>The outbox holds no rows.</translation>
    </message>
    <message numerus="yes">
        <source>%n event type(s), as of %1. Each count stops at %2 so that it stays cheap on large tables.</source>
        <translation>
            <numerusform>%n event type, as of %1. Each count stops at %2 so that it stays cheap on large tables.</numerusform>
            <numerusform>%n event types, as of %1. Each count stops at %2 so that it stays cheap on large tables.</numerusform>
        </translation>
    </message>
    <message>
        <source>Only the first %1 by name are listed.</source>
        <translation>Only the first %1 by name are listed.</translation>
    </message>
</context>
<context>
    <name>ExportRunner</name>
    <message>
        <source>Exporting rows to %1…</source>
        <translation>Exporting rows to %1…</translation>
    </message>
    <message>
        <source>Exporting metrics to %1…</source>
        <translation>Exporting metrics to %1…</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>cannot write %1: %2</translation>
    </message>
</context>
<context>
    <name>FailureGroupsModel</name>
    <message>
        <source>First seen %1
Last seen %2</source>
        <translation>First seen %1
Last seen %2</translation>
    </message>
    <message>
        <source>%1

For example (row %2):
%3</source>
        <translation>%1

For example (row %2):
%3</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>Rows</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Failed</translation>
    </message>
    <message>
        <source>Dead</source>
        <translation>Dead</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>Last seen</translation>
    </message>
    <message>
        <source>Event types</source>
        <translation>Event types</translation>
    </message>
    <message>
        <source>Cause (error signature)</source>
        <translation>Cause (error signature)</translation>
    </message>
    <message>
        <source>%1+ rows</source>
        <translation>%1+ rows</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s)</source>
        <translation>
            <numerusform>%n row</numerusform>
            <numerusform>%n rows</numerusform>
        </translation>
    </message>
    <message>
        <source>%1+ keys</source>
        <translation>%1+ keys</translation>
    </message>
    <message numerus="yes">
        <source>%n key(s)</source>
        <translation>
            <numerusform>%n key</numerusform>
            <numerusform>%n keys</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 of %2</translation>
    </message>
    <message>
        <source>Holds back</source>
        <translation>Holds back</translation>
    </message>
    <message>
        <source>The group&apos;s dead rows with an ordering key each block their key: the key&apos;s later rows wait until the dead row is retried or discarded. Counted up to %1.</source>
        <translation>The group&apos;s dead rows with an ordering key each block their key: the key&apos;s later rows wait until the dead row is retried or discarded. Counted up to %1.</translation>
    </message>
</context>
<context>
    <name>FailuresView</name>
    <message>
        <source>&amp;Show rows</source>
        <translation>&amp;Show rows</translation>
    </message>
    <message>
        <source>&amp;Retry group…</source>
        <translation>&amp;Retry group…</translation>
    </message>
    <message>
        <source>Failed and dead</source>
        <translation>Failed and dead</translation>
    </message>
    <message>
        <source>Failed (retry scheduled)</source>
        <translation>Failed (retry scheduled)</translation>
    </message>
    <message>
        <source>Dead</source>
        <translation>Dead</translation>
    </message>
    <message>
        <source>Which rows to group</source>
        <translation>Which rows to group</translation>
    </message>
    <message>
        <source>Select a group to see an example of its error.</source>
        <translation>Select a group to see an example of its error.</translation>
    </message>
    <message>
        <source>Open the group&apos;s rows in the outbox list</source>
        <translation>Open the group&apos;s rows in the outbox list</translation>
    </message>
    <message>
        <source>Requeue every row of the group, as it is when you confirm, with a reason for the audit log</source>
        <translation>Requeue every row of the group, as it is when you confirm, with a reason for the audit log</translation>
    </message>
    <message>
        <source>No failed or dead rows.</source>
        <translation>No failed or dead rows.</translation>
    </message>
    <message numerus="yes">
        <source>%1 rows in %n group(s)</source>
        <translation>
            <numerusform>%1 rows in %n group</numerusform>
            <numerusform>%1 rows in %n groups</numerusform>
        </translation>
    </message>
    <message>
        <source>Cause: %1
Group id: %2 (outboxctl requeue --signature %2)
Event types: %3
First seen %4, last seen %5

Example, row %6:
%7</source>
        <translation>Cause: %1
Group id: %2 (outboxctl requeue --signature %2)
Event types: %3
First seen %4, last seen %5

Example, row %6:
%7</translation>
    </message>
    <message>
        <source>Dis&amp;card group…</source>
        <translation>Dis&amp;card group…</translation>
    </message>
    <message>
        <source>Give up on every row of the group, as it is when you confirm: not published, the later rows of their ordering keys flow again, and Retry brings them back</source>
        <translation>Give up on every row of the group, as it is when you confirm: not published, the later rows of their ordering keys flow again, and Retry brings them back</translation>
    </message>
    <message>
        <source>

Its dead rows block their ordering keys: %1 wait behind them until they are retried or discarded (outboxctl discard --signature %2).</source>
        <translation>

Its dead rows block their ordering keys: %1 wait behind them until they are retried or discarded (outboxctl discard --signature %2).</translation>
    </message>
</context>
<context>
    <name>KeyDetailPane</name>
    <message>
        <source>In progress: a request with this key is executing; duplicates are refused (409) until its lease ends at %1.</source>
        <translation>In progress: a request with this key is executing; duplicates are refused (409) until its lease ends at %1.</translation>
    </message>
    <message>
        <source>In progress, but its lease expired at %1 (the worker presumably crashed): the next request with this key takes it over.</source>
        <translation>In progress, but its lease expired at %1 (the worker presumably crashed): the next request with this key takes it over.</translation>
    </message>
    <message>
        <source>Expired at %1: the next request with this key is treated as new.</source>
        <translation>Expired at %1: the next request with this key is treated as new.</translation>
    </message>
    <message>
        <source>Failed, retryable (released): the next request with this key executes again.</source>
        <translation>Failed, retryable (released): the next request with this key executes again.</translation>
    </message>
    <message>
        <source>Failed, final: repeats of the request get the stored failure until %1.</source>
        <translation>Failed, final: repeats of the request get the stored failure until %1.</translation>
    </message>
    <message>
        <source>Completed: repeats of the request get the stored response until %1.</source>
        <translation>Completed: repeats of the request get the stored response until %1.</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Field</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Value</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Event</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Created</translation>
    </message>
    <message>
        <source>Response</source>
        <translation>Response</translation>
    </message>
    <message>
        <source>Outbox rows</source>
        <translation>Outbox rows</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>Record</translation>
    </message>
    <message>
        <source>Select an idempotency key to see its stored response and the outbox rows of its order.</source>
        <translation>Select an idempotency key to see its stored response and the outbox rows of its order.</translation>
    </message>
    <message>
        <source>Loading key %1…</source>
        <translation>Loading key %1…</translation>
    </message>
    <message>
        <source>Could not load key %1: %2</source>
        <translation>Could not load key %1: %2</translation>
    </message>
    <message>
        <source>Key %1 no longer exists (purged).</source>
        <translation>Key %1 no longer exists (purged).</translation>
    </message>
    <message>
        <source> · response %1</source>
        <translation> · response %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (scope %2) · %3%4&lt;br&gt;fingerprint &lt;code&gt;%5&lt;/code&gt;&lt;br&gt;%6</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (scope %2) · %3%4&lt;br&gt;fingerprint &lt;code&gt;%5&lt;/code&gt;&lt;br&gt;%6</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Scope</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Key</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>Fingerprint</translation>
    </message>
    <message>
        <source>Lease until</source>
        <translation>Lease until</translation>
    </message>
    <message>
        <source>Expires (TTL)</source>
        <translation>Expires (TTL)</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Updated</translation>
    </message>
    <message>
        <source>Replays</source>
        <translation>Replays</translation>
    </message>
    <message>
        <source>Last replay</source>
        <translation>Last replay</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>Order</translation>
    </message>
    <message>
        <source>none</source>
        <translation>none</translation>
    </message>
    <message>
        <source>(no response stored yet: the request has not finished)</source>
        <translation>(no response stored yet: the request has not finished)</translation>
    </message>
    <message>
        <source>Outbox rows (%1)</source>
        <translation>Outbox rows (%1)</translation>
    </message>
    <message>
        <source>Response (%1 · %2)</source>
        <translation>Response (%1 · %2)</translation>
    </message>
    <message>
        <source>Show its outbox rows</source>
        <translation>Show its outbox rows</translation>
    </message>
    <message>
        <source>Open in the Outbox tab the rows this key&apos;s request wrote</source>
        <translation>Open in the Outbox tab the rows this key&apos;s request wrote</translation>
    </message>
</context>
<context>
    <name>KeysTableModel</name>
    <message>
        <source>Scope</source>
        <translation>Scope</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Key</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>Fingerprint</translation>
    </message>
    <message>
        <source>Replays</source>
        <translation>Replays</translation>
    </message>
    <message>
        <source>Last replay</source>
        <translation>Last replay</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Created</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Expires</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>Order</translation>
    </message>
    <message>
        <source>Response</source>
        <translation>Response</translation>
    </message>
    <message>
        <source> (released)</source>
        <translation> (released)</translation>
    </message>
    <message>
        <source> (final)</source>
        <translation> (final)</translation>
    </message>
</context>
<context>
    <name>KeysView</name>
    <message>
        <source>Key starts with</source>
        <translation>Key starts with</translation>
    </message>
    <message>
        <source>Created from</source>
        <translation>Created from</translation>
    </message>
    <message>
        <source>Show every key</source>
        <translation>Show every key</translation>
    </message>
    <message>
        <source>Keys beginning with this text, exactly as typed (% and _ are not wildcards)</source>
        <translation>Keys beginning with this text, exactly as typed (% and _ are not wildcards)</translation>
    </message>
    <message>
        <source>Copy key</source>
        <translation>Copy key</translation>
    </message>
    <message>
        <source>Copy fingerprint</source>
        <translation>Copy fingerprint</translation>
    </message>
    <message>
        <source>Show only status “%1”</source>
        <translation>Show only status “%1”</translation>
    </message>
    <message>
        <source>Show only keys starting with “%1”</source>
        <translation>Show only keys starting with “%1”</translation>
    </message>
    <message>
        <source>Show its outbox rows</source>
        <translation>Show its outbox rows</translation>
    </message>
    <message>
        <source>Open in the Outbox tab the rows the selected key&apos;s request wrote</source>
        <translation>Open in the Outbox tab the rows the selected key&apos;s request wrote</translation>
    </message>
    <message>
        <source>The outbox rows key “%1” wrote are no longer there (purged)</source>
        <translation>The outbox rows key “%1” wrote are no longer there (purged)</translation>
    </message>
</context>
<context>
    <name>ListViewSetup</name>
    <message>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <source>Stop this search on the server</source>
        <translation>Stop this search on the server</translation>
    </message>
    <message>
        <source> · scroll for more</source>
        <translation> · scroll for more</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>Searching…</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Loading…</translation>
    </message>
    <message numerus="yes">
        <source>Search cancelled · %n row(s) loaded · F5 searches again</source>
        <translation>
            <numerusform>Search cancelled · %n row loaded · F5 searches again</numerusform>
            <numerusform>Search cancelled · %n rows loaded · F5 searches again</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) loaded%1</source>
        <translation>
            <numerusform>%n row loaded%1</numerusform>
            <numerusform>%n rows loaded%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Clear</translation>
    </message>
    <message>
        <source>Copy as &amp;JSON</source>
        <translation>Copy as &amp;JSON</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Outbox Console</source>
        <translation>Outbox Console</translation>
    </message>
    <message>
        <source>&amp;Overview</source>
        <translation>&amp;Overview</translation>
    </message>
    <message>
        <source>O&amp;utbox</source>
        <translation>O&amp;utbox</translation>
    </message>
    <message>
        <source>&amp;Idempotency keys</source>
        <translation>&amp;Idempotency keys</translation>
    </message>
    <message>
        <source>&amp;Metrics</source>
        <translation>&amp;Metrics</translation>
    </message>
    <message>
        <source>Metrics exported to %1</source>
        <translation>Metrics exported to %1</translation>
    </message>
    <message>
        <source>Export metrics</source>
        <translation>Export metrics</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation>&amp;Connect…</translation>
    </message>
    <message>
        <source>&amp;Export list…</source>
        <translation>&amp;Export list…</translation>
    </message>
    <message>
        <source>Every row matching the outbox or key filter, as CSV or JSON lines</source>
        <translation>Every row matching the outbox or key filter, as CSV or JSON lines</translation>
    </message>
    <message>
        <source>Export &amp;metrics CSV…</source>
        <translation>Export &amp;metrics CSV…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quit</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;View</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Refresh</translation>
    </message>
    <message>
        <source>&amp;Filter</source>
        <translation>&amp;Filter</translation>
    </message>
    <message>
        <source>Times in &amp;UTC</source>
        <translation>Times in &amp;UTC</translation>
    </message>
    <message>
        <source>&amp;Auto-refresh</source>
        <translation>&amp;Auto-refresh</translation>
    </message>
    <message numerus="yes">
        <source>Every %n second(s)</source>
        <translation>
            <numerusform>Every %n second</numerusform>
            <numerusform>Every %n seconds</numerusform>
        </translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Off</translation>
    </message>
    <message>
        <source>&amp;Stuck threshold…</source>
        <translation>&amp;Stuck threshold…</translation>
    </message>
    <message>
        <source>&amp;Actions</source>
        <translation>&amp;Actions</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Help</translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation>&amp;About</translation>
    </message>
    <message>
        <source>About Outbox Console</source>
        <translation>About Outbox Console</translation>
    </message>
    <message>
        <source>&lt;b&gt;Outbox Console %1&lt;/b&gt;&lt;p&gt;Inspect and repair idempotency keys and the transactional outbox on PostgreSQL.&lt;/p&gt;&lt;p&gt;GPL-3.0-or-later.&lt;/p&gt;</source>
        <translation>&lt;b&gt;Outbox Console %1&lt;/b&gt;&lt;p&gt;Inspect and repair idempotency keys and the transactional outbox on PostgreSQL.&lt;/p&gt;&lt;p&gt;GPL-3.0-or-later.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>Connecting to %1…</translation>
    </message>
    <message>
        <source>Not connected — File → Connect…</source>
        <translation>Not connected — File → Connect…</translation>
    </message>
    <message>
        <source>%1@%2/%3 — Outbox Console</source>
        <translation>%1@%2/%3 — Outbox Console</translation>
    </message>
    <message>
        <source>%1 · database %2 · user %3 · schema v%4 · PostgreSQL %5</source>
        <translation>%1 · database %2 · user %3 · schema v%4 · PostgreSQL %5</translation>
    </message>
    <message>
        <source>May requeue rows and release leases</source>
        <translation>May requeue rows and release leases</translation>
    </message>
    <message>
        <source>Stuck threshold</source>
        <translation>Stuck threshold</translation>
    </message>
    <message>
        <source>Pending or failed rows due for longer than this many minutes count as stuck:</source>
        <translation>Pending or failed rows due for longer than this many minutes count as stuck:</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV files (*.csv);;All files (*)</translation>
    </message>
    <message>
        <source>Export idempotency keys</source>
        <translation>Export idempotency keys</translation>
    </message>
    <message>
        <source>Export outbox rows</source>
        <translation>Export outbox rows</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;JSON lines (*.jsonl)</source>
        <translation>CSV files (*.csv);;JSON lines (*.jsonl)</translation>
    </message>
    <message>
        <source>Export cancelled; %1 was not written</source>
        <translation>Export cancelled; %1 was not written</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n row(s) to %1</source>
        <translation>
            <numerusform>Exported %n row to %1</numerusform>
            <numerusform>Exported %n rows to %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export failed</translation>
    </message>
    <message>
        <source>The password is stored in the keychain</source>
        <translation>The password is stored in the keychain</translation>
    </message>
    <message>
        <source>The keychain no longer holds this connection&apos;s password</source>
        <translation>The keychain no longer holds this connection&apos;s password</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>Open &amp;recent</translation>
    </message>
    <message>
        <source>F&amp;orget the stored password</source>
        <translation>F&amp;orget the stored password</translation>
    </message>
    <message>
        <source>Removes this connection&apos;s password from the keychain</source>
        <translation>Removes this connection&apos;s password from the keychain</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Language</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>System language</translation>
    </message>
    <message>
        <source>The console will use %1 from its next start.</source>
        <translation>The console will use %1 from its next start.</translation>
    </message>
    <message>
        <source>No recent connections</source>
        <translation>No recent connections</translation>
    </message>
    <message>
        <source>Reading the password from the keychain…</source>
        <translation>Reading the password from the keychain…</translation>
    </message>
    <message>
        <source>Keychain: %1</source>
        <translation>Keychain: %1</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>Messages</translation>
    </message>
    <message>
        <source>Could not connect: %1</source>
        <translation>Could not connect: %1</translation>
    </message>
    <message>
        <source>Export metrics: %1</source>
        <translation>Export metrics: %1</translation>
    </message>
    <message>
        <source>&amp;Messages</source>
        <translation>&amp;Messages</translation>
    </message>
    <message>
        <source>Every message of this session, with its time and the rows it concerns</source>
        <translation>Every message of this session, with its time and the rows it concerns</translation>
    </message>
    <message>
        <source>Connection to the database lost: %1. Reconnecting…</source>
        <translation>Connection to the database lost: %1. Reconnecting…</translation>
    </message>
    <message>
        <source>Connection to the database restored</source>
        <translation>Connection to the database restored</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>Export failed: %1</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>Forget</translation>
    </message>
    <message>
        <source>Each relay is removed from the registry only if it still does not run when the action runs; one that heartbeats again is left alone. A forgotten relay that starts again registers anew.</source>
        <translation>Each relay is removed from the registry only if it still does not run when the action runs; one that heartbeats again is left alone. A forgotten relay that starts again registers anew.</translation>
    </message>
    <message numerus="yes">
        <source>Forgot %n relay(s)</source>
        <translation>
            <numerusform>Forgot %n relay</numerusform>
            <numerusform>Forgot %n relays</numerusform>
        </translation>
    </message>
    <message>
        <source>Forget failed</source>
        <translation>Forget failed</translation>
    </message>
    <message numerus="yes">
        <source>, %n left alone (running again, or forgotten already)</source>
        <translation>
            <numerusform>, %n left alone (running again, or forgotten already)</numerusform>
            <numerusform>, %n left alone (running again, or forgotten already)</numerusform>
        </translation>
    </message>
    <message>
        <source>Paused %1</source>
        <translation>Paused %1</translation>
    </message>
    <message>
        <source>Paused already: nothing changed</source>
        <translation>Paused already: nothing changed</translation>
    </message>
    <message>
        <source>Pause failed</source>
        <translation>Pause failed</translation>
    </message>
    <message>
        <source>%1 was not paused any more: nothing changed</source>
        <translation>%1 was not paused any more: nothing changed</translation>
    </message>
    <message numerus="yes">
        <source>Resumed %1: %n held row(s) let go</source>
        <translation>
            <numerusform>Resumed %1: %n held row let go</numerusform>
            <numerusform>Resumed %1: %n held rows let go</numerusform>
        </translation>
    </message>
    <message>
        <source>Resumed %1</source>
        <translation>Resumed %1</translation>
    </message>
    <message>
        <source>Resume failed</source>
        <translation>Resume failed</translation>
    </message>
    <message>
        <source>no relay of that name is registered: check the name (a relay that starts under it will be paused)</source>
        <translation>no relay of that name is registered: check the name (a relay that starts under it will be paused)</translation>
    </message>
    <message>
        <source>no outbox row has that event type: check the name (rows that arrive with it will be held)</source>
        <translation>no outbox row has that event type: check the name (rows that arrive with it will be held)</translation>
    </message>
    <message>
        <source>Live updates paused — F5 re-reads</source>
        <translation>Live updates paused — F5 re-reads</translation>
    </message>
    <message>
        <source>&amp;Pause live updates</source>
        <translation>&amp;Pause live updates</translation>
    </message>
    <message>
        <source>Change notifications and the auto-refresh no longer re-read the lists and the Overview; F5 still does</source>
        <translation>Change notifications and the auto-refresh no longer re-read the lists and the Overview; F5 still does</translation>
    </message>
    <message>
        <source>Fai&amp;lures</source>
        <translation>Fai&amp;lures</translation>
    </message>
    <message>
        <source>Audi&amp;t</source>
        <translation>Audi&amp;t</translation>
    </message>
    <message>
        <source>Event t&amp;ypes</source>
        <translation>Event t&amp;ypes</translation>
    </message>
    <message>
        <source>Times in l&amp;ocal time</source>
        <translation>Times in l&amp;ocal time</translation>
    </message>
    <message>
        <source>%1 (schema version %2)</source>
        <translation>%1 (schema version %2)</translation>
    </message>
    <message>
        <source>The connection goes through a transaction-pooling proxy, which cannot keep the LISTEN that brings each change at once, so the console re-reads on a timer (View ▸ Auto-refresh). Connect directly, or through a session-mode pool with OUTBOX_POOLING=none, for immediate updates.</source>
        <translation>The connection goes through a transaction-pooling proxy, which cannot keep the LISTEN that brings each change at once, so the console re-reads on a timer (View ▸ Auto-refresh). Connect directly, or through a session-mode pool with OUTBOX_POOLING=none, for immediate updates.</translation>
    </message>
    <message numerus="yes">
        <source>Updates every %n second(s): through a connection pooler</source>
        <translation>
            <numerusform>Updates every %n second: through a connection pooler</numerusform>
            <numerusform>Updates every %n seconds: through a connection pooler</numerusform>
        </translation>
    </message>
    <message>
        <source>Reconnected to another server, %1 (was %2): the database failed over</source>
        <translation>Reconnected to another server, %1 (was %2): the database failed over</translation>
    </message>
</context>
<context>
    <name>MessageLog</name>
    <message numerus="yes">
        <source>Show %n row(s)</source>
        <translation>
            <numerusform>Show %n row</numerusform>
            <numerusform>Show %n rows</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (×%2)</source>
        <translation>%1 (×%2)</translation>
    </message>
    <message>
        <source>Opens these rows in the Outbox tab</source>
        <translation>Opens these rows in the Outbox tab</translation>
    </message>
    <message>
        <source>Time (this computer)</source>
        <translation>Time (this computer)</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Message</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>Rows</translation>
    </message>
</context>
<context>
    <name>MessageLogView</name>
    <message>
        <source>Every message of this session; click “Show … rows” to open the rows it concerns</source>
        <translation>Every message of this session; click “Show … rows” to open the rows it concerns</translation>
    </message>
</context>
<context>
    <name>MetricThresholds</name>
    <message>
        <source>duplicate hit rate %1 % &gt; %2 %</source>
        <translation>duplicate hit rate %1 % &gt; %2 %</translation>
    </message>
    <message>
        <source>retry rate %1 % &gt; %2 %</source>
        <translation>retry rate %1 % &gt; %2 %</translation>
    </message>
    <message>
        <source>oldest pending %1 s &gt; %2 s</source>
        <translation>oldest pending %1 s &gt; %2 s</translation>
    </message>
</context>
<context>
    <name>MetricsChart</name>
    <message>
        <source>%1 – %2 (%3)</source>
        <translation>%1 – %2 (%3)</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Save chart</source>
        <translation>Save chart</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG images (*.png)</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>Cannot write %1.</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>Reset zoom</translation>
    </message>
    <message>
        <source>Save as PNG…</source>
        <translation>Save as PNG…</translation>
    </message>
    <message>
        <source>No data in this window</source>
        <translation>No data in this window</translation>
    </message>
    <message>
        <source>%1 (so far)</source>
        <translation>%1 (so far)</translation>
    </message>
    <message>
        <source>Unfinished bucket: counts so far</source>
        <translation>Unfinished bucket: counts so far</translation>
    </message>
</context>
<context>
    <name>MetricsPage</name>
    <message>
        <source>%1 d</source>
        <translation>%1 d</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>Last 15 minutes</source>
        <translation>Last 15 minutes</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>Last hour</translation>
    </message>
    <message>
        <source>Last 6 hours</source>
        <translation>Last 6 hours</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>Last 24 hours</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>Last 7 days</translation>
    </message>
    <message>
        <source>Custom range</source>
        <translation>Custom range</translation>
    </message>
    <message>
        <source>Reset &amp;zoom</source>
        <translation>Reset &amp;zoom</translation>
    </message>
    <message>
        <source>Drag across a chart to zoom into a time range; this shows the whole window again</source>
        <translation>Drag across a chart to zoom into a time range; this shows the whole window again</translation>
    </message>
    <message>
        <source>Window:</source>
        <translation>Window:</translation>
    </message>
    <message>
        <source>Duplicate requests</source>
        <translation>Duplicate requests</translation>
    </message>
    <message>
        <source>hit rate (%)</source>
        <translation>hit rate (%)</translation>
    </message>
    <message>
        <source>per bucket</source>
        <translation>per bucket</translation>
    </message>
    <message>
        <source>duplicate hit rate</source>
        <translation>duplicate hit rate</translation>
    </message>
    <message>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>requests</translation>
    </message>
    <message>
        <source>replays</source>
        <translation>replays</translation>
    </message>
    <message>
        <source>mismatches (422)</source>
        <translation>mismatches (422)</translation>
    </message>
    <message>
        <source>in progress (409)</source>
        <translation>in progress (409)</translation>
    </message>
    <message>
        <source>warning level</source>
        <translation>warning level</translation>
    </message>
    <message>
        <source>Outbox lag</source>
        <translation>Outbox lag</translation>
    </message>
    <message>
        <source>oldest pending (s)</source>
        <translation>oldest pending (s)</translation>
    </message>
    <message>
        <source>backlog (rows)</source>
        <translation>backlog (rows)</translation>
    </message>
    <message>
        <source>publish latency (ms)</source>
        <translation>publish latency (ms)</translation>
    </message>
    <message>
        <source>oldest pending age</source>
        <translation>oldest pending age</translation>
    </message>
    <message>
        <source>s</source>
        <translation>s</translation>
    </message>
    <message>
        <source>backlog</source>
        <translation>backlog</translation>
    </message>
    <message>
        <source>latency p50</source>
        <translation>latency p50</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>latency p95</source>
        <translation>latency p95</translation>
    </message>
    <message>
        <source>latency p99</source>
        <translation>latency p99</translation>
    </message>
    <message>
        <source>Retries</source>
        <translation>Retries</translation>
    </message>
    <message>
        <source>retry rate (%)</source>
        <translation>retry rate (%)</translation>
    </message>
    <message>
        <source>retry rate</source>
        <translation>retry rate</translation>
    </message>
    <message>
        <source>dead-letters</source>
        <translation>dead-letters</translation>
    </message>
    <message>
        <source>lease rescues</source>
        <translation>lease rescues</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>Throughput</translation>
    </message>
    <message>
        <source>created</source>
        <translation>created</translation>
    </message>
    <message>
        <source>published</source>
        <translation>published</translation>
    </message>
    <message>
        <source>consumed</source>
        <translation>consumed</translation>
    </message>
    <message>
        <source>consumer duplicates</source>
        <translation>consumer duplicates</translation>
    </message>
    <message numerus="yes">
        <source>%1 buckets · %n point(s)</source>
        <translation>
            <numerusform>%1 buckets · %n point</numerusform>
            <numerusform>%1 buckets · %n points</numerusform>
        </translation>
    </message>
    <message>
        <source>⚠ Above warning level: %1</source>
        <translation>⚠ Above warning level: %1</translation>
    </message>
    <message>
        <source>✔ Latest figures within their warning levels</source>
        <translation>✔ Latest figures within their warning levels</translation>
    </message>
    <message>
        <source>Warning levels</source>
        <translation>Warning levels</translation>
    </message>
    <message>
        <source>Oldest pending age above</source>
        <translation>Oldest pending age above</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Duplicate hit rate above</source>
        <translation>Duplicate hit rate above</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>Retry rate above</source>
        <translation>Retry rate above</translation>
    </message>
    <message>
        <source>Rates are judged on the last complete bucket: the figures of the bucket still being filled are lighter dots beside the lines until it closes.</source>
        <translation>Rates are judged on the last complete bucket: the figures of the bucket still being filled are lighter dots beside the lines until it closes.</translation>
    </message>
    <message>
        <source>&amp;Warning levels…</source>
        <translation>&amp;Warning levels…</translation>
    </message>
</context>
<context>
    <name>OperatorActionDialog</name>
    <message numerus="yes">
        <source>%1 %n outbox row(s)</source>
        <translation>
            <numerusform>%1 %n outbox row</numerusform>
            <numerusform>%1 %n outbox rows</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1 %n row(s).&lt;/b&gt; %2</source>
        <translation>
            <numerusform>&lt;b&gt;%1 %n row.&lt;/b&gt; %2</numerusform>
            <numerusform>&lt;b&gt;%1 %n rows.&lt;/b&gt; %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> … and %n more</source>
        <translation>
            <numerusform> … and %n more</numerusform>
            <numerusform> … and %n more</numerusform>
        </translation>
    </message>
    <message>
        <source>Ids:</source>
        <translation>Ids:</translation>
    </message>
    <message>
        <source>&amp;Reason (recorded in the audit log):</source>
        <translation>&amp;Reason (recorded in the audit log):</translation>
    </message>
    <message>
        <source>e.g. broker fixed after incident 4711</source>
        <translation>e.g. broker fixed after incident 4711</translation>
    </message>
    <message numerus="yes">
        <source>%1 %n row(s)</source>
        <translation>
            <numerusform>%1 %n row</numerusform>
            <numerusform>%1 %n rows</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Later, at</source>
        <translation>&amp;Later, at</translation>
    </message>
    <message>
        <source>&amp;Now</source>
        <translation>&amp;Now</translation>
    </message>
    <message>
        <source>When:</source>
        <translation>When:</translation>
    </message>
    <message numerus="yes">
        <source>%1 %n relay(s)</source>
        <translation>
            <numerusform>%1 %n relay</numerusform>
            <numerusform>%1 %n relays</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1 %n relay(s).&lt;/b&gt; %2</source>
        <translation>
            <numerusform>&lt;b&gt;%1 %n relay.&lt;/b&gt; %2</numerusform>
            <numerusform>&lt;b&gt;%1 %n relays.&lt;/b&gt; %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OutboxDetailPane</name>
    <message>
        <source>Time</source>
        <translation>Time</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>Attempt</translation>
    </message>
    <message>
        <source>Worker</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Error</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>Who</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Action</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Reason</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Change</translation>
    </message>
    <message>
        <source>Payload</source>
        <translation>Payload</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>Headers</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>Last error</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Attempts</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>Audit</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>Origin</translation>
    </message>
    <message>
        <source>Select an outbox row to see its payload, errors and history.</source>
        <translation>Select an outbox row to see its payload, errors and history.</translation>
    </message>
    <message>
        <source>Loading row %1…</source>
        <translation>Loading row %1…</translation>
    </message>
    <message>
        <source>Could not load row %1: %2</source>
        <translation>Could not load row %1: %2</translation>
    </message>
    <message>
        <source>Row %1 no longer exists (purged).</source>
        <translation>Row %1 no longer exists (purged).</translation>
    </message>
    <message>
        <source> · leased to %1 until %2</source>
        <translation> · leased to %1 until %2</translation>
    </message>
    <message>
        <source> · published %1</source>
        <translation> · published %1</translation>
    </message>
    <message>
        <source>(no error)</source>
        <translation>(no error)</translation>
    </message>
    <message>
        <source>Attempts (%1)</source>
        <translation>Attempts (%1)</translation>
    </message>
    <message>
        <source>Audit (%1)</source>
        <translation>Audit (%1)</translation>
    </message>
    <message numerus="yes">
        <source>Order &lt;b&gt;%1&lt;/b&gt; was created by the request with idempotency key &lt;b&gt;%2&lt;/b&gt; (scope %3): status %4, response %5, replayed %n time(s), fingerprint &lt;code&gt;%6&lt;/code&gt;.</source>
        <translation>
            <numerusform>Order &lt;b&gt;%1&lt;/b&gt; was created by the request with idempotency key &lt;b&gt;%2&lt;/b&gt; (scope %3): status %4, response %5, replayed %n time, fingerprint &lt;code&gt;%6&lt;/code&gt;.</numerusform>
            <numerusform>Order &lt;b&gt;%1&lt;/b&gt; was created by the request with idempotency key &lt;b&gt;%2&lt;/b&gt; (scope %3): status %4, response %5, replayed %n times, fingerprint &lt;code&gt;%6&lt;/code&gt;.</numerusform>
        </translation>
    </message>
    <message>
        <source>No idempotency record links to %1 %2.</source>
        <translation>No idempotency record links to %1 %2.</translation>
    </message>
    <message>
        <source>Payload (%1)</source>
        <translation>Payload (%1)</translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s)</source>
        <translation>
            <numerusform>%n attempt</numerusform>
            <numerusform>%n attempts</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n in total</source>
        <translation>
            <numerusform>%n in total</numerusform>
            <numerusform>%n in total</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s) since the requeue at %1</source>
        <translation>
            <numerusform>%n attempt since the requeue at %1</numerusform>
            <numerusform>%n attempts since the requeue at %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s) counted</source>
        <translation>
            <numerusform>%n attempt counted</numerusform>
            <numerusform>%n attempts counted</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;#%1 %2&lt;/b&gt; · %3 · %4%5</source>
        <translation>&lt;b&gt;#%1 %2&lt;/b&gt; · %3 · %4%5</translation>
    </message>
    <message>
        <source>%1 %2 · dedupe key &lt;code&gt;%3&lt;/code&gt; · created %4%5</source>
        <translation>%1 %2 · dedupe key &lt;code&gt;%3&lt;/code&gt; · created %4%5</translation>
    </message>
    <message>
        <source>requeued</source>
        <translation>requeued</translation>
    </message>
    <message>
        <source>Requeued by %1: %2 (attempts count from 0 again)</source>
        <translation>Requeued by %1: %2 (attempts count from 0 again)</translation>
    </message>
    <message>
        <source>ordering key &lt;code&gt;%1&lt;/code&gt;</source>
        <translation>ordering key &lt;code&gt;%1&lt;/code&gt;</translation>
    </message>
    <message>
        <source>Waiting behind an older row of its %1, published meanwhile: due again at the next claim</source>
        <translation>Waiting behind an older row of its %1, published meanwhile: due again at the next claim</translation>
    </message>
    <message>
        <source>Waiting behind &lt;a href=&quot;row:%1&quot;&gt;#%1&lt;/a&gt; of its %2, %3</source>
        <translation>Waiting behind &lt;a href=&quot;row:%1&quot;&gt;#%1&lt;/a&gt; of its %2, %3</translation>
    </message>
    <message>
        <source>Published in order with the other rows of its %1</source>
        <translation>Published in order with the other rows of its %1</translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation>at least %1</translation>
    </message>
    <message numerus="yes">
        <source>Holds back %1 later row(s) of its %2</source>
        <translation>
            <numerusform>Holds back %1 later row of its %2</numerusform>
            <numerusform>Holds back %1 later rows of its %2</numerusform>
        </translation>
    </message>
    <message>
        <source> until it is retried or discarded</source>
        <translation> until it is retried or discarded</translation>
    </message>
    <message>
        <source>edited</source>
        <translation>edited</translation>
    </message>
    <message>
        <source>Edited and requeued by %1: %2 (attempts count from 0 again)</source>
        <translation>Edited and requeued by %1: %2 (attempts count from 0 again)</translation>
    </message>
</context>
<context>
    <name>OutboxTableModel</name>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Event</translation>
    </message>
    <message>
        <source>Aggregate</source>
        <translation>Aggregate</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Attempts</translation>
    </message>
    <message>
        <source>Next attempt</source>
        <translation>Next attempt</translation>
    </message>
    <message>
        <source>Lease owner</source>
        <translation>Lease owner</translation>
    </message>
    <message>
        <source>Lease expires</source>
        <translation>Lease expires</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>Last error</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Created</translation>
    </message>
    <message>
        <source>Published</source>
        <translation>Published</translation>
    </message>
    <message>
        <source> (stuck)</source>
        <translation> (stuck)</translation>
    </message>
    <message>
        <source>Attempts since the row was last requeued (what the relay&apos;s limit counts); the detail pane also counts those before</source>
        <translation>Attempts since the row was last requeued (what the relay&apos;s limit counts); the detail pane also counts those before</translation>
    </message>
    <message>
        <source>before publishing: %1</source>
        <translation>before publishing: %1</translation>
    </message>
    <message>
        <source>before it was discarded: %1</source>
        <translation>before it was discarded: %1</translation>
    </message>
    <message>
        <source>A past error: the row failed with it before it was %1; it is not failing now.

%2</source>
        <translation>A past error: the row failed with it before it was %1; it is not failing now.

%2</translation>
    </message>
</context>
<context>
    <name>OutboxView</name>
    <message>
        <source>Event type</source>
        <translation>Event type</translation>
    </message>
    <message>
        <source>Aggregate id</source>
        <translation>Aggregate id</translation>
    </message>
    <message>
        <source>Error contains</source>
        <translation>Error contains</translation>
    </message>
    <message>
        <source>Created from</source>
        <translation>Created from</translation>
    </message>
    <message>
        <source>Stuck only</source>
        <translation>Stuck only</translation>
    </message>
    <message>
        <source>&amp;Retry selected</source>
        <translation>&amp;Retry selected</translation>
    </message>
    <message>
        <source>Put selected in-flight rows whose lease expired back to pending</source>
        <translation>Put selected in-flight rows whose lease expired back to pending</translation>
    </message>
    <message>
        <source>Show every row</source>
        <translation>Show every row</translation>
    </message>
    <message>
        <source>Cause: %1</source>
        <translation>Cause: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n chosen row(s)</source>
        <translation>
            <numerusform>%n chosen row</numerusform>
            <numerusform>%n chosen rows</numerusform>
        </translation>
    </message>
    <message>
        <source>Only the rows of this failure group or audited action; click to drop it</source>
        <translation>Only the rows of this failure group or audited action; click to drop it</translation>
    </message>
    <message>
        <source>Requeue</source>
        <translation>Requeue</translation>
    </message>
    <message>
        <source>Release the lease of</source>
        <translation>Release the lease of</translation>
    </message>
    <message>
        <source>Each row goes back to pending only if it is still in flight with an expired lease when the action runs.</source>
        <translation>Each row goes back to pending only if it is still in flight with an expired lease when the action runs.</translation>
    </message>
    <message>
        <source>The filter shows no failed or dead rows.</source>
        <translation>The filter shows no failed or dead rows.</translation>
    </message>
    <message>
        <source> The set is capped at %1 rows; run the action again for the rest.</source>
        <translation> The set is capped at %1 rows; run the action again for the rest.</translation>
    </message>
    <message>
        <source>Cannot select rows</source>
        <translation>Cannot select rows</translation>
    </message>
    <message>
        <source>%1 failed</source>
        <translation>%1 failed</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n row(s) changed</source>
        <translation>
            <numerusform>%1: %n row changed</numerusform>
            <numerusform>%1: %n rows changed</numerusform>
        </translation>
    </message>
    <message>
        <source>, cancelled before the remaining batches</source>
        <translation>, cancelled before the remaining batches</translation>
    </message>
    <message>
        <source>Show only event type “%1”</source>
        <translation>Show only event type “%1”</translation>
    </message>
    <message>
        <source>Show only aggregate “%1”</source>
        <translation>Show only aggregate “%1”</translation>
    </message>
    <message>
        <source>The outbox is empty.</source>
        <translation>The outbox is empty.</translation>
    </message>
    <message>
        <source>The outbox could not be read: %1</source>
        <translation>The outbox could not be read: %1</translation>
    </message>
    <message numerus="yes">
        <source>No rows match this filter. The %n row(s) of the last action are no longer where the filter looks (requeued rows are pending, then published or failed again): the Messages panel says how they fared and opens them.</source>
        <translation>
            <numerusform>No rows match this filter. The %n row of the last action are no longer where the filter looks (requeued rows are pending, then published or failed again): the Messages panel says how they fared and opens them.</numerusform>
            <numerusform>No rows match this filter. The %n rows of the last action are no longer where the filter looks (requeued rows are pending, then published or failed again): the Messages panel says how they fared and opens them.</numerusform>
        </translation>
    </message>
    <message>
        <source>No rows match this filter. “Show every row” (✕ beside the filters) drops it.</source>
        <translation>No rows match this filter. “Show every row” (✕ beside the filters) drops it.</translation>
    </message>
    <message>
        <source>Cannot requeue</source>
        <translation>Cannot requeue</translation>
    </message>
    <message>
        <source>This cause last failed a row %1 ago (%2).</source>
        <translation>This cause last failed a row %1 ago (%2).</translation>
    </message>
    <message>
        <source>These rows last failed %1 ago (%2).</source>
        <translation>These rows last failed %1 ago (%2).</translation>
    </message>
    <message>
        <source> That is within the last minute: the cause may still be present, and the rows may only fail again. Fix it first, or retry a few rows to see.</source>
        <translation> That is within the last minute: the cause may still be present, and the rows may only fail again. Fix it first, or retry a few rows to see.</translation>
    </message>
    <message numerus="yes">
        <source>Released the leases of %n row(s)</source>
        <translation>
            <numerusform>Released the leases of %n row</numerusform>
            <numerusform>Released the leases of %n rows</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Requeued %n row(s)</source>
        <translation>
            <numerusform>Requeued %n row</numerusform>
            <numerusform>Requeued %n rows</numerusform>
        </translation>
    </message>
    <message>
        <source>Blocking keys only</source>
        <translation>Blocking keys only</translation>
    </message>
    <message>
        <source>Nothing to act on</source>
        <translation>Nothing to act on</translation>
    </message>
    <message numerus="yes">
        <source>, %n left alone because their state had changed</source>
        <translation>
            <numerusform>, %n left alone because its state had changed</numerusform>
            <numerusform>, %n left alone because their state had changed</numerusform>
        </translation>
    </message>
    <message>
        <source>Ids left alone: %1</source>
        <translation>Ids left alone: %1</translation>
    </message>
    <message>
        <source>Dis&amp;card selected</source>
        <translation>Dis&amp;card selected</translation>
    </message>
    <message>
        <source>Move the selected failed, dead or discarded rows back to pending (Ctrl+R)</source>
        <translation>Move the selected failed, dead or discarded rows back to pending (Ctrl+R)</translation>
    </message>
    <message>
        <source>Give up on the selected failed or dead rows: they are not published, the later rows of their ordering keys flow again, and Retry brings them back</source>
        <translation>Give up on the selected failed or dead rows: they are not published, the later rows of their ordering keys flow again, and Retry brings them back</translation>
    </message>
    <message>
        <source>Requeue every failed or dead row matching the filter, not just the loaded ones (discarded ones too if the status filter selects them)</source>
        <translation>Requeue every failed or dead row matching the filter, not just the loaded ones (discarded ones too if the status filter selects them)</translation>
    </message>
    <message>
        <source>Only dead rows with an ordering key: each holds back every later row of its key until it is retried or discarded</source>
        <translation>Only dead rows with an ordering key: each holds back every later row of its key until it is retried or discarded</translation>
    </message>
    <message>
        <source>Each row goes back to pending only if it is still failed, dead or discarded when the action runs; any other row is left alone and reported.</source>
        <translation>Each row goes back to pending only if it is still failed, dead or discarded when the action runs; any other row is left alone and reported.</translation>
    </message>
    <message>
        <source>Each row is discarded only if it is still failed or dead when the action runs; any other row is left alone and reported.</source>
        <translation>Each row is discarded only if it is still failed or dead when the action runs; any other row is left alone and reported.</translation>
    </message>
    <message>
        <source>The filter shows no failed, dead or discarded rows.</source>
        <translation>The filter shows no failed, dead or discarded rows.</translation>
    </message>
    <message>
        <source>No row to act on matches the filter.</source>
        <translation>No row to act on matches the filter.</translation>
    </message>
    <message>
        <source>These are all the rows matching the filter right now that the action applies to; the list shows exactly them. Rows that change state before the action runs are left alone and reported; rows that fail later are not touched.</source>
        <translation>These are all the rows matching the filter right now that the action applies to; the list shows exactly them. Rows that change state before the action runs are left alone and reported; rows that fail later are not touched.</translation>
    </message>
    <message>
        <source> A discarded row is not published: its consumers do not see that event. The later rows of its ordering key are published next, in order. Retry brings a discarded row back.</source>
        <translation> A discarded row is not published: its consumers do not see that event. The later rows of its ordering key are published next, in order. Retry brings a discarded row back.</translation>
    </message>
    <message>
        <source>Discard only events the consumers can do without; to have them delivered, fix their cause and retry them.</source>
        <translation>Discard only events the consumers can do without; to have them delivered, fix their cause and retry them.</translation>
    </message>
    <message>
        <source> A discarded row that is retried is published after the later rows of its ordering key that went on meanwhile.</source>
        <translation> A discarded row that is retried is published after the later rows of its ordering key that went on meanwhile.</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Discard</translation>
    </message>
    <message>
        <source>&amp;Edit and retry…</source>
        <translation>&amp;Edit and retry…</translation>
    </message>
    <message>
        <source>Change the payload or headers of the selected failed, dead or discarded row, see the difference, and requeue it (both versions go into the audit log)</source>
        <translation>Change the payload or headers of the selected failed, dead or discarded row, see the difference, and requeue it (both versions go into the audit log)</translation>
    </message>
    <message>
        <source>Cannot edit</source>
        <translation>Cannot edit</translation>
    </message>
    <message>
        <source>Row %1 is %2 by now: only failed, dead or discarded rows can be edited.</source>
        <translation>Row %1 is %2 by now: only failed, dead or discarded rows can be edited.</translation>
    </message>
    <message>
        <source>Edit and retry</source>
        <translation>Edit and retry</translation>
    </message>
    <message>
        <source>, not edited because its state or content changed after it was opened; nothing was written</source>
        <translation>, not edited because its state or content changed after it was opened; nothing was written</translation>
    </message>
    <message numerus="yes">
        <source>Edited and requeued %n row(s)</source>
        <translation>
            <numerusform>Edited and requeued %n row</numerusform>
            <numerusform>Edited and requeued %n rows</numerusform>
        </translation>
    </message>
    <message>
        <source>, due at %1</source>
        <translation>, due at %1</translation>
    </message>
    <message>
        <source>Message id (dedupe key), exactly</source>
        <translation>Message id (dedupe key), exactly</translation>
    </message>
    <message>
        <source>Payload contains (within the created range)</source>
        <translation>Payload contains (within the created range)</translation>
    </message>
    <message>
        <source>The row whose dedupe key is exactly this: the message id the broker and the consumers see</source>
        <translation>The row whose dedupe key is exactly this: the message id the broker and the consumers see</translation>
    </message>
    <message>
        <source>Rows whose payload contains this text (case-insensitive). No index serves it, so it reads the rows created in the range beside it: typing here sets the range to the last 24 hours if none is set. Cancel stops a long search.</source>
        <translation>Rows whose payload contains this text (case-insensitive). No index serves it, so it reads the rows created in the range beside it: typing here sets the range to the last 24 hours if none is set. Cancel stops a long search.</translation>
    </message>
    <message>
        <source>Retry all matchi&amp;ng…</source>
        <translation>Retry all matchi&amp;ng…</translation>
    </message>
    <message>
        <source>Relea&amp;se lease</source>
        <translation>Relea&amp;se lease</translation>
    </message>
</context>
<context>
    <name>OverviewPage</name>
    <message>
        <source>&amp;Retry group…</source>
        <translation>&amp;Retry group…</translation>
    </message>
    <message>
        <source>Last hour, per minute</source>
        <translation>Last hour, per minute</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>pending</translation>
    </message>
    <message>
        <source>in flight</source>
        <translation>in flight</translation>
    </message>
    <message>
        <source>failed, retry scheduled</source>
        <translation>failed, retry scheduled</translation>
    </message>
    <message>
        <source>dead, need an operator</source>
        <translation>dead, need an operator</translation>
    </message>
    <message>
        <source>Double-click a group to see its rows</source>
        <translation>Double-click a group to see its rows</translation>
    </message>
    <message>
        <source>Show rows</source>
        <translation>Show rows</translation>
    </message>
    <message>
        <source>Largest failure groups</source>
        <translation>Largest failure groups</translation>
    </message>
    <message>
        <source>Oldest unpublished rows</source>
        <translation>Oldest unpublished rows</translation>
    </message>
    <message>
        <source>rows</source>
        <translation>rows</translation>
    </message>
    <message>
        <source>lag (s)</source>
        <translation>lag (s)</translation>
    </message>
    <message>
        <source>published</source>
        <translation>published</translation>
    </message>
    <message>
        <source>failed attempts</source>
        <translation>failed attempts</translation>
    </message>
    <message>
        <source>oldest unpublished</source>
        <translation>oldest unpublished</translation>
    </message>
    <message>
        <source>s</source>
        <translation>s</translation>
    </message>
    <message>
        <source>Last operator actions</source>
        <translation>Last operator actions</translation>
    </message>
    <message>
        <source>Requeue every row of the selected group, as they are when you confirm</source>
        <translation>Requeue every row of the selected group, as they are when you confirm</translation>
    </message>
    <message>
        <source>No operator action on record.</source>
        <translation>No operator action on record.</translation>
    </message>
    <message>
        <source>All actions in the Audit tab</source>
        <translation>All actions in the Audit tab</translation>
    </message>
    <message>
        <source>Show the %1 rows</source>
        <translation>Show the %1 rows</translation>
    </message>
    <message>
        <source>An estimate from the planner&apos;s statistics (as of the last ANALYZE): about %1. Exact counts stop at %2 so that they stay cheap on large tables.</source>
        <translation>An estimate from the planner&apos;s statistics (as of the last ANALYZE): about %1. Exact counts stop at %2 so that they stay cheap on large tables.</translation>
    </message>
    <message>
        <source>At least %1: counting stops after %2 rows have been read, so that it stays cheap on large tables</source>
        <translation>At least %1: counting stops after %2 rows have been read, so that it stays cheap on large tables</translation>
    </message>
    <message>
        <source>Oldest unpublished row: %1 old</source>
        <translation>Oldest unpublished row: %1 old</translation>
    </message>
    <message>
        <source>Nothing waits to be published.</source>
        <translation>Nothing waits to be published.</translation>
    </message>
    <message>
        <source>&lt;b&gt;no requests&lt;/b&gt;</source>
        <translation>&lt;b&gt;no requests&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Warning level: %1 s (Metrics → Warning levels…)</source>
        <translation>Warning level: %1 s (Metrics → Warning levels…)</translation>
    </message>
    <message>
        <source>Warning level for the duplicate hit rate: %1 %</source>
        <translation>Warning level for the duplicate hit rate: %1 %</translation>
    </message>
    <message>
        <source>Updated %1</source>
        <translation>Updated %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Relays&lt;/b&gt;: none has registered yet.</source>
        <translation>&lt;b&gt;Relays&lt;/b&gt;: none has registered yet.</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Relays&lt;/b&gt;: %n alive</source>
        <translation>
            <numerusform>&lt;b&gt;Relays&lt;/b&gt;: %n alive</numerusform>
            <numerusform>&lt;b&gt;Relays&lt;/b&gt;: %n alive</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n stale (presumed dead)</source>
        <translation>
            <numerusform>%n stale (presumed dead)</numerusform>
            <numerusform>%n stale (presumed dead)</numerusform>
        </translation>
    </message>
    <message>
        <source>stuck, lease expired or overdue</source>
        <translation>stuck, lease expired or overdue</translation>
    </message>
    <message numerus="yes">
        <source>Last %n minute(s): &lt;b&gt;%1&lt;/b&gt; published per minute · duplicate hit rate %2</source>
        <translation>
            <numerusform>Last %n minute: &lt;b&gt;%1&lt;/b&gt; published per minute · duplicate hit rate %2</numerusform>
            <numerusform>Last %n minutes: &lt;b&gt;%1&lt;/b&gt; published per minute · duplicate hit rate %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Last hour: %1 published · %2 failed attempts · %3 requests</source>
        <translation>Last hour: %1 published · %2 failed attempts · %3 requests</translation>
    </message>
    <message numerus="yes">
        <source>%n failing</source>
        <translation>
            <numerusform>%n failing</numerusform>
            <numerusform>%n failing</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n gone (process died)</source>
        <translation>
            <numerusform>%n gone (process died)</numerusform>
            <numerusform>%n gone (process died)</numerusform>
        </translation>
    </message>
    <message>
        <source>⚠ Nothing is publishing: rows have waited %1 and nothing was published for %2.</source>
        <translation>⚠ Nothing is publishing: rows have waited %1 and nothing was published for %2.</translation>
    </message>
    <message>
        <source>⚠ Nothing is publishing: rows have waited %1 and nothing was ever published.</source>
        <translation>⚠ Nothing is publishing: rows have waited %1 and nothing was ever published.</translation>
    </message>
    <message>
        <source>No relay is running: start one (outboxctl relay) or look at why the relays below stopped.</source>
        <translation>No relay is running: start one (outboxctl relay) or look at why the relays below stopped.</translation>
    </message>
    <message>
        <source>Every relay is failing: %1.</source>
        <translation>Every relay is failing: %1.</translation>
    </message>
    <message numerus="yes">
        <source>%n relay(s) alive but none published in that time: the oldest rows below say why they wait.</source>
        <translation>
            <numerusform>%n relay alive but none published in that time: the oldest rows below say why they wait.</numerusform>
            <numerusform>%n relays alive but none published in that time: the oldest rows below say why they wait.</numerusform>
        </translation>
    </message>
    <message>
        <source>keys blocked by a dead row</source>
        <translation>keys blocked by a dead row</translation>
    </message>
    <message>
        <source>Double-click a row to open it in the outbox list; double-click the cause of a row waiting behind another to open that one</source>
        <translation>Double-click a row to open it in the outbox list; double-click the cause of a row waiting behind another to open that one</translation>
    </message>
    <message>
        <source>waiting behind their key</source>
        <translation>waiting behind their key</translation>
    </message>
    <message>
        <source>Remove the selected stopped, stale or gone relays from the registry, with a reason for the audit log (a relay that starts again registers anew)</source>
        <translation>Remove the selected stopped, stale or gone relays from the registry, with a reason for the audit log (a relay that starts again registers anew)</translation>
    </message>
    <message>
        <source>For&amp;get…</source>
        <translation>For&amp;get…</translation>
    </message>
    <message>
        <source>&amp;Pause…</source>
        <translation>&amp;Pause…</translation>
    </message>
    <message>
        <source>Re&amp;sume…</source>
        <translation>Re&amp;sume…</translation>
    </message>
    <message>
        <source>held by a paused event type</source>
        <translation>held by a paused event type</translation>
    </message>
    <message>
        <source>Resume the selected pause, with a reason for the audit log</source>
        <translation>Resume the selected pause, with a reason for the audit log</translation>
    </message>
    <message>
        <source>Pause a relay (the selected one&apos;s name) or an event type, with a reason for the audit log</source>
        <translation>Pause a relay (the selected one&apos;s name) or an event type, with a reason for the audit log</translation>
    </message>
    <message>
        <source>A running relay (alive, paused or failing) cannot be forgotten: stop it first</source>
        <translation>A running relay (alive, paused or failing) cannot be forgotten: stop it first</translation>
    </message>
    <message numerus="yes">
        <source>%n paused</source>
        <translation>
            <numerusform>%n paused</numerusform>
            <numerusform>%n paused</numerusform>
        </translation>
    </message>
    <message>
        <source>Every running relay is paused: resume one (the pauses are listed above).</source>
        <translation>Every running relay is paused: resume one (the pauses are listed above).</translation>
    </message>
    <message>
        <source>Paused by an operator</source>
        <translation>Paused by an operator</translation>
    </message>
    <message>
        <source>%1 · &lt;b&gt;%2&lt;/b&gt; %3 %4: %5</source>
        <translation>%1 · &lt;b&gt;%2&lt;/b&gt; %3 %4: %5</translation>
    </message>
    <message>
        <source>⚠ Not read yet: %1</source>
        <translation>⚠ Not read yet: %1</translation>
    </message>
    <message>
        <source>⚠ Not updated since %1 (%2 ago): %3 — every figure above is as of then</source>
        <translation>⚠ Not updated since %1 (%2 ago): %3 — every figure above is as of then</translation>
    </message>
    <message>
        <source>As of %1: %2</source>
        <translation>As of %1: %2</translation>
    </message>
    <message numerus="yes">
        <source>Last %n minute(s): &lt;b&gt;no complete minute with data yet&lt;/b&gt;</source>
        <translation>
            <numerusform>Last %n minute: &lt;b&gt;no complete minute with data yet&lt;/b&gt;</numerusform>
            <numerusform>Last %n minutes: &lt;b&gt;no complete minute with data yet&lt;/b&gt;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Last %n minute(s), no data before: &lt;b&gt;%1&lt;/b&gt; published per minute · duplicate hit rate %2</source>
        <translation>
            <numerusform>Last %n minute, no data before: &lt;b&gt;%1&lt;/b&gt; published per minute · duplicate hit rate %2</numerusform>
            <numerusform>Last %n minutes, no data before: &lt;b&gt;%1&lt;/b&gt; published per minute · duplicate hit rate %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PauseDialog</name>
    <message>
        <source>&amp;Relay named</source>
        <translation>&amp;Relay named</translation>
    </message>
    <message>
        <source>&amp;Event type</source>
        <translation>&amp;Event type</translation>
    </message>
    <message>
        <source>Pause publishing</source>
        <translation>Pause publishing</translation>
    </message>
    <message>
        <source>A paused relay claims nothing from its next claim on (every relay running under that name). The rows of a paused event type are claimed by no relay; those in flight are still published. Both count in the backlog until resumed.</source>
        <translation>A paused relay claims nothing from its next claim on (every relay running under that name). The rows of a paused event type are claimed by no relay; those in flight are still published. Both count in the backlog until resumed.</translation>
    </message>
    <message>
        <source>Resume %1</source>
        <translation>Resume %1</translation>
    </message>
    <message>
        <source>Resume %1, paused by %2: it claims again at its next poll.</source>
        <translation>Resume %1, paused by %2: it claims again at its next poll.</translation>
    </message>
    <message>
        <source>Resume %1, paused by %2: its held rows are let go, oldest due first, and published as usual.</source>
        <translation>Resume %1, paused by %2: its held rows are let go, oldest due first, and published as usual.</translation>
    </message>
    <message>
        <source>What:</source>
        <translation>What:</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>e.g. consumer of order events down for maintenance</source>
        <translation>e.g. consumer of order events down for maintenance</translation>
    </message>
    <message>
        <source>Rea&amp;son (recorded in the audit log):</source>
        <translation>Rea&amp;son (recorded in the audit log):</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Resume</translation>
    </message>
</context>
<context>
    <name>PausesModel</name>
    <message>
        <source>relay %1</source>
        <translation>relay %1</translation>
    </message>
    <message>
        <source>event type %1</source>
        <translation>event type %1</translation>
    </message>
    <message>
        <source>%1 (resuming)</source>
        <translation>%1 (resuming)</translation>
    </message>
    <message>
        <source>%1+</source>
        <translation>%1+</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Paused</translation>
    </message>
    <message>
        <source>By</source>
        <translation>By</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>Since</translation>
    </message>
    <message>
        <source>Rows held</source>
        <translation>Rows held</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Reason</translation>
    </message>
</context>
<context>
    <name>ProgressRunner</name>
    <message>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <source>%1 (%2 so far)</source>
        <translation>%1 (%2 so far)</translation>
    </message>
</context>
<context>
    <name>RelayFleetModel</name>
    <message>
        <source>alive</source>
        <translation>alive</translation>
    </message>
    <message>
        <source>stale</source>
        <translation>stale</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>stopped</translation>
    </message>
    <message>
        <source>%1
at %2</source>
        <translation>%1
at %2</translation>
    </message>
    <message>
        <source>No heartbeat for %1 (it beats every %2): killed, its host gone, or cut off from the database.</source>
        <translation>No heartbeat for %1 (it beats every %2): killed, its host gone, or cut off from the database.</translation>
    </message>
    <message>
        <source>%1 (pid %2)</source>
        <translation>%1 (pid %2)</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>%1 ago</translation>
    </message>
    <message>
        <source>%1 /s</source>
        <translation>%1 /s</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>%1 (unreachable)</source>
        <translation>%1 (unreachable)</translation>
    </message>
    <message>
        <source>Relay</source>
        <translation>Relay</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>State</source>
        <translation>State</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>Last seen</translation>
    </message>
    <message>
        <source>Publishing</source>
        <translation>Publishing</translation>
    </message>
    <message>
        <source>Published</source>
        <translation>Published</translation>
    </message>
    <message>
        <source>Workers × batch</source>
        <translation>Workers × batch</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Sink</source>
        <translation>Sink</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>Last error</translation>
    </message>
    <message>
        <source>failing</source>
        <translation>failing</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>gone</translation>
    </message>
    <message>
        <source>publishes refused for %1: relay %2: %3</source>
        <translation>publishes refused for %1: relay %2: %3</translation>
    </message>
    <message>
        <source>broker unreachable for %1: relay %2: %3</source>
        <translation>broker unreachable for %1: relay %2: %3</translation>
    </message>
    <message>
        <source>now, for %1: %2</source>
        <translation>now, for %1: %2</translation>
    </message>
    <message>
        <source>resolved, %1 ago: %2</source>
        <translation>resolved, %1 ago: %2</translation>
    </message>
    <message>
        <source>None of its database sessions is left on the server: its process died or was killed. Rows it held are rescued when their leases expire.</source>
        <translation>None of its database sessions is left on the server: its process died or was killed. Rows it held are rescued when their leases expire.</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>paused</translation>
    </message>
    <message>
        <source>Paused by an operator since %1: it claims nothing until its name is resumed (see the pauses above).</source>
        <translation>Paused by an operator since %1: it claims nothing until its name is resumed (see the pauses above).</translation>
    </message>
    <message>
        <source>Relay %1 publishing again</source>
        <translation>Relay %1 publishing again</translation>
    </message>
    <message>
        <source>Relay %1 started</source>
        <translation>Relay %1 started</translation>
    </message>
    <message>
        <source>Relay %1 paused</source>
        <translation>Relay %1 paused</translation>
    </message>
    <message>
        <source>Relay %1 failing</source>
        <translation>Relay %1 failing</translation>
    </message>
    <message>
        <source>Relay %1 failing: %2</source>
        <translation>Relay %1 failing: %2</translation>
    </message>
    <message>
        <source>Relay %1 gone: its process died</source>
        <translation>Relay %1 gone: its process died</translation>
    </message>
    <message>
        <source>Relay %1 stale: no heartbeat for %2</source>
        <translation>Relay %1 stale: no heartbeat for %2</translation>
    </message>
    <message>
        <source>Relay %1 stopped</source>
        <translation>Relay %1 stopped</translation>
    </message>
    <message>
        <source>Its last heartbeat: %1</source>
        <translation>Its last heartbeat: %1</translation>
    </message>
    <message>
        <source>%1
process started %2</source>
        <translation>%1
process started %2</translation>
    </message>
    <message>
        <source>%1
lease %2, heartbeat every %3</source>
        <translation>%1
lease %2, heartbeat every %3</translation>
    </message>
    <message>
        <source>on %1 of %2</source>
        <translation>on %1 of %2</translation>
    </message>
</context>
<context>
    <name>RequeueFollowUp</name>
    <message>
        <source>%1 published</source>
        <translation>%1 published</translation>
    </message>
    <message>
        <source>%1 failed again</source>
        <translation>%1 failed again</translation>
    </message>
    <message>
        <source> (%1 of them dead)</source>
        <translation> (%1 of them dead)</translation>
    </message>
    <message>
        <source>, all with “%1”</source>
        <translation>, all with “%1”</translation>
    </message>
    <message>
        <source>, %1 of them with “%2”</source>
        <translation>, %1 of them with “%2”</translation>
    </message>
    <message>
        <source>%1 still pending or in flight after %2</source>
        <translation>%1 still pending or in flight after %2</translation>
    </message>
    <message>
        <source>%1 purged meanwhile</source>
        <translation>%1 purged meanwhile</translation>
    </message>
    <message>
        <source>%1: %2.</source>
        <translation>%1: %2.</translation>
    </message>
</context>
<context>
    <name>SecondsPane</name>
    <message>
        <source>rows per second</source>
        <translation>rows per second</translation>
    </message>
    <message>
        <source>published</source>
        <translation>published</translation>
    </message>
    <message>
        <source>failed attempts</source>
        <translation>failed attempts</translation>
    </message>
    <message>
        <source>went dead</source>
        <translation>went dead</translation>
    </message>
    <message>
        <source>Last 5 minutes, per second: all event types</source>
        <translation>Last 5 minutes, per second: all event types</translation>
    </message>
    <message>
        <source>Last 5 minutes, per second: %1</source>
        <translation>Last 5 minutes, per second: %1</translation>
    </message>
    <message>
        <source>Could not read the last seconds: %1</source>
        <translation>Could not read the last seconds: %1</translation>
    </message>
    <message>
        <source>No relay is running: nothing is published or counted.</source>
        <translation>No relay is running: nothing is published or counted.</translation>
    </message>
    <message numerus="yes">
        <source>Counted up to %1 by every running relay (%n relay(s)); later seconds are still being counted and are drawn apart. Relays add their seconds once a second.</source>
        <translation>
            <numerusform>Counted up to %1 by every running relay (%n relay); later seconds are still being counted and are drawn apart. Relays add their seconds once a second.</numerusform>
            <numerusform>Counted up to %1 by every running relay (%n relays); later seconds are still being counted and are drawn apart. Relays add their seconds once a second.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n running relay(s), not all of which say how far they counted: every second shown may still grow.</source>
        <translation>
            <numerusform>%n running relay, which does not say how far it counted: every second shown may still grow.</numerusform>
            <numerusform>%n running relays, not all of which say how far they counted: every second shown may still grow.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SessionInfo</name>
    <message>
        <source>operator</source>
        <translation>operator</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>read-only</translation>
    </message>
    <message>
        <source>Database user &apos;%1&apos; may only read: requeueing and releasing leases need the outbox_operator role (UPDATE on outbox, INSERT on audit_log).</source>
        <translation>Database user &apos;%1&apos; may only read: requeueing and releasing leases need the outbox_operator role (UPDATE on outbox, INSERT on audit_log).</translation>
    </message>
    <message>
        <source>local socket</source>
        <translation>local socket</translation>
    </message>
</context>
<context>
    <name>StatusFilterButton</name>
    <message>
        <source>Status: all</source>
        <translation>Status: all</translation>
    </message>
    <message>
        <source>Status: %1</source>
        <translation>Status: %1</translation>
    </message>
</context>
<context>
    <name>StatusMessageLabel</name>
    <message>
        <source>%1

(Click for every message.)</source>
        <translation>%1

(Click for every message.)</translation>
    </message>
</context>
<context>
    <name>StuckRowClassifier</name>
    <message>
        <source>in flight, but the worker&apos;s lease has expired</source>
        <translation>in flight, but the worker&apos;s lease has expired</translation>
    </message>
    <message>
        <source>due, but no relay has picked it up</source>
        <translation>due, but no relay has picked it up</translation>
    </message>
    <message>
        <source>dead: gave up after the maximum attempts</source>
        <translation>dead: gave up after the maximum attempts</translation>
    </message>
</context>
<context>
    <name>TimeFormatter</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 d %2 h</translation>
    </message>
</context>
<context>
    <name>TimeRangeFilter</name>
    <message>
        <source>to</source>
        <translation>to</translation>
    </message>
</context>
<context>
    <name>WaitingRowsModel</name>
    <message>
        <source>No relay is alive to publish it: start one (outboxctl relay)</source>
        <translation>No relay is alive to publish it: start one (outboxctl relay)</translation>
    </message>
    <message>
        <source>Failing (attempt %1): %2</source>
        <translation>Failing (attempt %1): %2</translation>
    </message>
    <message>
        <source>Leased by %1, whose lease ran out: the worker is presumed dead; a relay rescues the row</source>
        <translation>Leased by %1, whose lease ran out: the worker is presumed dead; a relay rescues the row</translation>
    </message>
    <message>
        <source>Being published by %1</source>
        <translation>Being published by %1</translation>
    </message>
    <message>
        <source>Not due until %1</source>
        <translation>Not due until %1</translation>
    </message>
    <message>
        <source>Due for a long time while relays are alive: they are not keeping up</source>
        <translation>Due for a long time while relays are alive: they are not keeping up</translation>
    </message>
    <message>
        <source>Waiting its turn</source>
        <translation>Waiting its turn</translation>
    </message>
    <message>
        <source>Created %1</source>
        <translation>Created %1</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>Waiting</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Event</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Why</translation>
    </message>
    <message>
        <source>Every relay is failing: %1</source>
        <translation>Every relay is failing: %1</translation>
    </message>
    <message>
        <source>Every relay is failing</source>
        <translation>Every relay is failing</translation>
    </message>
    <message>
        <source>Waiting behind an older row of its key, published meanwhile: due again at the next claim</source>
        <translation>Waiting behind an older row of its key, published meanwhile: due again at the next claim</translation>
    </message>
    <message>
        <source>Waiting behind #%1 of its key, failing (attempt %2): %3</source>
        <translation>Waiting behind #%1 of its key, failing (attempt %2): %3</translation>
    </message>
    <message>
        <source>Waiting behind #%1 of its key, %2</source>
        <translation>Waiting behind #%1 of its key, %2</translation>
    </message>
    <message>
        <source>Waiting behind #%1 of its key, dead: %2 — retry or discard #%1 (double-click)</source>
        <translation>Waiting behind #%1 of its key, dead: %2 — retry or discard #%1 (double-click)</translation>
    </message>
    <message>
        <source>Its event type %1 is paused: resume it to publish the row</source>
        <translation>Its event type %1 is paused: resume it to publish the row</translation>
    </message>
    <message>
        <source>Every running relay is paused: resume one to publish the row</source>
        <translation>Every running relay is paused: resume one to publish the row</translation>
    </message>
</context>
</TS>
