//! The out-of-the-box system voice (`docs/voice.md`): speech with no TTS
//! server, from the operating system's own synthesizer, as WAV bytes for
//! [`super::decode::decode`].
//!
//! * Linux: `espeak-ng --stdout` (the text on stdin).
//! * macOS: `say -o <tmp>.wav --data-format=LEI16@22050` (the text on stdin
//!   through `-f -`).
//! * Windows: PowerShell with `System.Speech.Synthesis.SpeechSynthesizer`
//!   and `SetOutputToWaveFile` (the text on stdin, voice and file through
//!   environment variables).
//!
//! No shell ever sees the text: every program is started directly with an
//! argument list, and the text travels on stdin. Each run is bounded by
//! [`SYSTEM_VOICE_WAIT`]; the child is killed past it.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use yui_engine::limits::SYSTEM_VOICE_WAIT;

/// Words per minute of the system voices at speed 1.0 (espeak-ng's and
/// `say`'s own default).
pub const BASE_WORDS_PER_MINUTE: f32 = 175.0;

/// How the system voice speaks.
#[derive(Debug, Clone, PartialEq)]
pub struct SystemVoice {
    /// The voice name (`en-us`, `Samantha`, `Microsoft Zira Desktop`); `None`
    /// is the system's default voice.
    pub voice: Option<String>,
    /// Speed factor, 1.0 normal (like the TTS `speed`; clamped to 0.25..=4).
    pub speed: f32,
}

impl Default for SystemVoice {
    /// The default voice at speed 1.0.
    fn default() -> Self {
        Self { voice: None, speed: 1.0 }
    }
}

/// Why the system voice made no audio.
#[derive(Debug, thiserror::Error)]
pub enum SystemVoiceError {
    /// The synthesizer program is not installed (not on `PATH`).
    #[error("the system voice needs `{program}`, which is not installed (not on PATH)")]
    Unavailable {
        /// The program looked for.
        program: String,
    },
    /// The program could not be started, or its pipes failed.
    #[error("the system voice `{program}` could not run: {source}")]
    Io {
        /// The program.
        program: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// The program exited with an error.
    #[error("the system voice `{program}` failed ({status}): {stderr}")]
    Failed {
        /// The program.
        program: String,
        /// Its exit status.
        status: ExitStatus,
        /// The start of what it wrote on stderr.
        stderr: String,
    },
    /// The program ran past [`SYSTEM_VOICE_WAIT`] and was killed.
    #[error("the system voice `{program}` took longer than {} s", .wait.as_secs())]
    Timeout {
        /// The program.
        program: String,
        /// How long it was given.
        wait: Duration,
    },
    /// The program succeeded but wrote no audio.
    #[error("the system voice `{program}` produced no audio")]
    NoAudio {
        /// The program.
        program: String,
    },
}

/// The synthesizer program of this platform.
pub fn program() -> &'static str {
    if cfg!(target_os = "macos") {
        "say"
    } else if cfg!(windows) {
        "powershell"
    } else {
        "espeak-ng"
    }
}

/// Whether this platform's synthesizer is on `PATH`.
pub fn available() -> bool {
    on_path(program()).is_some()
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find_map(|dir| {
        let plain = dir.join(name);
        if plain.is_file() {
            return Some(plain);
        }
        let exe = dir.join(format!("{name}.exe"));
        (cfg!(windows) && exe.is_file()).then_some(exe)
    })
}

/// Synthesize `text` with the system voice; the WAV file's bytes.
pub async fn speak_wav(text: &str, opts: &SystemVoice) -> Result<Vec<u8>, SystemVoiceError> {
    let plan = Plan::for_platform(text, opts);
    let started = Instant::now();
    let program = plan.program.clone();
    let result = tokio::task::spawn_blocking(move || plan.run(SYSTEM_VOICE_WAIT))
        .await
        .unwrap_or_else(|e| Err(SystemVoiceError::Io { program: program.clone(), source: std::io::Error::other(e) }));
    match &result {
        Ok(bytes) => {
            tracing::debug!(record = "system_voice_done", program, chars = text.chars().count(), bytes = bytes.len(), ms = started.elapsed().as_millis() as u64,)
        }
        Err(e) => tracing::warn!(record = "system_voice_failed", program, error = %e),
    }
    result
}

static NEXT_FILE: AtomicU64 = AtomicU64::new(0);

/// One run of a synthesizer: what to start and where its WAV appears.
#[derive(Debug)]
struct Plan {
    program: String,
    args: Vec<String>,
    env: Vec<(String, String)>,
    stdin: String,
    /// `None`: the WAV is the program's stdout.
    out_file: Option<PathBuf>,
}

fn clamp_speed(speed: f32) -> f32 {
    if speed.is_finite() && speed > 0.0 {
        speed.clamp(0.25, 4.0)
    } else {
        1.0
    }
}

fn words_per_minute(speed: f32) -> u32 {
    (BASE_WORDS_PER_MINUTE * clamp_speed(speed)).round() as u32
}

fn temp_wav() -> PathBuf {
    let n = NEXT_FILE.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("yui-voice-{}-{n}.wav", std::process::id()))
}

impl Plan {
    fn for_platform(text: &str, opts: &SystemVoice) -> Plan {
        if cfg!(target_os = "macos") {
            Plan::say(text, opts, temp_wav())
        } else if cfg!(windows) {
            Plan::sapi(text, opts, temp_wav())
        } else {
            Plan::espeak(text, opts)
        }
    }

    fn espeak(text: &str, opts: &SystemVoice) -> Plan {
        let mut args = vec!["--stdout".to_string(), "-s".into(), words_per_minute(opts.speed).to_string()];
        if let Some(voice) = opts.voice.as_deref().filter(|v| !v.trim().is_empty()) {
            args.extend(["-v".into(), voice.to_string()]);
        }
        args.push("--stdin".into());
        Plan { program: "espeak-ng".into(), args, env: vec![], stdin: text.to_string(), out_file: None }
    }

    fn say(text: &str, opts: &SystemVoice, out: PathBuf) -> Plan {
        let mut args = vec![
            "-o".to_string(),
            out.to_string_lossy().into_owned(),
            "--data-format=LEI16@22050".into(),
            "-r".into(),
            words_per_minute(opts.speed).to_string(),
        ];
        if let Some(voice) = opts.voice.as_deref().filter(|v| !v.trim().is_empty()) {
            args.extend(["-v".into(), voice.to_string()]);
        }
        args.extend(["-f".into(), "-".into()]);
        Plan { program: "say".into(), args, env: vec![], stdin: text.to_string(), out_file: Some(out) }
    }

    fn sapi(text: &str, opts: &SystemVoice, out: PathBuf) -> Plan {
        // SAPI's Rate runs -10..=10, about a third to three times normal.
        let rate = (10.0 * clamp_speed(opts.speed).ln() / 3f32.ln()).round().clamp(-10.0, 10.0) as i32;
        let script = "[Console]::InputEncoding = [System.Text.Encoding]::UTF8; \
            Add-Type -AssemblyName System.Speech; \
            $t = [Console]::In.ReadToEnd(); \
            $s = New-Object System.Speech.Synthesis.SpeechSynthesizer; \
            if ($env:YUI_VOICE) { $s.SelectVoice($env:YUI_VOICE) }; \
            $s.Rate = [int]$env:YUI_RATE; \
            $s.SetOutputToWaveFile($env:YUI_WAV_OUT); \
            $s.Speak($t); \
            $s.Dispose()";
        let mut env = vec![("YUI_RATE".to_string(), rate.to_string()), ("YUI_WAV_OUT".to_string(), out.to_string_lossy().into_owned())];
        env.push(("YUI_VOICE".into(), opts.voice.clone().unwrap_or_default()));
        Plan {
            program: "powershell".into(),
            args: vec!["-NoProfile".into(), "-NonInteractive".into(), "-Command".into(), script.into()],
            env,
            stdin: text.to_string(),
            out_file: Some(out),
        }
    }

    /// Start the program, feed it the text, wait at most `wait`; the WAV.
    fn run(self, wait: Duration) -> Result<Vec<u8>, SystemVoiceError> {
        let program = self.program.clone();
        let io = |source: std::io::Error| SystemVoiceError::Io { program: program.clone(), source };
        let Some(path) = on_path(&self.program) else {
            return Err(SystemVoiceError::Unavailable { program: self.program });
        };
        let mut child = Command::new(path)
            .args(&self.args)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(io)?;
        let mut stdin = child.stdin.take().expect("piped stdin");
        let text = self.stdin;
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
            // Dropping stdin closes it: the program sees the end of the text.
        });
        let mut stdout = child.stdout.take().expect("piped stdout");
        let reader = std::thread::spawn(move || {
            let mut buf = Vec::new();
            stdout.read_to_end(&mut buf).map(|_| buf)
        });
        let mut stderr = child.stderr.take().expect("piped stderr");
        let err_reader = std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = stderr.by_ref().take(4_096).read_to_end(&mut buf);
            String::from_utf8_lossy(&buf).trim().to_string()
        });
        let deadline = Instant::now() + wait;
        let status = loop {
            if let Some(status) = child.try_wait().map_err(io)? {
                break status;
            }
            if Instant::now() >= deadline {
                let _ = child.kill();
                let _ = child.wait();
                remove(self.out_file.as_deref());
                return Err(SystemVoiceError::Timeout { program, wait });
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let _ = writer.join();
        let stdout = reader.join().unwrap_or_else(|_| Ok(Vec::new())).map_err(io)?;
        let stderr = err_reader.join().unwrap_or_default();
        if !status.success() {
            remove(self.out_file.as_deref());
            return Err(SystemVoiceError::Failed { program, status, stderr });
        }
        let bytes = match &self.out_file {
            None => stdout,
            Some(path) => {
                let read = std::fs::read(path);
                remove(Some(path));
                read.map_err(io)?
            }
        };
        if bytes.len() <= 44 {
            return Err(SystemVoiceError::NoAudio { program });
        }
        Ok(bytes)
    }
}

fn remove(path: Option<&Path>) {
    if let Some(path) = path {
        let _ = std::fs::remove_file(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode;
    use yui_turn::voice::playback::Sound;

    #[test]
    fn speed_becomes_words_per_minute_within_bounds() {
        assert_eq!(words_per_minute(1.0), 175);
        assert_eq!(words_per_minute(2.0), 350);
        assert_eq!(words_per_minute(100.0), 700);
        assert_eq!(words_per_minute(f32::NAN), 175);
        assert_eq!(words_per_minute(-1.0), 175);
    }

    #[test]
    fn the_text_never_becomes_an_argument() {
        let text = "-v de; rm -rf / $(reboot) \"quoted\"";
        let opts = SystemVoice { voice: Some("en-us".into()), speed: 1.0 };
        for plan in [Plan::espeak(text, &opts), Plan::say(text, &opts, PathBuf::from("/tmp/x.wav")), Plan::sapi(text, &opts, PathBuf::from("x.wav"))] {
            assert_eq!(plan.stdin, text);
            assert!(plan.args.iter().all(|a| !a.contains("rm -rf")), "{plan:?}");
            assert!(plan.env.iter().all(|(_, v)| !v.contains("rm -rf")), "{plan:?}");
        }
        let espeak = Plan::espeak(text, &opts);
        assert_eq!(espeak.args, ["--stdout", "-s", "175", "-v", "en-us", "--stdin"]);
    }

    #[test]
    fn sapi_rate_spans_minus_ten_to_ten() {
        let rate = |speed| Plan::sapi("x", &SystemVoice { voice: None, speed }, "o.wav".into()).env[0].1.clone();
        assert_eq!(rate(1.0), "0");
        assert_eq!(rate(3.0), "10");
        assert_eq!(rate(4.0), "10");
        assert_eq!(rate(1.0 / 3.0), "-10");
    }

    fn pcm_rms(sound: &Sound) -> f32 {
        let Sound::Pcm { samples, .. } = sound else { panic!("expected samples") };
        (samples.iter().map(|s| s * s).sum::<f32>() / samples.len() as f32).sqrt()
    }

    /// Runs espeak-ng for real on Linux. Skips when it is missing, except on
    /// CI (the `CI` variable set), where a missing espeak-ng fails.
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn espeak_ng_speaks_a_decodable_wav_of_plausible_length() {
        if !available() {
            assert!(std::env::var_os("CI").is_none(), "espeak-ng must be installed on CI (scripts/setup.sh)");
            eprintln!("espeak-ng is not installed: skipped");
            return;
        }
        let text = "The quick brown fox jumps over the lazy dog.";
        let wav = speak_wav(text, &SystemVoice::default()).await.unwrap();
        let sound = decode(&wav, "audio/wav").unwrap();
        let normal = sound.duration();
        // Nine words at 175 words a minute: about three seconds.
        assert!(normal > Duration::from_millis(1_500) && normal < Duration::from_secs(6), "{normal:?}");
        assert!(pcm_rms(&sound) > 0.01, "silent speech");

        let fast = speak_wav(text, &SystemVoice { voice: Some("en".into()), speed: 2.0 }).await.unwrap();
        let fast = decode(&fast, "audio/wav").unwrap().duration();
        assert!(fast < normal.mul_f32(0.75), "speed 2 took {fast:?}, speed 1 {normal:?}");
    }

    #[test]
    fn a_missing_program_is_unavailable() {
        let mut plan = Plan::espeak("Hello.", &SystemVoice::default());
        plan.program = "yui-no-such-synthesizer".into();
        let err = plan.run(Duration::from_secs(1)).unwrap_err();
        assert!(matches!(err, SystemVoiceError::Unavailable { .. }), "{err:?}");
        assert!(err.to_string().contains("not installed"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_failing_program_reports_its_status_and_stderr() {
        let plan = Plan {
            program: "sh".into(),
            args: vec!["-c".into(), "cat >/dev/null; echo boom >&2; exit 3".into()],
            env: vec![],
            stdin: "text".into(),
            out_file: None,
        };
        let err = plan.run(Duration::from_secs(5)).unwrap_err();
        let SystemVoiceError::Failed { status, stderr, .. } = &err else { panic!("{err:?}") };
        assert_eq!((status.code(), stderr.as_str()), (Some(3), "boom"));
    }

    #[cfg(unix)]
    #[test]
    fn a_hanging_program_is_killed_at_the_wait() {
        let plan = Plan { program: "sleep".into(), args: vec!["30".into()], env: vec![], stdin: String::new(), out_file: None };
        let started = Instant::now();
        let err = plan.run(Duration::from_millis(200)).unwrap_err();
        assert!(matches!(err, SystemVoiceError::Timeout { .. }), "{err:?}");
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
