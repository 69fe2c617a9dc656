# ようこそ画面: ui/welcome.html と ui/src/welcome/。

# 最初の画面
welcome-window-title = YUI へようこそ
welcome-heading = YUI へようこそ
welcome-lead = いまは小さなデモが返答しています。お好きなモデルにつなぐ設定は、ここでも、あとから設定ウィンドウでもできます。
welcome-language = 言語
welcome-language-picker =
    .aria-label = 言語
welcome-keep-demo = いまはデモのままにする
welcome-done = 完了

# このパソコンで動いているものと、プロバイダー
welcome-pick =
    .aria-label = 返答に使うモデルの選択
welcome-found-heading = このパソコンで見つかったもの
welcome-looking = このパソコンでモデルサーバーを探しています…
welcome-nothing-found = 標準的なポートでは何も動いていません（Ollama、LM Studio、llama.cpp、vLLM、LiteLLM）。
welcome-found-models = モデル { $count } 個
welcome-found-compatible = OpenAI 互換サーバー
welcome-providers-heading = またはプロバイダーを選ぶ
welcome-address-yours = アドレスは自分で入力

# コアが言葉で名付けているプロバイダー（crates/yui-core/src/providers.rs の id ごと）
welcome-provider-openai-compatible = 任意の OpenAI 互換 URL
welcome-provider-agent-chat = エージェントチャットのエンジン
welcome-provider-push = プッシュ型バックエンド
welcome-provider-demo = デモのままにする
welcome-provider-llama-cpp = llama.cpp サーバー

# 接続フォーム
welcome-connect =
    .aria-label = 接続
welcome-base-url = ベース URL
welcome-key = キー
welcome-key-optional = キー（求められる場合）
welcome-model = モデル
welcome-model-input =
    .placeholder = モデル名を選ぶか入力
welcome-models-on-server = このサーバーにはモデルが { $count } 個あります。
welcome-back = 戻る
welcome-go = 接続してあいさつ
welcome-testing = テスト中…
welcome-answer-hint = 最初の返答:
welcome-answer-connected = 接続しました。最初の返答:

# 接続テストで失敗したことと、試すこと
welcome-problem-with-detail = { $advice }（{ $detail }）
welcome-problem-unreachable = そのアドレスからは応答がありません。サーバーが動いているか、ベース URL とポート番号が正しいか確認してください。
welcome-problem-key-refused = サーバーがキーを拒否しました。プロバイダーのページから、前後に余計な文字が入らないようにもう一度コピーしてください。
welcome-problem-model-missing = キーは有効ですが、そのモデルはこのサーバーで応答しません。サーバーの一覧で正確な名前を確認してください。
welcome-problem-wrong-protocol = 応答はありますが、このプロトコルではありません。Chat Completions（ほとんどのサーバーが対応）を試すか、ベース URL を確認してください。

# 声とマイク（ui/src/welcome/voice.ts）
welcome-to-voice = 声とマイクを設定する
welcome-skip = スキップ
welcome-finish = 完了
welcome-next-mic = 次へ: マイク
welcome-voice-heading = 声
welcome-voice-lead = 話す声を選んで試してください。キャラクターが一言話します。うまくいくまで何も保存されません。
welcome-voice-looking = このパソコンで音声合成サーバーを探しています…
welcome-voice-nothing = 標準的なポートで動いている音声合成サーバー（Kokoro-FastAPI、openedai-speech、Speaches）がなく、このパソコンにはシステム音声もありません。
welcome-voice-system = システム音声
welcome-voice-system-detail = 内蔵、オフラインで使えます
welcome-voice-kokoro = Kokoro-FastAPI
welcome-voice-compatible = OpenAI 互換の音声合成サーバー
welcome-voice-other = 別のアドレスの音声合成サーバー
welcome-voice-count = { $count } 種類の声
welcome-voice-models = 音声モデル { $count } 個
welcome-voice-key = キー（求められる場合）
welcome-voice-model = モデル
welcome-voice-name = 声
welcome-voice-try = この声を試す
welcome-voice-trying = 試しています…
welcome-voice-kept = この声で話しました（{ $seconds } 秒）。これからはこの声で話します。
welcome-voice-unreachable = そのアドレスからは応答がありません。音声合成サーバーが動いているか、アドレスとポート番号が正しいか確認してください。
welcome-voice-key-refused = 音声合成サーバーがキーを拒否しました。前後に余計な文字が入らないようにもう一度コピーしてください。
welcome-voice-missing = サーバーは応答しましたが、そのモデルと声では音声が返ってきませんでした。サーバーの一覧で正確な名前を確認してください。
welcome-voice-no-system = このパソコンにはシステム音声がありません。espeak-ng をインストールする（Linux）か、音声合成サーバーを選んでください。
welcome-voice-not-playable = 音声は届きましたが、再生できませんでした。「設定 → 音声」の出力デバイスを確認してください。
welcome-mic-heading = マイク
welcome-mic-lead = オンにすると声で話しかけられます。話し声を待ち受けるか、Ctrl+Shift+Space を押している間だけ聞き取ります。聞き取りには「設定 → 音声」で指定した音声認識サーバーを使います。
welcome-mic-device = マイク
welcome-mic-default = { $name }（既定）
welcome-mic-on = マイクをオンにする
welcome-mic-none = このパソコンにはマイクが見つかりませんでした。
welcome-mic-listening = マイクがオンになりました。キャラクターの下のマイクボタンでオフにできます。
