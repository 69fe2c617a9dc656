//! The events the shell emits itself (not down a page's channel), declared
//! once: `shell_events!` below gives each payload type its name
//! ([`ShellEvent::NAME`]) and, in tests, the table that writes
//! `shellEvents` and `ShellEventPayloads` into
//! `ui/src/bindings/commands.ts`. The shell emits only through
//! [`emit_filter`] and [`emit_to`], which take a [`ShellEvent`]: Tauri's
//! own `emit*` methods are refused by clippy everywhere else
//! (`clippy.toml`), so no event leaves under a name the table lacks.

use serde::Serialize;
use tauri::{AppHandle, EventTarget};

/// A payload the shell emits, under its one name.
pub trait ShellEvent: Serialize + Clone {
    /// The event name the page listens to.
    const NAME: &'static str;
}

/// Each line: `key: Payload = "name", "doc", typescript;` where `key` is
/// its key in the generated `shellEvents` and `typescript` writes the
/// payload's type (`ts` by name, `inline` spelled out).
macro_rules! shell_events {
    ($( $key:ident : $payload:ty = $name:literal, $doc:literal, $typescript:ident; )*) => {
        $(
            impl ShellEvent for $payload {
                const NAME: &'static str = $name;
            }
        )*

        /// Every event the shell emits (tests only: it writes the bindings).
        #[cfg(test)]
        pub(crate) const EVENTS: &[crate::api::EventSpec] = &[$(crate::api::EventSpec {
            key: stringify!($key),
            name: $name,
            doc: $doc,
            payload: crate::api::$typescript::<$payload>,
        }),*];
    };
}

shell_events! {
    event: yui_core::UiEvent = "yui://event", "Every core event of the session, until the page registers its event channel.", ts;
    language: crate::language::UiLanguage = "yui://language", "The user picked another UI language: every page speaks it from now on.", inline;
    interactive: crate::shortcut::Interactive = "yui://interactive", "The \"bring YUI back\" shortcut: keep click-through off for `seconds` (pet only).", inline;
}

/// Emit `payload` to the windows `reaches` keeps.
#[allow(clippy::disallowed_methods)]
pub fn emit_filter<E: ShellEvent>(app: &AppHandle, payload: &E, reaches: impl Fn(&EventTarget) -> bool) -> tauri::Result<()> {
    tauri::Emitter::emit_filter(app, E::NAME, payload, reaches)
}

/// Emit `payload` to `target`.
#[allow(clippy::disallowed_methods)]
pub fn emit_to<E: ShellEvent>(app: &AppHandle, target: EventTarget, payload: E) -> tauri::Result<()> {
    tauri::Emitter::emit_to(app, target, E::NAME, payload)
}
