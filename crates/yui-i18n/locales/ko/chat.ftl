# 채팅 창(ui/chat.html, ui/src/chat/).

# 사이드바: 새 채팅, 검색, 대화 목록과 삭제.
chat-sidebar =
    .aria-label = 대화
chat-new-chat = ＋ 새 채팅
    .title = 새 채팅(Ctrl/⌘N)
chat-search-button =
    .title = 검색(Ctrl/⌘K)
    .aria-label = 검색
chat-settings = 설정
    .title = 설정(Ctrl/⌘,)
chat-untitled = 새 채팅
chat-conversation-current = 현재 · { $when }
chat-conversation-delete =
    .title = 대화 삭제
    .aria-label = '{ $title }' 삭제
chat-delete-all-conversations = 모든 대화 삭제

# 머리글: 대화 제목과 연결 상태.
chat-heading = 채팅
chat-connecting = 연결 중…
chat-replying = { $status } · 답하는 중…

# 대화 내용: 빈 채팅, 지난 대화 배너, 대기 중인 메시지.
chat-transcript =
    .aria-label = 대화 내용
chat-empty-title = 인사해 보세요
chat-empty-hint = 아래에 메시지를 입력하세요. Enter로 보내고, Shift+Enter로 줄을 바꿔요.
chat-banner-earlier = 이 채팅의 앞부분이에요. 새 메시지는 최신 메시지 아래에 이어져요
chat-banner-older = 지난 대화예요. 새 메시지는 현재 채팅으로 가요
chat-back-to-latest = 최신으로 돌아가기
chat-back-to-current = 현재 채팅으로 돌아가기
chat-queued = 대기 중
chat-queue-cleared = 대기 중인 메시지를 비웠어요({ $count }개)

# 입력란: 입력 상자, 보내기/중지, 첨부 파일과 그 한도.
chat-mentions =
    .aria-label = 캐릭터
chat-attach =
    .title = 파일 첨부
    .aria-label = 파일 첨부
chat-input =
    .placeholder = 메시지…
    .aria-label = 메시지
chat-placeholder = 메시지…
chat-placeholder-to = { $name }에게 메시지…
chat-placeholder-to-or-pick = { $name }에게 메시지(@로 상대 선택)…
chat-placeholder-queue = 다음에 보낼 메시지 입력…
chat-placeholder-read-only = 지난 대화(읽기 전용)
chat-send = 보내기
    .aria-label = 보내기
chat-stop = 중지
    .aria-label = 답변 중지
chat-attachment-remove =
    .aria-label = { $name } 빼기
chat-attachment-unknown-kind =
    .title = 파일
chat-attachment-too-many = { $name }: 메시지 하나에 파일은 { $max }개까지 첨부할 수 있어요
chat-attachment-too-big = { $name }({ $size }): 파일 하나당 { $limit }까지만 첨부할 수 있어요
chat-read-failed = 파일을 읽지 못했어요: { $detail }

# 메시지 동작.
chat-action-copy = 복사
    .title = 텍스트 복사
    .aria-label = 텍스트 복사
chat-action-regenerate = 다시 생성
    .title = 다른 답변 만들기
    .aria-label = 다른 답변 만들기
chat-action-regenerate-wait = 다시 생성
    .title = 답변이 끝날 때까지 기다려 주세요
    .aria-label = 답변이 끝날 때까지 기다려 주세요
chat-action-fork = 분기
    .title = 여기까지의 내용으로 새 채팅 시작
    .aria-label = 여기까지의 내용으로 새 채팅 시작
chat-action-delete = 삭제
    .title = 이 메시지 삭제
    .aria-label = 이 메시지 삭제
chat-versions =
    .aria-label = 버전
chat-version-previous =
    .aria-label = 이전 버전
chat-version-next =
    .aria-label = 다음 버전
chat-to-everyone = 모두에게
chat-to-character = { $name }에게

# 답변: 추론 패널, 도구 카드, 허용, 결과, 사용량 줄.
chat-seconds = { $value }초
chat-thinking = 생각 중… { $time }
chat-thought-for = { $time } 동안 생각함
chat-tool-preparing = 준비 중
chat-tool-preparing-note = 도구 준비 중…
chat-tool-running = 실행 중
chat-tool-done = 완료
chat-tool-done-in = 완료 · { $time }
chat-tool-failed = 실패
chat-tool-failed-in = 실패 · { $time }
chat-tool-no-result = 결과 없음
chat-output-show-all = 모두 보기
chat-output-show-less = 접기
chat-output-copy = 출력 복사
chat-output-none = 보고된 출력이 없어요.
chat-approval-ask = { $tool } 도구를 허용할까요?
chat-approve-allow = 허용
chat-approve-always = 항상 허용
chat-approve-deny = 거부
chat-approval-left = { $time } 남음
chat-approval-pending = 확인을 기다리는 중
chat-approval-allowed = 허용함
chat-approval-always = 항상 허용함
chat-approval-denied = 거부함
chat-approval-timed-out = 시간 초과로 거부됨
chat-approval-ended = 실행이 끝났어요
chat-approval-gone = 더 이상 대기 중이 아니에요
chat-stopped = 중지됨
chat-stopped-unconfirmed = 중지됨(엔진이 중지를 확인하지 않았어요)
chat-error-auth = 키가 거부됐어요
chat-error-rate-limit = 요청 한도를 넘었어요
chat-error-empty = 출력이 없어요
chat-error-no-answer = 도구는 실행됐지만 답변이 오지 않았어요
chat-error-internal = 문제가 생겼어요
chat-error-tools-succeeded = (도구 호출 { $count }건 성공)
chat-usage-chars = { $count }자
chat-usage-seconds = { $value }초
chat-usage-ttft = TTFT { $value }초
chat-usage-tokens = { $tokens } / { $window } 토큰
chat-latency-request-sent = 요청 보냄 +{ $ms } ms
chat-latency-first-token = 첫 토큰 +{ $ms } ms
chat-latency-first-sentence = 첫 문장 +{ $ms } ms
chat-latency-first-audio = 첫 음성 +{ $ms } ms

# 도구 스위치를 켜자는 제안.
chat-offer-off = { $switch } 스위치가 꺼져 있어요.
chat-offer-accept = 켜기
    .title = 스위치를 켜요(설정에 저장돼요). 다음 호출부터 사용해요
chat-offer-dismiss =
    .aria-label = 닫기

# 검색.
chat-search-panel =
    .aria-label = 메시지 검색
chat-search-input =
    .placeholder = 메시지 검색…
chat-search-none = 일치하는 메시지가 없어요.

# 확인과 잠깐 보이는 알림.
chat-cancel = 취소
chat-delete-confirm = 삭제
chat-delete-message-question = 이 메시지를 삭제할까요?
chat-delete-conversation-question = '{ $title }' 대화를 삭제할까요? 되돌릴 수 없어요.
chat-delete-all-question = 모든 대화를 삭제할까요? 되돌릴 수 없어요.
chat-delete-all-confirm = 모두 삭제
chat-copied = 복사했어요
chat-copy-failed = 복사하지 못했어요
chat-conversation-gone = 그 대화는 더 이상 없어요.
chat-from-character = { $name }: { $text }
chat-start-failed = 채팅 창을 시작하지 못했어요: { $problem }
