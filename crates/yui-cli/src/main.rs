//! `yui-cli`: a headless YUI client on the same core as the app.
//!
//! Every core event goes to stdout as one JSON object per line. Each stdin
//! line is one user turn, except the commands:
//!
//! * `/quit`, `/stop`, `/reset`, `/reconnect`;
//! * `/approve <approval_id>`, `/always <approval_id>`, `/deny <approval_id>`:
//!   answer an approval card (the `approval_id` of a `chat` line whose
//!   event is `approval_request`);
//! * `/regenerate [msg_id]`: answer an assistant message again (without an
//!   id: the `msg_id` of the last `chat` `start` line printed so far);
//! * `/version <msg_id> <n>`: show version `n` (0-based) of a message;
//! * `/fork <msg_id>`: a new conversation with the messages up to `msg_id`;
//! * `/delete <msg_id>`: delete a message.
//!
//! An unknown `/command` (or one with missing or bad arguments) prints an
//! error line to stderr and the run goes on; a line starting with `//` is
//! sent as text without its first `/`. Connection problems also go to stderr. `--set KEY=VALUE` overrides a
//! setting for the run (the tool switches, the turn screenshot, the voice:
//! `tts.base_url`, `tts.model`, `tts.voice`, `tts.key`, `tts.speed`, `voice=off`).
//! Speech plays through the default sound device (`--set audio=null` keeps
//! real timing from each sentence's decoded length and plays nothing;
//! `--set audio=none` makes no voice at all); a `speech` line is printed when
//! a sentence starts playing and a `speech_done` line when it ends. Exits 0
//! on `/quit` or EOF, after the running turn ends or its wait passes and
//! what was said has played.
//!
//! `--character NAME` (repeatable) opens several characters
//! (`docs/characters.md`), the first main, each with its own session,
//! `chat_id` and files (`<data-dir>/characters/<name>/`; the character of
//! the data directory's card keeps the directory itself), all on the
//! connection flags. Then `@NAME text` goes to that character (`addressed
//! to the character`), `@everyone text` to each in turn, each one's turn
//! sent when the one before has finished its reply (`addressed to
//! everyone`), a plain line to main as typed in its own composer; an
//! `@NAME` no open character has is refused with a `notice` line and
//! nothing is sent. `/stop`, `/reset`, `/reconnect` and the approval
//! answers go to every character, the other commands to main. Every JSON line then carries
//! `"character": "<NAME>"`.
//!
//! `--ingress-port PORT` runs the signals ingress beside the session on
//! `127.0.0.1:PORT`, as the main pet window does: other programs' signals
//! become turns. It requires `Authorization: Bearer <token>` when
//! `--set ingress.require_token=on` or a token is given with
//! `--set ingress.token=T`; without one the installation's token (in the
//! data directory) is used.
//!
//! `--clock START` (epoch ms or RFC 3339) makes the session's wall clock a
//! manual one standing at START; `--desktop-script FILE` feeds the session
//! scripted desktop readings (frontmost app, idle time) instead of reading
//! the desktop, moving that clock to each reading's time, so the screen
//! transitions, presence, cues and the milestone run without a desktop
//! (the format is in `--help` and [`script::FORMAT_HELP`]). A bad script
//! line stops the run before it starts, naming the line. When the script
//! ends, the run goes on with stdin as usual.

mod script;

use anyhow::Context;
use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;
use tokio::io::AsyncBufReadExt;
use yui_core::cast::{Cast, Route};
use yui_core::session::handle::{deliver, DeliveryWaits};
use yui_core::transport::agent_chat::{ApprovalDecision, ChatEvent};
use yui_core::{ChatApi, DataDir, ErrorCode, HelpGuide, Session, SessionConfig, Status, Timeouts, UiEvent, UserCommand};

/// The stdin commands, for `--help`.
const COMMANDS_HELP: &str = "\
Stdin: each line is a user message, except these commands:
  /quit                       end the run (after the running turn)
  /stop                       stop the running turn and clear the queue
  /reset                      start a new conversation
  /reconnect                  reconnect now (also after a refused key)
  /approve <approval_id>      allow a tool call waiting for approval
  /always <approval_id>       always allow that tool
  /deny <approval_id>         deny the call
  /regenerate [msg_id]        answer again (default: the last chat start's msg_id)
  /version <msg_id> <n>       show version n (0-based) of a message
  /fork <msg_id>              new conversation with the messages up to msg_id
  /delete <msg_id>            delete a message
  /help controls|capabilities ask her how to use her, or what she can do
                              (her answer comes from the bundled guide)
  //text                      send \"/text\" as a message

Headless time and desktop: --clock START sets the session's wall clock to a
manual clock standing at START (it moves only with --desktop-script);
--desktop-script FILE feeds scripted readings instead of the real desktop.";

/// What one stdin line asks for.
#[derive(Debug, PartialEq)]
enum Input {
    /// Nothing (a blank line).
    Skip,
    /// End the run.
    Quit,
    /// A user message.
    Text(String),
    /// A session command.
    Command(UserCommand),
}

/// Reads one stdin line; `last_start` is the `msg_id` of the last `chat`
/// `start` event printed. `Err` is the error line to show.
fn parse_line(line: &str, last_start: Option<&str>) -> Result<Input, String> {
    let line = line.trim_end_matches(['\r', '\n']);
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return Ok(Input::Skip);
    }
    if let Some(text) = trimmed.strip_prefix("//") {
        return Ok(Input::Text(format!("/{text}")));
    }
    let Some(command) = trimmed.strip_prefix('/') else {
        return Ok(Input::Text(line.to_string()));
    };
    let mut words = command.split_whitespace();
    let name = words.next().unwrap_or("");
    let args: Vec<&str> = words.collect();
    let one = |what: &str| match args.as_slice() {
        [id] => Ok(id.to_string()),
        _ => Err(format!("/{name} takes one argument: /{name} <{what}>")),
    };
    let approve = |decision| one("approval_id").map(|approval_id| Input::Command(UserCommand::Approve { approval_id, decision }));
    match name {
        "quit" if args.is_empty() => Ok(Input::Quit),
        "stop" if args.is_empty() => Ok(Input::Command(UserCommand::Stop)),
        "reset" if args.is_empty() => Ok(Input::Command(UserCommand::Reset)),
        "reconnect" if args.is_empty() => Ok(Input::Command(UserCommand::Reconnect)),
        "quit" | "stop" | "reset" | "reconnect" => Err(format!("/{name} takes no arguments")),
        "approve" => approve(ApprovalDecision::Allow),
        "always" => approve(ApprovalDecision::Always),
        "deny" => approve(ApprovalDecision::Deny),
        "regenerate" => match args.as_slice() {
            [id] => Ok(Input::Command(UserCommand::Regenerate { msg_id: id.to_string() })),
            [] => match last_start {
                Some(id) => Ok(Input::Command(UserCommand::Regenerate { msg_id: id.to_string() })),
                None => Err("/regenerate: no answer yet (no chat start printed); give a msg_id".into()),
            },
            _ => Err("/regenerate takes at most one argument: /regenerate [msg_id]".into()),
        },
        "version" => match args.as_slice() {
            [id, n] => match n.parse::<u32>() {
                Ok(n) => Ok(Input::Command(UserCommand::PickVersion { msg_id: id.to_string(), n })),
                Err(_) => Err(format!("/version: {n:?} is not a version number (0, 1, …)")),
            },
            _ => Err("/version takes two arguments: /version <msg_id> <n>".into()),
        },
        "help" => match args.as_slice() {
            ["controls"] => Ok(Input::Command(UserCommand::AskHelp { guide: HelpGuide::Controls })),
            ["capabilities"] => Ok(Input::Command(UserCommand::AskHelp { guide: HelpGuide::Capabilities })),
            _ => Err("/help takes one argument: /help controls or /help capabilities".into()),
        },
        "fork" => one("msg_id").map(|msg_id| Input::Command(UserCommand::Fork { msg_id })),
        "delete" => one("msg_id").map(|msg_id| Input::Command(UserCommand::DeleteMessage { msg_id })),
        _ => Err(format!(
            "unknown command /{name} (commands: /quit /stop /reset /reconnect /approve /always /deny /regenerate /version /fork /delete /help; \
             send //{name} to say it as a message; --help explains each)"
        )),
    }
}

#[derive(Parser, Debug)]
#[command(
    name = "yui-cli",
    version,
    about = "Headless YUI client: JSON lines out, user lines in",
    after_help = COMMANDS_HELP
)]
struct Args {
    /// Which transport: push, responses, chat_completions or agent_chat.
    #[arg(long, value_name = "API")]
    chat_api: Option<String>,
    /// The backend's base URL (push connects to its path /ws). Without it and
    /// without one in settings, the built-in demo agent answers.
    #[arg(long)]
    base_url: Option<String>,
    /// The chat API key.
    #[arg(long)]
    key: Option<String>,
    /// The model name (request transports).
    #[arg(long)]
    model: Option<String>,
    /// Open a character of this name (repeatable, the first is main): each
    /// has its own session, chat_id and files; lines starting `@NAME` or
    /// `@everyone` address them, and every printed line names its character.
    #[arg(long = "character", value_name = "NAME")]
    characters: Vec<String>,
    /// The data directory: chat_id, settings and every persisted file.
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// Override a setting for this run, e.g. `--set look.screen=on`,
    /// `--set relations=off`, `--set screenshot.enabled=on`,
    /// `--set screenshot.monitor=0`, `--set browser=off`,
    /// `--set tts.base_url=http://127.0.0.1:8880`, `--set audio=null` (repeatable;
    /// every key is listed at the end of `--help`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Run the signals ingress on 127.0.0.1:PORT beside the session.
    #[arg(long, value_name = "PORT")]
    ingress_port: Option<u16>,
    /// Make the session's wall clock a manual clock starting at START:
    /// epoch milliseconds or an RFC 3339 time (e.g. 2026-12-01T08:00:00Z).
    /// It moves only as `--desktop-script` says (without one it stands still).
    #[arg(long, value_name = "START")]
    clock: Option<String>,
    /// Feed the session scripted desktop readings from FILE (JSON lines, see
    /// below) instead of reading the desktop; without `--clock`, the clock
    /// starts at the current time.
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    desktop_script: Option<PathBuf>,
    /// Frame wait per turn in milliseconds (default: the limits table's 240 s).
    #[arg(long, hide = true)]
    frame_wait_ms: Option<u64>,
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Print the client_context block for a ClientContext JSON file, a blank
    /// line, then the user text or the background marker.
    RenderContext {
        /// The input JSON file.
        file: PathBuf,
        /// The clock reading, epoch milliseconds.
        #[arg(long)]
        now: i64,
    },
    /// Find the model servers on this computer: probe the usual loopback
    /// ports (Ollama 11434, LM Studio 1234, llama.cpp 8080, vLLM 8000,
    /// LiteLLM 4000) and any `--port`, all at once, and print one JSON line
    /// per server that answers (`base_url`, `kind`, `models`), then exit.
    Discover {
        /// Another port to probe on 127.0.0.1 (repeatable).
        #[arg(long = "port", value_name = "N")]
        ports: Vec<u16>,
    },
}

fn main() -> anyhow::Result<()> {
    // The help ends with the stdin commands, the `--set` keys (from the
    // core's one table, plus the CLI's own `audio`) and the desktop script's format.
    let set_help = format!("--set keys:\n  audio: device, null or none\n{}", yui_core::settings::override_help());
    let command = <Args as clap::CommandFactory>::command().after_help(format!("{COMMANDS_HELP}\n\n{set_help}\n\n{}", script::FORMAT_HELP));
    let args = <Args as clap::FromArgMatches>::from_arg_matches(&command.get_matches()).unwrap_or_else(|e| e.exit());
    if let Some(Cmd::RenderContext { file, now }) = &args.command {
        let raw = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let ctx: yui_core::context::ClientContext = serde_json::from_str(&raw).with_context(|| format!("parsing {}", file.display()))?;
        let block = yui_core::context::render(&ctx, *now);
        println!("{block}\n\n{}", yui_core::context::user_input(&ctx));
        return Ok(());
    }
    // One thread: the transport, the driver and the sink hand events to each
    // other without waking another thread (the end-to-end bench measures it).
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    if let Some(Cmd::Discover { ports }) = &args.command {
        for server in rt.block_on(yui_core::discover::discover(ports)) {
            println!("{}", serde_json::to_string(&server)?);
        }
        return Ok(());
    }
    rt.block_on(chat(args))
}

/// Print one event as a JSON line; with several characters open, the line
/// names the character it came from (`character`).
fn print_event(event: &UiEvent, last_start: &Mutex<Option<String>>, character: Option<&str>) {
    if let UiEvent::Chat { event: ChatEvent::Start { msg_id, .. } } = event {
        *last_start.lock().unwrap_or_else(|p| p.into_inner()) = Some(msg_id.clone());
    }
    let line = match character {
        None => serde_json::to_string(event),
        Some(name) => serde_json::to_value(event).and_then(|mut value| {
            if let Some(map) = value.as_object_mut() {
                map.insert("character".into(), name.into());
            }
            serde_json::to_string(&value)
        }),
    };
    if let Ok(line) = line {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
    let who = character.map(|n| format!(" ({n})")).unwrap_or_default();
    match event {
        UiEvent::Status { status: Status::Reconnecting { delay_ms, reason, .. } } => {
            eprintln!("yui-cli{who}: connection lost ({reason}); retrying in {delay_ms} ms")
        }
        UiEvent::Status { status: Status::AuthFailed } => {
            eprintln!("yui-cli{who}: the backend refused the key; fix it and send /reconnect")
        }
        UiEvent::Notice { code, message, .. } => eprintln!("yui-cli{who}: {code:?}: {message}"),
        _ => {}
    }
}

async fn chat(args: Args) -> anyhow::Result<()> {
    // A bad script or clock stops the run before anything starts.
    let start_ms = args.clock.as_deref().map(script::parse_clock).transpose()?;
    let desktop = args.desktop_script.as_deref().map(script::load).transpose()?;
    let data_dir = match &args.data_dir {
        Some(p) => DataDir::new(p)?,
        None => DataDir::platform_default()?,
    };
    let _log = yui_core::logging::init(&data_dir.log_dir(), None)?;
    let mut settings = data_dir.load_settings()?;
    if let Some(api) = &args.chat_api {
        settings.character.chat_api = api.parse::<ChatApi>()?;
    }
    if let Some(url) = args.base_url {
        settings.character.chat_base_url = url;
    }
    if let Some(key) = args.key {
        settings.character.key = key.into();
    }
    if let Some(model) = args.model {
        settings.character.model = model;
    }
    let mut audio = yui_core::speech::voices::AudioOutput::Device;
    for pair in &args.set {
        match pair.split_once('=') {
            Some((key, value)) if key.trim() == "audio" => audio = value.parse().map_err(anyhow::Error::msg)?,
            _ => yui_core::settings::apply_override(&mut settings, pair)?,
        }
    }
    let _demo = if settings.uses_demo() {
        let demo = yui_demo::DemoServer::start(yui_demo::DemoConfig::default()).await?;
        eprintln!("yui-cli: no backend configured; the built-in demo agent answers at {}", demo.base_url());
        settings.character.chat_base_url = demo.base_url();
        Some(demo)
    } else {
        None
    };
    let mut timeouts = Timeouts::default();
    if let Some(ms) = args.frame_wait_ms {
        timeouts.frame_wait = Duration::from_millis(ms);
    }
    let ingress_dir = data_dir.clone();
    let ingress_settings = settings.user.ingress.clone();
    let card_name = yui_core::card::current(&yui_core::card::CardStore::new(&data_dir, &settings.character.vrm), &settings.user.language).name;
    // Several characters: their names in registry order (main first).
    let cast = if args.characters.is_empty() { None } else { Some(Cast::new(&args.characters)?) };
    let manual = match (start_ms, &desktop) {
        (Some(ms), _) => Some(ms),
        (None, Some(_)) => Some(yui_core::clock::WallClock::now_ms(&yui_core::clock::SystemClock)),
        (None, None) => None,
    }
    .map(|ms| (ms, yui_core::clock::ManualClock::at(ms)));
    let last_start = Arc::new(Mutex::new(None::<String>));
    // One session per open character (one when no --character is given).
    let members: Vec<Option<String>> = match &cast {
        None => vec![None],
        Some(cast) => cast.names().iter().cloned().map(Some).collect(),
    };
    // The characters share what none owns alone: each other's histories,
    // the addressed turns, the voice floor.
    let ensemble = cast.clone().map(|cast| yui_core::ensemble::Ensemble::new(cast, settings.user.exchange_limit));
    let mut sessions = Vec::with_capacity(members.len());
    let mut clock = None;
    for (i, name) in members.iter().enumerate() {
        let dir = match name {
            None => data_dir.clone(),
            Some(name) => data_dir.character_dir(name, &card_name)?,
        };
        let mut config = SessionConfig::new(settings.clone(), dir);
        config.timeouts = timeouts;
        config.audio = audio;
        // A pet window whose body stands still: `look` (body, perch
        // targets, the screen of a display this run can see) on main and
        // `rate_relation` run; no browser window.
        config.desk = match (&cast, name) {
            (Some(cast), Some(name)) => Arc::new(yui_core::tools::CastDesk { others: cast.others(name), main: i == 0 }),
            _ => Arc::new(yui_core::tools::SystemDesk),
        };
        config.world = yui_core::world::platform();
        config.seat = ensemble.as_ref().and_then(|e| e.seat(i));
        // The CLI starts like the app: main's launch bed scene may run.
        config.launch = i == 0;
        if let Some((_, clock)) = &manual {
            config.clock = clock.clone();
        }
        if desktop.is_some() && i == 0 {
            config.world_input = yui_core::session::world::WorldInput::Fed;
        }
        clock.get_or_insert_with(|| config.clock.clone());
        let printed = last_start.clone();
        let label = name.clone();
        let sink = Arc::new(move |e: UiEvent| print_event(&e, &printed, label.as_deref()));
        sessions.push(Arc::new(Session::start(config, sink)?));
    }
    let main = sessions[0].clone();
    let handles: Vec<yui_core::session::handle::SessionHandle> = sessions.iter().map(|s| s.handle()).collect();
    let ingress_cancel = tokio_util::sync::CancellationToken::new();
    let _ingress = match args.ingress_port {
        Some(port) => {
            let token = if ingress_settings.token.is_empty() {
                yui_core::ingress::token::load_or_create(&ingress_dir)?
            } else {
                ingress_settings.token.expose().to_string()
            };
            let require = ingress_settings.require_token || !ingress_settings.token.is_empty();
            let relay = yui_core::session::relay::Relay::new(clock.clone().expect("one session at least"));
            // `/relations/<character>` serves every open character; the
            // signals go to main.
            match &cast {
                Some(cast) => {
                    relay.attach(&main, cast.main());
                    for (session, name) in sessions.iter().zip(cast.names()).skip(1) {
                        relay.attach_beside(session, name);
                    }
                }
                None => relay.attach(&main, &card_name),
            }
            let config = yui_core::ingress::IngressConfig::new(port, require, token);
            let ingress = yui_core::ingress::serve(config, relay, ingress_cancel.clone()).await?;
            eprintln!("yui-cli: signals ingress listening on http://{}", ingress.local_addr());
            Some(ingress)
        }
        None => None,
    };

    let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
    // The desktop script runs beside stdin; it ends with the run at the latest.
    let ready_wait = timeouts.hello_reply_wait + timeouts.reconnect_first;
    let turn_wait = timeouts.frame_wait + Duration::from_secs(120);
    let mut rounds = Vec::new();
    {
        let script = async {
            if let (Some(lines), Some((start, clock))) = (desktop, &manual) {
                script::run(&main, clock, *start, lines, ready_wait).await;
            }
        };
        let mut script = std::pin::pin!(script);
        let mut script_done = false;
        loop {
            let line = tokio::select! {
                line = lines.next_line() => line?,
                _ = &mut script, if !script_done => {
                    script_done = true;
                    continue;
                }
            };
            let Some(line) = line else { break };
            let last = last_start.lock().unwrap_or_else(|p| p.into_inner()).clone();
            match parse_line(&line, last.as_deref()) {
                Err(message) => eprintln!("yui-cli: {message}"),
                Ok(Input::Skip) => continue,
                Ok(Input::Quit) => break,
                Ok(Input::Command(command)) => {
                    // Stop, a new conversation, a reconnect and an approval's
                    // answer (its id is one character's) go to every
                    // character; the message commands to main.
                    let every = matches!(command, UserCommand::Stop | UserCommand::Reset | UserCommand::Reconnect | UserCommand::Approve { .. });
                    for session in if every { &sessions[..] } else { &sessions[..1] } {
                        session.send(command.clone())?;
                    }
                }
                Ok(Input::Text(text)) => {
                    let route = match &cast {
                        None => Route::Main { text },
                        Some(cast) => match cast.route(&text) {
                            Ok(route) => route,
                            Err(refused) => {
                                let notice = UiEvent::notice(ErrorCode::UnknownCharacter, refused.to_string());
                                print_event(&notice, &last_start, Some(cast.main()));
                                continue;
                            }
                        },
                    };
                    // One path with the app (`session::handle::deliver`):
                    // `@everyone` runs beside the next lines, one character
                    // after another; the others are sent before the next line.
                    let waits = DeliveryWaits { ready: ready_wait, turn: turn_wait };
                    let everyone = matches!(route, Route::Everyone { .. });
                    let cast_handles = handles.clone();
                    let delivery = async move { deliver(route, &cast_handles, waits).await };
                    if everyone {
                        rounds.push(tokio::spawn(async move {
                            let _ = delivery.await;
                        }));
                    } else {
                        delivery.await?;
                    }
                }
            }
        }
    }
    // Let the running turns end, or their wait pass.
    for round in rounds {
        let _ = round.await;
    }
    // And the characters' conversation among themselves, addressed turn
    // after addressed turn, until none is left (each wait has its limit).
    let deadline = tokio::time::Instant::now() + turn_wait;
    loop {
        for session in &sessions {
            session.wait_idle(turn_wait).await;
        }
        if ensemble.as_ref().is_none_or(|e| e.in_flight() == 0) || tokio::time::Instant::now() > deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    ingress_cancel.cancel();
    drop(main);
    for session in sessions {
        if let Ok(session) = Arc::try_unwrap(session) {
            session.close().await;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> UserCommand {
        match parse_line(line, Some("t-9")) {
            Ok(Input::Command(c)) => c,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn lines_are_text_or_commands() {
        assert_eq!(parse_line("  ", None), Ok(Input::Skip));
        assert_eq!(parse_line("hello there\r", None), Ok(Input::Text("hello there".into())));
        assert_eq!(parse_line("//stop it", None), Ok(Input::Text("/stop it".into())));
        assert_eq!(parse_line("/quit", None), Ok(Input::Quit));
        assert_eq!(cmd("/stop"), UserCommand::Stop);
        assert_eq!(cmd(" /reset "), UserCommand::Reset);
        assert_eq!(cmd("/reconnect"), UserCommand::Reconnect);
        assert_eq!(cmd("/approve apr-1"), UserCommand::Approve { approval_id: "apr-1".into(), decision: ApprovalDecision::Allow });
        assert_eq!(cmd("/always apr-1"), UserCommand::Approve { approval_id: "apr-1".into(), decision: ApprovalDecision::Always });
        assert_eq!(cmd("/deny apr-2"), UserCommand::Approve { approval_id: "apr-2".into(), decision: ApprovalDecision::Deny });
        assert_eq!(cmd("/regenerate"), UserCommand::Regenerate { msg_id: "t-9".into() });
        assert_eq!(cmd("/regenerate t-1"), UserCommand::Regenerate { msg_id: "t-1".into() });
        assert_eq!(cmd("/version t-1 2"), UserCommand::PickVersion { msg_id: "t-1".into(), n: 2 });
        assert_eq!(cmd("/fork t-1"), UserCommand::Fork { msg_id: "t-1".into() });
        assert_eq!(cmd("/delete t-1"), UserCommand::DeleteMessage { msg_id: "t-1".into() });
        assert_eq!(cmd("/help controls"), UserCommand::AskHelp { guide: HelpGuide::Controls });
        assert_eq!(cmd("/help capabilities"), UserCommand::AskHelp { guide: HelpGuide::Capabilities });
    }

    #[test]
    fn bad_commands_are_errors() {
        let err = |line: &str, last: Option<&str>| parse_line(line, last).expect_err(line);
        assert!(err("/frobnicate", None).starts_with("unknown command /frobnicate"));
        assert!(err("/approve", None).contains("/approve <approval_id>"));
        assert!(err("/deny a b", None).contains("one argument"));
        assert!(err("/regenerate", None).contains("no answer yet"));
        assert!(err("/version t-1", None).contains("two arguments"));
        assert!(err("/version t-1 x", None).contains("not a version number"));
        assert!(err("/stop now", None).contains("no arguments"));
        assert!(err("/help", None).contains("/help controls or /help capabilities"));
        assert!(err("/help me", None).contains("/help controls or /help capabilities"));
        assert!(err("/", None).starts_with("unknown command"));
    }
}
