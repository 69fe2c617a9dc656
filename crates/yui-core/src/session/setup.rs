//! What a session is built from: the transport its settings name, the
//! engine, the context sampler and the stores.

use super::SessionConfig;
use crate::context::{render, user_input, BodyState, ClientContext, Env, Posture, PostureState, ScreenSource, Screenshot};
use crate::data_dir::character_key;
use crate::error::CoreError;
use crate::outcome::OutcomeStore;
use crate::picture::Picture;
use crate::relations::RelationStore;
use crate::settings::{push_url, ChatApi};
use crate::settings::{LiveSettings, ScreenChoice};
use crate::tools::{Declared, Shot};
use crate::transport::{push, request::RequestConfig, Inbound, Link, Outbound, TurnRequest};
use crate::turn::{Begin, Engine, EngineConfig};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// A transport task, ready to spawn.
pub(super) type TransportTask = Pin<Box<dyn Future<Output = ()> + Send>>;

/// The pieces [`super::Session::start`] wires together.
pub(super) struct Parts {
    pub engine: Engine,
    pub transport: TransportTask,
    pub transport_name: &'static str,
    pub outbound: mpsc::UnboundedSender<Outbound>,
    pub inbound: mpsc::UnboundedReceiver<Inbound>,
    pub outcomes: OutcomeStore,
    pub sampler: Sampler,
    pub relations: Arc<RelationStore>,
    pub body: Arc<Mutex<BodyState>>,
    pub speaker: crate::speech::speaker::Speaker,
    /// Why the voice fell back, for the user.
    pub voice_notice: Option<crate::speech::voices::NoSound>,
    /// The `frontmost:` line the world publishes and the sampler reads.
    pub frontmost: Arc<Mutex<Option<crate::context::Frontmost>>>,
}

/// Samples what a turn's client_context block says and renders it.
pub(super) struct Sampler {
    /// The body's state (standing since the session started until the body moves).
    pub body: Arc<Mutex<BodyState>>,
    /// The user's name, for the card.
    user_name: Option<String>,
    /// The settings read when a turn starts (screenshot, switches).
    pub live: LiveSettings,
    /// This character's relations.
    relations: Arc<RelationStore>,
    /// The tools this window declares (their switches make a line).
    declared: Declared,
    /// The `frontmost:` line as the world last read it.
    pub frontmost: Arc<Mutex<Option<crate::context::Frontmost>>>,
}

/// The screenshot a turn attaches: what to capture and how the
/// `screenshot source:` line names it.
#[derive(Debug, Clone)]
pub(super) struct TurnShot {
    pub shot: Shot,
    pub source: ScreenSource,
}

/// What the other open characters give a turn's block: the `overheard`
/// blocks, and their names in registry order (the order of the relation
/// lines after the user's).
#[derive(Debug, Clone, Default)]
pub(super) struct TurnCompany {
    pub overheard: Vec<crate::context::Overheard>,
    pub others: Vec<String>,
}

impl Sampler {
    /// The screenshot the next turn attaches, when the setting is on. A
    /// display's label is filled in when it is captured (the list is read
    /// off the loop).
    pub fn turn_shot(&self) -> Option<TurnShot> {
        let shot = self.live.read(|s| s.character.screenshot.enabled.then(|| s.character.screenshot.source.clone()))?;
        Some(match shot {
            ScreenChoice::Monitor { index } => {
                TurnShot { shot: Shot::Display(index), source: ScreenSource::Monitor { index: Some(index as i64), label: None } }
            }
            ScreenChoice::Window { app, title } => TurnShot {
                source: ScreenSource::Window { app: Some(app.clone()).filter(|a| !a.is_empty()), title: Some(title.clone()).filter(|t| !t.is_empty()) },
                shot: Shot::Window { app, title },
            },
        })
    }

    /// The turn request for `begin`, rendered at `wall_ms`, with the
    /// screenshot `shot` names (its pictures in `images`).
    pub fn turn(&self, begin: &Begin, wall_ms: i64, shot: Option<&TurnShot>, images: Vec<Picture>, company: TurnCompany) -> TurnRequest {
        let mut ctx = ClientContext::user_message(&begin.text, 0);
        if let Some(trigger) = &begin.trigger {
            // A turn nobody typed: its trigger, and no utterance (the block
            // then ends with the trigger's background marker).
            ctx.trigger = (**trigger).clone();
            ctx.user_text = None;
        } else {
            // A message of the chat of several characters says whom it was for.
            ctx.trigger.addressed_to = begin.addressed;
            // A help request names the guide that answers it.
            ctx.trigger.guide = begin.guide;
        }
        ctx.body_state = self.body.lock().unwrap_or_else(|p| p.into_inner()).clone();
        if let Some(cause) = begin.wake {
            ctx.trigger.wake = Some(crate::context::Wake { cause: Some(cause) });
        }
        if ctx.trigger.wake.is_some() {
            // A turn that carries a wake reads `lying, getting up now`, even
            // when the wake clip ended before the block was rendered.
            ctx.body_state.posture = Posture { state: PostureState::Lying, perched_on: None };
            ctx.body_state.waking = true;
        }
        ctx.env = Env::local_at(wall_ms);
        ctx.env.frontmost = self.frontmost.lock().unwrap_or_else(|p| p.into_inner()).clone();
        ctx.previous_turn = begin.previous.clone();
        ctx.user_name = self.user_name.clone();
        let settings = self.live.read(|s| s.clone());
        // The guide goes in the UI language (English for one without its own).
        if ctx.trigger.guide.is_some() && ctx.trigger.guide_language.is_none() {
            ctx.trigger.guide_language = Some(crate::context::GuideLanguage::of(&settings.user.language));
        }
        ctx.screenshot = shot.map(|s| Screenshot { enabled: true, source: Some(s.source.clone()) });
        ctx.tool_switches = self.declared.switches(&settings);
        if settings.character.relations {
            ctx.relations = crate::relations::in_registry_order(self.relations.context(), &company.others);
        }
        ctx.overheard = company.overheard;
        let block = render(&ctx, wall_ms);
        TurnRequest {
            turn_id: begin.turn_id.clone(),
            block,
            text: begin.text.clone(),
            input: user_input(&ctx),
            guide: ctx.trigger.guide,
            guide_language: ctx.trigger.guide_language.unwrap_or_default(),
            images,
            conversation_id: None,
            regenerate_of: None,
            files: Vec::new(),
        }
    }
}

pub(super) fn build(config: &SessionConfig, cancel: CancellationToken) -> Result<Parts, CoreError> {
    let SessionConfig { settings, data_dir, vocabulary, timeouts, clock, desk, live, audio, lips, persist, .. } = config;
    let (out_tx, out_rx) = mpsc::unbounded_channel();
    let (in_tx, in_rx) = mpsc::unbounded_channel();
    let link = Link { outbound: out_rx, inbound: in_tx, cancel };
    let outcomes = OutcomeStore::new(data_dir, &settings.character.vrm).writing_through(persist.clone());
    let now = clock.now_ms();
    let declared = Declared::of(&**desk);
    let tools = crate::tools::declarations(declared);
    let (transport, name, greetings): (TransportTask, &'static str, Vec<String>) = match settings.character.chat_api {
        ChatApi::Push => {
            let cfg = push::PushConfig {
                url: push_url(&settings.character.chat_base_url)?,
                key: settings.character.key.clone(),
                chat_id: data_dir.chat_id()?,
                vocabulary: vocabulary.clone(),
                tools,
                timeouts: *timeouts,
            };
            (Box::pin(push::run(cfg, link)), "push", Vec::new())
        }
        // A request transport too (`Status::Stateless`), but the engine owns
        // the agent: no tools are declared for now (neither generate_express
        // nor the client tools), no card is sent, no greetings are kept.
        ChatApi::AgentChat => {
            settings.validate()?;
            let cfg = crate::transport::agent_chat::AgentChatConfig {
                base_url: settings.character.chat_base_url.clone(),
                key: settings.character.key.clone(),
                conversation_id: Some(data_dir.chat_id()?),
                stop_wait: crate::limits::AGENT_CHAT_STOP_CONFIRM_WAIT,
            };
            (Box::pin(crate::transport::agent_chat::run(cfg, link)), ChatApi::AgentChat.as_str(), Vec::new())
        }
        api => {
            settings.validate()?;
            // With several characters open, the card speaks as the name
            // she has among them.
            let persona = Persona::of(settings, data_dir, config.seat.as_ref().map(|s| s.name()));
            let cfg = RequestConfig {
                base_url: settings.character.chat_base_url.clone(),
                key: settings.character.key.clone(),
                model: settings.character.model.clone(),
                reasoning_effort: Some(settings.character.reasoning_effort.trim().to_string()).filter(|e| !e.is_empty()),
                instructions: persona.instructions,
                post_history: persona.post_history,
                tools,
                vocabulary: vocabulary.clone(),
                context_window: settings.character.context_window,
                transcript_path: data_dir.root().join("transcripts").join(format!("{}.jsonl", character_key(&settings.character.vrm))),
            };
            let task: TransportTask = match api {
                ChatApi::Responses => Box::pin(crate::transport::responses::run(cfg, link)),
                _ => Box::pin(crate::transport::chat_completions::run(cfg, link)),
            };
            (task, api.as_str(), persona.greetings)
        }
    };
    let request = settings.character.chat_api != ChatApi::Push;
    let engine = Engine::new(EngineConfig {
        transport: name,
        frame_wait: if request { timeouts.stream_idle } else { timeouts.frame_wait },
        speech_wait: request.then_some(timeouts.stream_idle_after_speech),
        first_turn_id: now.max(1) as u64,
        greetings,
        previous: outcomes.load(),
        vocabulary: vocabulary.clone(),
        filler: settings.character.voice.filler.then(|| crate::speech::filler::FillerLines::for_locale(&settings.user.language)),
    });
    let (speaker, voice_notice) = crate::speech::voices::speaker_for(&settings.character.voice, *audio, lips.clone());
    let body = Arc::new(Mutex::new(BodyState { posture: Posture { state: PostureState::Standing, perched_on: None }, since: now, waking: false }));
    let relations = Arc::new(RelationStore::open(data_dir, &settings.character.vrm).writing_through(persist.clone()));
    let frontmost = Arc::new(Mutex::new(None));
    let sampler = Sampler {
        body: body.clone(),
        user_name: Some(settings.user.user_name.trim().to_string()).filter(|n| !n.is_empty()),
        live: live.clone(),
        relations: relations.clone(),
        declared,
        frontmost: frontmost.clone(),
    };
    Ok(Parts {
        engine,
        transport,
        transport_name: name,
        outbound: out_tx,
        inbound: in_rx,
        outcomes,
        sampler,
        relations,
        body,
        speaker,
        voice_notice,
        frontmost,
    })
}

/// What the card gives a request transport: the instructions, the
/// post-history block and the greetings (`docs/character.md`, "The persona (card)").
struct Persona {
    instructions: String,
    post_history: Option<String>,
    greetings: Vec<String>,
}

impl Persona {
    /// The character's stored card, or the default card of the UI
    /// language, speaking as `name` when given (else the card's own name);
    /// with the card off, `chat_instructions` alone and no greetings.
    fn of(settings: &crate::settings::Settings, data_dir: &crate::data_dir::DataDir, name: Option<&str>) -> Persona {
        use crate::card::{self, CardStore, Names};
        let lang = settings.user.language.clone();
        let names = Names {
            char_name: name.unwrap_or_default().to_string(),
            user_name: Some(settings.user.user_name.trim().to_string()).filter(|n| !n.is_empty()),
            lang: lang.clone(),
        };
        if !settings.character.card_enabled {
            return Persona {
                instructions: card::instructions(None, &names, &settings.character.chat_instructions),
                post_history: None,
                greetings: Vec::new(),
            };
        }
        let c = card::current(&CardStore::new(data_dir, &settings.character.vrm), &lang);
        Persona {
            instructions: card::instructions(Some(&c), &names, &settings.character.chat_instructions),
            post_history: card::post_history(&c, &names),
            greetings: card::greetings(&c, &names),
        }
    }
}
