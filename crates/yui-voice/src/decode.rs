//! Decoding TTS audio into samples for the sink (`docs/voice.md`).
//!
//! [`decode`] turns the bytes a speech request answered ([`super::tts::Synth`])
//! into a [`Sound::Pcm`] of interleaved f32 samples at the stream's own rate
//! and channel count; the sink resamples. Containers and codecs come from
//! `symphonia`: WAV (PCM), MP3, FLAC, Ogg Vorbis and ADTS AAC. Opus is not
//! supported (symphonia has no Opus decoder): ask the server for `wav`,
//! `mp3`, `flac` or `pcm` instead. OpenAI's raw `pcm` format (`audio/pcm`:
//! 24 kHz, 16-bit signed little-endian, mono, no header) is read by hand;
//! `rate=` and `channels=` parameters on the MIME type override those.

use std::io::Cursor;
use std::sync::Arc;
use symphonia::core::codecs::audio::well_known::{CODEC_ID_AAC, CODEC_ID_OPUS};
use symphonia::core::codecs::audio::AudioDecoderOptions;
use symphonia::core::errors::Error as SymError;
use symphonia::core::formats::probe::Hint;
use symphonia::core::formats::{FormatOptions, TrackType};
use symphonia::core::io::MediaSourceStream;
use symphonia::core::meta::MetadataOptions;
use yui_engine::limits::AUDIO_DECODED_MAX;
use yui_turn::voice::playback::Sound;

/// The sample rate of OpenAI's raw `pcm` response format.
pub const RAW_PCM_RATE: u32 = 24_000;

/// Why audio bytes could not become samples.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    /// No bytes at all.
    #[error("the audio is empty (0 bytes, {mime})")]
    Empty {
        /// The MIME type the bytes came with.
        mime: String,
    },
    /// The bytes are no container or stream symphonia knows.
    #[error("the audio ({mime}, {bytes} bytes) is not in a format this client reads (wav, mp3, flac, ogg vorbis, aac, raw pcm): {reason}")]
    Unrecognized {
        /// The MIME type the bytes came with.
        mime: String,
        /// How many bytes there were.
        bytes: usize,
        /// symphonia's message.
        reason: String,
    },
    /// The container is known but its codec is not decoded here.
    #[error("the audio codec {codec} ({mime}) is not supported; ask the TTS server for wav, mp3, flac or pcm")]
    UnsupportedCodec {
        /// The codec's name (`opus`, `aac`) or symphonia's id for it.
        codec: String,
        /// The MIME type the bytes came with.
        mime: String,
    },
    /// The stream is known but broken, or has no audio track.
    #[error("the audio ({mime}) is malformed: {reason}")]
    Malformed {
        /// The MIME type the bytes came with.
        mime: String,
        /// What is wrong.
        reason: String,
    },
    /// The audio decodes to more than [`AUDIO_DECODED_MAX`].
    #[error("the audio ({mime}) is longer than {} s", AUDIO_DECODED_MAX.as_secs())]
    TooLong {
        /// The MIME type the bytes came with.
        mime: String,
    },
}

/// Decode `bytes` (of MIME type `mime`, used as a hint; the content decides)
/// into interleaved f32 samples. See the module docs for the formats.
pub fn decode(bytes: &[u8], mime: &str) -> Result<Sound, DecodeError> {
    let mime_owned = || mime.to_string();
    if bytes.is_empty() {
        return Err(DecodeError::Empty { mime: mime_owned() });
    }
    let essence = mime.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    if essence == "audio/pcm" {
        return decode_raw_pcm(bytes, mime);
    }
    decode_container(bytes, mime, &essence)
}

/// OpenAI's headerless `pcm`: 16-bit signed little-endian samples.
fn decode_raw_pcm(bytes: &[u8], mime: &str) -> Result<Sound, DecodeError> {
    let mut rate = RAW_PCM_RATE;
    let mut channels: u16 = 1;
    for param in mime.split(';').skip(1) {
        let Some((key, value)) = param.split_once('=') else { continue };
        let value = value.trim().trim_matches('"');
        match key.trim().to_ascii_lowercase().as_str() {
            "rate" => rate = value.parse().ok().filter(|r| *r > 0).unwrap_or(rate),
            "channels" => channels = value.parse().ok().filter(|c| *c > 0).unwrap_or(channels),
            _ => {}
        }
    }
    // A trailing partial frame (a cut stream) is dropped, not an error.
    let frame_bytes = 2 * usize::from(channels);
    let whole = bytes.len() / frame_bytes * frame_bytes;
    if whole == 0 {
        return Err(DecodeError::Malformed { mime: mime.to_string(), reason: format!("{} bytes of raw pcm is not one whole frame", bytes.len()) });
    }
    let frames = (whole / frame_bytes) as u64;
    if frames > u64::from(rate) * AUDIO_DECODED_MAX.as_secs() {
        return Err(DecodeError::TooLong { mime: mime.to_string() });
    }
    let samples: Arc<[f32]> = bytes[..whole].chunks_exact(2).map(|b| f32::from(i16::from_le_bytes([b[0], b[1]])) / 32_768.0).collect();
    Ok(Sound::Pcm { sample_rate: rate, channels, samples })
}

/// The file extension a MIME type suggests, for symphonia's probe.
fn extension(essence: &str) -> Option<&'static str> {
    Some(match essence {
        "audio/wav" | "audio/x-wav" | "audio/wave" | "audio/vnd.wave" => "wav",
        "audio/mpeg" | "audio/mp3" => "mp3",
        "audio/flac" | "audio/x-flac" => "flac",
        "audio/ogg" | "audio/opus" | "audio/vorbis" => "ogg",
        "audio/aac" | "audio/x-aac" => "aac",
        _ => return None,
    })
}

fn codec_name(codec: symphonia::core::codecs::audio::AudioCodecId) -> String {
    if codec == CODEC_ID_OPUS {
        "opus".into()
    } else if codec == CODEC_ID_AAC {
        "aac".into()
    } else {
        codec.to_string()
    }
}

fn decode_container(bytes: &[u8], mime: &str, essence: &str) -> Result<Sound, DecodeError> {
    let malformed = |reason: String| DecodeError::Malformed { mime: mime.to_string(), reason };
    let mut hint = Hint::new();
    if !essence.is_empty() {
        hint.mime_type(essence);
    }
    if let Some(ext) = extension(essence) {
        hint.with_extension(ext);
    }
    let source = MediaSourceStream::new(Box::new(Cursor::new(bytes.to_vec())), Default::default());
    let mut format = symphonia::default::get_probe()
        .probe(&hint, source, FormatOptions::default(), MetadataOptions::default())
        .map_err(|e| DecodeError::Unrecognized { mime: mime.to_string(), bytes: bytes.len(), reason: e.to_string() })?;
    let track = format.default_track(TrackType::Audio).ok_or_else(|| malformed("no audio track".into()))?;
    let track_id = track.id;
    let params = track.codec_params.as_ref().and_then(|p| p.audio()).ok_or_else(|| malformed("the audio track has no codec parameters".into()))?.clone();
    let mut decoder = match symphonia::default::get_codecs().make_audio_decoder(&params, &AudioDecoderOptions::default()) {
        Ok(d) => d,
        Err(SymError::Unsupported(_)) => return Err(DecodeError::UnsupportedCodec { codec: codec_name(params.codec), mime: mime.to_string() }),
        Err(e) => return Err(malformed(e.to_string())),
    };

    let mut samples: Vec<f32> = Vec::new();
    let mut chunk: Vec<f32> = Vec::new();
    let mut spec: Option<(u32, u16)> = params.sample_rate.zip(params.channels.as_ref().map(|c| c.count() as u16));
    let (mut good, mut bad, mut last_bad) = (0usize, 0usize, String::new());
    loop {
        let packet = match format.next_packet() {
            Ok(Some(p)) => p,
            Ok(None) => break,
            // A cut stream: keep what decoded.
            Err(SymError::IoError(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(SymError::ResetRequired) => break,
            Err(e) if good > 0 => {
                tracing::debug!(record = "audio_decode_stopped", error = %e, "audio stream ended early");
                break;
            }
            Err(e) => return Err(malformed(e.to_string())),
        };
        if packet.track_id != track_id {
            continue;
        }
        match decoder.decode(&packet) {
            Ok(buf) => {
                good += 1;
                let (rate, channels) = (buf.spec().rate(), buf.spec().channels().count() as u16);
                if spec.is_none() || good == 1 {
                    spec = Some((rate, channels.max(1)));
                }
                buf.copy_to_vec_interleaved(&mut chunk);
                samples.extend_from_slice(&chunk);
                let (rate, channels) = spec.unwrap_or((rate, channels));
                let limit = u64::from(rate) * u64::from(channels.max(1)) * AUDIO_DECODED_MAX.as_secs();
                if samples.len() as u64 > limit {
                    return Err(DecodeError::TooLong { mime: mime.to_string() });
                }
            }
            Err(SymError::DecodeError(e)) => {
                bad += 1;
                last_bad = e.to_string();
            }
            Err(SymError::Unsupported(_)) => return Err(DecodeError::UnsupportedCodec { codec: codec_name(params.codec), mime: mime.to_string() }),
            Err(e) => return Err(malformed(e.to_string())),
        }
    }
    let Some((sample_rate, channels)) = spec.filter(|(r, c)| *r > 0 && *c > 0) else {
        return Err(malformed("no sample rate or channel count".into()));
    };
    if samples.is_empty() {
        let reason = if bad > 0 { format!("no packet decoded ({bad} failed: {last_bad})") } else { "no samples".into() };
        return Err(malformed(reason));
    }
    if bad > 0 {
        tracing::debug!(record = "audio_decode_skipped", packets = bad, "skipped undecodable audio packets");
    }
    Ok(Sound::Pcm { sample_rate, channels, samples: samples.into() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A WAV of `secs` seconds of a 440 Hz tone, made with hound.
    fn wav(rate: u32, channels: u16, secs: f32, bits: u16) -> Vec<u8> {
        let spec = hound::WavSpec {
            channels,
            sample_rate: rate,
            bits_per_sample: bits,
            sample_format: if bits == 32 { hound::SampleFormat::Float } else { hound::SampleFormat::Int },
        };
        let mut out = Cursor::new(Vec::new());
        let mut w = hound::WavWriter::new(&mut out, spec).unwrap();
        let frames = (rate as f32 * secs) as u32;
        for i in 0..frames {
            let v = (i as f32 * 440.0 * std::f32::consts::TAU / rate as f32).sin() * 0.5;
            for _ in 0..channels {
                if bits == 32 {
                    w.write_sample(v).unwrap();
                } else {
                    w.write_sample((v * 32_767.0) as i16).unwrap();
                }
            }
        }
        w.finalize().unwrap();
        out.into_inner()
    }

    fn pcm(sound: &Sound) -> (u32, u16, &[f32]) {
        match sound {
            Sound::Pcm { sample_rate, channels, samples } => (*sample_rate, *channels, samples),
            Sound::Timed(_) => panic!("expected samples"),
        }
    }

    #[test]
    fn wav_16_bit_mono_decodes_with_its_rate_and_length() {
        let sound = decode(&wav(22_050, 1, 1.5, 16), "audio/wav").unwrap();
        let (rate, channels, samples) = pcm(&sound);
        assert_eq!((rate, channels), (22_050, 1));
        assert_eq!(samples.len(), 33_075);
        assert_eq!(sound.duration(), Duration::from_millis(1_500));
        let peak = samples.iter().fold(0f32, |m, s| m.max(s.abs()));
        assert!((0.45..=0.55).contains(&peak), "peak {peak}");
    }

    #[test]
    fn wav_float_stereo_decodes_interleaved() {
        let sound = decode(&wav(48_000, 2, 0.25, 32), "audio/x-wav").unwrap();
        let (rate, channels, samples) = pcm(&sound);
        assert_eq!((rate, channels), (48_000, 2));
        assert_eq!(samples.len(), 24_000);
        // Both channels carry the same tone.
        assert!(samples.chunks(2).all(|f| (f[0] - f[1]).abs() < 1e-6));
        assert_eq!(sound.duration(), Duration::from_millis(250));
    }

    #[test]
    fn a_wrong_mime_does_not_stop_a_wav_from_decoding() {
        let sound = decode(&wav(16_000, 1, 0.5, 16), "application/octet-stream").unwrap();
        assert_eq!(sound.duration(), Duration::from_millis(500));
    }

    #[test]
    fn raw_pcm_is_24_khz_mono_s16le() {
        let mut bytes = Vec::new();
        for v in [0i16, 16_384, -16_384, i16::MAX, i16::MIN] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes.push(7); // a cut trailing byte is dropped
        let sound = decode(&bytes, "audio/pcm").unwrap();
        let (rate, channels, samples) = pcm(&sound);
        assert_eq!((rate, channels), (RAW_PCM_RATE, 1));
        assert_eq!(samples, &[0.0, 0.5, -0.5, 32_767.0 / 32_768.0, -1.0]);
    }

    #[test]
    fn raw_pcm_duration_follows_its_length_and_parameters() {
        let bytes = vec![0u8; 24_000 * 2];
        assert_eq!(decode(&bytes, "audio/pcm").unwrap().duration(), Duration::from_secs(1));
        let sound = decode(&bytes, "audio/pcm; rate=16000; channels=2").unwrap();
        assert_eq!(pcm(&sound).0, 16_000);
        assert_eq!(sound.duration(), Duration::from_millis(750));
    }

    #[test]
    fn empty_audio_is_an_error() {
        let err = decode(&[], "audio/wav").unwrap_err();
        assert!(matches!(err, DecodeError::Empty { .. }), "{err:?}");
        assert!(err.to_string().contains("empty"));
        assert!(matches!(decode(&[1], "audio/pcm").unwrap_err(), DecodeError::Malformed { .. }));
    }

    #[test]
    fn garbage_is_unrecognized_with_a_clear_message() {
        let garbage: Vec<u8> = (0..4_096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        let err = decode(&garbage, "audio/mpeg").unwrap_err();
        assert!(matches!(err, DecodeError::Unrecognized { .. } | DecodeError::Malformed { .. }), "{err:?}");
        let err = decode(b"<html>Bad gateway</html>", "text/html").unwrap_err();
        assert!(matches!(err, DecodeError::Unrecognized { .. }), "{err:?}");
        assert!(err.to_string().contains("not in a format"), "{err}");
    }

    #[test]
    fn a_truncated_wav_keeps_what_it_has() {
        let bytes = wav(8_000, 1, 1.0, 16);
        let cut = &bytes[..44 + 8_000]; // header + 0.5 s
        let sound = decode(cut, "audio/wav").unwrap();
        let d = sound.duration();
        assert!(d >= Duration::from_millis(400) && d <= Duration::from_millis(500), "{d:?}");
    }
}
