<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko_KR">
<context>
    <name>AuditSubject</name>
    <message numerus="yes">
        <source>%n relay(s)</source>
        <translation>
            <numerusform>릴레이 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>relay %1</source>
        <translation>릴레이 %1</translation>
    </message>
    <message>
        <source>event type %1</source>
        <translation>이벤트 유형 %1</translation>
    </message>
    <message numerus="yes">
        <source>%1, %Ln held row(s) let go</source>
        <translation>
            <numerusform>%1, 보류된 행 %Ln개를 내보냄</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln outbox row(s)</source>
        <translation>
            <numerusform>아웃박스 행 %Ln개</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AuditTableModel</name>
    <message>
        <source>When</source>
        <translation>시각</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>수행자</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>작업</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>행</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>사유</translation>
    </message>
</context>
<context>
    <name>AuditView</name>
    <message>
        <source>Who (database user)</source>
        <translation>수행자 (데이터베이스 사용자)</translation>
    </message>
    <message>
        <source>From</source>
        <translation>시작 시각</translation>
    </message>
    <message>
        <source>&amp;Show rows</source>
        <translation>행 보기(&amp;S)</translation>
    </message>
    <message>
        <source>Every action</source>
        <translation>모든 작업</translation>
    </message>
    <message>
        <source>Requeue</source>
        <translation>재시도</translation>
    </message>
    <message>
        <source>Release lease</source>
        <translation>리스 해제</translation>
    </message>
    <message>
        <source>Show every action</source>
        <translation>모든 작업 표시</translation>
    </message>
    <message>
        <source>Select an action to see its reason, its rows and their states.</source>
        <translation>작업을 선택하면 사유, 대상 행과 그 상태를 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Open the rows this action touched in the outbox list</source>
        <translation>이 작업이 변경한 행을 아웃박스 목록에서 열기</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>폐기</translation>
    </message>
    <message>
        <source>Edit and retry</source>
        <translation>수정 후 재시도</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>변경 없음</translation>
    </message>
    <message>
        <source>Payload (- before, + after):</source>
        <translation>페이로드 (- 변경 전, + 변경 후):</translation>
    </message>
    <message>
        <source>Headers (- before, + after):</source>
        <translation>헤더 (- 변경 전, + 변경 후):</translation>
    </message>
    <message>
        <source>Forget relay</source>
        <translation>릴레이 잊기</translation>
    </message>
    <message>
        <source>From the failure group: %1</source>
        <translation>실패 그룹에서: %1</translation>
    </message>
    <message>
        <source>Due at: %1</source>
        <translation>처리 예정 시각: %1</translation>
    </message>
    <message>
        <source>Relay</source>
        <translation>릴레이</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>행</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>변경 전</translation>
    </message>
    <message>
        <source>After</source>
        <translation>변경 후</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… 외 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 by %2 at %3 — %4
Reason: %5
</source>
        <translation>%1 · 수행자 %2 · %3 — %4
사유: %5
</translation>
    </message>
    <message>
        <source>Reading the edit…</source>
        <translation>수정 내용을 읽는 중…</translation>
    </message>
    <message>
        <source>The edit could not be read: %1</source>
        <translation>수정 내용을 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>일시 중지</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>재개</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more, being read</source>
        <translation>
            <numerusform>… 외 %n개, 읽는 중</numerusform>
        </translation>
    </message>
    <message>
        <source>The action&apos;s other rows could not be read: %1</source>
        <translation>이 작업의 나머지 행을 읽을 수 없습니다: %1</translation>
    </message>
</context>
<context>
    <name>BulkActionRunner</name>
    <message numerus="yes">
        <source>%1 %n row(s)…</source>
        <translation>
            <numerusform>행 %n개 %1 중…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <source>%1 (%2 unset)</source>
        <translation>%1 (%2 미설정)</translation>
    </message>
    <message>
        <source>%1 (from %2)</source>
        <translation>%1 (%2에서)</translation>
    </message>
    <message>
        <source>service %1, else %2</source>
        <translation>서비스 %1, 없으면 %2</translation>
    </message>
    <message>
        <source>invalid port &quot;%1&quot;: expected a number from 1 to 65535</source>
        <translation>잘못된 포트 &quot;%1&quot;: 1에서 65535 사이의 숫자여야 합니다</translation>
    </message>
    <message>
        <source>Connect to PostgreSQL</source>
        <translation>PostgreSQL에 연결</translation>
    </message>
    <message>
        <source>everything from the libpq environment</source>
        <translation>모두 libpq 환경에서 가져옴</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>아직 없음</translation>
    </message>
    <message>
        <source>choose one to fill in the fields</source>
        <translation>선택하면 입력란이 채워집니다</translation>
    </message>
    <message>
        <source>local socket</source>
        <translation>로컬 소켓</translation>
    </message>
    <message>
        <source>same as the user</source>
        <translation>사용자 이름과 같음</translation>
    </message>
    <message>
        <source>your login name</source>
        <translation>로그인 이름</translation>
    </message>
    <message>
        <source>from %1 if needed (PGPASSWORD unset)</source>
        <translation>필요하면 %1에서 가져옴 (PGPASSWORD 미설정)</translation>
    </message>
    <message>
        <source>from PGPASSWORD</source>
        <translation>PGPASSWORD에서 가져옴</translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation>%1 (기본값)</translation>
    </message>
    <message>
        <source>%1 (from PGSSLMODE)</source>
        <translation>%1 (PGSSLMODE에서)</translation>
    </message>
    <message>
        <source>postgresql://user@host/db or host=… dbname=…</source>
        <translation>postgresql://user@host/db 또는 host=… dbname=…</translation>
    </message>
    <message>
        <source>A libpq connection URI or key=value string, e.g. service=orders. When it is set, the fields above are ignored.</source>
        <translation>libpq 연결 URI 또는 key=value 문자열입니다(예: service=orders). 값을 입력하면 위의 입력란은 무시됩니다.</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>연결(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Recent:</source>
        <translation>최근 연결(&amp;R):</translation>
    </message>
    <message>
        <source>&amp;Host:</source>
        <translation>호스트(&amp;H):</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation>포트(&amp;P):</translation>
    </message>
    <message>
        <source>&amp;Database:</source>
        <translation>데이터베이스(&amp;D):</translation>
    </message>
    <message>
        <source>&amp;User:</source>
        <translation>사용자(&amp;U):</translation>
    </message>
    <message>
        <source>Pass&amp;word:</source>
        <translation>비밀번호(&amp;W):</translation>
    </message>
    <message>
        <source>SS&amp;L mode:</source>
        <translation>SSL 모드(&amp;L):</translation>
    </message>
    <message>
        <source>&amp;Or URI / DSN:</source>
        <translation>또는 URI / DSN(&amp;O):</translation>
    </message>
    <message>
        <source>Re&amp;member the password in the keychain</source>
        <translation>키체인에 비밀번호 저장(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Forget the stored password</source>
        <translation>저장된 비밀번호 삭제(&amp;F)</translation>
    </message>
    <message>
        <source>asking the keychain…</source>
        <translation>키체인에 확인하는 중…</translation>
    </message>
    <message>
        <source>Keychain: %1</source>
        <translation>키체인: %1</translation>
    </message>
    <message>
        <source>Kept in the desktop&apos;s keychain (Secret Service) under this connection, never in the settings file</source>
        <translation>이 연결의 비밀번호는 데스크톱 키체인(Secret Service)에 보관되며 설정 파일에는 절대 저장되지 않습니다</translation>
    </message>
    <message>
        <source>No keychain is available, so the password cannot be remembered: %1</source>
        <translation>사용할 수 있는 키체인이 없어 비밀번호를 저장할 수 없습니다: %1</translation>
    </message>
</context>
<context>
    <name>ConnectionBanner</name>
    <message>
        <source>&lt;b&gt;Reconnected.&lt;/b&gt;</source>
        <translation>&lt;b&gt;다시 연결되었습니다.&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;The database is unreachable&lt;/b&gt; since %1 — %2. Next attempt in %3 s. The lists show what they showed at %1 and resume when the connection is back; repeat an interrupted operator action to finish it.</source>
        <translation>&lt;b&gt;데이터베이스에 연결할 수 없습니다&lt;/b&gt; (%1부터) — %2. %3초 후에 다시 시도합니다. 목록은 %1 시점의 내용을 보여 주며, 연결이 복구되면 갱신이 재개됩니다. 중단된 운영자 작업은 다시 실행하면 마저 처리됩니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Connection to the database lost&lt;/b&gt; — %1. Reconnecting… The lists resume when the connection is back. Operator actions commit batch by batch: repeat an interrupted one to finish it; rows it already moved are left alone.</source>
        <translation>&lt;b&gt;데이터베이스 연결이 끊어졌습니다&lt;/b&gt; — %1. 다시 연결하는 중… 연결이 복구되면 목록 갱신이 재개됩니다. 운영자 작업은 배치 단위로 커밋됩니다. 중단된 작업은 다시 실행하면 마저 처리되며, 이미 옮겨진 행은 그대로 둡니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Reconnected to another server&lt;/b&gt;, %1 (was %2): the database failed over. The lists show the new server&apos;s rows.</source>
        <translation>&lt;b&gt;다른 서버에 다시 연결되었습니다&lt;/b&gt;: %1 (이전: %2) — 데이터베이스가 장애 조치(failover)되었습니다. 목록은 새 서버의 행을 보여 줍니다.</translation>
    </message>
</context>
<context>
    <name>ConsoleCommandLine</name>
    <message>
        <source>PostgreSQL URI or key=value connection string; without it a connection dialog opens.</source>
        <translation>PostgreSQL URI 또는 key=value 연결 문자열입니다. 없으면 연결 대화상자가 열립니다.</translation>
    </message>
    <message>
        <source>DSN</source>
        <translation>DSN</translation>
    </message>
    <message>
        <source>Start a private PostgreSQL and RabbitMQ, the orders service, a relay, a consumer and duplicate-heavy traffic, and open the console on them. Quitting removes it all.</source>
        <translation>전용 PostgreSQL과 RabbitMQ, 주문 서비스, 릴레이, 컨슈머, 중복이 많은 트래픽을 시작하고 그 위에서 콘솔을 엽니다. 종료하면 모두 제거됩니다.</translation>
    </message>
    <message>
        <source>Like --demo, but keep the demo database in DIR (and reuse it next time).</source>
        <translation>--demo와 같지만 데모 데이터베이스를 디렉터리에 보관합니다(다음에 다시 사용).</translation>
    </message>
    <message>
        <source>DIR</source>
        <translation>디렉터리</translation>
    </message>
    <message>
        <source>Print the manual page (roff), which the package installs.</source>
        <translation>매뉴얼 페이지(roff)를 출력합니다. 패키지가 이것을 설치합니다.</translation>
    </message>
    <message>
        <source>Inspect and repair idempotency keys and the transactional outbox.

Exit codes: 0 success, 1 the console could not start (no display, the demo failed), 2 bad usage.</source>
        <translation>멱등성 키와 트랜잭셔널 아웃박스를 살펴보고 복구합니다.

종료 코드: 0 성공, 1 콘솔을 시작할 수 없음(디스플레이 없음, 데모 실패), 2 잘못된 사용법.</translation>
    </message>
    <message>
        <source>%1 (schema version %2)</source>
        <translation>%1 (스키마 버전 %2)</translation>
    </message>
    <message>
        <source>outbox-console: %1 (see &apos;outbox-console --help&apos;)</source>
        <translation>outbox-console: %1 (&apos;outbox-console --help&apos; 참고)</translation>
    </message>
    <message>
        <source>unexpected argument &apos;%1&apos;</source>
        <translation>예상하지 못한 인수 &apos;%1&apos;</translation>
    </message>
</context>
<context>
    <name>DatabaseClient</name>
    <message>
        <source>not connected to the database (reconnecting)</source>
        <translation>데이터베이스에 연결되어 있지 않습니다 (다시 연결하는 중)</translation>
    </message>
</context>
<context>
    <name>DemoConsole</name>
    <message>
        <source>%1 stopped:
%2</source>
        <translation>%1 중지됨:
%2</translation>
    </message>
    <message>
        <source>Demo process ended</source>
        <translation>데모 프로세스 종료됨</translation>
    </message>
    <message>
        <source>the demo database</source>
        <translation>데모 데이터베이스</translation>
    </message>
    <message>
        <source>The demo runs: orders flow through the outbox</source>
        <translation>데모 실행 중: 주문이 아웃박스를 거쳐 흐릅니다</translation>
    </message>
    <message>
        <source>Cannot start the demo</source>
        <translation>데모를 시작할 수 없음</translation>
    </message>
    <message>
        <source>Stopping the demo</source>
        <translation>데모 중지</translation>
    </message>
    <message>
        <source>Stopping the demo…</source>
        <translation>데모를 중지하는 중…</translation>
    </message>
    <message>
        <source>Demo without RabbitMQ: %1</source>
        <translation>RabbitMQ 없는 데모: %1</translation>
    </message>
    <message>
        <source>&amp;Demo</source>
        <translation>데모(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Fix the routing of order.cancelled</source>
        <translation>order.cancelled 라우팅 수정(&amp;F)</translation>
    </message>
    <message>
        <source>Stop the &amp;broker for 30 s</source>
        <translation>브로커 30초 동안 중지(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Kill the relay (restarted after 5 s)</source>
        <translation>릴레이 강제 종료 (5초 후 재시작)(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Restart PostgreSQL (immediate stop)</source>
        <translation>PostgreSQL 재시작 (즉시 중지)(&amp;R)</translation>
    </message>
    <message>
        <source>Stop the &amp;consumer</source>
        <translation>컨슈머 중지(&amp;C)</translation>
    </message>
    <message>
        <source>S&amp;tart the consumer</source>
        <translation>컨슈머 시작(&amp;T)</translation>
    </message>
    <message>
        <source>Raise the queue &amp;limit</source>
        <translation>큐 한도 높이기(&amp;L)</translation>
    </message>
    <message>
        <source>About the &amp;demo</source>
        <translation>데모 정보(&amp;D)</translation>
    </message>
    <message>
        <source>&lt;b&gt;The demo&lt;/b&gt;&lt;p&gt;orders-service → outbox → relay (publisher confirms) → exchange %1 → queue %2 → consumer (inbox) → order counts. Order cancellations have no queue until the routing is fixed (Demo menu).&lt;/p&gt;</source>
        <translation>&lt;b&gt;데모&lt;/b&gt;&lt;p&gt;orders-service → 아웃박스 → 릴레이 (publisher confirms) → 익스체인지 %1 → 큐 %2 → 컨슈머 (인박스) → 주문 집계. 라우팅을 수정하기 전까지 주문 취소 이벤트를 받을 큐가 없습니다(데모 메뉴).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>About the demo</source>
        <translation>데모 정보</translation>
    </message>
</context>
<context>
    <name>DemoSystem</name>
    <message>
        <source>started without RabbitMQ: the relay publishes into a fault-injecting sink</source>
        <translation>RabbitMQ 없이 시작됨: 릴레이가 장애 주입 싱크로 발행합니다</translation>
    </message>
    <message>
        <source>rabbitmq-server is not installed: the relay publishes into a fault-injecting sink</source>
        <translation>rabbitmq-server가 설치되어 있지 않음: 릴레이가 장애 주입 싱크로 발행합니다</translation>
    </message>
    <message>
        <source>RabbitMQ did not start (%1): the relay publishes into a fault-injecting sink</source>
        <translation>RabbitMQ가 시작되지 않음 (%1): 릴레이가 장애 주입 싱크로 발행합니다</translation>
    </message>
    <message>
        <source>Routing fixed: queue %1 is bound for order.cancelled; retry the dead rows to publish them</source>
        <translation>라우팅 수정됨: 큐 %1에 order.cancelled가 바인딩되었습니다. 배달 못한 메시지 행을 재시도하면 발행됩니다</translation>
    </message>
    <message numerus="yes">
        <source>Broker stopped for %n second(s): rows wait, and drain when it is back</source>
        <translation>
            <numerusform>브로커가 %n초 동안 중지됨: 행은 대기하다가 브로커가 복구되면 처리됩니다</numerusform>
        </translation>
    </message>
    <message>
        <source>Broker back after the outage</source>
        <translation>장애 후 브로커 복구됨</translation>
    </message>
    <message numerus="yes">
        <source>The relay ended (%1); it is restarted in %n second(s)</source>
        <translation>
            <numerusform>릴레이 종료됨 (%1). %n초 후 다시 시작합니다</numerusform>
        </translation>
    </message>
    <message>
        <source>Relay restarted: it takes over the leases of the one before when they expire</source>
        <translation>릴레이 재시작됨: 이전 릴레이의 리스가 만료되면 넘겨받습니다</translation>
    </message>
    <message>
        <source>PostgreSQL stopped with -m immediate; every connection is cut</source>
        <translation>PostgreSQL이 -m immediate로 중지됨. 모든 연결이 끊깁니다</translation>
    </message>
    <message>
        <source>PostgreSQL is back after crash recovery</source>
        <translation>크래시 복구 후 PostgreSQL이 다시 실행됨</translation>
    </message>
    <message>
        <source>Queue %1 may hold 100,000 messages now; retry the refused rows</source>
        <translation>이제 큐 %1에 메시지를 100,000개까지 넣을 수 있습니다. 거부된 행을 재시도하세요</translation>
    </message>
    <message>
        <source>Consumer stopped: order.created events wait in queue %1; past %2 the broker refuses them</source>
        <translation>컨슈머 중지됨: order.created 이벤트가 큐 %1에서 대기합니다. %2개를 넘으면 브로커가 거부합니다</translation>
    </message>
    <message>
        <source>Consumer started: it drains queue %1, and its inbox drops what it applied before</source>
        <translation>컨슈머 시작됨: 큐 %1의 메시지를 처리하며, 이미 적용한 메시지는 인박스에서 걸러냅니다</translation>
    </message>
    <message>
        <source>killed with SIGKILL from the Demo menu</source>
        <translation>데모 메뉴에서 SIGKILL로 강제 종료됨</translation>
    </message>
    <message>
        <source>killed by a signal</source>
        <translation>시그널로 종료됨</translation>
    </message>
    <message>
        <source>exit code %1; its last line: %2</source>
        <translation>종료 코드 %1, 마지막 출력 줄: %2</translation>
    </message>
    <message>
        <source>Starting PostgreSQL…</source>
        <translation>PostgreSQL을 시작하는 중…</translation>
    </message>
    <message>
        <source>Creating the schema…</source>
        <translation>스키마를 만드는 중…</translation>
    </message>
    <message>
        <source>Starting RabbitMQ…</source>
        <translation>RabbitMQ를 시작하는 중…</translation>
    </message>
    <message>
        <source>Starting the orders service, the consumer, the relay and the traffic…</source>
        <translation>주문 서비스, 컨슈머, 릴레이, 트래픽을 시작하는 중…</translation>
    </message>
    <message>
        <source>Starting the orders service, the relay and the traffic…</source>
        <translation>주문 서비스, 릴레이, 트래픽을 시작하는 중…</translation>
    </message>
    <message>
        <source>Stopping the demo&apos;s processes…</source>
        <translation>데모 프로세스를 중지하는 중…</translation>
    </message>
    <message>
        <source>Stopping RabbitMQ…</source>
        <translation>RabbitMQ를 중지하는 중…</translation>
    </message>
    <message>
        <source>Stopping PostgreSQL…</source>
        <translation>PostgreSQL을 중지하는 중…</translation>
    </message>
</context>
<context>
    <name>EditContentDialog</name>
    <message>
        <source>Re&amp;view changes…</source>
        <translation>변경 내용 검토(&amp;V)…</translation>
    </message>
    <message>
        <source>&amp;Back</source>
        <translation>뒤로(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Edit and retry</source>
        <translation>수정 후 재시도(&amp;E)</translation>
    </message>
    <message>
        <source>Edit and retry row %1</source>
        <translation>행 %1 수정 후 재시도</translation>
    </message>
    <message>
        <source>Row %1 is %2. Change what it carries to its consumers; once you confirm, it goes back to pending with the new content and a fresh attempt budget. Its event type, aggregate and keys stay.</source>
        <translation>행 %1의 상태는 %2입니다. 소비자에게 전달할 내용을 고치세요. 확인하면 새 내용과 새 시도 한도로 대기(pending) 상태로 돌아갑니다. 이벤트 유형, 애그리거트와 키는 그대로입니다.</translation>
    </message>
    <message>
        <source>&amp;Payload</source>
        <translation>페이로드(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Headers</source>
        <translation>헤더(&amp;H)</translation>
    </message>
    <message>
        <source>The difference as the database will store it. The row is edited only if it is still failed, dead or discarded and still carries what you edited when the action runs; otherwise nothing is written and you are told.</source>
        <translation>데이터베이스에 저장될 형태의 차이입니다. 작업이 실행될 때 행이 여전히 실패, 배달 못한 메시지 또는 폐기 상태이고 편집을 시작한 내용을 그대로 담고 있을 때만 수정됩니다. 그렇지 않으면 아무것도 쓰지 않고 알려 드립니다.</translation>
    </message>
    <message>
        <source>&amp;Reason (recorded in the audit log with both versions):</source>
        <translation>사유 (두 버전과 함께 감사 기록에 남음)(&amp;R):</translation>
    </message>
    <message>
        <source>e.g. amount sent as text by the old client, fixed by hand</source>
        <translation>예: 이전 클라이언트가 금액을 문자열로 보내 직접 수정함</translation>
    </message>
    <message>
        <source>Payload: %1</source>
        <translation>페이로드: %1</translation>
    </message>
    <message>
        <source>Headers: %1</source>
        <translation>헤더: %1</translation>
    </message>
    <message>
        <source>Nothing is changed yet.</source>
        <translation>아직 바뀐 내용이 없습니다.</translation>
    </message>
    <message>
        <source>empty: a JSON value is required, e.g. {} or null</source>
        <translation>비어 있음: JSON 값이 필요합니다 (예: {} 또는 null)</translation>
    </message>
    <message>
        <source>more than one JSON value: put them in an array or object</source>
        <translation>JSON 값이 둘 이상입니다: 배열이나 객체로 묶으세요</translation>
    </message>
    <message>
        <source>line %1, column %2: %3</source>
        <translation>%1행 %2열: %3</translation>
    </message>
    <message>
        <source>Row %1 is %2 by now: only failed, dead or discarded rows can be edited.</source>
        <translation>행 %1은(는) 이제 %2 상태입니다: 실패, 배달 못한 메시지 또는 폐기된 행만 수정할 수 있습니다.</translation>
    </message>
    <message>
        <source>The database would store exactly what the row carries now: the edit changes only the layout. To publish the row as it is, retry it.</source>
        <translation>데이터베이스에는 지금 행에 담긴 내용과 똑같이 저장됩니다: 편집은 형식만 바꿉니다. 행을 그대로 발행하려면 재시도하세요.</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>변경 없음</translation>
    </message>
    <message>
        <source>Payload</source>
        <translation>페이로드</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>헤더</translation>
    </message>
    <message>
        <source>Row %1 was changed while you edited it: its payload or headers are not what you started from. Cancel and open it again to edit what it carries now.</source>
        <translation>편집하는 동안 행 %1이(가) 바뀌었습니다: 페이로드나 헤더가 편집을 시작한 내용과 다릅니다. 취소하고 다시 열어 지금 담긴 내용을 편집하세요.</translation>
    </message>
</context>
<context>
    <name>EventTypesModel</name>
    <message>
        <source>At least %1: counting stops after %2 rows have been read, so that it stays cheap on large tables</source>
        <translation>최소 %1 — 큰 테이블에서도 부담이 적도록 %2개 행을 읽은 뒤 세기를 멈춥니다</translation>
    </message>
    <message>
        <source>%1+</source>
        <translation>%1+</translation>
    </message>
    <message>
        <source>Event type</source>
        <translation>이벤트 유형</translation>
    </message>
    <message>
        <source>Oldest unpublished</source>
        <translation>가장 오래된 미발행 행</translation>
    </message>
</context>
<context>
    <name>EventTypesView</name>
    <message>
        <source>Double-click a count to see those rows, or a name to see all rows of the type</source>
        <translation>개수를 더블클릭하면 해당 행을, 이름을 더블클릭하면 그 유형의 모든 행을 봅니다</translation>
    </message>
    <message>
        <source>The outbox holds no rows.</source>
        <translation>아웃박스에 행이 없습니다.</translation>
    </message>
    <message numerus="yes">
        <source>%n event type(s), as of %1. Each count stops at %2 so that it stays cheap on large tables.</source>
        <translation>
            <numerusform>이벤트 유형 %n개, %1 기준. 큰 테이블에서도 가볍도록 각 개수는 %2에서 멈춥니다.</numerusform>
        </translation>
    </message>
    <message>
        <source>Only the first %1 by name are listed.</source>
        <translation>이름순으로 처음 %1개만 표시합니다.</translation>
    </message>
</context>
<context>
    <name>ExportRunner</name>
    <message>
        <source>Exporting rows to %1…</source>
        <translation>행을 %1에 내보내는 중…</translation>
    </message>
    <message>
        <source>Exporting metrics to %1…</source>
        <translation>지표를 %1에 내보내는 중…</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1에 쓸 수 없습니다: %2</translation>
    </message>
</context>
<context>
    <name>FailureGroupsModel</name>
    <message>
        <source>First seen %1
Last seen %2</source>
        <translation>처음 발생: %1
마지막 발생: %2</translation>
    </message>
    <message>
        <source>%1

For example (row %2):
%3</source>
        <translation>%1

예시 (행 %2):
%3</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>행 수</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>Dead</source>
        <translation>배달 못한 메시지</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>마지막 발생</translation>
    </message>
    <message>
        <source>Event types</source>
        <translation>이벤트 유형</translation>
    </message>
    <message>
        <source>Cause (error signature)</source>
        <translation>원인 (오류 시그니처)</translation>
    </message>
    <message>
        <source>%1+ rows</source>
        <translation>%1개 이상 행</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s)</source>
        <translation>
            <numerusform>%n개 행</numerusform>
        </translation>
    </message>
    <message>
        <source>%1+ keys</source>
        <translation>%1개 이상 키</translation>
    </message>
    <message numerus="yes">
        <source>%n key(s)</source>
        <translation>
            <numerusform>%n개 키</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%2의 %1</translation>
    </message>
    <message>
        <source>Holds back</source>
        <translation>막고 있는 행</translation>
    </message>
    <message>
        <source>The group&apos;s dead rows with an ordering key each block their key: the key&apos;s later rows wait until the dead row is retried or discarded. Counted up to %1.</source>
        <translation>순서 키가 있는 이 그룹의 배달 못한 메시지 행은 각각 자기 키를 막습니다: 그 행을 재시도하거나 폐기할 때까지 키의 이후 행이 기다립니다. 최대 %1까지 셉니다.</translation>
    </message>
</context>
<context>
    <name>FailuresView</name>
    <message>
        <source>&amp;Show rows</source>
        <translation>행 보기(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Retry group…</source>
        <translation>그룹 재시도(&amp;R)…</translation>
    </message>
    <message>
        <source>Failed and dead</source>
        <translation>실패 및 배달 못한 메시지</translation>
    </message>
    <message>
        <source>Failed (retry scheduled)</source>
        <translation>실패 (재시도 예약됨)</translation>
    </message>
    <message>
        <source>Dead</source>
        <translation>배달 못한 메시지</translation>
    </message>
    <message>
        <source>Which rows to group</source>
        <translation>그룹으로 묶을 행</translation>
    </message>
    <message>
        <source>Select a group to see an example of its error.</source>
        <translation>그룹을 선택하면 오류 예시를 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Open the group&apos;s rows in the outbox list</source>
        <translation>그룹의 행을 아웃박스 목록에서 열기</translation>
    </message>
    <message>
        <source>Requeue every row of the group, as it is when you confirm, with a reason for the audit log</source>
        <translation>확인하는 시점에 그룹에 속한 모든 행을 재시도하고, 사유를 감사 기록에 남깁니다</translation>
    </message>
    <message>
        <source>No failed or dead rows.</source>
        <translation>실패했거나 배달 못한 메시지가 된 행이 없습니다.</translation>
    </message>
    <message numerus="yes">
        <source>%1 rows in %n group(s)</source>
        <translation>
            <numerusform>그룹 %n개, 행 %1개</numerusform>
        </translation>
    </message>
    <message>
        <source>Cause: %1
Group id: %2 (outboxctl requeue --signature %2)
Event types: %3
First seen %4, last seen %5

Example, row %6:
%7</source>
        <translation>원인: %1
그룹 ID: %2 (outboxctl requeue --signature %2)
이벤트 유형: %3
처음 발생 %4, 마지막 발생 %5

예시, 행 %6:
%7</translation>
    </message>
    <message>
        <source>Dis&amp;card group…</source>
        <translation>그룹 폐기(&amp;C)…</translation>
    </message>
    <message>
        <source>Give up on every row of the group, as it is when you confirm: not published, the later rows of their ordering keys flow again, and Retry brings them back</source>
        <translation>확인하는 시점에 그룹에 속한 모든 행을 포기합니다: 발행되지 않고, 순서 키의 이후 행이 다시 흘러가며, 재시도하면 되돌아옵니다</translation>
    </message>
    <message>
        <source>

Its dead rows block their ordering keys: %1 wait behind them until they are retried or discarded (outboxctl discard --signature %2).</source>
        <translation>

이 그룹의 배달 못한 메시지 행이 순서 키를 막고 있습니다: 재시도하거나 폐기할 때까지 %1이(가) 뒤에서 기다립니다 (outboxctl discard --signature %2).</translation>
    </message>
</context>
<context>
    <name>KeyDetailPane</name>
    <message>
        <source>In progress: a request with this key is executing; duplicates are refused (409) until its lease ends at %1.</source>
        <translation>진행 중: 이 키의 요청이 실행되고 있습니다. %1에 리스가 끝날 때까지 중복 요청은 거부됩니다(409).</translation>
    </message>
    <message>
        <source>In progress, but its lease expired at %1 (the worker presumably crashed): the next request with this key takes it over.</source>
        <translation>진행 중이지만 %1에 리스가 만료되었습니다(워커가 비정상 종료된 것으로 보임). 이 키로 들어오는 다음 요청이 이어받습니다.</translation>
    </message>
    <message>
        <source>Expired at %1: the next request with this key is treated as new.</source>
        <translation>%1에 만료됨: 이 키로 들어오는 다음 요청은 새 요청으로 처리됩니다.</translation>
    </message>
    <message>
        <source>Failed, retryable (released): the next request with this key executes again.</source>
        <translation>실패, 재시도 가능(해제됨): 이 키로 들어오는 다음 요청은 다시 실행됩니다.</translation>
    </message>
    <message>
        <source>Failed, final: repeats of the request get the stored failure until %1.</source>
        <translation>실패, 최종: %1까지 같은 요청을 반복하면 저장된 실패 결과를 받습니다.</translation>
    </message>
    <message>
        <source>Completed: repeats of the request get the stored response until %1.</source>
        <translation>완료: %1까지 같은 요청을 반복하면 저장된 응답을 받습니다.</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>항목</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>값</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>이벤트</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>생성 시각</translation>
    </message>
    <message>
        <source>Response</source>
        <translation>응답</translation>
    </message>
    <message>
        <source>Outbox rows</source>
        <translation>아웃박스 행</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>레코드</translation>
    </message>
    <message>
        <source>Select an idempotency key to see its stored response and the outbox rows of its order.</source>
        <translation>멱등성 키를 선택하면 저장된 응답과 해당 주문의 아웃박스 행을 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Loading key %1…</source>
        <translation>키 %1 불러오는 중…</translation>
    </message>
    <message>
        <source>Could not load key %1: %2</source>
        <translation>키 %1을(를) 불러올 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Key %1 no longer exists (purged).</source>
        <translation>키 %1: 정리되어 더 이상 존재하지 않습니다.</translation>
    </message>
    <message>
        <source> · response %1</source>
        <translation> · 응답 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (scope %2) · %3%4&lt;br&gt;fingerprint &lt;code&gt;%5&lt;/code&gt;&lt;br&gt;%6</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (범위 %2) · %3%4&lt;br&gt;지문 &lt;code&gt;%5&lt;/code&gt;&lt;br&gt;%6</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>범위</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>키</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>지문</translation>
    </message>
    <message>
        <source>Lease until</source>
        <translation>리스 만료 시각</translation>
    </message>
    <message>
        <source>Expires (TTL)</source>
        <translation>만료 시각 (TTL)</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>수정 시각</translation>
    </message>
    <message>
        <source>Replays</source>
        <translation>재생 횟수</translation>
    </message>
    <message>
        <source>Last replay</source>
        <translation>마지막 재생</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>주문</translation>
    </message>
    <message>
        <source>none</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>(no response stored yet: the request has not finished)</source>
        <translation>(아직 저장된 응답 없음: 요청이 끝나지 않았습니다)</translation>
    </message>
    <message>
        <source>Outbox rows (%1)</source>
        <translation>아웃박스 행 (%1)</translation>
    </message>
    <message>
        <source>Response (%1 · %2)</source>
        <translation>응답 (%1 · %2)</translation>
    </message>
    <message>
        <source>Show its outbox rows</source>
        <translation>이 키의 아웃박스 행 보기</translation>
    </message>
    <message>
        <source>Open in the Outbox tab the rows this key&apos;s request wrote</source>
        <translation>이 키의 요청이 기록한 행을 아웃박스 탭에서 엽니다</translation>
    </message>
</context>
<context>
    <name>KeysTableModel</name>
    <message>
        <source>Scope</source>
        <translation>범위</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>키</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>지문</translation>
    </message>
    <message>
        <source>Replays</source>
        <translation>재생 횟수</translation>
    </message>
    <message>
        <source>Last replay</source>
        <translation>마지막 재생</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>생성 시각</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>만료 시각</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>주문</translation>
    </message>
    <message>
        <source>Response</source>
        <translation>응답</translation>
    </message>
    <message>
        <source> (released)</source>
        <translation> (해제됨)</translation>
    </message>
    <message>
        <source> (final)</source>
        <translation> (최종)</translation>
    </message>
</context>
<context>
    <name>KeysView</name>
    <message>
        <source>Key starts with</source>
        <translation>키 접두사</translation>
    </message>
    <message>
        <source>Created from</source>
        <translation>생성 시작 시각</translation>
    </message>
    <message>
        <source>Show every key</source>
        <translation>모든 키 표시</translation>
    </message>
    <message>
        <source>Keys beginning with this text, exactly as typed (% and _ are not wildcards)</source>
        <translation>입력한 텍스트로 정확히 시작하는 키 (%와 _는 와일드카드가 아님)</translation>
    </message>
    <message>
        <source>Copy key</source>
        <translation>키 복사</translation>
    </message>
    <message>
        <source>Copy fingerprint</source>
        <translation>지문 복사</translation>
    </message>
    <message>
        <source>Show only status “%1”</source>
        <translation>“%1” 상태만 표시</translation>
    </message>
    <message>
        <source>Show only keys starting with “%1”</source>
        <translation>접두사가 “%1”인 키만 표시</translation>
    </message>
    <message>
        <source>Show its outbox rows</source>
        <translation>이 키의 아웃박스 행 보기</translation>
    </message>
    <message>
        <source>Open in the Outbox tab the rows the selected key&apos;s request wrote</source>
        <translation>선택한 키의 요청이 기록한 행을 아웃박스 탭에서 엽니다</translation>
    </message>
    <message>
        <source>The outbox rows key “%1” wrote are no longer there (purged)</source>
        <translation>키 “%1”이(가) 기록한 아웃박스 행이 더 이상 없습니다(삭제됨)</translation>
    </message>
</context>
<context>
    <name>ListViewSetup</name>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Stop this search on the server</source>
        <translation>서버에서 이 검색 중지</translation>
    </message>
    <message>
        <source> · scroll for more</source>
        <translation> · 스크롤하면 더 불러옵니다</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>검색 중…</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>불러오는 중…</translation>
    </message>
    <message numerus="yes">
        <source>Search cancelled · %n row(s) loaded · F5 searches again</source>
        <translation>
            <numerusform>검색 취소됨 · 행 %n개 불러옴 · F5 키로 다시 검색</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) loaded%1</source>
        <translation>
            <numerusform>행 %n개 불러옴%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>지우기</translation>
    </message>
    <message>
        <source>Copy as &amp;JSON</source>
        <translation>JSON으로 복사(&amp;J)</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Outbox Console</source>
        <translation>아웃박스 콘솔</translation>
    </message>
    <message>
        <source>&amp;Overview</source>
        <translation>개요(&amp;O)</translation>
    </message>
    <message>
        <source>O&amp;utbox</source>
        <translation>아웃박스(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Idempotency keys</source>
        <translation>멱등성 키(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Metrics</source>
        <translation>지표(&amp;M)</translation>
    </message>
    <message>
        <source>Metrics exported to %1</source>
        <translation>지표를 %1에 내보냈습니다</translation>
    </message>
    <message>
        <source>Export metrics</source>
        <translation>지표 내보내기</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation>연결(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Export list…</source>
        <translation>목록 내보내기(&amp;E)…</translation>
    </message>
    <message>
        <source>Every row matching the outbox or key filter, as CSV or JSON lines</source>
        <translation>아웃박스 또는 키 필터와 일치하는 모든 행을 CSV 또는 JSON Lines로 내보냅니다</translation>
    </message>
    <message>
        <source>Export &amp;metrics CSV…</source>
        <translation>지표 CSV 내보내기(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>종료(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>새로 고침(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Filter</source>
        <translation>필터(&amp;F)</translation>
    </message>
    <message>
        <source>Times in &amp;UTC</source>
        <translation>UTC로 시간 표시(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Auto-refresh</source>
        <translation>자동 새로 고침(&amp;A)</translation>
    </message>
    <message numerus="yes">
        <source>Every %n second(s)</source>
        <translation>
            <numerusform>%n초마다</numerusform>
        </translation>
    </message>
    <message>
        <source>Off</source>
        <translation>끄기</translation>
    </message>
    <message>
        <source>&amp;Stuck threshold…</source>
        <translation>멈춘 행 기준(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Actions</source>
        <translation>작업(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation>정보(&amp;A)</translation>
    </message>
    <message>
        <source>About Outbox Console</source>
        <translation>아웃박스 콘솔 정보</translation>
    </message>
    <message>
        <source>&lt;b&gt;Outbox Console %1&lt;/b&gt;&lt;p&gt;Inspect and repair idempotency keys and the transactional outbox on PostgreSQL.&lt;/p&gt;&lt;p&gt;GPL-3.0-or-later.&lt;/p&gt;</source>
        <translation>&lt;b&gt;아웃박스 콘솔 %1&lt;/b&gt;&lt;p&gt;PostgreSQL의 멱등성 키와 트랜잭션 아웃박스를 점검하고 복구합니다.&lt;/p&gt;&lt;p&gt;GPL-3.0-or-later.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>%1에 연결하는 중…</translation>
    </message>
    <message>
        <source>Not connected — File → Connect…</source>
        <translation>연결되지 않음 — 파일 → 연결…</translation>
    </message>
    <message>
        <source>%1@%2/%3 — Outbox Console</source>
        <translation>%1@%2/%3 — 아웃박스 콘솔</translation>
    </message>
    <message>
        <source>%1 · database %2 · user %3 · schema v%4 · PostgreSQL %5</source>
        <translation>%1 · 데이터베이스 %2 · 사용자 %3 · 스키마 v%4 · PostgreSQL %5</translation>
    </message>
    <message>
        <source>May requeue rows and release leases</source>
        <translation>행을 재시도하고 리스를 해제할 수 있습니다</translation>
    </message>
    <message>
        <source>Stuck threshold</source>
        <translation>멈춘 행 기준</translation>
    </message>
    <message>
        <source>Pending or failed rows due for longer than this many minutes count as stuck:</source>
        <translation>처리 예정 시각이 지난 지 이 시간(분)보다 오래된 대기 또는 실패 행을 멈춘 행으로 봅니다:</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV 파일 (*.csv);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Export idempotency keys</source>
        <translation>멱등성 키 내보내기</translation>
    </message>
    <message>
        <source>Export outbox rows</source>
        <translation>아웃박스 행 내보내기</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;JSON lines (*.jsonl)</source>
        <translation>CSV 파일 (*.csv);;JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>Export cancelled; %1 was not written</source>
        <translation>내보내기 취소됨. %1 파일은 만들어지지 않았습니다</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n row(s) to %1</source>
        <translation>
            <numerusform>행 %n개를 %1에 내보냈습니다</numerusform>
        </translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>내보내기 실패</translation>
    </message>
    <message>
        <source>The password is stored in the keychain</source>
        <translation>비밀번호를 키체인에 저장했습니다</translation>
    </message>
    <message>
        <source>The keychain no longer holds this connection&apos;s password</source>
        <translation>키체인에서 이 연결의 비밀번호를 삭제했습니다</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>최근 연결 열기(&amp;R)</translation>
    </message>
    <message>
        <source>F&amp;orget the stored password</source>
        <translation>저장된 비밀번호 삭제(&amp;O)</translation>
    </message>
    <message>
        <source>Removes this connection&apos;s password from the keychain</source>
        <translation>키체인에서 이 연결의 비밀번호를 삭제합니다</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>언어(&amp;L)</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>시스템 언어</translation>
    </message>
    <message>
        <source>The console will use %1 from its next start.</source>
        <translation>다음에 시작할 때부터 콘솔이 %1(으)로 표시됩니다.</translation>
    </message>
    <message>
        <source>No recent connections</source>
        <translation>최근 연결 없음</translation>
    </message>
    <message>
        <source>Reading the password from the keychain…</source>
        <translation>키체인에서 비밀번호를 읽는 중…</translation>
    </message>
    <message>
        <source>Keychain: %1</source>
        <translation>키체인: %1</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>메시지</translation>
    </message>
    <message>
        <source>Could not connect: %1</source>
        <translation>연결할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Export metrics: %1</source>
        <translation>지표 내보내기: %1</translation>
    </message>
    <message>
        <source>&amp;Messages</source>
        <translation>메시지(&amp;M)</translation>
    </message>
    <message>
        <source>Every message of this session, with its time and the rows it concerns</source>
        <translation>이 세션의 모든 메시지와 그 시각, 관련된 행</translation>
    </message>
    <message>
        <source>Connection to the database lost: %1. Reconnecting…</source>
        <translation>데이터베이스 연결이 끊겼습니다: %1. 다시 연결하는 중…</translation>
    </message>
    <message>
        <source>Connection to the database restored</source>
        <translation>데이터베이스 연결이 복구되었습니다</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>내보내기 실패: %1</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>잊기</translation>
    </message>
    <message>
        <source>Each relay is removed from the registry only if it still does not run when the action runs; one that heartbeats again is left alone. A forgotten relay that starts again registers anew.</source>
        <translation>작업이 실행될 때 여전히 실행되지 않는 릴레이만 레지스트리에서 제거됩니다. 다시 하트비트를 보내는 릴레이는 그대로 둡니다. 잊은 릴레이가 다시 시작하면 새로 등록됩니다.</translation>
    </message>
    <message numerus="yes">
        <source>Forgot %n relay(s)</source>
        <translation>
            <numerusform>릴레이 %n개를 잊었습니다</numerusform>
        </translation>
    </message>
    <message>
        <source>Forget failed</source>
        <translation>잊기 실패</translation>
    </message>
    <message numerus="yes">
        <source>, %n left alone (running again, or forgotten already)</source>
        <translation>
            <numerusform>, %n개는 그대로 둠 (다시 실행 중이거나 이미 잊음)</numerusform>
        </translation>
    </message>
    <message>
        <source>Paused %1</source>
        <translation>%1 일시 중지됨</translation>
    </message>
    <message>
        <source>Paused already: nothing changed</source>
        <translation>이미 일시 중지됨: 바뀐 것이 없습니다</translation>
    </message>
    <message>
        <source>Pause failed</source>
        <translation>일시 중지 실패</translation>
    </message>
    <message>
        <source>%1 was not paused any more: nothing changed</source>
        <translation>%1은(는) 더 이상 일시 중지 상태가 아닙니다: 바뀐 것이 없습니다</translation>
    </message>
    <message numerus="yes">
        <source>Resumed %1: %n held row(s) let go</source>
        <translation>
            <numerusform>%1 재개됨: 보류된 행 %n개를 내보냄</numerusform>
        </translation>
    </message>
    <message>
        <source>Resumed %1</source>
        <translation>%1 재개됨</translation>
    </message>
    <message>
        <source>Resume failed</source>
        <translation>재개 실패</translation>
    </message>
    <message>
        <source>no relay of that name is registered: check the name (a relay that starts under it will be paused)</source>
        <translation>그 이름의 릴레이가 등록되어 있지 않습니다: 이름을 확인하세요 (그 이름으로 시작하는 릴레이는 일시 중지됩니다)</translation>
    </message>
    <message>
        <source>no outbox row has that event type: check the name (rows that arrive with it will be held)</source>
        <translation>그 이벤트 유형의 아웃박스 행이 없습니다: 이름을 확인하세요 (그 유형으로 들어오는 행은 보류됩니다)</translation>
    </message>
    <message>
        <source>Live updates paused — F5 re-reads</source>
        <translation>실시간 갱신 일시 중지됨 — F5로 다시 읽기</translation>
    </message>
    <message>
        <source>&amp;Pause live updates</source>
        <translation>실시간 갱신 일시 중지(&amp;P)</translation>
    </message>
    <message>
        <source>Change notifications and the auto-refresh no longer re-read the lists and the Overview; F5 still does</source>
        <translation>변경 알림과 자동 새로 고침이 더 이상 목록과 개요를 다시 읽지 않습니다. F5로는 계속 다시 읽을 수 있습니다</translation>
    </message>
    <message>
        <source>Fai&amp;lures</source>
        <translation>실패(&amp;L)</translation>
    </message>
    <message>
        <source>Audi&amp;t</source>
        <translation>감사 기록(&amp;T)</translation>
    </message>
    <message>
        <source>Event t&amp;ypes</source>
        <translation>이벤트 유형(&amp;Y)</translation>
    </message>
    <message>
        <source>Times in l&amp;ocal time</source>
        <translation>현지 시간으로 표시(&amp;O)</translation>
    </message>
    <message>
        <source>%1 (schema version %2)</source>
        <translation>%1 (스키마 버전 %2)</translation>
    </message>
    <message>
        <source>The connection goes through a transaction-pooling proxy, which cannot keep the LISTEN that brings each change at once, so the console re-reads on a timer (View ▸ Auto-refresh). Connect directly, or through a session-mode pool with OUTBOX_POOLING=none, for immediate updates.</source>
        <translation>연결이 트랜잭션 풀링 프록시를 거치므로 변경을 바로 알려 주는 LISTEN을 유지할 수 없어, 콘솔이 타이머로 다시 읽습니다(보기 ▸ 자동 새로 고침). 변경을 바로 보려면 직접 연결하거나, OUTBOX_POOLING=none으로 세션 모드 풀을 거쳐 연결하십시오.</translation>
    </message>
    <message numerus="yes">
        <source>Updates every %n second(s): through a connection pooler</source>
        <translation>
            <numerusform>%n초마다 갱신: 연결 풀러를 거침</numerusform>
        </translation>
    </message>
    <message>
        <source>Reconnected to another server, %1 (was %2): the database failed over</source>
        <translation>다른 서버에 다시 연결되었습니다: %1 (이전: %2) — 데이터베이스가 장애 조치(failover)되었습니다</translation>
    </message>
</context>
<context>
    <name>MessageLog</name>
    <message numerus="yes">
        <source>Show %n row(s)</source>
        <translation>
            <numerusform>%n개 행 보기</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (×%2)</source>
        <translation>%1 (×%2)</translation>
    </message>
    <message>
        <source>Opens these rows in the Outbox tab</source>
        <translation>이 행들을 아웃박스 탭에서 엽니다</translation>
    </message>
    <message>
        <source>Time (this computer)</source>
        <translation>시각 (이 컴퓨터)</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>메시지</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>행</translation>
    </message>
</context>
<context>
    <name>MessageLogView</name>
    <message>
        <source>Every message of this session; click “Show … rows” to open the rows it concerns</source>
        <translation>이 세션의 모든 메시지입니다. “… 행 보기”를 누르면 관련된 행을 엽니다</translation>
    </message>
</context>
<context>
    <name>MetricThresholds</name>
    <message>
        <source>duplicate hit rate %1 % &gt; %2 %</source>
        <translation>중복 적중률 %1 % &gt; %2 %</translation>
    </message>
    <message>
        <source>retry rate %1 % &gt; %2 %</source>
        <translation>재시도율 %1 % &gt; %2 %</translation>
    </message>
    <message>
        <source>oldest pending %1 s &gt; %2 s</source>
        <translation>가장 오래된 대기 %1초 &gt; %2초</translation>
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
        <translation>차트 저장</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 이미지 (*.png)</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>%1에 쓸 수 없습니다.</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>확대/축소 초기화</translation>
    </message>
    <message>
        <source>Save as PNG…</source>
        <translation>PNG로 저장…</translation>
    </message>
    <message>
        <source>No data in this window</source>
        <translation>이 기간에는 데이터가 없습니다</translation>
    </message>
    <message>
        <source>%1 (so far)</source>
        <translation>%1 (지금까지)</translation>
    </message>
    <message>
        <source>Unfinished bucket: counts so far</source>
        <translation>진행 중인 구간: 지금까지의 수치</translation>
    </message>
</context>
<context>
    <name>MetricsPage</name>
    <message>
        <source>%1 d</source>
        <translation>%1일</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1시간</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1분</translation>
    </message>
    <message>
        <source>Last 15 minutes</source>
        <translation>최근 15분</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>최근 1시간</translation>
    </message>
    <message>
        <source>Last 6 hours</source>
        <translation>최근 6시간</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>최근 24시간</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>최근 7일</translation>
    </message>
    <message>
        <source>Custom range</source>
        <translation>사용자 지정 범위</translation>
    </message>
    <message>
        <source>Reset &amp;zoom</source>
        <translation>확대/축소 초기화(&amp;Z)</translation>
    </message>
    <message>
        <source>Drag across a chart to zoom into a time range; this shows the whole window again</source>
        <translation>차트에서 드래그하면 해당 시간 범위를 확대합니다. 이 버튼은 전체 기간을 다시 보여 줍니다</translation>
    </message>
    <message>
        <source>Window:</source>
        <translation>기간:</translation>
    </message>
    <message>
        <source>Duplicate requests</source>
        <translation>중복 요청</translation>
    </message>
    <message>
        <source>hit rate (%)</source>
        <translation>적중률 (%)</translation>
    </message>
    <message>
        <source>per bucket</source>
        <translation>구간당</translation>
    </message>
    <message>
        <source>duplicate hit rate</source>
        <translation>중복 적중률</translation>
    </message>
    <message>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>요청</translation>
    </message>
    <message>
        <source>replays</source>
        <translation>재생</translation>
    </message>
    <message>
        <source>mismatches (422)</source>
        <translation>불일치 (422)</translation>
    </message>
    <message>
        <source>in progress (409)</source>
        <translation>진행 중 (409)</translation>
    </message>
    <message>
        <source>warning level</source>
        <translation>경고 수준</translation>
    </message>
    <message>
        <source>Outbox lag</source>
        <translation>아웃박스 지연</translation>
    </message>
    <message>
        <source>oldest pending (s)</source>
        <translation>가장 오래된 대기 (초)</translation>
    </message>
    <message>
        <source>backlog (rows)</source>
        <translation>적체 (행)</translation>
    </message>
    <message>
        <source>publish latency (ms)</source>
        <translation>발행 지연 시간 (밀리초)</translation>
    </message>
    <message>
        <source>oldest pending age</source>
        <translation>가장 오래된 대기 시간</translation>
    </message>
    <message>
        <source>s</source>
        <translation>초</translation>
    </message>
    <message>
        <source>backlog</source>
        <translation>적체</translation>
    </message>
    <message>
        <source>latency p50</source>
        <translation>지연 시간 p50</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>밀리초</translation>
    </message>
    <message>
        <source>latency p95</source>
        <translation>지연 시간 p95</translation>
    </message>
    <message>
        <source>latency p99</source>
        <translation>지연 시간 p99</translation>
    </message>
    <message>
        <source>Retries</source>
        <translation>재시도</translation>
    </message>
    <message>
        <source>retry rate (%)</source>
        <translation>재시도율 (%)</translation>
    </message>
    <message>
        <source>retry rate</source>
        <translation>재시도율</translation>
    </message>
    <message>
        <source>dead-letters</source>
        <translation>배달 못한 메시지</translation>
    </message>
    <message>
        <source>lease rescues</source>
        <translation>리스 회수</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>처리량</translation>
    </message>
    <message>
        <source>created</source>
        <translation>생성</translation>
    </message>
    <message>
        <source>published</source>
        <translation>발행</translation>
    </message>
    <message>
        <source>consumed</source>
        <translation>소비</translation>
    </message>
    <message>
        <source>consumer duplicates</source>
        <translation>컨슈머 중복</translation>
    </message>
    <message numerus="yes">
        <source>%1 buckets · %n point(s)</source>
        <translation>
            <numerusform>%1 구간 · 포인트 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>⚠ Above warning level: %1</source>
        <translation>⚠ 경고 수준 초과: %1</translation>
    </message>
    <message>
        <source>✔ Latest figures within their warning levels</source>
        <translation>✔ 최신 수치가 모두 경고 수준 이내입니다</translation>
    </message>
    <message>
        <source>Warning levels</source>
        <translation>경고 수준</translation>
    </message>
    <message>
        <source>Oldest pending age above</source>
        <translation>가장 오래된 대기 시간 경고 기준</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 초</translation>
    </message>
    <message>
        <source>Duplicate hit rate above</source>
        <translation>중복 적중률 경고 기준</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>Retry rate above</source>
        <translation>재시도율 경고 기준</translation>
    </message>
    <message>
        <source>Rates are judged on the last complete bucket: the figures of the bucket still being filled are lighter dots beside the lines until it closes.</source>
        <translation>비율은 마지막으로 끝난 구간으로 판단합니다. 아직 채워지는 구간의 수치는 구간이 끝날 때까지 선 옆에 옅은 점으로 표시됩니다.</translation>
    </message>
    <message>
        <source>&amp;Warning levels…</source>
        <translation>경고 수준(&amp;W)…</translation>
    </message>
</context>
<context>
    <name>OperatorActionDialog</name>
    <message numerus="yes">
        <source>%1 %n outbox row(s)</source>
        <translation>
            <numerusform>아웃박스 행 %n개 %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1 %n row(s).&lt;/b&gt; %2</source>
        <translation>
            <numerusform>&lt;b&gt;행 %n개를 %1합니다.&lt;/b&gt; %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> … and %n more</source>
        <translation>
            <numerusform> … 외 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>Ids:</source>
        <translation>ID:</translation>
    </message>
    <message>
        <source>&amp;Reason (recorded in the audit log):</source>
        <translation>사유 (감사 기록에 남음)(&amp;R):</translation>
    </message>
    <message>
        <source>e.g. broker fixed after incident 4711</source>
        <translation>예: 장애 4711 이후 브로커 복구됨</translation>
    </message>
    <message numerus="yes">
        <source>%1 %n row(s)</source>
        <translation>
            <numerusform>행 %n개 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Later, at</source>
        <translation>나중에(&amp;L), 시각</translation>
    </message>
    <message>
        <source>&amp;Now</source>
        <translation>지금(&amp;N)</translation>
    </message>
    <message>
        <source>When:</source>
        <translation>시점:</translation>
    </message>
    <message numerus="yes">
        <source>%1 %n relay(s)</source>
        <translation>
            <numerusform>릴레이 %n개 %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1 %n relay(s).&lt;/b&gt; %2</source>
        <translation>
            <numerusform>&lt;b&gt;릴레이 %n개 %1.&lt;/b&gt; %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OutboxDetailPane</name>
    <message>
        <source>Time</source>
        <translation>시각</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>시도</translation>
    </message>
    <message>
        <source>Worker</source>
        <translation>워커</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>수행자</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>작업</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>사유</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>변경 내용</translation>
    </message>
    <message>
        <source>Payload</source>
        <translation>페이로드</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>헤더</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>마지막 오류</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>시도 내역</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>감사 기록</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>출처</translation>
    </message>
    <message>
        <source>Select an outbox row to see its payload, errors and history.</source>
        <translation>아웃박스 행을 선택하면 페이로드, 오류, 이력을 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Loading row %1…</source>
        <translation>행 %1 불러오는 중…</translation>
    </message>
    <message>
        <source>Could not load row %1: %2</source>
        <translation>행 %1을(를) 불러올 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Row %1 no longer exists (purged).</source>
        <translation>행 %1: 정리되어 더 이상 존재하지 않습니다.</translation>
    </message>
    <message>
        <source> · leased to %1 until %2</source>
        <translation> · %2까지 %1에 리스됨</translation>
    </message>
    <message>
        <source> · published %1</source>
        <translation> · 발행 %1</translation>
    </message>
    <message>
        <source>(no error)</source>
        <translation>(오류 없음)</translation>
    </message>
    <message>
        <source>Attempts (%1)</source>
        <translation>시도 내역 (%1)</translation>
    </message>
    <message>
        <source>Audit (%1)</source>
        <translation>감사 기록 (%1)</translation>
    </message>
    <message numerus="yes">
        <source>Order &lt;b&gt;%1&lt;/b&gt; was created by the request with idempotency key &lt;b&gt;%2&lt;/b&gt; (scope %3): status %4, response %5, replayed %n time(s), fingerprint &lt;code&gt;%6&lt;/code&gt;.</source>
        <translation>
            <numerusform>이 주문(&lt;b&gt;%1&lt;/b&gt;)은 멱등성 키 &lt;b&gt;%2&lt;/b&gt;(범위 %3)의 요청으로 생성되었습니다. 상태 %4, 응답 %5, 재생 %n회, 지문 &lt;code&gt;%6&lt;/code&gt;.</numerusform>
        </translation>
    </message>
    <message>
        <source>No idempotency record links to %1 %2.</source>
        <translation>%1 %2에 연결된 멱등성 레코드가 없습니다.</translation>
    </message>
    <message>
        <source>Payload (%1)</source>
        <translation>페이로드 (%1)</translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s)</source>
        <translation>
            <numerusform>%n회 시도</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n in total</source>
        <translation>
            <numerusform>총 %n회</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s) since the requeue at %1</source>
        <translation>
            <numerusform>%1 재시도 이후 %n회 시도</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s) counted</source>
        <translation>
            <numerusform>%n회 시도로 집계</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;#%1 %2&lt;/b&gt; · %3 · %4%5</source>
        <translation>&lt;b&gt;#%1 %2&lt;/b&gt; · %3 · %4%5</translation>
    </message>
    <message>
        <source>%1 %2 · dedupe key &lt;code&gt;%3&lt;/code&gt; · created %4%5</source>
        <translation>%1 %2 · 중복 제거 키 &lt;code&gt;%3&lt;/code&gt; · 생성 %4%5</translation>
    </message>
    <message>
        <source>requeued</source>
        <translation>재시도됨</translation>
    </message>
    <message>
        <source>Requeued by %1: %2 (attempts count from 0 again)</source>
        <translation>%1이(가) 재시도함: %2 (시도 횟수는 0부터 다시 셉니다)</translation>
    </message>
    <message>
        <source>ordering key &lt;code&gt;%1&lt;/code&gt;</source>
        <translation>순서 키 &lt;code&gt;%1&lt;/code&gt;</translation>
    </message>
    <message>
        <source>Waiting behind an older row of its %1, published meanwhile: due again at the next claim</source>
        <translation>%1의 이전 행 뒤에서 기다렸으나 그 행은 그사이 발행되었습니다: 다음 클레임에서 다시 처리됩니다</translation>
    </message>
    <message>
        <source>Waiting behind &lt;a href=&quot;row:%1&quot;&gt;#%1&lt;/a&gt; of its %2, %3</source>
        <translation>%2의 &lt;a href=&quot;row:%1&quot;&gt;#%1&lt;/a&gt; 뒤에서 기다리는 중, %3</translation>
    </message>
    <message>
        <source>Published in order with the other rows of its %1</source>
        <translation>%1의 다른 행과 함께 순서대로 발행됩니다</translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation>최소 %1</translation>
    </message>
    <message numerus="yes">
        <source>Holds back %1 later row(s) of its %2</source>
        <translation>
            <numerusform>%2의 이후 행 %1개를 막고 있습니다</numerusform>
        </translation>
    </message>
    <message>
        <source> until it is retried or discarded</source>
        <translation> (재시도하거나 폐기할 때까지)</translation>
    </message>
    <message>
        <source>edited</source>
        <translation>수정됨</translation>
    </message>
    <message>
        <source>Edited and requeued by %1: %2 (attempts count from 0 again)</source>
        <translation>%1이(가) 수정 후 재시도함: %2 (시도 횟수는 0부터 다시 셉니다)</translation>
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
        <translation>이벤트</translation>
    </message>
    <message>
        <source>Aggregate</source>
        <translation>애그리거트</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>시도 횟수</translation>
    </message>
    <message>
        <source>Next attempt</source>
        <translation>다음 시도</translation>
    </message>
    <message>
        <source>Lease owner</source>
        <translation>리스 소유자</translation>
    </message>
    <message>
        <source>Lease expires</source>
        <translation>리스 만료</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>마지막 오류</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>생성 시각</translation>
    </message>
    <message>
        <source>Published</source>
        <translation>발행 시각</translation>
    </message>
    <message>
        <source> (stuck)</source>
        <translation> (멈춤)</translation>
    </message>
    <message>
        <source>Attempts since the row was last requeued (what the relay&apos;s limit counts); the detail pane also counts those before</source>
        <translation>마지막 재시도 이후의 시도 횟수 (릴레이의 한도가 세는 값). 상세 창에는 그 이전의 시도도 함께 표시됩니다</translation>
    </message>
    <message>
        <source>before publishing: %1</source>
        <translation>발행 전 오류: %1</translation>
    </message>
    <message>
        <source>before it was discarded: %1</source>
        <translation>폐기 전 오류: %1</translation>
    </message>
    <message>
        <source>A past error: the row failed with it before it was %1; it is not failing now.

%2</source>
        <translation>지난 오류: 이 행은 %1 상태가 되기 전에 이 오류로 실패했으며, 지금은 실패하고 있지 않습니다.

%2</translation>
    </message>
</context>
<context>
    <name>OutboxView</name>
    <message>
        <source>Event type</source>
        <translation>이벤트 유형</translation>
    </message>
    <message>
        <source>Aggregate id</source>
        <translation>애그리거트 ID</translation>
    </message>
    <message>
        <source>Error contains</source>
        <translation>오류 내용 검색</translation>
    </message>
    <message>
        <source>Created from</source>
        <translation>생성 시작 시각</translation>
    </message>
    <message>
        <source>Stuck only</source>
        <translation>멈춘 행만</translation>
    </message>
    <message>
        <source>&amp;Retry selected</source>
        <translation>선택한 행 재시도(&amp;R)</translation>
    </message>
    <message>
        <source>Put selected in-flight rows whose lease expired back to pending</source>
        <translation>선택한 전송 중 행 가운데 리스가 만료된 행을 대기(pending) 상태로 되돌립니다</translation>
    </message>
    <message>
        <source>Show every row</source>
        <translation>모든 행 표시</translation>
    </message>
    <message>
        <source>Cause: %1</source>
        <translation>원인: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n chosen row(s)</source>
        <translation>
            <numerusform>선택된 행 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>Only the rows of this failure group or audited action; click to drop it</source>
        <translation>이 실패 그룹 또는 감사 기록된 작업의 행만 표시합니다. 클릭하면 해제됩니다</translation>
    </message>
    <message>
        <source>Requeue</source>
        <translation>재시도</translation>
    </message>
    <message>
        <source>Release the lease of</source>
        <translation>리스 해제</translation>
    </message>
    <message>
        <source>Each row goes back to pending only if it is still in flight with an expired lease when the action runs.</source>
        <translation>작업이 실행될 때 여전히 전송 중이고 리스가 만료된 행만 대기(pending) 상태로 돌아갑니다.</translation>
    </message>
    <message>
        <source>The filter shows no failed or dead rows.</source>
        <translation>필터에 실패 또는 배달 못한 메시지 행이 없습니다.</translation>
    </message>
    <message>
        <source> The set is capped at %1 rows; run the action again for the rest.</source>
        <translation> 대상은 최대 %1개 행으로 제한됩니다. 나머지는 작업을 다시 실행하세요.</translation>
    </message>
    <message>
        <source>Cannot select rows</source>
        <translation>행을 선택할 수 없음</translation>
    </message>
    <message>
        <source>%1 failed</source>
        <translation>%1 실패</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n row(s) changed</source>
        <translation>
            <numerusform>%1: 행 %n개 변경됨</numerusform>
        </translation>
    </message>
    <message>
        <source>, cancelled before the remaining batches</source>
        <translation>, 나머지 배치 전에 취소됨</translation>
    </message>
    <message>
        <source>Show only event type “%1”</source>
        <translation>이벤트 유형 “%1”만 표시</translation>
    </message>
    <message>
        <source>Show only aggregate “%1”</source>
        <translation>애그리거트 “%1”만 표시</translation>
    </message>
    <message>
        <source>The outbox is empty.</source>
        <translation>아웃박스가 비어 있습니다.</translation>
    </message>
    <message>
        <source>The outbox could not be read: %1</source>
        <translation>아웃박스를 읽을 수 없습니다: %1</translation>
    </message>
    <message numerus="yes">
        <source>No rows match this filter. The %n row(s) of the last action are no longer where the filter looks (requeued rows are pending, then published or failed again): the Messages panel says how they fared and opens them.</source>
        <translation>
            <numerusform>이 필터에 맞는 행이 없습니다. 마지막 작업의 %n개 행은 더 이상 필터가 보는 곳에 없습니다 (재시도한 행은 pending이 된 뒤 발행되거나 다시 실패합니다). 결과는 메시지 패널에서 보고 열 수 있습니다.</numerusform>
        </translation>
    </message>
    <message>
        <source>No rows match this filter. “Show every row” (✕ beside the filters) drops it.</source>
        <translation>이 필터에 맞는 행이 없습니다. “모든 행 표시”(필터 옆의 ✕)로 필터를 해제하세요.</translation>
    </message>
    <message>
        <source>Cannot requeue</source>
        <translation>재시도할 수 없음</translation>
    </message>
    <message>
        <source>This cause last failed a row %1 ago (%2).</source>
        <translation>이 원인으로 마지막으로 실패한 것은 %1 전입니다 (%2).</translation>
    </message>
    <message>
        <source>These rows last failed %1 ago (%2).</source>
        <translation>이 행들이 마지막으로 실패한 것은 %1 전입니다 (%2).</translation>
    </message>
    <message>
        <source> That is within the last minute: the cause may still be present, and the rows may only fail again. Fix it first, or retry a few rows to see.</source>
        <translation> 지난 1분 이내입니다. 원인이 아직 남아 있어 행들이 다시 실패할 수 있습니다. 먼저 원인을 고치거나, 몇 개 행만 재시도해 확인하세요.</translation>
    </message>
    <message numerus="yes">
        <source>Released the leases of %n row(s)</source>
        <translation>
            <numerusform>%n개 행의 리스를 해제했습니다</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Requeued %n row(s)</source>
        <translation>
            <numerusform>%n개 행을 재시도했습니다</numerusform>
        </translation>
    </message>
    <message>
        <source>Blocking keys only</source>
        <translation>키를 막는 행만</translation>
    </message>
    <message>
        <source>Nothing to act on</source>
        <translation>작업할 행이 없습니다</translation>
    </message>
    <message numerus="yes">
        <source>, %n left alone because their state had changed</source>
        <translation>
            <numerusform>, 상태가 바뀌어 %n개 행은 그대로 둠</numerusform>
        </translation>
    </message>
    <message>
        <source>Ids left alone: %1</source>
        <translation>그대로 둔 ID: %1</translation>
    </message>
    <message>
        <source>Dis&amp;card selected</source>
        <translation>선택한 행 폐기(&amp;C)</translation>
    </message>
    <message>
        <source>Move the selected failed, dead or discarded rows back to pending (Ctrl+R)</source>
        <translation>선택한 실패, 배달 못한 메시지 또는 폐기된 행을 대기(pending) 상태로 되돌립니다 (Ctrl+R)</translation>
    </message>
    <message>
        <source>Give up on the selected failed or dead rows: they are not published, the later rows of their ordering keys flow again, and Retry brings them back</source>
        <translation>선택한 실패 또는 배달 못한 메시지 행을 포기합니다: 발행되지 않고, 순서 키의 이후 행이 다시 흘러가며, 재시도하면 되돌아옵니다</translation>
    </message>
    <message>
        <source>Requeue every failed or dead row matching the filter, not just the loaded ones (discarded ones too if the status filter selects them)</source>
        <translation>불러온 행뿐 아니라 필터와 일치하는 모든 실패 또는 배달 못한 메시지 행을 재시도합니다 (상태 필터가 폐기된 행을 고르면 그 행도)</translation>
    </message>
    <message>
        <source>Only dead rows with an ordering key: each holds back every later row of its key until it is retried or discarded</source>
        <translation>순서 키가 있는 배달 못한 메시지 행만: 재시도하거나 폐기할 때까지 각 행이 자기 키의 이후 행을 모두 막습니다</translation>
    </message>
    <message>
        <source>Each row goes back to pending only if it is still failed, dead or discarded when the action runs; any other row is left alone and reported.</source>
        <translation>작업이 실행될 때 여전히 실패, 배달 못한 메시지 또는 폐기 상태인 행만 대기(pending)로 돌아갑니다. 다른 행은 그대로 두고 보고합니다.</translation>
    </message>
    <message>
        <source>Each row is discarded only if it is still failed or dead when the action runs; any other row is left alone and reported.</source>
        <translation>작업이 실행될 때 여전히 실패 또는 배달 못한 메시지 상태인 행만 폐기(discarded)됩니다. 다른 행은 그대로 두고 보고합니다.</translation>
    </message>
    <message>
        <source>The filter shows no failed, dead or discarded rows.</source>
        <translation>필터에 실패, 배달 못한 메시지 또는 폐기된 행이 없습니다.</translation>
    </message>
    <message>
        <source>No row to act on matches the filter.</source>
        <translation>필터와 일치하는 작업 대상 행이 없습니다.</translation>
    </message>
    <message>
        <source>These are all the rows matching the filter right now that the action applies to; the list shows exactly them. Rows that change state before the action runs are left alone and reported; rows that fail later are not touched.</source>
        <translation>지금 필터와 일치하는, 이 작업이 적용되는 모든 행이며, 목록에 정확히 이 행들이 표시됩니다. 작업 실행 전에 상태가 바뀐 행은 그대로 두고 보고하며, 이후에 실패한 행은 건드리지 않습니다.</translation>
    </message>
    <message>
        <source> A discarded row is not published: its consumers do not see that event. The later rows of its ordering key are published next, in order. Retry brings a discarded row back.</source>
        <translation> 폐기된 행은 발행되지 않으므로 소비자는 그 이벤트를 받지 못합니다. 순서 키의 이후 행이 다음으로 순서대로 발행됩니다. 재시도하면 폐기된 행이 되돌아옵니다.</translation>
    </message>
    <message>
        <source>Discard only events the consumers can do without; to have them delivered, fix their cause and retry them.</source>
        <translation>소비자에게 없어도 되는 이벤트만 폐기하세요. 전달되어야 한다면 원인을 고치고 재시도하세요.</translation>
    </message>
    <message>
        <source> A discarded row that is retried is published after the later rows of its ordering key that went on meanwhile.</source>
        <translation> 재시도한 폐기 행은 그동안 먼저 나간 순서 키의 이후 행보다 뒤에 발행됩니다.</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>폐기</translation>
    </message>
    <message>
        <source>&amp;Edit and retry…</source>
        <translation>수정 후 재시도(&amp;E)…</translation>
    </message>
    <message>
        <source>Change the payload or headers of the selected failed, dead or discarded row, see the difference, and requeue it (both versions go into the audit log)</source>
        <translation>선택한 실패, 배달 못한 메시지 또는 폐기된 행의 페이로드나 헤더를 고치고, 차이를 확인한 뒤 재시도합니다 (두 버전 모두 감사 기록에 남음)</translation>
    </message>
    <message>
        <source>Cannot edit</source>
        <translation>수정할 수 없음</translation>
    </message>
    <message>
        <source>Row %1 is %2 by now: only failed, dead or discarded rows can be edited.</source>
        <translation>행 %1은(는) 이제 %2 상태입니다: 실패, 배달 못한 메시지 또는 폐기된 행만 수정할 수 있습니다.</translation>
    </message>
    <message>
        <source>Edit and retry</source>
        <translation>수정 후 재시도</translation>
    </message>
    <message>
        <source>, not edited because its state or content changed after it was opened; nothing was written</source>
        <translation>, 연 뒤에 상태나 내용이 바뀌어 수정하지 않음. 아무것도 쓰지 않았습니다</translation>
    </message>
    <message numerus="yes">
        <source>Edited and requeued %n row(s)</source>
        <translation>
            <numerusform>%n개 행을 수정 후 재시도했습니다</numerusform>
        </translation>
    </message>
    <message>
        <source>, due at %1</source>
        <translation>, %1에 처리 예정</translation>
    </message>
    <message>
        <source>Message id (dedupe key), exactly</source>
        <translation>메시지 ID (중복 제거 키), 정확히 일치</translation>
    </message>
    <message>
        <source>Payload contains (within the created range)</source>
        <translation>페이로드 내용 검색 (생성 시각 범위 안에서)</translation>
    </message>
    <message>
        <source>The row whose dedupe key is exactly this: the message id the broker and the consumers see</source>
        <translation>중복 제거 키가 정확히 이 값인 행: 브로커와 소비자가 보는 메시지 ID입니다</translation>
    </message>
    <message>
        <source>Rows whose payload contains this text (case-insensitive). No index serves it, so it reads the rows created in the range beside it: typing here sets the range to the last 24 hours if none is set. Cancel stops a long search.</source>
        <translation>페이로드에 이 텍스트가 들어 있는 행 (대소문자 구분 없음). 인덱스를 쓰지 않으므로 옆의 생성 시각 범위에 만들어진 행을 읽습니다: 범위가 없으면 여기에 입력할 때 최근 24시간으로 설정됩니다. 오래 걸리는 검색은 취소할 수 있습니다.</translation>
    </message>
    <message>
        <source>Retry all matchi&amp;ng…</source>
        <translation>일치하는 모든 행 재시도(&amp;N)…</translation>
    </message>
    <message>
        <source>Relea&amp;se lease</source>
        <translation>리스 해제(&amp;S)</translation>
    </message>
</context>
<context>
    <name>OverviewPage</name>
    <message>
        <source>&amp;Retry group…</source>
        <translation>그룹 재시도(&amp;R)…</translation>
    </message>
    <message>
        <source>Last hour, per minute</source>
        <translation>최근 1시간, 분 단위</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>대기 중</translation>
    </message>
    <message>
        <source>in flight</source>
        <translation>전송 중</translation>
    </message>
    <message>
        <source>failed, retry scheduled</source>
        <translation>실패, 재시도 예약됨</translation>
    </message>
    <message>
        <source>dead, need an operator</source>
        <translation>배달 못한 메시지, 운영자 조치 필요</translation>
    </message>
    <message>
        <source>Double-click a group to see its rows</source>
        <translation>그룹을 더블클릭하면 해당 행을 볼 수 있습니다</translation>
    </message>
    <message>
        <source>Show rows</source>
        <translation>행 보기</translation>
    </message>
    <message>
        <source>Largest failure groups</source>
        <translation>가장 큰 실패 그룹</translation>
    </message>
    <message>
        <source>Oldest unpublished rows</source>
        <translation>가장 오래된 미발행 행</translation>
    </message>
    <message>
        <source>rows</source>
        <translation>행</translation>
    </message>
    <message>
        <source>lag (s)</source>
        <translation>지연 (초)</translation>
    </message>
    <message>
        <source>published</source>
        <translation>발행</translation>
    </message>
    <message>
        <source>failed attempts</source>
        <translation>실패한 시도</translation>
    </message>
    <message>
        <source>oldest unpublished</source>
        <translation>가장 오래된 미발행</translation>
    </message>
    <message>
        <source>s</source>
        <translation>초</translation>
    </message>
    <message>
        <source>Last operator actions</source>
        <translation>최근 운영자 작업</translation>
    </message>
    <message>
        <source>Requeue every row of the selected group, as they are when you confirm</source>
        <translation>확인하는 시점에 선택한 그룹에 속한 모든 행을 재시도합니다</translation>
    </message>
    <message>
        <source>No operator action on record.</source>
        <translation>기록된 운영자 작업이 없습니다.</translation>
    </message>
    <message>
        <source>All actions in the Audit tab</source>
        <translation>감사 기록 탭에서 모든 작업 보기</translation>
    </message>
    <message>
        <source>Show the %1 rows</source>
        <translation>%1: 해당 행 보기</translation>
    </message>
    <message>
        <source>An estimate from the planner&apos;s statistics (as of the last ANALYZE): about %1. Exact counts stop at %2 so that they stay cheap on large tables.</source>
        <translation>플래너 통계(마지막 ANALYZE 기준)에 따른 추정치: 약 %1. 큰 테이블에서도 부담이 적도록 정확한 집계는 %2에서 멈춥니다.</translation>
    </message>
    <message>
        <source>At least %1: counting stops after %2 rows have been read, so that it stays cheap on large tables</source>
        <translation>최소 %1 — 큰 테이블에서도 부담이 적도록 %2개 행을 읽은 뒤 세기를 멈춥니다</translation>
    </message>
    <message>
        <source>Oldest unpublished row: %1 old</source>
        <translation>가장 오래된 미발행 행: %1 경과</translation>
    </message>
    <message>
        <source>Nothing waits to be published.</source>
        <translation>발행을 기다리는 행이 없습니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;no requests&lt;/b&gt;</source>
        <translation>&lt;b&gt;요청 없음&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Warning level: %1 s (Metrics → Warning levels…)</source>
        <translation>경고 수준: %1초 (지표 → 경고 수준…)</translation>
    </message>
    <message>
        <source>Warning level for the duplicate hit rate: %1 %</source>
        <translation>중복 적중률 경고 수준: %1 %</translation>
    </message>
    <message>
        <source>Updated %1</source>
        <translation>업데이트 시각: %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Relays&lt;/b&gt;: none has registered yet.</source>
        <translation>&lt;b&gt;릴레이&lt;/b&gt;: 아직 등록된 릴레이가 없습니다.</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Relays&lt;/b&gt;: %n alive</source>
        <translation>
            <numerusform>&lt;b&gt;릴레이&lt;/b&gt;: %n개 실행 중</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n stale (presumed dead)</source>
        <translation>
            <numerusform>%n개 응답 없음 (중단된 것으로 추정)</numerusform>
        </translation>
    </message>
    <message>
        <source>stuck, lease expired or overdue</source>
        <translation>정체됨, 리스 만료 또는 기한 초과</translation>
    </message>
    <message numerus="yes">
        <source>Last %n minute(s): &lt;b&gt;%1&lt;/b&gt; published per minute · duplicate hit rate %2</source>
        <translation>
            <numerusform>최근 %n분: 분당 &lt;b&gt;%1&lt;/b&gt;건 발행 · 중복 적중률 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Last hour: %1 published · %2 failed attempts · %3 requests</source>
        <translation>최근 1시간: %1건 발행 · 실패한 시도 %2건 · 요청 %3건</translation>
    </message>
    <message numerus="yes">
        <source>%n failing</source>
        <translation>
            <numerusform>%n개 실패 중</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n gone (process died)</source>
        <translation>
            <numerusform>%n개 사라짐 (프로세스 종료)</numerusform>
        </translation>
    </message>
    <message>
        <source>⚠ Nothing is publishing: rows have waited %1 and nothing was published for %2.</source>
        <translation>⚠ 아무것도 발행되지 않습니다: 행이 %1 동안 기다렸고 %2 동안 발행된 것이 없습니다.</translation>
    </message>
    <message>
        <source>⚠ Nothing is publishing: rows have waited %1 and nothing was ever published.</source>
        <translation>⚠ 아무것도 발행되지 않습니다: 행이 %1 동안 기다렸고 지금까지 발행된 것이 없습니다.</translation>
    </message>
    <message>
        <source>No relay is running: start one (outboxctl relay) or look at why the relays below stopped.</source>
        <translation>실행 중인 릴레이가 없습니다: 릴레이를 시작하거나 (outboxctl relay) 아래 릴레이가 멈춘 이유를 확인하세요.</translation>
    </message>
    <message>
        <source>Every relay is failing: %1.</source>
        <translation>모든 릴레이가 실패 중입니다: %1.</translation>
    </message>
    <message numerus="yes">
        <source>%n relay(s) alive but none published in that time: the oldest rows below say why they wait.</source>
        <translation>
            <numerusform>릴레이 %n개가 실행 중이지만 그동안 아무것도 발행하지 않았습니다: 아래 가장 오래된 행에서 기다리는 이유를 확인하세요.</numerusform>
        </translation>
    </message>
    <message>
        <source>keys blocked by a dead row</source>
        <translation>배달 못한 메시지 행에 막힌 키</translation>
    </message>
    <message>
        <source>Double-click a row to open it in the outbox list; double-click the cause of a row waiting behind another to open that one</source>
        <translation>행을 더블클릭하면 아웃박스 목록에서 엽니다. 다른 행 뒤에서 기다리는 행의 원인을 더블클릭하면 그 행을 엽니다</translation>
    </message>
    <message>
        <source>waiting behind their key</source>
        <translation>키의 이전 행을 기다리는 중</translation>
    </message>
    <message>
        <source>Remove the selected stopped, stale or gone relays from the registry, with a reason for the audit log (a relay that starts again registers anew)</source>
        <translation>선택한 중지됨, 응답 없음 또는 사라진 릴레이를 감사 기록용 사유와 함께 레지스트리에서 제거합니다 (다시 시작하는 릴레이는 새로 등록됩니다)</translation>
    </message>
    <message>
        <source>For&amp;get…</source>
        <translation>잊기(&amp;G)…</translation>
    </message>
    <message>
        <source>&amp;Pause…</source>
        <translation>일시 중지(&amp;P)…</translation>
    </message>
    <message>
        <source>Re&amp;sume…</source>
        <translation>재개(&amp;S)…</translation>
    </message>
    <message>
        <source>held by a paused event type</source>
        <translation>일시 중지된 이벤트 유형에 보류됨</translation>
    </message>
    <message>
        <source>Resume the selected pause, with a reason for the audit log</source>
        <translation>선택한 일시 중지를 감사 기록용 사유와 함께 재개합니다</translation>
    </message>
    <message>
        <source>Pause a relay (the selected one&apos;s name) or an event type, with a reason for the audit log</source>
        <translation>릴레이(선택한 릴레이의 이름) 또는 이벤트 유형을 감사 기록용 사유와 함께 일시 중지합니다</translation>
    </message>
    <message>
        <source>A running relay (alive, paused or failing) cannot be forgotten: stop it first</source>
        <translation>실행 중인 릴레이(실행 중, 일시 중지됨 또는 실패 중)는 잊을 수 없습니다: 먼저 중지하세요</translation>
    </message>
    <message numerus="yes">
        <source>%n paused</source>
        <translation>
            <numerusform>%n개 일시 중지됨</numerusform>
        </translation>
    </message>
    <message>
        <source>Every running relay is paused: resume one (the pauses are listed above).</source>
        <translation>실행 중인 모든 릴레이가 일시 중지되었습니다: 하나를 재개하세요 (일시 중지 목록은 위에 있습니다).</translation>
    </message>
    <message>
        <source>Paused by an operator</source>
        <translation>운영자가 일시 중지함</translation>
    </message>
    <message>
        <source>%1 · &lt;b&gt;%2&lt;/b&gt; %3 %4: %5</source>
        <translation>%1 · &lt;b&gt;%2&lt;/b&gt; %3 %4: %5</translation>
    </message>
    <message>
        <source>⚠ Not read yet: %1</source>
        <translation>⚠ 아직 읽지 못함: %1</translation>
    </message>
    <message>
        <source>⚠ Not updated since %1 (%2 ago): %3 — every figure above is as of then</source>
        <translation>⚠ %1 이후 업데이트되지 않음(%2 전): %3 — 위의 모든 수치는 그 시점 기준입니다</translation>
    </message>
    <message>
        <source>As of %1: %2</source>
        <translation>%1 기준: %2</translation>
    </message>
    <message numerus="yes">
        <source>Last %n minute(s): &lt;b&gt;no complete minute with data yet&lt;/b&gt;</source>
        <translation>
            <numerusform>최근 %n분: &lt;b&gt;데이터가 있는 완료된 분이 아직 없음&lt;/b&gt;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Last %n minute(s), no data before: &lt;b&gt;%1&lt;/b&gt; published per minute · duplicate hit rate %2</source>
        <translation>
            <numerusform>최근 %n분(그 이전 데이터 없음): 분당 &lt;b&gt;%1&lt;/b&gt;건 발행 · 중복 적중률 %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PauseDialog</name>
    <message>
        <source>&amp;Relay named</source>
        <translation>이름으로 릴레이 지정(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Event type</source>
        <translation>이벤트 유형(&amp;E)</translation>
    </message>
    <message>
        <source>Pause publishing</source>
        <translation>발행 일시 중지</translation>
    </message>
    <message>
        <source>A paused relay claims nothing from its next claim on (every relay running under that name). The rows of a paused event type are claimed by no relay; those in flight are still published. Both count in the backlog until resumed.</source>
        <translation>일시 중지된 릴레이는 다음 클레임부터 아무것도 가져가지 않습니다 (그 이름으로 실행 중인 모든 릴레이). 일시 중지된 이벤트 유형의 행은 어떤 릴레이도 가져가지 않으며, 전송 중인 행은 그대로 발행됩니다. 재개될 때까지 둘 다 백로그에 포함됩니다.</translation>
    </message>
    <message>
        <source>Resume %1</source>
        <translation>%1 재개</translation>
    </message>
    <message>
        <source>Resume %1, paused by %2: it claims again at its next poll.</source>
        <translation>%2이(가) 일시 중지한 %1을(를) 재개합니다: 다음 폴링에서 다시 행을 가져갑니다.</translation>
    </message>
    <message>
        <source>Resume %1, paused by %2: its held rows are let go, oldest due first, and published as usual.</source>
        <translation>%2이(가) 일시 중지한 %1을(를) 재개합니다: 보류된 행을 처리 예정 시각이 이른 순서로 내보내며 평소처럼 발행됩니다.</translation>
    </message>
    <message>
        <source>What:</source>
        <translation>대상:</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>이름(&amp;N):</translation>
    </message>
    <message>
        <source>e.g. consumer of order events down for maintenance</source>
        <translation>예: 주문 이벤트 컨슈머 점검 중</translation>
    </message>
    <message>
        <source>Rea&amp;son (recorded in the audit log):</source>
        <translation>사유 (감사 기록에 남음)(&amp;S):</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>일시 중지</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>재개</translation>
    </message>
</context>
<context>
    <name>PausesModel</name>
    <message>
        <source>relay %1</source>
        <translation>릴레이 %1</translation>
    </message>
    <message>
        <source>event type %1</source>
        <translation>이벤트 유형 %1</translation>
    </message>
    <message>
        <source>%1 (resuming)</source>
        <translation>%1 (재개하는 중)</translation>
    </message>
    <message>
        <source>%1+</source>
        <translation>%1+</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>일시 중지 대상</translation>
    </message>
    <message>
        <source>By</source>
        <translation>수행자</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>시작 시각</translation>
    </message>
    <message>
        <source>Rows held</source>
        <translation>보류된 행</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>사유</translation>
    </message>
</context>
<context>
    <name>ProgressRunner</name>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>%1 (%2 so far)</source>
        <translation>%1 (현재까지 %2)</translation>
    </message>
</context>
<context>
    <name>RelayFleetModel</name>
    <message>
        <source>alive</source>
        <translation>실행 중</translation>
    </message>
    <message>
        <source>stale</source>
        <translation>응답 없음</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>중지됨</translation>
    </message>
    <message>
        <source>%1
at %2</source>
        <translation>%1
발생 시각: %2</translation>
    </message>
    <message>
        <source>No heartbeat for %1 (it beats every %2): killed, its host gone, or cut off from the database.</source>
        <translation>%1 동안 하트비트 없음 (주기 %2): 강제 종료되었거나, 호스트가 사라졌거나, 데이터베이스와 연결이 끊겼습니다.</translation>
    </message>
    <message>
        <source>%1 (pid %2)</source>
        <translation>%1 (PID %2)</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>%1 전</translation>
    </message>
    <message>
        <source>%1 /s</source>
        <translation>초당 %1</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>%1 (unreachable)</source>
        <translation>%1 (연결 불가)</translation>
    </message>
    <message>
        <source>Relay</source>
        <translation>릴레이</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>호스트</translation>
    </message>
    <message>
        <source>State</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>마지막 확인</translation>
    </message>
    <message>
        <source>Publishing</source>
        <translation>발행 속도</translation>
    </message>
    <message>
        <source>Published</source>
        <translation>발행 수</translation>
    </message>
    <message>
        <source>Workers × batch</source>
        <translation>워커 × 배치</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>버전</translation>
    </message>
    <message>
        <source>Sink</source>
        <translation>싱크</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>마지막 오류</translation>
    </message>
    <message>
        <source>failing</source>
        <translation>실패 중</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>사라짐</translation>
    </message>
    <message>
        <source>publishes refused for %1: relay %2: %3</source>
        <translation>%1 동안 발행이 거부됨: 릴레이 %2: %3</translation>
    </message>
    <message>
        <source>broker unreachable for %1: relay %2: %3</source>
        <translation>%1 동안 브로커에 연결할 수 없음: 릴레이 %2: %3</translation>
    </message>
    <message>
        <source>now, for %1: %2</source>
        <translation>현재, %1째: %2</translation>
    </message>
    <message>
        <source>resolved, %1 ago: %2</source>
        <translation>해결됨, %1 전: %2</translation>
    </message>
    <message>
        <source>None of its database sessions is left on the server: its process died or was killed. Rows it held are rescued when their leases expire.</source>
        <translation>서버에 이 릴레이의 데이터베이스 세션이 하나도 남아 있지 않습니다: 프로세스가 종료되었거나 강제 종료되었습니다. 이 릴레이가 잡고 있던 행은 리스가 만료되면 회수됩니다.</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>일시 중지됨</translation>
    </message>
    <message>
        <source>Paused by an operator since %1: it claims nothing until its name is resumed (see the pauses above).</source>
        <translation>%1부터 운영자가 일시 중지함: 이 이름이 재개될 때까지 아무것도 가져가지 않습니다 (위의 일시 중지 목록 참조).</translation>
    </message>
    <message>
        <source>Relay %1 publishing again</source>
        <translation>릴레이 %1 다시 발행 중</translation>
    </message>
    <message>
        <source>Relay %1 started</source>
        <translation>릴레이 %1 시작됨</translation>
    </message>
    <message>
        <source>Relay %1 paused</source>
        <translation>릴레이 %1 일시 중지됨</translation>
    </message>
    <message>
        <source>Relay %1 failing</source>
        <translation>릴레이 %1 실패 중</translation>
    </message>
    <message>
        <source>Relay %1 failing: %2</source>
        <translation>릴레이 %1 실패 중: %2</translation>
    </message>
    <message>
        <source>Relay %1 gone: its process died</source>
        <translation>릴레이 %1 사라짐: 프로세스가 종료됨</translation>
    </message>
    <message>
        <source>Relay %1 stale: no heartbeat for %2</source>
        <translation>릴레이 %1 응답 없음: %2 동안 하트비트 없음</translation>
    </message>
    <message>
        <source>Relay %1 stopped</source>
        <translation>릴레이 %1 중지됨</translation>
    </message>
    <message>
        <source>Its last heartbeat: %1</source>
        <translation>마지막 하트비트: %1</translation>
    </message>
    <message>
        <source>%1
process started %2</source>
        <translation>%1
프로세스 시작: %2</translation>
    </message>
    <message>
        <source>%1
lease %2, heartbeat every %3</source>
        <translation>%1
리스 %2, 하트비트 주기 %3</translation>
    </message>
    <message>
        <source>on %1 of %2</source>
        <translation>%1 노드 (%2)</translation>
    </message>
</context>
<context>
    <name>RequeueFollowUp</name>
    <message>
        <source>%1 published</source>
        <translation>%1개 발행됨</translation>
    </message>
    <message>
        <source>%1 failed again</source>
        <translation>%1개 다시 실패</translation>
    </message>
    <message>
        <source> (%1 of them dead)</source>
        <translation> (그중 %1개는 배달 못한 메시지)</translation>
    </message>
    <message>
        <source>, all with “%1”</source>
        <translation>, 모두 “%1”</translation>
    </message>
    <message>
        <source>, %1 of them with “%2”</source>
        <translation>, 그중 %1개는 “%2”</translation>
    </message>
    <message>
        <source>%1 still pending or in flight after %2</source>
        <translation>%2 후에도 %1개가 아직 pending 또는 in_flight</translation>
    </message>
    <message>
        <source>%1 purged meanwhile</source>
        <translation>그사이 %1개 삭제됨</translation>
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
        <translation>초당 행</translation>
    </message>
    <message>
        <source>published</source>
        <translation>발행</translation>
    </message>
    <message>
        <source>failed attempts</source>
        <translation>실패한 시도</translation>
    </message>
    <message>
        <source>went dead</source>
        <translation>배달 못한 메시지가 됨</translation>
    </message>
    <message>
        <source>Last 5 minutes, per second: all event types</source>
        <translation>최근 5분, 초 단위: 모든 이벤트 유형</translation>
    </message>
    <message>
        <source>Last 5 minutes, per second: %1</source>
        <translation>최근 5분, 초 단위: %1</translation>
    </message>
    <message>
        <source>Could not read the last seconds: %1</source>
        <translation>최근 초 단위 집계를 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>No relay is running: nothing is published or counted.</source>
        <translation>실행 중인 릴레이가 없습니다: 아무것도 발행되거나 집계되지 않습니다.</translation>
    </message>
    <message numerus="yes">
        <source>Counted up to %1 by every running relay (%n relay(s)); later seconds are still being counted and are drawn apart. Relays add their seconds once a second.</source>
        <translation>
            <numerusform>실행 중인 모든 릴레이(%n개)가 %1까지 집계했습니다. 이후의 초는 아직 집계 중이라 따로 표시됩니다. 릴레이는 1초마다 집계를 추가합니다.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n running relay(s), not all of which say how far they counted: every second shown may still grow.</source>
        <translation>
            <numerusform>실행 중인 릴레이 %n개 중 일부가 어디까지 집계했는지 알리지 않습니다: 표시된 모든 초가 아직 늘어날 수 있습니다.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SessionInfo</name>
    <message>
        <source>operator</source>
        <translation>운영자</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>읽기 전용</translation>
    </message>
    <message>
        <source>Database user &apos;%1&apos; may only read: requeueing and releasing leases need the outbox_operator role (UPDATE on outbox, INSERT on audit_log).</source>
        <translation>데이터베이스 사용자 &apos;%1&apos;에게는 읽기 권한만 있습니다. 재시도와 리스 해제에는 outbox_operator 역할(outbox에 대한 UPDATE, audit_log에 대한 INSERT)이 필요합니다.</translation>
    </message>
    <message>
        <source>local socket</source>
        <translation>로컬 소켓</translation>
    </message>
</context>
<context>
    <name>StatusFilterButton</name>
    <message>
        <source>Status: all</source>
        <translation>상태: 전체</translation>
    </message>
    <message>
        <source>Status: %1</source>
        <translation>상태: %1</translation>
    </message>
</context>
<context>
    <name>StatusMessageLabel</name>
    <message>
        <source>%1

(Click for every message.)</source>
        <translation>%1

(누르면 모든 메시지를 봅니다.)</translation>
    </message>
</context>
<context>
    <name>StuckRowClassifier</name>
    <message>
        <source>in flight, but the worker&apos;s lease has expired</source>
        <translation>전송 중이지만 워커의 리스가 만료됨</translation>
    </message>
    <message>
        <source>due, but no relay has picked it up</source>
        <translation>처리 시각이 지났지만 가져간 릴레이가 없음</translation>
    </message>
    <message>
        <source>dead: gave up after the maximum attempts</source>
        <translation>배달 못한 메시지: 최대 시도 횟수에 도달해 포기함</translation>
    </message>
</context>
<context>
    <name>TimeFormatter</name>
    <message>
        <source>%1 s</source>
        <translation>%1초</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1분 %2초</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1시간 %2분</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1일 %2시간</translation>
    </message>
</context>
<context>
    <name>TimeRangeFilter</name>
    <message>
        <source>to</source>
        <translation>종료 시각</translation>
    </message>
</context>
<context>
    <name>WaitingRowsModel</name>
    <message>
        <source>No relay is alive to publish it: start one (outboxctl relay)</source>
        <translation>발행할 릴레이가 실행 중이 아닙니다: 릴레이를 시작하세요 (outboxctl relay)</translation>
    </message>
    <message>
        <source>Failing (attempt %1): %2</source>
        <translation>실패 중 (%1번째 시도): %2</translation>
    </message>
    <message>
        <source>Leased by %1, whose lease ran out: the worker is presumed dead; a relay rescues the row</source>
        <translation>%1의 리스가 만료됨: 워커가 중단된 것으로 추정되며, 릴레이가 이 행을 회수합니다</translation>
    </message>
    <message>
        <source>Being published by %1</source>
        <translation>%1에서 발행 중</translation>
    </message>
    <message>
        <source>Not due until %1</source>
        <translation>%1 이후 처리 예정</translation>
    </message>
    <message>
        <source>Due for a long time while relays are alive: they are not keeping up</source>
        <translation>릴레이가 실행 중인데도 오랫동안 처리되지 않음: 릴레이가 처리량을 따라가지 못합니다</translation>
    </message>
    <message>
        <source>Waiting its turn</source>
        <translation>차례를 기다리는 중</translation>
    </message>
    <message>
        <source>Created %1</source>
        <translation>생성 시각: %1</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>대기 시간</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>이벤트</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>원인</translation>
    </message>
    <message>
        <source>Every relay is failing: %1</source>
        <translation>모든 릴레이가 실패 중입니다: %1</translation>
    </message>
    <message>
        <source>Every relay is failing</source>
        <translation>모든 릴레이가 실패 중입니다</translation>
    </message>
    <message>
        <source>Waiting behind an older row of its key, published meanwhile: due again at the next claim</source>
        <translation>키의 이전 행 뒤에서 기다렸으나 그 행은 그사이 발행되었습니다: 다음 클레임에서 다시 처리됩니다</translation>
    </message>
    <message>
        <source>Waiting behind #%1 of its key, failing (attempt %2): %3</source>
        <translation>키의 #%1 뒤에서 기다리는 중, 실패 중 (%2번째 시도): %3</translation>
    </message>
    <message>
        <source>Waiting behind #%1 of its key, %2</source>
        <translation>키의 #%1 뒤에서 기다리는 중, %2</translation>
    </message>
    <message>
        <source>Waiting behind #%1 of its key, dead: %2 — retry or discard #%1 (double-click)</source>
        <translation>키의 #%1 뒤에서 기다리는 중, 배달 못한 메시지: %2 — #%1을(를) 재시도하거나 폐기하세요 (더블클릭)</translation>
    </message>
    <message>
        <source>Its event type %1 is paused: resume it to publish the row</source>
        <translation>이벤트 유형 %1이(가) 일시 중지됨: 재개하면 이 행이 발행됩니다</translation>
    </message>
    <message>
        <source>Every running relay is paused: resume one to publish the row</source>
        <translation>실행 중인 모든 릴레이가 일시 중지됨: 하나를 재개하면 이 행이 발행됩니다</translation>
    </message>
</context>
</TS>
