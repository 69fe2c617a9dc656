//! Render time of a full client_context block with every line present.
//! Run with `cargo bench -p yui-engine --bench context`; std::time only.

use std::hint::black_box;
use std::time::Instant;
use yui_engine::context::{render, user_input, ClientContext};

/// The golden fixture with every line present (guide included).
const FULL: &str = include_str!("../tests/fixtures/context/full_block_every_line.json");

fn main() {
    let doc: serde_json::Value = serde_json::from_str(FULL).expect("fixture JSON");
    let now = doc["now_ms"].as_i64().expect("now_ms");
    let ctx: ClientContext = serde_json::from_str(FULL).expect("fixture input");
    let block = render(&ctx, now);
    let lines = block.lines().count();

    // Warm up, then time enough renders for a stable figure.
    for _ in 0..1_000 {
        black_box(render(black_box(&ctx), now));
    }
    let rounds = 20_000u32;
    let start = Instant::now();
    for _ in 0..rounds {
        black_box(render(black_box(&ctx), black_box(now)));
    }
    let per_render = start.elapsed().as_secs_f64() * 1e6 / f64::from(rounds);

    let start = Instant::now();
    for _ in 0..rounds {
        let ctx: ClientContext = serde_json::from_str(black_box(FULL)).unwrap();
        black_box((render(&ctx, now), user_input(&ctx)));
    }
    let with_parse = start.elapsed().as_secs_f64() * 1e6 / f64::from(rounds);

    println!("client_context full block: {lines} lines, {} bytes", block.len());
    println!("render: {per_render:.2} µs per block ({rounds} rounds)");
    println!("parse JSON + render + user input: {with_parse:.2} µs per block");
}
