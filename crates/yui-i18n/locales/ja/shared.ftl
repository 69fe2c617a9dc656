# キャラクターのウィンドウが共有する言葉（ui/src/slices/ のスライス）。

# 接続の状態（チャットのヘッダーと設定のストリップに表示）
shared-connection-connecting = 接続中…
shared-connection-connected = 接続済み
shared-connection-ready = 準備完了
shared-connection-reconnecting = { $seconds }秒後に再接続
shared-connection-reconnecting-reason = { $seconds }秒後に再接続 — { $reason }
shared-connection-key-refused = キーが拒否されました
shared-connection-offline = オフライン

# オフのツールをオンにする提案
shared-offer-look-screen = 画面を見せてほしいそうです。
shared-offer-browser = ブラウザーを使おうとしましたが、オフになっています。
shared-offer-relations = 誰かへの気持ちを書き留めようとしましたが、関係の記録がオフになっています。
shared-offer-other = { $switch } を使おうとしましたが、オフになっています。

# 任せた作業の数
shared-delegations-running = { $count } 件実行中
shared-delegations-done = { $count } 件完了
