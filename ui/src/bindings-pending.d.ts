// STOPGAP until yui-core's bindings test exports them: `ui/src/bindings/index.ts`
// names `VoiceState` and `VoiceSettings` but crates/yui-core/tests/bindings.rs
// does not declare them, so the generated file does not compile alone. These
// globals mirror yui_core::event::VoiceState and yui_core::settings::VoiceSettings
// by hand. Once the generated file declares them, its own (module) types win
// and this file should be deleted; import them from "./bindings/index" then.

/** What voice input is doing, as the status pill shows it. */
type VoiceState =
  | { state: "off" }
  | { state: "listening" }
  | { state: "hearing" }
  | { state: "transcribing" }
  | { state: "failed"; kind: string; message: string };

/** How she speaks and listens. */
type VoiceSettings = {
  enabled: boolean;
  tts_base_url: string;
  tts_key: string;
  tts_model: string;
  tts_voice: string;
  speed_percent: number;
  system_voice: boolean;
  system_voice_name: string;
  output_device: string;
  mic_enabled: boolean;
  mic_device: string;
  vad_sensitivity: number;
  stt_base_url: string;
  stt_key: string;
  stt_model: string;
  stt_language: string;
  filler: boolean;
};
