# 모든 창에서 함께 쓰는 말: 코어와 셸이 알리는 문제(코드별).
# 제목 뒤에 코어가 준 자세한 내용이 이어져요.

error-with-detail = { $headline }: { $detail }
error-network = 백엔드에 연결할 수 없어요
error-auth = 백엔드가 키를 거부했어요
error-hello-timeout = 백엔드가 제때 응답하지 않았어요
error-frame-malformed = 백엔드에서 온 메시지를 읽을 수 없어요
error-frame-oversize = 메시지가 너무 커요
error-stall = 답변이 도중에 끊겼어요
error-turn-failed = 백엔드가 응답하지 못했어요
error-settings = 이 설정은 쓸 수 없어요
error-storage = 파일을 읽거나 저장할 수 없어요
error-unsupported = 이 빌드에서는 지원하지 않아요
error-closed = 연결되어 있지 않아요
error-context-reset = 서버에서 대화가 사라져서 새 대화를 시작했어요
error-audio = 소리 또는 마이크 문제
error-unknown-character = 그런 캐릭터는 나와 있지 않아요

# 코어가 직접 쓰는 말(UiEvent::Notice의 phrase)
notice-not-connected = 백엔드에 연결되어 있지 않아요.
notice-reset-not-sent = 연결되어 있지 않아서 초기화를 보내지 못했어요.
notice-stalled = 백엔드가 제때 답하지 않았어요.
notice-dropped = 답변이 오기 전에 연결이 끊겼어요.
notice-no-switch = '{ $switch }'라는 도구 스위치는 없어요.
notice-wait-regenerate = 답변이 끝난 뒤에 다시 생성해 주세요.
notice-nothing-to-regenerate = 다시 생성할 수 없어요. 이 앞에 보낸 메시지가 없어요.
notice-message-not-here = 그 메시지는 이 대화에 없어요.
notice-stop-before-delete = 삭제하기 전에 답변을 멈춰 주세요.
notice-stop-before-delete-conversation = 이 대화를 삭제하기 전에 답변을 멈춰 주세요.
notice-stop-before-delete-all = 대화를 삭제하기 전에 답변을 멈춰 주세요.
notice-key-refused-http = 서버가 키를 거부했어요(HTTP { $status }). 설정에서 키를 확인해 주세요.
notice-key-refused-push = 백엔드가 키를 거부했어요(4401). 설정에서 키를 확인해 주세요.
notice-key-refused = 모델 서버가 키를 거부했어요.
notice-context-reset = 서버에 대화 맥락이 남아 있지 않아서 초기화했어요.
notice-no-sound = 소리를 낼 수 없어요: { $detail }. 말하는 내용은 실제 속도로 보여 줘요.
notice-desktop-limited = 이 데스크톱({ $path })에서는 일부 기능을 쓸 수 없어요. 빠진 기능은 설정 → 시작의 '데스크톱 확인'에서 볼 수 있어요.
