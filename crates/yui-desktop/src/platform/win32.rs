//! The Windows desktop: the foreground window (`GetForegroundWindow`), its
//! title (`GetWindowTextW`), its process (`GetWindowThreadProcessId`, the
//! app named by the executable's file stem from
//! `QueryFullProcessImageNameW`), fullscreen when the window covers its
//! whole monitor (`MonitorFromWindow`), and the idle time from
//! `GetLastInputInfo`.
//!
//! The reader itself is built on Windows only and has not been compiled or
//! run there yet (this repository's CI builds Linux); the pure helpers
//! below are built and tested everywhere.

/// The app name of an executable path: its file stem (`C:\…\firefox.exe`
/// → `firefox`), either slash counting as a separator. Empty for an empty
/// path.
pub fn app_from_exe_path(path: &str) -> String {
    let file = path.rsplit(['\\', '/']).next().unwrap_or("");
    match file.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_string(),
        _ => file.to_string(),
    }
}

/// Whether a window rectangle (left, top, right, bottom) covers a whole
/// monitor rectangle: the way Windows apps go fullscreen (borderless, the
/// monitor's size), which has no window state of its own.
pub fn covers(window: (i32, i32, i32, i32), monitor: (i32, i32, i32, i32)) -> bool {
    let (l, t, r, b) = window;
    let (ml, mt, mr, mb) = monitor;
    mr > ml && mb > mt && l <= ml && t <= mt && r >= mr && b >= mb
}

/// Milliseconds since the last input, from `GetTickCount` now and
/// `LASTINPUTINFO.dwTime`: both wrap at 2^32 ms (49.7 days), so the
/// difference is taken modulo that.
pub fn idle_from_ticks(now: u32, last_input: u32) -> u64 {
    u64::from(now.wrapping_sub(last_input))
}

#[cfg(target_os = "windows")]
pub use reader::WindowsDesktop;

#[cfg(target_os = "windows")]
mod reader {
    use super::{app_from_exe_path, covers, idle_from_ticks};
    use crate::platform::{DesktopFacts, Sample};
    use windows_sys::Win32::Foundation::{CloseHandle, RECT};
    use windows_sys::Win32::Graphics::Gdi::{GetMonitorInfoW, MonitorFromWindow, MONITORINFO, MONITOR_DEFAULTTONEAREST};
    use windows_sys::Win32::System::SystemInformation::GetTickCount;
    use windows_sys::Win32::System::Threading::{OpenProcess, QueryFullProcessImageNameW, PROCESS_NAME_WIN32, PROCESS_QUERY_LIMITED_INFORMATION};
    use windows_sys::Win32::UI::Input::KeyboardAndMouse::{GetLastInputInfo, LASTINPUTINFO};
    use windows_sys::Win32::UI::WindowsAndMessaging::{
        GetDesktopWindow, GetForegroundWindow, GetShellWindow, GetWindowRect, GetWindowTextW, GetWindowThreadProcessId,
    };

    /// The Windows desktop reader. Holds nothing: every call asks the
    /// system again.
    #[derive(Debug, Clone, Copy, Default)]
    pub struct WindowsDesktop;

    impl WindowsDesktop {
        /// The reader.
        pub const fn new() -> Self {
            Self
        }
    }

    /// The executable path of process `pid`; `None` when it cannot be
    /// opened (an elevated process seen from a normal one).
    fn exe_path(pid: u32) -> Option<String> {
        // SAFETY: a plain handle query; the handle is closed below.
        let process = unsafe { OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid) };
        if process.is_null() {
            return None;
        }
        let mut buf = [0u16; 1024];
        let mut len = buf.len() as u32;
        // SAFETY: `buf` holds `len` u16s; the call writes at most that many.
        let ok = unsafe { QueryFullProcessImageNameW(process, PROCESS_NAME_WIN32, buf.as_mut_ptr(), &mut len) };
        // SAFETY: `process` is a handle this function opened.
        unsafe { CloseHandle(process) };
        (ok != 0).then(|| String::from_utf16_lossy(&buf[..len as usize]))
    }

    impl DesktopFacts for WindowsDesktop {
        fn frontmost(&self) -> Option<Sample> {
            // SAFETY: these calls take a window handle (possibly stale: they
            // then fail) and write only into the buffers given.
            unsafe {
                let window = GetForegroundWindow();
                if window.is_null() || window == GetShellWindow() || window == GetDesktopWindow() {
                    return None;
                }
                let mut buf = [0u16; 512];
                let n = GetWindowTextW(window, buf.as_mut_ptr(), buf.len() as i32).max(0) as usize;
                let title = String::from_utf16_lossy(&buf[..n.min(buf.len())]);
                let mut pid = 0u32;
                GetWindowThreadProcessId(window, &mut pid);
                let pid = (pid != 0).then_some(pid);
                let app = pid.and_then(exe_path).map(|p| app_from_exe_path(&p)).unwrap_or_default();
                let mut rect: RECT = std::mem::zeroed();
                let mut info: MONITORINFO = std::mem::zeroed();
                info.cbSize = std::mem::size_of::<MONITORINFO>() as u32;
                let monitor = MonitorFromWindow(window, MONITOR_DEFAULTTONEAREST);
                let fullscreen = GetWindowRect(window, &mut rect) != 0
                    && !monitor.is_null()
                    && GetMonitorInfoW(monitor, &mut info) != 0
                    && covers(
                        (rect.left, rect.top, rect.right, rect.bottom),
                        (info.rcMonitor.left, info.rcMonitor.top, info.rcMonitor.right, info.rcMonitor.bottom),
                    );
                Some(Sample { app, title, pid, fullscreen })
            }
        }

        fn idle_ms(&self) -> Option<u64> {
            let mut info = LASTINPUTINFO { cbSize: std::mem::size_of::<LASTINPUTINFO>() as u32, dwTime: 0 };
            // SAFETY: `info` is a sized LASTINPUTINFO the call fills in.
            let ok = unsafe { GetLastInputInfo(&mut info) } != 0;
            // SAFETY: no arguments.
            ok.then(|| idle_from_ticks(unsafe { GetTickCount() }, info.dwTime))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_app_is_the_executable_stem() {
        assert_eq!(app_from_exe_path(r"C:\Program Files\Mozilla Firefox\firefox.exe"), "firefox");
        assert_eq!(app_from_exe_path(r"C:\Tools\my.tool.exe"), "my.tool");
        assert_eq!(app_from_exe_path("C:/bin/noext"), "noext");
        assert_eq!(app_from_exe_path(r"C:\x\.hidden"), ".hidden");
        assert_eq!(app_from_exe_path(""), "");
    }

    #[test]
    fn fullscreen_is_covering_the_whole_monitor() {
        let monitor = (1920, 0, 3840, 1080);
        assert!(covers((1920, 0, 3840, 1080), monitor));
        assert!(covers((1912, -8, 3848, 1088), monitor), "a window overhanging the monitor covers it");
        assert!(!covers((1920, 0, 3840, 1040), monitor), "a maximized window above the taskbar does not");
        assert!(!covers((0, 0, 0, 0), (0, 0, 0, 0)), "an empty monitor is never covered");
    }

    #[test]
    fn idle_survives_the_tick_wrap() {
        assert_eq!(idle_from_ticks(5_000, 2_000), 3_000);
        assert_eq!(idle_from_ticks(100, u32::MAX - 99), 200);
    }
}
