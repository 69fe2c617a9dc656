# すべてのウィンドウで共通: コアとシェルが報告する問題(コード別)。
# 見出しのあとにコア自身の詳細が続きます。

error-with-detail = { $headline }: { $detail }
error-network = バックエンドに接続できません
error-auth = バックエンドにキーを拒否されました
error-hello-timeout = バックエンドから時間内に応答がありません
error-frame-malformed = バックエンドからのメッセージを読み取れません
error-frame-oversize = メッセージが大きすぎます
error-stall = 応答が途中で止まりました
error-turn-failed = バックエンドが応答できませんでした
error-settings = この設定は使えません
error-storage = ファイルを読み込む、または保存することができません
error-unsupported = このビルドでは使えません
error-closed = 接続していません
error-context-reset = サーバーが会話を失ったため、新しい会話を始めました
error-audio = 音声またはマイクの問題
error-unknown-character = そのキャラクターは出ていません
