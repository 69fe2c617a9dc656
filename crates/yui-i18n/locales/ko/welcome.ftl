# 시작 안내 창: ui/welcome.html과 ui/src/welcome/.

# 첫 화면
welcome-window-title = YUI에 오신 것을 환영해요
welcome-heading = YUI에 오신 것을 환영해요
welcome-lead = 지금은 작은 데모가 답변하고 있어요. 원하는 모델에 연결해 보세요. 여기서 해도 되고, 나중에 설정에서 해도 돼요.
welcome-language = 언어
welcome-language-picker =
    .aria-label = 언어
welcome-keep-demo = 지금은 데모 그대로 쓰기
welcome-done = 완료

# 이 컴퓨터에서 실행 중인 서버와 제공자
welcome-pick =
    .aria-label = 답변에 쓸 모델 선택
welcome-found-heading = 이 컴퓨터에서 찾은 서버
welcome-looking = 이 컴퓨터에서 모델 서버를 찾고 있어요…
welcome-nothing-found = 일반적인 포트에서 실행 중인 서버가 없어요(Ollama, LM Studio, llama.cpp, vLLM, LiteLLM).
welcome-found-models = 모델 { $count }개
welcome-found-compatible = OpenAI 호환 서버
welcome-providers-heading = 또는 제공자 선택
welcome-address-yours = 주소를 직접 입력

# 코어가 말로 이름 붙인 제공자(crates/yui-core/src/providers.rs의 id별)
welcome-provider-openai-compatible = 기타 OpenAI 호환 URL
welcome-provider-agent-chat = 에이전트 채팅 엔진
welcome-provider-push = 푸시 백엔드
welcome-provider-demo = 데모 그대로 쓰기
welcome-provider-llama-cpp = llama.cpp 서버

# 연결 양식
welcome-connect =
    .aria-label = 연결
welcome-base-url = 베이스 URL
welcome-key = 키
welcome-key-optional = 키(필요한 경우)
welcome-model = 모델
welcome-model-input =
    .placeholder = 모델 이름을 고르거나 입력
welcome-models-on-server = 이 서버에 모델이 { $count }개 있어요.
welcome-back = 뒤로
welcome-go = 연결하고 인사하기
welcome-testing = 테스트 중…
welcome-answer-hint = 첫 답변:
welcome-answer-connected = 연결됐어요. 첫 답변:

# 연결 테스트에서 실패한 부분과 해 볼 일
welcome-problem-with-detail = { $advice } ({ $detail })
welcome-problem-unreachable = 그 주소에서 응답이 없어요. 서버가 실행 중인지, 베이스 URL과 포트가 맞는지 확인해 주세요.
welcome-problem-key-refused = 서버가 키를 거부했어요. 제공자 페이지에서 앞뒤에 아무것도 붙지 않게 다시 복사해 주세요.
welcome-problem-model-missing = 키는 맞지만 그 모델이 이 서버에서 응답하지 않아요. 서버 목록에서 정확한 이름을 확인해 주세요.
welcome-problem-wrong-protocol = 응답은 있지만 이 프로토콜이 아니에요. 대부분의 서버가 지원하는 Chat Completions를 써 보거나 베이스 URL을 확인해 주세요.

# 목소리와 마이크(ui/src/welcome/voice.ts)
welcome-to-voice = 목소리와 마이크 설정하기
welcome-skip = 건너뛰기
welcome-finish = 마치기
welcome-next-mic = 다음: 마이크
welcome-voice-heading = 목소리
welcome-voice-lead = 말할 때 쓸 목소리를 골라 시험해 보세요. 캐릭터가 한마디 해요. 잘될 때까지 아무것도 저장되지 않아요.
welcome-voice-looking = 이 컴퓨터에서 음성 합성 서버를 찾고 있어요…
welcome-voice-nothing = 일반적인 포트에서 실행 중인 음성 합성 서버(Kokoro-FastAPI, openedai-speech, Speaches)가 없고, 이 컴퓨터에는 시스템 음성도 없어요.
welcome-voice-system = 시스템 음성
welcome-voice-system-detail = 내장, 오프라인에서도 사용 가능
welcome-voice-kokoro = Kokoro-FastAPI
welcome-voice-compatible = OpenAI 호환 음성 합성 서버
welcome-voice-other = 다른 주소의 음성 합성 서버
welcome-voice-count = 목소리 { $count }개
welcome-voice-models = 음성 모델 { $count }개
welcome-voice-key = 키(필요한 경우)
welcome-voice-model = 모델
welcome-voice-name = 목소리
welcome-voice-try = 이 목소리 시험하기
welcome-voice-trying = 시험하는 중…
welcome-voice-kept = 이 목소리로 말했어요({ $seconds }초). 이제 이 목소리로 말해요.
welcome-voice-unreachable = 그 주소에서 응답이 없어요. 음성 합성 서버가 실행 중인지, 주소와 포트가 맞는지 확인해 주세요.
welcome-voice-key-refused = 음성 합성 서버가 키를 거부했어요. 앞뒤에 아무것도 붙지 않게 다시 복사해 주세요.
welcome-voice-missing = 서버가 응답했지만 그 모델과 목소리로는 음성이 오지 않았어요. 서버 목록에서 정확한 이름을 확인해 주세요.
welcome-voice-no-system = 이 컴퓨터에는 시스템 음성이 없어요. espeak-ng를 설치하거나(Linux) 음성 합성 서버를 골라 주세요.
welcome-voice-not-playable = 음성은 받았지만 재생하지 못했어요. '설정 → 음성'에서 출력 장치를 확인해 주세요.
welcome-mic-heading = 마이크
welcome-mic-lead = 켜면 목소리로 말을 걸 수 있어요. 말소리를 기다렸다가 듣거나, Ctrl+Shift+Space를 누르고 있는 동안만 들어요. 말은 '설정 → 음성'에서 지정한 음성 인식 서버로 알아들어요.
welcome-mic-device = 마이크
welcome-mic-default = { $name }(기본)
welcome-mic-on = 마이크 켜기
welcome-mic-none = 이 컴퓨터에서 마이크를 찾지 못했어요.
welcome-mic-listening = 마이크를 켰어요. 캐릭터 아래의 마이크 버튼으로 끌 수 있어요.
