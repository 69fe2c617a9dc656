//! No import cycles between the core's top-level modules (`docs/architecture.md`,
//! "Modules and their order"). A top-level module is a file or folder
//! directly under `src/`; module A depends on B when code in A names
//! `crate::B` (a `use`, a path in code, or a group `use crate::{B, ..}`), or
//! `super::B` from A's top file. Comments (doc links included) and string
//! literals do not count. The test reads the sources, finds the strongly
//! connected components of that graph and fails on any of more than one
//! module, naming each edge inside it with a file and line where it is made.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One edge's first witness: file and line.
type Witness = (PathBuf, usize);

/// The graph: module → module it names → where.
type Graph = BTreeMap<String, BTreeMap<String, Witness>>;

/// `src` without comments and string/char literals (each replaced by
/// spaces, newlines kept, so line numbers hold).
fn strip(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, c: u8| out.push(if c == b'\n' { b'\n' } else { b' ' });
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
        } else if c == b'r' && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#')) && (i == 0 || !b[i - 1].is_ascii_alphanumeric() && b[i - 1] != b'_')
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            j += 1;
            while j < b.len() && !b[j..].starts_with(&close) {
                j += 1;
            }
            j = (j + close.len()).min(b.len());
            for &x in &b[i..j] {
                blank(&mut out, x);
            }
            i = j;
        } else if c == b'"' {
            out.push(b' ');
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    blank(&mut out, b[i]);
                    i += 1;
                }
                if i < b.len() {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
            out.push(b' ');
            i += 1;
        } else if c == b'\'' && (b.get(i + 2) == Some(&b'\'') || b.get(i + 1) == Some(&b'\\')) {
            // A char literal ('x', '\n', '\''); a lifetime is left alone.
            let end = b[i + 1..].iter().skip(1).position(|&x| x == b'\'').map(|p| i + 2 + p).unwrap_or(i);
            for &x in &b[i..=end] {
                blank(&mut out, x);
            }
            i = end + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The top-level modules `code` (stripped) names, each with the line of a
/// mention; `top_file` says whether `super::` is the crate root there.
fn named(code: &str, top_file: bool) -> Vec<(String, usize)> {
    let ident = |s: &str| -> String { s.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let mut out = Vec::new();
    let prefixes: &[&str] = if top_file { &["crate::", "super::"] } else { &["crate::"] };
    for prefix in prefixes {
        for (at, _) in code.match_indices(prefix) {
            let boundary = code[..at].chars().last().is_none_or(|c| !c.is_alphanumeric() && c != '_' && c != ':');
            if !boundary {
                continue;
            }
            let line = code[..at].matches('\n').count() + 1;
            let after = &code[at + prefix.len()..];
            let Some(group) = after.strip_prefix('{') else {
                out.push((ident(after), line));
                continue;
            };
            // `use crate::{a, b::{c, d}, e}`: the names at the group's top level.
            let mut depth = 0;
            let mut part = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => out.push((ident(&std::mem::take(&mut part)), line)),
                    _ if depth == 0 => part.push(c),
                    _ => {}
                }
            }
            out.push((ident(&part), line));
        }
    }
    out.retain(|(name, _)| !name.is_empty());
    out
}

/// The graph of the crate whose sources are under `src`.
fn graph(src: &Path) -> Graph {
    let mut tops = BTreeSet::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().unwrap().is_dir() {
            tops.insert(name);
        } else if let Some(stem) = name.strip_suffix(".rs") {
            if stem != "lib" && stem != "main" {
                tops.insert(stem.to_string());
            }
        }
    }
    let mut g: Graph = tops.iter().map(|t| (t.clone(), BTreeMap::new())).collect();
    let mut files = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    for file in files {
        let rel = file.strip_prefix(src).unwrap();
        let mut comps = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned());
        let first = comps.next().unwrap();
        let top = first.strip_suffix(".rs").unwrap_or(&first).to_string();
        if !tops.contains(&top) {
            continue;
        }
        let top_file = rel.components().count() == 1 || rel.ends_with(Path::new(&top).join("mod.rs"));
        let code = strip(&std::fs::read_to_string(&file).unwrap());
        for (name, line) in named(&code, top_file) {
            if name != top && tops.contains(&name) {
                g.get_mut(&top).unwrap().entry(name).or_insert_with(|| (rel.to_path_buf(), line));
            }
        }
    }
    g
}

/// The strongly connected components of more than one node (Tarjan).
fn cycles(g: &BTreeMap<String, BTreeMap<String, Witness>>) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        t.index.insert(v, t.next);
        t.low.insert(v, t.next);
        t.next += 1;
        t.stack.push(v);
        t.on.insert(v);
        let g = t.g;
        for w in g[v].keys() {
            let w = w.as_str();
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut c = Vec::new();
            loop {
                let w = t.stack.pop().unwrap();
                t.on.remove(w);
                c.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if c.len() > 1 {
                c.sort();
                t.out.push(c);
            }
        }
    }
    let mut t = T { g, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), on: BTreeSet::new(), next: 0, out: Vec::new() };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

/// The cycles of `g` as text: each component and the edges inside it.
fn describe(g: &Graph, found: &[Vec<String>]) -> String {
    let mut s = String::new();
    for c in found {
        s.push_str(&format!("a cycle through {} modules: {}\n", c.len(), c.join(", ")));
        for a in c {
            for (b, (file, line)) in &g[a] {
                if c.contains(b) {
                    s.push_str(&format!("  {a} -> {b}   ({}:{line})\n", file.display()));
                }
            }
        }
    }
    s
}

#[test]
fn the_core_has_no_import_cycles_between_its_top_level_modules() {
    // yui-core, and the crates below it (`crates/yui-engine`, `crates/yui-protocol`, `crates/yui-turn`, `crates/yui-voice`, `crates/yui-desktop`).
    for (name, least) in [("yui-core", 10), ("yui-engine", 4), ("yui-protocol", 5), ("yui-turn", 5), ("yui-voice", 5), ("yui-desktop", 2)] {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(name).join("src");
        let g = graph(&src);
        assert!(g.len() >= least, "the modules of {name} were found: {:?}", g.keys().collect::<Vec<_>>());
        let found = cycles(&g);
        assert!(found.is_empty(), "import cycles between top-level modules of crates/{name}/src:\n{}", describe(&g, &found));
    }
}

#[test]
fn the_check_finds_a_cycle_planted_in_a_crate() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir(src.join("chat")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod chat; pub mod event; pub mod limits;").unwrap();
    std::fs::write(src.join("limits.rs"), "// crate::chat in a comment\npub const A: &str = \"crate::event\";\n").unwrap();
    std::fs::write(src.join("event.rs"), "use crate::limits::A;\npub struct E(crate::chat::model::M);\n").unwrap();
    std::fs::write(src.join("chat/mod.rs"), "pub mod model;\n").unwrap();
    std::fs::write(src.join("chat/model.rs"), "use crate::{\n    limits,\n    event::{E, F},\n};\npub struct M;\n").unwrap();
    let g = graph(src);
    assert_eq!(g["limits"].len(), 0, "comments and strings name nothing: {g:?}");
    assert_eq!(g["event"].keys().collect::<Vec<_>>(), ["chat", "limits"]);
    assert_eq!(g["chat"].keys().collect::<Vec<_>>(), ["event", "limits"]);
    let found = cycles(&g);
    assert_eq!(found, [vec!["chat".to_string(), "event".to_string()]]);
    let text = describe(&g, &found);
    assert!(text.contains("chat -> event   (chat/model.rs:1)") && text.contains("event -> chat   (event.rs:2)"), "{text}");
    // Cut the edge: no cycle.
    std::fs::write(src.join("chat/model.rs"), "use crate::limits;\npub struct M;\n").unwrap();
    assert!(cycles(&graph(src)).is_empty());
}
