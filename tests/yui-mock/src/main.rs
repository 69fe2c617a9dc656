//! `yui-mock` binary: serves the mock backend until Ctrl-C.
//!
//! Prints exactly one line to stdout, `listening on http://127.0.0.1:PORT`,
//! then logs to stderr (`RUST_LOG` filters, default `info`).

use std::path::PathBuf;
use std::sync::Arc;

use clap::Parser;
use yui_mock::{MockConfig, MockServer, Mode, Scenario};

/// A fake YUI chat backend: push WebSocket on /ws, SSE on /v1/responses and /v1/chat/completions.
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
    /// Keep FILE holding every frame the client sent on /ws, as one JSON
    /// array rewritten after each new frame (end-to-end tests read it).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
}

/// A [`MockServer`] whose received frames are copied to a file as they come.
struct Recorded {
    server: Arc<MockServer>,
    copier: Option<tokio::task::JoinHandle<()>>,
}

impl Recorded {
    fn new(server: MockServer, file: Option<PathBuf>) -> Self {
        let server = Arc::new(server);
        let copier = file.map(|file| {
            let server = server.clone();
            tokio::spawn(async move {
                let mut written = usize::MAX;
                loop {
                    let frames = server.received();
                    if frames.len() != written {
                        written = frames.len();
                        let tmp = file.with_extension("tmp");
                        let body = serde_json::to_vec(&frames).unwrap_or_default();
                        if std::fs::write(&tmp, body).and_then(|()| std::fs::rename(&tmp, &file)).is_err() {
                            tracing::warn!(event = "record_unwritable", file = %file.display());
                        }
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                }
            })
        });
        Recorded { server, copier }
    }
}

impl yui_demo::serve::Server for Recorded {
    fn base_url(&self) -> String {
        self.server.base_url()
    }

    async fn shutdown(mut self) {
        if let Some(copier) = self.copier.take() {
            copier.abort();
            let _ = copier.await;
        }
        if let Ok(server) = Arc::try_unwrap(self.server) {
            server.shutdown().await;
        }
    }
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
        let server = MockServer::start(MockConfig {
            mode,
            key: args.key,
            port: args.port,
            max_turn_bytes: args.max_turn_bytes,
            pace: args.pace,
        })
        .await?;
        Ok(Recorded::new(server, args.record))
    };
    yui_demo::serve::run_binary(start, "mock_stopping").await
}
