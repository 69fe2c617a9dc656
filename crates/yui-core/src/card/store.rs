//! The imported card of each character, kept in the data directory at
//! `cards/<key>.json` as a Tavern Card V2, where `<key>` is the character
//! file's sanitized stem (`default` for the bundled character).

use super::{default_card, import_bytes, tavern, Card, CardError};
use crate::data_dir::DataDir;
use crate::error::CoreError;
use std::path::{Path, PathBuf};

const DIR: &str = "cards";

/// Where one character's card lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardStore {
    path: PathBuf,
}

/// The stored form: a Tavern Card V2 wrapper, readable by other tools.
#[derive(serde::Serialize)]
struct V2<'a> {
    spec: &'static str,
    spec_version: &'static str,
    data: &'a Card,
}

impl CardStore {
    /// The store of the character set as `character` (a file path; empty for
    /// the bundled default) in `data_dir`.
    pub fn new(data_dir: &DataDir, character: &str) -> Self {
        Self { path: data_dir.root().join(DIR).join(format!("{}.json", crate::data_dir::character_key(character))) }
    }

    /// The file the card is kept in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The stored card; `None` when there is none, or when the file cannot
    /// be read or holds no usable card (logged).
    pub fn load(&self) -> Option<Card> {
        let bytes = match std::fs::read(&self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => {
                tracing::warn!(record = "card_unreadable", path = %self.path.display(), error = %e);
                return None;
            }
        };
        match tavern::parse_json(&bytes) {
            Ok(card) => Some(card),
            Err(e) => {
                tracing::warn!(record = "card_unreadable", path = %self.path.display(), error = %e);
                None
            }
        }
    }

    /// Store `card`, replacing the last one: written to a temporary file
    /// first and then renamed, so a failed write leaves the old card whole.
    pub fn save(&self, card: &Card) -> Result<(), CoreError> {
        self.write(card).map_err(|source| CoreError::Storage { path: self.path.clone(), source })
    }

    /// Forget the stored card, so the default persona applies again.
    pub fn clear(&self) -> Result<(), CoreError> {
        match std::fs::remove_file(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(CoreError::Storage { path: self.path.clone(), source: e }),
            _ => Ok(()),
        }
    }

    fn write(&self, card: &Card) -> std::io::Result<()> {
        let json = serde_json::to_vec_pretty(&V2 { spec: "chara_card_v2", spec_version: "2.0", data: card }).map_err(std::io::Error::other)?;
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let tmp = self.path.with_extension("json.tmp");
        std::fs::write(&tmp, json)?;
        std::fs::rename(&tmp, &self.path).inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
    }
}

/// Read the card in `bytes` (see [`import_bytes`]) and, only when it reads,
/// store it in `store`. A file that does not read changes nothing.
pub fn import_into(store: &CardStore, file_name: &str, bytes: &[u8]) -> Result<Card, CardError> {
    let card = import_bytes(file_name, bytes)?;
    store.write(&card).map_err(|source| CardError::Storage { path: store.path.clone(), source })?;
    tracing::info!(record = "card_imported", name = %card.name, path = %store.path.display());
    Ok(card)
}

/// The character's card: the stored one, or the default persona in the UI
/// language `lang` when none is stored or it is unusable.
pub fn current(store: &CardStore, lang: &str) -> Card {
    store.load().unwrap_or_else(|| default_card(lang))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::data_dir::character_key as file_key;

    #[test]
    fn keys_are_sanitized_stems() {
        assert_eq!(file_key(""), "default");
        assert_eq!(file_key("/data/characters/mio.vrm"), "mio");
        assert_eq!(file_key("/x/ユイ.vrm"), file_key("/y/ユイ.vrm"));
        assert!(file_key("/x/ユイ.vrm").starts_with("character-"));
        assert_ne!(file_key("/x/ユイ.vrm"), file_key("/x/ミオ.vrm"));
        assert_eq!(file_key("../../etc/pa ss.wd"), "pass");
    }

    #[test]
    fn saves_round_trip_and_a_damaged_file_reads_as_none() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::new(tmp.path()).unwrap();
        let store = CardStore::new(&dir, "");
        assert_eq!(store.path(), tmp.path().join("cards").join("default.json"));
        assert_eq!(store.load(), None);
        assert_eq!(current(&store, "ja"), default_card("ja"));
        let card = Card { name: "Mio".into(), tags: vec!["a".into()], ..Card::default() };
        store.save(&card).unwrap();
        assert_eq!(store.load().as_ref(), Some(&card));
        assert_eq!(current(&store, "ja"), card);
        assert!(!store.path().with_extension("json.tmp").exists());
        assert_eq!(CardStore::new(&dir, "/x/other.vrm").load(), None, "another character, another card");
        std::fs::write(store.path(), "{oops").unwrap();
        assert_eq!(store.load(), None);
        assert_eq!(current(&store, "en"), default_card("en"));
        store.clear().unwrap();
        store.clear().unwrap();
        assert!(!store.path().exists());
    }
}
