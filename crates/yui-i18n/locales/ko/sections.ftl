# 설정 창의 각 섹션에서 코드가 쓰는 말: ui/src/settings/
# (bed, characters, chat, desktop, reactions, screen, session, strip, tools, voice).

# 캐릭터(characters.ts)
section-characters-remove-question = { $name } 캐릭터를 삭제할까요? 설정, 대화, 관계, 키가 이 컴퓨터에서 삭제돼요.
section-characters-name-first = 먼저 이름을 입력해 주세요.
section-characters-default-card = 기본 카드
section-characters-copy-of = { $name }의 복사본
section-characters-on-desktop =
    .aria-label = { $name } 캐릭터를 데스크톱에 표시
section-characters-main = 메인
section-characters-make-main = 메인으로 지정
section-characters-remove = 삭제…

# 시작 섹션의 데스크톱 확인(desktop.ts): 확인 항목과 제목
section-desktop-transparency = 투명
section-desktop-click-through = 클릭 통과
section-desktop-always-on-top = 항상 위에 표시
section-desktop-placement = 창 이동
section-desktop-head = 데스크톱 확인: { $path }
section-desktop-failed = 데스크톱 확인: 실행하지 못했어요.
section-desktop-works = ✓ { $name }: { $note }
section-desktop-lacks = ✗ { $name }: { $note }
section-desktop-path-none = 디스플레이 없음
section-desktop-path-xwayland-fallback = XWayland(이 컴포지터에는 layer-shell이 없어요)

# 데스크톱 확인 설명(crates/yui-core/src/world/stage.rs의 문구에 대응)
section-desktop-x11-compositor = 컴포지팅 관리자가 실행 중이에요
section-desktop-x11-no-compositor = 컴포지팅 관리자가 실행 중이 아니라서 창이 검은 상자로 보여요. 컴포지팅 관리자(picom, xcompmgr)를 실행하거나 창 관리자에서 컴포지팅을 켜 주세요
section-desktop-x11-shape = X 서버가 입력 영역 모양을 지원해요
section-desktop-x11-no-shape = X 서버에 SHAPE 확장이 없어서 창 전체가 마우스 입력을 받아요
section-desktop-x11-above = 창 관리자가 맨 위에 유지해 줘요
section-desktop-x11-no-above = 창 관리자가 창을 맨 위에 유지하지 못해서 다른 창에 가려질 수 있어요. 트레이의 '불러오기'나 Ctrl+Shift+Y로 다시 보이게 할 수 있어요
section-desktop-places-herself = 스스로 창을 움직일 수 있어요
section-desktop-compositor-blends = 컴포지터가 창을 투명하게 합성해요
section-desktop-wayland-click-through = 캐릭터가 그린 모양을 컴포지터가 입력 영역으로 써요. Wayland에서는 앱이 전역 단축키를 쓸 수 없으니, 다시 불러오려면 YUI를 한 번 더 실행하거나(컴포지터에서 `yui`를 단축키에 지정해 두세요) 트레이의 '불러오기'를 쓰세요
section-desktop-wayland-overlay = 컴포지터의 오버레이 레이어에 있어서 다른 창보다 위에 보여요
section-desktop-wayland-no-above = Wayland 클라이언트는 스스로 맨 위에 머물 수 없어요. GDK_BACKEND=x11로 YUI를 실행하면 XWayland에서 맨 위에 머물 수 있어요
section-desktop-wayland-margins = 스스로 창을 움직일 수 있어요(layer-shell 여백)
section-desktop-wayland-no-placement = Wayland 클라이언트는 스스로 위치를 정할 수 없어서 걷기, 앉기, 떨어지기를 못 하고 body_action은 unsupported로 응답해요. GDK_BACKEND=x11로 실행하면 데스크톱을 자유롭게 다닐 수 있어요
section-desktop-system-blends = 시스템이 창을 투명하게 합성해요
section-desktop-system-clicks = 시스템이 클릭을 뒤쪽 창으로 통과시켜요
section-desktop-system-above = 시스템이 맨 위에 유지해 줘요
section-desktop-no-display-to-show = 표시할 디스플레이가 없어요
section-desktop-no-display = 디스플레이가 없어요

# 반응: 다른 프로그램의 알림 수신(reactions.ts)
section-reactions-off = 꺼짐: 다른 프로그램이 접근할 수 없어요.
section-reactions-listening = { $address }에서 대기 중이에요(이 컴퓨터에서만).
section-reactions-not-listening = { $address }에서 대기하고 있지 않아요. 저장한 다음 YUI를 다시 시작해 주세요.
section-reactions-copied = 복사했어요
section-reactions-copy-failed = 복사하지 못했어요

# 화면과 도구: 디스플레이와 관계(screen.ts)
section-screen-display = 디스플레이 { $index }
section-screen-display-named = 디스플레이 { $index }: { $name }
section-screen-display-primary = 주 디스플레이
section-screen-display-missing = 디스플레이 { $index }(지금은 없음)
section-screen-band-hostile = 적대
section-screen-band-cold = 냉담
section-screen-band-neutral = 중립
section-screen-band-warm = 호감
section-screen-band-close = 친밀
section-screen-no-change = 아직 변화 없음
section-screen-no-reason = (이유 없음)

# 화면과 도구: 조작(tools.ts)
section-tools-displays-error = 디스플레이 목록을 가져올 수 없어요: { $problem }
section-tools-relation-value =
    .aria-label = { $target }에 대한 값
section-tools-relation-set = 설정
section-tools-relation-you = 나
section-tools-relation-range = 값은 { $min }부터 { $max }까지의 정수예요.
section-tools-relation-done = { $target }에 대한 값을 설정했어요: { $value }({ $band })
section-tools-thumb =
    .alt = { $label }
    .title = { $label } — 클릭하면 확대

# 세션: 백그라운드 작업(session.ts)
section-session-empty = 아직 백그라운드 작업이 없어요.
section-session-running = 실행 중
section-session-done = 완료 · { $status }
section-session-status-ok = 성공
section-session-status-failed = 실패
section-session-status-unknown = 알 수 없음
section-session-started = 시작 { $time }
section-session-started-ended = { $started } · 종료 { $time }

# 제목 아래 세션 표시(strip.ts)
section-strip-replying = 답하는 중…
section-strip-thinking = 생각 중…
section-strip-replying-queued = 답하는 중… (대기 { $count }개)
section-strip-thinking-queued = 생각 중… (대기 { $count }개)
section-strip-running = { $count }개 실행 중

# 음성: 장치 목록과 키(voice.ts)
section-voice-system-default = 시스템 기본값
section-voice-device-missing = { $device }(찾을 수 없음)
section-voice-show-keys = 키 보기
section-voice-hide-keys = 키 숨기기
section-voice-devices-error = 장치 목록을 가져올 수 없어요: { $problem }

# 데스크톱에서 읽을 수 없는 것
section-limitation-wayland = Wayland에는 어느 창이 앞에 있는지, 얼마나 자리를 비웠는지 알 수 있는 일반적인 방법이 없어요. 앞에 있는 창 줄은 보내지 않고, 항상 자리에 있는 것으로 봐요.
section-limitation-sway = 이 컴포지터는 앞에 있는 창은 알려 주지만, 얼마나 자리를 비웠는지는 알려 주지 않아요. 항상 자리에 있는 것으로 봐요.
section-limitation-idle-only = 이 컴포지터는 얼마나 자리를 비웠는지는 알려 주지만, 앞에 있는 창은 알려 주지 않아요. 앞에 있는 창 줄은 보내지 않아요.
section-limitation-unsupported = 이 시스템에서는 아직 앞에 있는 창과 자리를 비운 시간을 읽지 못해요. 앞에 있는 창 줄은 보내지 않고, 항상 자리에 있는 것으로 봐요.
section-limitation-no-display = 읽을 디스플레이가 없어요(DISPLAY도 WAYLAND_DISPLAY도 설정되어 있지 않아요). 앞에 있는 창 줄은 보내지 않고, 항상 자리에 있는 것으로 봐요.
