# ペットウィンドウ: ステータス表示、キャラクターの周りの操作、お知らせ。

# キャラクターのキャンバス（コアが伝える名前）。コアが答える前の名前
pet-stage =
    .aria-label = { $name }
pet-default-name = Yui

# ステータス表示: 接続、実行中のターンとツール
pet-pill-connecting = 接続中…
pet-pill-ready = 準備完了
pet-pill-reconnecting = { $seconds }秒後に再接続
pet-pill-key-refused = キーが拒否されました
pet-pill-offline = オフライン
pet-pill-thinking = 考え中…
pet-pill-queued = { $status } (+{ $count })
pet-pill-tool-running = { $tool } 実行中
pet-pill-tool-done = { $tool } 完了
pet-pill-tool-failed = { $tool } 失敗

# ステータス表示: 音声入力
pet-voice-listening = 聞いています
pet-voice-hearing = 聞き取り中…
pet-voice-transcribing = 文字起こし中…
pet-voice-no-permission = マイクの使用が許可されていません
pet-voice-no-device = マイクが見つかりません
pet-voice-device-busy = マイクが使用中です
pet-voice-stream = マイクのエラー
pet-voice-no-stt = 「設定 → 音声」で音声認識サーバーを指定してください。
pet-voice-stt = 文字起こしできませんでした: { $detail }

# ステータスの下の行: 任せた作業とトークン使用量
pet-tasks = 作業: { $summary }
pet-usage =
    .title = 直前の返答のトークン数と、モデルのコンテキスト長
pet-usage-of-window = { $used } / { $window } トークン
pet-usage-tokens = { $used } トークン

# 送るたびに画面を添付しているときの目のバッジ
pet-screen-watch =
    .title = 送るメッセージごとに画面の画像が付きます。設定でオフにできます。
pet-screen-watch-label = 画面を見ています

# オフのツールをオンにする提案
pet-offer-accept = オンにする
    .title = スイッチをオンにします（設定に保存されます）
pet-offer-dismiss =
    .aria-label = 閉じる

# 許可の確認: キャラクターがしたいことと、その答え
pet-ask-look = 画面を見てもいいですか？
pet-ask-open = { $url } を開いてもいいですか？
pet-ask-run = { $tool } を実行してもいいですか？
pet-approval-allow = 許可
pet-approval-always = 常に許可
    .title = 今後も常に許可します
pet-approval-deny = 拒否

# 入力欄とボタン
pet-composer =
    .aria-label = メッセージ
    .placeholder = { $name }に話しかける…
pet-composer-queue =
    .aria-label = メッセージ
    .placeholder = 次に送るメッセージ…
pet-send = 送信
    .aria-label = 送信
pet-stop = 停止
    .aria-label = 返答を止める
pet-mic-off =
    .aria-label = マイクオフ: クリックすると声で話しかけられます
    .title = マイク（Ctrl+Shift+Space を押している間だけ話すこともできます）
pet-mic-on =
    .aria-label = マイクオン: クリックすると聞き取りを止めます
    .title = マイク（Ctrl+Shift+Space を押している間だけ話すこともできます）
pet-chat =
    .aria-label = チャットウィンドウを開く
    .title = チャット履歴（Ctrl+Alt+Y）

# エラー行: ページ自身ができなかったこと
pet-character-failed = キャラクターを読み込めませんでした: { $detail }
