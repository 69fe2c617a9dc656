//! Files sent with a chat message (`docs/transports.md`, "`agent_chat`"): checked
//! against the limits before anything is sent, then split by kind.
//!
//! - Images (`image/*`, or bytes that are a PNG, JPEG, GIF or WebP) become
//!   [`Picture`]s: they ride with the turn like the screenshot and are
//!   fitted by the transport's fitter.
//! - PDFs (`application/pdf`, or bytes starting `%PDF`) go as bytes on the
//!   transports that carry files (Responses, Chat Completions, agent_chat);
//!   on push the message is refused with a clear line.
//! - Anything else that is UTF-8 text is clipped to
//!   [`CHAT_TEXT_ATTACHMENT_BYTES`] and folded into the prompt after the
//!   message, each file in a `<file name="…">` block (`agent_chat` takes
//!   them as `{name, text}` attachments instead, [`Prepared::texts`]).
//!   Other bytes are refused.
//!
//! Over a limit (more files than `max_attachments`, a file over
//! `max_attachment_bytes`) the whole message is refused with a line that
//! names the file and the limit, and nothing is sent. Only the text and the
//! file names are kept in the conversation; the bytes are the turn's alone.

use super::model::Attachment;
use crate::limits::CHAT_TEXT_ATTACHMENT_BYTES;
use crate::picture::{Picture, PictureExt};
use crate::settings::ChatSettings;
use base64::Engine as _;
pub use yui_protocol::chat::attachment::{label, size};
pub use yui_turn::contract::FileBytes;

/// What a message's files became.
#[derive(Debug, Clone, Default)]
pub struct Prepared {
    /// Text files, clipped and wrapped, to append to the message ("" when none).
    pub folded: String,
    /// Images, for the turn's pictures.
    pub pictures: Vec<Picture>,
    /// PDFs, for the transports that carry files.
    pub files: Vec<FileBytes>,
    /// The same text files as `folded`, each clipped, as `text/plain`
    /// bytes: `agent_chat` sends them as `{name, text}` attachments instead
    /// of folding them into the prompt.
    pub texts: Vec<FileBytes>,
}

/// Why a message's files were refused: its text is one line for a person,
/// naming the file and the limit. Nothing of the message is sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AttachError {
    /// More files than `max_attachments`.
    #[error("At most {max} files per message; this one has {got}. Nothing was sent.")]
    TooMany {
        /// The limit.
        max: usize,
        /// How many the message has.
        got: usize,
    },
    /// The file's bytes did not decode.
    #[error("{name} could not be read. Nothing was sent.")]
    Unreadable {
        /// The file's name.
        name: String,
    },
    /// Over `max_attachment_bytes`.
    #[error("{name} is {size}; the limit is {limit} per file. Nothing was sent.")]
    TooLarge {
        /// The file's name.
        name: String,
        /// Its size, for people ("3.2 MB").
        size: String,
        /// The limit, for people.
        limit: String,
    },
    /// Looks like a picture and is not one the client reads.
    #[error("{name} is not a picture I can read ({why}). Nothing was sent.")]
    NotAPicture {
        /// The file's name.
        name: String,
        /// The decoder's reason.
        why: String,
    },
    /// A PDF for a transport that takes none.
    #[error("This backend takes pictures and text files, not PDFs: {name} was not sent.")]
    NoPdfs {
        /// The file's name.
        name: String,
    },
    /// Neither text, a picture nor a PDF.
    #[error("{name} is neither text, a picture nor a PDF. Nothing was sent.")]
    UnknownKind {
        /// The file's name.
        name: String,
    },
}

/// Check `attachments` against `limits` and split them by kind.
/// `carries_files`: the transport takes PDFs as bytes.
pub fn prepare(attachments: &[Attachment], limits: &ChatSettings, carries_files: bool) -> Result<Prepared, AttachError> {
    let max_files = limits.max_attachments as usize;
    if attachments.len() > max_files {
        return Err(AttachError::TooMany { max: max_files, got: attachments.len() });
    }
    let mut out = Prepared::default();
    for a in attachments {
        let name = || a.name.clone();
        let bytes = base64::engine::general_purpose::STANDARD.decode(a.data_base64.trim()).map_err(|_| AttachError::Unreadable { name: name() })?;
        if bytes.len() as u64 > limits.max_attachment_bytes {
            return Err(AttachError::TooLarge { name: name(), size: size(bytes.len() as u64), limit: size(limits.max_attachment_bytes) });
        }
        if a.mime.starts_with("image/") || crate::picture::sniff(&bytes).is_some() {
            let picture = Picture::from_file_bytes(bytes).map_err(|e| AttachError::NotAPicture { name: name(), why: e.to_string() })?;
            out.pictures.push(picture);
        } else if a.mime == "application/pdf" || bytes.starts_with(b"%PDF") {
            if !carries_files {
                return Err(AttachError::NoPdfs { name: name() });
            }
            out.files.push(FileBytes { name: a.name.clone(), mime: "application/pdf".into(), data_base64: a.data_base64.trim().to_string() });
        } else {
            let text = std::str::from_utf8(&bytes).map_err(|_| AttachError::UnknownKind { name: name() })?;
            let (clipped, cut) = clip(text, CHAT_TEXT_ATTACHMENT_BYTES);
            let note = if cut { " clipped=\"100 kB\"" } else { "" };
            out.folded.push_str(&format!("\n\n<file name=\"{}\"{note}>\n{clipped}\n</file>", a.name.replace('"', "'")));
            let data_base64 = base64::engine::general_purpose::STANDARD.encode(clipped.as_bytes());
            out.texts.push(FileBytes { name: a.name.clone(), mime: "text/plain".into(), data_base64 });
        }
    }
    Ok(out)
}

/// `text` cut to at most `max` bytes on a character boundary; true when cut.
fn clip(text: &str, max: usize) -> (&str, bool) {
    if text.len() <= max {
        return (text, false);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (&text[..end], true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, mime: &str, bytes: &[u8]) -> Attachment {
        Attachment { name: name.into(), mime: mime.into(), data_base64: base64::engine::general_purpose::STANDARD.encode(bytes) }
    }

    fn png() -> Vec<u8> {
        let p = Picture::from_rgba(2, 2, vec![255; 16]).unwrap();
        let url = &crate::picture::fit(&[p], crate::limits::REQUEST_IMAGE_BYTES).unwrap()[0];
        let data = url.split_once(";base64,").unwrap().1;
        base64::engine::general_purpose::STANDARD.decode(data).unwrap()
    }

    #[test]
    fn each_kind_goes_its_way() {
        let atts = [file("a.png", "image/png", &png()), file("n.txt", "text/plain", b"hello"), file("d.pdf", "application/pdf", b"%PDF-1.4 x")];
        let p = prepare(&atts, &ChatSettings::default(), true).unwrap();
        assert_eq!(p.pictures.len(), 1);
        assert_eq!(p.files.len(), 1);
        assert_eq!(p.folded, "\n\n<file name=\"n.txt\">\nhello\n</file>");
        assert_eq!(p.texts, [FileBytes { name: "n.txt".into(), mime: "text/plain".into(), data_base64: "aGVsbG8=".into() }]);
        assert!(p.files[0].data_url().starts_with("data:application/pdf;base64,"));
    }

    #[test]
    fn limits_refuse_the_whole_message_with_a_clear_line() {
        let limits = ChatSettings { max_attachments: 1, max_attachment_bytes: 4, ..ChatSettings::default() };
        let two = [file("a.txt", "", b"a"), file("b.txt", "", b"b")];
        assert_eq!(prepare(&two, &limits, true).unwrap_err().to_string(), "At most 1 files per message; this one has 2. Nothing was sent.");
        let big = [file("big.txt", "text/plain", b"12345")];
        assert_eq!(prepare(&big, &limits, true).unwrap_err().to_string(), "big.txt is 5 B; the limit is 4 B per file. Nothing was sent.");
        let pdf = [file("d.pdf", "application/pdf", b"%PDF")];
        assert!(prepare(&pdf, &ChatSettings::default(), false).unwrap_err().to_string().contains("not PDFs: d.pdf"));
        let binary = [file("x.bin", "", &[0xff, 0xfe, 0x00])];
        assert!(prepare(&binary, &ChatSettings::default(), true).unwrap_err().to_string().starts_with("x.bin is neither text"));
        let broken = [Attachment { name: "b.txt".into(), mime: String::new(), data_base64: "***".into() }];
        assert!(prepare(&broken, &ChatSettings::default(), true).unwrap_err().to_string().starts_with("b.txt could not be read"));
    }

    #[test]
    fn text_is_clipped_to_100_kb_on_a_character_boundary() {
        let long = "é".repeat(60_000); // 120,000 bytes
        let p = prepare(&[file("long.txt", "text/plain", long.as_bytes())], &ChatSettings::default(), true).unwrap();
        assert!(p.folded.contains("clipped=\"100 kB\""));
        let body = p.folded.split('\n').nth(3).unwrap();
        assert_eq!(body.len(), 100_000);
    }

    #[test]
    fn labels_show_the_size() {
        assert_eq!(label(&file("n.txt", "", &[b'x'; 3200])), "n.txt · 3.2 kB");
        assert_eq!(label(&file("a", "", b"ab")), "a · 2 B");
        assert_eq!(size(2 * 1024 * 1024), "2.1 MB");
    }
}
