# 펫 창: 상태 표시, 캐릭터 주변의 컨트롤, 알림.

# 캐릭터 캔버스(코어가 알려 준 이름), 코어가 답하기 전의 이름
pet-stage =
    .aria-label = { $name }
pet-default-name = Yui

# 상태 표시: 연결, 진행 중인 턴과 도구
pet-pill-connecting = 연결 중…
pet-pill-ready = 준비됨
pet-pill-reconnecting = { $seconds }초 후 다시 연결
pet-pill-key-refused = 키가 거부됨
pet-pill-offline = 오프라인
pet-pill-thinking = 생각 중…
pet-pill-queued = { $status } (+{ $count })
pet-pill-tool-running = { $tool } 실행 중
pet-pill-tool-done = { $tool } 완료
pet-pill-tool-failed = { $tool } 실패

# 상태 표시: 음성 입력
pet-voice-listening = 듣는 중
pet-voice-hearing = 말소리를 듣는 중…
pet-voice-transcribing = 받아쓰는 중…
pet-voice-no-permission = 마이크 사용 권한이 없어요
pet-voice-no-device = 마이크를 찾을 수 없어요
pet-voice-device-busy = 마이크가 사용 중이에요
pet-voice-stream = 마이크 오류
pet-voice-no-stt = '설정 → 음성'에서 음성 인식 서버를 지정해 주세요.
pet-voice-stt = 받아쓰지 못했어요: { $detail }

# 상태 표시 아래 줄: 맡긴 작업과 토큰 사용량
pet-tasks = 작업: { $summary }
pet-usage =
    .title = 마지막 답변의 토큰 수와 모델의 컨텍스트 길이
pet-usage-of-window = { $used } / { $window } 토큰
pet-usage-tokens = { $used } 토큰

# 보내는 메시지마다 화면을 첨부할 때의 눈 배지
pet-screen-watch =
    .title = 보내는 메시지마다 화면 이미지가 첨부돼요. 설정에서 끌 수 있어요.
pet-screen-watch-label = 화면을 보고 있어요

# 꺼진 도구를 켜자는 제안
pet-offer-accept = 켜기
    .title = 스위치를 켜요(설정에 저장돼요)
pet-offer-dismiss =
    .aria-label = 닫기

# 허용 요청: 캐릭터가 하려는 일과 그 대답
pet-ask-look = 화면을 봐도 될까요?
pet-ask-open = { $url } 페이지를 열어도 될까요?
pet-ask-run = { $tool } 도구를 실행해도 될까요?
pet-approval-allow = 허용
pet-approval-always = 항상 허용
    .title = 앞으로 항상 허용해요
pet-approval-deny = 거부

# 입력창과 버튼
pet-composer =
    .aria-label = 메시지
    .placeholder = { $name }에게 말 걸기…
pet-composer-queue =
    .aria-label = 메시지
    .placeholder = 다음에 보낼 메시지…
pet-send = 보내기
    .aria-label = 보내기
pet-stop = 중지
    .aria-label = 답변 중지
pet-mic-off =
    .aria-label = 마이크 꺼짐: 클릭하면 목소리로 말을 걸 수 있어요
    .title = 마이크(Ctrl+Shift+Space를 누르고 있는 동안만 말하기)
pet-mic-on =
    .aria-label = 마이크 켜짐: 클릭하면 듣기를 멈춰요
    .title = 마이크(Ctrl+Shift+Space를 누르고 있는 동안만 말하기)
pet-chat =
    .aria-label = 채팅 창 열기
    .title = 채팅 기록(Ctrl+Alt+Y)

# 오류 줄: 페이지가 직접 하지 못한 일
pet-character-failed = 캐릭터를 불러오지 못했어요: { $detail }
