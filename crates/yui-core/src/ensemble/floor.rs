//! [`Floor`]: one voice at a time on the desktop. A character takes the
//! floor when her reply starts to play and keeps it until nothing of hers
//! plays or waits to; another's reply waits meanwhile (its bubble too), and
//! takes the floor when it is free.

use std::sync::Mutex;
use tokio::sync::watch;

/// Who speaks now (a registry index), and a watch that says when that
/// changes. See the module doc.
#[derive(Debug)]
pub struct Floor {
    holder: Mutex<Option<usize>>,
    changed: watch::Sender<Option<usize>>,
}

impl Default for Floor {
    fn default() -> Self {
        Floor { holder: Mutex::new(None), changed: watch::channel(None).0 }
    }
}

impl Floor {
    /// Take the floor for `who`: true when it was free or already `who`'s.
    pub fn take(&self, who: usize) -> bool {
        let mut holder = self.holder.lock().unwrap_or_else(|p| p.into_inner());
        match *holder {
            Some(h) if h != who => false,
            Some(_) => true,
            None => {
                *holder = Some(who);
                self.changed.send_replace(Some(who));
                true
            }
        }
    }

    /// `who` is done speaking: the floor is free (nothing when it was not `who`'s).
    pub fn release(&self, who: usize) {
        let mut holder = self.holder.lock().unwrap_or_else(|p| p.into_inner());
        if *holder == Some(who) {
            *holder = None;
            self.changed.send_replace(None);
        }
    }

    /// Who holds the floor now.
    pub fn holder(&self) -> Option<usize> {
        *self.holder.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A watch of the holder: a waiting reply wakes when it changes.
    pub fn watch(&self) -> watch::Receiver<Option<usize>> {
        self.changed.subscribe()
    }
}
