//! The scan loop's place in the processor's queue.
//!
//! The scan loop reads the board every 5 ms. On a machine that is busy with
//! other work at the same priority (a build, an update, another program) the
//! scheduler may hold it back by more than a period, and a piece lifted and
//! put down within that time is never seen. So, with `[sensors] realtime =
//! true` (the Pi's configurations have it), the loop asks the kernel for a
//! real-time place (`SCHED_FIFO`, a low priority, below the sound
//! server's): it then runs as soon as its sleep ends. It sleeps between
//! scans and its work each turn is small, so it takes little from the rest.
//! It is asked for, not taken by default: a machine running many `play`s
//! at once (a hall's tests, a developer's) would give them all the
//! processor before anything else.
//!
//! Everything the loop starts afterwards (the engine, a speaker, a network
//! thread) starts at the ordinary priority again (`SCHED_RESET_ON_FORK`):
//! an engine that inherited a real-time place would starve the machine.
//!
//! The kernel grants it to a process with `CAP_SYS_NICE` (root), or to one
//! whose `RLIMIT_RTPRIO` allows the priority (the service unit's
//! `LimitRTPRIO=`), unless real-time time is scheduled by control group
//! and its group has none, or a container keeps it. Elsewhere the loop runs
//! at the ordinary priority, and says so once.
//!
//! What the loop starts after this runs at nice 0, not at the service's
//! `Nice=-5` (`SCHED_RESET_ON_FORK` resets a negative nice value too).

use std::fmt;

/// The real-time priority asked for: low (1 to 99), so that the sound
/// server's own real-time threads (PulseAudio's at 5 by default,
/// PipeWire's at 20 under rtkit) still come first. Any real-time priority
/// comes before all ordinary work.
pub const SCAN_LOOP_PRIORITY: i32 = 4;

/// Where the calling thread runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// Real-time, first-in-first-out, at this priority.
    RealTime(i32),
    /// The ordinary time-shared place: the kernel refused the real-time
    /// one, for this reason.
    Ordinary(String),
    /// The ordinary place, the real-time one not asked for (`[sensors]
    /// realtime = false`).
    NotAsked,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::RealTime(p) => write!(f, "real-time priority (SCHED_FIFO {p})"),
            Place::Ordinary(why) => write!(
                f,
                "ordinary priority: the real-time one was refused ({why}); as a service, \
                 give it LimitRTPRIO={SCAN_LOOP_PRIORITY} (a kernel that schedules \
                 real-time time by control group, RestrictRealtime= or a container may \
                 refuse it still)"
            ),
            Place::NotAsked => write!(
                f,
                "ordinary priority ([sensors] realtime = true asks for a real-time one)"
            ),
        }
    }
}

/// Asks the kernel to run the calling thread (the scan loop) real-time
/// at [`SCAN_LOOP_PRIORITY`], everything it starts from now on at the
/// ordinary priority. Says where it runs now.
pub fn raise_scan_loop() -> Place {
    let param = libc::sched_param {
        sched_priority: SCAN_LOOP_PRIORITY,
    };
    // SAFETY: sched_setscheduler(2) reads the one `sched_param` passed by
    // reference, which lives on this stack for the whole call; pid 0 names
    // the calling thread. It touches no memory of ours.
    let status = unsafe {
        libc::sched_setscheduler(0, libc::SCHED_FIFO | libc::SCHED_RESET_ON_FORK, &param)
    };
    if status != 0 {
        return Place::Ordinary(std::io::Error::last_os_error().to_string());
    }
    let policy = policy();
    if policy == libc::SCHED_FIFO {
        Place::RealTime(SCAN_LOOP_PRIORITY)
    } else {
        Place::Ordinary(format!("the thread runs with policy {policy} after all"))
    }
}

/// The calling thread's scheduling policy, without its flags.
fn policy() -> i32 {
    // SAFETY: sched_getscheduler(2) takes a thread id (0: the calling
    // thread) and touches no memory of ours.
    unsafe { libc::sched_getscheduler(0) & !libc::SCHED_RESET_ON_FORK }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_raised_loop_is_real_time_and_what_it_starts_is_not() {
        let (place, own, (started, program)) = std::thread::spawn(|| {
            let place = raise_scan_loop();
            let own = policy();
            let started = std::thread::spawn(policy).join().ok();
            // A program it starts (the engine), as chrt(1) reads it.
            let program = std::process::Command::new("sh")
                .args(["-c", "chrt -p $$"])
                .output()
                .map(|o| String::from_utf8_lossy(&o.stdout).to_string());
            (place, own, (started, program))
        })
        .join()
        .expect("the thread ran");
        match place {
            Place::RealTime(p) => {
                assert_eq!(p, SCAN_LOOP_PRIORITY);
                assert_eq!(own, libc::SCHED_FIFO, "the loop itself");
            }
            Place::Ordinary(why) => {
                // Not permitted here: nothing changed.
                assert_eq!(own, libc::SCHED_OTHER, "{why}");
            }
            Place::NotAsked => unreachable!("raise_scan_loop always asks"),
        }
        assert_eq!(
            started,
            Some(libc::SCHED_OTHER),
            "a thread the loop starts runs at the ordinary priority"
        );
        let program = program.expect("sh runs");
        assert!(
            program.contains("scheduling policy: SCHED_OTHER"),
            "a program the loop starts runs at the ordinary priority: {program}"
        );
    }
}
