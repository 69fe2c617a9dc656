//! A key or token: kept as text, never shown. `Debug` says only whether it
//! is set; the one place that sends it calls [`Secret::expose`].

use serde::{Deserialize, Serialize};
use std::fmt;

/// A key or token (the chat key, the TTS and STT keys, the ingress token).
/// On disk it is a plain string, and in TypeScript `type Secret = string`; its `Debug` form is
/// `Secret(<redacted>)` or `Secret("")`, never the value, so a struct that
/// holds one can derive `Debug` and still be logged.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(transparent)]
#[cfg_attr(feature = "ts", ts(as = "String"))]
pub struct Secret(String);

impl Secret {
    /// A secret holding `value`.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The value, for the one place that sends it (a header, a frame) or
    /// stores it (the keychain). Never format it into a log line.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// True when no value is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Forget the value (the settings file never holds the chat key).
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Self(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Self(value.to_string())
    }
}

impl PartialEq<str> for Secret {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Secret {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("Secret(\"\")")
        } else {
            f.write_str("Secret(<redacted>)")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_says_whether_it_is_set_and_never_the_value() {
        let key = Secret::new("sk-secret-123");
        let shown = format!("{key:?} {:?}", Some(&key));
        assert!(!shown.contains("sk-secret-123"), "{shown}");
        assert!(shown.contains("<redacted>"), "{shown}");
        assert_eq!(format!("{:?}", Secret::default()), "Secret(\"\")");
        assert_eq!(key.expose(), "sk-secret-123");
    }

    #[test]
    fn it_is_a_plain_string_on_disk() {
        let key: Secret = serde_json::from_str("\"k\"").unwrap();
        assert_eq!(key.expose(), "k");
        assert_eq!(serde_json::to_string(&key).unwrap(), "\"k\"");
        // Its TypeScript (with the `ts` feature, as the workspace builds it).
        #[cfg(feature = "ts")]
        assert_eq!(<Secret as ts_rs::TS>::inline(&ts_rs::Config::new()), "string");
    }
}
