//! `yui-wl-pointer`: a virtual pointer for the Wayland tests. It joins the
//! compositor of `$WAYLAND_DISPLAY` as a `zwlr_virtual_pointer_v1` (sway and
//! other wlroots compositors; the headless seat has no pointer of its own)
//! and plays a script given as arguments:
//!
//! ```text
//! yui-wl-pointer --extent 2560x800 move 100 700 down move 300 650 up wait 200
//! ```
//!
//! - `--extent WxH`: the output layout's size in logical pixels (absolute
//!   positions are fractions of it; default 1280x800);
//! - `move X Y`: the pointer to layout point (X, Y), in `--steps` steps
//!   (default 1) from the last point;
//! - `down` / `up`: the left button;
//! - `wait MS`: a pause.
//!
//! Every event is followed by a frame and a roundtrip, so the compositor
//! has handled it when the next begins. Exits non-zero with a message when
//! the compositor has no virtual pointer protocol or a word is unknown.

#[cfg(target_os = "linux")]
mod pointer;

#[cfg(target_os = "linux")]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = pointer::run(&args) {
        eprintln!("yui-wl-pointer: {e}");
        std::process::exit(1);
    }
}

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("yui-wl-pointer: Wayland tests run on Linux only");
    std::process::exit(1);
}
