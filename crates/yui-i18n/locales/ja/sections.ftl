# 設定ウィンドウの各セクションでコードが書く言葉: ui/src/settings/
# （bed、characters、chat、desktop、reactions、screen、session、strip、tools、voice）。

# キャラクター（characters.ts）
section-characters-remove-question = 「{ $name }」を削除しますか？設定、会話、関係、キーがこのパソコンから削除されます。
section-characters-name-first = 先に名前を付けてください。
section-characters-default-card = 既定のカード
section-characters-copy-of = { $name } のコピー
section-characters-on-desktop =
    .aria-label = { $name } をデスクトップに表示
section-characters-main = メイン
section-characters-make-main = メインにする
section-characters-remove = 削除…

# 起動セクションのデスクトップ確認（desktop.ts）: 確認項目と見出し
section-desktop-transparency = 透過
section-desktop-click-through = クリックスルー
section-desktop-always-on-top = 常に最前面
section-desktop-placement = ウィンドウの移動
section-desktop-head = デスクトップの確認: { $path }
section-desktop-failed = デスクトップの確認: 実行できませんでした。
section-desktop-works = ✓ { $name }: { $note }
section-desktop-lacks = ✗ { $name }: { $note }
section-desktop-path-none = ディスプレイなし
section-desktop-path-xwayland-fallback = XWayland（このコンポジターには layer-shell がありません）

# デスクトップ確認の説明（crates/yui-core/src/world/stage.rs の文言に対応）
section-desktop-x11-compositor = コンポジットマネージャーが動いています
section-desktop-x11-no-compositor = コンポジットマネージャーが動いていないため、ウィンドウが黒い四角になります。コンポジットマネージャー（picom、xcompmgr）を起動するか、ウィンドウマネージャーでコンポジットを有効にしてください
section-desktop-x11-shape = X サーバーが入力領域の形を扱えます
section-desktop-x11-no-shape = X サーバーに SHAPE 拡張がないため、ウィンドウ全体がマウスを受け取ります
section-desktop-x11-above = ウィンドウマネージャーが最前面に保ちます
section-desktop-x11-no-above = ウィンドウマネージャーがウィンドウを最前面に保てないため、ほかのウィンドウに隠れることがあります。トレイの「呼び戻す」か Ctrl+Shift+Y で表示できます
section-desktop-places-herself = 自分でウィンドウを動かせます
section-desktop-compositor-blends = コンポジターがウィンドウを透過合成しています
section-desktop-wayland-click-through = キャラクターが描く形を、コンポジターが入力領域として扱います。Wayland ではアプリがグローバルショートカットを使えないため、呼び戻すには YUI をもう一度起動する（コンポジターで `yui` をキーに割り当ててください）か、トレイの「呼び戻す」を使ってください
section-desktop-wayland-overlay = コンポジターのオーバーレイ層にいて、ウィンドウより手前に表示されます
section-desktop-wayland-no-above = Wayland クライアントは自分を最前面に保てません。GDK_BACKEND=x11 で YUI を起動すると XWayland で動き、最前面に保てます
section-desktop-wayland-margins = 自分でウィンドウを動かせます（layer-shell の余白）
section-desktop-wayland-no-placement = Wayland クライアントは自分の位置を決められないため、歩く・座る・落ちるができず、body_action は unsupported を返します。GDK_BACKEND=x11 で起動するとデスクトップを動き回れます
section-desktop-system-blends = システムがウィンドウを透過合成しています
section-desktop-system-clicks = システムがクリックを背後に通します
section-desktop-system-above = システムが最前面に保ちます
section-desktop-no-display-to-show = 表示するディスプレイがありません
section-desktop-no-display = ディスプレイがありません

# 反応: ほかのプログラムからの知らせの受け口（reactions.ts）
section-reactions-off = オフ: ほかのプログラムからは届きません。
section-reactions-listening = { $address } で待ち受けています（このパソコンからのみ）。
section-reactions-not-listening = { $address } で待ち受けていません。保存してから YUI を再起動してください。
section-reactions-copied = コピーしました
section-reactions-copy-failed = コピーできませんでした

# 画面とツール: ディスプレイと関係（screen.ts）
section-screen-display = ディスプレイ { $index }
section-screen-display-named = ディスプレイ { $index }: { $name }
section-screen-display-primary = メイン
section-screen-display-missing = ディスプレイ { $index }（現在見つかりません）
section-screen-band-hostile = 敵対
section-screen-band-cold = 冷淡
section-screen-band-neutral = 中立
section-screen-band-warm = 好意
section-screen-band-close = 親密
section-screen-no-change = まだ変化なし
section-screen-no-reason = （理由なし）

# 画面とツール: 操作（tools.ts）
section-tools-displays-error = ディスプレイの一覧を取得できません: { $problem }
section-tools-relation-value =
    .aria-label = { $target } への値
section-tools-relation-set = 設定
section-tools-relation-you = あなた
section-tools-relation-range = 値は { $min } から { $max } までの整数です。
section-tools-relation-done = { $target } への値を { $value }（{ $band }）に設定しました。
section-tools-thumb =
    .alt = { $label }
    .title = { $label } — クリックで拡大

# セッション: バックグラウンドの作業（session.ts）
section-session-empty = まだバックグラウンドの作業はありません。
section-session-running = 実行中
section-session-done = 完了 · { $status }
section-session-status-ok = 成功
section-session-status-failed = 失敗
section-session-status-unknown = 不明
section-session-started = 開始 { $time }
section-session-started-ended = { $started } · 終了 { $time }

# タイトル下のセッション表示（strip.ts）
section-strip-replying = 返答中…
section-strip-thinking = 考え中…
section-strip-replying-queued = 返答中…（ほか { $count } 件待ち）
section-strip-thinking-queued = 考え中…（ほか { $count } 件待ち）
section-strip-running = { $count } 件実行中

# 音声: デバイス一覧とキー（voice.ts）
section-voice-system-default = システムの既定
section-voice-device-missing = { $device }（見つかりません）
section-voice-show-keys = キーを表示
section-voice-hide-keys = キーを非表示
section-voice-devices-error = デバイスの一覧を取得できません: { $problem }

# デスクトップから読めないもの
section-limitation-wayland = Wayland には、どのウィンドウが前面にあるか、どれだけ操作がないかを知る一般的な方法がありません。前面のウィンドウの行は送らず、あなたはいつもいるものとして扱います。
section-limitation-sway = このコンポジターは前面のウィンドウは教えてくれますが、どれだけ操作がないかは教えてくれません。あなたはいつもいるものとして扱います。
section-limitation-idle-only = このコンポジターはどれだけ操作がないかは教えてくれますが、前面のウィンドウは教えてくれません。前面のウィンドウの行は送りません。
section-limitation-unsupported = このシステムでは、前面のウィンドウと操作のない時間をまだ読み取れません。前面のウィンドウの行は送らず、あなたはいつもいるものとして扱います。
section-limitation-no-display = 読み取るディスプレイがありません（DISPLAY も WAYLAND_DISPLAY も設定されていません）。前面のウィンドウの行は送らず、あなたはいつもいるものとして扱います。
