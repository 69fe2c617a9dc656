# 셸이 직접 보여 주는 말: 창 제목과 트레이 메뉴.

window-pet = YUI
window-settings = YUI 설정
window-chat = YUI 채팅
window-welcome = YUI에 오신 것을 환영해요
window-browser = YUI — 브라우저

tray-bring-back = 불러오기
tray-show-hide = 보이기/숨기기
tray-bed = 재우기
tray-characters = 캐릭터
tray-main = 메인 캐릭터
tray-chat = 채팅…
tray-help = 도움말
tray-welcome = 시작 안내…
tray-settings = 설정…
tray-quit = 종료
tray-help-controls = 어떻게 사용하면 돼?
tray-help-capabilities = 뭘 할 수 있어?
