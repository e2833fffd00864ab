//! A private sound system for tests and benchmarks: a PulseAudio server
//! with a null sink (there is no sound card on the test machines), a
//! speech-dispatcher with espeak-ng that plays into it, and `parecord` on
//! the sink's monitor. Everything lives in a temporary folder with its own
//! sockets and is stopped when dropped.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct AudioEnv {
    pub dir: PathBuf,
    pulse: Child,
    speechd: Option<Child>,
}

fn wait_for(path: &Path, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !path.exists() {
        assert!(
            Instant::now() < deadline,
            "{what} did not start: {} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn spawn(cmd: &mut Command, what: &str) -> Child {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{what} cannot be started ({e}); .ci/setup.sh installs it"))
}

impl AudioEnv {
    /// Starts PulseAudio (and speech-dispatcher if `speech`) in a new
    /// folder under the system temporary folder.
    pub fn start(name: &str, speech: bool) -> AudioEnv {
        let dir =
            std::env::temp_dir().join(format!("pegboard-audio-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let runtime = dir.join("run");
        std::fs::create_dir_all(&runtime).expect("temporary folder");
        let socket = dir.join("pulse.sock");
        let pulse = spawn(
            Command::new("pulseaudio")
                .env("XDG_RUNTIME_DIR", &runtime)
                .env("HOME", &dir)
                .args([
                    "-n",
                    "--daemonize=no",
                    "--exit-idle-time=-1",
                    "--use-pid-file=no",
                    "--disallow-module-loading=no",
                    "--log-target=stderr",
                    "-L",
                ])
                .arg(format!(
                    "module-native-protocol-unix socket={} auth-anonymous=1",
                    socket.display()
                ))
                .args(["-L", "module-null-sink sink_name=pegboard_null"]),
            "pulseaudio",
        );
        wait_for(&socket, "pulseaudio");
        let mut env = AudioEnv {
            dir,
            pulse,
            speechd: None,
        };
        if speech {
            env.start_speechd();
        }
        env
    }

    fn start_speechd(&mut self) {
        let conf = self.dir.join("speechd");
        std::fs::create_dir_all(conf.join("modules")).expect("speechd folder");
        std::fs::copy(
            "/etc/speech-dispatcher/modules/espeak-ng.conf",
            conf.join("modules/espeak-ng.conf"),
        )
        .expect("speech-dispatcher's espeak-ng module configuration (.ci/setup.sh installs it)");
        std::fs::write(
            conf.join("speechd.conf"),
            format!(
                "AudioOutputMethod \"pulse\"\nAudioPulseServer \"unix:{}\"\n\
                 AddModule \"espeak-ng\" \"sd_espeak-ng\" \"espeak-ng.conf\"\n\
                 DefaultModule espeak-ng\nDefaultLanguage \"de\"\nLogLevel 1\n",
                self.dir.join("pulse.sock").display()
            ),
        )
        .expect("speechd.conf");
        let socket = self.dir.join("speechd.sock");
        let child = spawn(
            Command::new("speech-dispatcher")
                .envs(self.vars())
                .args(["-s", "-t", "0", "-S"])
                .arg(&socket)
                .arg("-C")
                .arg(&conf)
                .arg("-P")
                .arg(self.dir.join("speechd.pid"))
                .arg("-L")
                .arg(&self.dir),
            "speech-dispatcher",
        );
        wait_for(&socket, "speech-dispatcher");
        self.speechd = Some(child);
    }

    /// Freezes speech-dispatcher (SIGSTOP): it keeps its socket and its
    /// connections and answers nothing, as a hung daemon does.
    pub fn freeze_speechd(&self) {
        let pid = self.speechd.as_ref().expect("speech-dispatcher runs").id();
        let status = Command::new("kill")
            .args(["-STOP", &pid.to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "speech-dispatcher could not be stopped");
    }

    /// Stops the sound server: speech-dispatcher is left without one.
    pub fn stop_pulse(&mut self) {
        let _ = self.pulse.kill();
        let _ = self.pulse.wait();
    }

    /// The environment a program needs to use this sound system.
    pub fn vars(&self) -> Vec<(&'static str, String)> {
        vec![
            (
                "XDG_RUNTIME_DIR",
                self.dir.join("run").display().to_string(),
            ),
            (
                "PULSE_SERVER",
                format!("unix:{}", self.dir.join("pulse.sock").display()),
            ),
            (
                "SPEECHD_ADDRESS",
                format!("unix_socket:{}", self.dir.join("speechd.sock").display()),
            ),
        ]
    }

    /// Records the null sink's monitor into `name`.wav until stopped.
    pub fn record(&self, name: &str) -> Recording {
        let path = self.dir.join(format!("{name}.wav"));
        let child = spawn(
            Command::new("parecord")
                .envs(self.vars())
                .args([
                    "--device=pegboard_null.monitor",
                    "--file-format=wav",
                    "--rate=16000",
                    "--channels=1",
                    "--format=s16le",
                ])
                .arg(&path),
            "parecord",
        );
        // Let the recorder connect before anything is played.
        std::thread::sleep(Duration::from_millis(300));
        Recording { child, path }
    }
}

impl Drop for AudioEnv {
    fn drop(&mut self) {
        if let Some(mut s) = self.speechd.take() {
            let _ = s.kill();
            let _ = s.wait();
        }
        let _ = self.pulse.kill();
        let _ = self.pulse.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub struct Recording {
    child: Child,
    path: PathBuf,
}

/// What a recording holds.
#[derive(Debug, Clone, Copy)]
pub struct Heard {
    /// Seconds recorded in all.
    pub total: f64,
    /// Seconds from the first to the last audible sample (0 if silent).
    pub audible: f64,
    /// Seconds of sound: the 10 ms windows with an audible sample. Unlike
    /// `audible`, a gap in playback (an output that ran dry on a busy
    /// machine) does not lengthen it.
    pub sounding: f64,
    /// The loudest sample, 0.0 … 1.0.
    pub peak: f64,
}

impl Recording {
    /// Stops recording (after a short tail) and measures what was heard.
    pub fn stop(mut self) -> Heard {
        std::thread::sleep(Duration::from_millis(300));
        // SIGINT lets parecord finish the WAV header.
        let _ = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
        heard(&self.path)
    }
}

pub fn heard(path: &Path) -> Heard {
    let mut reader = hound::WavReader::open(path)
        .unwrap_or_else(|e| panic!("recording {} is not a WAV file: {e}", path.display()));
    let spec = reader.spec();
    let samples: Vec<i16> = reader.samples::<i16>().map_while(Result::ok).collect();
    let rate = spec.sample_rate as f64 * spec.channels as f64;
    let threshold = (i16::MAX as f64 * 0.02) as i32;
    let loud = |s: &i16| (*s as i32).abs() > threshold;
    let first = samples.iter().position(loud);
    let last = samples.iter().rposition(loud);
    let peak =
        samples.iter().map(|s| (*s as i32).abs()).max().unwrap_or(0) as f64 / i16::MAX as f64;
    let window = ((rate / 100.0) as usize).max(1);
    let sounding_windows = samples
        .chunks(window)
        .filter(|w| w.iter().any(loud))
        .count();
    Heard {
        sounding: sounding_windows as f64 * window as f64 / rate,
        total: samples.len() as f64 / rate,
        audible: match (first, last) {
            (Some(a), Some(b)) => (b - a) as f64 / rate,
            _ => 0.0,
        },
        peak,
    }
}

/// Runs `body` in a copy of this process that has a sound system of its
/// own (PulseAudio with a null sink, and speech-dispatcher if `speech`),
/// which is stopped when the copy ends; `var` marks the copy. A benchmark's
/// `main` is this one call.
pub fn in_own_sound_system(var: &str, name: &str, speech: bool, body: fn()) {
    if std::env::var_os(var).is_some() {
        body();
        return;
    }
    let env = AudioEnv::start(name, speech);
    let status = Command::new(std::env::current_exe().expect("own path"))
        .envs(env.vars())
        .env(var, "1")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("the benchmark's copy");
    assert!(status.success(), "the benchmark failed");
}
