//! The key in a real Secret Service keychain. Ignored by `cargo test`: it
//! needs a session bus and an unlocked keyring, which `scripts/test.sh`
//! starts (`dbus-run-session` + `gnome-keyring-daemon`) to run it with
//! `--ignored`. Without a keychain the key goes to the 0600 file, which the
//! keystore's unit tests cover.

use yui_core::keystore::{KeyPlace, KeyStore};
use yui_core::{DataDir, Settings};

#[test]
#[ignore = "needs a Secret Service: scripts/test.sh runs it inside dbus-run-session with gnome-keyring"]
fn the_key_lives_in_the_secret_service_and_never_in_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = DataDir::new(tmp.path()).unwrap();
    let store = KeyStore::new(&dir);
    assert_eq!(store.place(), KeyPlace::Keychain, "a Secret Service answers");
    assert_eq!(store.save("sk-keychain-test").unwrap(), KeyPlace::Keychain);
    assert!(!store.file().exists(), "no key file when the keychain holds it");
    assert_eq!(KeyStore::new(&dir).load().unwrap().as_deref(), Some("sk-keychain-test"), "a new store reads it back");

    let settings = Settings::from(yui_core::settings::CharacterSettings { chat_base_url: "http://h".into(), key: "sk-second".into(), ..Default::default() });
    assert_eq!(dir.save_settings(&settings).unwrap(), KeyPlace::Keychain);
    let json = std::fs::read_to_string(tmp.path().join("settings.json")).unwrap();
    assert!(!json.contains("sk-second"), "settings.json holds no key: {json}");
    assert_eq!(dir.load_settings().unwrap().character.key, "sk-second");

    store.save("").unwrap();
    assert_eq!(KeyStore::new(&dir).load().unwrap(), None, "an empty key deletes the entry");
}
