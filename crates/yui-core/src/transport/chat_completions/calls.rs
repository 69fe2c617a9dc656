//! Tool calls assembled from their pieces by `index`.
//!
//! The first piece of a call carries its `id` and `function.name`; the
//! arguments arrive in pieces over many chunks. A call is complete when a
//! piece of another call arrives, when content arrives, on a
//! `finish_reason`, or at the end of the stream. A `generate_express` call
//! takes the segmenter's open text when it begins: that text is the one its
//! cue belongs to.

use super::wire::ToolCallDelta;
use crate::transport::express::{self, Segmenter};

/// A complete call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assembled {
    /// The call id (minted as `call_<index>` when the server sent none).
    pub id: String,
    /// The tool name.
    pub name: String,
    /// The arguments JSON text.
    pub arguments: String,
    /// For `generate_express`: the text streamed before the call began.
    pub taken: Option<String>,
}

#[derive(Debug)]
struct Open {
    index: usize,
    id: Option<String>,
    name: String,
    arguments: String,
    taken: Option<String>,
}

/// The call being assembled.
#[derive(Debug, Default)]
pub struct Calls {
    open: Option<Open>,
    count: usize,
}

impl Calls {
    /// A new assembly for one stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add one piece; answers the call it completed, if any.
    pub fn piece(&mut self, d: &ToolCallDelta, seg: &mut Segmenter) -> Option<Assembled> {
        let same = self.open.as_ref().is_some_and(|o| o.index == d.index && !matches!((&o.id, &d.id), (Some(a), Some(b)) if a != b));
        let done = if same { None } else { self.finish() };
        let open = self.open.get_or_insert_with(|| Open { index: d.index, id: None, name: String::new(), arguments: String::new(), taken: None });
        if open.id.is_none() {
            open.id = d.id.clone().filter(|s| !s.is_empty());
        }
        if let Some(f) = &d.function {
            if let Some(name) = &f.name {
                if open.name.is_empty() {
                    open.name = name.clone();
                }
            }
            if let Some(args) = &f.arguments {
                open.arguments.push_str(args);
            }
        }
        if open.taken.is_none() && express::is_express(&open.name) {
            open.taken = Some(seg.take_text());
        }
        done
    }

    /// Complete the open call, if any.
    pub fn finish(&mut self) -> Option<Assembled> {
        let o = self.open.take()?;
        self.count += 1;
        Some(Assembled { id: o.id.unwrap_or_else(|| format!("call_{}_{}", o.index, self.count)), name: o.name, arguments: o.arguments, taken: o.taken })
    }

    /// The text the open `generate_express` call took from the segmenter,
    /// taken back (the stream ended before the call did: its cue is never
    /// placed).
    pub fn take_back(&mut self) -> Option<String> {
        self.open.as_mut().and_then(|o| o.taken.take()).filter(|t| !t.is_empty())
    }

    /// True while a call is being assembled.
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::chat_completions::wire::FunctionDelta;

    fn d(index: usize, id: Option<&str>, name: Option<&str>, args: &str) -> ToolCallDelta {
        ToolCallDelta { index, id: id.map(str::to_string), function: Some(FunctionDelta { name: name.map(str::to_string), arguments: Some(args.into()) }) }
    }

    #[test]
    fn pieces_assemble_by_index_and_express_takes_the_text_before_it() {
        let mut seg = Segmenter::new();
        let mut calls = Calls::new();
        assert!(seg.text("Hello!").is_empty());
        assert!(calls.piece(&d(0, Some("a"), Some("generate_express"), ""), &mut seg).is_none());
        assert!(seg.text(" later").is_empty());
        assert!(calls.piece(&d(0, None, None, "{\"emotion_id\""), &mut seg).is_none());
        assert!(calls.piece(&d(0, None, None, ":\"happy\"}"), &mut seg).is_none());
        let first = calls.piece(&d(1, Some("b"), Some("look"), "{}"), &mut seg).unwrap();
        assert_eq!(
            first,
            Assembled { id: "a".into(), name: "generate_express".into(), arguments: "{\"emotion_id\":\"happy\"}".into(), taken: Some("Hello!".into()) }
        );
        let second = calls.finish().unwrap();
        assert_eq!((second.id.as_str(), second.taken), ("b", None));
        assert!(calls.finish().is_none());
        assert_eq!(seg.take_text(), " later");
    }

    #[test]
    fn a_new_id_on_the_same_index_is_a_new_call() {
        let mut seg = Segmenter::new();
        let mut calls = Calls::new();
        assert!(calls.piece(&d(0, Some("a"), Some("look"), "{}"), &mut seg).is_none());
        assert_eq!(calls.piece(&d(0, Some("b"), Some("look"), "{}"), &mut seg).unwrap().id, "a");
        assert!(calls.is_open());
    }
}
