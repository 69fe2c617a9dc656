//! Embeds every catalog file under `locales/<language>/*.ftl`: writes the
//! table `FILES` (language, file name, text) into `OUT_DIR/catalog.rs`, so a
//! new file is picked up without touching the code.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut entries = Vec::new();
    for language in std::fs::read_dir(&root).expect("locales/ is readable") {
        let language = language.expect("a locales/ entry").path();
        if !language.is_dir() {
            continue;
        }
        println!("cargo:rerun-if-changed={}", language.display());
        for file in std::fs::read_dir(&language).expect("a language folder is readable") {
            let file = file.expect("a catalog file").path();
            if file.extension().is_some_and(|e| e == "ftl") {
                println!("cargo:rerun-if-changed={}", file.display());
                entries.push(file);
            }
        }
    }
    entries.sort();
    let mut out = String::from("/// Every catalog file: language, file name, text.\npub static FILES: &[CatalogFile] = &[\n");
    for file in entries {
        let language = file.parent().and_then(|p| p.file_name()).and_then(|n| n.to_str()).expect("a language folder name");
        let name = file.file_name().and_then(|n| n.to_str()).expect("a file name");
        writeln!(out, "    CatalogFile {{ language: {language:?}, name: {name:?}, source: include_str!({:?}) }},", file.display().to_string()).unwrap();
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("catalog.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
