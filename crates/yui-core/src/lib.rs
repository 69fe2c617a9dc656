//! # yui-core
//!
//! Everything YUI decides lives here, with no Tauri anywhere in its tree:
//! the transports, the turn state machine, the client_context renderer,
//! settings and persistence. The core reports only through [`UiEvent`]s sent
//! into an injected [`EventSink`], and takes user actions as [`UserCommand`]s.
//!
//! Start a [`Session`] per pet window; drop it to cancel its task.
#![deny(missing_docs)]

pub mod card;
pub mod cast;
pub mod character;
pub mod chat;
pub mod clock;
pub mod context_log;
pub mod contract;
pub mod data_dir;
pub mod delegations;
pub mod discover;
pub mod ensemble;
pub mod error;
#[cfg(test)]
mod fake_http;
pub mod ingress;
pub mod logging;
pub mod outcome;
pub mod persist;
pub mod placement;
pub mod ports;
pub mod presence;
pub mod presets;
pub mod probe;
pub mod providers;
pub mod relations;
pub mod session;
pub mod settings;
pub mod sink;
pub mod speech;
pub mod tools;
pub mod transport;
pub mod voice_setup;
pub mod world;

// The pure engine's modules, at the paths they always had.
pub use yui_engine::{body, context, limits, triggers};
// The desktop access, at the paths it always had.
pub use yui_desktop::{keystore, picture, platform};
// The types the UI and the core say to each other, at the paths they always had.
pub use yui_protocol::{command, event, model};
// The turn engine, at the path it always had.
pub use yui_turn as turn;

pub use command::{HelpGuide, UserCommand};
pub use data_dir::DataDir;
pub use error::{CoreError, ErrorCode};
pub use event::{Status, TurnOutcome, UiEvent};
pub use limits::Timeouts;
pub use model::{Cue, DelegationItem, Segment, Usage, Vocabulary};
pub use session::{Session, SessionConfig};
pub use settings::{ChatApi, Settings, SettingsChange};
pub use sink::{CollectingSink, EventSink, SharedSink};
