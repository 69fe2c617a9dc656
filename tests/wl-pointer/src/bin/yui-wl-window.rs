//! `yui-wl-window TITLE WIDTH HEIGHT [RRGGBB [APP_ID]]`: a plain native
//! Wayland window for the Wayland tests (app id `yui-test` unless given), a
//! solid colour, open
//! until killed. The tests place it with `swaymsg`; the headless sway has
//! no XWayland for X test windows.

#[cfg(target_os = "linux")]
#[path = "../window.rs"]
mod window;

#[cfg(target_os = "linux")]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = window::run(&args) {
        eprintln!("yui-wl-window: {e}");
        std::process::exit(1);
    }
}

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("yui-wl-window: Wayland tests run on Linux only");
    std::process::exit(1);
}
