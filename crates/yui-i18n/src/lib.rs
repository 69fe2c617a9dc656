//! The words of YUI's interface in every language it speaks
//! (`docs/i18n.md`).
//!
//! One Fluent catalog per language lives in `locales/<language>/`, split into
//! a file per window (`pet.ftl`, `chat.ftl`, `settings.ftl`, …). The
//! TypeScript side (`ui/src/i18n/`) reads the same files with
//! `@fluent/bundle`; this crate reads them with `fluent-bundle` for what the
//! shell shows itself (the tray menu). A message missing from a language
//! falls back to English; `tests/catalog.rs` fails when any language lacks a
//! message, an attribute or a variable another one has.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};
use fluent_syntax::ast;

/// The languages the interface speaks, English first.
pub const LANGUAGES: [&str; 3] = ["en", "ja", "ko"];

/// The language a missing message falls back to.
pub const FALLBACK: &str = "en";

/// One catalog file, embedded at build time.
#[derive(Debug, Clone, Copy)]
pub struct CatalogFile {
    /// Its language (`en`, `ja`, `ko`): the folder it sits in.
    pub language: &'static str,
    /// Its file name (`shell.ftl`).
    pub name: &'static str,
    /// Its Fluent text.
    pub source: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/catalog.rs"));

/// Every catalog file of every language, sorted by language then name.
pub fn files() -> &'static [CatalogFile] {
    FILES
}

/// `language` when the interface speaks it, else English.
pub fn supported(language: &str) -> &'static str {
    LANGUAGES.iter().find(|l| **l == language).copied().unwrap_or(FALLBACK)
}

/// The formatted messages of one language.
pub struct Words {
    language: &'static str,
    bundle: FluentBundle<FluentResource>,
}

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Words").field("language", &self.language).finish_non_exhaustive()
    }
}

/// The words of `language` (English for a language the interface does not
/// speak), built once.
pub fn words(language: &str) -> &'static Words {
    static BUNDLES: [OnceLock<Words>; LANGUAGES.len()] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let language = supported(language);
    let index = LANGUAGES.iter().position(|l| *l == language).unwrap_or(0);
    BUNDLES[index].get_or_init(|| Words::build(LANGUAGES[index]))
}

impl Words {
    fn build(language: &'static str) -> Self {
        let id: unic_langid::LanguageIdentifier = language.parse().unwrap_or_default();
        let mut bundle = FluentBundle::new_concurrent(vec![id]);
        // The interface's languages all run left to right: no isolation marks.
        bundle.set_use_isolating(false);
        for file in FILES.iter().filter(|f| f.language == language) {
            let resource = match FluentResource::try_new(file.source.to_string()) {
                Ok(resource) => resource,
                Err((resource, errors)) => {
                    tracing::error!(language, file = file.name, ?errors, "catalog file has syntax errors; the rest of it is used");
                    resource
                }
            };
            if let Err(errors) = bundle.add_resource(resource) {
                tracing::error!(language, file = file.name, ?errors, "catalog file repeats a message");
            }
        }
        Words { language, bundle }
    }

    /// This catalog's language.
    pub fn language(&self) -> &'static str {
        self.language
    }

    /// Whether this language has message `id`.
    pub fn has(&self, id: &str) -> bool {
        self.bundle.has_message(id)
    }

    /// Message `id` in this language (English when this language lacks it;
    /// the id itself, logged, when English lacks it too).
    pub fn text(&self, id: &str) -> String {
        self.text_with(id, &[])
    }

    /// Message `id` with its variables `args` (`{ $name }` in the catalog).
    pub fn text_with(&self, id: &str, args: &[(&str, &str)]) -> String {
        let Some(pattern) = self.bundle.get_message(id).and_then(|m| m.value()) else {
            if self.language != FALLBACK {
                return words(FALLBACK).text_with(id, args);
            }
            tracing::error!(id, "no such message in the catalog");
            return id.to_string();
        };
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            fluent_args.set(*name, *value);
        }
        let mut errors = Vec::new();
        let text = self.bundle.format_pattern(pattern, Some(&fluent_args), &mut errors).into_owned();
        if !errors.is_empty() {
            tracing::warn!(language = self.language, id, ?errors, "a message did not format cleanly");
        }
        text
    }
}

/// What one message of a catalog file holds: its id, its attributes and the
/// variables it uses (anywhere, selectors included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outline {
    /// The message id (`tray-quit`); terms start with `-`.
    pub id: String,
    /// Its attribute names (`title`, `aria-label`), sorted.
    pub attributes: BTreeSet<String>,
    /// The variables it uses (`name`, `count`), sorted.
    pub variables: BTreeSet<String>,
}

/// The messages and terms of one Fluent text, in order, and its syntax
/// errors as text (empty when it parses cleanly).
pub fn outline(source: &str) -> (Vec<Outline>, Vec<String>) {
    let (resource, errors) = match fluent_syntax::parser::parse(source) {
        Ok(resource) => (resource, Vec::new()),
        Err((resource, errors)) => (resource, errors.iter().map(|e| format!("{e:?}")).collect()),
    };
    let mut out = Vec::new();
    for entry in &resource.body {
        let (id, value, attributes) = match entry {
            ast::Entry::Message(m) => (m.id.name.to_string(), m.value.as_ref(), &m.attributes),
            ast::Entry::Term(t) => (format!("-{}", t.id.name), Some(&t.value), &t.attributes),
            _ => continue,
        };
        let mut variables = BTreeSet::new();
        if let Some(value) = value {
            pattern_variables(value, &mut variables);
        }
        for attribute in attributes {
            pattern_variables(&attribute.value, &mut variables);
        }
        out.push(Outline { id, attributes: attributes.iter().map(|a| a.id.name.to_string()).collect(), variables });
    }
    (out, errors)
}

fn pattern_variables(pattern: &ast::Pattern<&str>, into: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            expression_variables(expression, into);
        }
    }
}

fn expression_variables(expression: &ast::Expression<&str>, into: &mut BTreeSet<String>) {
    match expression {
        ast::Expression::Select { selector, variants } => {
            inline_variables(selector, into);
            for variant in variants {
                pattern_variables(&variant.value, into);
            }
        }
        ast::Expression::Inline(inline) => inline_variables(inline, into),
    }
}

fn inline_variables(inline: &ast::InlineExpression<&str>, into: &mut BTreeSet<String>) {
    match inline {
        ast::InlineExpression::VariableReference { id } => {
            into.insert(id.name.to_string());
        }
        ast::InlineExpression::FunctionReference { arguments, .. } => {
            for argument in &arguments.positional {
                inline_variables(argument, into);
            }
            for named in &arguments.named {
                inline_variables(&named.value, into);
            }
        }
        ast::InlineExpression::Placeable { expression } => expression_variables(expression, into),
        _ => {}
    }
}
