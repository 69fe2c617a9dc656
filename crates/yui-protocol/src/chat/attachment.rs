//! How an attachment is named in the transcript: its file name and size.

use super::model::Attachment;

/// "name · 3.2 kB": how a file shows on its message.
pub fn label(a: &Attachment) -> String {
    let len = a.data_base64.trim().len() as u64;
    let padding = a.data_base64.trim().bytes().rev().take_while(|b| *b == b'=').count() as u64;
    format!("{} · {}", a.name, size((len / 4 * 3).saturating_sub(padding)))
}

/// A byte count for people: "812 B", "3.2 kB", "2.0 MB".
pub fn size(bytes: u64) -> String {
    match bytes {
        b if b < 1000 => format!("{b} B"),
        b if b < 1_000_000 => format!("{:.1} kB", b as f64 / 1000.0),
        b => format!("{:.1} MB", b as f64 / 1_000_000.0),
    }
}
