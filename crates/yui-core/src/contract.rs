//! The transport contract, as the core uses it: the types the turn engine,
//! the client tools and the transports exchange are `yui-turn`'s
//! ([`yui_turn::contract`], re-exported here whole); the core adds the
//! channels one transport task runs on ([`Link`]) and the fitting of a
//! request's pictures into its budget ([`prefit`], [`urls`]), which need
//! tokio's channels and the fitter. `transport/CONTRACT.md` is the request
//! transports' side of it.

use crate::picture::{FitError, Picture};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

pub use crate::limits::REQUEST_IMAGE_BYTES;
pub use yui_turn::contract::*;

/// The channels one transport task runs on.
pub struct Link {
    /// What the engine asks for.
    pub outbound: mpsc::UnboundedReceiver<Outbound>,
    /// Where the transport reports.
    pub inbound: mpsc::UnboundedSender<Inbound>,
    /// Fires when the session ends.
    pub cancel: CancellationToken,
}

impl Link {
    /// Report one event; a closed session is not an error.
    pub fn report(&self, event: Inbound) {
        let _ = self.inbound.send(event);
    }

    /// Report a part of `turn_id`'s reply.
    pub fn reply(&self, turn_id: &str, part: ReplyPart) {
        self.report(Inbound::Reply { turn_id: turn_id.to_string(), part });
    }
}

/// Fit `pictures` into the request budget and keep them as encoded
/// pictures, so building the request later only base64-encodes them. CPU
/// work: run it on a blocking thread.
pub fn prefit(pictures: &[Picture]) -> Result<Vec<Picture>, FitError> {
    let urls = crate::picture::fit(pictures, REQUEST_IMAGE_BYTES)?;
    Ok(urls.iter().filter_map(|u| from_data_url(u)).collect())
}

/// A `data:image/<subtype>;base64,<data>` URL back into an encoded picture.
pub fn from_data_url(url: &str) -> Option<Picture> {
    use base64::Engine;
    let rest = url.strip_prefix("data:image/")?;
    let (mime, data) = rest.split_once(";base64,")?;
    let bytes = base64::engine::general_purpose::STANDARD.decode(data).ok()?;
    Some(Picture::Encoded { mime: mime.to_string(), bytes: std::sync::Arc::new(bytes) })
}

/// The data URLs of a request's pictures, fitted into the request budget
/// (a pass-through for pictures [`prefit`] already fitted). Pictures that
/// cannot fit are left out with a log line.
pub fn urls(pictures: &[Picture]) -> Vec<String> {
    if pictures.is_empty() {
        return Vec::new();
    }
    crate::picture::fit(pictures, REQUEST_IMAGE_BYTES).unwrap_or_else(|e| {
        tracing::warn!(record = "images_not_sent", count = pictures.len(), error = %e, "the pictures do not fit the request");
        Vec::new()
    })
}
