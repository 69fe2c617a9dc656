# すべてのウィンドウで共通: コアとシェルが報告する問題（コード別）。
# 見出しのあとにコア自身の詳細が続きます。

error-with-detail = { $headline }: { $detail }
error-network = バックエンドに接続できません
error-auth = バックエンドがキーを拒否しました
error-hello-timeout = バックエンドから時間内に応答がありませんでした
error-frame-malformed = バックエンドからのメッセージを読み取れませんでした
error-frame-oversize = メッセージが大きすぎます
error-stall = 返答が途中で止まりました
error-turn-failed = バックエンドが応答できませんでした
error-settings = この設定は使えません
error-storage = ファイルの読み込みまたは保存に失敗しました
error-unsupported = このビルドでは使えません
error-closed = 接続されていません
error-context-reset = サーバー側で会話が失われたため、新しい会話を始めました
error-audio = 音声またはマイクの問題
error-unknown-character = そのキャラクターはデスクトップに出ていません
