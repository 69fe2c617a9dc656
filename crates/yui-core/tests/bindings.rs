//! The TypeScript types of the UI boundary are generated from these Rust types
//! and committed at `ui/src/bindings/index.ts`. This test fails when the
//! committed file is stale; `UPDATE_BINDINGS=1 cargo test -p yui-core --test bindings`
//! rewrites it.

use ts_rs::{Config, TS};
use yui_core::model::{DelegationState, ToolState};
use yui_core::{ChatApi, Cue, DelegationItem, ErrorCode, Settings, Status, TurnOutcome, UiEvent, Usage, UserCommand};

fn decl<T: TS>(cfg: &Config) -> String {
    let docs = T::docs().unwrap_or_default();
    format!("{docs}export {}\n", T::decl(cfg))
}

fn generate() -> String {
    let cfg = Config::new().with_large_int("number");
    let parts = [
        decl::<UiEvent>(&cfg),
        decl::<UserCommand>(&cfg),
        decl::<Status>(&cfg),
        decl::<yui_core::command::Touch>(&cfg),
        decl::<yui_core::context::PostureState>(&cfg),
        decl::<yui_core::body::BedView>(&cfg),
        decl::<yui_core::body::BedEntry>(&cfg),
        decl::<yui_core::body::BedPhase>(&cfg),
        decl::<yui_core::body::Gait>(&cfg),
        decl::<yui_core::body::Side>(&cfg),
        decl::<yui_core::event::PeekView>(&cfg),
        decl::<yui_core::event::Phrase>(&cfg),
        decl::<yui_core::command::DragPhase>(&cfg),
        decl::<yui_core::command::PagePoint>(&cfg),
        decl::<yui_core::command::Addressee>(&cfg),
        decl::<yui_core::command::HelpGuide>(&cfg),
        decl::<yui_core::world::stage::StageReport>(&cfg),
        decl::<yui_core::world::stage::StageCheck>(&cfg),
        decl::<yui_core::world::stage::InputRect>(&cfg),
        decl::<yui_core::world::stage::StageSession>(&cfg),
        decl::<yui_core::settings::BedSettings>(&cfg),
        decl::<Cue>(&cfg),
        decl::<Usage>(&cfg),
        decl::<ToolState>(&cfg),
        decl::<DelegationState>(&cfg),
        decl::<DelegationItem>(&cfg),
        decl::<TurnOutcome>(&cfg),
        decl::<ErrorCode>(&cfg),
        decl::<ChatApi>(&cfg),
        decl::<Settings>(&cfg),
        decl::<yui_core::settings::CharacterSettings>(&cfg),
        decl::<yui_core::settings::UserSettings>(&cfg),
        decl::<yui_core::settings::Secret>(&cfg),
        decl::<yui_core::Vocabulary>(&cfg),
        decl::<yui_core::character::CharacterInfo>(&cfg),
        decl::<yui_core::character::VrmVersion>(&cfg),
        decl::<yui_core::context_log::SentContext>(&cfg),
        decl::<yui_core::keystore::KeyPlace>(&cfg),
        decl::<yui_core::probe::ProbeReport>(&cfg),
        decl::<yui_core::probe::ProbeProblem>(&cfg),
        decl::<yui_core::providers::Provider>(&cfg),
        decl::<yui_core::discover::FoundServer>(&cfg),
        decl::<yui_core::discover::ServerKind>(&cfg),
        decl::<yui_core::voice_setup::VoiceChoices>(&cfg),
        decl::<yui_core::voice_setup::FoundVoiceServer>(&cfg),
        decl::<yui_core::voice_setup::VoiceServerKind>(&cfg),
        decl::<yui_core::voice_setup::VoicePick>(&cfg),
        decl::<yui_core::voice_setup::VoiceReport>(&cfg),
        decl::<yui_core::voice_setup::VoiceProblem>(&cfg),
        decl::<yui_core::settings::ScreenshotSettings>(&cfg),
        decl::<yui_core::settings::ScreenChoice>(&cfg),
        decl::<yui_core::settings::VoiceSettings>(&cfg),
        decl::<yui_core::settings::ChatSettings>(&cfg),
        decl::<yui_core::settings::IngressSettings>(&cfg),
        decl::<yui_core::settings::IngressInfo>(&cfg),
        decl::<yui_core::settings::ReactionsSettings>(&cfg),
        decl::<yui_core::triggers::pacing::PacingSettings>(&cfg),
        decl::<yui_core::event::VoiceState>(&cfg),
        decl::<yui_core::relations::RelationRecord>(&cfg),
        decl::<yui_core::presets::Presets>(&cfg),
        decl::<yui_core::presets::PresetEntry>(&cfg),
        decl::<yui_core::presets::PresetChange>(&cfg),
        decl::<yui_core::picture::capture::Display>(&cfg),
        decl::<yui_core::chat::ChatEvent>(&cfg),
        decl::<yui_core::chat::Latency>(&cfg),
        decl::<yui_core::chat::ApprovalDecision>(&cfg),
        decl::<yui_core::chat::Conversation>(&cfg),
        decl::<yui_core::chat::ConversationSummary>(&cfg),
        decl::<yui_core::chat::ChatPage>(&cfg),
        decl::<yui_core::chat::SearchHit>(&cfg),
        decl::<yui_core::chat::ChatMessage>(&cfg),
        decl::<yui_core::chat::Role>(&cfg),
        decl::<yui_core::chat::Answer>(&cfg),
        decl::<yui_core::chat::AnswerState>(&cfg),
        decl::<yui_core::chat::ToolCard>(&cfg),
        decl::<yui_core::chat::ToolCardState>(&cfg),
        decl::<yui_core::chat::ApprovalCard>(&cfg),
        decl::<yui_core::chat::ApprovalState>(&cfg),
        decl::<yui_core::chat::UsageLine>(&cfg),
        decl::<yui_core::chat::ErrorCard>(&cfg),
        decl::<yui_core::chat::Attachment>(&cfg),
    ];
    format!(
        "// Generated from yui-core by crates/yui-core/tests/bindings.rs. Do not edit.\n// Regenerate: UPDATE_BINDINGS=1 cargo test -p yui-core --test bindings\n\n{}",
        parts.join("\n")
    )
}

#[test]
fn typescript_bindings_are_current() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/bindings/index.ts");
    let fresh = generate();
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        std::fs::write(&path, &fresh).expect("write bindings");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(committed == fresh, "ui/src/bindings/index.ts is stale: run `UPDATE_BINDINGS=1 cargo test -p yui-core --test bindings` and commit it");
    for name in ["UiEvent", "UserCommand", "Status", "Cue"] {
        assert!(fresh.contains(&format!("export type {name} ")), "{name} missing from the bindings");
    }
}
