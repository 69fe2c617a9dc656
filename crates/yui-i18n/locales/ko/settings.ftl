# 설정 창: ui/settings.html과 ui/src/settings/main.ts(각 섹션의 코드는 sections.ftl).

# 창 제목과 지금 보여 주는 설정의 주인
settings-title = YUI 설정
settings-title-editing = YUI 설정 · { $name }
settings-editing = 설정 대상
settings-editing-select =
    .aria-label = 설정을 볼 캐릭터
settings-editing-main = { $name }(메인)
settings-editing-hint = 백엔드, 모델, 음성, 캐릭터는 캐릭터마다 따로 설정해요. 내 이름, 언어, 반응, 데스크톱은 모두 공통이에요.
settings-session-strip =
    .aria-label = 세션

# 섹션 이름(docs/guide/ko/controls.md도 같은 이름으로 불러요)
settings-legend-backend = 백엔드
settings-legend-model = 모델
settings-legend-persona = 페르소나
settings-legend-screen-tools = 화면과 도구
settings-legend-voice = 음성
settings-legend-chat = 채팅
settings-legend-reactions = 반응
settings-legend-session = 세션
settings-legend-characters = 캐릭터 목록
settings-legend-character = 캐릭터
settings-legend-startup = 시작
settings-legend-help = 도움말

# 공통 버튼과 레이블
settings-refresh = 새로 고침
settings-copy = 복사
settings-model = 모델
settings-save = 저장
settings-saved = 저장했어요.

# 백엔드
settings-protocol = 프로토콜
settings-protocol-push = Push(WebSocket)
settings-protocol-responses = Responses
settings-protocol-chat-completions = Chat Completions
settings-protocol-agent-chat = 에이전트 채팅(로컬 엔진)
settings-base-url = 베이스 URL
settings-base-url-input =
    .placeholder = 비워 두면 내장 데모 에이전트
settings-key = 키
settings-key-show = 보기
settings-key-hide = 숨기기
settings-key-keychain = 시스템 키체인에 저장돼 있어요.
settings-key-file = 키체인을 쓸 수 없어서 나만 읽을 수 있는 파일에 저장돼 있어요.
settings-test-connection = 연결 테스트
settings-test-connection-hint = 위의 값을 저장하지 않고 테스트해요.
settings-find-model = 모델 찾기…
settings-find-model-hint = 이 컴퓨터에서 실행 중인 모델 서버, 제공자, 첫 메시지.

# 연결 테스트 결과($mark: ✓, ✗, ?)
settings-probe-testing = 테스트 중…
settings-probe-reachable = 연결 { $mark }
settings-probe-key = 키 인증 { $mark }
settings-probe-model = 모델 응답 { $mark }

# 모델
settings-model-hint = Responses와 Chat Completions에서만 써요. 푸시 백엔드는 모델을 직접 골라요.
settings-effort = 추론 강도
settings-effort-none = 없음
settings-effort-minimal = 최소
settings-effort-low = 낮음
settings-effort-medium = 보통
settings-effort-high = 높음
settings-context-window = 컨텍스트 길이
settings-context-window-unit = (토큰)
settings-context-window-hint = 대화가 이 길이에 맞게 잘려요.

# 페르소나
settings-instructions = 지시
settings-instructions-hint = 캐릭터 카드 다음에 보내요. 카드가 꺼져 있으면 지시만 보내요.
settings-card-enabled = 캐릭터 카드 보내기
settings-user-name = 내 이름
settings-user-name-input =
    .placeholder = 캐릭터가 나를 부르는 이름
settings-language = 언어
settings-language-hint = YUI의 창과 트레이, 기본 카드의 언어예요.

# 화면과 도구
settings-screenshot = 메시지마다 화면 첨부하기
settings-screenshot-hint = 보내는 모든 메시지에 아래에서 고른 대상의 화면 이미지가 첨부돼요. 켜져 있는 동안 캐릭터에 눈 배지가 표시돼요.
settings-screen-source =
    .aria-label = 스크린샷 대상
settings-screen-monitor = 디스플레이
settings-screen-monitor-select =
    .aria-label = 디스플레이
settings-screen-window = 창
settings-screen-app =
    .placeholder = 앱(예: firefox)
    .aria-label = 앱
settings-screen-title =
    .placeholder = 제목 일부(선택 사항)
    .aria-label = 제목에 포함된 글자
settings-allow-requests = 캐릭터가 요청하면 화면 보여 주기
settings-browser = 브라우저 사용 허용하기
settings-relations = 관계
settings-relations-hint = 나와 다른 캐릭터에 대한 마음을 기억하고, 그 마음이 답변에 드러나요.
settings-relations-heading = 관계
settings-relations-toward = 대상
settings-relations-band = 단계
settings-relations-value = 값
settings-relations-change = 마지막 변화

# 음성
settings-voice-enabled = 답변 소리 내어 읽기
settings-voice-enabled-hint = 끄면 답변이 읽는 속도에 맞춰 말풍선에 표시되고 소리는 나지 않아요.
settings-tts-server = TTS 서버
settings-tts-server-input =
    .placeholder = 비워 두면 시스템 음성
settings-tts-server-hint = OpenAI 호환 음성 합성 서버(/v1/audio/speech).
settings-tts-key = TTS 키
settings-tts-voice = 목소리
settings-tts-in-flight = 동시 요청 수
settings-speed = 속도
settings-system-voice = TTS 서버가 없으면 시스템 음성 사용하기
settings-system-voice-name = 시스템 음성 이름
settings-system-voice-name-input =
    .placeholder = 비워 두면 기본 음성(espeak-ng -v, say -v)
settings-output-device = 출력 장치
settings-filler = 답변이 늦으면 짧은 추임새 넣기
settings-listening = 듣기
settings-listening-hint = 캐릭터의 마이크 버튼으로 듣기를 켜고 꺼요. Ctrl+Shift+Space를 누르고 있는 동안만 말할 수도 있어요.
settings-mic = 마이크
settings-vad = 감도
settings-stt-server = STT 서버
settings-stt-server-input =
    .placeholder = 비워 두면 음성 입력 꺼짐
settings-stt-server-hint = OpenAI 호환 음성 인식 서버(/v1/audio/transcriptions).
settings-stt-key = STT 키
settings-stt-language = 언어
settings-stt-language-input =
    .placeholder = 자동
settings-show-keys = 키 보기

# 채팅
settings-show-reasoning = 추론 표시
settings-collapse-reasoning = 추론을 처음부터 접기
settings-reasoning-hint = 모델이 추론하는 동안 채팅 창에 나오는 '생각 중…' 패널이에요.
settings-confirm-delete = 삭제하기 전에 확인하기
settings-max-attachments = 메시지당 파일 수
settings-max-attachment-mb = 최대 파일 크기(MB)
settings-attachments-hint = 한도 중 하나라도 넘는 메시지는 보내지 않아요.

# 반응
settings-notices = 알아차리는 것
settings-frontmost = 맨 앞에 있는 앱 알려 주기
settings-screen-transitions = 다른 앱으로 옮겨 자리 잡거나 한 앱에 오래 머물면 반응하기
settings-schedule = 하루의 첫 활동에 인사하고, 시간대에 맞춰 말 걸기
settings-idle-cues = 심심할 때 말 걸기(한 시간 동안 대화가 없을 때)
settings-away-after = 자리 비움으로 볼 시간(분)
settings-quiet-gap = 먼저 말 거는 간격(분)
settings-reactions-hint = 내가 답변을 읽고 있거나 방금 말했을 때는 끼어들지 않아요. 먼저 말을 거는 건 한 시간에 몇 번까지이고, 전체 화면 앱이 맨 앞에 있으면 조용히 있어요.
settings-signals = 다른 프로그램의 알림
settings-ingress-enabled = 이 컴퓨터의 프로그램이 알림을 보낼 수 있게 하기
settings-ingress-hint = 캘린더 동기화, CI 감시, 에이전트 훅 등이 POST할 수 있어요. 내가 자리에 있고 캐릭터가 한가할 때 반응해요.
settings-ingress-port = 포트
settings-ingress-require-token = 토큰 요구하기
settings-ingress-token = 토큰
settings-ingress-try = 사용해 보기
settings-ingress-port-hint = 포트 변경은 YUI를 다시 시작한 뒤에 적용돼요.

# 세션
settings-background-work = 백그라운드 작업
settings-background-work-hint = 캐릭터가 맡긴 작업이에요(최신순). 끝난 작업을 열면 결과를 볼 수 있어요.

# 캐릭터 목록
settings-characters-hint = 캐릭터는 저마다 자기 에이전트의 얼굴이고, 데스크톱에 자기 창이 있어요. 메인이 맨 앞에 오고 마이크를 써요. 한 번에 6명까지 나올 수 있어요. 어떤 캐릭터의 설정을 볼지는 이 창 맨 위에서 골라요.
settings-character-new-name =
    .placeholder = 이름
    .aria-label = 새 캐릭터의 이름
settings-character-new-copy = 기반
settings-character-new-copy-select =
    .aria-label = 처음에 이어받을 것
settings-character-add = 추가
settings-character-from-card = 캐릭터 카드로 추가(.json 또는 .png)…
settings-character-added = { $name } 캐릭터를 추가했어요. 지금 보이는 건 { $name } 캐릭터의 설정이에요. 백엔드를 설정하지 않으면 데모 에이전트와 대화해요.

# 캐릭터
settings-character-builtin = Yui(내장)
settings-character-file = 내 캐릭터: { $file }
settings-choose-vrm = .vrm 선택…
settings-default-character = 기본값 사용
settings-vrm-hint = VRM 0.x와 1.0 모두 쓸 수 있어요. 파일은 YUI 데이터 폴더에 복사돼요.
settings-vrm-loaded = 불러왔어요: { $name }(VRM { $version })
settings-back-to-default = Yui로 되돌렸어요.
settings-add-vrma = .vrma 모션 추가…
settings-vrma-hint = 에이전트가 파일 이름을 모션으로 지정하면 그 클립이 재생돼요.
settings-motion-added = 모션을 추가했어요: { $id }
settings-card-name = 카드: { $name }
settings-unnamed = (이름 없음)
settings-card-loaded = { $name }의 카드를 불러왔어요.
settings-import-card = 캐릭터 카드 가져오기(.json 또는 .png)…
settings-card-hint = Tavern Card V2 형식이에요. 이 캐릭터의 카드를 바꾸고 대화를 처음부터 다시 시작해요.
settings-bed-at-launch = YUI를 시작할 때 침대에서 잠든 채로 시작하기
settings-bed-wake = 스스로 일어나기까지(분)
settings-bed-hint = 캐릭터나 침대를 클릭하거나 메시지를 보내면 더 빨리 일어나요. 트레이 메뉴의 '재우기'로 언제든 재울 수 있어요.

# 시작
settings-start-at-login = 로그인할 때 YUI 시작하기
settings-start-at-login-hint = 기본값은 꺼짐이에요. YUI가 실행 중일 때 다시 시작하면 하나 더 열지 않고 캐릭터를 화면으로 불러와요.

# 도움말(트레이의 도움말 항목과 같은 말. shell.ftl)
settings-help-hint = 캐릭터에게 물어보세요. YUI에 포함된 안내서를 바탕으로 내가 쓰는 언어로 답해요. 답은 말풍선에 나와요.
settings-help-controls = 어떻게 사용하면 돼?
settings-help-capabilities = 뭘 할 수 있어?
settings-help-asked = 물어봤어요. 답은 말풍선에 나와요.

# YUI가 보낸 내용
settings-inspector = YUI가 보낸 내용
settings-inspector-hint = 최근 20턴 각각의 컨텍스트 블록과 함께 보낸 이미지를, 이 컴퓨터에서 보낸 그대로 보여 줘요.
settings-context-summary = { $time } · { $transport } · 턴 { $turn }
settings-context-pictures = 이미지 { $count }장
settings-contexts-empty = 아직 보낸 게 없어요.
settings-picture-view =
    .alt = 보낸 이미지
