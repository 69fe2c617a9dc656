//! The character's browser window: the app's side of the core's
//! [`Browser`] port. One window for the whole app (label `browser`), built on
//! the first `open`, showing external http(s) pages only.
//!
//! It has no access to the app: its label is in no file of
//! `src-tauri/capabilities/`, so a page there can invoke no command (the
//! test `no_capability_names_the_browser` holds this). Values come back
//! without IPC: on Linux the page's text and picture are read through
//! WebKitGTK itself (`evaluate_javascript`, `get_snapshot`), on the GTK main
//! thread, bridged to the caller by a oneshot channel. On other platforms
//! `read` and `screenshot` answer `unsupported on this platform`.
//!
//! Every call is bounded ([`LOAD_WAIT`], [`READ_WAIT`]) below the core's
//! 32 s client wait, and ends with `the browser window was closed` when the
//! window goes away while it waits. What the answers say is the core's
//! (`yui_core::tools::Toolbox`); this returns data or a one-line reason.

use crate::window::WindowId;
use futures_util::future::BoxFuture;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tauri::webview::PageLoadEvent;
use tauri::{AppHandle, Manager, WebviewUrl, WebviewWindow, WebviewWindowBuilder, WindowEvent};
use tokio::sync::watch;
use yui_core::picture::Picture;
use yui_core::ports::{Browser, BrowserError, Page};

/// The longest an `open` or `back` waits for the page to finish loading.
pub const LOAD_WAIT: Duration = Duration::from_secs(30);
/// The longest a `read` or `screenshot` waits for the web view's answer.
pub const READ_WAIT: Duration = Duration::from_secs(10);
/// The longest `close` waits for the window to be gone.
const CLOSE_WAIT: Duration = Duration::from_secs(5);

/// What the window has done so far; callers wait for a change.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Progress {
    /// Page loads finished.
    finished: u64,
    /// Windows destroyed.
    gone: u64,
}

/// The app's browser window (one per app; cheap to clone).
#[derive(Clone)]
pub struct AppBrowser {
    inner: Arc<Inner>,
}

struct Inner {
    app: AppHandle,
    progress: watch::Sender<Progress>,
    /// The document title, as the web view last reported it.
    title: Arc<Mutex<String>>,
    /// Why the last load failed (Linux reports it), until the next load.
    failure: Arc<Mutex<Option<String>>>,
    /// One call at a time (the executor runs them in order anyway).
    turn: tokio::sync::Mutex<()>,
}

impl AppBrowser {
    /// The browser of `app`; no window exists until the first `open`.
    pub fn new(app: AppHandle) -> Self {
        Self {
            inner: Arc::new(Inner {
                app,
                progress: watch::Sender::new(Progress::default()),
                title: Arc::new(Mutex::new(String::new())),
                failure: Arc::new(Mutex::new(None)),
                turn: tokio::sync::Mutex::new(()),
            }),
        }
    }
}

/// Run `f` on the inner state, one call at a time, bounded by `wait`.
fn bounded<T, F>(inner: &Arc<Inner>, wait: Duration, what: &'static str, f: impl FnOnce(Arc<Inner>) -> F) -> BoxFuture<'static, Result<T, BrowserError>>
where
    F: std::future::Future<Output = Result<T, BrowserError>> + Send + 'static,
    T: Send + 'static,
{
    let inner = inner.clone();
    let call = f(inner.clone());
    Box::pin(async move {
        let _turn = inner.turn.lock().await;
        match tokio::time::timeout(wait, call).await {
            Ok(result) => result,
            Err(_) => Err(BrowserError::TimedOut { what, secs: wait.as_secs() }),
        }
    })
}

impl Browser for AppBrowser {
    fn open(&self, url: url::Url) -> BoxFuture<'static, Result<Page, BrowserError>> {
        bounded(&self.inner, LOAD_WAIT, "loading the page", |me| async move { me.open(url).await })
    }

    fn read(&self) -> BoxFuture<'static, Result<(Page, String), BrowserError>> {
        bounded(&self.inner, READ_WAIT, "reading the page", |me| async move { me.read().await })
    }

    fn screenshot(&self) -> BoxFuture<'static, Result<(Page, Picture), BrowserError>> {
        bounded(&self.inner, READ_WAIT, "taking the page's picture", |me| async move { me.screenshot().await })
    }

    fn back(&self) -> BoxFuture<'static, Result<(), BrowserError>> {
        bounded(&self.inner, LOAD_WAIT, "going back", |me| async move { me.back().await })
    }

    fn close(&self) -> BoxFuture<'static, Result<(), BrowserError>> {
        bounded(&self.inner, CLOSE_WAIT, "closing the window", |me| async move { me.close().await })
    }
}

impl Inner {
    fn window(&self) -> Option<WebviewWindow> {
        self.app.get_webview_window(WindowId::Browser.label())
    }

    fn open_window(&self) -> Result<WebviewWindow, BrowserError> {
        self.window().ok_or(BrowserError::NoPage)
    }

    /// The page the window shows now: its address and title as the web
    /// view has them (on Linux read from WebKit itself, since the title
    /// event may trail the load's end; elsewhere the last title event).
    async fn page(&self, window: &WebviewWindow) -> Result<Page, BrowserError> {
        let known = self.title.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let page = platform::page(window, self.progress.subscribe()).await?;
        let url = match page.url.is_empty() {
            true => window.url().map_err(|e| BrowserError::WebView(format!("the page's address is unknown: {e}")))?.to_string(),
            false => page.url,
        };
        let mut title = page.title.filter(|t| !t.is_empty()).unwrap_or(known);
        if title.is_empty() {
            // WebKit's title property can trail the load's end under load;
            // the document has it by then.
            if let Ok((read, _)) = platform::read(window, self.progress.subscribe()).await {
                title = read.title;
            }
        }
        Ok(Page { url, title })
    }

    /// Wait until a page load finishes after `since` (the state before the
    /// navigation started), or the window goes.
    async fn loaded(&self, mut rx: watch::Receiver<Progress>, since: Progress) -> Result<(), BrowserError> {
        loop {
            let now = *rx.borrow_and_update();
            if now.gone != since.gone {
                return Err(BrowserError::Closed);
            }
            if now.finished != since.finished {
                break;
            }
            if rx.changed().await.is_err() {
                return Err(BrowserError::Closed);
            }
        }
        match self.failure.lock().unwrap_or_else(|p| p.into_inner()).take() {
            Some(reason) => Err(BrowserError::NotLoaded(reason)),
            None => Ok(()),
        }
    }

    async fn open(&self, url: url::Url) -> Result<Page, BrowserError> {
        let rx = self.progress.subscribe();
        let since = *rx.borrow();
        *self.failure.lock().unwrap_or_else(|p| p.into_inner()) = None;
        let window = match self.window() {
            Some(window) => {
                window.navigate(url).map_err(|e| BrowserError::WebView(format!("navigating failed: {e}")))?;
                window
            }
            None => self.build(url)?,
        };
        self.loaded(rx, since).await?;
        self.page(&window).await
    }

    /// Build the window on `url`, reporting loads, title changes and its
    /// end into the shared state.
    fn build(&self, url: url::Url) -> Result<WebviewWindow, BrowserError> {
        *self.title.lock().unwrap_or_else(|p| p.into_inner()) = String::new();
        let on_load = self.progress.clone();
        let on_gone = self.progress.clone();
        let title = self.title.clone();
        let window = WebviewWindowBuilder::new(&self.app, WindowId::Browser.label(), WebviewUrl::External(url))
            .title(yui_i18n::words(&crate::language::current(&self.app)).text(WindowId::Browser.title()))
            .inner_size(1024.0, 768.0)
            .resizable(true)
            .decorations(true)
            .on_page_load(move |_, payload| {
                if payload.event() == PageLoadEvent::Finished {
                    on_load.send_modify(|p| p.finished += 1);
                }
            })
            .on_document_title_changed(move |_, now| *title.lock().unwrap_or_else(|p| p.into_inner()) = now)
            .build()
            .map_err(|e| BrowserError::WebView(format!("the browser window could not open: {e}")))?;
        window.on_window_event(move |event| {
            if let WindowEvent::Destroyed = event {
                on_gone.send_modify(|p| p.gone += 1);
            }
        });
        platform::watch_failures(&window, self.failure.clone());
        tracing::info!(record = "browser_window_opened");
        Ok(window)
    }

    async fn read(&self) -> Result<(Page, String), BrowserError> {
        let window = self.open_window()?;
        let (page, text) = platform::read(&window, self.progress.subscribe()).await?;
        let page = if page.url.is_empty() { Page { title: page.title, ..self.page(&window).await? } } else { page };
        Ok((page, text))
    }

    async fn screenshot(&self) -> Result<(Page, Picture), BrowserError> {
        let window = self.open_window()?;
        let page = self.page(&window).await?;
        let picture = platform::snapshot(&window, self.progress.subscribe()).await?;
        Ok((page, picture))
    }

    async fn back(&self) -> Result<(), BrowserError> {
        let window = self.open_window()?;
        let rx = self.progress.subscribe();
        let since = *rx.borrow();
        *self.failure.lock().unwrap_or_else(|p| p.into_inner()) = None;
        platform::go_back(&window).await?;
        self.loaded(rx, since).await
    }

    async fn close(&self) -> Result<(), BrowserError> {
        // Closing a browser that is not open leaves it closed: ok.
        let Some(window) = self.window() else {
            return Ok(());
        };
        let mut rx = self.progress.subscribe();
        let since = *rx.borrow_and_update();
        window.destroy().map_err(|e| BrowserError::WebView(format!("the window did not close: {e}")))?;
        while rx.borrow_and_update().gone == since.gone {
            if rx.changed().await.is_err() {
                break;
            }
        }
        tracing::info!(record = "browser_window_closed");
        Ok(())
    }
}

/// What the platform's web view reports of its page: an empty `url` and no
/// `title` where it cannot say.
struct Shown {
    url: String,
    title: Option<String>,
}

/// Resolve with `answer`, or fail with [`BrowserError::Closed`] once the window goes.
/// (WebKitGTK's reader waits this way; the other platforms' do not yet.)
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
async fn unless_closed<T>(mut rx: watch::Receiver<Progress>, answer: impl std::future::Future<Output = Result<T, BrowserError>>) -> Result<T, BrowserError> {
    let since = *rx.borrow_and_update();
    let gone = async move {
        while rx.changed().await.is_ok() {
            if rx.borrow().gone != since.gone {
                break;
            }
        }
    };
    tokio::select! {
        answer = answer => answer,
        () = gone => Err(BrowserError::Closed),
    }
}

/// The page's title, address and readable text, as one JSON string.
const READ_SCRIPT: &str = r#"(() => {
  const root = document.querySelector("main") || document.querySelector("article") || document.body;
  return JSON.stringify({ url: location.href, title: document.title || "", text: root ? root.innerText || "" : "" });
})()"#;

#[cfg(target_os = "linux")]
mod platform {
    //! WebKitGTK: values through `evaluate_javascript` and `get_snapshot`,
    //! run on the GTK main thread by `with_webview`.
    use super::{unless_closed, Progress, READ_SCRIPT};
    use javascriptcore::ValueExt;
    use std::sync::{Arc, Mutex};
    use tauri::WebviewWindow;
    use tokio::sync::{oneshot, watch};
    use webkit2gtk::{LoadEvent, SnapshotOptions, SnapshotRegion, WebViewExt};
    use yui_core::picture::Picture;
    use yui_core::tools::{BrowserError, Page};

    /// Run `f` with the window's WebKit view on the main thread; its answer
    /// comes back through the sender it is given.
    async fn on_view<T: Send + 'static>(
        window: &WebviewWindow,
        rx: watch::Receiver<Progress>,
        f: impl FnOnce(webkit2gtk::WebView, oneshot::Sender<Result<T, BrowserError>>) + Send + 'static,
    ) -> Result<T, BrowserError> {
        let (tx, answer) = oneshot::channel();
        window.with_webview(move |view| f(view.inner(), tx)).map_err(|e| BrowserError::WebView(format!("the web view is unreachable: {e}")))?;
        unless_closed(rx, async move { answer.await.unwrap_or_else(|_| Err(BrowserError::Closed)) }).await
    }

    /// The address and title WebKit shows now.
    pub async fn page(window: &WebviewWindow, rx: watch::Receiver<Progress>) -> Result<super::Shown, BrowserError> {
        on_view(window, rx, |view, tx| {
            let _ = tx.send(Ok(super::Shown {
                url: view.uri().map(|u| u.to_string()).unwrap_or_default(),
                title: Some(view.title().map(|t| t.to_string()).unwrap_or_default()),
            }));
        })
        .await
    }

    /// Record why a load failed (a cancelled load is no failure: a newer
    /// navigation replaced it).
    pub fn watch_failures(window: &WebviewWindow, failure: Arc<Mutex<Option<String>>>) {
        let _ = window.with_webview(move |view| {
            view.inner().connect_load_failed(move |_, _event: LoadEvent, uri, error| {
                if !error.matches(webkit2gtk::NetworkError::Cancelled) {
                    *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(format!("{uri}: {error}"));
                }
                false
            });
        });
    }

    /// The page (address, title) and its readable text.
    pub async fn read(window: &WebviewWindow, rx: watch::Receiver<Progress>) -> Result<(Page, String), BrowserError> {
        let json = on_view(window, rx, |view, tx| {
            view.evaluate_javascript(READ_SCRIPT, None, None, None::<&webkit2gtk::gio::Cancellable>, move |result| {
                let _ = tx.send(result.map(|value| value.to_str().to_string()).map_err(|e| BrowserError::WebView(format!("the page could not be read: {e}"))));
            });
        })
        .await?;
        #[derive(serde::Deserialize)]
        struct Read {
            url: String,
            title: String,
            text: String,
        }
        let read: Read = serde_json::from_str(&json).map_err(|e| BrowserError::WebView(format!("the page's text was unreadable: {e}")))?;
        Ok((Page { url: read.url, title: read.title }, read.text))
    }

    /// The visible part of the page as a PNG.
    pub async fn snapshot(window: &WebviewWindow, rx: watch::Receiver<Progress>) -> Result<Picture, BrowserError> {
        let (width, height, rgba) = on_view(window, rx, |view, tx| {
            view.snapshot(SnapshotRegion::Visible, SnapshotOptions::NONE, None::<&webkit2gtk::gio::Cancellable>, move |result| {
                let _ = tx.send(result.map_err(|e| BrowserError::WebView(format!("the page's picture failed: {e}"))).and_then(|surface| to_rgba(&surface)));
            });
        })
        .await?;
        let png = tokio::task::spawn_blocking(move || encode_png(width, height, &rgba))
            .await
            .map_err(|e| BrowserError::WebView(format!("encoding the picture failed: {e}")))??;
        Ok(Picture::Encoded { mime: "png".into(), bytes: Arc::new(png) })
    }

    /// Navigate back, or say there is nothing to go back to.
    pub async fn go_back(window: &WebviewWindow) -> Result<(), BrowserError> {
        let (tx, answer) = oneshot::channel();
        window
            .with_webview(move |view| {
                let view = view.inner();
                let _ = tx.send(if view.can_go_back() {
                    view.go_back();
                    Ok(())
                } else {
                    Err(BrowserError::NoEarlierPage)
                });
            })
            .map_err(|e| BrowserError::WebView(format!("the web view is unreachable: {e}")))?;
        answer.await.unwrap_or(Err(BrowserError::Closed))
    }

    /// Cairo's premultiplied native-endian ARGB32 as straight RGBA.
    fn to_rgba(surface: &cairo::Surface) -> Result<(u32, u32, Vec<u8>), BrowserError> {
        let image = cairo::ImageSurface::try_from(surface.clone()).map_err(|_| BrowserError::WebView("the page's picture is not an image".into()))?;
        image.flush();
        let (width, height, stride) = (image.width().max(0) as usize, image.height().max(0) as usize, image.stride().max(0) as usize);
        if width == 0 || height == 0 {
            return Err(BrowserError::WebView("the page's picture is empty".into()));
        }
        let format = image.format();
        let mut rgba = Vec::with_capacity(width * height * 4);
        image
            .with_data(|data| {
                for row in data.chunks(stride).take(height) {
                    for px in row[..width * 4].chunks_exact(4) {
                        let argb = u32::from_ne_bytes([px[0], px[1], px[2], px[3]]);
                        let a = if format == cairo::Format::ARgb32 { (argb >> 24) as u8 } else { 255 };
                        let un = |c: u32| -> u8 {
                            let c = (c & 0xff) as u8;
                            if a == 0 || a == 255 {
                                c
                            } else {
                                ((c as u32 * 255 + a as u32 / 2) / a as u32).min(255) as u8
                            }
                        };
                        rgba.extend_from_slice(&[un(argb >> 16), un(argb >> 8), un(argb), a]);
                    }
                }
            })
            .map_err(|e| BrowserError::WebView(format!("the page's picture is unreadable: {e}")))?;
        Ok((width as u32, height as u32, rgba))
    }

    /// RGBA pixels as a PNG file.
    pub(super) fn encode_png(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, BrowserError> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| BrowserError::WebView(format!("encoding the picture failed: {e}")))?;
        writer.write_image_data(rgba).map_err(|e| BrowserError::WebView(format!("encoding the picture failed: {e}")))?;
        writer.finish().map_err(|e| BrowserError::WebView(format!("encoding the picture failed: {e}")))?;
        Ok(out)
    }
}

#[cfg(not(target_os = "linux"))]
mod platform {
    //! Reading a page back needs the platform web view's own API; only
    //! WebKitGTK is wired so far.
    use super::Progress;
    use std::sync::{Arc, Mutex};
    use tauri::WebviewWindow;
    use tokio::sync::watch;
    use yui_core::picture::Picture;
    use yui_core::tools::{BrowserError, Page};

    pub fn watch_failures(_window: &WebviewWindow, _failure: Arc<Mutex<Option<String>>>) {}

    pub async fn page(_window: &WebviewWindow, _rx: watch::Receiver<Progress>) -> Result<super::Shown, BrowserError> {
        Ok(super::Shown { url: String::new(), title: None })
    }

    pub async fn read(_window: &WebviewWindow, _rx: watch::Receiver<Progress>) -> Result<(Page, String), BrowserError> {
        let _ = super::READ_SCRIPT;
        Err(BrowserError::Unsupported)
    }

    pub async fn snapshot(_window: &WebviewWindow, _rx: watch::Receiver<Progress>) -> Result<Picture, BrowserError> {
        Err(BrowserError::Unsupported)
    }

    pub async fn go_back(window: &WebviewWindow) -> Result<(), BrowserError> {
        window.eval("history.back()").map_err(|e| BrowserError::WebView(format!("going back failed: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_capability_names_the_browser() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("capabilities");
        for entry in std::fs::read_dir(&dir).expect("capabilities dir") {
            let path = entry.expect("entry").path();
            let text = std::fs::read_to_string(&path).expect("capability file");
            let json: serde_json::Value = serde_json::from_str(&text).expect("capability json");
            let windows = json["windows"].as_array().cloned().unwrap_or_default();
            for w in windows {
                let w = w.as_str().unwrap_or_default();
                assert!(w != WindowId::Browser.label() && !w.contains('*'), "{} grants window {w:?}", path.display());
            }
            assert!(json.get("webviews").is_none() && json.get("remote").is_none(), "{} grants webviews or remote pages", path.display());
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_png_round_trips_its_size() {
        let png = platform::encode_png(2, 1, &[255, 0, 0, 255, 0, 0, 255, 128]).expect("encodes");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let reader = decoder.read_info().expect("reads");
        assert_eq!((reader.info().width, reader.info().height), (2, 1));
    }
}
