//! `yui-demo` binary: serves the demo agent until Ctrl-C.
//!
//! Prints exactly one line to stdout, `listening on http://127.0.0.1:PORT`,
//! then logs to stderr (`RUST_LOG` filters, default `info`).

use std::io::Write as _;

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
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let server = DemoServer::start(DemoConfig {
        port: args.port,
        pace: args.pace,
        key: args.key,
    })
    .await?;
    {
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "listening on {}", server.base_url())?;
        stdout.flush()?;
    }
    shutdown_signal().await;
    tracing::info!(event = "demo_stopping");
    server.shutdown().await;
    Ok(())
}

/// Resolves on Ctrl-C, or SIGTERM on Unix.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
