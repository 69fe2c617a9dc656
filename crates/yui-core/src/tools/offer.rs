//! Offers to switch a tool switch on.
//!
//! A call refused by a switch answers at once (`error: <switch> is switched
//! off`) and never waits on the user; the user is asked beside it instead:
//! the pet shows a notice and the chat window a card offering to switch it
//! on ([`crate::UiEvent::ToolOffer`]). Accepting
//! ([`crate::UserCommand::SwitchOn`]) turns the setting on, saved, for the
//! next call; ignoring it changes nothing. An offer stands for
//! [`crate::limits::TOOL_OFFER_OPEN`] after the refusal that raised it; a
//! refusal while one stands raises no other. It is over at once when the
//! switch is turned on (here or in the settings window).

use crate::event::UiEvent;
use crate::settings::Settings;
use crate::sink::SharedSink;
use std::collections::HashMap;
use std::sync::Mutex;

/// The three tool switches (`docs/client-tools.md`, "The tools").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Switch {
    /// `look.screen`: `look` at the screen (the setting `screenshot.allowRequests`).
    LookScreen,
    /// `browser`: every `browser` call.
    Browser,
    /// `relations`: `rate_relation` and the `relation:` lines.
    Relations,
}

impl Switch {
    /// Every switch, in the order of `docs/client-tools.md`.
    pub const ALL: [Switch; 3] = [Switch::LookScreen, Switch::Browser, Switch::Relations];

    /// The switch's name as `docs/client-tools.md` and the `tool switches:` line write it.
    pub fn name(self) -> &'static str {
        match self {
            Switch::LookScreen => "look.screen",
            Switch::Browser => "browser",
            Switch::Relations => "relations",
        }
    }

    /// The switch named `name`, if any.
    pub fn parse(name: &str) -> Option<Switch> {
        Switch::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Whether it is on in `settings`.
    pub fn is_on(self, settings: &Settings) -> bool {
        match self {
            Switch::LookScreen => settings.character.screenshot.allow_requests,
            Switch::Browser => settings.character.browser,
            Switch::Relations => settings.character.relations,
        }
    }

    /// Turn it on in `settings`.
    pub fn turn_on(self, settings: &mut Settings) {
        match self {
            Switch::LookScreen => settings.character.screenshot.allow_requests = true,
            Switch::Browser => settings.character.browser = true,
            Switch::Relations => settings.character.relations = true,
        }
    }

    /// What a call refused by this switch answers, word for word.
    pub fn refusal(self) -> &'static str {
        match self {
            Switch::LookScreen => "error: look.screen is switched off",
            Switch::Browser => "error: browser is switched off",
            Switch::Relations => "error: relations is switched off",
        }
    }
}

/// The offers standing now, one per switch at most; the windows hear each
/// one raised and each one over.
pub struct Offers {
    /// Switch → until when its offer stands (epoch ms).
    standing: Mutex<HashMap<Switch, i64>>,
    sink: SharedSink,
}

impl std::fmt::Debug for Offers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Offers").finish_non_exhaustive()
    }
}

impl Offers {
    /// No offer yet; the windows hear through `sink`.
    pub fn new(sink: SharedSink) -> Self {
        Self { standing: Mutex::default(), sink }
    }

    /// A call was refused by `switch` at `now_ms`: offer to switch it on,
    /// unless an offer for it stands already. True when one was raised.
    pub fn raise(&self, switch: Switch, now_ms: i64) -> bool {
        let until = now_ms.saturating_add(i64::try_from(crate::limits::TOOL_OFFER_OPEN.as_millis()).unwrap_or(i64::MAX));
        {
            let mut standing = self.standing.lock().unwrap_or_else(|p| p.into_inner());
            if standing.get(&switch).is_some_and(|u| *u > now_ms) {
                return false;
            }
            standing.insert(switch, until);
        }
        tracing::info!(record = "tool_offer", switch = switch.name(), "a call was refused by its switch; the user is offered to switch it on");
        self.sink.emit(UiEvent::ToolOffer { switch: switch.name().into(), until_ms: Some(until) });
        true
    }

    /// The offer for `switch` is over (accepted): the windows take it down.
    pub fn close(&self, switch: Switch) {
        self.standing.lock().unwrap_or_else(|p| p.into_inner()).remove(&switch);
        self.sink.emit(UiEvent::ToolOffer { switch: switch.name().into(), until_ms: None });
    }

    /// A window opened and asks: send the offers standing at `now_ms` again.
    pub fn repeat(&self, now_ms: i64) {
        let standing: Vec<(Switch, i64)> =
            self.standing.lock().unwrap_or_else(|p| p.into_inner()).iter().filter(|(_, u)| **u > now_ms).map(|(s, u)| (*s, *u)).collect();
        for (switch, until) in standing {
            self.sink.emit(UiEvent::ToolOffer { switch: switch.name().into(), until_ms: Some(until) });
        }
    }

    /// The settings changed (the settings window saved): the standing
    /// offers of switches now on are over.
    pub fn follow(&self, settings: &Settings) {
        let over: Vec<Switch> = {
            let mut standing = self.standing.lock().unwrap_or_else(|p| p.into_inner());
            let over: Vec<Switch> = standing.keys().copied().filter(|s| s.is_on(settings)).collect();
            for s in &over {
                standing.remove(s);
            }
            over
        };
        for switch in over {
            self.sink.emit(UiEvent::ToolOffer { switch: switch.name().into(), until_ms: None });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::CollectingSink;
    use std::sync::Arc;

    fn offers_seen(sink: &CollectingSink) -> Vec<(String, Option<i64>)> {
        sink.events()
            .into_iter()
            .filter_map(|e| match e {
                UiEvent::ToolOffer { switch, until_ms } => Some((switch, until_ms)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn one_offer_per_switch_while_it_stands_and_again_once_it_lapsed() {
        let sink = CollectingSink::new();
        let offers = Offers::new(Arc::new(sink.clone()));
        let open = crate::limits::TOOL_OFFER_OPEN.as_millis() as i64;
        assert!(offers.raise(Switch::LookScreen, 1_000));
        assert!(!offers.raise(Switch::LookScreen, 2_000), "one stands");
        assert!(offers.raise(Switch::Browser, 2_000), "another switch has its own");
        assert!(offers.raise(Switch::LookScreen, 1_000 + open), "lapsed: raised again");
        assert_eq!(
            offers_seen(&sink),
            [("look.screen".into(), Some(1_000 + open)), ("browser".into(), Some(2_000 + open)), ("look.screen".into(), Some(1_000 + 2 * open))]
        );
    }

    #[test]
    fn a_window_that_opened_hears_the_standing_offers_again() {
        let sink = CollectingSink::new();
        let offers = Offers::new(Arc::new(sink.clone()));
        let open = crate::limits::TOOL_OFFER_OPEN.as_millis() as i64;
        offers.raise(Switch::LookScreen, 0);
        offers.raise(Switch::Relations, 10);
        offers.repeat(open);
        let seen = offers_seen(&sink);
        assert_eq!(seen.len(), 3, "only the one still standing: {seen:?}");
        assert_eq!(seen[2], ("relations".into(), Some(10 + open)), "the same offer, not a new one");
    }

    #[test]
    fn a_switch_turned_on_in_the_settings_ends_its_offer() {
        let sink = CollectingSink::new();
        let offers = Offers::new(Arc::new(sink.clone()));
        offers.raise(Switch::Relations, 0);
        offers.raise(Switch::Browser, 0);
        let settings = Settings::from(crate::settings::CharacterSettings { relations: true, browser: false, ..Default::default() });
        offers.follow(&settings);
        offers.follow(&settings);
        let seen = offers_seen(&sink);
        assert_eq!(seen.len(), 3, "{seen:?}");
        assert_eq!(seen[2], ("relations".into(), None), "over once, not twice");
        assert!(offers.raise(Switch::Relations, 1), "a new refusal raises a new offer");
        assert!(!offers.raise(Switch::Browser, 1), "the browser offer still stands");
    }

    #[test]
    fn names_and_refusals_are_the_specs() {
        for s in Switch::ALL {
            assert_eq!(Switch::parse(s.name()), Some(s));
            assert_eq!(s.refusal(), format!("error: {} is switched off", s.name()));
            let mut settings = Settings::from(crate::settings::CharacterSettings { relations: false, ..Default::default() });
            assert!(!s.is_on(&settings));
            s.turn_on(&mut settings);
            assert!(s.is_on(&settings));
        }
        assert_eq!(Switch::parse("screen"), None);
    }
}
