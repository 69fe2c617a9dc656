//! The Wayland idle time (`yui_core::world::wayland_idle`) against a real
//! compositor: a headless sway (sway 1.7 on Debian 12 offers
//! `org_kde_kwin_idle`), with this crate's virtual pointer as the user's
//! hand. Ignored by a plain `cargo test` (it needs sway); `scripts/test.sh`
//! runs it with `--ignored`, and it fails there when sway is missing.
#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use yui_core::world::wayland_idle::{IdleProtocol, IdleWatch};

/// A headless sway in a temp dir; killed on drop.
struct Sway {
    child: Child,
    _dir: tempfile::TempDir,
    runtime: PathBuf,
    socket: String,
    ipc: PathBuf,
}

impl Drop for Sway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wait_until<T>(what: &str, limit: Duration, mut probe: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = probe() {
            return v;
        }
        assert!(start.elapsed() < limit, "timed out after {limit:?} waiting for {what}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// Start sway headless (as uid 65534 when root: sway refuses root).
fn start_sway() -> Sway {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let runtime = dir.path().join("run");
    std::fs::create_dir(&runtime).unwrap();
    std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
    let conf = dir.path().join("sway.conf");
    std::fs::write(&conf, "xwayland disable\n").unwrap();
    std::fs::set_permissions(&conf, std::fs::Permissions::from_mode(0o644)).unwrap();
    let root = Command::new("id").arg("-u").output().map(|o| o.stdout.starts_with(b"0\n")).unwrap_or(false);
    let mut cmd = if root {
        assert!(Command::new("chown").args(["65534:65534"]).arg(&runtime).status().unwrap().success());
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "sway"]);
        c
    } else {
        Command::new("sway")
    };
    let child = cmd
        .arg("-c")
        .arg(&conf)
        .current_dir(dir.path())
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", dir.path())
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("WLR_BACKENDS", "headless")
        .env("WLR_RENDERER", "pixman")
        .env("WLR_LIBINPUT_NO_DEVICES", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("sway is not installed: run scripts/setup.sh (apt: sway)");
    let listing = |pred: &dyn Fn(&str) -> bool| -> Option<String> {
        std::fs::read_dir(&runtime).ok()?.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).find(|n| pred(n))
    };
    let (socket, ipc) = wait_until("sway's sockets", Duration::from_secs(10), || {
        let socket = listing(&|n: &str| n.starts_with("wayland-") && !n.ends_with(".lock"))?;
        let ipc = listing(&|n: &str| n.starts_with("sway-ipc.") && n.ends_with(".sock"))?;
        Some((socket, runtime.join(ipc)))
    });
    Sway { child, _dir: dir, runtime, socket, ipc }
}

fn point(sway: &Sway, args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_yui-wl-pointer"))
        .args(args)
        .env("XDG_RUNTIME_DIR", &sway.runtime)
        .env("WAYLAND_DISPLAY", &sway.socket)
        .output()
        .unwrap();
    assert!(out.status.success(), "yui-wl-pointer {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
#[ignore = "needs sway; scripts/test.sh runs it"]
fn idle_counts_up_while_still_and_drops_to_zero_on_input() {
    let mut sway = start_sway();
    // The watch connects through the environment, as the app's does.
    std::env::set_var("XDG_RUNTIME_DIR", &sway.runtime);
    std::env::set_var("WAYLAND_DISPLAY", &sway.socket);
    let probe = Duration::from_millis(300);
    let watch = IdleWatch::connect(probe).expect("sway offers an idle protocol");
    eprintln!("idle protocol: {}", watch.protocol().interface());
    assert!(matches!(watch.protocol(), IdleProtocol::KdeIdle | IdleProtocol::ExtIdleNotify));

    // Still: the notification fires after the probe and idle counts up from it.
    let first = wait_until("idle ≥ the probe", Duration::from_secs(5), || watch.idle_ms().filter(|&ms| ms >= 300));
    std::thread::sleep(Duration::from_millis(400));
    let later = watch.idle_ms().unwrap();
    assert!(later >= first + 350, "idle counts up while still: {first} then {later} ms");

    // The hand moves: active again, then still again.
    point(&sway, &["move", "200", "150"]);
    wait_until("idle back to 0 after the pointer moved", Duration::from_secs(3), || (watch.idle_ms() == Some(0)).then_some(()));
    wait_until("idle again", Duration::from_secs(5), || watch.idle_ms().filter(|&ms| ms >= 300));
    point(&sway, &["move", "210", "160", "down", "up"]);
    wait_until("idle back to 0 after a click", Duration::from_secs(3), || (watch.idle_ms() == Some(0)).then_some(()));

    // The desktop reader of the session: sway's focus and this idle time, no limitation.
    let desktop = yui_core::world::wayland(sway.ipc.to_str());
    assert_eq!(desktop.limitation(), None, "sway gives both halves");
    assert!(desktop.idle_ms().is_some());
    assert_eq!(desktop.frontmost(), None, "no window has the focus");

    // The compositor goes away: idle is unknown (counts as present), no panic.
    let _ = sway.child.kill();
    let _ = sway.child.wait();
    wait_until("idle unknown once sway is gone", Duration::from_secs(5), || watch.idle_ms().is_none().then_some(()));
    assert!(!Path::new(&sway.ipc).exists() || desktop.frontmost().is_none());
}
