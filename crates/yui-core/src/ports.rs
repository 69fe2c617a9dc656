//! Every port: what the core needs from its host, in one place.
//!
//! The core decides; the host (the app in `src-tauri/`, the CLI in
//! `crates/yui-cli/`, the tests) answers through these traits. Each is
//! defined beside the code that calls it and re-exported here with the
//! types its implementer needs, so a host imports `yui_core::ports::*`
//! and finds them all.
//!
//! | port | what the core asks | the app | the CLI | tests |
//! |---|---|---|---|---|
//! | [`EventSink`] | take every core event, in order | `src-tauri/src/sink.rs` (to a character's windows) | a JSON line on stdout | [`crate::CollectingSink`] |
//! | [`Desk`] | displays, other windows, captures with the app's own hidden, the pet's place | `src-tauri/src/desk.rs` | [`crate::tools::SystemDesk`] | fakes in `tests/it/tools.rs` |
//! | [`Browser`] | the character's browser window: open, read, picture, back, close ([`BrowserError`]) | `src-tauri/src/browser.rs` | none | fakes in `tests/it/tools.rs` |
//! | [`DesktopFacts`] | the frontmost app, fullscreen, idle time ([`Sample`]) | [`crate::platform::platform`] | the same, or a script | fakes in `tests/it/bed_session.rs` |
//! | [`AudioSink`] | play a sentence's sound, report started/finished ([`SinkEvent`]) | the default device ([`crate::speech::audio`]) | the same, or [`TimerSink`] | [`TimerSink`] |
//! | [`Voice`] | a sentence's sound ([`SoundFuture`]) | TTS server, system voice or reading time ([`crate::speech::voices`]) | the same | fakes in the speaker's tests |
//! | [`Keychain`] | keep the API key | the OS keychain ([`crate::keystore`]) | the same | an in-memory keychain |
//! | [`KeyHome`] | where the key store lives | [`crate::DataDir`] | the same | a temporary directory |
//! | [`IngressPort`] | where other programs' signals go | [`crate::session::relay::Relay`] | the same | fakes in `tests/it/ingress.rs` |
//! | [`WallClock`] | epoch milliseconds | [`crate::clock::SystemClock`] | the same, or [`crate::clock::ManualClock`] | [`crate::clock::ManualClock`] |
//!
//! `docs/architecture.md` ("Ports") tells which module owns each.

pub use crate::clock::WallClock;
pub use crate::ingress::{IngressPort, RelationsError};
pub use crate::keystore::{KeyHome, Keychain, KeychainError};
pub use crate::platform::{DesktopFacts, Sample};
pub use crate::sink::EventSink;
pub use crate::speech::speaker::{SoundFuture, Voice, VoiceError};
pub use crate::tools::{Browser, BrowserError, Desk, Page, PetWindow, Shot};
pub use crate::turn::voice::audio_sink::{AudioSink, SinkEvent, Sound, TimerSink};
