//! A tool call's name and arguments read into one typed value, and the
//! generic answers of a call that does not read.

pub use crate::contract::ToolError;
use crate::limits;
use serde_json::{Map, Value};
use std::time::Duration;

/// A declared tool's call with its arguments checked and typed
/// (`docs/client-tools.md`, "The tools").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolArgs {
    /// `address_character { character }`: speak to another open character.
    AddressCharacter {
        /// The name of the character addressed.
        character: String,
    },
    /// `look { at, monitor? }`: read the body, the perch targets or the screen.
    Look {
        /// What to read.
        at: LookAt,
        /// For `screen`: the display index; none means the character's display.
        monitor: Option<usize>,
    },
    /// `rate_relation { target, delta, why }`.
    RateRelation {
        /// `user`, or another open character's name.
        target: String,
        /// -3..=3, not 0.
        delta: i32,
        /// The reason, one line, cut at 200 code points.
        why: String,
    },
    /// `browser { action, url? }`.
    Browser(BrowserAction),
    /// `body_action { action, ... }`: move the body on the desktop.
    BodyAction(crate::body::BodyAction),
}

/// What `look` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LookAt {
    /// The body state line.
    Body,
    /// The windows the character could sit on.
    PerchTargets,
    /// A display's picture (gated by `look.screen`).
    Screen,
}

/// One `browser` call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BrowserAction {
    /// Load an `http`/`https` page (opening the window if needed).
    Open {
        /// The page, already checked to be `http` or `https`.
        url: url::Url,
    },
    /// The current page's readable text.
    Read,
    /// The current page's picture.
    Screenshot,
    /// Navigate back.
    Back,
    /// Close the browser window.
    Close,
}

/// `why` of `rate_relation`: at most this many code points are kept.
pub const RELATION_WHY_CHARS: usize = 200;

impl ToolArgs {
    /// Read a call. Arguments that are not a JSON object make every field
    /// the tool reads invalid (`transport/CONTRACT.md`); fields it does not
    /// read are ignored.
    pub fn parse(name: &str, arguments: &Value) -> Result<ToolArgs, ToolError> {
        let fields = Fields(arguments.as_object());
        match name {
            "address_character" => Ok(ToolArgs::AddressCharacter { character: fields.string("character")? }),
            "look" => {
                let at = match fields.string("at")?.as_str() {
                    "body" => LookAt::Body,
                    "perch_targets" => LookAt::PerchTargets,
                    "screen" => LookAt::Screen,
                    _ => return Err(ToolError::InvalidField("at")),
                };
                let monitor = match fields.optional("monitor")? {
                    None => None,
                    Some(v) => Some(v.as_u64().and_then(|n| usize::try_from(n).ok()).ok_or(ToolError::InvalidField("monitor"))?),
                };
                Ok(ToolArgs::Look { at, monitor })
            }
            "rate_relation" => {
                let target = fields.string("target")?;
                let delta = fields.get("delta")?.as_i64().filter(|d| (-3..=3).contains(d) && *d != 0).ok_or(ToolError::InvalidField("delta"))?;
                let why = fields.string("why")?;
                if target.trim().is_empty() {
                    return Err(ToolError::InvalidField("target"));
                }
                // One line: line breaks become spaces; longer is cut.
                let why: String = why.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(RELATION_WHY_CHARS).collect();
                Ok(ToolArgs::RateRelation { target, delta: delta as i32, why })
            }
            "browser" => {
                let action = match fields.string("action")?.as_str() {
                    "open" => {
                        let raw = fields.string("url")?;
                        let url = url::Url::parse(raw.trim()).map_err(|_| ToolError::InvalidField("url"))?;
                        if !matches!(url.scheme(), "http" | "https") {
                            return Err(ToolError::InvalidField("url"));
                        }
                        BrowserAction::Open { url }
                    }
                    "read" => BrowserAction::Read,
                    "screenshot" => BrowserAction::Screenshot,
                    "back" => BrowserAction::Back,
                    "close" => BrowserAction::Close,
                    _ => return Err(ToolError::InvalidField("action")),
                };
                Ok(ToolArgs::Browser(action))
            }
            "body_action" => {
                use crate::body::{BodyAction, BodyMove, Side, Spot};
                let action = match fields.string("action")?.as_str() {
                    "sit_on_window" => {
                        let app = fields.string("app")?;
                        if app.trim().is_empty() {
                            return Err(ToolError::InvalidField("app"));
                        }
                        BodyAction::Move(BodyMove::SitOnWindow { app })
                    }
                    "peek" => {
                        let side = match fields.string("side")?.as_str() {
                            "left" => Side::Left,
                            "right" => Side::Right,
                            _ => return Err(ToolError::InvalidField("side")),
                        };
                        BodyAction::Move(BodyMove::Peek { side })
                    }
                    "move_to" => {
                        let spot = Spot::parse(&fields.string("spot")?).ok_or(ToolError::InvalidField("spot"))?;
                        let monitor = match fields.optional("monitor")? {
                            None => None,
                            Some(v) => Some(v.as_u64().and_then(|n| usize::try_from(n).ok()).ok_or(ToolError::InvalidField("monitor"))?),
                        };
                        BodyAction::Move(BodyMove::MoveTo { spot, monitor })
                    }
                    "stand_down" => BodyAction::Move(BodyMove::StandDown),
                    "go_to_bed" => BodyAction::GoToBed,
                    "get_up" => BodyAction::GetUp,
                    _ => return Err(ToolError::InvalidField("action")),
                };
                Ok(ToolArgs::BodyAction(action))
            }
            _ => Err(ToolError::UnknownTool),
        }
    }

    /// The tool's name as declared.
    pub fn name(&self) -> &'static str {
        match self {
            ToolArgs::AddressCharacter { .. } => "address_character",
            ToolArgs::Look { .. } => "look",
            ToolArgs::RateRelation { .. } => "rate_relation",
            ToolArgs::Browser(_) => "browser",
            ToolArgs::BodyAction(_) => "body_action",
        }
    }

    /// The client's wait for this tool (the limits table), counted from
    /// when the call starts running.
    pub fn wait(&self) -> Duration {
        match self {
            ToolArgs::AddressCharacter { .. } => limits::TOOL_CALL_WAIT_ADDRESS_CHARACTER,
            ToolArgs::Look { .. } => limits::TOOL_CALL_WAIT_QUERY,
            ToolArgs::RateRelation { .. } => limits::TOOL_CALL_WAIT_RATE_RELATION,
            ToolArgs::Browser(_) => limits::TOOL_CALL_WAIT_BROWSER,
            ToolArgs::BodyAction(_) => limits::TOOL_CALL_WAIT_BODY_ACTION,
        }
    }
}

/// The arguments object, or none when the arguments were not an object.
struct Fields<'a>(Option<&'a Map<String, Value>>);

impl Fields<'_> {
    fn get(&self, name: &'static str) -> Result<&Value, ToolError> {
        let map = self.0.ok_or(ToolError::InvalidField(name))?;
        map.get(name).ok_or(ToolError::MissingField(name))
    }

    fn string(&self, name: &'static str) -> Result<String, ToolError> {
        match self.get(name)? {
            Value::String(s) => Ok(s.clone()),
            _ => Err(ToolError::InvalidField(name)),
        }
    }

    /// An optional field: absent or `null` is none.
    fn optional(&self, name: &'static str) -> Result<Option<&Value>, ToolError> {
        let map = self.0.ok_or(ToolError::InvalidField(name))?;
        Ok(map.get(name).filter(|v| !v.is_null()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer(name: &str, arguments: Value) -> String {
        match ToolArgs::parse(name, &arguments) {
            Ok(args) => format!("ok {}", args.name()),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn every_generic_answer_word_for_word() {
        assert_eq!(answer("fly_away", json!({})), "error: unknown tool");
        assert_eq!(answer("look", json!({})), "error: missing field at");
        assert_eq!(answer("look", json!({"at": "moon"})), "error: invalid field at");
        assert_eq!(answer("look", json!({"at": "screen", "monitor": -1})), "error: invalid field monitor");
        assert_eq!(answer("look", json!({"at": "screen", "monitor": "0"})), "error: invalid field monitor");
        assert_eq!(answer("look", json!({"at": "screen", "monitor": 1})), "ok look");
        assert_eq!(answer("look", json!({"at": "body", "monitor": null})), "ok look");
        assert_eq!(answer("rate_relation", json!({"delta": 1, "why": "x"})), "error: missing field target");
        assert_eq!(answer("rate_relation", json!({"target": "user", "why": "x"})), "error: missing field delta");
        assert_eq!(answer("rate_relation", json!({"target": "user", "delta": 1})), "error: missing field why");
        for bad in [json!(0), json!(4), json!(-4), json!(1.5), json!("1")] {
            assert_eq!(answer("rate_relation", json!({"target": "user", "delta": bad, "why": "x"})), "error: invalid field delta");
        }
        assert_eq!(answer("rate_relation", json!({"target": " ", "delta": 1, "why": "x"})), "error: invalid field target");
        assert_eq!(answer("rate_relation", json!({"target": "user", "delta": -3, "why": "x"})), "ok rate_relation");
        assert_eq!(answer("browser", json!({})), "error: missing field action");
        assert_eq!(answer("browser", json!({"action": "fly"})), "error: invalid field action");
        assert_eq!(answer("browser", json!({"action": "open"})), "error: missing field url");
        for bad in ["file:///etc/passwd", "javascript:alert(1)", "ftp://x/", "not a url", "data:text/html,hi"] {
            assert_eq!(answer("browser", json!({"action": "open", "url": bad})), "error: invalid field url", "{bad}");
        }
        assert_eq!(answer("browser", json!({"action": "open", "url": "https://example.com/a"})), "ok browser");
        assert_eq!(answer("browser", json!({"action": "read", "url": "file:///x"})), "ok browser");
        assert_eq!(answer("address_character", json!({})), "error: missing field character");
        assert_eq!(answer("address_character", json!({"character": 3})), "error: invalid field character");
        assert_eq!(answer("address_character", json!({"character": null})), "error: invalid field character");
        assert_eq!(answer("address_character", Value::Null), "error: invalid field character");
        assert_eq!(answer("address_character", json!({"character": "Rin", "extra": 1})), "ok address_character");
        assert_eq!(answer("body_action", json!({})), "error: missing field action");
        assert_eq!(answer("body_action", json!({"action": "fly"})), "error: invalid field action");
        assert_eq!(answer("body_action", json!({"action": "sit_on_window"})), "error: missing field app");
        assert_eq!(answer("body_action", json!({"action": "sit_on_window", "app": " "})), "error: invalid field app");
        assert_eq!(answer("body_action", json!({"action": "peek", "side": "up"})), "error: invalid field side");
        assert_eq!(answer("body_action", json!({"action": "move_to"})), "error: missing field spot");
        assert_eq!(answer("body_action", json!({"action": "move_to", "spot": "middle"})), "error: invalid field spot");
        assert_eq!(answer("body_action", json!({"action": "move_to", "spot": "top-left", "monitor": -1})), "error: invalid field monitor");
        for ok in [
            json!({"action": "sit_on_window", "app": "Notes"}),
            json!({"action": "peek", "side": "left"}),
            json!({"action": "move_to", "spot": "bottom-right", "monitor": 1}),
            json!({"action": "stand_down"}),
            json!({"action": "go_to_bed"}),
            json!({"action": "get_up"}),
        ] {
            assert_eq!(answer("body_action", ok.clone()), "ok body_action", "{ok}");
        }
        assert_eq!(ToolError::TurnStopped.to_string(), "error: turn stopped");
        assert_eq!(ToolError::ResultTooLarge.to_string(), "error: result too large");
        assert_eq!(ToolError::NoReply(Duration::from_secs(2)).to_string(), "error: no reply within 2 s");
    }

    #[test]
    fn typed_and_timed() {
        let args = ToolArgs::parse("address_character", &json!({"character": "Rin"})).unwrap();
        assert_eq!(args, ToolArgs::AddressCharacter { character: "Rin".into() });
        assert_eq!(args.wait(), limits::TOOL_CALL_WAIT_ADDRESS_CHARACTER);
        let why = format!("line one\nline two {}", "é".repeat(300));
        let args = ToolArgs::parse("rate_relation", &json!({"target": "user", "delta": 2, "why": why})).unwrap();
        let ToolArgs::RateRelation { why, delta, .. } = &args else { panic!() };
        assert_eq!(*delta, 2);
        assert!(why.starts_with("line one line two é"));
        assert_eq!(why.chars().count(), RELATION_WHY_CHARS);
        assert_eq!(args.wait(), limits::TOOL_CALL_WAIT_RATE_RELATION);
        assert_eq!(ToolArgs::parse("browser", &json!({"action": "back"})).unwrap().wait(), limits::TOOL_CALL_WAIT_BROWSER);
        assert_eq!(ToolArgs::parse("look", &json!({"at": "body"})).unwrap().wait(), limits::TOOL_CALL_WAIT_QUERY);
        let sit = ToolArgs::parse("body_action", &json!({"action": "move_to", "spot": "center"})).unwrap();
        assert_eq!(sit, ToolArgs::BodyAction(crate::body::BodyAction::Move(crate::body::BodyMove::MoveTo { spot: crate::body::Spot::Center, monitor: None })));
        assert_eq!(sit.wait(), limits::TOOL_CALL_WAIT_BODY_ACTION);
    }
}
