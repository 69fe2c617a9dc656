//! `yui-demo` binary: serves the demo agent until Ctrl-C.
//!
//! Prints exactly one line to stdout, `listening on http://127.0.0.1:PORT`,
//! then logs to stderr (`RUST_LOG` filters, default `info`).

use clap::Parser;
use yui_demo::{DemoConfig, DemoServer};

/// The YUI demo agent: push WebSocket on /ws, SSE on /v1/responses and /v1/chat/completions.
#[derive(Debug, Parser)]
#[command(name = "yui-demo", version)]
struct Args {
    /// Port on 127.0.0.1 (0 = any free port).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Delay multiplier (1.0 = human pacing, 0 = none).
    #[arg(long, default_value_t = 1.0)]
    pace: f64,
    /// Key the client must send in hello (and as a Bearer token over HTTP).
    #[arg(long)]
    key: Option<String>,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let config = DemoConfig { port: args.port, pace: args.pace, key: args.key, ..DemoConfig::default() };
    yui_demo::serve::run_binary(DemoServer::start(config), "demo_stopping").await
}
