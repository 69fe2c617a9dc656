//! [`Presets`]: the characters the user keeps (`docs/characters.md`,
//! "Presets"): their names in registry order, which are open, which is
//! main, and which one owns the data directory itself.
//!
//! - Kept in `characters.json` in the data directory. A data directory
//!   without one (every installation from before several characters) reads
//!   as one preset, the character its card names, open and main, owning the
//!   directory: her settings, key, card, conversations, relations and
//!   `chat_id` are where they were, and nothing moves.
//! - Each other preset's files are in `characters/<key>/`
//!   ([`DataDir::character_dir`]), her own `settings.json` included: what
//!   belongs to the character there (connection, card, `.vrm`, voice, tool
//!   switches), with her key under a keychain entry of her own. What
//!   belongs to the user and the desktop is the directory's own
//!   ([`Presets::settings_of`] joins the two).
//! - Names follow the cast's rules ([`crate::cast::check_name`]) and are
//!   compared without case; at most
//!   [`OPEN_CHARACTERS_MAX`](crate::limits::OPEN_CHARACTERS_MAX) are open.
//!   Main is always open; closing main, or removing the last preset, is
//!   refused; removing a preset closes it, and its files are deleted only
//!   by [`Presets::delete_files`], after the user confirmed.

use crate::cast::{check_name, same_name, Cast, NameError};
use crate::data_dir::DataDir;
use crate::error::CoreError;
use crate::settings::Settings;
use serde::{Deserialize, Serialize};

/// The file in the data directory.
pub const FILE_NAME: &str = "characters.json";

/// One preset as the registry keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct PresetEntry {
    /// Her name (unique without case).
    pub name: String,
    /// Whether she is on the desktop.
    pub open: bool,
}

/// The registry. See the module doc.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct Presets {
    /// Every preset, in registry order.
    pub presets: Vec<PresetEntry>,
    /// Main's name.
    pub main: String,
    /// The preset whose files are the data directory itself (the character
    /// of a one-character installation).
    pub root: String,
}

/// Why a change to the registry was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PresetError {
    /// The name cannot be a character's (or another preset has it).
    #[error(transparent)]
    Name(#[from] NameError),
    /// No preset has that name.
    #[error("no character is named \"{0}\"")]
    Unknown(String),
    /// Main cannot be closed (make another one main first).
    #[error("\"{0}\" is main: make another character main before closing her")]
    MainStaysOpen(String),
    /// The last preset cannot be removed.
    #[error("\"{0}\" is the only character")]
    LastOne(String),
    /// The preset whose files are the data directory itself cannot be
    /// removed: they are the installation's own.
    #[error("\"{0}\" was the first character: her files are the data folder itself, so she stays (close her instead)")]
    RootStays(String),
}

/// The settings of the character whose folder is `own` in the data
/// directory `data_dir`: hers (her `settings.json` and key) for what
/// belongs to the character, the directory's for what belongs to the user
/// and the desktop; the directory's own whole when `own` is the directory
/// (the root preset). Blocking: it may ask the OS keychain.
pub fn load_joined(data_dir: &DataDir, own: &DataDir) -> Result<Settings, CoreError> {
    let app = data_dir.load_settings()?;
    if own == data_dir {
        return Ok(app);
    }
    let mut hers = own.load_settings()?;
    hers.user = app.user;
    Ok(hers)
}

/// Save `settings` of the character whose folder is `own`: what belongs to
/// the character (key included) in her folder, what belongs to the user
/// and the desktop in the data directory; all of it there for the root
/// preset. Where her key went. Blocking, as [`load_joined`].
pub fn save_split(data_dir: &DataDir, own: &DataDir, settings: &Settings) -> Result<crate::keystore::KeyPlace, CoreError> {
    if own == data_dir {
        return data_dir.save_settings(settings);
    }
    let mut app = data_dir.load_settings()?;
    app.user = settings.user.clone();
    data_dir.save_settings(&app)?;
    let mut hers = settings.clone();
    hers.user = Default::default();
    own.save_settings(&hers)
}

/// One change the user makes in the Characters section of the settings
/// (the tray's items make the same changes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum PresetChange {
    /// A new preset named `name`, closed, at the end of the registry: with
    /// the default settings (the default card of the UI language, the
    /// bundled `.vrm`, the built-in demo agent), or as a copy of the
    /// character settings (connection and key included) of preset `copy_of`.
    Add {
        /// Her name.
        name: String,
        /// The preset whose character settings she starts with; none: the defaults.
        #[serde(default)]
        copy_of: Option<String>,
    },
    /// Open preset `name` (she comes on the desktop).
    Open {
        /// Her name.
        name: String,
    },
    /// Close preset `name` (not main): her turns stop, her window closes.
    Close {
        /// Her name.
        name: String,
    },
    /// Make preset `name` main (she opens).
    SetMain {
        /// Her name.
        name: String,
    },
    /// Take preset `name` out of the registry (the settings window asked
    /// the user first); her files and key go with [`Presets::delete_files`]
    /// once her session has ended. The root preset cannot be removed.
    Remove {
        /// Her name.
        name: String,
    },
}

/// Why a change from the settings could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ChangeError {
    /// The registry refused it.
    #[error(transparent)]
    Refused(#[from] PresetError),
    /// Reading or writing the files failed.
    #[error(transparent)]
    Storage(#[from] CoreError),
    /// The file is not a character card she can be made from.
    #[error(transparent)]
    Card(#[from] crate::card::CardError),
}

impl Presets {
    /// Make `change` and save the registry to `data_dir` (for an added copy,
    /// her settings first). Blocking: a copy reads and writes keys in the
    /// OS keychain. Nothing is saved when the change is refused. A removed
    /// preset's files stay until [`Presets::delete_files`].
    pub fn apply(&mut self, data_dir: &DataDir, change: &PresetChange) -> Result<(), ChangeError> {
        let mut next = self.clone();
        match change {
            PresetChange::Add { name, copy_of } => {
                let name = next.add(name)?;
                if let Some(source) = copy_of {
                    let source = self.presets.iter().find(|p| same_name(&p.name, source)).ok_or_else(|| PresetError::Unknown(source.clone()))?;
                    let mut copied = self.settings_of(data_dir, &source.name)?;
                    copied.user = Default::default();
                    next.dir_of(data_dir, &name)?.save_settings(&copied)?;
                }
            }
            PresetChange::Open { name } => next.open(name)?,
            PresetChange::Close { name } => next.close(name)?,
            PresetChange::SetMain { name } => next.set_main(name)?,
            PresetChange::Remove { name } => {
                next.remove(name)?;
            }
        }
        next.save(data_dir)?;
        *self = next;
        Ok(())
    }

    /// Add a closed preset made from a Tavern card (`file_name`'s `bytes`,
    /// `.json` or `.png`) at the end of the registry: named by the card
    /// ([`Presets::name_for`]), with the default settings and the card in
    /// her folder, and save the registry. Her name. Nothing is saved when
    /// the file is not a card.
    pub fn add_from_card(&mut self, data_dir: &DataDir, file_name: &str, bytes: &[u8]) -> Result<String, ChangeError> {
        let card = crate::card::import_bytes(file_name, bytes)?;
        let mut next = self.clone();
        let name = next.add(&self.name_for(&card.name))?;
        let dir = next.dir_of(data_dir, &name)?;
        // Her settings name the bundled `.vrm`: her card is that one's.
        crate::card::import_into(&crate::card::CardStore::new(&dir, ""), file_name, bytes)?;
        next.save(data_dir)?;
        *self = next;
        Ok(name)
    }

    /// The name a preset made from a card named `card` takes: the card's,
    /// or `"<card> 2"`, `"<card> 3"`, … when another preset has it;
    /// `"Character"` (numbered the same way) when the card's name cannot be
    /// a character's.
    pub fn name_for(&self, card: &str) -> String {
        let base = check_name(card).unwrap_or_else(|_| "Character".to_string());
        if self.find(&base).is_none() {
            return base;
        }
        (2..).map(|n| format!("{base} {n}")).find(|name| self.find(name).is_none()).expect("a free number")
    }

    /// One preset named `name`, open and main, owning the directory.
    pub fn single(name: &str) -> Self {
        let name = name.trim().to_string();
        Presets { presets: vec![PresetEntry { name: name.clone(), open: true }], main: name.clone(), root: name }
    }

    /// The registry of `data_dir`; without a file (or with a damaged one,
    /// logged), the one character `first` (her card's name) of a
    /// one-character installation.
    pub fn load(data_dir: &DataDir, first: &str) -> Self {
        let path = data_dir.root().join(FILE_NAME);
        let read = match std::fs::read_to_string(&path) {
            Ok(raw) => serde_json::from_str::<Presets>(&raw).map_err(|e| e.to_string()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Self::single(first),
            Err(e) => Err(e.to_string()),
        };
        match read.map(Presets::repaired) {
            Ok(Some(presets)) => presets,
            Ok(None) => {
                tracing::warn!(record = "presets_unreadable", path = %path.display(), error = "no preset in it");
                Self::single(first)
            }
            Err(e) => {
                tracing::warn!(record = "presets_unreadable", path = %path.display(), error = %e);
                Self::single(first)
            }
        }
    }

    /// The registry of `data_dir` as [`Presets::load`] reads it, the first
    /// character named by the card of the directory's own settings (what
    /// the app and the tray read). Blocking: it reads files.
    pub fn read(data_dir: &DataDir) -> Result<Self, CoreError> {
        let settings = data_dir.load_settings_without_key()?;
        let first = crate::card::current(&crate::card::CardStore::new(data_dir, &settings.character.vrm), &settings.user.language).name;
        Ok(Self::load(data_dir, &first))
    }

    /// A registry read from a file made whole: names that break the rules
    /// or repeat dropped, main open and one of them, the root one of them.
    fn repaired(mut self) -> Option<Self> {
        let mut kept: Vec<PresetEntry> = Vec::new();
        for p in self.presets.drain(..) {
            if let Ok(name) = check_name(&p.name) {
                if !kept.iter().any(|k| same_name(&k.name, &name)) {
                    kept.push(PresetEntry { name, open: p.open });
                }
            }
        }
        let first = kept.first()?.name.clone();
        self.presets = kept;
        if self.find(&self.main).is_none() {
            self.main = first.clone();
        }
        if self.find(&self.root).is_none() {
            self.root = first;
        }
        let main = self.find(&self.main).expect("checked above");
        self.presets[main].open = true;
        let mut open = 0;
        for p in &mut self.presets {
            if p.open {
                open += 1;
                if open > crate::limits::OPEN_CHARACTERS_MAX && !same_name(&p.name, &self.main) {
                    p.open = false;
                }
            }
        }
        Some(self)
    }

    /// Save to `data_dir` (whole or not at all).
    pub fn save(&self, data_dir: &DataDir) -> Result<(), CoreError> {
        let path = data_dir.root().join(FILE_NAME);
        let bytes = serde_json::to_vec_pretty(self).expect("presets serialize");
        crate::data_dir::write_whole(&path, &bytes).map_err(|source| CoreError::Storage { path, source })
    }

    fn find(&self, name: &str) -> Option<usize> {
        self.presets.iter().position(|p| same_name(&p.name, name))
    }

    /// The open presets as a cast: main first, then the others in registry order.
    pub fn cast(&self) -> Cast {
        let mut names = vec![self.main.clone()];
        names.extend(self.presets.iter().filter(|p| p.open && !same_name(&p.name, &self.main)).map(|p| p.name.clone()));
        Cast::new(&names).expect("the registry keeps the cast's rules")
    }

    /// Add a closed preset named `name` at the end of the registry.
    pub fn add(&mut self, name: &str) -> Result<String, PresetError> {
        let name = check_name(name)?;
        if self.find(&name).is_some() {
            return Err(NameError::Taken(name).into());
        }
        self.presets.push(PresetEntry { name: name.clone(), open: false });
        Ok(name)
    }

    /// Open the preset named `name`.
    pub fn open(&mut self, name: &str) -> Result<(), PresetError> {
        let i = self.find(name).ok_or_else(|| PresetError::Unknown(name.to_string()))?;
        if !self.presets[i].open && self.presets.iter().filter(|p| p.open).count() >= crate::limits::OPEN_CHARACTERS_MAX {
            return Err(NameError::TooMany(crate::limits::OPEN_CHARACTERS_MAX).into());
        }
        self.presets[i].open = true;
        Ok(())
    }

    /// Close the preset named `name` (not main).
    pub fn close(&mut self, name: &str) -> Result<(), PresetError> {
        let i = self.find(name).ok_or_else(|| PresetError::Unknown(name.to_string()))?;
        if same_name(&self.presets[i].name, &self.main) {
            return Err(PresetError::MainStaysOpen(self.main.clone()));
        }
        self.presets[i].open = false;
        Ok(())
    }

    /// Open the preset named `name` when she is closed, close her when she
    /// is open (the tray's check item); whether she is open now.
    pub fn toggle(&mut self, name: &str) -> Result<bool, PresetError> {
        let i = self.find(name).ok_or_else(|| PresetError::Unknown(name.to_string()))?;
        if self.presets[i].open {
            self.close(name)?;
            Ok(false)
        } else {
            self.open(name)?;
            Ok(true)
        }
    }

    /// Make the preset named `name` main (it opens).
    pub fn set_main(&mut self, name: &str) -> Result<(), PresetError> {
        self.open(name)?;
        let i = self.find(name).expect("opened above");
        self.main = self.presets[i].name.clone();
        Ok(())
    }

    /// Take the preset named `name` out of the registry (her files stay
    /// until [`Presets::delete_files`]). Main's place goes to the first
    /// other open preset, else the first preset, which opens.
    pub fn remove(&mut self, name: &str) -> Result<PresetEntry, PresetError> {
        let i = self.find(name).ok_or_else(|| PresetError::Unknown(name.to_string()))?;
        if self.presets.len() == 1 {
            return Err(PresetError::LastOne(self.presets[0].name.clone()));
        }
        if same_name(&self.presets[i].name, &self.root) {
            return Err(PresetError::RootStays(self.root.clone()));
        }
        let removed = self.presets.remove(i);
        if same_name(&removed.name, &self.main) {
            let next = self.presets.iter().position(|p| p.open).unwrap_or(0);
            self.presets[next].open = true;
            self.main = self.presets[next].name.clone();
        }
        Ok(removed)
    }

    /// The data directory of the preset named `name`: the directory itself
    /// for the root preset, else `characters/<key>/`.
    pub fn dir_of(&self, data_dir: &DataDir, name: &str) -> Result<DataDir, CoreError> {
        data_dir.character_dir(name, &self.root)
    }

    /// The settings the preset named `name` runs with: her own (her folder's
    /// `settings.json` and key) for what belongs to the character, the data
    /// directory's for what belongs to the user and the desktop. Blocking:
    /// it may ask the OS keychain.
    pub fn settings_of(&self, data_dir: &DataDir, name: &str) -> Result<Settings, CoreError> {
        load_joined(data_dir, &self.dir_of(data_dir, name)?)
    }

    /// Delete the files and the key of a removed preset named `name` (never
    /// the root's: those are the data directory's own), once her session
    /// has ended. The user confirmed first.
    pub fn delete_files(&self, data_dir: &DataDir, name: &str) -> Result<(), CoreError> {
        if same_name(name, &self.root) || self.find(name).is_some() {
            return Ok(());
        }
        // Her key first: a preset added later under her name must not find it.
        if let Err(e) = self.dir_of(data_dir, name)?.key_store().save("") {
            tracing::warn!(record = "preset_key_not_deleted", character = name, error = %e);
        }
        let dir = data_dir.root().join("characters").join(crate::data_dir::preset_key(name));
        match std::fs::remove_dir_all(&dir) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(CoreError::Storage { path: dir, source }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> (tempfile::TempDir, DataDir) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::new(tmp.path()).unwrap().without_keychain();
        (tmp, dir)
    }

    #[test]
    fn a_one_character_directory_reads_as_one_open_main_preset_owning_it() {
        let (_tmp, dir) = dir();
        let p = Presets::load(&dir, "Yui");
        assert_eq!(p, Presets::single("Yui"));
        assert_eq!(p.cast().names(), ["Yui"]);
        assert_eq!(p.dir_of(&dir, "yui").unwrap(), dir, "her files are where they were");
    }

    #[test]
    fn a_card_makes_a_closed_preset_named_by_it_with_the_card_in_her_folder() {
        let (_tmp, dir) = dir();
        let mut p = Presets::single("Yui");
        let card = |name: &str| serde_json::json!({"spec": "chara_card_v2", "data": {"name": name, "description": "A quiet librarian."}}).to_string();
        assert_eq!(p.add_from_card(&dir, "ann.json", card("Ann").as_bytes()).unwrap(), "Ann");
        assert_eq!(p.add_from_card(&dir, "ann.json", card("ann").as_bytes()).unwrap(), "ann 2", "a taken name is numbered");
        assert_eq!(p.add_from_card(&dir, "x.json", card("everyone").as_bytes()).unwrap(), "Character", "a name no character can have");
        assert_eq!(p.cast().names(), ["Yui"], "added closed");
        assert_eq!(Presets::load(&dir, "Yui"), p, "saved");
        let ann = p.dir_of(&dir, "Ann").unwrap();
        assert_ne!(ann, dir);
        let stored = crate::card::current(&crate::card::CardStore::new(&ann, ""), "en");
        assert_eq!(stored.name, "Ann");
        assert!(stored.description.contains("librarian"), "{stored:?}");
        assert_eq!(crate::card::current(&crate::card::CardStore::new(&dir, ""), "en").name, crate::card::default_card("en").name, "main's card is untouched");
        // Not a card: refused, nothing saved.
        let before = p.clone();
        assert!(matches!(p.add_from_card(&dir, "notes.txt", b"hello"), Err(ChangeError::Card(_))));
        assert_eq!(p, before);
        assert_eq!(Presets::load(&dir, "Yui"), before);
    }

    #[test]
    fn presets_open_close_and_switch_main_in_registry_order_and_are_kept() {
        let (_tmp, dir) = dir();
        let mut p = Presets::single("Yui");
        p.add("Ann").unwrap();
        p.add("Mio").unwrap();
        assert_eq!(p.add("ann"), Err(PresetError::Name(NameError::Taken("ann".into()))));
        assert_eq!(p.add("Everyone"), Err(PresetError::Name(NameError::Reserved("Everyone".into()))));
        assert_eq!(p.cast().names(), ["Yui"], "added closed");
        p.open("mio").unwrap();
        p.open("Ann").unwrap();
        assert_eq!(p.cast().names(), ["Yui", "Ann", "Mio"], "registry order, not opening order");
        p.set_main("Mio").unwrap();
        assert_eq!(p.cast().names(), ["Mio", "Yui", "Ann"], "main first");
        assert_eq!(p.close("MIO"), Err(PresetError::MainStaysOpen("Mio".into())));
        p.close("Yui").unwrap();
        assert_eq!(p.cast().names(), ["Mio", "Ann"]);
        p.save(&dir).unwrap();
        assert_eq!(Presets::load(&dir, "whoever"), p, "kept across a restart; the card's name no longer decides");
        // Removing main hands main to the first other open one.
        let removed = p.remove("Mio").unwrap();
        assert_eq!(removed.name, "Mio");
        assert_eq!(p.main, "Ann");
        assert_eq!(p.root, "Yui", "the root stays with her files");
    }

    #[test]
    fn at_most_six_are_open_and_the_last_preset_stays() {
        let mut p = Presets::single("A");
        for n in ["B", "C", "D", "E", "F", "G"] {
            p.add(n).unwrap();
        }
        for n in ["B", "C", "D", "E", "F"] {
            p.open(n).unwrap();
        }
        assert_eq!(p.open("G"), Err(PresetError::Name(NameError::TooMany(6))));
        let mut one = Presets::single("A");
        assert_eq!(one.remove("a"), Err(PresetError::LastOne("A".into())));
        assert_eq!(one.open("Z"), Err(PresetError::Unknown("Z".into())));
    }

    #[test]
    fn a_damaged_or_hand_edited_file_is_made_whole() {
        let (_tmp, dir) = dir();
        std::fs::write(dir.root().join(FILE_NAME), "{not json").unwrap();
        assert_eq!(Presets::load(&dir, "Yui"), Presets::single("Yui"));
        std::fs::write(
            dir.root().join(FILE_NAME),
            r#"{"presets":[{"name":"Ann","open":false},{"name":"ann","open":true},{"name":"everyone","open":true},{"name":"Bo","open":true}],"main":"Zed","root":"Bo"}"#,
        )
        .unwrap();
        let p = Presets::load(&dir, "Yui");
        assert_eq!(p.presets.iter().map(|e| (e.name.as_str(), e.open)).collect::<Vec<_>>(), [("Ann", true), ("Bo", true)]);
        assert_eq!((p.main.as_str(), p.root.as_str()), ("Ann", "Bo"), "an unknown main falls to the first, which opens");
    }

    #[test]
    fn the_tray_toggles_a_preset_but_never_closes_main_nor_opens_a_seventh() {
        let mut p = Presets::single("Yui");
        for name in ["Ann", "Mio", "Kai", "Rin", "Sol", "Tao"] {
            p.add(name).unwrap();
        }
        assert_eq!(p.toggle("ann"), Ok(true), "names without case");
        assert_eq!(p.cast().names(), ["Yui", "Ann"]);
        assert_eq!(p.toggle("Ann"), Ok(false));
        assert_eq!(p.cast().names(), ["Yui"]);
        assert!(matches!(p.toggle("Yui"), Err(PresetError::MainStaysOpen(_))));
        for name in ["Ann", "Mio", "Kai", "Rin", "Sol"] {
            assert_eq!(p.toggle(name), Ok(true));
        }
        assert_eq!(p.toggle("Tao"), Err(PresetError::Name(NameError::TooMany(crate::limits::OPEN_CHARACTERS_MAX))));
        assert_eq!(p.cast().names().len(), 6);
        assert!(matches!(p.toggle("Nobody"), Err(PresetError::Unknown(_))));
    }

    #[test]
    fn a_preset_runs_with_her_own_character_settings_and_the_app_wide_user_settings() {
        let (_tmp, dir) = dir();
        let mut app = Settings::default();
        app.user.user_name = "Kai".into();
        app.character.model = "main-model".into();
        dir.save_settings(&app).unwrap();
        let mut p = Presets::single("Yui");
        p.add("Ann").unwrap();
        let ann_dir = p.dir_of(&dir, "Ann").unwrap();
        let mut own = Settings::default();
        own.character.model = "ann-model".into();
        own.user.user_name = "ignored".into();
        ann_dir.save_settings(&own).unwrap();
        let ann = p.settings_of(&dir, "ann").unwrap();
        assert_eq!((ann.character.model.as_str(), ann.user.user_name.as_str()), ("ann-model", "Kai"));
        assert_eq!(p.settings_of(&dir, "Yui").unwrap().character.model, "main-model");
        // Her files go only when asked, and only once she is out of the registry.
        p.delete_files(&dir, "Ann").unwrap();
        assert!(ann_dir.root().exists(), "still a preset: kept");
        p.remove("Ann").unwrap();
        p.delete_files(&dir, "Ann").unwrap();
        assert!(!ann_dir.root().exists());
        p.delete_files(&dir, "Yui").unwrap();
        assert!(dir.root().join("settings.json").exists(), "the root's files are never deleted");
    }

    #[test]
    fn the_settings_add_a_copy_open_make_main_and_remove_and_a_refused_change_saves_nothing() {
        let (_tmp, dir) = dir();
        let mut main = Settings::default();
        main.character.key = "sk-main".into();
        main.character.chat_base_url = "http://127.0.0.1:4000".into();
        main.user.user_name = "Kai".into();
        dir.save_settings(&main).unwrap();
        let mut p = Presets::single("Yui");
        let add = |name: &str, copy_of: Option<&str>| PresetChange::Add { name: name.into(), copy_of: copy_of.map(Into::into) };
        p.apply(&dir, &add("Ann", Some("yui"))).unwrap();
        p.apply(&dir, &add("Mio", None)).unwrap();
        let ann = p.settings_of(&dir, "Ann").unwrap();
        assert_eq!(
            (ann.character.key.expose(), ann.character.chat_base_url.as_str()),
            ("sk-main", "http://127.0.0.1:4000"),
            "a copy keeps the connection and key"
        );
        assert_eq!(ann.user.user_name, "Kai", "what is the user's stays app-wide");
        assert!(p.settings_of(&dir, "Mio").unwrap().uses_demo(), "a fresh preset talks to the demo agent");
        assert_eq!(Presets::load(&dir, "Yui"), p, "saved");

        p.apply(&dir, &PresetChange::SetMain { name: "ann".into() }).unwrap();
        assert_eq!(p.cast().names(), ["Ann", "Yui"]);
        let before = p.clone();
        let refused = p.apply(&dir, &PresetChange::Close { name: "Ann".into() });
        assert!(matches!(refused, Err(ChangeError::Refused(PresetError::MainStaysOpen(_)))), "{refused:?}");
        assert!(matches!(p.apply(&dir, &add("everyone", None)), Err(ChangeError::Refused(PresetError::Name(NameError::Reserved(_))))));
        assert_eq!((&p, &Presets::load(&dir, "Yui")), (&before, &before), "nothing changed, nothing saved");

        let ann_dir = p.dir_of(&dir, "Ann").unwrap();
        assert!(ann_dir.root().join("settings.json").exists());
        assert_eq!(ann_dir.key_store().load().unwrap().as_deref(), Some("sk-main"));
        p.apply(&dir, &PresetChange::Remove { name: "Ann".into() }).unwrap();
        assert!(ann_dir.root().exists(), "her files stay while her session may still write");
        p.delete_files(&dir, "Ann").unwrap();
        assert!(!ann_dir.root().exists(), "her files went with her");
        assert_eq!(ann_dir.key_store().load().unwrap(), None, "and her key");
        assert_eq!(p.main, "Yui", "main's place went to the next open preset");
        assert_eq!(Presets::load(&dir, "Yui").presets.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["Yui", "Mio"]);
        let root = p.apply(&dir, &PresetChange::Remove { name: "yui".into() });
        assert!(matches!(root, Err(ChangeError::Refused(PresetError::RootStays(_)))), "{root:?}");
        assert!(dir.root().join("settings.json").exists());
        // The JSON the settings window sends.
        let sent: PresetChange = serde_json::from_str(r#"{"action":"set_main","name":"Mio"}"#).unwrap();
        assert_eq!(sent, PresetChange::SetMain { name: "Mio".into() });
    }

    #[test]
    fn the_settings_window_edits_main_where_her_settings_live_and_the_user_part_app_wide() {
        let (_tmp, dir) = dir();
        let mut p = Presets::single("Yui");
        p.apply(&dir, &PresetChange::Add { name: "Ann".into(), copy_of: None }).unwrap();
        let ann = p.dir_of(&dir, "Ann").unwrap();
        let mut edited = load_joined(&dir, &ann).unwrap();
        edited.character.model = "ann-model".into();
        edited.character.key = "sk-ann".into();
        edited.user.user_name = "Kai".into();
        save_split(&dir, &ann, &edited).unwrap();
        let root = load_joined(&dir, &dir).unwrap();
        assert_eq!(
            (root.character.model.as_str(), root.user.user_name.as_str()),
            (Settings::default().character.model.as_str(), "Kai"),
            "the user part went app-wide, the character part not"
        );
        assert_eq!(root.character.key.expose(), "");
        let back = load_joined(&dir, &ann).unwrap();
        assert_eq!((back.character.model.as_str(), back.character.key.expose(), back.user.user_name.as_str()), ("ann-model", "sk-ann", "Kai"));
        // The root preset's are the directory's whole.
        let mut r = root.clone();
        r.character.model = "root-model".into();
        save_split(&dir, &dir, &r).unwrap();
        assert_eq!(dir.load_settings().unwrap().character.model, "root-model");
        assert_eq!(load_joined(&dir, &ann).unwrap().character.model, "ann-model");
    }

    #[test]
    fn a_one_character_installation_of_today_opens_as_the_first_preset_with_nothing_lost() {
        use crate::card::{self, CardStore};
        use crate::relations::RelationStore;
        let (_tmp, dir) = dir();
        // Today's installation: her settings and key, an imported card,
        // relations, a transcript and her chat id, all in the directory.
        let mut settings = Settings::default();
        settings.character.key = "sk-hers".into();
        settings.character.chat_base_url = "http://127.0.0.1:4000".into();
        dir.save_settings(&settings).unwrap();
        let store = CardStore::new(&dir, &settings.character.vrm);
        card::import_into(
            &store,
            "perlica.json",
            br#"{"spec":"chara_card_v2","spec_version":"2.0","data":{"name":"Perlica","description":"A quiet engineer."}}"#,
        )
        .unwrap();
        let chat_id = dir.chat_id().unwrap();
        let relations = RelationStore::open(&dir, &settings.character.vrm);
        relations.set_by_user("user", 7, 1_000);
        relations.flush();
        let transcript = dir.root().join("transcripts").join("default.jsonl");
        crate::data_dir::write_whole(&transcript, b"{\"role\":\"user\",\"content\":\"hi\"}\n").unwrap();

        let name = card::current(&store, "en").name;
        assert_eq!(name, "Perlica");
        let presets = Presets::load(&dir, &name);
        assert_eq!(presets.cast().names(), ["Perlica"], "one open main preset, named by her card");
        let hers = presets.dir_of(&dir, "perlica").unwrap();
        assert_eq!(hers, dir, "her folder is the directory itself");
        let loaded = presets.settings_of(&dir, "Perlica").unwrap();
        assert_eq!((loaded.character.key.expose(), loaded.character.chat_base_url.as_str()), ("sk-hers", "http://127.0.0.1:4000"));
        assert_eq!(hers.chat_id().unwrap(), chat_id);
        assert_eq!(card::current(&CardStore::new(&hers, &loaded.character.vrm), "en").name, "Perlica");
        assert_eq!(RelationStore::open(&hers, &loaded.character.vrm).list()[0].value, 7);
        assert!(hers.root().join("transcripts").join("default.jsonl").exists());
        // Saved once, the registry keeps her as the directory's owner even
        // when a new card renames her.
        presets.save(&dir).unwrap();
        assert_eq!(Presets::load(&dir, "Somebody Else").root, "Perlica");
    }
}
