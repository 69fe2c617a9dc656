# 設定ウィンドウ: ui/settings.html と ui/src/settings/main.ts（各セクションのコードは sections.ftl）。

# ウィンドウのタイトルと、表示している設定の持ち主
settings-title = YUI 設定
settings-title-editing = YUI 設定 · { $name }
settings-editing = 設定の対象
settings-editing-select =
    .aria-label = 設定を表示するキャラクター
settings-editing-main = { $name }（メイン）
settings-editing-hint = バックエンド、モデル、音声、キャラクターはキャラクターごとの設定です。あなたの名前、言語、反応、デスクトップは全員共通です。
settings-session-strip =
    .aria-label = セッション

# セクション名（docs/guide/ja/controls.md も同じ名前で呼びます）
settings-legend-backend = バックエンド
settings-legend-model = モデル
settings-legend-persona = ペルソナ
settings-legend-screen-tools = 画面とツール
settings-legend-voice = 音声
settings-legend-chat = チャット
settings-legend-reactions = 反応
settings-legend-session = セッション
settings-legend-characters = キャラクター一覧
settings-legend-character = キャラクター
settings-legend-startup = 起動
settings-legend-help = ヘルプ

# 共通のボタンとラベル
settings-refresh = 更新
settings-copy = コピー
settings-model = モデル
settings-save = 保存
settings-saved = 保存しました。

# バックエンド
settings-protocol = プロトコル
settings-protocol-push = Push（WebSocket）
settings-protocol-responses = Responses
settings-protocol-chat-completions = Chat Completions
settings-protocol-agent-chat = エージェントチャット（ローカルエンジン）
settings-base-url = ベース URL
settings-base-url-input =
    .placeholder = 空欄なら内蔵のデモエージェント
settings-key = キー
settings-key-show = 表示
settings-key-hide = 非表示
settings-key-keychain = システムのキーチェーンに保存されています。
settings-key-file = キーチェーンが使えないため、あなただけが読めるファイルに保存されています。
settings-test-connection = 接続テスト
settings-test-connection-hint = 上の値を保存せずにテストします。
settings-find-model = モデルを探す…
settings-find-model-hint = このパソコンで動いているモデルサーバー、プロバイダー、最初のメッセージ。

# 接続テストの結果（$mark: ✓、✗、?）
settings-probe-testing = テスト中…
settings-probe-reachable = 接続 { $mark }
settings-probe-key = キーの認証 { $mark }
settings-probe-model = モデルの応答 { $mark }

# モデル
settings-model-hint = Responses と Chat Completions でのみ使います。プッシュ型バックエンドはモデルを自分で選びます。
settings-effort = 推論の強さ
settings-effort-none = なし
settings-effort-minimal = 最小
settings-effort-low = 低
settings-effort-medium = 中
settings-effort-high = 高
settings-context-window = コンテキスト長
settings-context-window-unit = （トークン）
settings-context-window-hint = 会話はこの長さに収まるように切り詰められます。

# ペルソナ
settings-instructions = 指示
settings-instructions-hint = キャラクターカードの後に送ります。カードがオフのときは指示だけを送ります。
settings-card-enabled = キャラクターカードを送る
settings-user-name = あなたの名前
settings-user-name-input =
    .placeholder = キャラクターからの呼ばれ方
settings-language = 言語
settings-language-hint = YUI のウィンドウとトレイ、既定のカードの言語です。

# 画面とツール
settings-screenshot = メッセージごとに画面を添付する
settings-screenshot-hint = 送るメッセージすべてに、下で選んだ対象の画像が付きます。オンの間、キャラクターに目のバッジが表示されます。
settings-screen-source =
    .aria-label = スクリーンショットの対象
settings-screen-monitor = ディスプレイ
settings-screen-monitor-select =
    .aria-label = ディスプレイ
settings-screen-window = ウィンドウ
settings-screen-app =
    .placeholder = アプリ（例: firefox）
    .aria-label = アプリ
settings-screen-title =
    .placeholder = タイトルの一部（省略可）
    .aria-label = タイトルに含む文字
settings-allow-requests = 頼まれたら画面を見せる
settings-browser = ブラウザーの使用を許可する
settings-relations = 関係
settings-relations-hint = あなたやほかのキャラクターへの気持ちを覚えていて、それが返答に表れます。
settings-relations-heading = 関係
settings-relations-toward = 相手
settings-relations-band = 段階
settings-relations-value = 値
settings-relations-change = 最後の変化

# 音声
settings-voice-enabled = 返答を読み上げる
settings-voice-enabled-hint = オフのときは、返答が読む速さで吹き出しに表示され、音は出ません。
settings-tts-server = TTS サーバー
settings-tts-server-input =
    .placeholder = 空欄ならシステム音声
settings-tts-server-hint = OpenAI 互換の音声合成サーバー（/v1/audio/speech）。
settings-tts-key = TTS キー
settings-tts-voice = 声
settings-tts-in-flight = 同時リクエスト数
settings-speed = 速さ
settings-system-voice = TTS サーバーがないときはシステム音声を使う
settings-system-voice-name = システム音声の名前
settings-system-voice-name-input =
    .placeholder = 空欄なら既定の声（espeak-ng -v、say -v）
settings-output-device = 出力デバイス
settings-filler = 返答が遅いときに短いつなぎの言葉を言う
settings-listening = 聞き取り
settings-listening-hint = キャラクターのマイクボタンで聞き取りのオン/オフを切り替えます。Ctrl+Shift+Space を押している間だけ話すこともできます。
settings-mic = マイク
settings-vad = 感度
settings-stt-server = STT サーバー
settings-stt-server-input =
    .placeholder = 空欄なら音声入力はオフ
settings-stt-server-hint = OpenAI 互換の音声認識サーバー（/v1/audio/transcriptions）。
settings-stt-key = STT キー
settings-stt-language = 言語
settings-stt-language-input =
    .placeholder = 自動
settings-show-keys = キーを表示

# チャット
settings-show-reasoning = 推論を表示する
settings-collapse-reasoning = 推論を最初から折りたたむ
settings-reasoning-hint = モデルが推論している間、チャットウィンドウに出る「考え中…」パネルです。
settings-confirm-delete = 削除の前に確認する
settings-max-attachments = メッセージ 1 件あたりのファイル数
settings-max-attachment-mb = 最大ファイルサイズ（MB）
settings-attachments-hint = どちらかの上限を超えたメッセージは送信されません。

# 反応
settings-notices = 気づくこと
settings-frontmost = 最前面のアプリを伝える
settings-screen-transitions = 別のアプリに移って落ち着いたときや、同じアプリに長くいるときに反応させる
settings-schedule = その日最初の活動であいさつし、時間帯に合わせて話しかける
settings-idle-cues = ひまなときの声かけ（1 時間会話がないとき）
settings-away-after = 不在とみなすまで（分）
settings-quiet-gap = 自分から話しかける間隔（分）
settings-reactions-hint = あなたが返答を読んでいる間や話した直後に、割り込んで話すことはありません。自分から話しかけるのは 1 時間に数回までで、全画面のアプリが最前面にある間は静かにしています。
settings-signals = ほかのプログラムからの知らせ
settings-ingress-enabled = このパソコンのプログラムから知らせを受け取る
settings-ingress-hint = カレンダーの同期、CI の監視、エージェントのフックなどから POST できます。あなたがそばにいて、手が空いているときに反応します。
settings-ingress-port = ポート
settings-ingress-require-token = トークンを必須にする
settings-ingress-token = トークン
settings-ingress-try = 試す
settings-ingress-port-hint = ポートの変更は YUI の再起動後に反映されます。

# セッション
settings-background-work = バックグラウンドの作業
settings-background-work-hint = キャラクターが任せた作業です（新しい順）。終わったものを開くと結果を読めます。

# キャラクター一覧
settings-characters-hint = キャラクターはそれぞれ自分のエージェントの顔で、デスクトップに自分のウィンドウを持ちます。メインが先頭でマイクを使います。同時に 6 人まで出せます。どのキャラクターの設定を表示するかは、このウィンドウの一番上で選びます。
settings-character-new-name =
    .placeholder = 名前
    .aria-label = 新しいキャラクターの名前
settings-character-new-copy = 作成元
settings-character-new-copy-select =
    .aria-label = 最初に引き継ぐもの
settings-character-add = 追加
settings-character-from-card = キャラクターカードから追加（.json / .png）…
settings-character-added = { $name } を追加しました。いま表示しているのは { $name } の設定です。バックエンドを設定しなければ、デモエージェントと話します。

# キャラクター
settings-character-builtin = Yui（内蔵）
settings-character-file = あなたのキャラクター: { $file }
settings-choose-vrm = .vrm を選ぶ…
settings-default-character = 既定に戻す
settings-vrm-hint = VRM 0.x と 1.0 のどちらも使えます。ファイルは YUI のデータフォルダーにコピーされます。
settings-vrm-loaded = { $name } を読み込みました（VRM { $version }）。
settings-back-to-default = Yui に戻しました。
settings-add-vrma = .vrma モーションを追加…
settings-vrma-hint = エージェントがファイル名をモーションとして指定すると、そのクリップが再生されます。
settings-motion-added = モーション「{ $id }」を追加しました。
settings-card-name = カード: { $name }
settings-unnamed = （名前なし）
settings-card-loaded = { $name } のカードを読み込みました。
settings-import-card = キャラクターカードを読み込む（.json / .png）…
settings-card-hint = Tavern Card V2 形式です。このキャラクターのカードを置き換え、会話を最初からやり直します。
settings-bed-at-launch = YUI の起動時にベッドで眠った状態で始める
settings-bed-wake = 自分で起きるまで（分）
settings-bed-hint = キャラクターかベッドをクリックするか、メッセージを送ると早めに起きます。トレイメニューの「寝かせる」でいつでも寝かせられます。

# 起動
settings-start-at-login = ログイン時に YUI を起動する
settings-start-at-login-hint = 既定ではオフです。起動中にもう一度 YUI を起動すると、2 つ目は開かずにキャラクターを画面に呼び戻します。

# ヘルプ（トレイのヘルプ項目と同じ言葉。shell.ftl）
settings-help-hint = 本人に聞いてみてください。YUI に付属のガイドをもとに、吹き出しの中であなたの言語で答えます。
settings-help-controls = 使い方を教えて
settings-help-capabilities = 何ができるの？
settings-help-asked = 聞きました。吹き出しで答えます。

# YUI が送った内容
settings-inspector = YUI が送った内容
settings-inspector-hint = 直近 20 ターンそれぞれのコンテキストブロックと、一緒に送った画像です。このパソコンから送られたとおりに表示します。
settings-context-summary = { $time } · { $transport } · ターン { $turn }
settings-context-pictures = 画像 { $count } 枚
settings-contexts-empty = まだ何も送っていません。
settings-picture-view =
    .alt = 送った画像
