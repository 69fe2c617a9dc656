//! `yui-mock` binary: serves the mock backend until Ctrl-C.
//!
//! Prints exactly one line to stdout, `listening on http://127.0.0.1:PORT`,
//! then logs to stderr (`RUST_LOG` filters, default `info`).

use std::path::PathBuf;

use clap::Parser;
use yui_mock::{MockConfig, MockServer, Mode, Scenario};

/// A fake YUI chat backend: push WebSocket on /ws, SSE on /v1/responses and /v1/chat/completions, the agent_chat engine on /chat.
#[derive(Debug, Parser)]
#[command(name = "yui-mock", version)]
struct Args {
    /// Run the friendly demo agent (the default).
    #[arg(long, conflicts_with = "scenario")]
    demo: bool,
    /// Run a scripted scenario from this JSON file instead of the demo.
    #[arg(long, value_name = "FILE")]
    scenario: Option<PathBuf>,
    /// Port on 127.0.0.1 (0 = any free port).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Key the client must send in hello (and as a Bearer token over HTTP).
    #[arg(long)]
    key: Option<String>,
    /// Announce max_turn_bytes in ready (accept images on turns).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_turn_bytes: Option<u64>,
    /// Delay multiplier for the demo (1.0 = human pacing, 0 = none).
    #[arg(long, default_value_t = 1.0)]
    pace: f64,
    /// How long an agent_chat run waits for POST /approve/{aid} before it
    /// denies the call, in milliseconds (default: the engine's 300 s).
    #[arg(long, value_name = "MS", default_value_t = 300_000)]
    approval_timeout_ms: u64,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let start = async move {
        if !(args.pace.is_finite() && args.pace >= 0.0) {
            anyhow::bail!("--pace must be a finite number >= 0");
        }
        let mode = match &args.scenario {
            Some(path) => Mode::Scenario(Scenario::load(path)?),
            None => Mode::Demo,
        };
        MockServer::start(MockConfig {
            mode,
            key: args.key,
            port: args.port,
            max_turn_bytes: args.max_turn_bytes,
            pace: args.pace,
            approval_timeout: std::time::Duration::from_millis(args.approval_timeout_ms),
            ..MockConfig::default()
        })
        .await
    };
    yui_demo::serve::run_binary(start, "mock_stopping").await
}
