//! The pacer: when a turn nobody typed may start, so she is lively but never
//! a nuisance (`docs/triggers.md`, "Pacing").
//!
//! Pure: time comes in as epoch ms. The session tells it what happened (the
//! user sent a turn, a reply's text showed, a self-started turn fired) and
//! asks [`Pacer::check`] before firing; a refusal names its [`Hold`], which
//! the session logs as the skip's reason.
//!
//! Rules, for every turn nobody typed except touches (signals, agent
//! events, cues, screen transitions, the milestone):
//! - **Reading.** Never over a reply the user is still reading: after the
//!   last piece of a reply showed, wait [`PacingSettings::read_ms`] for its
//!   length (a base plus a time per character, capped).
//! - **The user's own turn.** After the user sent something, wait
//!   `after_user_min`: they are in a conversation.
//!
//! And for the character's own initiative ([`Source::Screen`] and
//! [`Source::Cue`]; not signals, agent events or the milestone, which other
//! programs or the day asked for):
//! - **Do not disturb.** Nothing while a fullscreen app is frontmost.
//! - **Quiet gap.** At least `quiet_gap_min` between two self-started turns.
//! - **Hourly cap.** At most `hourly_cap` in any 60 minutes, and per source
//!   at most `screen_hourly_cap` screen transitions and `cue_hourly_cap`
//!   cues.
//!
//! Touches ([`Source::Touch`]) are the user's own doing and answer at once;
//! only their own debounce holds them: `touch_gap_s` between two touch
//! turns.
//!
//! Defaults are chosen so a new user is not spammed: 10 min apart, 3 an
//! hour (2 of a kind), 2 min after the user's own turn, 10 s between touch
//! turns.

use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The pacer's settings (minutes unless named otherwise).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(default)]
pub struct PacingSettings {
    /// Minutes between two self-started turns (default 10).
    pub quiet_gap_min: u32,
    /// Self-started turns in any hour at most (default 3).
    pub hourly_cap: u32,
    /// Minutes after the user's own turn before she starts one (default 2).
    pub after_user_min: u32,
    /// Hold self-started turns while a fullscreen app is frontmost (default on).
    pub do_not_disturb_fullscreen: bool,
    /// Screen transitions in any hour at most (default 2).
    pub screen_hourly_cap: u32,
    /// Schedule and idle cues in any hour at most (default 2).
    pub cue_hourly_cap: u32,
    /// Seconds between two touch turns (default 10).
    pub touch_gap_s: u32,
}

impl Default for PacingSettings {
    fn default() -> Self {
        Self { quiet_gap_min: 10, hourly_cap: 3, after_user_min: 2, do_not_disturb_fullscreen: true, screen_hourly_cap: 2, cue_hourly_cap: 2, touch_gap_s: 10 }
    }
}

impl PacingSettings {
    /// How long a reply of `chars` characters takes to read: a base of 4 s
    /// plus 60 ms a character, at most 30 s.
    pub fn read_ms(chars: usize) -> i64 {
        (crate::limits::PACING_READ_BASE_MS + crate::limits::PACING_READ_MS_PER_CHAR * chars as i64).min(crate::limits::PACING_READ_MAX_MS)
    }
}

/// What asks to fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// Another program or the day asked (signals, agent events, the
    /// milestone, a wake): only the reading and the user's-turn rules hold it.
    Asked,
    /// Her own initiative, a screen transition: every rule holds it.
    Screen,
    /// Her own initiative, a schedule or idle cue: every rule holds it.
    Cue,
    /// The user touched her: only the touch debounce holds it.
    Touch,
}

impl Source {
    /// True for her own initiative (screen transitions and cues).
    pub fn own(self) -> bool {
        matches!(self, Source::Screen | Source::Cue)
    }

    /// The name the turn log gives it.
    pub fn name(self) -> &'static str {
        match self {
            Source::Asked => "asked",
            Source::Screen => "screen",
            Source::Cue => "cue",
            Source::Touch => "touch",
        }
    }
}

/// Why a turn may not start now, and until when (epoch ms) where known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// The user is still reading the last reply.
    Reading {
        /// When the reading time is over.
        until: i64,
    },
    /// The user sent a turn a moment ago.
    UserTalking {
        /// When the wait after it is over.
        until: i64,
    },
    /// Too soon after her last self-started turn.
    QuietGap {
        /// When the gap is over.
        until: i64,
    },
    /// The hour's self-started turns are used up.
    HourlyCap {
        /// When the oldest of them leaves the hour.
        until: i64,
    },
    /// A fullscreen app is frontmost.
    Fullscreen,
    /// This source's turns of the hour are used up.
    SourceCap {
        /// When the oldest of them leaves the hour.
        until: i64,
    },
    /// Too soon after the last touch turn.
    TouchGap {
        /// When the debounce is over.
        until: i64,
    },
    /// She is on the bed: her own initiative, signals and the milestone wait
    /// for her to get up.
    OnBed,
    /// A turn runs, or something is said or queued: turns nobody typed
    /// start only into silence.
    Busy,
}

impl Hold {
    /// The reason, as the turn log names it.
    pub fn reason(&self) -> &'static str {
        match self {
            Hold::Reading { .. } => "reading",
            Hold::UserTalking { .. } => "user_talking",
            Hold::QuietGap { .. } => "quiet_gap",
            Hold::HourlyCap { .. } => "hourly_cap",
            Hold::Fullscreen => "do_not_disturb",
            Hold::SourceCap { .. } => "source_cap",
            Hold::TouchGap { .. } => "touch_gap",
            Hold::OnBed => "on_bed",
            Hold::Busy => "busy",
        }
    }
}

/// See the module doc.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pacer {
    /// When the last reply's text last grew, and its length so far.
    reply: Option<(i64, usize)>,
    /// When the user last sent a turn.
    user_at: Option<i64>,
    /// When her self-started turns fired, the last hour's, with their source.
    fired: VecDeque<(i64, Source)>,
    /// When the last touch turn fired.
    touch_at: Option<i64>,
}

const HOUR_MS: i64 = 60 * 60_000;

impl Pacer {
    /// A pacer that has seen nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// The user sent a turn at `now_ms`.
    pub fn user_turn(&mut self, now_ms: i64) {
        self.user_at = Some(now_ms);
        self.reply = None;
    }

    /// A reply's text grew to `chars` characters at `now_ms` (each piece
    /// restarts the reading time).
    pub fn reply_shown(&mut self, chars: usize, now_ms: i64) {
        self.reply = Some((now_ms, chars));
    }

    /// A self-started turn of `source` fired at `now_ms`.
    pub fn fired(&mut self, source: Source, now_ms: i64) {
        if source == Source::Touch {
            self.touch_at = Some(now_ms);
        }
        if source.own() {
            self.fired.push_back((now_ms, source));
            while self.fired.front().is_some_and(|(t, _)| now_ms - t >= HOUR_MS) {
                self.fired.pop_front();
            }
        }
    }

    /// May a turn of `source` start at `now_ms` (`fullscreen`: a fullscreen
    /// app is frontmost)? `Err` names the first rule that holds it.
    pub fn check(&self, source: Source, now_ms: i64, fullscreen: bool, s: &PacingSettings) -> Result<(), Hold> {
        if source == Source::Touch {
            let until = self.touch_at.map_or(i64::MIN, |at| at + i64::from(s.touch_gap_s) * 1_000);
            return if now_ms < until { Err(Hold::TouchGap { until }) } else { Ok(()) };
        }
        if let Some((at, chars)) = self.reply {
            let until = at + PacingSettings::read_ms(chars);
            if now_ms < until {
                return Err(Hold::Reading { until });
            }
        }
        if let Some(at) = self.user_at {
            let until = at + i64::from(s.after_user_min) * 60_000;
            if now_ms < until {
                return Err(Hold::UserTalking { until });
            }
        }
        if !source.own() {
            return Ok(());
        }
        if fullscreen && s.do_not_disturb_fullscreen {
            return Err(Hold::Fullscreen);
        }
        if let Some((last, _)) = self.fired.back() {
            let until = last + i64::from(s.quiet_gap_min) * 60_000;
            if now_ms < until {
                return Err(Hold::QuietGap { until });
            }
        }
        let in_hour: Vec<(i64, Source)> = self.fired.iter().copied().filter(|(t, _)| now_ms - t < HOUR_MS).collect();
        if in_hour.len() >= s.hourly_cap as usize {
            return Err(Hold::HourlyCap { until: in_hour.first().map_or(now_ms, |(t, _)| t + HOUR_MS) });
        }
        let cap = if source == Source::Screen { s.screen_hourly_cap } else { s.cue_hourly_cap };
        let mine: Vec<i64> = in_hour.iter().filter(|(_, src)| *src == source).map(|(t, _)| *t).collect();
        if mine.len() >= cap as usize {
            return Err(Hold::SourceCap { until: mine.first().map_or(now_ms, |t| t + HOUR_MS) });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: i64 = 60_000;

    #[test]
    fn a_reply_is_read_before_anything_else_starts() {
        let s = PacingSettings::default();
        let mut p = Pacer::new();
        assert_eq!(p.check(Source::Asked, 0, false, &s), Ok(()));
        p.reply_shown(100, 1_000);
        let read = PacingSettings::read_ms(100);
        assert_eq!(read, 10_000, "4 s + 100 × 60 ms");
        assert_eq!(p.check(Source::Asked, 1_000 + read - 1, false, &s), Err(Hold::Reading { until: 1_000 + read }));
        assert_eq!(p.check(Source::Asked, 1_000 + read, false, &s), Ok(()));
        assert_eq!(PacingSettings::read_ms(100_000), 30_000, "capped");
    }

    #[test]
    fn the_users_own_turn_holds_everything_for_a_while() {
        let s = PacingSettings::default();
        let mut p = Pacer::new();
        p.user_turn(0);
        assert_eq!(p.check(Source::Asked, MIN, false, &s), Err(Hold::UserTalking { until: 2 * MIN }));
        assert_eq!(p.check(Source::Asked, 2 * MIN, false, &s), Ok(()));
    }

    #[test]
    fn her_own_turns_keep_a_gap_and_an_hourly_cap() {
        let s = PacingSettings { cue_hourly_cap: 3, ..PacingSettings::default() };
        let mut p = Pacer::new();
        p.fired(Source::Cue, 0);
        assert_eq!(p.check(Source::Cue, 5 * MIN, false, &s), Err(Hold::QuietGap { until: 10 * MIN }));
        assert_eq!(p.check(Source::Asked, 5 * MIN, false, &s), Ok(()), "signals are not hers to pace");
        p.fired(Source::Cue, 10 * MIN);
        p.fired(Source::Cue, 20 * MIN);
        assert_eq!(p.check(Source::Cue, 30 * MIN, false, &s), Err(Hold::HourlyCap { until: 60 * MIN }));
        assert_eq!(p.check(Source::Cue, 60 * MIN, false, &s), Ok(()), "the first left the hour");
        p.fired(Source::Asked, 61 * MIN);
        assert_eq!(p.check(Source::Cue, 61 * MIN, false, &s), Ok(()), "an asked turn uses no gap");
    }

    #[test]
    fn fullscreen_holds_only_her_own_initiative() {
        let s = PacingSettings::default();
        let p = Pacer::new();
        assert_eq!(p.check(Source::Cue, 0, true, &s), Err(Hold::Fullscreen));
        assert_eq!(Hold::Fullscreen.reason(), "do_not_disturb");
        assert_eq!(p.check(Source::Asked, 0, true, &s), Ok(()));
        let off = PacingSettings { do_not_disturb_fullscreen: false, ..s };
        assert_eq!(p.check(Source::Cue, 0, true, &off), Ok(()));
    }

    #[test]
    fn each_source_has_its_own_hourly_cap() {
        let s = PacingSettings { quiet_gap_min: 1, ..PacingSettings::default() };
        let mut p = Pacer::new();
        p.fired(Source::Screen, 0);
        p.fired(Source::Screen, 2 * MIN);
        assert_eq!(p.check(Source::Screen, 4 * MIN, false, &s), Err(Hold::SourceCap { until: 60 * MIN }));
        assert_eq!(p.check(Source::Cue, 4 * MIN, false, &s), Ok(()), "a cue has room left");
        p.fired(Source::Cue, 4 * MIN);
        assert_eq!(p.check(Source::Cue, 6 * MIN, false, &s), Err(Hold::HourlyCap { until: 60 * MIN }), "3 of any kind an hour");
        assert_eq!(Hold::SourceCap { until: 0 }.reason(), "source_cap");
    }

    #[test]
    fn touches_answer_at_once_but_are_debounced() {
        let s = PacingSettings::default();
        let mut p = Pacer::new();
        p.user_turn(0);
        p.reply_shown(500, 0);
        p.fired(Source::Cue, 0);
        assert_eq!(p.check(Source::Touch, 1_000, true, &s), Ok(()), "no reading, user-turn, gap or fullscreen hold");
        p.fired(Source::Touch, 1_000);
        assert_eq!(p.check(Source::Touch, 10_999, false, &s), Err(Hold::TouchGap { until: 11_000 }));
        assert_eq!(p.check(Source::Touch, 11_000, false, &s), Ok(()));
        assert_eq!(p.check(Source::Cue, 11_000, false, &s), Err(Hold::Reading { until: PacingSettings::read_ms(500) }), "a touch turn uses no gap of hers");
    }
}
