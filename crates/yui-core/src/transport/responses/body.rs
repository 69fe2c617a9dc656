//! The request body of one `POST /v1/responses` (`docs/client-context.md`,
//! "Where the block goes").
//!
//! `{ model, stream: true, instructions, input, tools, previous_response_id?,
//! reasoning? }`. `input` is whatever precedes the user item (pending tool
//! outputs on a chain, greetings on a fresh one) and then the user item; a
//! follow-up round sends only the round's `function_call_output` items.

use crate::model::Vocabulary;
use crate::transport::express;
use crate::transport::request::RequestConfig;
use crate::transport::TurnRequest;
use serde_json::{json, Map, Value};

/// The tools of every request in the Responses flat shape: `generate_express`
/// first (its enums from `vocab`), then the configured client tools.
pub fn tools(cfg: &RequestConfig, vocab: &Vocabulary) -> Vec<Value> {
    std::iter::once(express::declaration(vocab)).chain(cfg.tools.iter().cloned()).map(|t| flat_tool(&t)).collect()
}

/// Convert one declaration from the Chat Completions shape
/// (`{type, function: {name, description, parameters}}`) to the Responses
/// shape (`{type: "function", name, description, parameters, strict: false}`).
/// A declaration already flat is kept, with `strict` added when absent.
pub fn flat_tool(tool: &Value) -> Value {
    let Some(f) = tool.get("function").and_then(Value::as_object) else {
        let mut flat = tool.clone();
        if let Some(obj) = flat.as_object_mut() {
            obj.entry("strict").or_insert(json!(false));
        }
        return flat;
    };
    let mut out = Map::new();
    out.insert("type".into(), json!("function"));
    out.insert("name".into(), f.get("name").cloned().unwrap_or(json!("")));
    if let Some(d) = f.get("description") {
        out.insert("description".into(), d.clone());
    }
    out.insert("parameters".into(), f.get("parameters").cloned().unwrap_or_else(|| json!({ "type": "object", "properties": {} })));
    out.insert("strict".into(), json!(false));
    Value::Object(out)
}

/// The user item's text: the post-history block when the card has one, the
/// rendered `<client_context>` block, a blank line, then the utterance (or
/// the background marker).
pub fn user_text(post_history: Option<&str>, turn: &TurnRequest) -> String {
    let mut text = String::new();
    if let Some(ph) = post_history {
        text.push_str("<post_history_instructions>\n");
        text.push_str(ph);
        text.push_str("\n</post_history_instructions>\n");
    }
    text.push_str(&turn.block);
    text.push_str("\n\n");
    text.push_str(&turn.input);
    text
}

/// The one user item that ends a turn's input: plain text, or an
/// `input_text` part followed by one `input_image` part per image.
pub fn user_item(post_history: Option<&str>, turn: &TurnRequest) -> Value {
    let text = user_text(post_history, turn);
    let images = crate::transport::request::urls(&turn.images);
    if images.is_empty() && turn.files.is_empty() {
        return json!({ "role": "user", "content": text });
    }
    let mut parts = vec![json!({ "type": "input_text", "text": text })];
    parts.extend(images.iter().map(|url| json!({ "type": "input_image", "image_url": url })));
    // Files (PDFs from the chat window) as `input_file` parts.
    parts.extend(turn.files.iter().map(|f| json!({ "type": "input_file", "filename": f.name, "file_data": f.data_url() })));
    json!({ "role": "user", "content": parts })
}

/// A greeting the client performed, as history on a fresh chain.
pub fn greeting_item(text: &str) -> Value {
    json!({ "role": "assistant", "content": text })
}

/// The answer to one function call. With images (a `look` at the screen),
/// the output is a part array: the answer as `input_text`, then the pictures
/// as `input_image` parts.
pub fn call_output(call_id: &str, output: &str, images: &[String]) -> Value {
    if images.is_empty() {
        return json!({ "type": "function_call_output", "call_id": call_id, "output": output });
    }
    let mut parts = vec![json!({ "type": "input_text", "text": output })];
    parts.extend(images.iter().map(|url| json!({ "type": "input_image", "image_url": url })));
    json!({ "type": "function_call_output", "call_id": call_id, "output": parts })
}

/// The whole request body.
pub fn request(cfg: &RequestConfig, vocab: &Vocabulary, previous_id: Option<&str>, input: Vec<Value>) -> Value {
    let mut body = json!({
        "model": cfg.model,
        "stream": true,
        "instructions": cfg.instructions,
        "input": input,
        "tools": tools(cfg, vocab),
    });
    if let Some(id) = previous_id {
        body["previous_response_id"] = json!(id);
    }
    if let Some(effort) = cfg.reasoning_effort.as_deref().filter(|e| !e.trim().is_empty()) {
        body["reasoning"] = json!({ "effort": effort });
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn config() -> RequestConfig {
        RequestConfig {
            base_url: "http://127.0.0.1:1".into(),
            key: Default::default(),
            model: "m".into(),
            reasoning_effort: None,
            instructions: "You are Yui.".into(),
            post_history: None,
            tools: vec![
                json!({"type":"function","function":{"name":"address_character","description":"Speak to another character","parameters":{"type":"object","properties":{"character":{"type":"string"}},"required":["character"]}}}),
            ],
            vocabulary: Vocabulary::default(),
            context_window: 8192,
            transcript_path: "/nonexistent".into(),
        }
    }

    fn turn(images: Vec<String>) -> TurnRequest {
        TurnRequest {
            turn_id: "t1".into(),
            block: "<client_context>\ntrigger: user message\n</client_context>".into(),
            text: "hi".into(),
            input: "hi".into(),
            guide: None,
            guide_language: Default::default(),
            images: images.iter().filter_map(|u| crate::transport::request::from_data_url(u)).collect(),
            conversation_id: None,
            regenerate_of: None,
            files: Vec::new(),
        }
    }

    #[test]
    fn tools_are_flat_and_express_comes_first() {
        let cfg = config();
        let t = tools(&cfg, &cfg.vocabulary);
        assert_eq!(t.len(), 2);
        assert_eq!(t[0]["name"], express::NAME);
        assert_eq!(t[0]["type"], "function");
        assert_eq!(t[0]["strict"], false);
        assert!(t[0].get("function").is_none());
        assert_eq!(t[0]["parameters"]["properties"]["emotion_id"]["enum"], json!(cfg.vocabulary.emotion_ids));
        assert_eq!(
            t[1],
            json!({"type":"function","name":"address_character","description":"Speak to another character","parameters":{"type":"object","properties":{"character":{"type":"string"}},"required":["character"]},"strict":false})
        );
        assert_eq!(flat_tool(&json!({"type":"function","name":"x"})), json!({"type":"function","name":"x","strict":false}));
    }

    #[test]
    fn the_user_item_leads_with_post_history() {
        let t = turn(vec![]);
        assert_eq!(user_item(None, &t), json!({"role":"user","content":"<client_context>\ntrigger: user message\n</client_context>\n\nhi"}));
        assert_eq!(
            user_text(Some("Be brief."), &t),
            "<post_history_instructions>\nBe brief.\n</post_history_instructions>\n<client_context>\ntrigger: user message\n</client_context>\n\nhi"
        );
        let with = user_item(None, &turn(vec!["data:image/jpeg;base64,AAAA".into(), "data:image/png;base64,BBBB".into()]));
        assert_eq!(with["content"][0]["type"], "input_text");
        assert_eq!(with["content"][1], json!({"type":"input_image","image_url":"data:image/jpeg;base64,AAAA"}));
        assert_eq!(with["content"][2]["image_url"], "data:image/png;base64,BBBB");
    }

    #[test]
    fn the_body_carries_chain_and_reasoning_only_when_set() {
        let mut cfg = config();
        let b = request(&cfg, &cfg.vocabulary, None, vec![]);
        assert!(b.get("previous_response_id").is_none() && b.get("reasoning").is_none());
        assert_eq!(b["stream"], true);
        assert_eq!(b["instructions"], "You are Yui.");
        cfg.reasoning_effort = Some("low".into());
        let b = request(&cfg, &cfg.vocabulary, Some("resp_1"), vec![call_output("c1", "ok", &[])]);
        assert_eq!(b["previous_response_id"], "resp_1");
        assert_eq!(b["reasoning"], json!({"effort":"low"}));
        assert_eq!(b["input"][0], json!({"type":"function_call_output","call_id":"c1","output":"ok"}));
        let img = call_output("c2", "screen of monitor 0", &["data:x".into()]);
        assert_eq!(img["output"][1], json!({"type":"input_image","image_url":"data:x"}));
    }
}
