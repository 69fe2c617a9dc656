//! The `--set KEY=VALUE` overrides (the CLI's `--set`): one table, each
//! settable key once with what it takes and where it goes. The parser, the
//! help text and the error for an unknown key all read the same table.

use super::{ScreenChoice, Settings};
use crate::error::CoreError;

/// What a key takes, and how it writes the value into the settings.
enum Takes {
    /// `on`/`off` (or `true`/`false`, `1`/`0`).
    Switch(fn(&mut Settings) -> &mut bool),
    /// Any text, kept as given (trimmed).
    Text(fn(&mut Settings, String)),
    /// A whole number in `min..=max`.
    Number { min: u32, max: u32, set: fn(&mut Settings, u32) },
    /// Its own parser; `takes` says what it accepts.
    Custom { takes: &'static str, set: fn(&mut Settings, &str) -> Option<()> },
}

/// One settable key: its spellings (the first is the one the help shows)
/// and what it takes.
struct Key {
    names: &'static [&'static str],
    takes: Takes,
}

/// Every key `--set` knows, once.
const KEYS: &[Key] = &[
    Key { names: &["look.screen", "screenshot.allowRequests"], takes: Takes::Switch(|s| &mut s.character.screenshot.allow_requests) },
    Key { names: &["screenshot.enabled"], takes: Takes::Switch(|s| &mut s.character.screenshot.enabled) },
    Key {
        names: &["screenshot.monitor"],
        takes: Takes::Custom {
            takes: "a display index",
            set: |s, v| {
                s.character.screenshot.source = ScreenChoice::Monitor { index: v.parse().ok()? };
                Some(())
            },
        },
    },
    Key {
        names: &["screenshot.window"],
        takes: Takes::Custom {
            takes: "app or app:title part",
            set: |s, v| {
                let (app, title) = v.split_once(':').unwrap_or((v, ""));
                s.character.screenshot.source = ScreenChoice::Window { app: app.trim().into(), title: title.trim().into() };
                Some(())
            },
        },
    },
    Key {
        names: &["language"],
        takes: Takes::Custom {
            takes: "en, ja or ko",
            set: |s, v| {
                let v = v.trim().to_ascii_lowercase();
                s.user.language = super::LANGUAGES.into_iter().find(|l| *l == v)?.to_string();
                Some(())
            },
        },
    },
    Key { names: &["browser"], takes: Takes::Switch(|s| &mut s.character.browser) },
    Key { names: &["relations"], takes: Takes::Switch(|s| &mut s.character.relations) },
    Key { names: &["voice", "tts"], takes: Takes::Switch(|s| &mut s.character.voice.enabled) },
    Key { names: &["tts.base_url"], takes: Takes::Text(|s, v| s.character.voice.tts_base_url = v) },
    Key { names: &["tts.key"], takes: Takes::Text(|s, v| s.character.voice.tts_key = v.into()) },
    Key { names: &["tts.model"], takes: Takes::Text(|s, v| s.character.voice.tts_model = v) },
    Key { names: &["tts.voice"], takes: Takes::Text(|s, v| s.character.voice.tts_voice = v) },
    Key { names: &["tts.in_flight"], takes: Takes::Number { min: 1, max: 8, set: |s, n| s.character.voice.tts_in_flight = n } },
    Key {
        names: &["tts.speed"],
        takes: Takes::Custom {
            takes: "0.25 to 4.0",
            set: |s, v| {
                let speed = v.parse::<f32>().ok().filter(|x| (0.25..=4.0).contains(x))?;
                s.character.voice.speed_percent = (speed * 100.0).round() as u32;
                Some(())
            },
        },
    },
    Key { names: &["system_voice"], takes: Takes::Switch(|s| &mut s.character.voice.system_voice) },
    Key { names: &["filler"], takes: Takes::Switch(|s| &mut s.character.voice.filler) },
    Key { names: &["stt.base_url"], takes: Takes::Text(|s, v| s.character.voice.stt_base_url = v) },
    Key { names: &["stt.key"], takes: Takes::Text(|s, v| s.character.voice.stt_key = v.into()) },
    Key { names: &["stt.model"], takes: Takes::Text(|s, v| s.character.voice.stt_model = v) },
    Key { names: &["stt.language"], takes: Takes::Text(|s, v| s.character.voice.stt_language = v) },
    Key { names: &["ingress", "ingress.enabled"], takes: Takes::Switch(|s| &mut s.user.ingress.enabled) },
    Key { names: &["ingress.require_token"], takes: Takes::Switch(|s| &mut s.user.ingress.require_token) },
    Key { names: &["ingress.token"], takes: Takes::Text(|s, v| s.user.ingress.token = v.into()) },
    Key { names: &["ingress.port"], takes: Takes::Number { min: 1, max: u16::MAX as u32, set: |s, n| s.user.ingress.port = n as u16 } },
    Key { names: &["frontmost"], takes: Takes::Switch(|s| &mut s.user.reactions.frontmost) },
    Key { names: &["screen_transitions"], takes: Takes::Switch(|s| &mut s.user.reactions.screen_transitions) },
    Key { names: &["schedule"], takes: Takes::Switch(|s| &mut s.user.reactions.schedule) },
    Key { names: &["idle_cues"], takes: Takes::Switch(|s| &mut s.user.reactions.idle_cues) },
    Key { names: &["away_after_min"], takes: Takes::Number { min: 1, max: 120, set: |s, n| s.user.reactions.away_after_min = n } },
    Key { names: &["bed.at_launch"], takes: Takes::Switch(|s| &mut s.character.bed.at_launch) },
    Key {
        names: &["bed.wake_timeout_min"],
        takes: Takes::Number { min: 1, max: crate::limits::BED_WAKE_TIMEOUT_MIN_MAX, set: |s, n| s.character.bed.wake_timeout_min = n },
    },
    Key { names: &["start_at_login"], takes: Takes::Switch(|s| &mut s.user.start_at_login) },
    Key { names: &["exchange_limit"], takes: Takes::Number { min: 0, max: 50, set: |s, n| s.user.exchange_limit = n } },
];

impl Takes {
    /// What the key accepts, as the help and the errors say it.
    fn describe(&self) -> String {
        match self {
            Takes::Switch(_) => "on or off".into(),
            Takes::Text(_) => "text".into(),
            Takes::Number { min, max, .. } => format!("{min} to {max}"),
            Takes::Custom { takes, .. } => (*takes).into(),
        }
    }
}

fn bad(reason: String) -> CoreError {
    CoreError::Settings { field: "set", reason }
}

/// Apply a `KEY=VALUE` override (the CLI's `--set`); [`override_help`]
/// lists the keys and what each takes. A switch takes `on`/`off` (or
/// `true`/`false`); a bad value or an unknown key is an error naming it.
pub fn apply_override(settings: &mut Settings, pair: &str) -> Result<(), CoreError> {
    let (key, value) = pair.split_once('=').ok_or_else(|| bad(format!("{pair:?} is not KEY=VALUE")))?;
    let (key, value) = (key.trim(), value.trim());
    let Some(entry) = KEYS.iter().find(|k| k.names.contains(&key)) else {
        let known: Vec<&str> = KEYS.iter().map(|k| k.names[0]).collect();
        return Err(bad(format!("unknown setting {key:?}; use {}", known.join(", "))));
    };
    let refused = || bad(format!("{key} takes {}, not {value:?}", entry.takes.describe()));
    match &entry.takes {
        Takes::Switch(field) => {
            *field(settings) = match value {
                "on" | "true" | "1" => true,
                "off" | "false" | "0" => false,
                _ => return Err(refused()),
            }
        }
        Takes::Text(set) => set(settings, value.to_string()),
        Takes::Number { min, max, set } => set(settings, value.parse().ok().filter(|n| (*min..=*max).contains(n)).ok_or_else(refused)?),
        Takes::Custom { set, .. } => set(settings, value).ok_or_else(refused)?,
    }
    Ok(())
}

/// The help text for `--set`: one line per key with its other spellings and
/// what it takes.
pub fn override_help() -> String {
    KEYS.iter()
        .map(|k| {
            let also = if k.names.len() > 1 { format!(" (also {})", k.names[1..].join(", ")) } else { String::new() };
            format!("  {}{also}: {}", k.names[0], k.takes.describe())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_is_known_once() {
        let mut seen = std::collections::BTreeSet::new();
        for name in KEYS.iter().flat_map(|k| k.names) {
            assert!(seen.insert(*name), "{name} appears twice");
        }
        let help = override_help();
        for name in &seen {
            assert!(help.contains(name), "the help names {name}");
        }
    }

    #[test]
    fn the_ui_language_is_one_the_app_speaks() {
        let mut s = Settings::default();
        apply_override(&mut s, "language=JA").unwrap();
        assert_eq!(s.user.language, "ja");
        apply_override(&mut s, "language=ko").unwrap();
        assert_eq!(s.user.language, "ko");
        let refused = apply_override(&mut s, "language=fr").unwrap_err().to_string();
        assert!(refused.contains("en, ja or ko"), "{refused}");
        assert_eq!(s.user.language, "ko", "a refused value changes nothing");
        assert_eq!(Settings::first_start(Some("ja_JP.UTF-8")).user.language, "ja");
        assert_eq!(Settings::first_start(None).user.language, "en");
    }

    #[test]
    fn each_kind_of_value_lands_where_its_key_says() {
        let mut s = Settings::default();
        for pair in [
            "tts=off",
            "tts.key=sk-t",
            "tts.speed=1.5",
            "tts.in_flight=3",
            "ingress=on",
            "ingress.port=9001",
            "ingress.token=t0k",
            "away_after_min=7",
            "bed.wake_timeout_min=60",
            "start_at_login=on",
        ] {
            apply_override(&mut s, pair).unwrap();
        }
        assert!(!s.character.voice.enabled && s.user.ingress.enabled && s.user.start_at_login);
        assert_eq!(s.character.voice.tts_key.expose(), "sk-t");
        assert_eq!((s.character.voice.speed_percent, s.character.voice.tts_in_flight), (150, 3));
        assert_eq!((s.user.ingress.port, s.user.ingress.token.expose()), (9001, "t0k"));
        assert_eq!((s.user.reactions.away_after_min, s.character.bed.wake_timeout_min), (7, 60));
        for bad in
            ["tts.in_flight=9", "tts.speed=5", "ingress.port=0", "ingress.port=70000", "away_after_min=0", "bed.wake_timeout_min=481", "screenshot.monitor=x"]
        {
            assert!(apply_override(&mut s, bad).is_err(), "{bad}");
        }
        let unknown = apply_override(&mut s, "volume=3").unwrap_err().to_string();
        assert!(unknown.contains("volume") && unknown.contains("start_at_login"), "{unknown}");
        let refused = apply_override(&mut s, "tts.in_flight=9").unwrap_err().to_string();
        assert!(refused.contains("tts.in_flight takes 1 to 8"), "{refused}");
    }
}
