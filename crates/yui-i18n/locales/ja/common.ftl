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

# コア自身の言葉(UiEvent::Notice の phrase)
notice-not-connected = バックエンドに接続していません。
notice-reset-not-sent = 接続していないため、リセットを送れませんでした。
notice-stalled = バックエンドから時間内に応答がありませんでした。
notice-dropped = 返答が届く前に接続が切れました。
notice-no-switch = 「{ $switch }」という名前のツールスイッチはありません。
notice-wait-regenerate = 返答が終わってから再生成してください。
notice-nothing-to-regenerate = 再生成できません。この前にあなたのメッセージがありません。
notice-message-not-here = そのメッセージはこの会話にありません。
notice-stop-before-delete = 削除する前に返答を止めてください。
notice-stop-before-delete-conversation = この会話を削除する前に返答を止めてください。
notice-stop-before-delete-all = 会話を削除する前に返答を止めてください。
notice-key-refused-http = サーバーがキーを拒否しました（HTTP { $status }）。設定でキーを確かめてください。
notice-key-refused-push = バックエンドがキーを拒否しました（4401）。設定でキーを確かめてください。
notice-key-refused = モデルサーバーがキーを拒否しました。
notice-context-reset = サーバーに会話の文脈が残っていなかったため、リセットしました。
notice-no-sound = 音が出せません: { $detail }。話す内容は実際の速さで表示します。
notice-desktop-limited = このデスクトップ（{ $path }）では、一部の機能が使えません。足りないものは 設定 → 起動 の「デスクトップの確認」で見られます。
