# チャットウィンドウ（ui/chat.html、ui/src/chat/）。

# サイドバー: 新しいチャット、検索、会話の一覧とその削除。
chat-sidebar =
    .aria-label = 会話
chat-new-chat = ＋ 新しいチャット
    .title = 新しいチャット（Ctrl/⌘N）
chat-search-button =
    .title = 検索（Ctrl/⌘K）
    .aria-label = 検索
chat-settings = 設定
    .title = 設定（Ctrl/⌘,）
chat-untitled = 新しいチャット
chat-conversation-current = 現在 · { $when }
chat-conversation-delete =
    .title = 会話を削除
    .aria-label = 「{ $title }」を削除
chat-delete-all-conversations = すべての会話を削除

# ヘッダー: 会話のタイトルと接続状態。
chat-heading = チャット
chat-connecting = 接続中…
chat-replying = { $status } · 返答中…

# 会話欄: 空のチャット、過去の会話のバナー、待機中のメッセージ。
chat-transcript =
    .aria-label = 会話の内容
chat-empty-title = あいさつしてみましょう
chat-empty-hint = 下にメッセージを入力してください。Enter で送信、Shift+Enter で改行します。
chat-banner-earlier = このチャットの以前のメッセージです。新しいメッセージは最新のメッセージの下に追加されます
chat-banner-older = 過去の会話です。新しいメッセージは現在のチャットに送られます
chat-back-to-latest = 最新に戻る
chat-back-to-current = 現在のチャットに戻る
chat-queued = 待機中
chat-queue-cleared = 待機中のメッセージを消去しました（{ $count } 件）

# 入力欄: 入力ボックス、送信/停止、添付ファイルとその上限。
chat-mentions =
    .aria-label = キャラクター
chat-attach =
    .title = ファイルを添付
    .aria-label = ファイルを添付
chat-input =
    .placeholder = メッセージ…
    .aria-label = メッセージ
chat-placeholder = メッセージ…
chat-placeholder-to = { $name } にメッセージ…
chat-placeholder-to-or-pick = { $name } にメッセージ（@ で相手を選択）…
chat-placeholder-queue = 次に送るメッセージを入力…
chat-placeholder-read-only = 過去の会話（読み取り専用）
chat-send = 送信
    .aria-label = 送信
chat-stop = 停止
    .aria-label = 返答を止める
chat-attachment-remove =
    .aria-label = { $name } を外す
chat-attachment-unknown-kind =
    .title = ファイル
chat-attachment-too-many = { $name }: 1 件のメッセージに添付できるのは { $max } 個までです
chat-attachment-too-big = { $name }（{ $size }）は 1 ファイルあたりの上限 { $limit } を超えています
chat-read-failed = ファイルを読み込めませんでした: { $detail }

# メッセージの操作。
chat-action-copy = コピー
    .title = テキストをコピー
    .aria-label = テキストをコピー
chat-action-regenerate = 再生成
    .title = 別の返答を作成
    .aria-label = 別の返答を作成
chat-action-regenerate-wait = 再生成
    .title = 返答が終わるまでお待ちください
    .aria-label = 返答が終わるまでお待ちください
chat-action-fork = 分岐
    .title = ここまでの内容で新しいチャットを始める
    .aria-label = ここまでの内容で新しいチャットを始める
chat-action-delete = 削除
    .title = このメッセージを削除
    .aria-label = このメッセージを削除
chat-versions =
    .aria-label = バージョン
chat-version-previous =
    .aria-label = 前のバージョン
chat-version-next =
    .aria-label = 次のバージョン
chat-to-everyone = 全員へ
chat-to-character = { $name } へ

# 返答: 推論パネル、ツールカード、許可、結果、使用量の行。
chat-seconds = { $value }秒
chat-thinking = 考え中… { $time }
chat-thought-for = { $time }考えました
chat-tool-preparing = 準備中
chat-tool-preparing-note = ツールを準備中…
chat-tool-running = 実行中
chat-tool-done = 完了
chat-tool-done-in = 完了 · { $time }
chat-tool-failed = 失敗
chat-tool-failed-in = 失敗 · { $time }
chat-tool-no-result = 結果なし
chat-output-show-all = すべて表示
chat-output-show-less = 折りたたむ
chat-output-copy = 出力をコピー
chat-output-none = 出力の報告はありません。
chat-approval-ask = { $tool } を許可しますか？
chat-approve-allow = 許可
chat-approve-always = 常に許可
chat-approve-deny = 拒否
chat-approval-left = 残り { $time }
chat-approval-pending = あなたの確認待ち
chat-approval-allowed = 許可しました
chat-approval-always = 常に許可しました
chat-approval-denied = 拒否しました
chat-approval-timed-out = 時間切れで拒否しました
chat-approval-ended = 実行が終了しました
chat-approval-gone = 確認は不要になりました
chat-stopped = 停止しました
chat-stopped-unconfirmed = 停止しました（エンジンから停止の確認がありません）
chat-error-auth = キーが拒否されました
chat-error-rate-limit = リクエスト数の上限に達しました
chat-error-empty = 出力がありません
chat-error-no-answer = ツールは実行されましたが、返答がありませんでした
chat-error-internal = 問題が発生しました
chat-error-tools-succeeded = (ツール呼び出し { $count } 件が成功)
chat-usage-chars = { $count }文字
chat-usage-seconds = { $value }秒
chat-usage-ttft = TTFT { $value }秒
chat-usage-tokens = { $tokens } / { $window } トークン
chat-latency-request-sent = リクエスト送信 +{ $ms } ms
chat-latency-first-token = 最初のトークン +{ $ms } ms
chat-latency-first-sentence = 最初の文 +{ $ms } ms
chat-latency-first-audio = 最初の音声 +{ $ms } ms

# ツールのスイッチをオンにする提案。
chat-offer-off = { $switch } はオフです。
chat-offer-accept = オンにする
    .title = スイッチをオンにします（設定に保存されます）。次の呼び出しから使われます
chat-offer-dismiss =
    .aria-label = 閉じる

# 検索。
chat-search-panel =
    .aria-label = メッセージを検索
chat-search-input =
    .placeholder = メッセージを検索…
chat-search-none = 一致するメッセージはありません。

# 確認と一時的なお知らせ。
chat-cancel = キャンセル
chat-delete-confirm = 削除
chat-delete-message-question = このメッセージを削除しますか？
chat-delete-conversation-question = 「{ $title }」を削除しますか？この操作は元に戻せません。
chat-delete-all-question = すべての会話を削除しますか？この操作は元に戻せません。
chat-delete-all-confirm = すべて削除
chat-copied = コピーしました
chat-copy-failed = コピーできませんでした
chat-conversation-gone = その会話はもうありません。
chat-from-character = { $name }: { $text }
chat-start-failed = チャットウィンドウを起動できませんでした: { $problem }
