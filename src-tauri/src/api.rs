//! The page-to-shell boundary, typed end to end: every command the pages
//! may invoke, with its arguments and answer as Rust types, written out as
//! `ui/src/bindings/commands.ts` (through ts-rs, like the core's events).
//! The pages call `commands.<name>(…)`; no command name is a loose string.
//!
//! The commands are declared once, in `lib.rs` (`shell_commands!`): the
//! invoke handler and this table come from the same lines, and each
//! command's argument names from its own signature (`#[page_args]`,
//! `src-tauri/macros`). The events the shell emits itself are declared once
//! in `shell_events.rs`. The test `commands_ts_is_current` fails when the
//! committed file is stale (`UPDATE_BINDINGS=1 cargo test -p yui --lib api`
//! rewrites it).

use ts_rs::{Config, TS};

/// What writes one TypeScript type.
type TypeScript = fn(&Config) -> String;

/// One command of the table.
pub struct Spec {
    /// The command's name (the Rust function's).
    pub name: &'static str,
    /// What it does, one line (the generated function's doc).
    pub doc: &'static str,
    /// Its arguments' names as the page passes them (the function's own), in order.
    pub arg_names: &'static [&'static str],
    /// Their TypeScript types, in the same order.
    pub arg_types: &'static [TypeScript],
    /// The TypeScript type of its answer.
    pub answer: TypeScript,
}

pub(crate) fn ts<T: TS>(cfg: &Config) -> String {
    T::name(cfg)
}

pub(crate) fn void(_: &Config) -> String {
    "null".into()
}

pub(crate) fn bytes(_: &Config) -> String {
    "ArrayBuffer | Uint8Array | number[]".into()
}

pub(crate) fn level_channel(_: &Config) -> String {
    "Channel<number>".into()
}

pub(crate) fn event_stream(cfg: &Config) -> String {
    format!("Channel<{}>", yui_core::UiEvent::name(cfg))
}

pub(crate) fn cast_stream(cfg: &Config) -> String {
    format!("Channel<{}>", inline::<crate::streams::CastEvent>(cfg))
}

pub(crate) fn cursor_stream(cfg: &Config) -> String {
    format!("Channel<{} | null>", inline::<crate::streams::CursorPoint>(cfg))
}

/// `T` written out in place, on one line (its field docs left out).
pub(crate) fn inline<T: TS>(cfg: &Config) -> String {
    let mut text = T::inline(cfg);
    while let (Some(start), Some(end)) = (text.find("/**"), text.find("*/")) {
        text.replace_range(start..end + 2, "");
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ").replace(", }", " }")
}

/// One event the shell emits itself (not through a channel).
pub struct EventSpec {
    /// Its key in the generated `shellEvents`.
    pub key: &'static str,
    /// The event name, from the constant the shell emits it under.
    pub name: &'static str,
    /// What it carries, one line.
    pub doc: &'static str,
    /// Its payload's TypeScript type.
    pub payload: TypeScript,
}

pub(crate) use crate::command_table::COMMANDS;
use crate::shell_events::EVENTS;

/// Commands whose body is raw bytes (`x-file-name` names the file): their
/// generated function takes `(bytes, fileName)`.
const UPLOADS: &[&str] = &["import_character", "import_motion", "import_card", "add_character_from_card"];

/// camelCase of a snake_case name.
fn camel(name: &str) -> String {
    let mut out = String::new();
    let mut up = false;
    for c in name.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The TypeScript module.
pub fn typescript() -> String {
    let cfg = Config::new().with_large_int("number");
    let mut body = String::new();
    let mut used = std::collections::BTreeSet::new();
    for spec in COMMANDS {
        let answer = (spec.answer)(&cfg);
        let args = spec.arg_names.iter().zip(spec.arg_types);
        let mut params: Vec<String> = args.clone().map(|(n, t)| format!("{}: {}", camel(n), t(&cfg))).collect();
        // Tauri reads the arguments under their camelCase names.
        let mut passed: Vec<String> = spec.arg_names.iter().map(|n| camel(n)).collect();
        for (_, t) in args {
            used.insert(t(&cfg));
        }
        used.insert(answer.clone());
        let call = if UPLOADS.contains(&spec.name) {
            params = vec!["bytes: Uint8Array".into(), "fileName: string".into()];
            format!("invoke<{answer}>(\"{}\", bytes, {{ headers: {{ \"x-file-name\": fileName }} }})", spec.name)
        } else if passed.is_empty() {
            format!("invoke<{answer}>(\"{}\")", spec.name)
        } else {
            passed.sort();
            format!("invoke<{answer}>(\"{}\", {{ {} }})", spec.name, passed.join(", "))
        };
        body.push_str(&format!("  /** {} */\n  {}: ({}): Promise<{answer}> => {call},\n", spec.doc, camel(spec.name), params.join(", ")));
    }
    let builtin = ["Array", "Channel", "ArrayBuffer", "Uint8Array", "Promise", "number", "string", "boolean", "null"];
    let mut types = std::collections::BTreeSet::new();
    for t in &used {
        for word in t.split(|c: char| !c.is_ascii_alphanumeric() && c != '_') {
            if word.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && !builtin.contains(&word) {
                types.insert(word.to_string());
            }
        }
    }
    let mut names = String::new();
    let mut payloads = String::new();
    for e in EVENTS {
        let payload = (e.payload)(&cfg);
        for word in payload.split(|c: char| !c.is_ascii_alphanumeric() && c != '_') {
            if word.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && !builtin.contains(&word) {
                types.insert(word.to_string());
            }
        }
        names.push_str(&format!("  /** {} */\n  {}: \"{}\",\n", e.doc, e.key, e.name));
        payloads.push_str(&format!("  \"{}\": {payload};\n", e.name));
    }
    types.insert("ErrorCode".into());
    format!(
        "// Generated from src-tauri/src/api.rs. Do not edit.\n// Regenerate: UPDATE_BINDINGS=1 cargo test -p yui --lib api\n\n\
         import {{ Channel, invoke }} from \"@tauri-apps/api/core\";\n\
         import type {{ {} }} from \"./index\";\n\n\
         /** What a rejected command carries: a code to switch on and a line for a person. */\n\
         export type CommandError = {{ code: ErrorCode; message: string }};\n\n\
         /** Every command of the shell, typed. Each rejects with a `CommandError`. */\n\
         export const commands = {{\n{body}}};\n\n\
         /** A `Channel` for `eventChannel`, `cursorChannel` and `lipChannel`. */\nexport {{ Channel }};\n\n\
         /** The events the shell emits itself, by name. */\n\
         export const shellEvents = {{\n{names}}} as const;\n\n\
         /** Each shell event's payload, by event name. */\n\
         export interface ShellEventPayloads {{\n{payloads}}}\n",
        types.into_iter().collect::<Vec<_>>().join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_ts_is_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/src/bindings/commands.ts");
        let fresh = typescript();
        if std::env::var_os("UPDATE_BINDINGS").is_some() {
            std::fs::write(&path, &fresh).expect("write commands.ts");
            return;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(committed == fresh, "ui/src/bindings/commands.ts is stale: run `UPDATE_BINDINGS=1 cargo test -p yui --lib api` and commit it");
    }

    #[test]
    fn argument_names_come_from_the_signatures() {
        let spec = |name: &str| COMMANDS.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no command {name}"));
        // Injected parameters (the app, the window, state, the request) are left out.
        assert_eq!(spec("chat_page").arg_names, ["id", "before", "after"]);
        assert_eq!(spec("send_command").arg_names, ["command"]);
        assert_eq!(spec("import_character").arg_names, [] as [&str; 0]);
        for s in COMMANDS {
            assert_eq!(s.arg_names.len(), s.arg_types.len(), "{}", s.name);
        }
    }

    #[test]
    fn names_turn_camel() {
        assert_eq!(camel("chat_conversation"), "chatConversation");
        assert_eq!(camel("send_command"), "sendCommand");
    }
}
