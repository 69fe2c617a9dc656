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
