//! Several characters on one desktop (`docs/characters.md`): the names of
//! the open characters in registry order (main first), the rules a name
//! follows, and where a line of the chat of several characters goes
//! (`@Name text`, `@everyone text`, or a plain line for main).
//!
//! Pure: no session, socket or file. The CLI and the app hold one session
//! per open character and route each line with [`Cast::route`].

use std::fmt;

/// The word that addresses every open character; no character may be named so.
pub const EVERYONE: &str = "everyone";

/// Why a name cannot be a character's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Empty, or only spaces.
    #[error("a character needs a name")]
    Empty,
    /// `everyone` (any case): it addresses every character.
    #[error("\"{0}\" cannot be a character's name: @everyone addresses every character")]
    Reserved(String),
    /// Another open character has it already (names are compared without case).
    #[error("two characters cannot both be named \"{0}\" (names are compared without case)")]
    Taken(String),
    /// It starts with `@` or holds a line break: it could not be typed after `@`.
    #[error("\"{0}\" cannot be a character's name: no @ in front and no line breaks")]
    Unwritable(String),
    /// More characters than may be open at once.
    #[error("at most {0} characters can be open at once")]
    TooMany(usize),
}

/// The open characters, in registry order: main first, then the others in
/// the order the user put them (the Characters section; in the CLI, the
/// order of the `--character` flags).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cast {
    names: Vec<String>,
}

/// Where one line of the chat of several characters goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// A plain line: to main, as typed in its own composer (no suffix).
    Main {
        /// The line.
        text: String,
    },
    /// `@Name text`: to that character, `(addressed to the character)`.
    One {
        /// The character's place in the registry.
        index: usize,
        /// The line as typed, `@Name` included.
        text: String,
    },
    /// `@everyone text`: to every character in registry order, each after
    /// the one before has finished its reply, `(addressed to everyone)`.
    Everyone {
        /// The line as typed, `@everyone` included.
        text: String,
    },
}

/// A line that addressed a name no open character has: refused, nothing is sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no open character is named \"{name}\" (open: {open}); nothing was sent")]
pub struct UnknownName {
    /// The name as typed after `@`.
    pub name: String,
    /// The open characters' names, comma-separated.
    pub open: String,
}

impl Cast {
    /// The characters named `names`, main first: at most
    /// [`OPEN_CHARACTERS_MAX`](crate::limits::OPEN_CHARACTERS_MAX). Each name
    /// is trimmed and must be one a character can have, and differ from the
    /// others without case.
    pub fn new<S: AsRef<str>>(names: &[S]) -> Result<Self, NameError> {
        if names.len() > crate::limits::OPEN_CHARACTERS_MAX {
            return Err(NameError::TooMany(crate::limits::OPEN_CHARACTERS_MAX));
        }
        let mut cast = Self { names: Vec::with_capacity(names.len()) };
        for name in names {
            let name = check_name(name.as_ref())?;
            if cast.index_of(&name).is_some() {
                return Err(NameError::Taken(name));
            }
            cast.names.push(name);
        }
        if cast.names.is_empty() {
            return Err(NameError::Empty);
        }
        Ok(cast)
    }

    /// The names in registry order, main first.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Main's name.
    pub fn main(&self) -> &str {
        &self.names[0]
    }

    /// How many characters are open.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Never true: a cast has main at least.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The registry place of the character named `name` (without case).
    pub fn index_of(&self, name: &str) -> Option<usize> {
        let name = name.trim();
        self.names.iter().position(|n| same_name(n, name))
    }

    /// The other open characters as `character`'s tools see them: every
    /// name but its own, in registry order.
    pub fn others(&self, character: &str) -> Vec<String> {
        self.names.iter().filter(|n| !same_name(n, character)).cloned().collect()
    }

    /// Where `line` goes. `@` followed by an open character's name (or
    /// `everyone`) and then a space, punctuation or the end addresses it;
    /// the longest name that fits wins (`@Ann Marie` before `@Ann`). A line
    /// that starts with `@` and a word no character has is refused.
    pub fn route(&self, line: &str) -> Result<Route, UnknownName> {
        let text = line.trim_end_matches(['\r', '\n']).to_string();
        let Some(after) = text.trim_start().strip_prefix('@') else {
            return Ok(Route::Main { text });
        };
        if starts_with_name(after, EVERYONE) {
            return Ok(Route::Everyone { text });
        }
        let best = (0..self.names.len()).filter(|&i| starts_with_name(after, &self.names[i])).max_by_key(|&i| self.names[i].chars().count());
        match best {
            Some(index) => Ok(Route::One { index, text }),
            None => Err(UnknownName {
                name: after.split(|c: char| c.is_whitespace() || is_name_end(c)).next().unwrap_or("").to_string(),
                open: self.names.join(", "),
            }),
        }
    }
}

impl fmt::Display for Cast {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.names.join(", "))
    }
}

/// The name trimmed, when a character may have it.
pub fn check_name(name: &str) -> Result<String, NameError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if same_name(name, EVERYONE) {
        return Err(NameError::Reserved(name.to_string()));
    }
    if name.starts_with('@') || name.contains(['\n', '\r']) {
        return Err(NameError::Unwritable(name.to_string()));
    }
    Ok(name.to_string())
}

/// True when `a` and `b` name the same character: compared without case.
pub fn same_name(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// True when `after` (what follows an `@`) starts with `name` (without
/// case) and the name ends there: at the end, a space or punctuation.
fn starts_with_name(after: &str, name: &str) -> bool {
    let mut rest = after.chars();
    for want in name.chars() {
        match rest.next() {
            Some(got) if got.to_lowercase().eq(want.to_lowercase()) => {}
            _ => return false,
        }
    }
    rest.next().is_none_or(|c| c.is_whitespace() || is_name_end(c))
}

/// Punctuation that may follow a name: `@Yui, hello`, `@Yui: hi`.
fn is_name_end(c: char) -> bool {
    matches!(c, ',' | ':' | ';' | '.' | '!' | '?' | ')' | '、' | '。' | '，' | '：')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cast() -> Cast {
        Cast::new(&["Yui", "Ann", "Ann Marie", "user"]).unwrap()
    }

    #[test]
    fn names_are_checked_and_compared_without_case() {
        assert_eq!(Cast::new(&["Yui", "yui"]), Err(NameError::Taken("yui".into())));
        assert_eq!(Cast::new(&["Yui", "EveryOne"]), Err(NameError::Reserved("EveryOne".into())));
        assert_eq!(Cast::new(&["  "]), Err(NameError::Empty));
        assert_eq!(Cast::new::<&str>(&[]), Err(NameError::Empty));
        assert_eq!(Cast::new(&["@Yui"]), Err(NameError::Unwritable("@Yui".into())));
        let six = ["A", "B", "C", "D", "E", "F"];
        assert!(Cast::new(&six).is_ok(), "six open at once");
        assert_eq!(Cast::new(&["A", "B", "C", "D", "E", "F", "G"]), Err(NameError::TooMany(6)));
        let c = cast();
        assert_eq!(c.main(), "Yui");
        assert_eq!(c.index_of("ANN"), Some(1));
        assert_eq!(c.others("yui"), vec!["Ann", "Ann Marie", "user"]);
        assert_eq!(c.to_string(), "Yui, Ann, Ann Marie, user");
    }

    #[test]
    fn lines_route_to_main_one_or_everyone() {
        let c = cast();
        assert_eq!(c.route("hello\n"), Ok(Route::Main { text: "hello".into() }));
        assert_eq!(c.route("mail me @Ann"), Ok(Route::Main { text: "mail me @Ann".into() }));
        assert_eq!(c.route("@ann hi"), Ok(Route::One { index: 1, text: "@ann hi".into() }));
        assert_eq!(c.route("@Ann, hi"), Ok(Route::One { index: 1, text: "@Ann, hi".into() }));
        assert_eq!(c.route("@Ann Marie what now?"), Ok(Route::One { index: 2, text: "@Ann Marie what now?".into() }));
        assert_eq!(c.route("@user are you there"), Ok(Route::One { index: 3, text: "@user are you there".into() }));
        assert_eq!(c.route("@Everyone good night"), Ok(Route::Everyone { text: "@Everyone good night".into() }));
        assert_eq!(c.route("@yui"), Ok(Route::One { index: 0, text: "@yui".into() }));
    }

    #[test]
    fn an_unknown_name_is_refused() {
        let c = cast();
        let err = c.route("@Annie hi").unwrap_err();
        assert_eq!(err.name, "Annie");
        assert_eq!(err.to_string(), "no open character is named \"Annie\" (open: Yui, Ann, Ann Marie, user); nothing was sent");
        assert_eq!(c.route("@everyones hi").unwrap_err().name, "everyones");
        assert_eq!(c.route("@ hi").unwrap_err().name, "");
    }
}
