//! The character file: the bundled default, or a user's own `.vrm` copied
//! into the data directory, and the `.vrma` motion clips a user adds.

use crate::data_dir::DataDir;
use crate::error::CoreError;
use std::path::{Path, PathBuf};

/// Largest `.vrm` the app imports.
pub const MAX_VRM_BYTES: u64 = 128 * 1024 * 1024;
/// Largest `.vrma` clip the app imports.
pub const MAX_VRMA_BYTES: u64 = 16 * 1024 * 1024;

const CHARACTER_DIR: &str = "characters";
const MOTION_DIR: &str = "motions";

pub use yui_protocol::character::{CharacterInfo, VrmVersion};

/// Why a file is not a usable character or clip.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// Reading or copying failed.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The file is larger than the limit.
    #[error("{path} is {size} bytes; the limit is {limit}")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// Not a GLB, or a GLB without the VRM extension.
    #[error("{path} is not a {expected} file: {reason}")]
    NotVrm {
        /// The file.
        path: PathBuf,
        /// What was expected (`VRM`, `VRMA`).
        expected: &'static str,
        /// What is wrong.
        reason: String,
    },
}

impl From<ImportError> for CoreError {
    fn from(e: ImportError) -> Self {
        match e {
            ImportError::Io { path, source } => CoreError::Storage { path, source },
            other => CoreError::Settings { field: "character", reason: other.to_string() },
        }
    }
}

/// Why bytes are not a readable GLB (glTF binary).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GlbError {
    /// No `glTF` magic, or fewer bytes than a header.
    #[error("no glTF binary header")]
    NoHeader,
    /// A glTF binary of another version than 2.
    #[error("glTF version {0}, expected 2")]
    Version(u32),
    /// The first chunk is not JSON, or is cut short.
    #[error("the first chunk is not a complete JSON chunk")]
    NoJsonChunk,
    /// The JSON chunk does not parse (the parser's message).
    #[error("JSON chunk: {0}")]
    BadJson(String),
}

/// Read the JSON chunk of a GLB (glTF binary).
pub fn glb_json(bytes: &[u8]) -> Result<serde_json::Value, GlbError> {
    if bytes.len() < 20 || &bytes[0..4] != b"glTF" {
        return Err(GlbError::NoHeader);
    }
    let version = u32::from_le_bytes(bytes[4..8].try_into().unwrap());
    if version != 2 {
        return Err(GlbError::Version(version));
    }
    let chunk_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    if &bytes[16..20] != b"JSON" || 20 + chunk_len > bytes.len() {
        return Err(GlbError::NoJsonChunk);
    }
    serde_json::from_slice(&bytes[20..20 + chunk_len]).map_err(|e| GlbError::BadJson(e.to_string()))
}

/// Inspect a `.vrm`: its version and name.
pub fn inspect_vrm(path: &Path, bytes: &[u8]) -> Result<CharacterInfo, ImportError> {
    let not = |reason: String| ImportError::NotVrm { path: path.to_path_buf(), expected: "VRM", reason };
    let json = glb_json(bytes).map_err(|e| not(e.to_string()))?;
    let ext = &json["extensions"];
    let (version, name) = if let Some(v1) = ext.get("VRMC_vrm") {
        (VrmVersion::V1, v1["meta"]["name"].as_str().map(str::to_string))
    } else if let Some(v0) = ext.get("VRM") {
        (VrmVersion::V0, v0["meta"]["title"].as_str().map(str::to_string))
    } else {
        return Err(not("no VRMC_vrm or VRM extension".into()));
    };
    let fallback = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| "character".into());
    let name = name.map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).unwrap_or(fallback);
    Ok(CharacterInfo { name, version, path: None })
}

fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, ImportError> {
    let io = |source| ImportError::Io { path: path.to_path_buf(), source };
    let size = std::fs::metadata(path).map_err(io)?.len();
    if size > limit {
        return Err(ImportError::TooLarge { path: path.to_path_buf(), size, limit });
    }
    std::fs::read(path).map_err(io)
}

/// A file name safe to keep in the data directory: letters, digits, `-`, `_`.
fn safe_stem(path: &Path, fallback: &str) -> String {
    let stem: String = path
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .take(64)
        .collect();
    if stem.trim_matches('_').is_empty() {
        fallback.to_string()
    } else {
        stem
    }
}

/// Validate a user's `.vrm` (0.x or 1.0) and copy it into the data
/// directory's `characters/`. Returns where it now lives.
pub fn import_vrm(data_dir: &DataDir, source: &Path) -> Result<CharacterInfo, ImportError> {
    let bytes = read_limited(source, MAX_VRM_BYTES)?;
    import_vrm_bytes(data_dir, source, &bytes)
}

/// As [`import_vrm`], for bytes the user picked in the UI; `name` is the
/// picked file's name.
pub fn import_vrm_bytes(data_dir: &DataDir, name: &Path, bytes: &[u8]) -> Result<CharacterInfo, ImportError> {
    let source = name;
    if bytes.len() as u64 > MAX_VRM_BYTES {
        return Err(ImportError::TooLarge { path: name.to_path_buf(), size: bytes.len() as u64, limit: MAX_VRM_BYTES });
    }
    let mut info = inspect_vrm(source, bytes)?;
    let dir = data_dir.root().join(CHARACTER_DIR);
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |source| ImportError::Io { path: p, source }
    };
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let dest = dir.join(format!("{}.vrm", safe_stem(source, "character")));
    std::fs::write(&dest, bytes).map_err(io(&dest))?;
    tracing::info!(record = "character_import", name = %info.name, version = ?info.version, bytes = bytes.len(), "character imported");
    info.path = Some(dest);
    Ok(info)
}

/// Validate a `.vrma` clip and copy it into `motions/`; its motion id is the file stem.
pub fn import_motion(data_dir: &DataDir, source: &Path) -> Result<String, ImportError> {
    let bytes = read_limited(source, MAX_VRMA_BYTES)?;
    import_motion_bytes(data_dir, source, &bytes)
}

/// As [`import_motion`], for bytes the user picked in the UI.
pub fn import_motion_bytes(data_dir: &DataDir, source: &Path, bytes: &[u8]) -> Result<String, ImportError> {
    if bytes.len() as u64 > MAX_VRMA_BYTES {
        return Err(ImportError::TooLarge { path: source.to_path_buf(), size: bytes.len() as u64, limit: MAX_VRMA_BYTES });
    }
    let json = glb_json(bytes).map_err(|e| ImportError::NotVrm { path: source.to_path_buf(), expected: "VRMA", reason: e.to_string() })?;
    if json["extensions"].get("VRMC_vrm_animation").is_none() {
        return Err(ImportError::NotVrm { path: source.to_path_buf(), expected: "VRMA", reason: "no VRMC_vrm_animation extension".into() });
    }
    let id = safe_stem(source, "motion").to_lowercase();
    let dir = data_dir.root().join(MOTION_DIR);
    std::fs::create_dir_all(&dir).map_err(|source| ImportError::Io { path: dir.clone(), source })?;
    let dest = dir.join(format!("{id}.vrma"));
    std::fs::write(&dest, bytes).map_err(|source| ImportError::Io { path: dest.clone(), source })?;
    Ok(id)
}

/// The bytes of a user clip by motion id; `None` when there is no such clip.
pub fn motion_bytes(data_dir: &DataDir, id: &str) -> Option<Vec<u8>> {
    if !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return None;
    }
    std::fs::read(data_dir.root().join(MOTION_DIR).join(format!("{id}.vrma"))).ok()
}

/// The character the settings name: its info, or `None` for the bundled
/// default (also when the named file is gone or no longer a VRM, with a log line).
pub fn current(data_dir: &DataDir, settings_character: &str) -> Option<(CharacterInfo, Vec<u8>)> {
    if settings_character.trim().is_empty() {
        return None;
    }
    let path = PathBuf::from(settings_character);
    let inside = match (path.canonicalize(), data_dir.root().canonicalize()) {
        (Ok(p), Ok(root)) => p.starts_with(root),
        (Err(e), _) => {
            tracing::warn!(record = "character_unusable", path = %path.display(), error = %e, "using the default character");
            return None;
        }
        _ => false,
    };
    if !inside {
        tracing::warn!(record = "character_outside_data_dir", path = %path.display(), "using the default character");
        return None;
    }
    let loaded = read_limited(&path, MAX_VRM_BYTES).and_then(|bytes| {
        let mut info = inspect_vrm(&path, &bytes)?;
        info.path = Some(path.clone());
        Ok((info, bytes))
    });
    match loaded {
        Ok(x) => Some(x),
        Err(e) => {
            tracing::warn!(record = "character_unusable", error = %e, "using the default character");
            None
        }
    }
}

/// The motion ids of the `.vrma` clips in the data directory, sorted.
pub fn user_motions(data_dir: &DataDir) -> Vec<String> {
    let dir = data_dir.root().join(MOTION_DIR);
    let mut ids: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "vrma"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().to_string()))
        .collect();
    ids.sort();
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glb(json: &serde_json::Value) -> Vec<u8> {
        let mut j = serde_json::to_vec(json).unwrap();
        while !j.len().is_multiple_of(4) {
            j.push(b' ');
        }
        let mut out = Vec::new();
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&((12 + 8 + j.len()) as u32).to_le_bytes());
        out.extend_from_slice(&(j.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&j);
        out
    }

    #[test]
    fn imports_vrm_1_and_0x_and_rejects_others() {
        let tmp = tempfile::tempdir().unwrap();
        let data = DataDir::new(tmp.path().join("data")).unwrap();
        let v1 = tmp.path().join("My Girl!.vrm");
        std::fs::write(&v1, glb(&serde_json::json!({"asset":{"version":"2.0"},"extensions":{"VRMC_vrm":{"meta":{"name":"Mio"}}}}))).unwrap();
        let info = import_vrm(&data, &v1).unwrap();
        assert_eq!((info.name.as_str(), info.version), ("Mio", VrmVersion::V1));
        let dest = info.path.unwrap();
        assert!(dest.starts_with(data.root()) && dest.exists());
        assert_eq!(dest.file_name().unwrap(), "My_Girl_.vrm");

        let v0 = tmp.path().join("old.vrm");
        std::fs::write(&v0, glb(&serde_json::json!({"extensions":{"VRM":{"meta":{"title":"Old"}}}}))).unwrap();
        assert_eq!(import_vrm(&data, &v0).unwrap().version, VrmVersion::V0);

        let plain = tmp.path().join("plain.glb");
        std::fs::write(&plain, glb(&serde_json::json!({"asset":{"version":"2.0"}}))).unwrap();
        assert!(matches!(import_vrm(&data, &plain), Err(ImportError::NotVrm { .. })));
        let junk = tmp.path().join("junk.vrm");
        std::fs::write(&junk, b"hello world, not a glb").unwrap();
        let err = import_vrm(&data, &junk).unwrap_err();
        assert!(err.to_string().contains("not a VRM file"), "{err}");
        assert!(matches!(import_vrm(&data, &tmp.path().join("missing.vrm")), Err(ImportError::Io { .. })));
    }

    #[test]
    fn current_falls_back_to_the_default() {
        let tmp = tempfile::tempdir().unwrap();
        let data = DataDir::new(tmp.path().join("data")).unwrap();
        assert!(current(&data, "").is_none());
        let bytes = glb(&serde_json::json!({"extensions":{"VRMC_vrm":{"meta":{"name":"Mio"}}}}));
        let info = import_vrm_bytes(&data, Path::new("mio.vrm"), &bytes).unwrap();
        let path = info.path.unwrap();
        let (found, read) = current(&data, &path.to_string_lossy()).unwrap();
        assert_eq!((found.name.as_str(), read), ("Mio", bytes));
        std::fs::write(&path, b"broken").unwrap();
        assert!(current(&data, &path.to_string_lossy()).is_none(), "a damaged file falls back");
        let outside = tmp.path().join("outside.vrm");
        std::fs::write(&outside, glb(&serde_json::json!({"extensions":{"VRMC_vrm":{}}}))).unwrap();
        assert!(current(&data, &outside.to_string_lossy()).is_none(), "only files inside the data dir");
        assert!(motion_bytes(&data, "../settings").is_none());
    }

    #[test]
    fn motions_are_listed_by_stem() {
        let tmp = tempfile::tempdir().unwrap();
        let data = DataDir::new(tmp.path().join("data")).unwrap();
        let clip = tmp.path().join("Dance.vrma");
        std::fs::write(&clip, glb(&serde_json::json!({"extensions":{"VRMC_vrm_animation":{}}}))).unwrap();
        assert_eq!(import_motion(&data, &clip).unwrap(), "dance");
        assert_eq!(user_motions(&data), ["dance"]);
        let not_clip = tmp.path().join("x.vrma");
        std::fs::write(&not_clip, glb(&serde_json::json!({}))).unwrap();
        assert!(import_motion(&data, &not_clip).is_err());
    }
}
