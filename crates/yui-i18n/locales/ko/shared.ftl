# 캐릭터의 창들이 함께 쓰는 말(ui/src/slices/의 슬라이스).

# 연결 상태(채팅 헤더와 설정 띠에 표시)
shared-connection-connecting = 연결 중…
shared-connection-connected = 연결됨
shared-connection-ready = 준비됨
shared-connection-reconnecting = { $seconds }초 후 다시 연결
shared-connection-reconnecting-reason = { $seconds }초 후 다시 연결 — { $reason }
shared-connection-key-refused = 키가 거부됨
shared-connection-offline = 오프라인

# 꺼진 도구를 켜자는 제안
shared-offer-look-screen = 화면을 보여 달라고 했어요.
shared-offer-browser = 브라우저를 쓰려고 했는데 꺼져 있어요.
shared-offer-relations = 누군가에 대한 마음을 기록하려 했는데 관계 기록이 꺼져 있어요.
shared-offer-other = { $switch } 기능을 쓰려고 했는데 꺼져 있어요.

# 맡긴 작업의 수
shared-delegations-running = { $count }개 실행 중
shared-delegations-done = { $count }개 완료
