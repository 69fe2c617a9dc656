//! The connection part: what leaves for the transport (and what waits
//! behind a turn whose screenshot is being taken), the connection status
//! and the activity the session publishes.

use crate::event::Status;
use crate::session::Activity;
use crate::transport::Outbound;
use crate::turn::Begin;
use std::collections::VecDeque;
use tokio::sync::{mpsc, watch};

/// What waits behind a turn whose screenshot is being taken, in order.
pub(in crate::session) enum HeldItem {
    /// A message for the transport.
    Out(Outbound),
    /// A turn to start.
    Begin(Begin),
}

/// The session's side of the transport: the outbound channel and its
/// queue held behind a screenshot, the transport's name and whether
/// pictures are fitted here, the status and activity watches, and how
/// many commands were applied.
pub(in crate::session) struct Link {
    outbound: mpsc::UnboundedSender<Outbound>,
    held: Option<VecDeque<HeldItem>>,
    name: &'static str,
    prefit: bool,
    status: watch::Sender<Status>,
    activity: watch::Sender<Activity>,
    applied: u64,
}

impl Link {
    /// A link sending on `outbound` to the transport `name`; `prefit` when
    /// pictures are fitted into the request budget before they leave (the
    /// request transports; push fits into its frame itself).
    pub fn new(
        outbound: mpsc::UnboundedSender<Outbound>,
        name: &'static str,
        prefit: bool,
        status: watch::Sender<Status>,
        activity: watch::Sender<Activity>,
    ) -> Self {
        Link { outbound, held: None, name, prefit, status, activity, applied: 0 }
    }

    /// The transport's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Whether pictures are fitted before they reach the transport.
    pub fn prefit(&self) -> bool {
        self.prefit
    }

    /// Whether the transport takes files (PDFs) as bytes.
    pub fn carries_files(&self) -> bool {
        self.name != "push"
    }

    /// Send now, whatever waits.
    pub fn send(&self, out: Outbound) {
        if self.outbound.send(out).is_err() {
            tracing::warn!(record = "transport_gone", "the transport task has ended; a message was dropped");
        }
    }

    /// Send now, or after the turn whose screenshot is being taken.
    pub fn send_in_order(&mut self, out: Outbound) {
        match &mut self.held {
            Some(held) => held.push_back(HeldItem::Out(out)),
            None => self.send(out),
        }
    }

    /// Queue a turn behind the one whose screenshot is being taken; the
    /// turn back when nothing waits (it starts now).
    pub fn hold_begin(&mut self, begin: Begin) -> Option<Begin> {
        match &mut self.held {
            Some(held) => {
                held.push_back(HeldItem::Begin(begin));
                None
            }
            None => Some(begin),
        }
    }

    /// A turn's screenshot is being taken: what is sent from now waits.
    pub fn hold(&mut self) {
        self.held = Some(VecDeque::new());
    }

    /// The screenshot came: what waited, in order; nothing waits now.
    pub fn release(&mut self) -> VecDeque<HeldItem> {
        self.held.take().unwrap_or_default()
    }

    /// When another turn began holding, put `rest` behind it; true when it
    /// did.
    pub fn hold_rest(&mut self, rest: &mut VecDeque<HeldItem>) -> bool {
        match &mut self.held {
            Some(h) => {
                h.extend(rest.drain(..));
                true
            }
            None => false,
        }
    }

    /// The transport's status; true when it changed.
    pub fn set_status(&self, status: &Status) -> bool {
        self.status.send_if_modified(|cur| {
            if cur == status {
                false
            } else {
                *cur = status.clone();
                true
            }
        })
    }

    /// The loop has ended.
    pub fn close(&self) {
        self.status.send_replace(Status::Closed);
    }

    /// One more command applied.
    pub fn applied(&mut self) {
        self.applied += 1;
    }

    /// Publish the activity, when it changed.
    pub fn publish(&self, busy: bool, speaking: bool) {
        let applied = self.applied;
        self.activity.send_if_modified(|a| {
            let next = Activity { busy, speaking, applied };
            if *a == next {
                false
            } else {
                *a = next;
                true
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link() -> (Link, mpsc::UnboundedReceiver<Outbound>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let (status, _) = watch::channel(Status::Connecting { attempt: 0 });
        let (activity, _) = watch::channel(Activity::default());
        (Link::new(tx, "push", false, status, activity), rx)
    }

    fn stop(id: &str) -> Outbound {
        Outbound::Abandon { turn_id: id.into() }
    }

    #[test]
    fn what_is_sent_while_a_screenshot_is_taken_waits_in_order() {
        let (mut link, mut rx) = link();
        link.send_in_order(stop("a"));
        assert!(matches!(rx.try_recv(), Ok(Outbound::Abandon { turn_id }) if turn_id == "a"));
        link.hold();
        link.send_in_order(stop("b"));
        link.send_in_order(stop("c"));
        assert!(rx.try_recv().is_err(), "held behind the screenshot");
        let held = link.release();
        let ids: Vec<String> = held
            .into_iter()
            .map(|h| match h {
                HeldItem::Out(Outbound::Abandon { turn_id }) => turn_id,
                _ => panic!("only the messages sent"),
            })
            .collect();
        assert_eq!(ids, ["b", "c"]);
        link.send_in_order(stop("d"));
        assert!(matches!(rx.try_recv(), Ok(Outbound::Abandon { turn_id }) if turn_id == "d"), "nothing waits after the release");
    }

    #[test]
    fn the_status_changes_once_per_new_value() {
        let (link, _rx) = link();
        assert!(link.set_status(&Status::Handshaking));
        assert!(!link.set_status(&Status::Handshaking));
        assert!(!link.carries_files(), "push takes no file bytes");
    }
}
