//! The pure crates (`yui-engine`, `yui-protocol`, `yui-turn`) build and
//! test with Rust alone (`docs/architecture.md`, "Crates"): no C compiler,
//! no pkg-config, no system library. What would break that is a package
//! in their dependency closure (normal, dev and build dependencies, on
//! this platform) that links a native library (`links`) or builds C
//! (a build dependency such as `cc`, `cmake`, `pkg-config` or `bindgen`).
//! This test reads that closure from `cargo metadata` and names the chain
//! to any such package. The same holds when built for real with the tools
//! hidden: `CC=/bin/false CXX=/bin/false PKG_CONFIG=/bin/false cargo test
//! -p yui-engine -p yui-protocol -p yui-turn`.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// Packages whose presence means C is compiled or a system library probed.
const NATIVE_BUILDERS: [&str; 7] = ["cc", "cmake", "pkg-config", "bindgen", "system-deps", "vcpkg", "autotools"];

/// The workspace's metadata, resolved for this machine's platform.
fn metadata() -> Value {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc).arg("-vV").output().expect("rustc -vV");
    let host = String::from_utf8(version.stdout).unwrap().lines().find_map(|l| l.strip_prefix("host: ").map(str::to_string)).expect("a host line");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline", "--filter-platform", &host])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata");
    assert!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("metadata JSON")
}

/// Every package `roots` depend on (any kind), each with the chain from a root.
fn closure(meta: &Value, roots: &[&str]) -> BTreeMap<String, Vec<String>> {
    let names: BTreeMap<&str, &str> = meta["packages"].as_array().unwrap().iter().map(|p| (p["id"].as_str().unwrap(), p["name"].as_str().unwrap())).collect();
    let nodes: BTreeMap<&str, &Value> = meta["resolve"]["nodes"].as_array().unwrap().iter().map(|n| (n["id"].as_str().unwrap(), n)).collect();
    let mut chains: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut stack: Vec<(&str, Vec<String>)> = names.iter().filter(|(_, n)| roots.contains(n)).map(|(id, n)| (*id, vec![n.to_string()])).collect();
    assert_eq!(stack.len(), roots.len(), "every root is a workspace package: {roots:?}");
    let mut seen = BTreeSet::new();
    while let Some((id, chain)) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        chains.insert(id.to_string(), chain.clone());
        for dep in nodes[id]["deps"].as_array().unwrap() {
            let pkg = dep["pkg"].as_str().unwrap();
            let mut next = chain.clone();
            next.push(names[pkg].to_string());
            stack.push((pkg, next));
        }
    }
    chains
}

/// The chains to packages that need more than Rust.
fn native(meta: &Value, roots: &[&str]) -> Vec<String> {
    let links: BTreeMap<&str, bool> = meta["packages"].as_array().unwrap().iter().map(|p| (p["id"].as_str().unwrap(), p["links"].is_string())).collect();
    closure(meta, roots)
        .into_iter()
        .filter(|(id, chain)| links[id.as_str()] || NATIVE_BUILDERS.contains(&chain.last().unwrap().as_str()))
        .map(|(_, chain)| chain.join(" -> "))
        .collect()
}

#[test]
fn the_pure_crates_need_nothing_but_rust() {
    let meta = metadata();
    let found = native(&meta, &["yui-engine", "yui-protocol", "yui-turn"]);
    assert!(found.is_empty(), "the pure crates would need more than Rust through:\n{}", found.join("\n"));
    // The walk does see native code where there is some: the voice's I/O
    // links the sound system's library.
    let voice = native(&meta, &["yui-voice"]);
    assert!(voice.iter().any(|c| c.contains("alsa-sys")), "{voice:?}");
}
