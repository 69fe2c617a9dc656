//! The data directory: `chat_id`, settings and every persisted file live here,
//! so a test can isolate a whole installation in a temp dir.
//!
//! Above the settings and the key store in the module order
//! (`docs/architecture.md`): it loads and saves them; they name it not.

use crate::error::CoreError;
use crate::keystore::{KeyHome, KeyPlace, KeyStore};
use crate::settings::Settings;
use std::path::{Path, PathBuf};

const CHAT_ID_FILE: &str = "chat_id";
const SETTINGS_FILE: &str = "settings.json";

/// One installation's data directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataDir {
    root: PathBuf,
    keychain: bool,
}

impl DataDir {
    /// Use (and create) `root` as the data directory.
    pub fn new(root: impl Into<PathBuf>) -> Result<Self, CoreError> {
        let root = root.into();
        std::fs::create_dir_all(&root).map_err(|source| CoreError::Storage { path: root.clone(), source })?;
        Ok(Self { root, keychain: true })
    }

    /// The same directory with the OS keychain left alone: the key is kept
    /// only in the 0600 file (tests, and machines without a keychain).
    pub fn without_keychain(mut self) -> Self {
        self.keychain = false;
        self
    }

    /// True when the key may go to the OS keychain (see [`KeyStore`]).
    pub fn uses_keychain(&self) -> bool {
        self.keychain
    }

    /// The store that keeps this installation's chat API key.
    pub fn key_store(&self) -> KeyStore {
        KeyStore::new(self)
    }

    /// The platform's per-user data directory for YUI (the `directories` crate).
    pub fn platform_default() -> Result<Self, CoreError> {
        let dirs = directories::ProjectDirs::from("dev", "yui", "yui")
            .ok_or(CoreError::Settings { field: "data_dir", reason: "no home directory to put the data directory in".into() })?;
        Self::new(dirs.data_dir())
    }

    /// The directory itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The data directory of the character named `name` when several are
    /// open (`docs/characters.md`): `characters/<key>/` under this one
    /// ([`preset_key`]), holding its chat id, conversations, transcript,
    /// relations and previous-turn record, with its key under a keychain
    /// entry of its own. The character this directory held before there
    /// were several, the one named `first` (its card's name), keeps the
    /// directory itself: nothing of a one-character installation moves.
    pub fn character_dir(&self, name: &str, first: &str) -> Result<DataDir, CoreError> {
        if crate::cast::same_name(name, first) {
            return Ok(self.clone());
        }
        Ok(Self { keychain: self.keychain, ..Self::new(self.root.join("characters").join(preset_key(name)))? })
    }

    /// Where daily log files go.
    pub fn log_dir(&self) -> PathBuf {
        self.root.join("logs")
    }

    /// The installation's chat id, `yui-<8 hex>`: read from the data
    /// directory, or generated once and stored there. A damaged file is
    /// replaced with a fresh id and a warning.
    pub fn chat_id(&self) -> Result<String, CoreError> {
        let path = self.root.join(CHAT_ID_FILE);
        match std::fs::read_to_string(&path) {
            Ok(s) if is_chat_id(s.trim()) => return Ok(s.trim().to_string()),
            Ok(s) => tracing::warn!(record = "chat_id_invalid", found = %s.trim(), "chat_id file damaged; generating a new one"),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => return Err(CoreError::Storage { path, source }),
        }
        let id = new_chat_id();
        write_atomic(&path, id.as_bytes())?;
        Ok(id)
    }

    /// Load the settings with their key: `settings.json` (defaults when
    /// the file does not exist), and the key from the [`KeyStore`]. A key
    /// still written in an old `settings.json` wins, and moves to the store
    /// on the next save. Blocking: it may ask the OS keychain.
    pub fn load_settings(&self) -> Result<Settings, CoreError> {
        let mut settings = self.read_settings_file()?;
        if settings.character.key.is_empty() {
            settings.character.key = self.key_store().load()?.unwrap_or_default().into();
        }
        Ok(settings)
    }

    /// Load the settings without looking the key up (it is left empty): for
    /// callers that need no key and must not wait on the keychain.
    pub fn load_settings_without_key(&self) -> Result<Settings, CoreError> {
        let mut settings = self.read_settings_file()?;
        settings.character.key.clear();
        Ok(settings)
    }

    /// Save the settings: the key through the [`KeyStore`] (an empty key
    /// deletes it), everything else to `settings.json` atomically, with an
    /// empty `key`. Answers where the key is kept. Blocking: it may ask the
    /// OS keychain.
    pub fn save_settings(&self, settings: &Settings) -> Result<KeyPlace, CoreError> {
        let place = self.key_store().save(settings.character.key.expose())?;
        let path = self.root.join(SETTINGS_FILE);
        let mut stored = settings.clone();
        stored.character.key.clear();
        let json = serde_json::to_vec_pretty(&stored).expect("settings serialize");
        write_atomic(&path, &json)?;
        Ok(place)
    }

    fn read_settings_file(&self) -> Result<Settings, CoreError> {
        let path = self.root.join(SETTINGS_FILE);
        match std::fs::read_to_string(&path) {
            Ok(raw) => serde_json::from_str(&raw).map_err(|source| CoreError::Parse { path, raw, source }),
            // A first start: the UI speaks the OS's language when it can.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Settings::first_start(crate::settings::os_locale().as_deref())),
            Err(source) => Err(CoreError::Storage { path, source }),
        }
    }
}

impl KeyHome for DataDir {
    fn root(&self) -> &Path {
        &self.root
    }

    fn uses_keychain(&self) -> bool {
        self.keychain
    }
}

/// The file key of a character setting (a `.vrm` path, empty for the
/// bundled default). Per-character files (previous turn, transcript, card)
/// are named by it: the file stem kept to ASCII letters, digits, `-` and `_`
/// (at most 64); `default` when the stem is empty. A stem with none of those
/// characters (`ユイ.vrm`) gets `character-` and a hash of the stem, so it
/// does not share the default character's files.
pub fn character_key(character: &str) -> String {
    let stem = Path::new(character).file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
    let key: String = stem.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').take(64).collect();
    match (key.is_empty(), stem.is_empty()) {
        (false, _) => key,
        (true, true) => "default".to_string(),
        (true, false) => format!("character-{:08x}", fnv1a(stem.as_bytes())),
    }
}

/// The folder name of a character's files (see [`DataDir::character_dir`]):
/// the name lowercased (names are compared without case), kept to ASCII
/// letters, digits, `-` and `_` (at most 48, others become `_`); when that
/// changed the name, a hash of the lowercased name follows, so `Ann Marie`
/// and `Ann_Marie`, or two names in another script, never share a folder.
pub fn preset_key(name: &str) -> String {
    let lower = name.trim().to_lowercase();
    let kept: String = lower.chars().take(48).map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    if kept == lower && !kept.is_empty() {
        kept
    } else {
        format!("{kept}-{:08x}", fnv1a(lower.as_bytes()))
    }
}

/// Write `bytes` to `path` whole or not at all: the folder is made when
/// missing, the bytes go to a sibling temporary file that then replaces
/// `path`, so a crash mid-write never leaves half a record.
pub fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// 32-bit FNV-1a: a stable hash, the same in every build.
fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| (h ^ b as u32).wrapping_mul(0x0100_0193))
}

fn new_chat_id() -> String {
    format!("yui-{:08x}", rand::random::<u32>())
}

/// True for `yui-` followed by exactly 8 lowercase hex digits.
pub fn is_chat_id(s: &str) -> bool {
    s.len() == 12 && s.starts_with("yui-") && s[4..].bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), CoreError> {
    let tmp = path.with_extension("tmp");
    let err = |source| CoreError::Storage { path: path.to_path_buf(), source };
    std::fs::write(&tmp, bytes).map_err(err)?;
    std::fs::rename(&tmp, path).map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_character_has_a_folder_and_the_first_keeps_the_root() {
        let tmp = tempfile::tempdir().unwrap();
        let root = DataDir::new(tmp.path()).unwrap().without_keychain();
        assert_eq!(root.character_dir("yui", "Yui").unwrap(), root, "the card's character keeps the directory");
        let ann = root.character_dir("Ann", "Yui").unwrap();
        assert_eq!(ann.root(), tmp.path().join("characters/ann"));
        assert!(!ann.uses_keychain());
        assert_eq!(root.character_dir("ANN", "Yui").unwrap(), ann, "names are compared without case");
        assert_ne!(ann.chat_id().unwrap(), root.chat_id().unwrap());
        assert_eq!(ann.chat_id().unwrap(), root.character_dir("Ann", "Yui").unwrap().chat_id().unwrap(), "stable");
        assert_eq!(preset_key("Ann Marie"), format!("ann_marie-{:08x}", fnv1a(b"ann marie")));
        assert_ne!(preset_key("Ann Marie"), preset_key("Ann_Marie"));
        assert!(preset_key("ユイ").starts_with("__-"));
    }

    #[test]
    fn chat_id_is_generated_once_and_reused() {
        let tmp = tempfile::tempdir().unwrap();
        let a = DataDir::new(tmp.path()).unwrap().chat_id().unwrap();
        let b = DataDir::new(tmp.path()).unwrap().chat_id().unwrap();
        assert!(is_chat_id(&a), "{a}");
        assert_eq!(a, b);
        let other = tempfile::tempdir().unwrap();
        assert_ne!(a, DataDir::new(other.path()).unwrap().chat_id().unwrap());
    }

    #[test]
    fn damaged_chat_id_is_replaced() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("chat_id"), "garbage\n").unwrap();
        let id = DataDir::new(tmp.path()).unwrap().chat_id().unwrap();
        assert!(is_chat_id(&id));
        assert_eq!(std::fs::read_to_string(tmp.path().join("chat_id")).unwrap(), id);
    }

    #[test]
    fn settings_round_trip_and_bad_json_keeps_raw() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::new(tmp.path()).unwrap().without_keychain();
        assert_eq!(dir.load_settings().unwrap(), Settings::default());
        let s = Settings::from(crate::settings::CharacterSettings { chat_base_url: "http://h:1".into(), key: "k".into(), ..Default::default() });
        dir.save_settings(&s).unwrap();
        assert_eq!(dir.load_settings().unwrap(), s);
        std::fs::write(tmp.path().join("settings.json"), "{oops").unwrap();
        match dir.load_settings() {
            Err(CoreError::Parse { raw, .. }) => assert_eq!(raw, "{oops"),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    fn settings_json(tmp: &tempfile::TempDir) -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("settings.json")).unwrap()).unwrap()
    }

    #[test]
    fn the_key_never_lands_in_settings_json() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::new(tmp.path()).unwrap().without_keychain();
        let s = Settings::from(crate::settings::CharacterSettings { chat_base_url: "http://h:1".into(), key: "sk-secret".into(), ..Default::default() });
        assert_eq!(dir.save_settings(&s).unwrap(), KeyPlace::File);
        assert_eq!(settings_json(&tmp)["key"], "");
        assert!(!std::fs::read_to_string(tmp.path().join("settings.json")).unwrap().contains("sk-secret"));
        assert_eq!(dir.load_settings().unwrap(), s);
        assert_eq!(dir.load_settings_without_key().unwrap().character.key, "");
    }

    #[test]
    fn an_old_key_in_settings_json_loads_and_moves_on_save() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("settings.json"), r#"{"chat_base_url":"http://h:1","key":"k"}"#).unwrap();
        let dir = DataDir::new(tmp.path()).unwrap().without_keychain();
        let s = dir.load_settings().unwrap();
        assert_eq!(s.character.key, "k", "the old file's key is used");
        dir.save_settings(&s).unwrap();
        assert_eq!(settings_json(&tmp)["key"], "", "moved out of settings.json");
        assert_eq!(std::fs::read_to_string(tmp.path().join("key")).unwrap(), "k");
        assert_eq!(dir.load_settings().unwrap().character.key, "k");
    }

    #[test]
    fn an_empty_key_deletes_the_stored_one() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::new(tmp.path()).unwrap().without_keychain();
        dir.save_settings(&Settings::from(crate::settings::CharacterSettings { key: "k".into(), ..Default::default() })).unwrap();
        assert!(tmp.path().join("key").exists());
        dir.save_settings(&Settings::default()).unwrap();
        assert!(!tmp.path().join("key").exists());
        assert_eq!(dir.load_settings().unwrap().character.key, "");
    }
}
