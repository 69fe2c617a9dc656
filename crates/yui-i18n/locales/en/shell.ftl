# What the shell shows itself: window titles and the tray menu.

window-pet = YUI
window-settings = YUI Settings
window-chat = YUI Chat
window-welcome = Welcome to YUI
window-browser = YUI — browser

tray-bring-back = Bring back
tray-show-hide = Show/Hide
tray-bed = Go to bed
tray-characters = Characters
tray-main = Main character
tray-chat = Chat…
tray-help = Help
tray-welcome = Welcome…
tray-settings = Settings…
tray-quit = Quit
tray-help-controls = How do I use you?
tray-help-capabilities = What can you do?
