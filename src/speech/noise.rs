//! What audio libraries print onto standard error while an output opens.
//!
//! libjack, loaded by ALSA's JACK plugin when cpal looks at the machine's
//! outputs, prints a dozen lines ("jack server is not running or cannot be
//! started") on any machine without a JACK server, which is nearly every
//! one. No handler for them can be reached through cpal. So while an
//! output opens, standard error is a pipe: afterwards the lines libjack
//! wrote are kept for an error message, and every other line is passed on
//! to the real standard error as it came.

use std::sync::Mutex;

/// One catch at a time: standard error is the process's, not a thread's.
static ONE: Mutex<()> = Mutex::new(());

/// What was caught while `f` ran.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Caught {
    /// libjack's lines, in order.
    pub jack: Vec<String>,
}

impl Caught {
    /// The last line libjack wrote that says why, if any.
    pub fn last(&self) -> Option<&str> {
        self.jack
            .iter()
            .rev()
            .find(|l| !l.contains("JackShmReadWritePtr"))
            .map(String::as_str)
    }
}

/// Whether a line is libjack's.
pub fn is_jack(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    l.contains("jack") || l.starts_with("cannot connect to server")
}

/// Runs `f` with standard error caught; libjack's lines are kept, the
/// rest written to standard error afterwards. If standard error cannot be
/// caught (no pipe), `f` runs with it as it is.
#[cfg(unix)]
pub fn catching<T>(f: impl FnOnce() -> T) -> (T, Caught) {
    use std::io::{Read, Write};
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

    let _one = ONE.lock().unwrap_or_else(|p| p.into_inner());
    let mut ends = [0; 2];
    // SAFETY: `ends` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(ends.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) } != 0 {
        return (f(), Caught::default());
    }
    // SAFETY: pipe2 succeeded, so both descriptors are open and ours alone.
    let (read_end, write_end) =
        unsafe { (OwnedFd::from_raw_fd(ends[0]), OwnedFd::from_raw_fd(ends[1])) };
    let _ = std::io::stderr().flush();
    // SAFETY: dup of the process's standard error; the result is checked.
    let saved = unsafe { libc::dup(libc::STDERR_FILENO) };
    if saved < 0 {
        return (f(), Caught::default());
    }
    // SAFETY: `saved` was just opened by dup and is owned here alone.
    let saved = unsafe { OwnedFd::from_raw_fd(saved) };
    // SAFETY: both descriptors are open; dup2 replaces descriptor 2 only.
    if unsafe { libc::dup2(write_end.as_raw_fd(), libc::STDERR_FILENO) } < 0 {
        return (f(), Caught::default());
    }
    // The pipe does not block a writer: what does not fit (64 KiB) is
    // lost, never a thread stuck on a full pipe.
    let value = f();
    let _ = std::io::stderr().flush();
    // SAFETY: `saved` is open; this puts the real standard error back.
    unsafe { libc::dup2(saved.as_raw_fd(), libc::STDERR_FILENO) };
    drop(write_end);
    let mut text = Vec::new();
    let _ = std::fs::File::from(read_end).read_to_end(&mut text);
    let mut caught = Caught::default();
    let mut others = String::new();
    for line in String::from_utf8_lossy(&text).lines() {
        if is_jack(line) {
            caught.jack.push(line.to_string());
        } else {
            others.push_str(line);
            others.push('\n');
        }
    }
    if !others.is_empty() {
        let _ = std::io::stderr().write_all(others.as_bytes());
    }
    (value, caught)
}

#[cfg(not(unix))]
pub fn catching<T>(f: impl FnOnce() -> T) -> (T, Caught) {
    (f(), Caught::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libjacks_lines_are_told_apart_from_others() {
        for l in [
            "Cannot connect to server socket err = No such file or directory",
            "Cannot connect to server request channel",
            "jack server is not running or cannot be started",
            "JackShmReadWritePtr::~JackShmReadWritePtr - Init not done for -1, skipping unlock",
        ] {
            assert!(is_jack(l), "{l}");
        }
        assert!(!is_jack("pegboard: voice clips: not working"));
        let caught = Caught {
            jack: vec![
                "jack server is not running or cannot be started".into(),
                "JackShmReadWritePtr::~JackShmReadWritePtr - Init not done".into(),
            ],
        };
        assert_eq!(
            caught.last(),
            Some("jack server is not running or cannot be started")
        );
    }

    #[test]
    fn what_is_written_on_descriptor_2_meanwhile_is_caught() {
        let text = b"Cannot connect to server request channel\njack server is not running or cannot be started\n";
        let (value, caught) = catching(|| {
            // SAFETY: writes a buffer of its own length to descriptor 2.
            unsafe { libc::write(libc::STDERR_FILENO, text.as_ptr().cast(), text.len()) };
            7
        });
        assert_eq!(value, 7);
        assert_eq!(caught.jack.len(), 2);
        assert_eq!(
            caught.last(),
            Some("jack server is not running or cannot be started")
        );
    }
}
