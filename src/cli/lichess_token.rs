//! `pegboard lichess-token`: the player's lichess token, made on lichess
//! with the scope it needs, read without being shown, checked with
//! lichess, and kept where `play` reads it, for the user `play` runs as.

use std::io::{BufRead as _, IsTerminal as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args as ClapArgs;
use pegboard::config::Config;
use pegboard::lichess::client::{ApiError, Client};
use pegboard::lichess::token::{self, Keeper, PlaceError, Token};

use super::{finish, load_config};

/// The service's configuration (hardware/install.sh installs it, and
/// hardware/pegboard.service runs `play` with it).
const SERVICE_CONFIG: &str = "/etc/pegboard/pegboard.toml";

/// The service's state directory (its `StateDirectory=`, handed to it as
/// `$STATE_DIRECTORY`): where its `play` keeps the games, and reads the
/// token, when its configuration names no `[journal] dir`.
const SERVICE_STATE: &str = "/var/lib/pegboard";

#[derive(ClapArgs)]
pub struct Args {
    /// The configuration `play` runs with (see config/pegboard.toml): the
    /// token is checked with its [lichess] server and kept in its
    /// [journal] dir, for the owner of that directory. For the service:
    /// sudo pegboard lichess-token --config /etc/pegboard/pegboard.toml
    #[arg(long)]
    config: Option<String>,
}

pub fn run(a: Args) -> ExitCode {
    finish("lichess-token", keep(a.config.as_deref()))
}

fn keep(file: Option<&str>) -> Result<(), String> {
    let config = load(file)?;
    let keeper = token::keeper(&token_dir(&config, file)?).map_err(|e| as_root(e, file))?;
    let server = config.lichess.server.trim_end_matches('/');
    let address = token::create_address(server);
    if file.is_none() && Path::new(SERVICE_CONFIG).exists() {
        eprintln!(
            "pegboard lichess-token: this keeps the token for `pegboard play` run by you \
             without --config. For the service that plays from boot, stop here (Ctrl-C) and \
             run:\n  sudo pegboard lichess-token --config {SERVICE_CONFIG}"
        );
    }
    let terminal = std::io::stdin().is_terminal();
    eprintln!(
        "pegboard lichess-token: pegboard plays on lichess with a token of yours. Open this \
         page (logged in to lichess), where \"Play games with the board API\" is already \
         chosen, and press Create:\n  {address}\nthen copy the token, paste it here{} and \
         press Enter:",
        if terminal { " (it is not shown)" } else { "" }
    );
    let line = read_line(terminal)?;
    let token = Token::new(&line).map_err(|e| e.to_string())?;
    check(server, &token, &address)?;
    let path = token::store_for(&keeper, &token).map_err(|e| e.to_string())?;
    println!("{}", kept_where(&path, &keeper, service(file)));
    Ok(())
}

/// The configuration named, or the defaults. One the caller may not read
/// (the service's, pegboard's group's alone) says to keep the token as
/// root.
fn load(file: Option<&str>) -> Result<Config, String> {
    load_config(file).map_err(|e| match file {
        Some(f)
            if std::fs::File::open(f)
                .is_err_and(|e| e.kind() == std::io::ErrorKind::PermissionDenied) =>
        {
            format!("{e}\nKeep the token as root:\n  {}", sudo(file))
        }
        _ => e,
    })
}

/// Whether `file` is the service's configuration.
fn service(file: Option<&str>) -> bool {
    let real = |f: &str| std::fs::canonicalize(f).ok();
    file.is_some_and(|f| real(f).is_some_and(|f| Some(f) == real(SERVICE_CONFIG)))
}

/// Where `play` with `config` reads the token: its `[journal] dir`; for
/// the service's configuration without one, the service's state directory
/// (the caller's own would be root's, or nobody's the service reads);
/// else the caller's state directory, as `play` run by him finds it.
fn token_dir(config: &Config, file: Option<&str>) -> Result<PathBuf, String> {
    if config.journal.dir.is_none() && service(file) {
        return Ok(PathBuf::from(SERVICE_STATE));
    }
    let path = pegboard::runtime::lichess::token_path(config).map_err(|e| e.to_string())?;
    Ok(path.parent().map_or_else(PathBuf::new, Path::to_path_buf))
}

/// The command that keeps the token as root, with the same configuration.
fn sudo(file: Option<&str>) -> String {
    match file {
        Some(f) => {
            let f = std::path::absolute(f).unwrap_or_else(|_| PathBuf::from(f));
            format!("sudo pegboard lichess-token --config {}", f.display())
        }
        None => "sudo pegboard lichess-token".into(),
    }
}

/// A directory the token cannot be kept in by the caller, with the command
/// that can when root could.
fn as_root(e: PlaceError, file: Option<&str>) -> String {
    match &e {
        PlaceError::OthersDir { .. } | PlaceError::Unusable { denied: true, .. } => {
            format!("{e}. Keep the token as root:\n  {}", sudo(file))
        }
        PlaceError::Unusable { .. } => e.to_string(),
    }
}

/// One line from standard input: from a terminal, not shown as it is
/// typed or pasted (its echo off until the line is read, whatever
/// becomes of the reading); from a pipe, as it comes.
pub(super) fn read_line(terminal: bool) -> Result<String, String> {
    let _quiet = if terminal {
        Some(Quiet::new().map_err(|e| format!("the terminal: {e}"))?)
    } else {
        None
    };
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| format!("standard input: {e}"))?;
    Ok(line)
}

/// The terminal on standard input with its echo off (but for the
/// newline), its settings put back when dropped, and put back too when
/// Ctrl-C (or a hangup, a kill) ends the process meanwhile, which skips
/// every drop. Through termios with the `libc` crate pegboard already
/// uses: `rpassword` would do the same, as another dependency, and leaves
/// the echo off on Ctrl-C.
struct Quiet(libc::termios);

/// The terminal's settings before its echo went off, for
/// [`restore_and_end`].
static BEFORE: std::sync::OnceLock<libc::termios> = std::sync::OnceLock::new();

/// The signals that end the process while the token is read.
const ENDING: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// A signal that ends the process while the echo is off: the terminal's
/// settings put back, then the signal's own default action taken (the
/// process ends as it would have, its status saying so).
extern "C" fn restore_and_end(signal: libc::c_int) {
    if let Some(was) = BEFORE.get() {
        // SAFETY: tcsetattr is async-signal-safe (POSIX.1, signal-safety
        // (7)); `was` is the termios tcgetattr gave, set before the
        // handler was installed and never changed.
        unsafe { libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, was) };
    }
    // SAFETY: signal and raise are async-signal-safe; the default action
    // ends the process.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

impl Quiet {
    fn new() -> std::io::Result<Quiet> {
        // SAFETY: termios is a plain C struct; all zero is a value of it,
        // which tcgetattr then fills.
        let mut was: libc::termios = unsafe { std::mem::zeroed() };
        // SAFETY: `was` is ours and of the type tcgetattr writes.
        if unsafe { libc::tcgetattr(libc::STDIN_FILENO, &mut was) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let _ = BEFORE.set(was);
        for signal in ENDING {
            let handler = restore_and_end as extern "C" fn(libc::c_int);
            // SAFETY: the handler does only async-signal-safe work.
            unsafe { libc::signal(signal, handler as libc::sighandler_t) };
        }
        let mut quiet = was;
        quiet.c_lflag &= !libc::ECHO;
        quiet.c_lflag |= libc::ECHONL;
        // SAFETY: `quiet` is a termios tcgetattr gave, one flag changed.
        if unsafe { libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &quiet) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(Quiet(was))
    }
}

impl Drop for Quiet {
    fn drop(&mut self) {
        // SAFETY: the settings tcgetattr gave, put back as they were.
        unsafe { libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &self.0) };
        for signal in ENDING {
            // SAFETY: the default action again, as before `Quiet::new`.
            unsafe { libc::signal(signal, libc::SIG_DFL) };
        }
    }
}

/// lichess's word on the token, said: whose it is and whether it may
/// play. A token lichess does not know, or one that may not play, is not
/// kept (the error says why and where to make one); one lichess could not
/// be asked about is kept, with a warning: a player setting up offline.
fn check(server: &str, token: &Token, address: &str) -> Result<(), String> {
    let unchecked = |why: String| {
        eprintln!(
            "pegboard lichess-token: warning: {why}, so the token could not be checked. It \
             is kept all the same; `pegboard play` will say if lichess refuses it."
        );
        Ok(())
    };
    match Client::new(server, token.clone()).account() {
        Ok(account) => match account.may_play() {
            Some(true) => {
                println!(
                    "lichess knows the token: it is {}'s, and may play games with the board \
                     API.",
                    account.username
                );
                Ok(())
            }
            Some(false) => Err(format!(
                "the token is {}'s, but it may not play games with the board API (the \
                 board:play scope is missing), so pegboard cannot play with it: it was not \
                 kept. Make a token with that scope here:\n  {address}",
                account.username
            )),
            None => {
                println!("lichess knows the token: it is {}'s.", account.username);
                eprintln!(
                    "pegboard lichess-token: warning: lichess did not say what the token may \
                     do; pegboard needs \"Play games with the board API\" (board:play)."
                );
                Ok(())
            }
        },
        Err(ApiError::Unauthorized) => Err(format!(
            "lichess refused the token (no such token): it was not kept. Was it copied \
             whole? A token that was deleted or has expired is refused too; make a new one \
             here:\n  {address}"
        )),
        Err(ApiError::Transport(why)) => unchecked(format!("lichess could not be reached ({why})")),
        Err(e) => unchecked(format!("lichess did not answer as it should ({e})")),
    }
}

/// Where the token was kept, and who alone may read it.
fn kept_where(path: &Path, keeper: &Keeper, service: bool) -> String {
    let whose = if keeper.is_caller {
        "readable by you alone".to_string()
    } else {
        format!(
            "given to the user {} (the owner of {}) and readable by that user alone",
            keeper.name,
            keeper.dir.display()
        )
    };
    let mut said = format!(
        "pegboard lichess-token: the token is kept in {}, {whose}.",
        path.display()
    );
    if service {
        said.push_str(
            " The service reads it when it starts: `sudo systemctl restart pegboard` if it is \
             running.",
        );
    }
    said
}
