//! `yui-cli`: a headless YUI client on the same core as the app.
//!
//! Every core event goes to stdout as one JSON object per line. Each stdin
//! line is one user turn; `/stop`, `/reset` and `/quit` are commands.
//! Connection problems also go to stderr. `--set KEY=VALUE` overrides a
//! setting for the run (the tool switches, the turn screenshot, the voice:
//! `tts.base_url`, `tts.model`, `tts.voice`, `tts.key`, `tts.speed`, `voice=off`).
//! Speech plays through the default sound device (`--set audio=null` keeps
//! real timing from each sentence's decoded length and plays nothing;
//! `--set audio=none` makes no voice at all); a `speech` line is printed when
//! a sentence starts playing and a `speech_done` line when it ends. Exits 0
//! on `/quit` or EOF, after the running turn ends or its wait passes and
//! what was said has played.

use anyhow::Context;
use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncBufReadExt;
use yui_core::{ChatApi, DataDir, Session, SessionConfig, Status, Timeouts, UiEvent, UserCommand};

#[derive(Parser, Debug)]
#[command(name = "yui-cli", version, about = "Headless YUI client: JSON lines out, user lines in")]
struct Args {
    /// Which transport: push, responses, chat_completions or agent_chat.
    #[arg(long, value_name = "API")]
    chat_api: Option<String>,
    /// The backend's base URL (push connects to <base-url>/ws). Without it and
    /// without one in settings, the built-in demo agent answers.
    #[arg(long)]
    base_url: Option<String>,
    /// The chat API key.
    #[arg(long)]
    key: Option<String>,
    /// The model name (request transports).
    #[arg(long)]
    model: Option<String>,
    /// The data directory: chat_id, settings and every persisted file.
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// Override a setting for this run, e.g. `--set look.screen=on`,
    /// `--set relations=off`, `--set screenshot.enabled=on`,
    /// `--set screenshot.monitor=0`, `--set browser=off`,
    /// `--set tts.base_url=http://127.0.0.1:8880`, `--set audio=null` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
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
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if let Some(Cmd::RenderContext { file, now }) = &args.command {
        let raw = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let ctx: yui_core::context::ClientContext =
            serde_json::from_str(&raw).with_context(|| format!("parsing {}", file.display()))?;
        let block = yui_core::context::render(&ctx, *now);
        println!("{block}\n\n{}", yui_core::context::user_input(&ctx));
        return Ok(());
    }
    // One thread: the transport, the driver and the sink hand events to each
    // other without waking another thread (the end-to-end bench measures it).
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    rt.block_on(chat(args))
}

fn print_event(event: &UiEvent) {
    if let Ok(line) = serde_json::to_string(event) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
    match event {
        UiEvent::Status { status: Status::Reconnecting { delay_ms, reason, .. } } => {
            eprintln!("yui-cli: connection lost ({reason}); retrying in {delay_ms} ms")
        }
        UiEvent::Status { status: Status::AuthFailed } => {
            eprintln!("yui-cli: the backend refused the key; fix it and send /reconnect")
        }
        UiEvent::Notice { code, message } => eprintln!("yui-cli: {code:?}: {message}"),
        _ => {}
    }
}

async fn chat(args: Args) -> anyhow::Result<()> {
    let data_dir = match &args.data_dir {
        Some(p) => DataDir::new(p)?,
        None => DataDir::platform_default()?,
    };
    let _log = yui_core::logging::init(&data_dir.log_dir(), None)?;
    let mut settings = data_dir.load_settings()?;
    if let Some(api) = &args.chat_api {
        settings.chat_api = api.parse::<ChatApi>()?;
    }
    if let Some(url) = args.base_url {
        settings.chat_base_url = url;
    }
    if let Some(key) = args.key {
        settings.key = key;
    }
    if let Some(model) = args.model {
        settings.model = model;
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
        settings.chat_base_url = demo.base_url();
        Some(demo)
    } else {
        None
    };
    let mut timeouts = Timeouts::default();
    if let Some(ms) = args.frame_wait_ms {
        timeouts.frame_wait = Duration::from_millis(ms);
    }
    let mut config = SessionConfig::new(settings, data_dir);
    config.timeouts = timeouts;
    config.audio = audio;
    // A main pet window whose body stands still: `look` (body, perch targets,
    // the screen of a display this run can see) and `rate_relation` run; no
    // browser window.
    config.desk = Arc::new(yui_core::tools::SystemDesk);
    let session = Session::start(config, Arc::new(|e: UiEvent| print_event(&e)))?;

    let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
    while let Some(line) = lines.next_line().await? {
        let line = line.trim_end_matches('\r');
        match line.trim() {
            "" => continue,
            "/quit" => break,
            "/stop" => session.send(UserCommand::Stop)?,
            "/reset" => session.send(UserCommand::Reset)?,
            "/reconnect" => session.send(UserCommand::Reconnect)?,
            _ => {
                if !session.status().borrow().is_ready() {
                    // Give a connection in progress its hello wait before the turn goes out.
                    // A refused key will not get better by waiting.
                    let mut status = session.status();
                    let wait = timeouts.hello_reply_wait + timeouts.reconnect_first;
                    let _ = tokio::time::timeout(wait, status.wait_for(|s| s.is_ready() || *s == Status::AuthFailed)).await;
                }
                session.send(UserCommand::SendText { text: line.to_string() })?;
            }
        }
    }
    // Let the running turn end, or its wait pass.
    session.wait_idle(timeouts.frame_wait + Duration::from_secs(120)).await;
    session.close().await;
    Ok(())
}
