//! What the two audio HTTP clients (`tts.rs`, `stt.rs`) share: the client
//! with its connect timeout, a body read up to a cap, and the one-line
//! snippet of an error body their `Display` shows.

use futures_util::StreamExt;
use std::time::Duration;

/// A client with a connect timeout and no overall timeout (each request
/// brings its own wait).
pub(crate) fn client(connect_timeout: Duration) -> reqwest::Client {
    reqwest::Client::builder().connect_timeout(connect_timeout).build().unwrap_or_else(|_| reqwest::Client::new())
}

/// Read at most `cap` bytes of `resp`. `truncate`: stop quietly at the cap
/// (an error body); otherwise going past it is an error with no message.
/// A broken stream is an error with its message. Errors carry what was read.
pub(crate) async fn read_capped(resp: reqwest::Response, cap: usize, truncate: bool) -> Result<Vec<u8>, (Vec<u8>, Option<String>)> {
    let mut bytes: Vec<u8> = Vec::new();
    let mut chunks = resp.bytes_stream();
    while let Some(chunk) = chunks.next().await {
        let chunk = match chunk {
            Ok(c) => c,
            Err(e) => return Err((bytes, Some(yui_protocol::error_chain(&e.without_url())))),
        };
        let room = cap.saturating_sub(bytes.len());
        if chunk.len() > room {
            if !truncate {
                return Err((bytes, None));
            }
            bytes.extend_from_slice(&chunk[..room]);
            break;
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// The first 200 characters of `body`, on one line (for `Display` only; the
/// error keeps the whole body).
pub(crate) fn snippet(body: &str) -> String {
    let line = body.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line,
    }
}
