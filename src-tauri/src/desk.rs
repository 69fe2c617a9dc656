//! The app's side of the core's [`Desk`] port for each pet window: where
//! the pet stands, captures without the app's own windows, the browser
//! window, and the other open characters. What a tool answers is decided in the core; this only reaches the
//! desktop.

use crate::browser::AppBrowser;
use crate::window::WindowId;
use futures_util::future::BoxFuture;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tauri::{AppHandle, LogicalSize, Manager, PhysicalPosition, PhysicalSize, WebviewWindow, WindowEvent};
use yui_core::picture::capture::{CaptureError, Display, WindowInfo};
use yui_core::picture::Picture;
use yui_core::ports::{Browser, Desk, PetWindow, Shot};
use yui_core::tools::capture_blocking;

/// How long a capture waits after hiding the app's windows, so the hide has
/// reached the screen: an X11 unmap plus a compositor repaint is one or two
/// frames (16–33 ms at 60 Hz) on an idle desktop; 120 ms leaves room for a
/// busy one without making the turn screenshot noticeably slower.
pub const HIDE_SETTLE: Duration = Duration::from_millis(120);

/// The pet window's outer place, kept current from its Moved and Resized
/// events so reading it never waits on the main thread.
#[derive(Debug, Default)]
pub struct PetPlace {
    place: Mutex<Option<(PhysicalPosition<i32>, PhysicalSize<u32>)>>,
    scale: Mutex<f64>,
    /// The layer-shell pet's size in logical pixels: her physical size is
    /// this times the scale of the output she is on.
    layered: Option<LogicalSize<u32>>,
    /// The layer-shell pet's outputs as last read, and when: every frame of
    /// a move asks for them, and GTK answers on the main thread.
    outputs: Mutex<Option<(std::time::Instant, Vec<Display>)>>,
}

/// How long the layer-shell pet's list of outputs is reused before GTK is
/// asked again: long enough that a move's frames (33 ms apart) share one
/// read, short enough that a plugged-in output counts at once for a user.
const OUTPUTS_FRESH: Duration = Duration::from_secs(1);

impl PetPlace {
    /// The pet's centre in physical pixels, once known.
    pub fn centre(&self) -> Option<(i32, i32)> {
        let place = *self.place.lock().unwrap_or_else(|p| p.into_inner());
        place.map(|(pos, size)| (pos.x + (size.width / 2) as i32, pos.y + (size.height / 2) as i32))
    }

    /// The window's frame and scale, once known.
    pub fn frame(&self) -> Option<PetWindow> {
        let place = *self.place.lock().unwrap_or_else(|p| p.into_inner());
        let scale = *self.scale.lock().unwrap_or_else(|p| p.into_inner());
        let scale = if scale > 0.0 { scale } else { 1.0 };
        place.map(|(pos, size)| {
            let size = self.layered.map_or(size, |l| l.to_physical(scale));
            PetWindow { x: pos.x, y: pos.y, width: size.width, height: size.height, scale }
        })
    }

    fn set(&self, f: impl FnOnce(&mut (PhysicalPosition<i32>, PhysicalSize<u32>))) {
        let mut place = self.place.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(place) = place.as_mut() {
            f(place);
        }
    }
}

/// What every pet session's desk shares: each pet window's place and the
/// one browser window. Managed by the app from [`install`] on.
struct DeskParts {
    places: Mutex<HashMap<WindowId, Arc<PetPlace>>>,
    browser: Arc<AppBrowser>,
}

/// Start tracking the main pet window's place and create the app's browser
/// (no window until its first `open`). Runs once, in setup. `layered`: where
/// the layer-shell pet stands ([`crate::layer::install`]); a layer surface's
/// place is the one the app set, never what its Moved events say.
pub fn install(app: &AppHandle, layered: Option<(PhysicalPosition<i32>, LogicalSize<u32>)>) {
    app.manage(DeskParts { places: Mutex::default(), browser: Arc::new(AppBrowser::new(app.clone())) });
    if let Some(pet) = app.get_webview_window(WindowId::Pet.label()) {
        track(app, &pet, WindowId::Pet, layered);
    }
}

/// Track pet window `id`'s place from now on (its Moved and Resized
/// events), replacing what was known of an earlier window of that id.
pub fn track(app: &AppHandle, pet: &WebviewWindow, id: WindowId, layered: Option<(PhysicalPosition<i32>, LogicalSize<u32>)>) {
    let mut place = PetPlace { layered: layered.map(|l| l.1), ..PetPlace::default() };
    let layered = layered.map(|l| l.0);
    if let (Ok(pos), Ok(size)) = (pet.outer_position(), pet.outer_size()) {
        *place.place.get_mut().unwrap_or_else(|p| p.into_inner()) = Some((layered.unwrap_or(pos), size));
    }
    *place.scale.get_mut().unwrap_or_else(|p| p.into_inner()) = pet.scale_factor().unwrap_or(1.0);
    let place = Arc::new(place);
    let tracked = place.clone();
    pet.on_window_event(move |event| match event {
        WindowEvent::Moved(pos) if layered.is_none() => tracked.set(|p| p.0 = *pos),
        WindowEvent::Resized(size) => tracked.set(|p| p.1 = *size),
        WindowEvent::ScaleFactorChanged { scale_factor, .. } => *tracked.scale.lock().unwrap_or_else(|p| p.into_inner()) = *scale_factor,
        _ => {}
    });
    if let Some(parts) = app.try_state::<DeskParts>() {
        parts.places.lock().unwrap_or_else(|p| p.into_inner()).insert(id, place);
    }
}

/// The desk of one pet window.
pub struct AppDesk {
    app: AppHandle,
    id: WindowId,
    place: Arc<PetPlace>,
    browser: Arc<AppBrowser>,
    /// The other open characters' names, in registry order (none alone).
    others: Vec<String>,
}

impl AppDesk {
    /// Pet window `id`'s desk, with `others` open beside it. [`install`]
    /// (and for a window beside main's, [`track`]) must have run; before
    /// that the pet's place is unknown and a fresh browser is used.
    pub fn of(app: AppHandle, id: WindowId, others: Vec<String>) -> Self {
        let (place, browser) = match app.try_state::<DeskParts>() {
            Some(parts) => {
                let place = parts.places.lock().unwrap_or_else(|p| p.into_inner()).get(&id).cloned();
                (place.unwrap_or_default(), parts.browser.clone())
            }
            None => (Arc::new(PetPlace::default()), Arc::new(AppBrowser::new(app.clone()))),
        };
        Self { app, id, place, browser, others }
    }
}

impl Desk for AppDesk {
    fn open_characters(&self) -> Vec<String> {
        self.others.clone()
    }

    fn is_main(&self) -> bool {
        self.id == WindowId::Pet
    }

    fn pet_point(&self) -> Option<(i32, i32)> {
        self.place.centre()
    }

    fn capture(&self, shot: Shot) -> BoxFuture<'static, Result<Picture, CaptureError>> {
        let app = self.app.clone();
        Box::pin(async move {
            let hidden = Hidden::hide_all(&app);
            if hidden.any() {
                tokio::time::sleep(HIDE_SETTLE).await;
            }
            let picture = capture_blocking(shot).await;
            drop(hidden);
            picture
        })
    }

    fn displays(&self) -> Result<Vec<Display>, CaptureError> {
        if !crate::layer::active() {
            return yui_core::picture::capture::displays();
        }
        // The layer-shell pet stands on GTK's outputs, as Tauri lists them
        // (physical pixels); the screenshot path may not see them at all.
        // Not locked while GTK answers: the main thread may be asking too.
        if let Some((at, outputs)) = self.place.outputs.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
            if at.elapsed() < OUTPUTS_FRESH {
                return Ok(outputs.clone());
            }
        }
        let monitors = self.app.available_monitors().map_err(|e| CaptureError::Failed(e.to_string()))?;
        let primary = self.app.primary_monitor().ok().flatten().map(|m| *m.position());
        let outputs: Vec<Display> = monitors
            .iter()
            .enumerate()
            .map(|(index, m)| Display {
                index,
                label: m.name().cloned().unwrap_or_else(|| format!("output {}", index + 1)),
                x: m.position().x,
                y: m.position().y,
                width: m.size().width,
                height: m.size().height,
                scale: m.scale_factor() as f32,
                primary: primary.map_or(index == 0, |p| p == *m.position()),
            })
            .collect();
        *self.place.outputs.lock().unwrap_or_else(|p| p.into_inner()) = Some((std::time::Instant::now(), outputs.clone()));
        Ok(outputs)
    }

    fn windows(&self) -> Result<Vec<WindowInfo>, CaptureError> {
        let listed = yui_core::picture::capture::windows()?;
        if !crate::layer::active() {
            return Ok(listed);
        }
        // sway lists layout pixels; the layer-shell pet's desk is GTK's outputs.
        Ok(yui_core::picture::capture::logical_to_desk(listed, &self.displays()?))
    }

    fn browser(&self) -> Option<Arc<dyn Browser>> {
        Some(self.browser.clone())
    }

    fn has_body(&self) -> bool {
        true
    }

    fn pet_window(&self) -> Option<PetWindow> {
        let frame = self.place.frame()?;
        match self.place.layered {
            // The layer-shell pet's size follows the output she is on.
            Some(size) => Some(PetWindow::on_displays(frame.x, frame.y, (size.width, size.height), &self.displays().unwrap_or_default())),
            None => Some(frame),
        }
    }

    fn can_place(&self) -> bool {
        yui_core::world::can_place_windows()
    }

    fn place_pet(&self, x: i32, y: i32) {
        let Some(pet) = self.app.get_webview_window(self.id.label()) else {
            return;
        };
        // Known at once: the next frame of a move reads it before Moved arrives.
        self.place.set(|p| p.0 = PhysicalPosition::new(x, y));
        if crate::layer::active() {
            crate::layer::place(&pet, x, y);
        } else if let Err(e) = pet.set_position(PhysicalPosition::new(x, y)) {
            tracing::warn!(record = "pet_place_failed", x, y, error = %e);
        }
    }

    fn keep_above(&self, above: bool) {
        if let Some(pet) = self.app.get_webview_window(self.id.label()) {
            if crate::layer::active() {
                return crate::layer::set_above(&pet, above);
            }
            if let Err(e) = pet.set_always_on_top(above) {
                tracing::warn!(record = "pet_above_failed", above, error = %e);
            }
        }
    }

    fn pointer(&self) -> Option<(i32, i32)> {
        if !yui_core::world::stage::global_pointer() {
            return None;
        }
        let p = self.app.cursor_position().ok()?;
        Some((p.x.round() as i32, p.y.round() as i32))
    }
}

/// The app's windows that were visible and are hidden for a capture; they
/// are shown again when this is dropped (after the capture, when it fails,
/// or when the call is cancelled).
struct Hidden {
    windows: Vec<WebviewWindow>,
}

impl Hidden {
    fn hide_all(app: &AppHandle) -> Self {
        let mut windows = Vec::new();
        for window in app.webview_windows().into_values() {
            if window.is_visible().unwrap_or(false) {
                match window.hide() {
                    Ok(()) => windows.push(window),
                    Err(e) => {
                        tracing::warn!(record = "capture_hide_failed", window = window.label(), error = %e)
                    }
                }
            }
        }
        Self { windows }
    }

    fn any(&self) -> bool {
        !self.windows.is_empty()
    }
}

impl Drop for Hidden {
    fn drop(&mut self) {
        for window in self.windows.drain(..) {
            if let Err(e) = window.show() {
                tracing::warn!(record = "capture_show_failed", window = window.label(), error = %e);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_centre_is_the_middle_of_the_outer_box() {
        let place = PetPlace::default();
        assert_eq!(place.centre(), None);
        *place.place.lock().unwrap() = Some((PhysicalPosition::new(100, -20), PhysicalSize::new(360, 520)));
        assert_eq!(place.centre(), Some((280, 240)));
        place.set(|p| p.0 = PhysicalPosition::new(0, 0));
        assert_eq!(place.centre(), Some((180, 260)));
    }
}
