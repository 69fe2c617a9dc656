//! Where the chat API key is kept: the OS keychain when there is one
//! (Secret Service on Linux, Keychain on macOS, Credential Manager on
//! Windows, through the `keyring` crate), else a file only the user can read
//! (`<data>/key`, mode 0600 on Unix, written atomically).
//!
//! Every call here may block (the keychain answers over D-Bus or a system
//! API): async callers wrap them in `tokio::task::spawn_blocking`. The key is
//! never logged; errors name the place, never the value.

use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use ts_rs::TS;

/// The file the key goes to when no keychain is available.
const KEY_FILE: &str = "key";
/// The keychain service name of every YUI entry.
const SERVICE: &str = "dev.yui.yui";

/// Where the key is (or would be) stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum KeyPlace {
    /// The OS keychain.
    Keychain,
    /// `<data>/key`, readable only by the user.
    File,
}

/// The key's file could not be read or written (the message is the core's
/// storage error's: `storage error at <path>: <cause>`; `yui-core` turns
/// it into `KeyFileError::Storage`).
#[derive(Debug, thiserror::Error)]
#[error("storage error at {path}: {source}")]
pub struct KeyFileError {
    /// The file involved.
    pub path: PathBuf,
    /// The underlying I/O error.
    #[source]
    pub source: std::io::Error,
}

/// Where a [`KeyStore`] lives: a directory for the fallback file, and
/// whether the OS keychain may be asked. The data directory
/// (`yui_core::data_dir::DataDir`) is one; this module names no module above
/// it (`docs/architecture.md`, "Modules and their order").
pub trait KeyHome {
    /// The directory the fallback file `key` goes in.
    fn root(&self) -> &Path;
    /// True when the key may go to the OS keychain.
    fn uses_keychain(&self) -> bool;
}

/// Why a [`Keychain`] did not answer: one line, never the secret. Either
/// way the key store falls back to its 0600 file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeychainError {
    /// No keychain can be reached here (no Secret Service or session bus,
    /// no access to the platform's store).
    #[error("no keychain here: {0}")]
    Unavailable(String),
    /// The keychain answered and refused or failed.
    #[error("the keychain failed: {0}")]
    Failed(String),
}

/// A keychain holding one secret: the seam that lets tests stand in for the
/// OS keychain.
pub trait Keychain: Send + Sync {
    /// The stored secret; `None` when there is no entry. Blocking.
    fn get(&self) -> Result<Option<String>, KeychainError>;
    /// Store `secret`, replacing the last one. Blocking.
    fn set(&self, secret: &str) -> Result<(), KeychainError>;
    /// Remove the entry; no entry is not an error. Blocking.
    fn delete(&self) -> Result<(), KeychainError>;
}

/// The `keyring` crate's error as a [`KeychainError`].
fn keychain_error(e: keyring::Error) -> KeychainError {
    match e {
        keyring::Error::NoStorageAccess(_) | keyring::Error::PlatformFailure(_) | keyring::Error::NoDefaultStore => KeychainError::Unavailable(e.to_string()),
        e => KeychainError::Failed(e.to_string()),
    }
}

/// The OS keychain through the `keyring` crate: one entry per data
/// directory (service `dev.yui.yui`, user `chat-key <data dir>`), so two
/// installations never share a key.
struct OsKeychain {
    user: String,
}

impl OsKeychain {
    fn entry(&self) -> Result<keyring::Entry, KeychainError> {
        keyring::Entry::new(SERVICE, &self.user).map_err(keychain_error)
    }
}

impl Keychain for OsKeychain {
    fn get(&self) -> Result<Option<String>, KeychainError> {
        match self.entry()?.get_password() {
            Ok(secret) => Ok(Some(secret)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(keychain_error(e)),
        }
    }

    fn set(&self, secret: &str) -> Result<(), KeychainError> {
        self.entry()?.set_password(secret).map_err(keychain_error)
    }

    fn delete(&self) -> Result<(), KeychainError> {
        match self.entry()?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(keychain_error(e)),
        }
    }
}

/// The key store of one data directory: the keychain first, the 0600 file
/// when the keychain is missing or fails.
#[derive(Clone)]
pub struct KeyStore {
    file: PathBuf,
    keychain: Option<Arc<dyn Keychain>>,
}

impl std::fmt::Debug for KeyStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyStore").field("file", &self.file).field("keychain", &self.keychain.is_some()).finish()
    }
}

impl KeyStore {
    /// The store of `data_dir`: the OS keychain, unless the data directory
    /// was opened `DataDir::without_keychain` ([`KeyHome::uses_keychain`]
    /// false), then the file only.
    pub fn new(data_dir: &(impl KeyHome + ?Sized)) -> Self {
        let keychain: Option<Arc<dyn Keychain>> =
            if data_dir.uses_keychain() { Some(Arc::new(OsKeychain { user: format!("chat-key {}", data_dir.root().display()) })) } else { None };
        Self::with_keychain(data_dir, keychain)
    }

    /// The store of `data_dir` with the given keychain (`None`: the file only).
    pub fn with_keychain(data_dir: &(impl KeyHome + ?Sized), keychain: Option<Arc<dyn Keychain>>) -> Self {
        Self { file: data_dir.root().join(KEY_FILE), keychain }
    }

    /// The fallback file, `<data>/key`.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// The stored key: the keychain's, else the file's; `None` when neither
    /// holds one. A keychain that fails is logged and skipped. Blocking.
    pub fn load(&self) -> Result<Option<String>, KeyFileError> {
        if let Some(chain) = &self.keychain {
            match chain.get() {
                Ok(Some(key)) if !key.is_empty() => return Ok(Some(key)),
                Ok(_) => {}
                Err(e) => tracing::debug!(record = "keychain_unavailable", error = %e),
            }
        }
        match std::fs::read_to_string(&self.file) {
            Ok(s) => {
                let key = s.trim_end_matches(['\r', '\n']).to_string();
                Ok((!key.is_empty()).then_some(key))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(KeyFileError { path: self.file.clone(), source }),
        }
    }

    /// Store `key`: in the keychain (and the file is removed), or, when the
    /// keychain is missing or refuses, in the 0600 file. An empty key
    /// deletes it from both. Answers where it went (for an empty key: where
    /// one would go). Blocking.
    pub fn save(&self, key: &str) -> Result<KeyPlace, KeyFileError> {
        if key.is_empty() {
            if let Some(chain) = &self.keychain {
                if let Err(e) = chain.delete() {
                    tracing::debug!(record = "keychain_unavailable", error = %e);
                }
            }
            self.remove_file()?;
            return Ok(self.place());
        }
        if let Some(chain) = &self.keychain {
            match chain.set(key) {
                Ok(()) => {
                    self.remove_file()?;
                    tracing::info!(record = "key_saved", place = "keychain");
                    return Ok(KeyPlace::Keychain);
                }
                Err(e) => {
                    tracing::warn!(record = "keychain_unavailable", error = %e, "the key goes to the 0600 file");
                    // A stale keychain entry would shadow the file on load.
                    let _ = chain.delete();
                }
            }
        }
        write_private(&self.file, key.as_bytes())?;
        tracing::info!(record = "key_saved", place = "file");
        Ok(KeyPlace::File)
    }

    /// Where a key saved now would go: the keychain when it answers, else
    /// the file. Blocking (it asks the keychain).
    pub fn place(&self) -> KeyPlace {
        match &self.keychain {
            Some(chain) if chain.get().is_ok() => KeyPlace::Keychain,
            _ => KeyPlace::File,
        }
    }

    fn remove_file(&self) -> Result<(), KeyFileError> {
        match std::fs::remove_file(&self.file) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(KeyFileError { path: self.file.clone(), source: e }),
            _ => Ok(()),
        }
    }
}

/// Write `bytes` to `path` readable only by the user (0600 on Unix): a
/// fresh temporary file with that mode, synced, then renamed over `path`.
pub fn write_private(path: &Path, bytes: &[u8]) -> Result<(), KeyFileError> {
    let tmp = path.with_extension("tmp");
    let err = |source| KeyFileError { path: path.to_path_buf(), source };
    let _ = std::fs::remove_file(&tmp);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let written = options.open(&tmp).and_then(|mut f| {
        f.write_all(bytes)?;
        f.sync_all()
    });
    if let Err(e) = written.and_then(|()| std::fs::rename(&tmp, path)) {
        let _ = std::fs::remove_file(&tmp);
        return Err(err(e));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// A keychain in memory that can be switched off.
    #[derive(Default)]
    struct FakeChain {
        secret: Mutex<Option<String>>,
        broken: bool,
    }

    impl Keychain for FakeChain {
        fn get(&self) -> Result<Option<String>, KeychainError> {
            if self.broken {
                return Err(KeychainError::Unavailable("no session bus".into()));
            }
            Ok(self.secret.lock().unwrap().clone())
        }
        fn set(&self, secret: &str) -> Result<(), KeychainError> {
            if self.broken {
                return Err(KeychainError::Unavailable("no session bus".into()));
            }
            *self.secret.lock().unwrap() = Some(secret.to_string());
            Ok(())
        }
        fn delete(&self) -> Result<(), KeychainError> {
            if self.broken {
                return Err(KeychainError::Unavailable("no session bus".into()));
            }
            *self.secret.lock().unwrap() = None;
            Ok(())
        }
    }

    /// A data directory as the store sees it: a root, and whether the OS
    /// keychain may be asked.
    struct Home(PathBuf, bool);

    impl KeyHome for Home {
        fn root(&self) -> &Path {
            &self.0
        }
        fn uses_keychain(&self) -> bool {
            self.1
        }
    }

    fn dir() -> (tempfile::TempDir, Home) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = Home(tmp.path().to_path_buf(), false);
        (tmp, dir)
    }

    #[test]
    fn the_file_round_trips_readable_only_by_the_user() {
        let (_tmp, dir) = dir();
        let store = KeyStore::new(&dir);
        assert_eq!(store.place(), KeyPlace::File);
        assert_eq!(store.load().unwrap(), None);
        assert_eq!(store.save("sk-one").unwrap(), KeyPlace::File);
        assert_eq!(store.load().unwrap().as_deref(), Some("sk-one"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(store.file()).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "mode {mode:o}");
        }
        assert_eq!(store.save("sk-two").unwrap(), KeyPlace::File);
        assert_eq!(store.load().unwrap().as_deref(), Some("sk-two"));
        assert!(!store.file().with_extension("tmp").exists());
        assert_eq!(store.save("").unwrap(), KeyPlace::File);
        assert!(!store.file().exists());
        assert_eq!(store.load().unwrap(), None);
    }

    #[test]
    fn a_working_keychain_takes_the_key_and_the_file_goes() {
        let (_tmp, dir) = dir();
        let chain = Arc::new(FakeChain::default());
        let store = KeyStore::with_keychain(&dir, Some(chain.clone()));
        write_private(store.file(), b"old").unwrap();
        assert_eq!(store.place(), KeyPlace::Keychain);
        assert_eq!(store.load().unwrap().as_deref(), Some("old"), "the file answers while the keychain is empty");
        assert_eq!(store.save("sk-new").unwrap(), KeyPlace::Keychain);
        assert_eq!(chain.secret.lock().unwrap().as_deref(), Some("sk-new"));
        assert!(!store.file().exists());
        assert_eq!(store.load().unwrap().as_deref(), Some("sk-new"));
        assert_eq!(store.save("").unwrap(), KeyPlace::Keychain);
        assert_eq!(*chain.secret.lock().unwrap(), None);
        assert_eq!(store.load().unwrap(), None);
    }

    #[test]
    fn a_failing_keychain_falls_back_to_the_file() {
        let (_tmp, dir) = dir();
        let store = KeyStore::with_keychain(&dir, Some(Arc::new(FakeChain { broken: true, ..Default::default() })));
        assert_eq!(store.place(), KeyPlace::File);
        assert_eq!(store.save("sk-x").unwrap(), KeyPlace::File);
        assert_eq!(store.load().unwrap().as_deref(), Some("sk-x"));
        assert_eq!(std::fs::read_to_string(store.file()).unwrap(), "sk-x");
        assert_eq!(store.save("").unwrap(), KeyPlace::File);
        assert!(!store.file().exists());
    }

    /// The real OS keychain with no session bus (CI): the `keyring` store
    /// reports an error, and the key goes to the file. Skipped where a bus
    /// exists, so a developer's keychain is never touched.
    #[cfg(all(unix, not(target_os = "macos")))]
    #[test]
    fn the_os_keychain_without_a_session_bus_means_the_file() {
        if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some() {
            return;
        }
        let tmp = tempfile::tempdir().unwrap();
        let store = KeyStore::new(&Home(tmp.path().to_path_buf(), true));
        assert_eq!(store.place(), KeyPlace::File);
        assert_eq!(store.save("sk-ci").unwrap(), KeyPlace::File);
        assert_eq!(store.load().unwrap().as_deref(), Some("sk-ci"));
    }
}
