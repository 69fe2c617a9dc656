//! Idle time on Wayland, from the compositor's idle protocol.
//!
//! Wayland gives a client no "time since last input" to read. What
//! compositors offer instead is a notification: the client names a timeout
//! and the compositor says `idled` once the seat has had no input for that
//! long, then `resumed` at the next input. Two protocols carry it:
//! `ext_idle_notifier_v1` (wayland-protocols staging; sway 1.8+, KDE,
//! newer wlroots compositors) and the older `org_kde_kwin_idle` (sway 1.7,
//! which Debian 12 ships, and KDE). [`IdleWatch`] binds the first of the
//! two the compositor announces, asks for one notification with a short
//! timeout ([`crate::limits::WAYLAND_IDLE_PROBE`]) and keeps the instant of
//! the last `idled` on its own thread. Idle time is then
//! `probe + time since idled` while idle and 0 after a `resumed`: exact to
//! the probe, which is far finer than the minutes presence works in.
//!
//! GNOME's mutter offers neither protocol: there [`IdleWatch::connect`]
//! answers why, and the user counts as present.

use crate::limits::WAYLAND_IDLE_PROBE;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use wayland_client::globals::{registry_queue_init, GlobalListContents};
use wayland_client::protocol::{wl_registry, wl_seat};
use wayland_client::{Connection, Dispatch, Proxy, QueueHandle};
use wayland_protocols::ext::idle_notify::v1::client::{ext_idle_notification_v1, ext_idle_notifier_v1};
use wayland_protocols_plasma::idle::client::{org_kde_kwin_idle, org_kde_kwin_idle_timeout};

/// Which idle protocol a watch is bound to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdleProtocol {
    /// `ext_idle_notifier_v1` (wayland-protocols staging).
    ExtIdleNotify,
    /// `org_kde_kwin_idle` (KDE's, also in sway 1.7 and wlroots 0.15).
    KdeIdle,
}

impl IdleProtocol {
    /// The protocol's global interface name, as the compositor announces it.
    pub fn interface(self) -> &'static str {
        match self {
            Self::ExtIdleNotify => "ext_idle_notifier_v1",
            Self::KdeIdle => "org_kde_kwin_idle",
        }
    }
}

/// What the dispatch thread knows.
#[derive(Debug, Default)]
struct Seen {
    /// When the compositor last said the seat went idle; `None` while the
    /// user is active.
    idled_at: Option<Instant>,
    /// False once the connection to the compositor failed: idle is unknown.
    lost: bool,
}

/// A live idle notification on the compositor of `$WAYLAND_DISPLAY`.
#[derive(Debug)]
pub struct IdleWatch {
    seen: Arc<Mutex<Seen>>,
    probe: Duration,
    protocol: IdleProtocol,
}

/// The dispatch state: the shared facts the events update.
struct State {
    seen: Arc<Mutex<Seen>>,
}

impl State {
    fn idled(&self) {
        if let Ok(mut s) = self.seen.lock() {
            s.idled_at = Some(Instant::now());
        }
    }

    fn resumed(&self) {
        if let Ok(mut s) = self.seen.lock() {
            s.idled_at = None;
        }
    }
}

/// Why there is no idle watch: the message says what the compositor lacked.
#[derive(Debug, thiserror::Error)]
pub enum IdleWatchError {
    /// No compositor at `$WAYLAND_DISPLAY`.
    #[error("no Wayland compositor to connect to: {0}")]
    NoCompositor(String),
    /// The registry's first roundtrip failed.
    #[error("the Wayland registry failed: {0}")]
    Registry(String),
    /// The compositor announced no seat.
    #[error("the compositor has no seat: {0}")]
    NoSeat(String),
    /// Neither idle protocol is announced (mutter, weston).
    #[error("the compositor offers neither ext_idle_notifier_v1 nor org_kde_kwin_idle")]
    NoProtocol,
    /// The roundtrip after binding failed.
    #[error("the Wayland roundtrip failed: {0}")]
    Roundtrip(String),
    /// The dispatch thread could not start.
    #[error("cannot start the idle thread: {0}")]
    Thread(String),
}

impl IdleWatch {
    /// Connect to the compositor named by `$WAYLAND_DISPLAY` and start
    /// watching with a `probe`-long notification. `Err` says why there is
    /// no idle time (no compositor, or neither protocol announced).
    pub fn connect(probe: Duration) -> Result<Self, IdleWatchError> {
        let conn = Connection::connect_to_env().map_err(|e| IdleWatchError::NoCompositor(e.to_string()))?;
        let (globals, mut queue) = registry_queue_init::<State>(&conn).map_err(|e| IdleWatchError::Registry(e.to_string()))?;
        let qh = queue.handle();
        let seat: wl_seat::WlSeat = globals.bind(&qh, 1..=1, ()).map_err(|e| IdleWatchError::NoSeat(e.to_string()))?;
        let timeout = u32::try_from(probe.as_millis()).unwrap_or(u32::MAX);
        let protocol = if let Ok(notifier) = globals.bind::<ext_idle_notifier_v1::ExtIdleNotifierV1, _, _>(&qh, 1..=1, ()) {
            notifier.get_idle_notification(timeout, &seat, &qh, ());
            IdleProtocol::ExtIdleNotify
        } else if let Ok(kde) = globals.bind::<org_kde_kwin_idle::OrgKdeKwinIdle, _, _>(&qh, 1..=1, ()) {
            kde.get_idle_timeout(&seat, timeout, &qh, ());
            IdleProtocol::KdeIdle
        } else {
            return Err(IdleWatchError::NoProtocol);
        };
        let seen = Arc::new(Mutex::new(Seen::default()));
        let mut state = State { seen: seen.clone() };
        queue.roundtrip(&mut state).map_err(|e| IdleWatchError::Roundtrip(e.to_string()))?;
        tracing::info!(protocol = protocol.interface(), probe_ms = timeout, "world: Wayland idle watch");
        std::thread::Builder::new()
            .name("yui-wayland-idle".into())
            .spawn(move || {
                // `conn` and the proxies live as long as this loop.
                let _keep = (conn, seat);
                loop {
                    if let Err(e) = queue.blocking_dispatch(&mut state) {
                        tracing::warn!(error = %e, "world: the Wayland idle watch lost its compositor; idle is unknown from now on");
                        if let Ok(mut s) = state.seen.lock() {
                            s.lost = true;
                        }
                        return;
                    }
                }
            })
            .map_err(|e| IdleWatchError::Thread(e.to_string()))?;
        Ok(Self { seen, probe, protocol })
    }

    /// The process's one watch of its compositor, started on first use
    /// with [`WAYLAND_IDLE_PROBE`]; `Err` (kept) says why there is none.
    pub fn shared() -> Result<&'static IdleWatch, &'static IdleWatchError> {
        static WATCH: OnceLock<Result<IdleWatch, IdleWatchError>> = OnceLock::new();
        WATCH.get_or_init(|| IdleWatch::connect(WAYLAND_IDLE_PROBE).inspect_err(|e| tracing::info!(reason = %e, "world: no Wayland idle time"))).as_ref()
    }

    /// The protocol this watch is bound to.
    pub fn protocol(&self) -> IdleProtocol {
        self.protocol
    }

    /// Milliseconds since the user's last input: 0 while active, the probe
    /// plus the time since `idled` while idle; `None` once the compositor
    /// went away.
    pub fn idle_ms(&self) -> Option<u64> {
        let seen = self.seen.lock().ok()?;
        if seen.lost {
            return None;
        }
        Some(seen.idled_at.map_or(0, |t| u64::try_from((t.elapsed() + self.probe).as_millis()).unwrap_or(u64::MAX)))
    }
}

impl Dispatch<wl_registry::WlRegistry, GlobalListContents> for State {
    fn event(_: &mut Self, _: &wl_registry::WlRegistry, _: wl_registry::Event, _: &GlobalListContents, _: &Connection, _: &QueueHandle<Self>) {}
}

impl Dispatch<wl_seat::WlSeat, ()> for State {
    fn event(_: &mut Self, _: &wl_seat::WlSeat, _: wl_seat::Event, _: &(), _: &Connection, _: &QueueHandle<Self>) {}
}

impl Dispatch<ext_idle_notifier_v1::ExtIdleNotifierV1, ()> for State {
    fn event(_: &mut Self, _: &ext_idle_notifier_v1::ExtIdleNotifierV1, _: ext_idle_notifier_v1::Event, _: &(), _: &Connection, _: &QueueHandle<Self>) {}
}

impl Dispatch<ext_idle_notification_v1::ExtIdleNotificationV1, ()> for State {
    fn event(
        state: &mut Self,
        _: &ext_idle_notification_v1::ExtIdleNotificationV1,
        event: ext_idle_notification_v1::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        match event {
            ext_idle_notification_v1::Event::Idled => state.idled(),
            ext_idle_notification_v1::Event::Resumed => state.resumed(),
            _ => {}
        }
    }
}

impl Dispatch<org_kde_kwin_idle::OrgKdeKwinIdle, ()> for State {
    fn event(_: &mut Self, _: &org_kde_kwin_idle::OrgKdeKwinIdle, _: org_kde_kwin_idle::Event, _: &(), _: &Connection, _: &QueueHandle<Self>) {}
}

impl Dispatch<org_kde_kwin_idle_timeout::OrgKdeKwinIdleTimeout, ()> for State {
    fn event(
        state: &mut Self,
        timeout: &org_kde_kwin_idle_timeout::OrgKdeKwinIdleTimeout,
        event: org_kde_kwin_idle_timeout::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        match event {
            org_kde_kwin_idle_timeout::Event::Idle => state.idled(),
            org_kde_kwin_idle_timeout::Event::Resumed => state.resumed(),
            _ => tracing::debug!(id = %timeout.id(), "world: an unknown idle timeout event"),
        }
    }
}
