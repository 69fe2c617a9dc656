# シェルが自分で出す言葉: ウィンドウのタイトルとトレイメニュー。

window-pet = YUI
window-settings = YUI 設定
window-chat = YUI チャット
window-welcome = YUI へようこそ
window-browser = YUI — ブラウザー

tray-bring-back = 呼び戻す
tray-show-hide = 表示/非表示
tray-bed = 寝かせる
tray-characters = キャラクター
tray-main = メインキャラクター
tray-chat = チャット…
tray-help = ヘルプ
tray-welcome = ようこそ…
tray-settings = 設定…
tray-quit = 終了
tray-help-controls = 使い方を教えて
tray-help-capabilities = 何ができるの？
