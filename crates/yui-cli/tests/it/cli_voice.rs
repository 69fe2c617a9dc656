//! yui-cli speaks: each sentence goes to an OpenAI-compatible TTS server (the
//! mock's `/v1/audio/speech`, a tone as long as the sentence) in order, plays
//! through the null sink at its decoded length, and a JSON line marks when
//! each starts and ends playing.

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use yui_mock::audio::{MS_PER_CHAR, SPEECH_MIN_MS};
use yui_mock::{MockConfig, MockServer, Mode, Scenario};

const REPLY: &str = r#"{"steps": [{"expect": "turn", "match": {"text": "how was it?"}},
    {"send": {"type": "speech", "turn_id": "$turn_id",
              "segments": [{"cues": [{"emotion_id": "happy", "emotion_text": "cheerful", "caption": "brightly, a little fast"}], "speech": "All the tests passed this morning."}]}},
    {"send": {"type": "render", "turn_id": "$turn_id", "source": "mock",
              "segments": [{"cues": [], "speech": "All the tests passed this morning."},
                           {"cues": [{"emotion_id": "sad"}], "speech": "FAIL is what the old ones said."},
                           {"cues": [{"emotion_id": "relaxed"}], "speech": "Now it is quiet."}]}},
    {"send": {"type": "turn_end", "turn_id": "$turn_id"}}]}"#;

/// Run yui-cli with `stdin`, stamping each stdout line as it arrives.
fn run(base_url: &str, data_dir: &std::path::Path, stdin: &str) -> Vec<(Duration, Value)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yui-cli"))
        .args(["--chat-api", "push", "--base-url", base_url, "--key", "k", "--data-dir"])
        .arg(data_dir)
        .args(["--frame-wait-ms", "5000", "--set", "audio=null", "--set", "tts.voice=nova", "--set", "tts.model=tts-1-hd", "--set"])
        .arg(format!("tts.base_url={base_url}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn yui-cli");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let t0 = Instant::now();
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON: {line:?}: {e}"));
        lines.push((t0.elapsed(), v));
    }
    assert!(child.wait().unwrap().success());
    lines
}

#[tokio::test(flavor = "multi_thread")]
async fn each_sentence_goes_to_tts_in_order_and_plays_for_its_decoded_length() {
    let scenario = Scenario::from_json(REPLY).unwrap();
    let mock = MockServer::start(MockConfig { mode: Mode::Scenario(scenario), pace: 0.0, ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let url = mock.base_url();
    let d = dir.path().to_path_buf();
    let lines = tokio::task::spawn_blocking(move || run(&url, &d, "how was it?\n")).await.unwrap();

    // The speech requests: one per sentence, the repeated sentence once.
    // Two run at once, so the last two may reach the server either way
    // round; playback below is strictly in order.
    let speech: Vec<Value> = mock.requests().into_iter().filter(|r| r.path == "/v1/audio/speech").map(|r| r.body).collect();
    let mut inputs: Vec<&str> = speech.iter().map(|b| b["input"].as_str().unwrap()).collect();
    assert_eq!(inputs[0], "[cheerful] All the tests passed this morning.");
    assert_eq!(speech[0]["instructions"], "brightly, a little fast", "the caption travels as instructions");
    assert!(speech[1..].iter().all(|b| b.get("instructions").is_none()));
    inputs[1..].sort();
    assert_eq!(inputs[1..], ["FAIL is what the old ones said.", "Now it is quiet."]);
    assert!(speech.iter().all(|b| b["voice"] == "nova" && b["model"] == "tts-1-hd"), "{speech:?}");

    // One line when each sentence starts and one when it ends, in order;
    // the bubble shows the text alone (no tone, no caption).
    let beats: Vec<(Duration, String)> = lines
        .iter()
        .filter_map(|(t, v)| match v["type"].as_str() {
            Some("speech") => Some((*t, format!("start {}", v["text"].as_str().unwrap()))),
            Some("speech_done") => Some((*t, format!("end {}", v["text"].as_str().unwrap()))),
            Some("cue") => Some((*t, format!("cue {}", v["cue"]["emotion_id"].as_str().unwrap_or("")))),
            _ => None,
        })
        .collect();
    let names: Vec<&str> = beats.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(
        names,
        [
            "cue happy",
            "start All the tests passed this morning.",
            "end All the tests passed this morning.",
            "cue sad",
            "start FAIL is what the old ones said.",
            "end FAIL is what the old ones said.",
            "cue relaxed",
            "start Now it is quiet.",
            "end Now it is quiet."
        ],
        "a failed synth still fires its cue and shows its text"
    );
    // Real timing from the decoded length: 34 characters of tone.
    let first = beats[2].0 - beats[1].0;
    let expected = Duration::from_millis((34 * MS_PER_CHAR).max(SPEECH_MIN_MS));
    assert!(first + Duration::from_millis(60) >= expected && first < expected + Duration::from_millis(600), "played {first:?}, expected {expected:?}");
    let failed = beats[5].0 - beats[4].0;
    assert!(failed < Duration::from_millis(100), "the failed sentence is skipped: {failed:?}");
    assert!(mock.failures().is_empty(), "{:?}", mock.failures());
}

/// Recorded chunks, each with the time it arrived.
type Chunks = std::sync::Arc<std::sync::Mutex<Vec<(Instant, Vec<i16>)>>>;

/// `parec` reading the null sink's monitor as raw 16 kHz mono s16le, on a
/// thread: each chunk with the time it arrived.
struct Monitor {
    child: std::process::Child,
    chunks: Chunks,
}

impl Monitor {
    fn start() -> Monitor {
        let mut child = Command::new("parec")
            .args(["-d", "null.monitor", "--raw", "--format=s16le", "--channels=1", "--rate=16000", "--latency-msec=20"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("parec (pulseaudio-utils) must be installed");
        let mut out = child.stdout.take().unwrap();
        let chunks: Chunks = Default::default();
        let c = chunks.clone();
        std::thread::spawn(move || {
            use std::io::Read;
            let mut buf = [0u8; 640];
            while let Ok(n) = out.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let samples = buf[..n - n % 2].chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
                c.lock().unwrap().push((Instant::now(), samples));
            }
        });
        Monitor { child, chunks }
    }

    /// When sound (a chunk with an RMS over 0.02) first arrived after
    /// `from`, waiting up to `wait` for it.
    fn onset(&self, from: Instant, wait: Duration) -> Option<Instant> {
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            let loud = |s: &[i16]| !s.is_empty() && (s.iter().map(|v| (f32::from(*v) / 32_768.0).powi(2)).sum::<f32>() / s.len() as f32).sqrt() > 0.02;
            let found = self.chunks.lock().unwrap().iter().find(|(t, s)| *t >= from && loud(s)).map(|(t, _)| *t);
            if found.is_some() {
                return found;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// RMS (0..1) of what arrived between `from` and `to`.
    fn rms(&self, from: Instant, to: Instant) -> f32 {
        let chunks = self.chunks.lock().unwrap();
        let picked: Vec<f32> = chunks.iter().filter(|(t, _)| *t >= from && *t <= to).flat_map(|(_, s)| s.iter().map(|v| f32::from(*v) / 32_768.0)).collect();
        assert!(!picked.is_empty(), "the monitor recorded nothing in that span");
        (picked.iter().map(|s| s * s).sum::<f32>() / picked.len() as f32).sqrt()
    }
}

impl Drop for Monitor {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// Real sound: yui-cli plays a reply through cpal into a PulseAudio null
/// sink; the monitor hears it while the sentence plays and silence from
/// shortly after `/stop`. Needs a sound server:
///
/// ```sh
/// eval "$(scripts/sound-server.sh)"
/// cargo test -p yui-cli --test cli_voice -- --ignored
/// pulseaudio --kill
/// ```
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs a sound server (scripts/sound-server.sh)"]
async fn a_reply_sounds_through_the_sound_server_and_a_stop_silences_it() {
    assert!(std::env::var("PULSE_SERVER").is_ok(), "run under scripts/sound-server.sh");
    let scenario = Scenario::from_json(
        r#"{"steps": [{"expect": "turn"},
            {"send": {"type": "render", "turn_id": "$turn_id", "source": "mock",
                      "segments": [{"cues": [], "speech": "This sentence is long enough to keep her talking for about three seconds."},
                                   {"cues": [], "speech": "And this one would follow it."}]}},
            {"send": {"type": "turn_end", "turn_id": "$turn_id"}}]}"#,
    )
    .unwrap();
    let mock = MockServer::start(MockConfig { mode: Mode::Scenario(scenario), pace: 0.0, ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let url = mock.base_url();
    let d = dir.path().to_path_buf();
    let result = tokio::task::spawn_blocking(move || {
        let monitor = Monitor::start();
        std::thread::sleep(Duration::from_millis(300));
        let mut child = Command::new(env!("CARGO_BIN_EXE_yui-cli"))
            .args(["--chat-api", "push", "--base-url", &url, "--key", "k", "--data-dir"])
            .arg(&d)
            .args(["--set", "filler=off", "--set"])
            .arg(format!("tts.base_url={url}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn yui-cli");
        let mut stdin = child.stdin.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<(Instant, Value)>();
        let out = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let v: Value = serde_json::from_str(&line.unwrap()).unwrap();
                let _ = tx.send((Instant::now(), v));
            }
        });
        stdin.write_all(b"talk to me\n").unwrap();
        let shown = loop {
            let (t, v) = rx.recv_timeout(Duration::from_secs(20)).expect("a sentence shows");
            if v["type"] == "speech" {
                break t;
            }
        };
        // The sentence shows as it goes to the sink; its sound follows once
        // the TTS server has answered and the device has started.
        let started = monitor.onset(shown, Duration::from_secs(10)).expect("her voice is heard after the sentence shows");
        std::thread::sleep(Duration::from_millis(1_000));
        let stopped = Instant::now();
        stdin.write_all(b"/stop\n").unwrap();
        std::thread::sleep(Duration::from_millis(1_500));
        let playing = monitor.rms(started + Duration::from_millis(100), stopped - Duration::from_millis(100));
        let after = monitor.rms(stopped + Duration::from_millis(500), stopped + Duration::from_millis(1_400));
        stdin.write_all(b"/quit\n").unwrap();
        drop(stdin);
        assert!(child.wait().unwrap().success());
        let lines: Vec<Value> = rx.try_iter().map(|(_, v)| v).collect();
        (playing, after, lines)
    })
    .await
    .unwrap();
    let (playing, after, lines) = result;
    assert!(playing > 0.05, "sound came out while the sentence played: rms {playing}");
    assert!(after < 0.005, "silence after the stop: rms {after}");
    assert!(lines.iter().any(|v| v["type"] == "speech_halted"), "the stop halted speech");
    assert!(!lines.iter().any(|v| v["type"] == "speech" && v["text"] == "And this one would follow it."), "the rest was dropped");
}
