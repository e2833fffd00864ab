//! The real speech path, with real components: speech-dispatcher with
//! espeak-ng and rodio (cpal's PulseAudio host) playing into a PulseAudio
//! null sink, recorded from its monitor with parecord.

mod common;

#[path = "support/audio.rs"]
mod audio;

use audio::{AudioEnv, Heard};

use std::sync::{Mutex, MutexGuard};

/// One sound system at a time: each test starts its own PulseAudio (and
/// speech-dispatcher), and several playing at once on a small machine can
/// starve one another's output.
static SOUND: Mutex<()> = Mutex::new(());

fn one_at_a_time() -> MutexGuard<'static, ()> {
    // A failed test poisons the lock; the next one may still run.
    SOUND
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Runs `pegboard say ARGS` against the private sound system; returns
/// its standard error.
fn say(env: &AudioEnv, args: &[&str]) -> String {
    let out = common::pegboard_command()
        .arg("say")
        .args(args)
        .envs(env.vars())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("pegboard runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "pegboard say {args:?} failed: {stderr}"
    );
    stderr
}

fn heard_saying(env: &AudioEnv, name: &str, args: &[&str]) -> (Heard, String) {
    let rec = env.record(name);
    let stderr = say(env, args);
    (rec.stop(), stderr)
}

#[test]
fn speech_dispatcher_announcement_reaches_the_sound_output() {
    let _turn = one_at_a_time();
    let env = AudioEnv::start("sd", true);
    let (heard, stderr) = heard_saying(
        &env,
        "sd",
        &["--voice", "speech-dispatcher", "--move", "g1f3"],
    );
    assert!(stderr.contains("spoken by: speech-dispatcher"), "{stderr}");
    // "Springer Felix drei" at the brisk default rate: well under 3 s,
    // and not a click.
    assert!(
        heard.audible > 0.4 && heard.audible < 3.0,
        "implausible length of speech: {heard:?}"
    );
    assert!(heard.peak > 0.1, "too quiet to be speech: {heard:?}");
}

#[test]
fn clips_announcement_reaches_the_sound_output_with_the_length_of_its_clips() {
    let _turn = one_at_a_time();
    let env = AudioEnv::start("clips", false);
    let (heard, stderr) = heard_saying(&env, "clips", &["--voice", "clips", "--move", "g1f3"]);
    assert!(stderr.contains("spoken by: clips"), "{stderr}");
    // The same words through the file voice give the length to expect.
    let out_dir = env.dir.join("file-voice");
    let config = env.dir.join("file.toml");
    std::fs::write(
        &config,
        format!("[speech.file]\ndirectory = \"{}\"\n", out_dir.display()),
    )
    .expect("config");
    say(
        &env,
        &[
            "--voice",
            "file",
            "--move",
            "g1f3",
            "--config",
            &config.display().to_string(),
        ],
    );
    let expected = audio::heard(&out_dir.join("0001.wav"));
    assert!(
        (heard.sounding - expected.sounding).abs() < 0.15,
        "played {heard:?}, the clips make {expected:?}"
    );
    // From the first audible sample to the last: a gap in the playback (a
    // stutter: 1.36 s heard for 1.15 s of clips) makes it longer, and a
    // clipped end shorter. Both sides are bounded.
    assert!(
        (heard.audible - expected.audible).abs() < 0.1,
        "played over {:.3} s what the clips make in {:.3} s: {heard:?}",
        heard.audible,
        expected.audible
    );
}

#[test]
fn nothing_reaches_the_sound_output_when_muted() {
    let _turn = one_at_a_time();
    let env = AudioEnv::start("muted", true);
    let (heard, stderr) = heard_saying(&env, "muted", &["--mute", "--move", "g1f3"]);
    assert!(stderr.contains("spoken by: null"), "{stderr}");
    assert_eq!(
        heard.audible, 0.0,
        "muted, yet something was heard: {heard:?}"
    );
    assert!(heard.peak < 0.02, "{heard:?}");
    // The control: the same recorder setup hears the same move unmuted.
    let (control, _) = heard_saying(&env, "unmuted", &["--move", "g1f3"]);
    assert!(
        control.audible > 0.4,
        "the recorder hears speech: {control:?}"
    );
}

#[test]
fn without_speech_dispatcher_the_chain_falls_back_to_clips() {
    // PulseAudio runs, speech-dispatcher does not (and cannot be
    // autospawned at this private address): the default chain goes on to
    // the clips, and the failure is said.
    let _turn = one_at_a_time();
    let env = AudioEnv::start("fallback", false);
    let (heard, stderr) = heard_saying(&env, "fallback", &["--move", "e2e4"]);
    assert!(stderr.contains("voice speech-dispatcher"), "{stderr}");
    assert!(stderr.contains("spoken by: clips"), "{stderr}");
    assert!(heard.audible > 0.3, "{heard:?}");
}

#[test]
fn a_named_voice_speech_dispatcher_lacks_is_said_and_the_clips_speak() {
    let _turn = one_at_a_time();
    let env = AudioEnv::start("unknown-voice", true);
    let config = env.dir.join("voice.toml");
    std::fs::write(
        &config,
        // The list of voices is read to check the name: about a second
        // natively, far longer under an emulator; `say` waits for it.
        "[speech]\nopen_within_ms = 300000\n[speech.speech_dispatcher]\nvoice = \"no-such-voice\"\n",
    )
    .expect("config");
    let (heard, stderr) = heard_saying(
        &env,
        "unknown-voice",
        &["--move", "g1f3", "--config", &config.display().to_string()],
    );
    assert!(
        stderr.contains("has no voice named \"no-such-voice\""),
        "{stderr}"
    );
    assert!(stderr.contains("spoken by: clips"), "{stderr}");
    assert!(heard.audible > 0.5, "{heard:?}");
}

/// `play` on a trace of 1. Nf3 with speech-dispatcher alone, the spoken
/// menu's choices kept in its journal directory at `rate` and `volume`:
/// what the sound output heard.
fn play_heard_with_choices(env: &AudioEnv, name: &str, rate: i32, volume: u32) -> Heard {
    let dir = env.dir.join(name);
    let journal = dir.join("games");
    std::fs::create_dir_all(&journal).expect("journal dir");
    std::fs::write(
        journal.join("choices.toml"),
        format!(
            "opponent = \"person\"\ntime_control = \"none\"\ncolor = \"white\"\n\
             rate = {rate}\nvolume = {volume}\nlanguage = \"fide\"\n"
        ),
    )
    .expect("choices");
    let config = common::nf3_play_config(
        &dir,
        &format!(
            "[speech]\nvoices = [\"speech-dispatcher\"]\n[journal]\ndir = \"{}\"\n",
            journal.display()
        ),
    );
    let rec = env.record(name);
    let out = common::pegboard_command()
        .args(["play", "--seconds", "5", "--config", &config])
        .envs(env.vars())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("play runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    rec.stop()
}

#[test]
fn the_rate_and_volume_chosen_in_the_menu_reach_speech_dispatcher() {
    let _turn = one_at_a_time();
    let env = AudioEnv::start("menu-voice", true);
    // "Springer Felix drei", as fast and loud as the menu offers, then as
    // slow and quiet: the configuration file says neither.
    let fast = play_heard_with_choices(&env, "fast", 100, 100);
    let slow = play_heard_with_choices(&env, "slow", -40, 20);
    assert!(fast.audible > 0.3, "the fast one was heard: {fast:?}");
    assert!(
        slow.audible > 1.5 * fast.audible,
        "rate -40 is slower than 100: {slow:?} against {fast:?}"
    );
    assert!(
        slow.peak < 0.7 * fast.peak,
        "20 % is quieter than 100 %: {slow:?} against {fast:?}"
    );
}
