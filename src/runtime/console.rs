//! The console's secret: generated once, kept in the state directory with
//! permissions 0600 (`console-secret`), or the PIN `[console] pin` sets.

use std::io::Write;
use std::path::PathBuf;

use crate::config::Config;
use crate::runtime::error::{Error, Result};

/// The file the secret is kept in, beside the games.
pub const SECRET_FILE: &str = "console-secret";

/// Where the secret is kept: the journal directory.
pub fn secret_path(config: &Config) -> Result<PathBuf> {
    let dir = crate::runtime::keeper::journal_dir(config).ok_or_else(|| {
        Error::Journal(
            "no state directory for the console's secret: set [journal] dir, or HOME".into(),
        )
    })?;
    Ok(dir.join(SECRET_FILE))
}

/// The console's secret: the PIN if one is set, else the secret kept in
/// the state directory, made now (128 random bits, as 32 hexadecimal
/// digits) if there is none yet.
pub fn secret(config: &Config) -> Result<String> {
    if let Some(pin) = &config.console.pin {
        return Ok(pin.clone());
    }
    let path = secret_path(config)?;
    let file = |error| Error::File {
        path: path.display().to_string(),
        error,
    };
    if let Some(dir) = path.parent() {
        crate::record::journal::store::make_private_dir(dir).map_err(|error| Error::File {
            path: dir.display().to_string(),
            error,
        })?;
        writable_by_others(dir)?;
    }
    match std::fs::read_to_string(&path) {
        Ok(text) if text.trim().len() >= 32 => return Ok(text.trim().to_string()),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(file(e)),
    }
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| file(std::io::Error::other(e.to_string())))?;
    let secret: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    // Written whole under another name, readable by its owner only, then
    // put in place: a crash leaves no half secret.
    crate::record::journal::replace_private_file(&path, &format!("{secret}\n")).map_err(file)?;
    Ok(secret)
}

/// Refuses a state directory others can write: they could put their own
/// secret in place of the one kept there.
fn writable_by_others(dir: &std::path::Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(dir)
        .map_err(|error| Error::File {
            path: dir.display().to_string(),
            error,
        })?
        .permissions()
        .mode();
    if mode & 0o022 == 0 {
        return Ok(());
    }
    Err(Error::Journal(format!(
        "{} can be written by others (mode {:03o}): anyone could put a secret of \
         their own in it and drive the console; chmod 700 it (or 755), or set \
         [journal] dir to a folder of pegboard's own",
        dir.display(),
        mode & 0o777
    )))
}

/// A warning when the kept secret can be read by others than its owner
/// (copied in with the wrong mode, or a backup restored): what to do.
pub fn exposed(config: &Config) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    if config.console.pin.is_some() {
        return None;
    }
    let path = secret_path(config).ok()?;
    let mode = std::fs::metadata(&path).ok()?.permissions().mode();
    (mode & 0o077 != 0).then(|| {
        format!(
            "warning: {} can be read by others (mode {:03o}); anyone who reads it can \
             drive the console: chmod 600 it, or delete it for a new one",
            path.display(),
            mode & 0o777
        )
    })
}

/// `pegboard console-token`: the secret, for the one who keeps the
/// console (never printed by `play`, never in the event stream).
pub fn print(config: &Config, out: &mut dyn Write) -> Result<()> {
    let secret = secret(config)?;
    if let Some(warning) = exposed(config) {
        eprintln!("pegboard: {warning}");
    }
    if config.console.pin.is_some() {
        writeln!(out, "{secret}   ([console] pin)").map_err(Error::Write)?;
    } else {
        writeln!(out, "{secret}").map_err(Error::Write)?;
    }
    // Over HTTPS, the certificate's fingerprint, for the assistant to
    // hold against what his browser shows before he types the secret.
    if !config.https.listen.trim().is_empty() {
        let dir = crate::runtime::keeper::journal_dir(config).unwrap_or_else(|| ".".into());
        let identity =
            crate::net::tls::Identity::configured(&config.https, &dir, &config.mirror.hosts)
                .map_err(Error::Tls)?;
        writeln!(
            out,
            "certificate SHA-256 fingerprint: {}",
            identity.fingerprint()
        )
        .map_err(Error::Write)?;
    }
    Ok(())
}
