//! The per-installation ingress token: 32 random lowercase hex characters,
//! made once and kept in `<data>/ingress_token` (mode 0600 on Unix). The
//! settings window shows it; with "require token" on, a request must carry
//! `Authorization: Bearer <token>`.

use crate::data_dir::DataDir;
use crate::error::CoreError;

/// The token file's name in the data directory.
pub const TOKEN_FILE: &str = "ingress_token";
/// Hex characters in a token (128 random bits).
pub const TOKEN_HEX_CHARS: usize = 32;

/// The installation's token: read from the data directory, or made and
/// stored there the first time. A damaged file is replaced by a new token
/// (logged without either value).
pub fn load_or_create(data_dir: &DataDir) -> Result<String, CoreError> {
    let path = data_dir.root().join(TOKEN_FILE);
    match std::fs::read_to_string(&path) {
        Ok(s) if is_token(s.trim()) => return Ok(s.trim().to_string()),
        Ok(_) => tracing::warn!(record = "ingress_token_invalid", "the ingress token file is damaged; making a new token"),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(source) => return Err(CoreError::Storage { path, source }),
    }
    let token = new_token();
    crate::keystore::write_private(&path, token.as_bytes())?;
    tracing::info!(record = "ingress_token_created");
    Ok(token)
}

/// A fresh random token.
pub fn new_token() -> String {
    let bytes: [u8; TOKEN_HEX_CHARS / 2] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// True for exactly 32 lowercase hex characters.
pub fn is_token(s: &str) -> bool {
    s.len() == TOKEN_HEX_CHARS && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_once_kept_private_and_repaired() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::new(tmp.path()).unwrap();
        let a = load_or_create(&dir).unwrap();
        assert!(is_token(&a), "{a}");
        assert_eq!(load_or_create(&dir).unwrap(), a);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(tmp.path().join(TOKEN_FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "mode {mode:o}");
        }
        std::fs::write(tmp.path().join(TOKEN_FILE), "nope").unwrap();
        let b = load_or_create(&dir).unwrap();
        assert!(is_token(&b) && b != a);
        assert_ne!(new_token(), new_token());
    }
}
